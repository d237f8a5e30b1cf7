"""docs/make_screenshots.py: the screenshots of docs/tui.md come from the app itself (save_screenshot)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def load_script():  # noqa: ANN201
    spec = importlib.util.spec_from_file_location("make_screenshots", ROOT / "docs" / "make_screenshots.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_screenshot_docs_link_is_made_by_the_script() -> None:
    script = load_script()
    linked = set(re.findall(r"screenshots/([a-z]+)\.svg", (ROOT / "docs" / "tui.md").read_text()))
    assert linked == {name for name, _ in script.VIEWS}
    assert all((ROOT / "docs" / "screenshots" / f"{name}.svg").is_file() for name in linked)


def test_the_script_saves_svg_screens_of_the_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    saved = load_script().make_screenshots(tmp_path / "out", (80, 24), only={"classroom", "editor"})
    assert sorted(p.name for p in saved) == ["classroom.svg", "editor.svg"]
    classroom = (tmp_path / "out" / "classroom.svg").read_text().replace("&#160;", " ")
    assert classroom.startswith("<svg") and "Strategy" in classroom and "debugging" in classroom
    assert "generate_solution" in (tmp_path / "out" / "editor.svg").read_text()
