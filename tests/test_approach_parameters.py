"""Typed parameters per approach, from the registry to the Run: every preset's parameters are the approach's own
dataclass, survive run.json unchanged, reopen from a run.json written by the code before them (dc2002f), and an
unknown or ill-typed parameter is refused at the edge with one line (exit 2 in the CLI)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from genplan.cli.main import main
from genplan.engine import api
from genplan.engine.approaches import APPROACHES, Approach, Capability, register, unregister
from genplan.engine.approaches.pddlego import TrialParameters
from genplan.engine.autotos.parameters import AutoToSParameters
from genplan.engine.errors import GenplanError
from genplan.engine.events import RunFinished
from genplan.engine.feedback import FeedbackStyle
from genplan.engine.llm import ModelSettings
from genplan.engine.pipeline.config import PipelineConfig
from genplan.engine.runs import create
from genplan.engine.runs.run import NewRun, Run, RunOutcome, stopped_outcome
from genplan.engine.runs.status import RunStatus

ROOT = Path(__file__).resolve().parents[1]
FERRY = ROOT / "domains" / "ferry"
WRITTEN_BEFORE = ROOT / "tests" / "data" / "run-json-dc2002f"  # run.json of each preset, by genplan at dc2002f
MADE_IN = "/tmp/types-main"  # the checkout that wrote them
PARAMETER_CLASS = {"stein": PipelineConfig, "bas": PipelineConfig, "sil": PipelineConfig,
                   "autotos": AutoToSParameters, "pddlego": TrialParameters, "plangen": TrialParameters}
# a value of the wrong type for one parameter of each kind of approach
ILL_TYPED = {PipelineConfig: ("code_rounds", "three"), AutoToSParameters: ("max_goal_feedback", "nine"),
             TrialParameters: ("seed", "one")}


def builtin() -> list[tuple[Approach[Any], str]]:
    return [(approach, preset) for approach in APPROACHES.values() if approach.name in PARAMETER_CLASS
            for preset in approach.presets]


def target_of(approach: Approach[Any]) -> str:
    return str(approach.default_target) if approach.can(Capability.GAME) else str(FERRY)


@pytest.mark.parametrize(("approach", "preset"), builtin(), ids=lambda x: getattr(x, "name", x))
def test_every_presets_parameters_are_typed_and_round_trip_through_run_json(approach: Approach[Any], preset: str,
                                                                           tmp_path: Path) -> None:
    request = api.StartRequest(preset, target_of(approach), tmp_path)
    store, made_by, parameters = api.new_run(request, ModelSettings(model="m"))
    assert made_by is approach and type(parameters) is PARAMETER_CLASS[approach.name]
    assert json.loads(json.dumps(parameters.to_dict())) == parameters.to_dict()  # plain JSON, nothing lost
    meta = json.loads((store.path / "run.json").read_text(encoding="utf-8"))  # as a later process reads it
    target, reopened = approach.reopen(meta)
    assert reopened == parameters
    assert target == (target_of(approach) if approach.can(Capability.GAME) else str(FERRY.resolve()))


@pytest.mark.parametrize(("approach", "preset"), builtin(), ids=lambda x: getattr(x, "name", x))
def test_a_run_json_written_before_typed_parameters_reopens_to_the_same_parameters(approach: Approach[Any], preset: str,
                                                                                   tmp_path: Path) -> None:
    written = (WRITTEN_BEFORE / f"{preset}.json").read_text(encoding="utf-8").replace(MADE_IN, str(ROOT))
    store = create(tmp_path, {k: v for k, v in json.loads(written).items() if k not in ("run_id", "status", "created")})
    target, reopened = approach.reopen(store.meta())
    _, today, _ = api.prepare(api.StartRequest(preset, target_of(approach), tmp_path))
    if getattr(today, "max_steps", 0) is None:  # a trial today takes its game's step limit, which the run of
        from dataclasses import replace  # before recorded by number (CoinCollector's 20, as the release set it)

        from genplan.engine.pddlego.release import step_limit

        today = replace(today, max_steps=step_limit(target, today.approach))
    assert type(reopened) is PARAMETER_CLASS[approach.name] and reopened == today
    assert target == (target_of(approach) if approach.can(Capability.GAME) else str(FERRY.resolve()))


@pytest.mark.parametrize("approach", sorted(PARAMETER_CLASS))
def test_an_unknown_or_ill_typed_parameter_is_refused_in_one_line_before_anything_is_made(approach: str,
                                                                                         tmp_path: Path) -> None:
    record = APPROACHES[approach]
    preset = next(iter(record.presets))
    name, value = ILL_TYPED[PARAMETER_CLASS[approach]]
    for given, named in (({"no_such_setting": 1}, "no_such_setting"), ({name: value}, name)):
        with pytest.raises(GenplanError) as refused:
            api.prepare(api.StartRequest(preset, target_of(record), tmp_path / "runs", parameters=given))
        assert named in str(refused.value) and "\n" not in str(refused.value)
    assert not (tmp_path / "runs").exists()


def test_the_cli_refuses_an_ill_typed_setting_with_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    config = tmp_path / "bad.toml"
    config.write_text('preset = "F5-3"\ncode_rounds = "three"\n', encoding="utf-8")
    code = main(["run", str(FERRY), "--pipeline-config", str(config), "--model", "m", "--out", str(tmp_path / "runs")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "code_rounds" in err[0]
    assert not (tmp_path / "runs").exists()


@dataclass(frozen=True)
class CountParameters:
    """A toy approach's own parameters: how far it counts."""

    upto: int = 3
    preset: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"upto": self.upto, "preset": self.preset}


def count_parameters(values: Mapping[str, Any]) -> CountParameters:
    unknown = sorted(set(values) - {"upto", "preset"})
    if unknown:
        raise GenplanError(f"count: unknown parameter {', '.join(unknown)}")
    if not isinstance(values.get("upto", 3), int):
        raise GenplanError(f"count parameter upto: expected an integer, not {values['upto']!r}")
    return CountParameters(**values)


def test_a_new_approachs_own_parameter_class_reaches_its_run_and_comes_back_from_run_json(tmp_path: Path) -> None:
    seen: list[object] = []

    def run(the_run: Run) -> RunOutcome:
        seen.append(the_run.parameters)  # what the approach's loop is given: its own class, not a dict
        params = the_run.parameters
        assert isinstance(params, CountParameters)
        if len(seen) == 1:  # the first session stops half-way; the resume counts on
            return stopped_outcome("stopped half-way")
        summary = {"counted": list(range(params.upto))}
        return RunOutcome(RunStatus.FINISHED, RunFinished(status=RunStatus.FINISHED), summary=summary)

    def new_run(target: str, params: CountParameters) -> NewRun:
        return NewRun({"target": target, "parameters": params.to_dict(), "approach": "count"})

    def reopen(meta: Mapping[str, Any]) -> tuple[str, CountParameters]:
        return str(meta["target"]), count_parameters(meta["parameters"])

    register(Approach(name="count", title="counts", prompt_variant="stein", feedback_style=FeedbackStyle.STEIN,
                      function_name="", run=run, parameters=count_parameters, new_run=new_run, reopen=reopen,
                      capabilities=frozenset({Capability.RESUME, Capability.GAME}), default_target="numbers",
                      presets={"Count-5": {"upto": 5}}))
    try:
        settings = ModelSettings(model="m", base_url="http://127.0.0.1:9/v1")  # never asked: the toy asks no model
        with pytest.raises(GenplanError, match="upto: expected an integer"):
            api.prepare(api.StartRequest("Count-5", "numbers", tmp_path, parameters={"upto": "five"}))
        first = api.start(api.StartRequest("Count-5", "numbers", tmp_path, parameters={"upto": 4}), settings)
        assert first.status == RunStatus.STOPPED and first.run_dir is not None
        recorded = json.loads((first.run_dir / "run.json").read_text(encoding="utf-8"))["parameters"]
        assert recorded == {"upto": 4, "preset": "Count-5"}
        resumed = api.resume(first.run_dir, settings)
        assert seen == [CountParameters(4, "Count-5"), CountParameters(4, "Count-5")]
        assert api.report(resumed).to_json()["counted"] == [0, 1, 2, 3]
    finally:
        unregister("count")
