"""`genplan --help` and every command's `--help`: the parser is assembled from one module per command, and
two modules claiming the same verb only show up when all of them are loaded at once."""

from __future__ import annotations

import pytest

from genplan.cli.main import _COMMAND_MODULES, main


def test_top_level_help_lists_every_command_once(capsys: pytest.CaptureFixture[str]) -> None:
    assert len(_COMMAND_MODULES) == len(set(_COMMAND_MODULES)), "a command module is listed twice"
    with pytest.raises(SystemExit) as exited:
        main(["--help"])
    assert exited.value.code == 0
    listing = capsys.readouterr().out
    for command in _COMMAND_MODULES:
        assert f"\n    {command} " in listing or f"\n    {command}\n" in listing, command


def test_no_command_prints_help_and_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "COMMAND" in capsys.readouterr().out


@pytest.mark.parametrize("command", _COMMAND_MODULES)
def test_each_command_has_help(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main([command, "--help"])
    assert exited.value.code == 0
    assert f"genplan {command}" in capsys.readouterr().out
