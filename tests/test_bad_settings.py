"""Bad settings anywhere (flags, TOML files, environment variables) get one line and exit 2, and nothing is
created on disk before they are found."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.ferry_model import FERRY

from genplan.cli.main import main

PROGRAM = "def generate_solution(objects, init, goal):\n    return []\n"


def files(tmp: Path) -> dict[str, Path]:
    made = {
        "binary": tmp / "binary.toml",
        "nan": tmp / "nan.toml",
        "inf": tmp / "inf.toml",
        "wrong-type": tmp / "wrong-type.toml",
        "a-file": tmp / "a-file",
        "program": tmp / "program.py",
    }
    made["binary"].write_bytes(b"\x00\x01\xff\xfe")
    made["nan"].write_text("[pipeline]\nprogram_timeout_s = nan\n")
    made["inf"].write_text("[pipeline]\nprogram_timeout_s = inf\n")
    made["wrong-type"].write_text("[pipeline]\ncode_rounds = \"three\"\n")
    made["a-file"].write_text("not a directory\n")
    made["program"].write_text(PROGRAM)
    return made


CASES = {
    "config file is binary": (["run", "{ferry}", "--config-file", "{binary}"], "not a text file"),
    "pipeline timeout nan": (["run", "{ferry}", "--pipeline-config", "{nan}", "--out", "{out}"], "program_timeout_s"),
    "pipeline timeout inf": (["run", "{ferry}", "--pipeline-config", "{inf}", "--out", "{out}"], "program_timeout_s"),
    "pipeline wrong type": (["run", "{ferry}", "--pipeline-config", "{wrong-type}", "--out", "{out}"],
                            "code_rounds must be a whole number, not 'three'"),
    "run prompts missing": (["run", "{ferry}", "--prompts", "{tmp}/missing", "--out", "{out}"], "no such directory"),
    "run out is a file": (["run", "{ferry}", "--out", "{a-file}"], "exists and is not a directory"),
    "eval timeout inf": (["eval", "{program}", "{ferry}", "--timeout", "inf"], "--timeout must be"),
    "eval orderings huge": (["eval", "{program}", "{ferry}", "--orderings", "1000000000"], "--orderings must be"),
    "generate size huge": (["generate", "{ferry}", "--size", "cars=100000000"], "--size cars must be"),
    "plan timeout negative": (["plan", "{ferry}", "debug/task-00", "--timeout", "-3"], "--timeout must be"),
    "generalize timeout nan": (["generalize", "{program}", "{ferry}", "--timeout", "nan"], "--timeout must be"),
}


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_bad_setting_is_one_line_and_exit_2(case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("GENPLAN_MODEL", "some-model")  # so that no check stops at a missing model first
    monkeypatch.setenv("GENPLAN_BASE_URL", "http://127.0.0.1:9/v1")
    places = {k: str(v) for k, v in files(tmp_path).items()}
    places.update(ferry=str(FERRY), tmp=str(tmp_path), out=str(tmp_path / "runs"))
    argv, phrase = CASES[case]
    assert main([arg.format(**places) for arg in argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("genplan: ") and phrase in err[0], err
    assert not (tmp_path / "runs").exists()  # nothing created


def test_bogus_sandbox_isolation_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("GENPLAN_SANDBOX_ISOLATION", "bogus")
    program = files(tmp_path)["program"]
    assert main(["eval", str(program), str(FERRY), "--tasks", "debug"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["genplan: GENPLAN_SANDBOX_ISOLATION must be one of auto, namespaces, plain, got 'bogus'"]


def test_batch_out_must_be_a_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    experiment = tmp_path / "experiment.toml"
    experiment.write_text(f'[experiment]\nname = "x"\ndomains = ["{FERRY}"]\npresets = ["F5-3"]\nseeds = [1]\n'
                          '[[models]]\nname = "m"\nmodel = "m"\n')
    target = files(tmp_path)["a-file"]
    assert main(["batch", str(experiment), "--out", str(target)]) == 2
    assert capsys.readouterr().err.strip() == f"genplan: --out {target}: exists and is not a directory"
