"""Capability 1: opening a domain — the domain PDDL highlighted, the tasks with PDDL / NL / Python, the runs."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_tui_support import config_for, ferry_copy, isolated, make_app, ready, recorded_ferry, wait_for  # noqa: F401

from genplan.tui.widgets.code_area import CodeArea
from genplan.tui.widgets.panels import RunsTable, TasksPanel


@pytest.fixture(scope="module")
def ferry_with_run(tmp_path_factory: pytest.TempPathFactory, buggy_then_fixed_ferry: Path) -> tuple[Path, Path]:
    return recorded_ferry(buggy_then_fixed_ferry, tmp_path_factory.mktemp("domain"))


async def test_domain_tasks_and_runs_panels(ferry_with_run, isolated: Path) -> None:  # noqa: F811
    domain, run = ferry_with_run
    app = make_app(domain, config_for(isolated, None))
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot, app)
        code = app.query_one("#domain-code", CodeArea)
        assert code.text.startswith(";; Ferry") and "(:action sail" in code.text
        assert code.read_only
        names = {name for spans in code._highlights.values() for _a, _b, name in spans}
        assert {"comment", "keyword", "function", "variable"} <= names  # highlighted with the PDDL lexer
        description = app.query_one("#domain-description")
        await wait_for(pilot, lambda: "ferry carries cars" in description.rendered_text(), what="the description")
        assert description.text.startswith("# ferry")

        await pilot.press("2")
        tasks = app.query_one(TasksPanel)
        labels = [t.label for t in tasks.tasks]
        assert labels[:6] == [f"debug/task-0{i}" for i in range(6)] and any(label.startswith("eval/") for label in labels)
        await pilot.press("down")  # debug/task-01
        await wait_for(pilot, lambda: "task-01" in app.query_one("#task-pddl", CodeArea).text
                       or "s2" in app.query_one("#task-pddl", CodeArea).text, what="task-01's PDDL")
        pddl = app.query_one("#task-pddl", CodeArea).text
        assert pddl == (domain / "debug" / "task-01.pddl").read_text()
        python = app.query_one("#task-python", CodeArea).text
        assert python.startswith("objects = {") and "init = {" in python and "('at-ferry'," in python
        # the run described the task in natural language: the NL tab shows the run's file
        assert app.query_one("#task-nl", CodeArea).text == (run / "nl" / "task-01.md").read_text()

        await pilot.press("3")
        table = app.query_one(RunsTable)
        assert table.row_count == 1
        assert table.get_row(run.name)[1].plain == "finished"


async def test_nl_tab_says_when_no_run_described_the_task(isolated: Path) -> None:  # noqa: F811
    domain = ferry_copy(isolated)
    app = make_app(domain, config_for(isolated, None))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot, app)
        await pilot.press("2")
        await wait_for(pilot, lambda: app.query_one("#task-python", CodeArea).text, what="the first task")
        assert "No run has described this task" in app.query_one("#task-nl", CodeArea).text
        assert app.query_one(RunsTable).row_count == 0
