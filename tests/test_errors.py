"""One root for the errors a user can act on, and what the command line makes of it."""

from __future__ import annotations

import argparse

import pytest

from genplan.cli import cmd_report
from genplan.cli.common import BadInput
from genplan.cli.main import main
from genplan.engine.autotos.domains import DataError
from genplan.engine.autotos.logfile import LogFormatError
from genplan.engine.batch.executors import BatchError
from genplan.engine.batch.experiment import ExperimentError
from genplan.engine.domainlib import DomainDirError
from genplan.engine.errors import GenplanError
from genplan.engine.generalize import GeneralizeError
from genplan.engine.llm.settings import SettingsError
from genplan.engine.llm.types import ModelAccessError
from genplan.engine.pddl import PddlError
from genplan.engine.pddlego.trial_log import TrialLogError
from genplan.engine.pipeline.config import ConfigError
from genplan.engine.prompts import PromptError
from genplan.engine.report.data import ReportError
from genplan.engine.sandbox.program import ProgramError
from genplan.engine.variants.renaming import VariantError

USER_ERRORS = [
    BadInput, DataError, LogFormatError, BatchError, ExperimentError, DomainDirError, GeneralizeError, SettingsError,
    ModelAccessError, PddlError, TrialLogError, ConfigError, PromptError, ReportError, ProgramError, VariantError,
]


@pytest.mark.parametrize("error", USER_ERRORS, ids=lambda e: e.__name__)
def test_every_user_error_has_the_one_root(error: type[Exception]) -> None:
    assert issubclass(error, GenplanError)


def test_settings_and_trial_log_errors_stay_value_errors() -> None:
    # callers that catch ValueError (argument parsing of settings, log readers) keep working
    assert issubclass(SettingsError, ValueError) and issubclass(TrialLogError, ValueError)


def test_a_user_error_escaping_a_command_is_one_line_and_exit_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def failing(args: argparse.Namespace) -> int:
        raise ReportError("/data/batch: not a batch directory (no readable batch.json)")

    monkeypatch.setattr(cmd_report, "run", failing)
    assert main(["report", "/data/batch"]) == 2
    err = capsys.readouterr().err
    assert err == "genplan: /data/batch: not a batch directory (no readable batch.json)\n"


def test_an_internal_error_is_not_swallowed(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(args: argparse.Namespace) -> int:
        raise RuntimeError("a bug")

    monkeypatch.setattr(cmd_report, "run", broken)
    with pytest.raises(RuntimeError, match="a bug"):
        main(["report", "/data/batch"])
