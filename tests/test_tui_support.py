"""Shared helpers for the TUI tests (no tests here): a copy of domains/ferry, recorded runs made by the
real pipeline against the scripted server, and waiting for the app to reach a state."""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from support.ferry_model import BUGGY_PROGRAM, CORRECT_PROGRAM, FERRY, FerryModel
from support.scripted_server import ScriptedServer

from genplan.tui.app import GenplanApp, LaunchOptions


@pytest.fixture
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No test touches the user's config or cache directories, or reads their environment settings."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg-config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-cache"))
    for name in ("GENPLAN_MODEL", "GENPLAN_BASE_URL", "GENPLAN_API_KEY_ENV", "EDITOR", "VISUAL"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


def ferry_copy(root: Path) -> Path:
    """``root/ferry``: all of domains/ferry but its runs. A test that runs AutoToS on it takes
    ``support.small_ferry.small_ferry_copy`` instead: the same domain with its small debug tasks only."""
    target = root / "ferry"
    shutil.copytree(FERRY, target, ignore=shutil.ignore_patterns(".genplan"))
    return target


def config_for(root: Path, server: ScriptedServer | None) -> Path:
    path = root / "config.toml"
    if server is None:
        path.write_text("[llm]\n")
    else:
        path.write_text(f'[llm]\nmodel = "{server.model}"\nbase_url = "{server.base_url}"\nretry_base_delay_s = 0.01\n')
    return path


def record_run(domain: Path, server: ScriptedServer, model: FerryModel, preset: str = "F5-3", **changes) -> Path:
    """A finished run made by the engine's pipeline (not by the TUI), as a user's earlier run would be."""
    from genplan.engine.api import pipeline as pipeline_on
    from genplan.engine.approaches.presets import load_preset
    from genplan.engine.domainlib import DomainDir
    from genplan.engine.llm import ModelSettings, make_provider
    from genplan.engine.runs.store import RunStore

    server.respond_with(model)
    config = load_preset(preset).with_changes(**changes)
    settings = ModelSettings(model=server.model, base_url=server.base_url, retry_base_delay_s=0.01)
    store = RunStore.create(RunStore.runs_dir(domain), {"config": config.to_dict(), "model": settings.to_dict()})
    pipeline_on(DomainDir.open(domain), config, make_provider(settings, no_cache=True), store).run()
    return store.path


def buggy_then_fixed() -> FerryModel:
    return FerryModel(strategy_plan_mistakes=1, programs=[BUGGY_PROGRAM, CORRECT_PROGRAM])


def recorded_ferry(recording: Path, root: Path) -> tuple[Path, Path]:
    """(domain, run): a copy under ``root`` of the session's recorded ferry domain (the ``buggy_then_fixed_ferry``
    fixture of conftest.py) and its one run, for a module to change as it likes."""
    from genplan.engine.runs.store import RunStore

    domain = root / "ferry"
    shutil.copytree(recording, domain)
    (run,) = (path for path in RunStore.runs_dir(domain).iterdir() if path.is_dir())
    return domain, run


def make_app(domain: Path, config: Path, **options) -> GenplanApp:
    return GenplanApp(LaunchOptions(domain, config_file=config, watch_files=options.pop("watch_files", False),
                                    **options))


async def wait_for(pilot, condition: Callable[[], object], timeout: float = 20.0, what: str = "condition") -> None:
    """Let the app run until ``condition()`` is true (fails the test after ``timeout`` seconds)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await pilot.pause(0.05)


async def ready(pilot, app: GenplanApp) -> None:
    await wait_for(pilot, lambda: app.ctx.domain_info is not None and app.ctx.settings is not None
                   and app.query_one("#runs-panel") is not None, what="the app to load")
    await pilot.pause()
