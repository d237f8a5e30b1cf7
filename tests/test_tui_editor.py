"""The code editor: indentation on enter, block indent and dedent, home toggling, undo/redo, and the check an
edited program or PDDL file gets before a run continues from it (line and column shown, continue anyway)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_tui_support import wait_for
from textual.app import App

from genplan.cli.main import main
from genplan.tui.code_check import check_pddl, check_python, check_text
from genplan.tui.screens.editor import EditorScreen, EditResult
from genplan.tui.screens.pick import PickScreen

TRIAL = (Path(__file__).resolve().parents[1].parent / "shared" / "pddlego-plus" / "output" / "CoinCollector"
         / "CC_PDDLego+_4o" / "2025-04-30_gpt-4o-2024-05-13_PDDL_detailed_11_102.txt")

DOMAIN = """(define (domain lights)
  (:requirements :strips)
  (:predicates (on ?l) (off ?l))
  (:action switch
    :parameters (?l)
    :precondition (off ?l)
    :effect (and (on ?l) (not (off ?l)))))
"""


class Host(App[None]):
    """An app that shows one editor screen and keeps what it returned."""

    def __init__(self, screen: EditorScreen) -> None:
        super().__init__()
        self.editor_screen = screen
        self.results: list[EditResult | None] = []

    def on_mount(self) -> None:
        self.push_screen(self.editor_screen, self.results.append)


def editor_app(text: str, syntax: str, path: Path | None = None) -> Host:
    return Host(EditorScreen("Edit", text, syntax, can_continue=True, hint="", path=path))


# ------------------------------------------------------------------ the check
def test_python_problems_have_line_and_column() -> None:
    assert check_python("def f(x):\n    return x\n") == []
    [problem] = check_python("def f(x):\n    return (x\n")
    assert problem.line == 2 and problem.column == 12 and "never closed" in problem.message
    [problem] = check_python("x = 1\nreturn x\n")  # the compiler's check, beyond the grammar
    assert problem.line == 2 and "outside function" in problem.message
    assert problem.describe().startswith("line 2, column 1: ")


def test_pddl_problems_come_from_genplans_parser() -> None:
    assert check_pddl(DOMAIN) == []
    [problem] = check_pddl(DOMAIN.replace("(off ?l))\n  (:action", "(off ?l)\n  (:action"))
    assert problem.line == 1 and "never closed" in problem.message and problem.column == 1
    [problem] = check_pddl(DOMAIN.replace(":precondition (off ?l)", ":precondition (dim ?l)"))
    assert problem.line == 6 and "dim" in problem.message and problem.column == 20  # at the quoted name
    assert check_text("1. not code at all (", "markdown") == []  # prose is not checked


def test_a_trial_file_is_checked_with_its_calls_other_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if not TRIAL.is_file():
        pytest.skip(f"the PDDLego+ release is not beside the checkout ({TRIAL})")
    assert main(["import", "pddlego", str(TRIAL), "--env", "logged", "--out", str(tmp_path), "--json"]) == 0
    run = Path(json.loads(capsys.readouterr().out)["run_dir"])
    domain = sorted((run / "pddl").glob("*-domain.pddl"))[-1]
    problem = domain.with_name(domain.name.replace("-domain", "-problem"))
    assert check_text(domain.read_text(), "pddl", domain) == [] and check_text(problem.read_text(), "pddl", problem) == []
    # the model's problem file with its goal's closing parenthesis taken away
    broken = problem.read_text().rstrip()
    assert broken.endswith(")")
    [found] = check_text(broken[:-1], "pddl", problem)
    assert "never closed" in found.message and found.where == ""


# ------------------------------------------------------------------ the keys
async def test_enter_keeps_and_deepens_indentation_and_tab_indents_blocks() -> None:
    app = editor_app("", "python")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, EditorScreen), what="the editor")
        editor = app.screen.editor
        for key in [*"def f(x):", "enter", *"if x:", "enter", *"return", "space", "x", "enter", *"y"]:
            await pilot.press(key)
        assert editor.text == "def f(x):\n    if x:\n        return x\n        y"
        await pilot.press("shift+tab")  # the line back by one step, the cursor with it
        assert editor.text.splitlines()[-1] == "    y" and editor.cursor_location == (3, 5)
        await pilot.press("home")  # first non-blank, then column 0, then back
        assert editor.cursor_location == (3, 4)
        await pilot.press("home")
        assert editor.cursor_location == (3, 0)
        await pilot.press("home")
        assert editor.cursor_location == (3, 4)
        editor.select_all()
        await pilot.press("tab")  # every line one step in (one undo step)
        assert editor.text == "    def f(x):\n        if x:\n            return x\n        y"
        await pilot.press("shift+tab", "shift+tab")
        assert editor.text == "def f(x):\nif x:\n    return x\ny"
        await pilot.press("ctrl+z")
        assert editor.text == "def f(x):\n    if x:\n        return x\n    y"
        await pilot.press("ctrl+z")
        assert editor.text == "    def f(x):\n        if x:\n            return x\n        y"
        await pilot.press("ctrl+y")
        assert editor.text == "def f(x):\n    if x:\n        return x\n    y"
        assert isinstance(app.screen, EditorScreen)  # shift+tab never moved the focus away


async def test_continue_checks_first_and_offers_to_continue_anyway() -> None:
    app = editor_app("def f(x):\n    return x\n", "python")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, EditorScreen), what="the editor")
        screen = app.screen
        screen.editor.load_text("def f(x):\n    return (x\n")
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: isinstance(app.screen, PickScreen), what="the check's question")
        assert "line 2, column 12" in app.screen.title_text
        await pilot.press("enter")  # back to the editor: the problem listed under the text, the cursor on it
        await wait_for(pilot, lambda: app.screen is screen, what="the editor again")
        assert "✗ line 2, column 12: '(' was never closed" in str(screen.query_one("#editor-problems").render())
        assert screen.editor.cursor_location == (1, 11) and not app.results
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: isinstance(app.screen, PickScreen), what="the question again")
        await pilot.press("down", "enter")  # continue anyway
        await wait_for(pilot, lambda: app.results, what="the editor to close")
        assert app.results == [EditResult("def f(x):\n    return (x\n", "continue")]


async def test_a_program_that_parses_continues_at_once() -> None:
    app = editor_app("def f(x):\n    return x\n", "python")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, EditorScreen), what="the editor")
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: app.results, what="the editor to close")
        assert app.results[0] is not None and app.results[0].action == "continue"
