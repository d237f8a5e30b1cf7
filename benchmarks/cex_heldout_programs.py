"""Wrong generalized plans written by hand for benchmarks/counterexample_minimality.py (issue 53): test fixtures
of this project, not model output. Each is a plan for a domain the shrinker was not developed on (briefcase,
grippers, delivery, logistics), correct on the small tasks except for one deliberate bug, named in the comment
above it. ``PROGRAMS`` maps a case name to (domain, program text); ``CORRECT`` holds the bug-free plans."""

from __future__ import annotations

# ------------------------------------------------------------------------------------------------ briefcase
# Fetch each portable whose goal place differs from where it is, one at a time (put it in, carry it, take it
# out), then move the briefcase to its goal place.
_BRIEFCASE = '''
def generate_solution(objects, init, goal):
    here = next(f[1] for f in init if f[0] == "is-at")
    where = {f[1]: f[2] for f in init if f[0] == "at"}
    plan = []
    for f in sorted(init):
        if f[0] == "in":
            plan.append(f"(take-out {f[1]})")
    wanted = sorted((f[1], f[2]) for f in goal if f[0] == "at")
    moved = 0
    for item, target in wanted:
        start = where[item]
        if start == target:
            continue
        if here != start:
            plan.append(f"(move {here} {start})")
            here = start  #STALE
        plan.append(f"(put-in {item} {start})")
        plan.append(f"(move {here} {target})")
        here = target
        plan.append(f"(take-out {item})")  #KEEP
        moved += 1
    final = [f[1] for f in goal if f[0] == "is-at"]
    if final and final[0] != here:  #RETURN
        plan.append(f"(move {here} {final[0]})")
    return plan
'''

BRIEFCASE = _BRIEFCASE
# the briefcase's place is not updated when it goes to fetch a portable: the next move starts where it is not
BRIEFCASE_STALE = _BRIEFCASE.replace("            here = start  #STALE\n", "")
# the last portable carried is never taken out: the briefcase's last move takes it away again
BRIEFCASE_KEEPS_LAST = _BRIEFCASE.replace(
    '        plan.append(f"(take-out {item})")  #KEEP\n',
    '        if item != wanted[-1][0]:\n            plan.append(f"(take-out {item})")\n')
# after carrying two portables or more, the briefcase is left where the last one went
BRIEFCASE_NO_RETURN = _BRIEFCASE.replace("    if final and final[0] != here:  #RETURN",
                                         "    if final and final[0] != here and moved < 2:")

# ------------------------------------------------------------------------------------------------- grippers
# Every ball is carried by a robot: the one in the ball's room if there is one, else the first; its first
# free gripper picks, the robot moves to the goal room and drops.
_GRIPPERS = '''
def generate_solution(objects, init, goal):
    robots = sorted(o[0] for o in objects if o[1] == "robot")
    room = {f[1]: f[2] for f in init if f[0] == "at-robby"}
    ball_at = {f[1]: f[2] for f in init if f[0] == "at"}
    free = {}
    for f in sorted(init):
        if f[0] == "free":
            free.setdefault(f[1], []).append(f[2])
    plan = []
    for f in sorted(init):
        if f[0] == "carry":
            plan.append(f"(drop {f[1]} {f[2]} {room[f[1]]} {f[3]})")
            ball_at[f[2]] = room[f[1]]
            free.setdefault(f[1], []).append(f[3])
    for _, ball, target in sorted(f for f in goal if f[0] == "at"):
        start = ball_at[ball]
        if start == target:
            continue
        there = [r for r in robots if room[r] == start]
        robot = there[0] if there else robots[0]
        gripper = sorted(free[robot])[0]  #GRIPPER
        if room[robot] != start:
            plan.append(f"(move {robot} {room[robot]} {start})")
            room[robot] = start  #ROOM
        plan.append(f"(pick {robot} {ball} {start} {gripper})")
        plan.append(f"(move {robot} {room[robot]} {target})")
        room[robot] = target
        plan.append(f"(drop {robot} {ball} {target} {gripper})")
        ball_at[ball] = target
    return plan
'''

GRIPPERS = _GRIPPERS
# the gripper is the first of all grippers (the first robot's), also when another robot picks
GRIPPERS_WRONG_HAND = _GRIPPERS.replace(
    "        gripper = sorted(free[robot])[0]  #GRIPPER",
    "        gripper = sorted(g for gs in free.values() for g in gs)[0]")
# a robot that fetches a ball from another room is thought to stay where it was
GRIPPERS_STALE_ROOM = _GRIPPERS.replace("            room[robot] = start  #ROOM\n", "")
# two balls or more to carry out of one room: the program crashes on its bookkeeping
GRIPPERS_CROWDED = _GRIPPERS.replace(
    "    plan = []\n    for f in sorted(init):\n        if f[0] == \"carry\"",
    "    plan = []\n    leaving = [g[1] for g in goal if g[0] == \"at\" and ball_at.get(g[1]) != g[2]]\n"
    "    rooms = [ball_at[b] for b in leaving]\n"
    "    if len(rooms) != len(set(rooms)):\n"
    "        raise KeyError(rooms[0])\n"
    "    for f in sorted(init):\n        if f[0] == \"carry\"")

# ------------------------------------------------------------------------------------------------- delivery
# Pick up a paper for each location that wants one, visit the safe ones first, the one unsafe last (the
# carrier cannot leave an unsafe location).
_DELIVERY = '''
def generate_solution(objects, init, goal):
    here = next(f[1] for f in init if f[0] == "at")
    home = next(f[1] for f in init if f[0].lower() == "ishomebase")
    safe = {f[1] for f in init if f[0] == "safe"}
    papers = sorted(f[1] for f in init if f[0] == "unpacked")
    carried = sorted(f[1] for f in init if f[0] == "carrying")
    wanting = sorted(f[1] for f in goal if f[0] == "satisfied" and ("satisfied", f[1]) not in init)
    order = sorted(wanting, key=lambda loc: (loc not in safe, loc))  #ORDER
    plan = []
    need = len(order) - len(carried)
    if need > 0:
        if here != home:
            plan.append(f"(move {here} {home})")
            here = home
        for paper in papers[:need]:  #PICK
            plan.append(f"(pick-up {paper} {home})")
            carried.append(paper)
    for loc in order:
        if loc != here:
            plan.append(f"(move {here} {loc})")
            here = loc
        plan.append(f"(deliver {carried.pop()} {loc})")
    return plan
'''

DELIVERY = _DELIVERY
# the home base is taken to be the first location by name: papers are picked up where there are none
DELIVERY_HOME_FIRST = _DELIVERY.replace(
    '    home = next(f[1] for f in init if f[0].lower() == "ishomebase")',
    '    home = sorted(o[0] for o in objects if o[1] == "loc")[0]')
# with three locations or more to serve, one paper too few is picked up
DELIVERY_ONE_SHORT = _DELIVERY.replace(
    "        for paper in papers[:need]:  #PICK", "        for paper in papers[:need - (need >= 3)]:")
# spare papers at the home base: an index past the end of the list of wanting locations
DELIVERY_SPARE = _DELIVERY.replace(
    "    plan = []\n", "    plan = []\n    if len(papers) > len(wanting):\n        plan.append(wanting[len(papers) - 1])\n")

# ------------------------------------------------------------------------------------------------ logistics
# Each package in turn: the truck of its city brings it to the airport, the airplane flies it to the airport of
# the goal's city, that city's truck brings it to the goal place.
_LOGISTICS = '''
def generate_solution(objects, init, goal):
    kind = dict(objects)
    city = {f[1]: f[2] for f in init if f[0] == "in-city"}
    at = {f[1]: f[2] for f in init if f[0] == "at"}
    airport = {city[o]: o for o, k in kind.items() if k == "airport"}
    trucks = {city[at[t]]: t for t in sorted(o for o, k in kind.items() if k == "truck")}  #TRUCK
    plane = sorted(o for o, k in kind.items() if k == "airplane")[0]
    plan = []

    def drive(truck, to):
        if at[truck] != to:
            plan.append(f"(drive-truck {truck} {at[truck]} {to} {city[to]})")
            at[truck] = to

    def by_truck(pkg, start, to):
        truck = trucks[city[start]]
        drive(truck, start)
        plan.append(f"(load-truck {pkg} {truck} {start})")
        drive(truck, to)
        plan.append(f"(unload-truck {pkg} {truck} {to})")

    for _, pkg, target in sorted(f for f in goal if f[0] == "at"):
        start = at[pkg]
        if start == target:
            continue
        if city[start] == city[target]:
            by_truck(pkg, start, target)
            continue
        leave, arrive = airport[city[start]], airport[city[target]]
        if start != leave:
            by_truck(pkg, start, leave)
        if at[plane] != leave:
            plan.append(f"(fly-airplane {plane} {at[plane]} {leave})")
        at[plane] = leave  #PLANE
        plan.append(f"(load-airplane {pkg} {plane} {leave})")
        plan.append(f"(fly-airplane {plane} {leave} {arrive})")
        at[plane] = arrive  #PLANE
        plan.append(f"(unload-airplane {pkg} {plane} {arrive})")
        if target != arrive:
            by_truck(pkg, arrive, target)
        at[pkg] = target
    return plan
'''

LOGISTICS = _LOGISTICS
# the airplane's place is never updated: the second flight starts where the airplane is not
LOGISTICS_STALE_PLANE = _LOGISTICS.replace("        at[plane] = leave  #PLANE\n", "").replace(
    "        at[plane] = arrive  #PLANE\n", "")
# the trucks are looked up by their order, not by their city: with two cities or more, a truck drives in a
# city it is not in
LOGISTICS_TRUCK_BY_ORDER = _LOGISTICS.replace(
    "    trucks = {city[at[t]]: t for t in sorted(o for o, k in kind.items() if k == \"truck\")}  #TRUCK",
    "    trucks = dict(zip(sorted(set(city.values())), sorted(o for o, k in kind.items() if k == \"truck\")[::-1]))")

CORRECT = {"briefcase": BRIEFCASE, "grippers": GRIPPERS, "delivery": DELIVERY, "logistics": LOGISTICS}

PROGRAMS: dict[str, tuple[str, str]] = {
    "briefcase-stale-place": ("briefcase", BRIEFCASE_STALE),
    "briefcase-keeps-last": ("briefcase", BRIEFCASE_KEEPS_LAST),
    "briefcase-no-return": ("briefcase", BRIEFCASE_NO_RETURN),
    "grippers-wrong-hand": ("grippers", GRIPPERS_WRONG_HAND),
    "grippers-stale-room": ("grippers", GRIPPERS_STALE_ROOM),
    "grippers-crowded-room": ("grippers", GRIPPERS_CROWDED),
    "delivery-home-first": ("delivery", DELIVERY_HOME_FIRST),
    "delivery-one-short": ("delivery", DELIVERY_ONE_SHORT),
    "delivery-spare-paper": ("delivery", DELIVERY_SPARE),
    "logistics-stale-plane": ("logistics", LOGISTICS_STALE_PLANE),
    "logistics-truck-by-order": ("logistics", LOGISTICS_TRUCK_BY_ORDER),
}

assert all(source != CORRECT[domain] for domain, source in PROGRAMS.values()), "a bug was not injected"
