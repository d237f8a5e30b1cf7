"""A new approach plugs in without touching the front ends: a toy approach (ask once, check, stop) defined
in this file is registered, then run through the CLI, the TUI (Pilot) and a batch."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Iterator

import pytest

from genplan.engine.approaches import registry
from genplan.engine.approaches.stein import code_extractor
from genplan.engine.llm import ChatMessage
from support.ferry_model import CORRECT_PROGRAM, FERRY
from support.scripted_server import RecordedRequest, ScriptedServer
from test_tui_support import config_for, ferry_copy, isolated, make_app, ready, wait_for  # noqa: F401

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the sandbox is Linux only")

TOY_STEP = "toy.code"


def run_toy(ctx: Any, checker: Any) -> None:
    """Ask once for a program, check it on the debug tasks, stop."""
    ctx.publish("step.started", phase="code", candidate=1)
    ask = ChatMessage("user", f"Write {ctx.config.function_name}(objects, init, goal) for:\n{ctx.domain.source}")
    code, history, _ = ctx.ask_extract(TOY_STEP, [ctx.system(), ask], code_extractor((ctx.config.function_name,)), "code")
    if code is not None:
        program = ctx.add_program(1, code, history[-1].content, checker)
        ctx.publish("selection.made", kind="program", version=program.label, solved=program.solved,
                    total=len(ctx.tasks), file=program.file)


def answer_toy(request: RecordedRequest) -> str | None:
    return f"```python\n{CORRECT_PROGRAM}\n```" if request.step == TOY_STEP else None


@pytest.fixture
def toy() -> Iterator[registry.Approach]:
    approach = registry.register(registry.Approach(
        name="toy", summary="ask once, check, stop", prompt_set="stein", feedback_style="stein",
        entry=f"{__name__}:run_toy", steps=(TOY_STEP,),
        presets={"Toy": {"strategy_rounds": 0, "code_rounds": 0, "initial_programs": 1, "program_timeout_s": 5.0}},
    ))
    yield approach
    registry.unregister("toy")


def test_the_toy_runs_through_the_cli(toy: registry.Approach, scripted_server: ScriptedServer, tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from genplan.cli.main import main

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert main(["run", "--list-presets"]) == 0
    assert any(line.split()[:2] == ["Toy", "toy"] for line in capsys.readouterr().out.splitlines())
    scripted_server.respond_with(answer_toy)
    code = main(["run", str(FERRY), "--preset", "Toy", "--model", scripted_server.model, "--base-url",
                 scripted_server.base_url, "--out", str(tmp_path / "runs"), "--json", "--quiet", "--no-cache"])
    summary = json.loads(capsys.readouterr().out)
    assert code == 0 and summary["status"] == "finished"
    assert scripted_server.steps() == [TOY_STEP]
    assert summary["debug_solved"] == summary["debug_total"] == 6
    meta = json.loads((Path(summary["run_dir"]) / "run.json").read_text())
    assert meta["config"]["approach"] == "toy"


async def test_the_toy_runs_in_the_tui(toy: registry.Approach, scripted_server: ScriptedServer,
                                       isolated: Path) -> None:  # noqa: F811
    scripted_server.respond_with(answer_toy)
    domain = ferry_copy(isolated)
    app = make_app(domain, config_for(isolated, scripted_server), preset="Toy")
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot, app)
        await pilot.press("r")
        await wait_for(pilot, lambda: app.session is not None or app.run_state.status == "done", what="the run")
        await wait_for(pilot, lambda: app.session is None, timeout=60, what="the run to finish")
        await wait_for(pilot, lambda: not app.events and app.run_state.status == "done", what="the last events")
        requests = [e for e in app.run_state.entries if e.kind == "request"]
        assert [e.step for e in requests] == [TOY_STEP]
        assert ("program", "c1-v00") in app.run_state.results
    assert scripted_server.steps() == [TOY_STEP]


def test_the_toy_runs_in_a_batch(toy: registry.Approach, tmp_path: Path) -> None:
    from genplan.engine.batch import load_experiment, run_batch
    from test_batch import write_experiment

    with ScriptedServer() as server:
        server.respond_with(answer_toy)
        path = write_experiment(tmp_path, server, domains=("ferry",), presets=("Toy",), extra="eval_limit = 2")
        result = run_batch(load_experiment(path), tmp_path / "batch", no_cache=True)
        assert result.complete, [(s.run_status, s.message) for s in result.failed]
        assert server.steps() == [TOY_STEP]
    batch = json.loads((tmp_path / "batch" / "batch.json").read_text())
    assert [(e["preset"], e["run_status"]) for e in batch["entries"]] == [("Toy", "finished")]
