"""One stop exception (engine.errors.RunStopped) for every way a run ends early on purpose, and a run refused
for going on by its approach's registry record, not by its name."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from genplan.engine import api
from genplan.engine.approaches import get_approach, register, unregister
from genplan.engine.autotos.loop import EvaluationStopped
from genplan.engine.errors import GenplanError, RunStopped
from genplan.engine.llm import AnswerCancelled, ModelAccessError
from genplan.engine.runs import create

FERRY = Path(__file__).resolve().parents[1] / "domains" / "ferry"


def test_every_stop_is_one_exception_type_with_its_reason() -> None:
    for stop in (RunStopped(), AnswerCancelled(), EvaluationStopped(3, 10)):
        assert isinstance(stop, RunStopped) and not isinstance(stop, (ModelAccessError, GenplanError))
        assert stop.reason == "stopped"
    assert RunStopped("no recorded answer left", reason="out-of-answers").reason == "out-of-answers"
    assert str(EvaluationStopped(3, 10)) == "stopped during the evaluation, 3 of 10 instances searched"


def test_an_approach_refuses_to_resume_an_old_run_through_its_registry_record(tmp_path: Path) -> None:
    def refuse(meta: Any) -> str | None:
        return "made by an older toy" if meta.get("config", {}).get("old") else None

    toy = register(replace(get_approach("stein"), name="toy-refusing", refuse_resume=refuse))
    try:
        old = create(tmp_path, {"domain_dir": str(FERRY), "config": {"approach": toy.name, "old": True}})
        new = create(tmp_path, {"domain_dir": str(FERRY), "config": {"approach": toy.name}})
        with pytest.raises(api.NotResumable, match="made by an older toy"):
            api.resumable(old.path)
        assert api.resumable(new.path)[0] is toy
    finally:
        unregister(toy.name)
