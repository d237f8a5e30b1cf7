"""Import of the published AutoToS logs (../shared/autotos): parsing, the paper's Table 2, and replays whose
calls and results must equal the log's."""

from __future__ import annotations

import ast
import json
import re
import statistics
from collections import defaultdict
from pathlib import Path

import pytest

from genplan.cli.main import main as genplan_main
from genplan.engine.autotos.domains import load_domain
from genplan.engine.autotos.logfile import LogFormatError, parse_log, parse_log_text
from genplan.engine.autotos.session import as_released, log_settings
from genplan.engine.events import FeedbackRound, read_log

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
AUTOTOS = SHARED / "autotos"
LOGS = AUTOTOS / "clean_logs"


def _need_logs() -> None:
    if not LOGS.is_dir():
        pytest.skip(f"../shared/autotos/clean_logs not found beside the checkout ({LOGS}): the AutoToS release is absent")


# Table 2 of the paper: average number of calls per domain and model (with the partial soundness test).
TABLE_2 = {
    ("24game", "gpt4-mini"): 8.8, ("prontoqa", "gpt4-mini"): 4.8, ("sokoban", "gpt4-mini"): 6.4,
    ("cw", "gpt4-mini"): 9.6, ("blocks", "gpt4-mini"): 10.0,
    ("24game", "gpt4"): 3.4, ("prontoqa", "gpt4"): 2.6, ("sokoban", "gpt4"): 2.2, ("cw", "gpt4"): 5.8,
    ("blocks", "gpt4"): 2.0,
    ("24game", "llama3.1-70b"): 7.4, ("prontoqa", "llama3.1-70b"): 2.0, ("sokoban", "llama3.1-70b"): 8.2,
    ("cw", "llama3.1-70b"): 6.2, ("blocks", "llama3.1-70b"): 5.8,
    ("24game", "deepseek-coderv2"): 4.4, ("prontoqa", "deepseek-coderv2"): 2.0, ("sokoban", "deepseek-coderv2"): 2.8,
    ("cw", "deepseek-coderv2"): 6.6, ("blocks", "deepseek-coderv2"): 4.2,
}


def test_every_log_parses_with_its_final_line_or_a_stop():
    _need_logs()
    logs = sorted(LOGS.glob("*/*/*.txt"))
    assert len(logs) == 200
    for path in logs:
        log = parse_log(path)
        assert log.calls >= 2, path
        assert log.domain is not None and log.model is not None and log.partial_soundness is not None
        assert log.evaluated != (log.stopped is not None), path  # either evaluated or stopped by a limit
        assert [e.target for e in log.exchanges[:2]] == ["succ", "goal"]


def test_average_calls_of_the_val_logs_match_table_2_of_the_paper():
    _need_logs()
    calls: dict[tuple[str, str], list[int]] = defaultdict(list)
    for path in LOGS.glob("*/*-val_logs/*.txt"):
        log = parse_log(path)
        calls[(path.parts[-3], log.model or "")].append(log.calls)
    assert set(calls) == set(TABLE_2)
    for key, expected in TABLE_2.items():
        assert statistics.mean(calls[key]) == pytest.approx(expected), key


def test_a_text_without_sections_is_refused_in_one_line():
    with pytest.raises(LogFormatError, match="not an AutoToS log"):
        parse_log_text("hello\n", "x.txt")


def test_markers_are_not_part_of_the_answers():
    text = ("AutoToS prompt:\nfirst\n\nModel response:\nanswer one\n\nAutoToS prompt:\nsecond\n\nModel response:\n"
            "answer two\nGoal Iteration 1 - Goal Soundness Test\n\nAutoToS prompt:\nThe goal test function failed\n\n"
            "Model response:\nthree\n\nSystem message:\nGoal Soundness Test Passed\nSuccess: 5, failure: 1\n")
    log = parse_log_text(text)
    assert [e.response for e in log.exchanges] == ["answer one", "answer two", "three"]
    assert [e.target for e in log.exchanges] == ["succ", "goal", "goal"]
    assert (log.success, log.failure) == (5, 1)


def _import(tmp_path: Path, log: Path, *extra: str, capsys) -> dict:
    code = genplan_main(["import", "autotos", str(log), "--json", "--quiet", "--runs", str(tmp_path), *extra])
    assert code == 0
    return json.loads(capsys.readouterr().out)


def test_an_import_says_each_call_and_check_as_a_live_run_does(tmp_path, capsys):
    # the progress lines come from the run's events, made by the loop itself for a live run and an import
    _need_logs()
    path = LOGS / "24game" / "gpt4-val_logs" / "script_log_20240803_104248.txt"
    assert genplan_main(["import", "autotos", str(path), "--no-eval", "--runs", str(tmp_path)]) == 0
    lines = capsys.readouterr().err.splitlines()
    assert lines[1:] == ["call 1: asking for succ", "   succ-1: function generate_successor_states",
                         "call 2: asking for goal", "   goal-1: function is_goal_state", "   goal tests passed",
                         "   soundness tests passed", "   completeness tests passed"]


# One log per domain with feedback rounds of several kinds (calls decided by genplan's own checks).
REPLAYS = [
    "24game/gpt4-mini-val_logs/script_log_20240802_235031.txt",  # exception, PST, completeness rounds
    # goal, input changed, exception, and a search that never ends (the log's "Timeout occurred during search")
    "blocks/llama3.1-70b-noval_logs/script_log_20240809_005653.txt",
    "sokoban/llama3.1-70b-val_logs",  # first log of the folder
    "prontoqa/gpt4-mini-val_logs/script_log_20240804_001109.txt",
]


@pytest.mark.parametrize("relative", REPLAYS)
def test_replayed_calls_equal_the_logs(tmp_path, capsys, relative):
    _need_logs()
    path = LOGS / relative
    if path.is_dir():
        path = min(path.glob("*.txt"))
    log = parse_log(path)
    # The searches that end take well under a second here (at most 0.6 s measured); the endless one of 005653
    # runs until this limit, so the limit is what that replay costs.
    result = _import(tmp_path, path, "--no-eval", "--search-timeout", "5", capsys=capsys)
    assert result["calls"] == log.calls
    if "005653" in relative:  # the collector no longer cuts the endless search short as a per-call timeout
        assert result["categories"].get("search timeout") == 1 and "succ timeout" not in result["categories"]
    run_dir = Path(result["run_dir"])
    events = list(read_log((run_dir / "events.jsonl").read_text().splitlines()))
    rounds = [e for e in events if isinstance(e, FeedbackRound)]
    assert len(rounds) == sum(result["categories"].values())
    assert all((r.feedback or "").strip() and r.category and r.failure for r in rounds)
    assert (run_dir / "versions" / "succ-1.py").exists() and (run_dir / "versions" / "goal-1.py").exists()
    # no evaluation asked for is not a replay that wanted more answers than the log holds
    assert json.loads((run_dir / "import.json").read_text())["wanted_more"] is False


def test_import_with_evaluation_gives_the_logs_success_and_failure(tmp_path, capsys):
    _need_logs()
    path = LOGS / "prontoqa" / "gpt4-val_logs" / "script_log_20240804_001235.txt"
    log = parse_log(path)
    result = _import(tmp_path, path, capsys=capsys)
    assert set(result) == {"run_dir", "calls", "success", "failure", "categories", "expanded", "generated", "account"}
    assert (result["calls"], result["success"], result["failure"]) == (log.calls, log.success, log.failure)


# The release's searches, reproduced to the node: BFS goal-tests a state when it leaves the queue, DFS keeps a
# closed list. Either way of testing finds a solution here, so only the counts tell the searches apart.
SEARCH_COUNTS = [
    "blocks/gpt4-noval_logs/script_log_20240802_134849.txt",  # BFS, 502 instances
    "cw/gpt4-noval_logs/script_log_20240803_004913.txt",  # DFS, 20 crosswords
]


@pytest.mark.parametrize("relative", SEARCH_COUNTS)
def test_the_evaluation_expands_and_generates_as_many_states_as_the_release(tmp_path, capsys, relative):
    _need_logs()
    path = LOGS / relative
    log = parse_log(path)
    assert log.expanded and log.generated
    result = _import(tmp_path, path, capsys=capsys)
    assert (result["success"], result["failure"]) == (log.success, log.failure)
    assert (result["expanded"], result["generated"]) == (log.expanded, log.generated)


def test_blocksworld_imports_accept_solutions_as_the_release_did_and_count_them_apart(tmp_path, capsys):
    # The final successor function of this log is unsound (an unstack while holding a block loses the held
    # block; a stack forgets the stacked block is clear). The release validated the actions the states show
    # (its logs print them), so it accepted 369 solutions whose states genplan's own check rejects.
    _need_logs()
    path = LOGS / "blocks" / "llama3.1-70b-noval_logs" / "script_log_20240808_114000.txt"
    log = parse_log(path)
    assert log_settings(log).release_validation
    result = _import(tmp_path / "release", path, capsys=capsys)
    assert (result["calls"], result["success"], result["failure"]) == (log.calls, log.success, log.failure) == (6, 369, 133)
    assert (result["expanded"], result["generated"]) == (log.expanded, log.generated)
    assert json.loads((Path(result["run_dir"]) / "import.json").read_text())["release_only"] == 369
    strict = _import(tmp_path / "strict", path, "--strict", capsys=capsys)
    assert (strict["success"], strict["failure"]) == (0, 502)


def test_sokoban_imports_evaluate_the_instances_the_releases_logs_print():
    # A log whose solutions failed prints each instance's grid and optimal cost: they are the release's
    # evaluation set, which holds its three unit-test instances in place of p05, p08 and p09 of test_instances/.
    _need_logs()
    text = (LOGS / "sokoban" / "deepseek-coderv2-noval_logs" / "script_log_20240808_135122.txt").read_text()
    printed = re.findall(r"^Found solution of length \d+, optimal: (\d+)\nGrid (\[\[.*\]\])$", text, re.MULTILINE)
    assert len(printed) == 11
    domain = load_domain("sokoban", AUTOTOS)
    released = as_released(domain)
    ours = sorted((instance.info["optimal"], instance.extra[0]) for instance in released.eval_instances)
    assert ours == sorted((int(cost), ast.literal_eval(grid)) for cost, grid in printed)
    assert {i.name for i in domain.eval_instances} - {i.name for i in released.eval_instances} == {
        "p05.pddl", "p08.pddl", "p09.pddl"}


def test_a_sokoban_goal_test_that_wants_every_goal_square_filled_solves_the_releases_set(tmp_path, capsys):
    # p08 of test_instances/ has four goal squares for three stones; this log's goal test (stones == goal
    # squares) can never hold there. The release never evaluated p08, and the import reproduces its run.
    _need_logs()
    path = LOGS / "sokoban" / "gpt4-val_logs" / "script_log_20240802_123531.txt"
    log = parse_log(path)
    result = _import(tmp_path, path, capsys=capsys)
    assert (result["calls"], result["success"], result["failure"]) == (log.calls, log.success, log.failure) == (3, 11, 0)
    assert (result["expanded"], result["generated"]) == (log.expanded, log.generated)
    evaluated = json.loads((Path(result["run_dir"]) / "run.json").read_text())["eval_instances"]
    assert len(evaluated) == 11 and "p08.pddl" not in evaluated and "p01.pddl" in evaluated


def test_the_logged_search_totals_are_parsed_in_both_spellings():
    text = ("AutoToS prompt:\nfirst\n\nModel response:\nanswer\n\nSystem message:\n"
            "Success: 4000, failure: 0, total expansions 8, total evaluations 9\n")
    assert (parse_log_text(text).expanded, parse_log_text(text).generated) == (8, 9)
    log = parse_log_text(text.replace("Success: 4000, failure: 0, total expansions 8, total evaluations 9",
                                      "Total success: 11, failure: 0, total expansions 763076, total generated 1953949"))
    assert (log.success, log.expanded, log.generated) == (11, 763076, 1953949)
    assert parse_log_text(text.replace(", total expansions 8, total evaluations 9", "")).expanded is None


def test_import_of_a_missing_file_is_a_one_line_error(tmp_path, capsys):
    code = genplan_main(["import", "autotos", str(tmp_path / "none.txt"), "--runs", str(tmp_path)])
    assert code == 2
    assert "no such file" in capsys.readouterr().err


def test_import_without_data_folder_asks_for_data(tmp_path, capsys):
    log = tmp_path / "x.txt"
    log.write_text("AutoToS prompt:\nhi\n\nModel response:\nthere\n", encoding="utf-8")
    code = genplan_main(["import", "autotos", str(log), "--domain", "24game", "--runs", str(tmp_path)])
    assert code == 2
    assert "--data" in capsys.readouterr().err


def test_the_chat_interface_runs_psts_pass_a_successor_equal_to_a_seen_state(tmp_path, capsys):
    """The same self-loop successor ({butterfly, painted lady} -> itself): GPT-4's PrOntoQA run got PST feedback
    for it, DeepSeek's passed; each replays with its log's calls and never asks past the log. DeepSeek's
    crossword runs did check repeated states."""
    _need_logs()
    gpt4 = LOGS / "prontoqa/gpt4-val_logs/script_log_20240804_001235.txt"
    deepseek = LOGS / "prontoqa/deepseek-coderv2-val_logs/script_log_20240808_023643.txt"
    assert log_settings(parse_log(gpt4)).pst_on_seen_states
    assert not log_settings(parse_log(deepseek)).pst_on_seen_states
    assert log_settings(parse_log(deepseek), pst_on_seen_states=True).pst_on_seen_states  # changes win
    crossword = next((LOGS / "cw/deepseek-coderv2-val_logs").glob("*.txt"))
    assert log_settings(parse_log(crossword)).pst_on_seen_states
    for path, categories in ((gpt4, {"succ soundness": 1}), (deepseek, {})):
        result = _import(tmp_path / path.parent.name, path, "--no-eval", capsys=capsys)
        assert result["calls"] == parse_log(path).calls and result["categories"] == categories, path
        assert json.loads((Path(result["run_dir"]) / "run.json").read_text())["error"] is None
