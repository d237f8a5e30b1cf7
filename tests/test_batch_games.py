"""The [games] grid of an experiment: PDDLego+ and PlanGen trials in CoinCollector games run by `genplan batch`
beside (or instead of) the domain grid, found again on a rerun, and tabulated by `genplan report` with the
paper's metrics. Real CoinCollector (the game of test_pddlego_loop.py: 5 rooms, seed 1), the real openai client
against the scripted server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.cli_process import genplan
from support.scripted_server import ScriptedServer
from test_batch import write_experiment
from test_pddlego_loop import TO_BACKYARD, TO_PANTRY

from genplan.engine.batch import ExperimentError, GameTarget, grid, load_experiment
from genplan.engine.pddlego.environment import java_available

GAMES = '[games]\npresets = ["pddlego-detailed", "plangen"]\nrooms = [5]\nseeds = [1]\n'


def games_only(folder: Path, server: ScriptedServer, games: str = GAMES) -> Path:
    """An experiment with no domain grid: only [games] (and the model)."""
    path = write_experiment(folder, server)
    text = path.read_text(encoding="utf-8")
    head, models = text.split("[[models]]", 1)
    path.write_text('[experiment]\nname = "games"\n\n' + games + "\n[[models]]" + models, encoding="utf-8")
    return path


def test_the_games_grid_is_checked_and_laid_out(tmp_path: Path) -> None:
    with ScriptedServer() as server:
        folder = tmp_path
        experiment = load_experiment(games_only(folder, server))
        assert experiment.domains == [] and experiment.presets == [] and experiment.games is not None
        entries = grid(experiment)
        assert [(e.domain.name, e.preset, e.seed) for e in entries] == [
            ("coincollector-5", "pddlego-detailed", 1), ("coincollector-5", "plangen", 1)]
        first = entries[0]
        assert isinstance(first.domain, GameTarget) and first.target == "coincollector" and first.config is None
        assert first.approach == "pddlego"
        assert first.parameters == {"style": "detailed", "preset": "pddlego-detailed", "seed": 1, "locations": 5}
        assert str(first.parent) == "runs/coincollector-5/pddlego-detailed/synthetic/seed-1"
        assert experiment.describe()["games"]["rooms"] == [5]
        # beside a domain grid too
        both = write_experiment(folder, server, domains=("ferry",), presets=("Sil",), extra="")
        both.write_text(both.read_text().replace("[[models]]", GAMES + "\n[[models]]"))
        assert [e.domain.name for e in grid(load_experiment(both))] == ["ferry", "coincollector-5", "coincollector-5"]

        bad = games_only(folder, server, '[games]\npresets = ["F5-3", "AutoToS", "plangen", "plangen"]\n'
                                         'rooms = [0, 5]\nseeds = [-1]\nlevel = 3\n')
        with pytest.raises(ExperimentError) as caught:
            load_experiment(bad)
        assert caught.value.problems == [
            "[games] unknown key 'level' (known: environment, presets, rooms, seeds)",
            "[games] presets: 'F5-3' is not the preset of an approach that plays a game",
            "[games] presets: 'AutoToS' is not the preset of an approach that plays a game",
            "[games] presets: 'plangen' is listed twice",
            "[games] rooms: 0 is not an integer from 1 to 11",
            "[games] seeds: -1 is not an integer from 0 up",
        ]


@pytest.mark.skipif(not java_available(), reason="CoinCollector needs a Java runtime (java not on PATH)")
def test_batch_plays_the_games_and_report_tabulates_the_trials(tmp_path: Path) -> None:
    with ScriptedServer() as server:
        path = games_only(tmp_path, server, GAMES.replace('"pddlego-detailed", "plangen"', '"pddlego-detailed"'))
        server.enqueue(TO_PANTRY, TO_BACKYARD)
        batch_dir = tmp_path / "batch"
        done = genplan("batch", str(path), "--out", str(batch_dir), "--no-cache", "--json", home=tmp_path)
        assert done.returncode == 0, done.stderr[-3000:]
        summary = json.loads(done.stdout)
        assert (summary["ran"], summary["complete"]) == (1, True)
        (run_dir,) = batch_dir.glob("runs/coincollector-5/pddlego-detailed/synthetic/seed-1/run-*")
        info = json.loads((run_dir / "run.json").read_text())
        assert (info["status"], info["outcome"], info["environment"]["seed"]) == ("finished", "success", 1)
        (entry,) = json.loads((batch_dir / "batch.json").read_text())["entries"]
        assert (entry["domain"], entry["coverage"], entry["run_status"]) == ("coincollector-5", 1.0, "finished")
        # a rerun finds the trial and asks nothing
        again = genplan("batch", str(path), "--out", str(batch_dir), "--no-cache", "--json", home=tmp_path)
        assert again.returncode == 0 and json.loads(again.stdout)["ran"] == 0 and len(server.requests) == 2
        report = genplan("report", str(batch_dir), "--print", "json", "--no-files", home=tmp_path)
        assert report.returncode == 0, report.stderr[-3000:]
        (row,) = json.loads(report.stdout)["tables"]["pddlego"]["rows"]
        assert row[:6] == ["coincollector-5", "synthetic", "pddlego-detailed", 1, 1, 100.0]
