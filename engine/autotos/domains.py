"""The five search domains of the AutoToS paper: instances, unit-test data, goal checks and validators.

The data of the paper's release is read from a directory the user gives (``--data``: the folder with
``twentyfourgame/``, ``blocksworld/``, ``prontoqa/``, ``crossword5by5/``, ``sokoban/``); nothing of it is
copied into genplan. States are JSON data here; ``harness.to_state`` gives them their Python shape.
"""

from __future__ import annotations

import csv
import itertools
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from genplan.engine.autotos import harness
from genplan.engine.errors import GenplanError

DOMAINS = ("24game", "blocksworld", "prontoqa", "crossword", "sokoban")
FOLDERS = {"24game": "twentyfourgame", "blocksworld": "blocksworld", "prontoqa": "prontoqa",
           "crossword": "crossword5by5", "sokoban": "sokoban"}


class DataError(GenplanError):
    """The data directory lacks what a domain needs (one line)."""


@dataclass
class Instance:
    name: str
    init: Any
    extra: list[Any] = field(default_factory=list)  # extra arguments of succ after the state
    goal_extra: list[Any] = field(default_factory=list)  # extra arguments of the goal test
    info: dict[str, Any] = field(default_factory=dict)  # what the validator needs (optimal cost, answer, ...)


@dataclass
class SearchDomain:
    name: str
    depth_first: bool
    goal_cases: list[dict[str, Any]]  # {"state", "extra", "expected"}: goals first, then non-goals
    unit_instances: list[Instance]  # soundness test by search
    completeness_cases: list[dict[str, Any]]  # {"state", "extra", "successors"}
    eval_instances: list[Instance]
    reached_goal: Callable[[Instance, Any], bool]  # is this state really a goal of the instance
    validate: Callable[[Instance, list[Any] | None], str | None]  # None: solved; else why not
    context: Callable[[list[Any]], dict[str, Any]] = lambda extra: {}  # extra arguments for the feedback
    # PDDL family: plans are validated as action sequences; unit-test transitions replayed by a simulator.
    validate_actions: Callable[[Instance, list[str] | None], str | None] | None = None
    # the release's own validation where it differs from ``validate`` (Settings.release_validation)
    validate_as_released: Callable[[Instance, list[Any] | None], str | None] | None = None
    check_transitions: Callable[[int, list[dict[str, Any]]], dict[str, Any] | None] | None = None
    examples: dict[str, Any] = field(default_factory=dict)  # values of the first prompts, when not derived


def _read_jsonl(path: Path) -> list[Any]:
    text = path.read_text(encoding="utf-8").strip()
    if text.startswith("["):  # some files hold one JSON array spread over many lines
        try:
            value = json.loads(text)
            if isinstance(value, list) and (not value or isinstance(value[0], dict)):
                return value
        except json.JSONDecodeError:
            pass
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def _folder(data: Path, name: str) -> Path:
    folder = Path(data) / FOLDERS[name]
    if not folder.is_dir():
        raise DataError(f"{data}: no {FOLDERS[name]}/ folder (expected the AutoToS data directory)")
    return folder


# ------------------------------------------------------------------------------------------ 24 Game
def _close(a: float, b: float) -> bool:
    return abs(a - b) < 1e-6


def game24_children(state: Sequence[float]) -> list[list[float]]:
    """All successors of a 24 Game state (reference implementation, for validation)."""
    out: list[list[float]] = []
    for i, j in itertools.combinations(range(len(state)), 2):
        a, b = state[i], state[j]
        rest = [state[k] for k in range(len(state)) if k not in (i, j)]
        values = [a + b, a - b, b - a, a * b]
        if b != 0:
            values.append(a / b)
        if a != 0:
            values.append(b / a)
        out.extend(sorted(rest + [v]) for v in values)
    return out


def _same_numbers(a: list[Any], b: list[Any]) -> bool:
    try:
        return len(a) == len(b) and all(_close(x, y) for x, y in zip(sorted(a), sorted(b)))
    except TypeError:
        return False


def _validate_24(instance: Instance, path: list[Any] | None) -> str | None:
    if path is None:
        return None if not instance.info.get("solvable", True) else "no solution found"
    if not _same_numbers(path[0], instance.init):
        return "the solution does not start at the initial state"
    for parent, child in itertools.pairwise(path):
        if not isinstance(child, list) or not any(_same_numbers(child, c) for c in game24_children(parent)):
            return f"invalid transition {parent} -> {child}"
    if not _is_24(path[-1]):
        return f"the last state {path[-1]} is not [24]"
    return None


def _is_24(state: Any) -> bool:
    return isinstance(state, list) and len(state) == 1 and isinstance(state[0], (int, float)) and _close(state[0], 24)


def _puzzles(path: Path) -> list[tuple[list[int], bool]]:
    with path.open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    return [([int(x) for x in row["Puzzles"].split()], row.get("solvable", "1") != "0") for row in rows]


def load_24game(data: Path) -> SearchDomain:
    folder = _folder(data, "24game")
    goals = _read_jsonl(folder / "24game_goals.jsonl")
    non_goals = _read_jsonl(folder / "24game_non_goals.jsonl")
    cases = [{"state": s, "extra": [], "expected": True} for s in goals]
    cases += [{"state": s, "extra": [], "expected": False} for s in non_goals]
    completeness = [{"state": s, "extra": [], "successors": succ} for s, succ in _read_jsonl(folder / "24game_successors.jsonl")]
    units = [Instance(" ".join(map(str, p)), p) for p, _ok in _puzzles(folder / "unittests.csv")]
    evals = [Instance(" ".join(map(str, p)), p, info={"solvable": ok}) for p, ok in _puzzles(folder / "model_test.csv")]
    return SearchDomain("24game", False, cases, units, completeness, evals,
                        reached_goal=lambda _i, s: _is_24(s), validate=_validate_24)


# --------------------------------------------------------------------------------------- BlocksWorld
def _facts(text: str) -> list[list[str]]:
    return [m.split() for m in re.findall(r"\(([^()]+)\)", text)]


def blocks_instance(path: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """(initial state, goal) of a BlocksWorld PDDL problem in the paper's dictionary encoding."""
    text = path.read_text(encoding="utf-8").lower()
    init_part = text[text.index("(:init"): text.index("(:goal")]
    goal_part = text[text.index("(:goal"):]
    state: dict[str, Any] = {"clear": [], "on-table": [], "arm-empty": False, "holding": None, "on": []}
    for fact in _facts(init_part.replace("(:init", "")):
        if fact[0] == "clear":
            state["clear"].append(fact[1])
        elif fact[0] == "ontable":
            state["on-table"].append(fact[1])
        elif fact[0] == "handempty":
            state["arm-empty"] = True
        elif fact[0] == "holding":
            state["holding"] = fact[1]
        elif fact[0] == "on":
            state["on"].append([fact[1], fact[2]])
    goal: dict[str, Any] = {"clear": [], "on-table": [], "on": []}
    for fact in _facts(goal_part.replace("(:goal", "")):
        if fact[0] == "clear":
            goal["clear"].append(fact[1])
        elif fact[0] == "ontable":
            goal["on-table"].append(fact[1])
        elif fact[0] == "on":
            goal["on"].append([fact[1], fact[2]])
    return state, goal


def blocks_children(state: dict[str, Any]) -> list[dict[str, Any]]:
    """All successors of a BlocksWorld state (reference implementation, for validation)."""
    out = []
    clear, table, on = set(state["clear"]), set(state["on-table"]), {tuple(p) for p in state["on"]}

    def make(c: set[str], t: set[str], o: set[tuple[str, str]], holding: str | None) -> dict[str, Any]:
        return {"clear": sorted(c), "on-table": sorted(t), "arm-empty": holding is None, "holding": holding,
                "on": sorted(list(p) for p in o)}

    if state["arm-empty"]:
        for b in clear:
            if b in table:
                out.append(make(clear - {b}, table - {b}, on, b))
            for x, y in on:
                if x == b:
                    out.append(make((clear - {b}) | {y}, table, on - {(x, y)}, b))
    elif state["holding"] is not None:
        h = state["holding"]
        out.append(make(clear | {h}, table | {h}, on, None))
        for b in clear:
            out.append(make((clear - {b}) | {h}, table, on | {(h, b)}, None))
    return out


def _blocks_key(state: Any) -> str | None:
    try:
        return str((sorted(state["clear"]), sorted(state["on-table"]), bool(state["arm-empty"]), state["holding"],
                    sorted(tuple(p) for p in state["on"])))
    except (KeyError, TypeError):
        return None


def _blocks_goal(goal: dict[str, Any], state: Any) -> bool:
    try:
        return (set(goal["clear"]) <= set(state["clear"]) and set(goal["on-table"]) <= set(state["on-table"])
                and {tuple(p) for p in goal["on"]} <= {tuple(p) for p in state["on"]})
    except (KeyError, TypeError):
        return False


def _validate_steps(path: list[Any] | None, children: Callable[[Any], list[Any]], key: Callable[[Any], str | None],
                    start: Any, optimal: int | None, goal: Callable[[Any], bool]) -> str | None:
    if path is None:
        return "no solution found"
    if key(path[0]) != key(start):
        return "the solution does not start at the initial state"
    for i, (parent, child) in enumerate(itertools.pairwise(path)):
        if key(child) is None or key(child) not in {key(c) for c in children(parent)}:
            return f"step {i + 1} is not a legal transition"
    if not goal(path[-1]):
        return "the last state is not a goal state"
    if optimal is not None and len(path) - 1 != optimal:
        return f"solution of length {len(path) - 1}, optimal {optimal}"
    return None


def _validate_blocks(instance: Instance, path: list[Any] | None) -> str | None:
    goal = instance.goal_extra[0]
    return _validate_steps(path, blocks_children, _blocks_key, instance.init, instance.info.get("optimal"),
                           lambda s: _blocks_goal(goal, s))


def blocks_action(before: dict[str, Any], after: dict[str, Any]) -> tuple[str, ...] | None:
    """The action a transition shows by what the hand took or let go, read as the release's validator read
    it (its logs print the plans): a block newly held was picked up or unstacked from where it was before;
    a block let go was stacked or put down where it is after. None: the hand shows no action."""
    held, holds = before.get("holding"), after.get("holding")
    if holds is not None and holds != held:
        if holds in before["on-table"]:
            return ("pick-up", holds)
        below = [b for a, b in before["on"] if a == holds]
        return ("unstack", holds, below[0]) if below else None
    if held is not None and holds is None:
        below = [b for a, b in after["on"] if a == held]
        if below:
            return ("stack", held, below[0])
        return ("put-down", held) if held in after["on-table"] else None
    return None


def validate_blocks_as_released(instance: Instance, path: list[Any] | None) -> str | None:
    """The release's BlocksWorld validation: the plan read from the states (``blocks_action``), applied from
    the initial state by the domain's rules, must reach the goal at the optimal length. A state the
    successor function built wrongly passes when the action it shows is legal; genplan's own check does not."""
    if not path:
        return "no solution found"
    state = instance.init
    try:
        for i, (before, after) in enumerate(itertools.pairwise(path)):
            action = blocks_action(before, after)
            if action is None:
                return f"step {i + 1} shows no action"
            # the action applied by the domain's rules: the reference successor that shows the same action
            applied = next((child for child in blocks_children(state) if blocks_action(state, child) == action), None)
            if applied is None:
                return f"step {i + 1} ({' '.join(action)}) is not applicable"
            state = applied
    except (KeyError, TypeError, ValueError):
        return "malformed state"
    if not _blocks_goal(instance.goal_extra[0], state):
        return "the plan does not reach the goal"
    optimal = instance.info.get("optimal")
    if optimal is not None and len(path) - 1 != optimal:
        return f"solution of length {len(path) - 1}, optimal {optimal}"
    return None


def _optimal_lengths(path: Path) -> dict[str, int]:
    lengths = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if "," in line:
            name, value = line.rsplit(",", 1)
            lengths[Path(name.strip()).name] = int(value)
    return lengths


def load_blocksworld(data: Path) -> SearchDomain:
    folder = _folder(data, "blocksworld")
    cases = [{"state": c["state"], "extra": [c["goal"]], "expected": True} for c in _read_jsonl(folder / "blocks_goals.jsonl")]
    cases += [{"state": c["state"], "extra": [c["goal"]], "expected": False}
              for c in _read_jsonl(folder / "blocks_non_goals.jsonl")]
    completeness = [{"state": c["state"], "extra": [], "successors": c["successors"]}
                    for c in _read_jsonl(folder / "blocks_successors.jsonl")]

    def instances(listing: Path) -> list[Instance]:
        lengths = _optimal_lengths(listing)
        out = []
        for name in sorted(lengths, key=lambda n: int(re.sub(r"\D", "", n) or 0)):
            init, goal = blocks_instance(folder / "blocks_instances" / name)
            out.append(Instance(name, init, goal_extra=[goal], info={"optimal": lengths[name]}))
        return out

    return SearchDomain("blocksworld", False, cases, instances(folder / "unittests.csv"), completeness,
                        instances(folder / "solutions.csv"),
                        reached_goal=lambda i, s: _blocks_goal(i.goal_extra[0], s), validate=_validate_blocks,
                        context=lambda extra: {"goal": extra[0]} if extra else {},
                        validate_as_released=validate_blocks_as_released)


# ------------------------------------------------------------------------------------------ PrOntoQA
_ARTICLE = re.compile(r"^(a|an|the)\s+")


def _singular(word: str) -> str:
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("uses", "sses", "xes", "ches", "shes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def _term(text: str, plural: bool) -> str:
    text = _ARTICLE.sub("", text.strip().lower())
    if plural:
        words = text.split()
        if words:
            words[-1] = _singular(words[-1])
        text = " ".join(words)
    return text


def _statement(sentence: str) -> tuple[str, str, bool] | None:
    """(subject, property, subject is plural) of 'Each X is a Y', 'Xs are not Ys', 'Sally is a Y'."""
    sentence = sentence.strip().rstrip(".")
    match = re.fullmatch(r"(?:Each|Every)\s+(.+?)\s+is\s+(not\s+)?(.+)", sentence)
    plural = False
    if not match:
        match = re.fullmatch(r"(.+?)\s+are\s+(not\s+)?(.+)", sentence)
        plural = True
    if not match:
        match = re.fullmatch(r"(.+?)\s+is\s+(not\s+)?(.+)", sentence)
        plural = False
    if not match:
        return None
    subject = _term(match.group(1), plural)
    prop = _term(match.group(3), plural)
    return subject, ("not-" if match.group(2) else "") + prop, plural


def prontoqa_problem(example: dict[str, Any]) -> tuple[list[str], list[list[str]], str, bool]:
    """(initial state, rules, target fact, answer) of one PrOntoQA example."""
    sentences = [s for s in re.split(r"(?<=\.)\s+", example["question"].strip()) if s]
    rules: list[list[str]] = []
    fact = None
    for sentence in sentences:
        parsed = _statement(sentence)
        if parsed is None:
            continue
        if sentence.startswith(("Each ", "Every ")) or parsed[2]:
            rules.append([parsed[0], parsed[1]])
        else:
            fact = parsed[1]
    query = re.sub(r"^True or false:\s*", "", example["query"].strip())
    target = _statement(query)
    if fact is None or target is None:
        raise DataError(f"cannot read the PrOntoQA example: {example['question'][:60]}...")
    return [fact], rules, target[1], str(example["answer"]).strip().lower() == "true"


def _validate_prontoqa(instance: Instance, path: list[Any] | None) -> str | None:
    found = path is not None
    if path is not None and instance.info["target"] not in path[-1]:
        return "the last state does not contain the target fact"
    if found != instance.info["answer"]:
        return f"answered {found}, the correct answer is {instance.info['answer']}"
    return None


def load_prontoqa(data: Path) -> SearchDomain:
    folder = _folder(data, "prontoqa")
    cases = [{"state": c["state"], "extra": [c["goal"]], "expected": True} for c in _read_jsonl(folder / "prontoqa_goals.jsonl")]
    cases += [{"state": c["state"], "extra": [c["goal"]], "expected": False}
              for c in _read_jsonl(folder / "prontoqa_non_goals.jsonl")]
    completeness = [{"state": c["state"], "extra": [[tuple(r) for r in c["rules"]]], "successors": c["successors"]}
                    for c in _read_jsonl(folder / "prontoqa_successors.jsonl")]

    def instances(path: Path) -> list[Instance]:
        out = []
        for k, example in enumerate(json.loads(path.read_text(encoding="utf-8"))["example_pool"]):
            init, rules, target, answer = prontoqa_problem(example)
            out.append(Instance(f"example-{k}", init, extra=[[tuple(r) for r in rules]], goal_extra=[target],
                                info={"target": target, "answer": answer}))
        return out

    return SearchDomain("prontoqa", False, cases, instances(folder / "unittests.json"), completeness,
                        instances(folder / "example_pool.json"),
                        reached_goal=lambda i, s: i.info["target"] in s, validate=_validate_prontoqa,
                        context=lambda extra: {"rules": extra[0]} if extra else {})


# ----------------------------------------------------------------------------------------- Crossword
def crossword_solved(state: Any, horizontal: list[list[str]], vertical: list[list[str]]) -> bool:
    try:
        if len(state) != 5 or any(len(row) != 5 for row in state):
            return False
        if any(cell is None for row in state for cell in row):
            return False
        rows = ["".join(row) for row in state]
        cols = ["".join(state[r][c] for r in range(5)) for c in range(5)]
    except TypeError:
        return False
    return all(rows[i] in horizontal[i] for i in range(5)) and all(cols[i] in vertical[i] for i in range(5))


def _validate_crossword(instance: Instance, path: list[Any] | None) -> str | None:
    if path is None:
        return "no solution found"
    return None if crossword_solved(path[-1], *instance.extra) else "the final grid is not a solution"


def load_crossword(data: Path) -> SearchDomain:
    folder = _folder(data, "crossword")

    def cases_from(file: str, expected: bool) -> list[dict[str, Any]]:
        return [{"state": c["state"], "extra": [c["horizontal_clues"], c["vertical_clues"]], "expected": expected}
                for c in _read_jsonl(folder / file)]

    cases = cases_from("crosswords_goal.jsonl", True) + cases_from("crosswords_nongoal.jsonl", False)
    completeness = [{"state": c["state"], "extra": [c["horizontal_clues"], c["vertical_clues"]],
                     "successors": c["successors"]} for c in _read_jsonl(folder / "crosswords_successors.jsonl")]

    def instances(path: Path) -> list[Instance]:
        with path.open(encoding="utf-8") as handle:
            rows = [r for r in csv.reader(handle) if len(r) >= 2 and r[0].startswith("[")]
        out = []
        for k, row in enumerate(rows):
            h, v = json.loads(row[0]), json.loads(row[1])
            empty = [[None] * 5 for _ in range(5)]
            out.append(Instance(f"crossword-{k}", empty, extra=[h, v], goal_extra=[h, v]))
        return out

    return SearchDomain("crossword", True, cases, instances(folder / "unittests.csv"), completeness,
                        instances(folder / "crossworld.csv"),
                        reached_goal=lambda i, s: crossword_solved(s, *i.extra), validate=_validate_crossword,
                        context=lambda extra: {"horizontal": extra[0], "vertical": extra[1]} if len(extra) == 2 else {})


# ------------------------------------------------------------------------------------------- Sokoban
def sokoban_instance(path: Path) -> tuple[dict[str, Any], list[list[int]]]:
    """(initial state, grid) of a Sokoban PDDL problem of the IPC 2008 set (the map is in its comment)."""
    text = path.read_text(encoding="utf-8")
    rows = [line[3:] for line in text.splitlines() if line.startswith(";; ")]
    rows = [r.rstrip() for r in rows if r.strip() and set(r) <= set("#$.@*+ ")]
    width = max(len(r) for r in rows)
    padded = [r.ljust(width) for r in rows]
    # PDDL positions are pos-X-Y with X the column of the map: grid[x][y], both counted from 0.
    grid = [[1 if padded[y][x] == "#" else 2 if padded[y][x] in ".*+" else 0 for y in range(len(padded))]
            for x in range(width)]
    player = None
    stones = []
    lower = text.lower()
    init = lower[lower.index("(:init"): lower.index("(:goal")]
    for kind, r, c in re.findall(r"\(at\s+(player|stone)-\d+\s+pos-(\d+)-(\d+)\)", init):
        position = [int(r) - 1, int(c) - 1]
        if kind == "player":
            player = position
        else:
            stones.append(position)
    if player is None:
        raise DataError(f"{path}: no player position")
    return {"at-player": player, "at-stone": stones}, grid


def sokoban_children(state: dict[str, Any], grid: list[list[int]]) -> list[dict[str, Any]]:
    out = []
    pr, pc = state["at-player"]
    stones = {tuple(s) for s in state["at-stone"]}

    def free(r: int, c: int) -> bool:
        return 0 <= r < len(grid) and 0 <= c < len(grid[r]) and grid[r][c] != 1 and (r, c) not in stones

    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        r, c = pr + dr, pc + dc
        if free(r, c):
            out.append({"at-player": [r, c], "at-stone": [list(s) for s in sorted(stones)]})
        elif (r, c) in stones and free(r + dr, c + dc):
            moved = (stones - {(r, c)}) | {(r + dr, c + dc)}
            out.append({"at-player": [r, c], "at-stone": [list(s) for s in sorted(moved)]})
    return out


def _sokoban_key(state: Any) -> str | None:
    try:
        return str((tuple(state["at-player"]), sorted(tuple(s) for s in state["at-stone"])))
    except (KeyError, TypeError):
        return None


def sokoban_solved(state: Any, grid: list[list[int]]) -> bool:
    try:
        return all(grid[r][c] == 2 for r, c in state["at-stone"])
    except (KeyError, TypeError, IndexError, ValueError):
        return False


def _validate_sokoban(instance: Instance, path: list[Any] | None) -> str | None:
    grid = instance.extra[0]
    return _validate_steps(path, lambda s: sokoban_children(s, grid), _sokoban_key, instance.init,
                           instance.info.get("optimal"), lambda s: sokoban_solved(s, grid))


def load_sokoban(data: Path) -> SearchDomain:
    folder = _folder(data, "sokoban")

    def cases_from(file: str, expected: bool) -> list[dict[str, Any]]:
        return [{"state": c["state"], "extra": [c["grid"]], "expected": expected} for c in _read_jsonl(folder / file)]

    cases = cases_from("sokoban_goals.jsonl", True) + cases_from("sokoban_non_goals.jsonl", False)
    completeness = [{"state": c["state"], "extra": [c["grid"]], "successors": c["successors"]}
                    for c in _read_jsonl(folder / "sokoban_successors.jsonl")]
    optimal = json.loads((folder / "sokoban_optimal_costs.json").read_text(encoding="utf-8"))

    def instances(sub: str) -> list[Instance]:
        out = []
        for path in sorted((folder / sub).glob("*.pddl")):
            init, grid = sokoban_instance(path)
            out.append(Instance(path.name, init, extra=[grid], goal_extra=[grid], info={"optimal": optimal.get(path.name)}))
        return out

    return SearchDomain("sokoban", False, cases, instances("unittests_instances"), completeness,
                        instances("test_instances"),
                        reached_goal=lambda i, s: sokoban_solved(s, i.extra[0]), validate=_validate_sokoban,
                        context=lambda extra: {"grid": extra[0]} if extra else {})


LOADERS: dict[str, Callable[[Path], SearchDomain]] = {
    "24game": load_24game,
    "blocksworld": load_blocksworld,
    "prontoqa": load_prontoqa,
    "crossword": load_crossword,
    "sokoban": load_sokoban,
}


def load_domain(name: str, data: str | Path) -> SearchDomain:
    if name not in LOADERS:
        raise DataError(f"unknown AutoToS domain {name!r}; expected one of {', '.join(DOMAINS)}")
    try:
        return LOADERS[name](Path(data))
    except FileNotFoundError as exc:
        raise DataError(f"{data}: missing {exc.filename}") from exc
    except (json.JSONDecodeError, ValueError, KeyError) as exc:
        raise DataError(f"{data}: unreadable {name} data ({exc})") from exc


# The harness needs to know which states' lists are unordered; kept next to the data for readers.
__all__ = ["DOMAINS", "DataError", "Instance", "SearchDomain", "harness", "load_domain"]
