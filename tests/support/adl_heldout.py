"""Random task generators for the held-out ADL domains of tests/data/adl_heldout/ (tests/test_adl_heldout.py).

The domains were written for the suite, not taken from a competition, and the generators draw small tasks
(a few objects) with a seeded ``random.Random``: some are unsolvable by construction (a passenger nobody may
carry, a crate on an island, a key behind its own door), most are solvable. ``generate(name, seed)`` returns
the problem text; ``DOMAINS`` maps each domain name to its generator.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "data" / "adl_heldout"


def domain_file(name: str) -> Path:
    return DATA / f"{name}-domain.pddl"


def _problem(domain: str, name: str, objects: str, init: list[str], goal: str, metric: bool = False) -> str:
    lines = [f"(define (problem {name})", f"  (:domain {domain})", f"  (:objects {objects})",
             "  (:init " + "\n         ".join(init) + ")", f"  (:goal {goal})"]
    if metric:
        lines.append("  (:metric minimize (total-cost))")
    return "\n".join(lines) + ")\n"


def lift(seed: int) -> str:
    """2-4 floors, 1-3 passengers; VIPs, no-access floors, passengers needing an attendant."""
    rng = random.Random(seed)
    floors = [f"f{i}" for i in range(rng.randint(2, 4))]
    people = [f"p{i}" for i in range(rng.randint(1, 3))]
    init = [f"(lift-at {rng.choice(floors)})"]
    init += [f"(above {a} {b})" for i, a in enumerate(floors) for b in floors[i + 1:]]
    for p in people:
        origin, destin = rng.sample(floors, 2)
        init += [f"(origin {p} {origin})", f"(destin {p} {destin})"]
        if rng.random() < 0.3:
            init.append(f"(vip {p})")
        if rng.random() < 0.3:
            init.append(f"(no-access {p} {rng.choice(floors)})")  # may be the destination: unsolvable
        if rng.random() < 0.25:
            init.append(f"(needs-attendant {p})")
        if rng.random() < 0.25:
            init.append(f"(attendant {p})")
    goal = "(forall (?p - passenger) (served ?p))" if rng.random() < 0.7 else \
        "(and " + " ".join(f"(served {p})" for p in people) + ")"
    objects = " ".join(floors) + " - floor " + " ".join(people) + " - passenger"
    return _problem("lift", f"lift-{seed}", objects, init, goal)


def workshop(seed: int) -> str:
    """1-2 parts, 0-1 tools, 1-2 extra machines besides the lathe constant, 1-2 colours besides red (the built-in
    search that confirms "unsolvable" must finish in seconds: few objects)."""
    rng = random.Random(seed)
    parts = [f"part{i}" for i in range(rng.randint(1, 2))]
    tools = [f"tool{i}" for i in range(rng.randint(0, 1))]
    machines = [f"m{i}" for i in range(rng.randint(1, 2 - len(tools)))]
    colours = [f"c{i}" for i in range(rng.randint(1, 2 - len(tools)))]
    init: list[str] = []
    for m in machines:
        init.append(f"({rng.choice(['sprayer', 'polisher'])} {m})")
        if rng.random() < 0.5:
            init.append(f"(has-paint {m} {rng.choice([*colours, 'red'])})")
    if rng.random() < 0.3:
        init.append("(polisher lathe)")
    plain = ["blank0"] if rng.random() < 0.3 else []  # an item that is neither part nor tool
    for x in parts + tools + plain:
        init.append(f"({rng.choice(['rough', 'rough', 'smooth'])} {x})")
        if rng.random() < 0.3:
            init.append(f"(painted {x} {rng.choice(colours)})")
    goals = []
    for x in parts + tools:
        wish = rng.choice(["polished", "smooth", "painted", "none"])
        if wish == "painted" and x in parts:
            goals.append(f"(painted {x} {rng.choice([*colours, 'red'])})")
        elif wish in ("polished", "smooth"):
            goals.append(f"({wish} {x})")
    if rng.random() < 0.5:
        goals.append("(not (exists (?x - part) (rough ?x)))")
    if rng.random() < 0.4:
        goals.append("(forall (?o - item) (imply (polished ?o) (inspected ?o)))")
    if rng.random() < 0.2:
        goals.append("(exists (?o - object) (and (inspected ?o) (not (= ?o lathe))))")
    if rng.random() < 0.3:
        goals.append("(not (exists (?x - (either part tool)) (hot ?x)))")
    if not goals:
        goals.append(f"(smooth {parts[0]})")
    objects = " ".join(parts) + " - part " + (" ".join(tools) + " - tool " if tools else "")
    objects += " ".join(plain) + " - item " if plain else ""
    objects += " ".join(machines) + " - machine " + " ".join(colours) + " - colour"
    return _problem("workshop", f"workshop-{seed}", objects, init, "(and " + " ".join(goals) + ")")


def hoist(seed: int) -> str:
    """The ground floor (a constant) and 2-3 floors in a row, one fast and one slow lift (each reaches some floors
    only), 1-2 passengers; travel costs from functions, boarding costs 1."""
    rng = random.Random(seed)
    floors = ["ground", *(f"f{i}" for i in range(rng.randint(2, 3)))]
    people = [f"p{i}" for i in range(rng.randint(1, 2))]
    init = ["(= (total-cost) 0)", "(lift-at fast0 " + rng.choice(floors) + ")",
            "(lift-at slow0 " + rng.choice(floors) + ")"]
    init += [f"(next {a} {b})" for a, b in zip(floors, floors[1:], strict=False)]
    fast_reach = [f for f in floors if rng.random() < 0.6] or [floors[0]]
    slow_reach = [f for f in floors if rng.random() < 0.8]  # a floor left out may strand a passenger
    init += [f"(reachable fast0 {f})" for f in fast_reach] + [f"(reachable slow0 {f})" for f in slow_reach]
    for i, a in enumerate(floors):
        for j, b in enumerate(floors):
            if a != b:
                init.append(f"(= (fast-cost {a} {b}) {2 + abs(i - j) // 2})")
                if rng.random() < 0.9:  # a missing value: that move is not executable (nor grounded by FD)
                    init.append(f"(= (slow-cost {a} {b}) {abs(i - j) * rng.randint(1, 2)})")
    goals = []
    for p in people:
        origin, destin = rng.sample(floors, 2)
        init.append(f"(at {p} {origin})")
        goals.append(f"(at {p} {destin})")
    objects = "fast0 - fast slow0 - slow " + " ".join(floors[1:]) + " - floor " + " ".join(people) + " - passenger"
    return _problem("hoist", f"hoist-{seed}", objects, init, "(and " + " ".join(goals) + ")", metric=True)


def alarm(seed: int) -> str:
    """The hall and 2-3 rooms in a chain or star, 1-2 keys besides the master, 1-2 sensors."""
    rng = random.Random(seed)
    rooms = ["hall", *(f"r{i}" for i in range(rng.randint(2, 3)))]
    keys = [f"k{i}" for i in range(rng.randint(1, 2))]
    sensors = [f"s{i}" for i in range(rng.randint(1, 2))]
    init = ["(at hall)", "(open hall)"]
    star = rng.random() < 0.5
    for i, r in enumerate(rooms[1:], start=1):
        init.append(f"(door {'hall' if star else rooms[i - 1]} {r})")
    for k in [*keys, "master"]:
        if k == "master" and rng.random() < 0.5:
            continue  # no master key in this building
        init.append(f"(key-at {k} {rng.choice(rooms)})")  # a key behind the door it opens: maybe unsolvable
    for k in keys:
        init.append(f"(fits {k} {rng.choice(rooms[1:])})")
    for s in sensors:
        init.append(f"(in {s} {rng.choice(rooms)})")
        init += [f"(watches {s} {r})" for r in rooms if rng.random() < 0.5]
    target = rng.choice(rooms[1:])
    goals = [f"(found {target})", "(not (exists (?r - room) (alarm ?r)))"]
    if rng.random() < 0.3:
        goals.append("(forall (?s - sensor) (not (tripped ?s)))")
    if rng.random() < 0.3:
        goals.append("(at hall)")
    objects = " ".join(rooms[1:]) + " - room " + " ".join(keys) + " - key " + " ".join(sensors) + " - sensor"
    return _problem("alarm", f"alarm-{seed}", objects, init, "(and " + " ".join(goals) + ")")


def depot(seed: int) -> str:
    """3-4 places with roads and lanes, a truck and a van (one small), 1-2 crates, a printer somewhere."""
    rng = random.Random(seed)
    places = [f"l{i}" for i in range(rng.randint(3, 4))]
    crates = [f"c{i}" for i in range(rng.randint(1, 2))]
    init = []
    for a in places:
        for b in places:
            if rng.random() < (0.3 if a != b else 0.1):  # a road from a place to itself: delete, then add
                init.append(f"({rng.choice(['road', 'road', 'lane'])} {a} {b})")
    init += [f"(at truck0 {rng.choice(places)})", f"(at van0 {rng.choice(places)})", "(small van0)"]
    init.append(f"(printer {rng.choice(places)})")
    goals = []
    for c in crates:
        init.append(f"(at {c} {rng.choice(places)})")
        if rng.random() < 0.7:
            goals.append(f"(at {c} {rng.choice(places)})")
    extra = ["thing0"] if rng.random() < 0.4 else []  # an object of type object, at a place
    init += [f"(at {o} {rng.choice(places)})" for o in extra]
    for o in [*crates, "truck0", "van0", *extra]:
        if rng.random() < 0.3:
            init.append(f"(tagged {o})")
    goals.append("(forall (?o - object) (imply (tagged ?o) (labelled ?o)))")
    if rng.random() < 0.3:
        goals.append("(not (exists (?v - vehicle ?c - crate) (carries ?v ?c)))")
    objects = "truck0 - truck van0 - van " + " ".join(places) + " - place " + " ".join(crates) + " - crate"
    objects += " " + " ".join(f"{o} - object" for o in extra) if extra else ""
    return _problem("depot", f"depot-{seed}", objects, init, "(and " + " ".join(goals) + ")")


DOMAINS: dict[str, Callable[[int], str]] = {
    "lift": lift, "workshop": workshop, "hoist": hoist, "alarm": alarm, "depot": depot,
}


def generate(name: str, seed: int) -> str:
    return DOMAINS[name](seed)
