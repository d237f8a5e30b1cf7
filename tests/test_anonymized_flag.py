"""The NL prompts know when a domain is an anonymized variant (names carry no meaning)."""

from __future__ import annotations

from pathlib import Path

from support.scripted_server import RecordedRequest, Reply, ScriptedServer

from genplan.engine.api import pipeline as pipeline_on
from genplan.engine.approaches.presets import load_preset
from genplan.engine.domainlib import DomainDir
from genplan.engine.llm import ModelSettings, make_provider
from genplan.engine.runs.store import RunStore
from genplan.engine.variants.build import build_anonymized_dir

DOMAINS = Path(__file__).resolve().parents[1] / "domains"
MEANINGLESS = "deliberately meaningless"


def first_prompt(server: ScriptedServer, domain: Path, root: Path) -> str:
    def answer(request: RecordedRequest) -> Reply:
        return Reply.answer("A description of the domain.")

    server.respond_with(answer)
    settings = ModelSettings(model=server.model, base_url=server.base_url, retry_base_delay_s=0.01)
    config = load_preset("F5-3").with_changes(strategy_rounds=0, code_rounds=0, initial_programs=1)
    store = RunStore.create(root, {"config": config.to_dict()})
    pipeline_on(DomainDir.open(domain), config, make_provider(settings, no_cache=True), store).run()
    first = server.requests_for("nl.domain")[0]
    return str(first.messages[-1]["content"])


def test_anonymized_variant_sets_the_flag(scripted_server: ScriptedServer, tmp_path: Path) -> None:
    build_anonymized_dir(DOMAINS / "ferry", tmp_path / "anon")
    assert DomainDir.open(tmp_path / "anon").anonymized
    assert MEANINGLESS in first_prompt(scripted_server, tmp_path / "anon", tmp_path / "runs")


def test_original_and_costumed_domains_do_not(scripted_server: ScriptedServer, tmp_path: Path) -> None:
    assert not DomainDir.open(DOMAINS / "ferry-costumed").anonymized
    assert MEANINGLESS not in first_prompt(scripted_server, DOMAINS / "ferry", tmp_path / "a")
    scripted_server.clear()
    assert MEANINGLESS not in first_prompt(scripted_server, DOMAINS / "ferry-costumed", tmp_path / "b")


SILVER_DOMAINS = ("delivery", "hiking", "gripper", "miconic", "ferry", "spanner", "heavy")


def test_all_of_silvers_domains_ship_costumed_and_anonymized() -> None:
    import tomllib

    anonymized = {}
    for folder in DOMAINS.glob("anonymized*"):
        domain = DomainDir.open(folder)
        assert domain.anonymized and domain.name == folder.name
        meta = tomllib.loads((folder / "domain.toml").read_text())
        anonymized[meta["costume_of"]] = folder
        # no trace of the original story in what the model is shown
        text = (folder / "domain.pddl").read_text().lower() + (folder / "debug" / "task-00.pddl").read_text().lower()
        assert meta["costume_of"] not in text
    assert set(anonymized) == set(SILVER_DOMAINS)
    for name in SILVER_DOMAINS:
        costumed = DomainDir.open(DOMAINS / f"{name}-costumed")
        assert costumed.variant == "costume" and not costumed.anonymized
