"""Model settings: config file < environment < command line, errors, saving without the key."""

from __future__ import annotations

import stat
import tomllib

import pytest

from genplan.engine.llm import (
    ModelSettings,
    Price,
    SettingsError,
    default_config_path,
    load_settings,
    save_settings,
)

CONFIG = """
[llm]
model = "deepseek-chat"
base_url = "https://api.deepseek.com"
api_key_env = "DEEPSEEK_API_KEY"
temperature = 0.1
seed = 1
max_tokens = 16384
reasoning = false

[llm.extra_body]
top_k = 20

[prices."deepseek-chat"]
input = 0.3
output = 0.5

[tui]
theme = "dark"
"""


def write(tmp_path, text: str, name: str = "config.toml"):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_defaults_without_any_source(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "nothing-here"))
    settings = load_settings(environ={})
    assert settings == ModelSettings()
    assert not settings.is_configured
    assert settings.api_key_env == "OPENAI_API_KEY" and settings.temperature == 0.0


def test_the_default_file_lives_in_the_user_config_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert default_config_path() == tmp_path / "genplan" / "config.toml"
    (tmp_path / "genplan").mkdir()
    write(tmp_path / "genplan", '[llm]\nmodel = "from-default-file"\n')
    assert load_settings(environ={}).model == "from-default-file"


def test_config_file_values(tmp_path):
    settings = load_settings(write(tmp_path, CONFIG), environ={})
    assert settings.is_configured
    assert (settings.model, settings.base_url, settings.api_key_env) == (
        "deepseek-chat", "https://api.deepseek.com", "DEEPSEEK_API_KEY")
    assert (settings.temperature, settings.seed, settings.max_tokens) == (0.1, 1, 16384)
    assert settings.extra_body == {"top_k": 20}
    assert settings.prices == {"deepseek-chat": Price(0.3, 0.5)}


def test_precedence_file_then_environment_then_command_line(tmp_path):
    path = write(tmp_path, CONFIG)
    environ = {"GENPLAN_MODEL": "env-model", "GENPLAN_TEMPERATURE": "0.2", "GENPLAN_REASONING": "yes",
               "GENPLAN_EXTRA_BODY": '{"top_k": 5}'}
    cli = {"model": "cli-model", "seed": None, "max_tokens": "99"}  # None: flag not given
    settings = load_settings(path, environ=environ, cli=cli)
    assert settings.model == "cli-model"  # cli beats env beats file
    assert settings.temperature == 0.2  # env beats file
    assert settings.reasoning is True and settings.extra_body == {"top_k": 5}
    assert settings.seed == 1  # only in the file
    assert settings.max_tokens == 99
    assert settings.base_url == "https://api.deepseek.com"


def test_none_word_unsets_optional_values(tmp_path):
    path = write(tmp_path, '[llm]\nmodel = "o3-mini"\ntemperature = "none"\nseed = 3\n')
    settings = load_settings(path, environ={"GENPLAN_SEED": "none"})
    assert settings.temperature is None and settings.seed is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('[llm]\nmodle = "x"\n', "unknown setting 'modle'"),
        ('[llm]\ntemperature = "hot"\n', "[llm] temperature must be a number"),
        ('[llm]\nmax_tokens = 1.5\n', "[llm] max_tokens must be an integer"),
        ('[llm]\nstream = "maybe"\n', "[llm] stream must be true or false"),
        ('[llm]\ntemperature = 5\n', "temperature must be between 0 and 2"),
        ('[llm]\nbase_url = "localhost:8000"\n', "base_url must start with http"),
        ('model = "gpt-4o"\n', "setting 'model' must be inside the [llm] table"),
        ('[llm\nmodel = 1\n', "not valid TOML"),
        ('[prices."m"]\ninput = "cheap"\noutput = 1\n', "'input' must be a non-negative number"),
        ('[prices."m"]\ninput = 1\noutput = 1\ncached = 0.1\n', "unknown key(s) cached"),
        ('[secrets]\ntoken = "x"\n', "unknown key 'token' in [secrets]"),
    ],
)
def test_bad_files_give_one_line_naming_the_file(tmp_path, text, expected):
    path = write(tmp_path, text)
    with pytest.raises(SettingsError) as caught:
        load_settings(path, environ={})
    message = str(caught.value)
    assert message.startswith(str(path)) and expected in message
    assert "\n" not in message


def test_bad_environment_and_command_line_values_name_their_source(tmp_path):
    with pytest.raises(SettingsError, match=r"^environment variable GENPLAN_SEED: must be an integer"):
        load_settings(write(tmp_path, ""), environ={"GENPLAN_SEED": "one"})
    with pytest.raises(SettingsError, match=r"^command line option --top-p: must be in \(0, 1\]"):
        load_settings(write(tmp_path, ""), environ={}, cli={"top_p": "1.5"})
    with pytest.raises(SettingsError, match=r"GENPLAN_EXTRA_BODY: must be a table \(a JSON object\)"):
        load_settings(write(tmp_path, ""), environ={"GENPLAN_EXTRA_BODY": "[1, 2]"})
    with pytest.raises(SettingsError, match="unknown setting"):
        load_settings(write(tmp_path, ""), environ={}, cli={"colour": "red"})


def test_an_explicit_config_file_must_exist(tmp_path):
    with pytest.raises(SettingsError, match="config file does not exist"):
        load_settings(tmp_path / "missing.toml", environ={})


def test_saved_file_has_mode_600_no_key_and_loads_back(tmp_path, monkeypatch):
    monkeypatch.setenv("DEEPSEEK_API_KEY", "sk-saved-never")
    original = load_settings(write(tmp_path, CONFIG), environ={}).with_overrides(
        temperature=None, api_key="sk-stored-before")
    target = tmp_path / "out" / "config.toml"
    save_settings(target, original)
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    text = target.read_text()
    assert "sk-saved-never" not in text and "sk-stored-before" not in text and "secrets" not in text
    loaded = load_settings(target, environ={})
    assert loaded == original  # the key is not part of equality; everything else round-trips
    assert loaded.api_key is None and loaded.temperature is None


def test_saving_keeps_other_tables_and_tightens_an_existing_file(tmp_path):
    path = write(tmp_path, CONFIG)
    path.chmod(0o644)
    save_settings(path, ModelSettings(model="gpt-4o"))
    data = tomllib.loads(path.read_text())
    assert data["tui"] == {"theme": "dark"}
    assert data["llm"]["model"] == "gpt-4o" and "prices" not in data
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_the_key_is_stored_only_when_asked(tmp_path):
    settings = ModelSettings(model="gpt-4o", api_key_env="MY_KEY")
    path = tmp_path / "config.toml"
    with pytest.raises(SettingsError, match="MY_KEY is not set"):
        save_settings(path, settings, store_key=True)
    environ = {"MY_KEY": "sk-explicitly-stored"}
    with_key = settings.with_overrides(api_key=settings.resolve_api_key(environ))
    save_settings(path, with_key, store_key=True)
    assert tomllib.loads(path.read_text())["secrets"] == {"api_key": "sk-explicitly-stored"}
    assert "sk-explicitly-stored" not in tomllib.loads(path.read_text())["llm"].values()
    loaded = load_settings(path, environ={})
    assert loaded.resolve_api_key({}) == "sk-explicitly-stored"
    assert loaded.resolve_api_key({"MY_KEY": "sk-env"}) == "sk-env"  # the environment wins
    assert "sk-explicitly-stored" not in repr(loaded) and "api_key" not in loaded.to_dict()
    save_settings(path, loaded)  # saving without store_key drops the stored key
    assert "sk-explicitly-stored" not in path.read_text()
