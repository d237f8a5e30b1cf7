"""`genplan edit` and `genplan fork --from`, the headless twins of the TUI's editor (ctrl+s, ctrl+r), as a
researcher scripts them: a run, an edit, an edit of that edit, a fork from the last one that finishes on the
edited text (checked in the requests the scripted server received), and the one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

from support.cli_process import genplan
from support.ferry_model import FERRY, FerryModel
from support.scripted_server import ScriptedServer

FIRST_EDIT = "1. sail to a car that is not at its goal\n2. board it, sail to its goal, debark it\n(version 7)\n"
SECOND_EDIT = "1. pick any car not at its goal (MARKER-second-edit)\n2. sail to it, board, sail to its goal, debark\n(version 8)\n"


def _events(run_dir: Path, kind: str) -> list[dict]:
    lines = (run_dir / "events.jsonl").read_text().splitlines()
    return [event["data"] for event in map(json.loads, lines) if event["type"] == kind]


def test_edit_twice_then_fork_from_the_last_edit(tmp_path: Path) -> None:
    with ScriptedServer() as server:
        server.respond_with(FerryModel(strategy_plan_mistakes=1))
        model = ["--model", server.model, "--base-url", server.base_url]
        done = genplan("run", str(FERRY), *model, "--out", str(tmp_path / "runs"), "--json", "--quiet", home=tmp_path)
        assert done.returncode == 0, done.stderr
        run_dir = Path(json.loads(done.stdout)["run_dir"])
        assert sorted(p.name for p in (run_dir / "strategies").iterdir()) == ["v01.md", "v02.md"]

        (tmp_path / "first.md").write_text(FIRST_EDIT)
        (tmp_path / "second.md").write_text(SECOND_EDIT)
        first = genplan("edit", str(run_dir), "strategies/v01.md", str(tmp_path / "first.md"), home=tmp_path)
        assert first.returncode == 0, first.stderr
        assert first.stdout == "strategies/v03.md\n"
        second = genplan("edit", str(run_dir), "strategies/v03.md", str(tmp_path / "second.md"), home=tmp_path)
        assert second.returncode == 0, second.stderr
        assert second.stdout == "strategies/v04.md\n"
        assert (run_dir / "strategies/v04.md").read_text() == SECOND_EDIT
        assert (run_dir / "strategies/v01.md").read_text().startswith("1. for every car")  # never overwritten
        edits = [(e["edited"], e["file"], e["origin"]) for e in _events(run_dir, "artifact.edited")]
        assert edits == [("strategies/v01.md", "strategies/v03.md", "cli"), ("strategies/v03.md", "strategies/v04.md", "cli")]

        # the same text again is no new version
        same = genplan("edit", str(run_dir), "strategies/v04.md", str(tmp_path / "second.md"), home=tmp_path)
        assert same.returncode == 0 and same.stdout == "" and "no new version" in same.stderr
        assert not (run_dir / "strategies/v05.md").exists()

        asked_before = len(server.requests)
        forked = genplan("fork", str(run_dir), "--from", "strategies/v04.md", *model, "--json", home=tmp_path)
        assert forked.returncode == 0, forked.stderr
        summary = json.loads(forked.stdout)
        ran = json.loads(done.stdout)
        assert set(summary) == set(ran)  # the keys of genplan run --json
        assert summary["status"] == "finished"
        assert summary["debug_solved"] == summary["debug_total"] == 6
        assert summary["selected_program"] and Path(summary["selected_program"]).is_file()
        fork_dir = Path(summary["run_dir"])
        assert fork_dir.parent == run_dir.parent and fork_dir != run_dir

        # the fork used the edit of the edit: nothing before the strategy was asked again, and every plan request
        # of the strategy's validation carried the second edit's text
        new = server.requests[asked_before:]
        steps = [r.step for r in new]
        assert "nl.domain" not in steps and "nl.task" not in steps and "strategy.generate" not in steps
        plans = [r for r in new if r.step == "strategy.plan"]
        assert len(plans) >= 6 and all("MARKER-second-edit" in r.messages[-1]["content"] for r in plans)
        assert not any("(version 7)" in r.messages[-1]["content"] for r in new)

        # the fork names the version as its source does, with the same ✎ mark, and its results are under that name
        assert (fork_dir / "strategies/v04.md").read_text().strip() == SECOND_EDIT.strip()
        assert not (fork_dir / "strategies/v01.md").exists()
        assert (fork_dir / "results/strategy-v04.json").is_file()
        marks = [(e["edited"], e["file"]) for e in _events(fork_dir, "artifact.edited")]
        assert marks == [("strategies/v03.md", "strategies/v04.md")]
        meta = json.loads((fork_dir / "run.json").read_text())
        assert meta["forked_from"] == str(run_dir) and meta["edited_version"] == "strategies/v04.md"
        assert meta["edit_lineage"] == ["strategies/v01.md", "strategies/v03.md", "strategies/v04.md"]


def test_edit_and_fork_errors_are_one_line(tmp_path: Path) -> None:
    from genplan.engine.runs.store import RunStore

    run_dir = RunStore.create(tmp_path / "runs", {"approach": "stein"}).path
    (run_dir / "strategies").mkdir()
    (run_dir / "strategies/v01.md").write_text("1. a strategy\n")
    text = tmp_path / "new.md"
    text.write_text("1. another strategy\n")
    empty = tmp_path / "empty.md"
    empty.write_text("  \n")
    cases = {
        "no run": (["edit", str(tmp_path / "nowhere"), "strategies/v01.md", str(text)], "not a run directory"),
        "unknown version": (["edit", str(run_dir), "strategies/v09.md", str(text)], "has no version strategies/v09.md"),
        "not a version": (["edit", str(run_dir), "run.json", str(text)], "not a version a person edits"),
        "empty file": (["edit", str(run_dir), "strategies/v01.md", str(empty)], "is empty"),
        "missing file": (["edit", str(run_dir), "strategies/v01.md", str(tmp_path / "gone.md")], "no such file"),
        "fork, no run": (["fork", str(tmp_path / "nowhere"), "--from", "strategies/v01.md"], "not a run directory"),
        "fork, unknown version": (["fork", str(run_dir), "--from", "programs/c1-v00.py"], "has no version"),
    }
    for name, (args, words) in cases.items():
        done = genplan(*args, home=tmp_path)
        assert done.returncode == 2, (name, done.stderr)
        assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, (name, done.stderr)
        assert words in done.stderr, (name, done.stderr)
    assert sorted(p.name for p in (run_dir / "strategies").iterdir()) == ["v01.md"]  # nothing was made


def test_an_autotos_run_is_forked_from_an_edited_function_given_with_text(tmp_path: Path) -> None:
    """An AutoToS run keeps no edits of its own: `genplan fork --from versions/succ-1.py --text FILE` makes the
    text the answer of the call that wrote succ-1 in a new run; `genplan edit` on it says to do that."""
    from support.small_ferry import small_ferry_copy
    from test_autotos_pddl import FERRY as RIGHT_SUCC
    from test_autotos_pddl import FERRY_BOARD_KEEPS_EMPTY, GOAL

    domain = small_ferry_copy(tmp_path)
    with ScriptedServer() as server:
        server.on_step("autotos.succ", [FERRY_BOARD_KEEPS_EMPTY, RIGHT_SUCC])
        server.on_step("autotos.goal", [GOAL])
        model = ["--model", server.model, "--base-url", server.base_url]
        done = genplan("run", str(domain), "--preset", "AutoToS", *model, "--out", str(tmp_path / "runs"), "--json",
                       "--quiet", home=tmp_path)
        assert done.returncode == 0, done.stderr
        run_dir = Path(json.loads(done.stdout)["run_dir"])
        assert server.steps() == ["autotos.succ", "autotos.goal", "autotos.succ"]
        right = (run_dir / "versions/succ-2.py").read_text()
        (tmp_path / "succ.py").write_text(right)

        edit = genplan("edit", str(run_dir), "versions/succ-1.py", str(tmp_path / "succ.py"), home=tmp_path)
        assert edit.returncode == 2 and edit.stderr.count("\n") == 1
        assert f"genplan fork {run_dir} --from versions/succ-1.py --text FILE" in edit.stderr
        missing = genplan("fork", str(run_dir), "--from", "versions/succ-9.py", "--text", str(tmp_path / "succ.py"),
                          home=tmp_path)
        assert missing.returncode == 2 and "has no version versions/succ-9.py" in missing.stderr

        server.clear()
        server.on_step("autotos.goal", [GOAL])
        forked = genplan("fork", str(run_dir), "--from", "versions/succ-1.py", "--text", str(tmp_path / "succ.py"),
                         "--memory", "3", *model, "--json", home=tmp_path)
        assert forked.returncode == 0, forked.stderr
        # the edit answered call 1 (nothing sent for it); the goal test after it was asked anew, with the edit
        assert server.steps() == ["autotos.goal"]
        assert right.strip() in server.requests[0].messages[2]["content"]
        summary = json.loads(forked.stdout)
        fork_dir = Path(summary["run_dir"])
        assert summary["status"] == "finished" and fork_dir.parent == run_dir.parent and fork_dir != run_dir
        assert (fork_dir / "versions/succ-1.py").read_text().strip() == right.strip()
        assert not (fork_dir / "versions/succ-2.py").exists()  # sound at once: no second successor function
        info = json.loads((fork_dir / "run.json").read_text())
        assert (info["forked_from"], info["edited_version"]) == (str(run_dir), "versions/succ-1.py")
        assert info["parameters"]["memory_gib"] == 3.0  # --memory: the fork's searches, not its source's 2 GiB
        assert sorted(p.name for p in (run_dir / "versions").glob("*.py")) == ["goal-1.py", "succ-1.py", "succ-2.py"]


def test_a_text_for_a_version_a_person_edits_is_saved_with_edit_first(tmp_path: Path) -> None:
    from genplan.engine.runs.store import RunStore

    run_dir = RunStore.create(tmp_path / "runs", {"approach": "stein"}).path
    (run_dir / "strategies").mkdir()
    (run_dir / "strategies/v01.md").write_text("1. a strategy\n")
    (tmp_path / "new.md").write_text("1. another strategy\n")
    done = genplan("fork", str(run_dir), "--from", "strategies/v01.md", "--text", str(tmp_path / "new.md"),
                   home=tmp_path)
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "save the new text as a version first (genplan edit)" in done.stderr
    assert sorted(p.name for p in run_dir.iterdir() if p.is_dir()) == ["strategies"]
