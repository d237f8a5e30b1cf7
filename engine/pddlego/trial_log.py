"""Read one trial log of the PDDLego+ release (``output/<env>/<condition>/<date>_<model>_<kind>_..._<n>.txt``).

A log is the original program's print-out: the first observation, per time step (``====Step N====``) the
outer attempts (``----Larger Loop No. K----``), per attempt the model calls (``--Small Loop--: I`` with the
prompt and the domain/problem files the model wrote, then the planner's actions or None; PlanGen logs say
``Generated actions: [...]``), and every executed command with the game's answer (``> command``). A found
coin ends the log with ``Coin found!`` (the command that found it is the head of the queue printed last).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from genplan.engine.errors import GenplanError
from genplan.engine.python_text import literal_quietly

_MARKER = re.compile(
    r"^(?:====Step (?P<step>\d+)==== ?$"
    r"|----Larger Loop No\. (?P<outer>\d+)---- ?$"
    r"|--Small Loop--: (?P<inner>\d+) ?$"
    r"|(?P<files>Generated df and pf: ?\n)"
    r"|Actions from solver\(df, pf\): (?P<solver>.*)$"
    r"|Generated actions: (?P<actions>.*)$"
    r"|Current action_queue: (?P<queue>.*)$"
    r"|> (?P<command>.*)$"
    r"|(?P<coin>Coin found!|Done!)"
    r"|(?P<prompt>Prompt: ?$)"
    r"|(?P<other>(?:Error|successful_actions|Small Loop, action_queue): .*)$)",
    re.MULTILINE,
)
_NAME = re.compile(r"^(?P<date>\d{4}-\d{2}-\d{2})_(?P<model>.+?)_(?P<kind>PDDL|baseline)_(?P<rest>.+)_(?P<trial>\d+)\.txt$")
_PROBLEM_START = re.compile(r"\(\s*define\s*\(\s*problem\b", re.IGNORECASE)


@dataclass
class LoggedCall:
    """One model call: where it happened and what the model answered."""

    step: int
    outer: int  # 0-based outer (simulation) attempt within the step
    inner: int  # 0-based solver retry within the attempt (always 0 for PlanGen)
    prompt: str = ""
    domain: str | None = None  # PDDLego+: the files the model wrote (None: the model gave none)
    problem: str | None = None
    actions: list[str] | None = None  # PlanGen: the commands the model chose
    solver_plan: list[str] | None = None  # PDDLego+: the original planner's commands (None: no plan)


@dataclass
class Executed:
    step: int
    outer: int
    command: str
    observation: str  # empty for the command that found the coin (the log does not print it)
    found_coin: bool = False


@dataclass
class TrialLog:
    path: Path
    approach: str  # "pddlego" | "plangen"
    model: str
    goal_type: str  # "detailed" | "subgoal" ("simple" in the paper) | "" for PlanGen
    group: str  # CoinCollector: number of locations; ALFWorld: the task category
    trial: int
    environment: str  # "coincollector" | "alfworld"
    first_observation: str
    gold_path: list[str]
    valid_actions: list[str]
    task: str
    calls: list[LoggedCall] = field(default_factory=list)
    executed: list[Executed] = field(default_factory=list)
    steps: int = 0
    success: bool = False
    game_file: str = ""

    @property
    def num_locations(self) -> int:
        return int(self.group)

    @property
    def condition(self) -> str:
        return self.path.parent.name

    def answers(self) -> list[str]:
        """Each model answer as the JSON the model was asked for, in call order."""
        import json

        texts = []
        for call in self.calls:
            if self.approach == "plangen":
                texts.append(json.dumps({"actions": call.actions or []}))
            else:
                texts.append(json.dumps({"df": call.domain, "pf": call.problem}))
        return texts


class TrialLogError(GenplanError, ValueError):
    pass


def _literal_list(text: str) -> list[str] | None:
    text = text.strip()
    if text in ("None", ""):
        return None
    try:
        value = literal_quietly(text)
    except (ValueError, SyntaxError):
        return None
    return [str(v) for v in value] if isinstance(value, (list, tuple)) else None


def _split_files(block: str) -> tuple[str | None, str | None]:
    """``"\\n {df} \\n {pf} \\n"``: the problem file starts at the last ``(define (problem`` after a separator."""
    body = block.removeprefix(" ")
    body = body[:-2] if body.endswith(" \n") else body.rstrip("\n")
    starts = [m.start() for m in _PROBLEM_START.finditer(body)]
    cut = None
    for start in reversed(starts):
        if body[:start].endswith(" \n "):
            cut = start
            break
    if cut is None:
        parts = body.rsplit(" \n ", 1)
        domain, problem = (parts[0], parts[1]) if len(parts) == 2 else (parts[0], "None")
    else:
        domain, problem = body[: cut - 3], body[cut:]
    return (None if domain.strip() == "None" else domain), (None if problem.strip() == "None" else problem)


def parse_trial_log(path: str | Path) -> TrialLog:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise TrialLogError(f"{path}: cannot be read ({exc.strerror})") from None
    name = _NAME.match(path.name)
    if name is None:
        raise TrialLogError(f"{path}: not a PDDLego+ trial log name (<date>_<model>_PDDL|baseline_..._<trial>.txt)")
    if name.group("kind") == "baseline" and text.startswith("Trial "):
        return _parse_plangen_alfworld(path, text, name)
    header = re.search(r"Observations: (?P<obs>.*?) \n(?:Gold path: (?P<gold>\[.*?\]) \n)?"
                       r"Valid Actions: (?P<valid>\[.*?\]) \ntaskDescription: (?P<task>.*?) \n", text, re.DOTALL)
    if header is None:
        raise TrialLogError(f"{path}: no 'Observations:' / 'Valid Actions:' header (not a trial log of the release)")
    game = re.match(r"Playing \d+: (.*?) ?\n", text)
    rest = name.group("rest")
    approach = "pddlego" if name.group("kind") == "PDDL" else "plangen"
    goal_type, group = "", rest
    if approach == "pddlego":
        goal_type, _, group = rest.partition("_")
    environment = "alfworld" if game else "coincollector"
    log = TrialLog(
        path=path, approach=approach, model=name.group("model"), goal_type=goal_type, group=group,
        trial=int(name.group("trial")), environment=environment, first_observation=header.group("obs"),
        gold_path=_literal_list(header.group("gold") or "") or [], valid_actions=_literal_list(header.group("valid")) or [],
        task=header.group("task").strip(), game_file=game.group(1) if game else "",
    )
    _read_body(log, text[header.end():])
    return log


def _segments(marker: re.Pattern[str], text: str, start: int = 0) -> Iterator[tuple[re.Match[str], str]]:
    """Each ``marker`` in ``text`` (from ``start`` on) with the text that follows it, up to the next marker."""
    matches = list(marker.finditer(text, start))
    for index, match in enumerate(matches):
        yield match, text[match.end(): matches[index + 1].start() if index + 1 < len(matches) else len(text)]


def _read_body(log: TrialLog, body: str) -> None:
    step = outer = 0
    queue: list[str] = []
    for match, following in _segments(_MARKER, body):
        kind = match.lastgroup
        if kind == "step":
            step, outer = int(match.group("step")), 0
            log.steps = step + 1
        elif kind == "outer":
            outer = int(match.group("outer"))
        elif kind == "inner":
            log.calls.append(LoggedCall(step, outer, int(match.group("inner"))))
        elif kind == "prompt" and log.calls:
            log.calls[-1].prompt = following.strip("\n")
        elif kind == "files" and log.calls:
            log.calls[-1].domain, log.calls[-1].problem = _split_files(following)
        elif kind == "solver" and log.calls:
            log.calls[-1].solver_plan = _literal_list(match.group("solver"))
        elif kind == "actions":
            log.calls.append(LoggedCall(step, outer, 0, actions=_literal_list(match.group("actions")) or []))
        elif kind == "queue":
            queue = _literal_list(match.group("queue")) or []
        elif kind == "command":
            command = match.group("command").strip()
            command = command.removeprefix("Action: ")  # ALFWorld logs repeat the word
            # printed as "> {command} \n {observation} \n": undo exactly that
            observation = following.removeprefix("\n ").rstrip("\n").removesuffix(" ")
            log.executed.append(Executed(step, outer, command, observation))
            if queue and queue[0] == command:
                queue = queue[1:]
        elif kind == "coin":
            log.success = True
            log.executed.append(Executed(step, outer, queue[0] if queue else "", "", found_coin=True))


# The ALFWorld PlanGen logs: "Trial N - model", "Initial Observation:", "Goal:", "Valid Actions:", then per step
# "==== Step N ====", per attempt "---- Larger Loop No. K ----", the prompt, "Generated Actions: [...]", and per
# command "> cmd", "Action: cmd", the game's answer, "After action 'cmd', valid actions: [...]"; a won game ends
# with "Success! Task completed."
_PLANGEN_MARKER = re.compile(
    r"^(?:==== Step (?P<step>\d+) ====$"
    r"|---- Larger Loop No\. (?P<outer>\d+) ----$"
    r"|Generated Actions: (?P<actions>.*)$"
    r"|> (?P<command>.*)$"
    r"|(?P<won>Success! Task completed\.)$)",
    re.MULTILINE,
)


def _parse_plangen_alfworld(path: Path, text: str, name: re.Match[str]) -> TrialLog:
    header = re.search(r"\ATrial \d+ - .*\nInitial Observation: (?P<obs>.*)\nGoal: (?P<task>.*)\n"
                       r"Valid Actions: (?P<valid>\[.*\])\n", text)
    if header is None:
        raise TrialLogError(f"{path}: no 'Initial Observation:' / 'Goal:' / 'Valid Actions:' header")
    log = TrialLog(
        path=path, approach="plangen", model=name.group("model"), goal_type="", group=name.group("rest"),
        trial=int(name.group("trial")), environment="alfworld", first_observation=header.group("obs"),
        gold_path=[], valid_actions=_literal_list(header.group("valid")) or [], task=header.group("task").strip(),
    )
    step = outer = 0
    for match, following in _segments(_PLANGEN_MARKER, text, header.end()):
        kind = match.lastgroup
        if kind == "step":
            step, outer = int(match.group("step")), 0
            log.steps = step + 1
        elif kind == "outer":
            outer = int(match.group("outer"))
        elif kind == "actions":
            log.calls.append(LoggedCall(step, outer, 0, actions=_literal_list(match.group("actions")) or []))
        elif kind == "command":
            command = match.group("command").strip()
            # "\nAction: cmd\n<answer>\n\nAfter action 'cmd', ...": the answer is what lies between
            answer = following.removeprefix("\n").removeprefix(f"Action: {command}\n")
            answer = answer.split("\nAfter action '", 1)[0].rstrip("\n")
            log.executed.append(Executed(step, outer, command, answer))
        elif kind == "won" and log.executed:
            log.success = True
            log.executed[-1].found_coin = True
    return log
