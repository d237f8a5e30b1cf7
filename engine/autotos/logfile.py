"""Reading one log of the AutoToS release (``clean_logs/<domain>/<model>-{val,noval}_logs/*.txt``).

A log is a sequence of sections opened by ``AutoToS prompt:``, ``Model response:`` or ``System
message:``; between them the original script printed progress markers ("Successor Iteration 3",
"Completeness test", ...) that end up glued to the preceding section. The run ends with the line
"Success: N, failure: M" (Sokoban: "Total success: ...") or with a "Maximum ... reached" message.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from genplan.engine.errors import GenplanError

_HEADER = re.compile(r"^(AutoToS prompt:|Model response:|System message:)[ \t]*\n", re.MULTILINE)
_MARKER = re.compile(
    r"^(Goal Iteration \d+ - Goal Soundness Test|Successor Iteration \d+|Soundness test|Completeness test"
    r"|Goal Soundness Test Passed|Successor States Soundness Test Passed|Successor Completeness Test Passed)\s*$"
)
# The release's last line; PrOntoQA logs call the generated states "evaluations".
_FINAL = re.compile(r"^(?:Total )?[Ss]uccess: (\d+), failure: (\d+)"
                    r"(?:, total expansions (\d+), total (?:generated|evaluations) (\d+))?", re.MULTILINE)
_STOP_GOAL = "Maximum number of iterations reached for goal soundness test"
_STOP_SUCC = "Maximum iterations reached for completeness test"

# The domain folders of the release and genplan's names for them.
DOMAIN_FOLDERS = {"24game": "24game", "blocks": "blocksworld", "prontoqa": "prontoqa", "cw": "crossword", "sokoban": "sokoban"}
MODEL_NAMES = {
    "gpt4": "GPT-4o",
    "gpt4-mini": "GPT-4o-mini",
    "llama3.1-70b": "Llama3.1-70b",
    "deepseek-coderv2": "DeepSeek-CoderV2",
}


class LogFormatError(GenplanError):
    """The file is not an AutoToS log (one line)."""


@dataclass(frozen=True)
class Exchange:
    """One model call: the prompt genplan's counterpart sent and what the model answered."""

    prompt: str
    response: str
    target: str  # "succ" or "goal": which function the answer is meant to (re)define


@dataclass
class AutoToSLog:
    path: str
    domain: str | None  # genplan's domain name, from the folder (None when the path does not say)
    model: str | None
    partial_soundness: bool | None  # val = with the partial soundness test
    exchanges: list[Exchange] = field(default_factory=list)
    success: int | None = None
    failure: int | None = None
    expanded: int | None = None  # the evaluation's total expansions and generated states, as logged
    generated: int | None = None
    stopped: str | None = None  # "goal" or "succ" when the run hit an iteration limit

    @property
    def calls(self) -> int:
        return len(self.exchanges)

    @property
    def evaluated(self) -> bool:
        return self.success is not None


def _strip_markers(text: str) -> str:
    lines = text.rstrip("\n").split("\n")
    while lines and (_MARKER.match(lines[-1].strip()) or not lines[-1].strip()):
        lines.pop()
    return "\n".join(lines)


def prompt_target(prompt: str, index: int, goal_asked: bool | None = None) -> str:
    """Which function a prompt asks for: the first prompt asks for succ, the next one for the goal test,
    feedback on the goal test names it ("The goal test function ..."). The release asks again at once for a
    function it could not extract or compile, before any other step ("Could not extract ...", "The code
    contains syntax error ..."); that prompt says which function by what it does, and the goal test's first
    prompt follows the successor function's re-asks. ``goal_asked``: whether an earlier prompt asked for the
    goal test (None: as if the log had no re-asks, i.e. from ``index`` 2 on)."""
    if index == 0:
        return "succ"
    text = prompt.lstrip()
    if text.startswith(("Could not extract", "The code contains syntax error")):
        return "goal" if "goal state" in text else "succ"
    if not (index >= 2 if goal_asked is None else goal_asked):
        return "goal"
    return "goal" if text.startswith("The goal test function") else "succ"


def parse_log_text(text: str, path: str = "<log>") -> AutoToSLog:
    pieces = _HEADER.split(text)
    if len(pieces) < 3:
        raise LogFormatError(f"{path}: not an AutoToS log (no 'AutoToS prompt:' section)")
    domain, model, val = describe_path(path)
    log = AutoToSLog(path=path, domain=domain, model=model, partial_soundness=val)
    pending_prompt: str | None = None
    for i in range(1, len(pieces), 2):
        header, body = pieces[i], pieces[i + 1]
        if header.startswith("AutoToS prompt"):
            pending_prompt = _strip_markers(body).strip("\n")
        elif header.startswith("Model response"):
            if pending_prompt is None:
                raise LogFormatError(f"{path}: a model response without a prompt before it")
            goal_asked = any(exchange.target == "goal" for exchange in log.exchanges)
            target = prompt_target(pending_prompt, len(log.exchanges), goal_asked)
            log.exchanges.append(Exchange(pending_prompt, _strip_markers(body), target))
            pending_prompt = None
    if not log.exchanges:
        raise LogFormatError(f"{path}: no model response in the log")
    final = _FINAL.search(text)
    if final:
        log.success, log.failure = int(final.group(1)), int(final.group(2))
        if final.group(3) is not None:
            log.expanded, log.generated = int(final.group(3)), int(final.group(4))
    if _STOP_GOAL in text:
        log.stopped = "goal"
    elif _STOP_SUCC in text:
        log.stopped = "succ"
    return log


def parse_log(path: str | Path) -> AutoToSLog:
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise LogFormatError(f"{file}: no such file") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise LogFormatError(f"{file}: cannot be read ({exc})") from exc
    return parse_log_text(text, str(file))


def describe_path(path: str) -> tuple[str | None, str | None, bool | None]:
    """(domain, model, with partial soundness test) from ``.../<domain>/<model>-{val,noval}_logs/x.txt``."""
    parts = Path(path).parts
    if len(parts) < 3:
        return None, None, None
    folder, run = parts[-3], parts[-2]
    match = re.fullmatch(r"(.+)-(val|noval)_logs", run)
    domain = DOMAIN_FOLDERS.get(folder)
    if not match:
        return domain, None, None
    return domain, match.group(1), match.group(2) == "val"
