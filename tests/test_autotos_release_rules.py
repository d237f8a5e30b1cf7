"""The AutoToS release's own rules when replaying its logs (issue 38, points 6 and 7): its cut of the function out
of an answer, and its soundness test, which never asks whether the search stopped at a real goal.

The logs here are SYNTHETIC: small answers written for these tests (not model output), in the release's log
format, so that each rule is exercised on an input made for it. The release's real logs are replayed in
test_autotos_import.py and benchmarks/autotos_import_all.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from genplan.engine.autotos import harness
from genplan.engine.autotos.domains import load_domain
from genplan.engine.autotos.executor import SandboxExecutor
from genplan.engine.autotos.extract import extract_as_released, extract_function, release_code
from genplan.engine.autotos.generators import generate_24game
from genplan.engine.autotos.logfile import parse_log_text, prompt_target
from genplan.engine.autotos.session import import_log, log_settings
from genplan.engine.events import FeedbackRound, read_log

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
AUTOTOS = SHARED / "autotos"

# --------------------------------------------------------------------------------------- synthetic answers
SUCC_BODY = '''    out = []
    for i in range(len(state)):
        for j in range(len(state)):
            if i == j:
                continue
            rest = [state[k] for k in range(len(state)) if k not in (i, j)]
            a, b = state[i], state[j]
            for value in (a + b, a - b, a * b) + ((a / b,) if b != 0 else ()):
                out.append(rest + [value])
    return out
'''
GOAL_24 = "```python\ndef is_goal(state):\n    return len(state) == 1 and abs(state[0] - 24) < 1e-9\n```\n"
# prose the answer puts inside its fence, after the function
SUCC_PROSE_IN_FENCE = ("```python\ndef successor_states(state):\n" + SUCC_BODY
                       + "\nThis returns every state one operation away.\n```\n")
# a helper defined after the function that calls it
SUCC_HELPER_AFTER = ("```python\ndef successor_states(state):\n    return expand(state)\n\n"
                     "def expand(state):\n" + SUCC_BODY + "```\n")
SUCC_PLAIN = "```python\ndef successor_states(state):\n" + SUCC_BODY + "```\n"
SUCC_HELPER_FIRST = ("```python\ndef combine(a, b):\n    return [a + b]\n\ndef successor_states(state):\n"
                     + SUCC_BODY + "```\n")


def synthetic_log(tmp_path: Path, folder: str, exchanges: list[tuple[str, str]], final: str) -> Path:
    """A log in the release's format (``clean_logs/<folder>/synthetic-noval_logs/``) of ``(prompt, answer)`` pairs."""
    text = "".join(f"AutoToS prompt:\n{prompt}\n\nModel response:\n{answer}\n\n" for prompt, answer in exchanges)
    path = tmp_path / "clean_logs" / folder / "synthetic-noval_logs" / "script_log_synthetic.txt"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text + f"System message:\n{final}\n", encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def executor():
    ex = SandboxExecutor(hash_seed=0)
    yield ex
    ex.close()


@pytest.fixture(scope="module")
def game():
    return generate_24game(seed=3, unit_tests=3, evaluation=4)


def _rounds(summary) -> list[FeedbackRound]:
    lines = (Path(summary["run_dir"]) / "events.jsonl").read_text().splitlines()
    return [event for event in read_log(lines) if isinstance(event, FeedbackRound)]


def _replay(path: Path, domain, executor, runs: Path, **changes):
    log = parse_log_text(path.read_text(encoding="utf-8"), str(path))
    return import_log(log, domain, executor, runs, log_settings(log, evaluate=False, **changes))


# --------------------------------------------------------------------------------------- the release's cut
def test_the_release_cut_ends_at_the_first_line_starting_with_a_letter():
    found = extract_as_released(SUCC_PROSE_IN_FENCE, "succ")
    assert found is not None and found.name == "successor_states" and found.syntax_error is None
    assert "This returns" not in found.source
    # genplan's own rule compiles the whole block: the prose makes it a syntax error
    whole = extract_function(SUCC_PROSE_IN_FENCE, "succ")
    assert whole is not None and "This returns" in whole.source


def test_helpers_after_the_function_are_cut_off_and_helpers_before_it_move_inside():
    after = extract_as_released(SUCC_HELPER_AFTER, "succ")
    assert after is not None and "def expand" not in after.source
    answer = "```python\nimport math\nLIMIT = 2\n\ndef is_goal(state):\n    return math.isclose(state[0], 24)\n```"
    inside = extract_as_released(answer, "goal")
    assert inside is not None and inside.source.splitlines()[:3] == ["def is_goal(state):", "    import math",
                                                                      "    LIMIT = 2"]


def test_an_answer_whose_first_def_is_not_the_function_asked_for_yields_nothing():
    assert extract_as_released(SUCC_HELPER_FIRST, "succ") is None
    # the first def names the goal test: cut, but no successor function in it
    assert extract_as_released("```python\ndef is_goal(s):\n    return True\n```", "succ") is None
    # the release's name pattern wants "):" on the def line: a return annotation hides the function
    assert extract_as_released("```python\ndef is_goal(s) -> bool:\n    return True\n```", "goal") is None
    assert extract_function(SUCC_HELPER_FIRST, "succ") is not None  # genplan's rule finds it


def test_without_fences_the_whole_answer_is_cut_and_prose_before_the_def_breaks_it():
    assert release_code("def successor_states(s):\n    return []\nDone.") == "def successor_states(s):\n    return []"
    broken = extract_as_released("Here you are:\ndef successor_states(s):\n    return []\n", "succ")
    assert broken is not None and broken.syntax_error is not None and "SyntaxError" in broken.syntax_error


def test_the_later_code_part_is_tried_when_the_first_has_no_function_of_either_kind():
    answer = "```python\ndef helper():\n    pass\n```\ntext\n```python\ndef successor_states(s):\n    return []\n```"
    found = extract_as_released(answer, "succ")
    assert found is not None and found.name == "successor_states"


def test_the_release_asks_again_for_a_function_it_cannot_extract_and_the_log_says_for_which():
    assert prompt_target("Could not extract the function from your response. Please provide only the complete "
                         "Python function that returns a list of successor states for a state.", 1) == "succ"
    assert prompt_target("Could not extract the function from your response. Please provide only the complete "
                         "Python function that tests whether a given state is already a goal state.", 4) == "goal"
    assert prompt_target("anything", 1) == "goal"


# --------------------------------------------------------------------------------------- blame
def test_a_load_error_is_blamed_on_the_function_whose_code_failed():
    broken = {"source": "def successor_states(s)\n    return []\n", "name": "successor_states"}
    goal = {"source": "def is_goal(s):\n    return True\n", "name": "is_goal"}
    request = {"op": "soundness", "domain": "24game", "call_timeout": 1.0, "succ": broken, "goal": goal,
               "instances": [], "pst": False, "search_timeout": 5.0, "depth_first": False}
    assert harness.handle(request)["failure"] == "succ-exception"
    bad_goal = {"source": "raise ValueError('at import')\ndef is_goal(s):\n    return True\n", "name": "is_goal"}
    fine = {"source": "def successor_states(s):\n    return []\n", "name": "successor_states"}
    assert harness.handle({**request, "succ": fine, "goal": bad_goal})["failure"] == "goal-exception"


def test_genplan_rules_blame_prose_in_the_successor_block_on_the_successor_function(tmp_path, game, executor):
    path = synthetic_log(tmp_path, "24game", [("first", SUCC_PROSE_IN_FENCE), ("second", GOAL_24)],
                         "Success: 0, failure: 0")
    summary = _replay(path, game, executor, tmp_path / "runs", extraction="genplan", goal_reached_check=True)
    assert summary["categories"] == {"succ exception": 1}  # never "goal exception": the goal test is fine
    assert summary["wanted_more"]  # genplan asks the successor function again; the log has no 3rd answer
    (round_,) = _rounds(summary)
    assert round_.target == "succ" and "SyntaxError" in str(round_.feedback)


# --------------------------------------------------------------------------------------- replays by the release's rules
def test_prose_after_the_function_replays_as_the_release_ran_it(tmp_path, game, executor):
    path = synthetic_log(tmp_path, "24game", [("first", SUCC_PROSE_IN_FENCE), ("second", GOAL_24)],
                         "Success: 0, failure: 0")
    summary = _replay(path, game, executor, tmp_path / "runs")
    assert summary["calls"] == 2 and not summary["wanted_more"] and summary["categories"] == {}


def test_a_helper_after_the_function_fails_as_in_the_release(tmp_path, game, executor):
    feedback = "The following exception was produced when testing the successor function: NameError"
    path = synthetic_log(tmp_path, "24game", [("first", SUCC_HELPER_AFTER), ("second", GOAL_24),
                                              (feedback, SUCC_PLAIN)], "Success: 0, failure: 0")
    release = _replay(path, game, executor, tmp_path / "release")
    assert release["calls"] == 3 and not release["wanted_more"] and not release["divergences"]
    assert release["categories"] == {"succ exception": 1}
    genplan = _replay(path, game, executor, tmp_path / "genplan", extraction="genplan")
    assert genplan["calls"] == 2  # genplan's rule runs the helper too: it passes where the release failed


def test_an_unextractable_successor_is_asked_again_before_the_goal_test(tmp_path, game, executor):
    again = ("Could not extract the function from your response. Please provide only the complete Python function "
             "that returns a list of successor states for a state.")
    path = synthetic_log(tmp_path, "24game", [("first", SUCC_HELPER_FIRST), (again, SUCC_PLAIN), ("second", GOAL_24)],
                         "Success: 0, failure: 0")
    summary = _replay(path, game, executor, tmp_path / "runs")
    assert [e.target for e in parse_log_text(path.read_text(), str(path)).exchanges] == ["succ", "succ", "goal"]
    assert summary["calls"] == 3 and not summary["divergences"] and not summary["wanted_more"]
    assert summary["categories"] == {"parse error": 1}


def test_a_syntax_error_is_a_parse_error_of_that_function_with_the_compilers_message(tmp_path, game, executor):
    broken_goal = "```python\ndef is_goal(state)\n    return False\n```"
    fixed = "The code contains syntax error: invalid syntax. Please provide only the complete Python function."
    path = synthetic_log(tmp_path, "24game", [("first", SUCC_PLAIN), ("second", broken_goal),
                                              ("The goal test function " + fixed, GOAL_24)], "Success: 0, failure: 0")
    summary = _replay(path, game, executor, tmp_path / "runs")
    assert summary["calls"] == 3 and not summary["divergences"] and summary["categories"] == {"parse error": 1}
    (round_,) = _rounds(summary)
    assert round_.target == "goal" and "does not compile" in str(round_.feedback)


# --------------------------------------------------------------------------------------- the soundness test
# Written for this test: a correct BlocksWorld successor function, and a goal test that ignores which block of
# an "on" pair is on top (it passes the release's goal unit tests).
BW_SUCC = '''```python
import copy

def successor_states(state):
    result = []
    if state['arm-empty']:
        for block in state['clear']:
            nxt = copy.deepcopy(state)
            nxt['arm-empty'] = False
            nxt['holding'] = block
            nxt['clear'].remove(block)
            if block in state['on-table']:
                nxt['on-table'].remove(block)
            else:
                below = [b for (a, b) in state['on'] if a == block][0]
                nxt['on'].remove((block, below))
                nxt['clear'].append(below)
            result.append(nxt)
    else:
        held = state['holding']
        nxt = copy.deepcopy(state)
        nxt['arm-empty'] = True
        nxt['holding'] = None
        nxt['on-table'].append(held)
        nxt['clear'].append(held)
        result.append(nxt)
        for block in state['clear']:
            nxt = copy.deepcopy(state)
            nxt['arm-empty'] = True
            nxt['holding'] = None
            nxt['clear'].remove(block)
            nxt['clear'].append(held)
            nxt['on'].append((held, block))
            result.append(nxt)
    return result
```'''
BW_GOAL_EITHER_WAY = '''```python
def is_goal(state, goal):
    pairs = [set(p) for p in state['on']]
    return all(b in state['on-table'] for b in goal['on-table']) and all(set(p) in pairs for p in goal['on'])
```'''


def _blocks():
    if not (AUTOTOS / "blocksworld").is_dir():
        pytest.skip(f"../shared/autotos not found beside the checkout ({AUTOTOS}): the release's BlocksWorld data is absent")
    return load_domain("blocksworld", AUTOTOS)


def test_a_goal_test_accepting_a_non_goal_passes_the_releases_soundness_test_and_is_reported(tmp_path, executor):
    domain = _blocks()
    path = synthetic_log(tmp_path, "blocks", [("first", BW_SUCC), ("second", BW_GOAL_EITHER_WAY)],
                         "Success: 0, failure: 0")
    release = _replay(path, domain, executor, tmp_path / "release")
    assert release["calls"] == 2 and not release["wanted_more"] and release["categories"] == {}
    assert release["findings"] and "accepts a non-goal state" in release["findings"][0]
    stored = json.loads((Path(release["run_dir"]) / "import.json").read_text())
    assert stored["findings"] == release["findings"]
    # genplan's stricter test rejects the goal test and wants an answer the log lacks
    strict = _replay(path, domain, executor, tmp_path / "strict", goal_reached_check=False)
    assert strict["findings"]
    genplan = _replay(path, domain, executor, tmp_path / "genplan", goal_reached_check=True)
    assert genplan["categories"] == {"goal soundness": 1} and genplan["wanted_more"] and not genplan["findings"]


def test_a_block_closed_by_two_backticks_in_a_copied_log_still_ends_there():
    answer = "Python\n```\ndef is_goal_state(state):\n    return True\n``\n\nIt compares the stones.\n"
    found = extract_as_released(answer, "goal")
    assert found is not None and found.syntax_error is None and found.name == "is_goal_state"


def test_a_refused_import_reaches_the_model_without_a_host_path(executor):
    succ = {"source": "def successor_states(state):\n    import ctypes\n    return []\n", "name": "successor_states"}
    goal = {"source": "def is_goal(state):\n    return False\n", "name": "is_goal"}
    request = {"op": "soundness", "domain": "24game", "call_timeout": 1.0, "succ": succ, "goal": goal,
               "instances": [{"init": [1, 2, 3, 4], "extra": [], "goal_extra": []}], "pst": False,
               "search_timeout": 5.0, "depth_first": False}
    result = executor.run(request, 30.0)
    assert result["failure"] == "succ-exception"
    error = result["error"]
    assert 'File "<string>", line 2, in successor_states' in error and "importing ctypes" in error
    assert "guard.py" not in error and "/" not in error.split("\n\n")[0]


def test_live_runs_keep_genplan_rules_unless_asked_and_record_them(tmp_path):
    from genplan.cli.cmd_autotos import parameters_of
    from genplan.cli.main import build_parser
    from genplan.engine.autotos.parameters import BadParameters, parameters

    parser = build_parser()
    default = parameters(parameters_of(parser.parse_args(["autotos", "24game"]), "AutoToS"))
    assert (default.extraction, default.goal_reached_check) == ("genplan", True)
    release = parameters(parameters_of(parser.parse_args(["autotos", "24game", "--release-rules"]), "AutoToS"))
    assert (release.extraction, release.goal_reached_check) == ("release", False)
    assert release.settings().extraction == "release" and not release.settings().goal_reached_check
    with pytest.raises(BadParameters, match="extraction: genplan or release"):
        parameters({"extraction": "whole"})
    imported = parser.parse_args(["import", "autotos", "x.txt"])
    assert imported.release_rules and not parser.parse_args(["import", "autotos", "x.txt", "--genplan-rules"]).release_rules
    # the clock: a live run counts wall seconds (the paper's rule) unless asked; an import counts CPU seconds
    assert default.clock == "wall" and default.settings().clock == "wall"
    on_cpu = parameters(parameters_of(parser.parse_args(["autotos", "24game", "--clock", "cpu"]), "AutoToS"))
    assert on_cpu.settings().clock == "cpu"
    with pytest.raises(BadParameters, match="clock: wall or cpu"):
        parameters({"clock": "sundial"})
    from types import SimpleNamespace

    from genplan.engine.autotos.session import log_settings
    log = SimpleNamespace(model="gpt-4", domain="24game", partial_soundness=False)
    assert log_settings(log).clock == "cpu" and log_settings(log, clock="wall").clock == "wall"
    assert imported.clock is None  # cli/import_autotos.py: "cpu" unless --clock says otherwise
