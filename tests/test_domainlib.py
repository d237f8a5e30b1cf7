"""DomainDir: opening and checking domain directories, task listing, the generator contract."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from genplan.engine.domainlib import DomainDir, DomainDirError, list_domains, natural_key

DOMAIN_TOML = 'name = "toy"\ntyped_objects = true\ndescription = "A toy domain."\nnotes = "only for tests"\n'

GENERATOR = '''
import random
PARAMETERS = {"items": (2, "number of items"), "rooms": (1, "number of rooms")}
DEBUG_SPECS = [(1, {"items": 1}), (2, {"items": 2, "rooms": 2})]
EVAL_SPECS = [(100, {"items": 5})]

def generate(seed, items=2, rooms=1):
    if items < 1:
        raise ValueError("need at least one item")
    rng = random.Random(seed)
    order = list(range(items))
    rng.shuffle(order)
    return f"(define (problem toy-{seed}) ; items={items} rooms={rooms} order={order}\\n)"
'''


def make_domain_dir(root: Path, *, generator: str = GENERATOR, toml: str = DOMAIN_TOML) -> Path:
    path = root / "toy"
    (path / "debug").mkdir(parents=True)
    (path / "eval").mkdir()
    (path / "domain.pddl").write_text("(define (domain toy))\n")
    (path / "domain.toml").write_text(toml)
    (path / "generator.py").write_text(generator)
    for name in ("task-10.pddl", "task-2.pddl", "task-1.pddl", "notes.txt"):
        (path / "debug" / name).write_text("(define (problem p))\n")
    for name in ("task-000.pddl", "task-001.pddl"):
        (path / "eval" / name).write_text("(define (problem p))\n")
    return path


@pytest.fixture
def toy(tmp_path: Path) -> Path:
    return make_domain_dir(tmp_path)


def test_open_reads_metadata_and_files(toy: Path) -> None:
    domain = DomainDir.open(toy)
    assert domain.name == "toy"
    assert domain.typed_objects is True
    assert domain.description == "A toy domain."
    assert domain.notes == "only for tests"
    assert domain.path == toy
    assert domain.domain_file == toy / "domain.pddl"


def test_task_lists_are_naturally_sorted_pddl_files(toy: Path) -> None:
    domain = DomainDir.open(toy)
    assert [p.name for p in domain.debug_tasks()] == ["task-1.pddl", "task-2.pddl", "task-10.pddl"]
    assert [p.name for p in domain.eval_tasks()] == ["task-000.pddl", "task-001.pddl"]
    assert domain.probe_tasks() == []
    (toy / "probes").mkdir()
    (toy / "probes" / "corner-case.pddl").write_text("(define (problem p))\n")
    assert [p.name for p in domain.probe_tasks()] == ["corner-case.pddl"]


def test_natural_key_orders_numbers_by_value() -> None:
    names = ["task-10.pddl", "task-9.pddl", "task-100.pddl", "task-1.pddl"]
    ordered = sorted((Path(n) for n in names), key=natural_key)
    assert [p.name for p in ordered] == ["task-1.pddl", "task-9.pddl", "task-10.pddl", "task-100.pddl"]


@pytest.mark.parametrize(
    ("breakage", "expected"),
    [
        (lambda p: (p / "domain.pddl").unlink(), "missing domain.pddl"),
        (lambda p: (p / "debug").rename(p / "debugging"), "missing debug/"),
        (lambda p: (p / "eval").rename(p / "evaluation"), "missing eval/"),
        (lambda p: (p / "domain.toml").write_text("name = \n"), "not valid TOML"),
        (
            lambda p: (p / "domain.toml").write_text('name = "x"\ntyped_objects = "no"\ndescription = "d"\n'),
            "key 'typed_objects' must be a bool",
        ),
        (lambda p: (p / "domain.toml").write_text('name = 3\n'), "key 'name' must be a str"),
    ],
)
def test_broken_directory_gives_one_line_naming_path(toy: Path, breakage, expected: str) -> None:
    breakage(toy)
    with pytest.raises(DomainDirError) as info:
        DomainDir.open(toy)
    message = str(info.value)
    assert expected in message
    assert str(toy) in message
    assert "\n" not in message


def test_open_rejects_missing_directory(tmp_path: Path) -> None:
    with pytest.raises(DomainDirError, match="not a directory"):
        DomainDir.open(tmp_path / "nowhere")


def test_generate_fills_defaults_and_is_deterministic(toy: Path) -> None:
    domain = DomainDir.open(toy)
    assert domain.parameters() == {"items": (2, "number of items"), "rooms": (1, "number of rooms")}
    text = domain.generate(7, items=4)
    assert "items=4 rooms=1" in text
    assert text == domain.generate(7, items=4)
    assert text != domain.generate(8, items=4)


def test_generate_rejects_unknown_size_names(toy: Path) -> None:
    domain = DomainDir.open(toy)
    with pytest.raises(DomainDirError) as info:
        domain.generate(1, items=2, colours=3)
    message = str(info.value)
    assert "colours" in message and "known: items, rooms" in message
    assert str(toy / "generator.py") in message


def test_generate_rejects_non_integer_sizes(toy: Path) -> None:
    domain = DomainDir.open(toy)
    with pytest.raises(DomainDirError, match="items must be an integer"):
        domain.generate(1, items="3")
    with pytest.raises(DomainDirError, match="items must be an integer"):
        domain.generate(1, items=True)


def test_generator_failure_becomes_one_line_error(toy: Path) -> None:
    domain = DomainDir.open(toy)
    with pytest.raises(DomainDirError, match="generate failed: ValueError: need at least one item"):
        domain.generate(1, items=0)


def test_load_generator_returns_module_once(toy: Path) -> None:
    domain = DomainDir.open(toy)
    module = domain.load_generator()
    assert module.PARAMETERS["items"][0] == 2
    assert domain.load_generator() is module


def test_loading_a_generator_leaves_no_bytecode_in_the_domain_directory(toy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", False)  # as Python's default is
    assert DomainDir.open(toy).load_generator().generate
    assert not (toy / "__pycache__").exists()


def test_two_domains_with_same_name_get_separate_generator_modules(tmp_path: Path) -> None:
    first = DomainDir.open(make_domain_dir(tmp_path / "a"))
    second = DomainDir.open(make_domain_dir(tmp_path / "b", generator=GENERATOR.replace('"items": (2', '"items": (9')))
    assert first.parameters()["items"][0] == 2
    assert second.parameters()["items"][0] == 9


@pytest.mark.parametrize(
    ("generator", "expected"),
    [
        ("raise RuntimeError('boom')\n", "import failed: RuntimeError: boom"),
        ("def generate(seed):\n    return ''\n", "PARAMETERS must be a dict"),
        ("PARAMETERS = {'n': ('two', 'help')}\ndef generate(seed, n=2):\n    return ''\n", "PARAMETERS must be a dict"),
        ("PARAMETERS = {'n': (2, 'help')}\n", "defines no generate"),
    ],
)
def test_broken_generator_is_reported(tmp_path: Path, generator: str, expected: str) -> None:
    domain = DomainDir.open(make_domain_dir(tmp_path, generator=generator))
    with pytest.raises(DomainDirError) as info:
        domain.load_generator()
    assert expected in str(info.value)
    assert "generator.py" in str(info.value)


def test_missing_generator_is_reported(toy: Path) -> None:
    (toy / "generator.py").unlink()
    domain = DomainDir.open(toy)
    with pytest.raises(DomainDirError, match="missing generator.py"):
        domain.generate(1)


def test_generate_must_return_text(tmp_path: Path) -> None:
    generator = "PARAMETERS = {}\ndef generate(seed):\n    return 42\n"
    domain = DomainDir.open(make_domain_dir(tmp_path, generator=generator))
    with pytest.raises(DomainDirError, match="did not return a string"):
        domain.generate(1)


def test_task_specs_and_task_files(toy: Path) -> None:
    domain = DomainDir.open(toy)
    assert domain.task_specs("debug") == [(1, {"items": 1}), (2, {"items": 2, "rooms": 2})]
    assert domain.task_specs("eval") == [(100, {"items": 5})]
    assert domain.task_file("debug", 3) == toy / "debug" / "task-03.pddl"
    assert domain.task_file("eval", 12) == toy / "eval" / "task-012.pddl"
    with pytest.raises(ValueError):
        domain.task_specs("probes")


def test_task_specs_must_be_seed_size_pairs(tmp_path: Path) -> None:
    generator = GENERATOR.replace("EVAL_SPECS = [(100, {\"items\": 5})]", "EVAL_SPECS = [{\"items\": 5}]")
    domain = DomainDir.open(make_domain_dir(tmp_path, generator=generator))
    with pytest.raises(DomainDirError, match="EVAL_SPECS must be a list of"):
        domain.task_specs("eval")


def test_list_domains_finds_directories_with_domain_toml(tmp_path: Path) -> None:
    make_domain_dir(tmp_path)
    (tmp_path / "not-a-domain").mkdir()
    (tmp_path / "README.md").write_text("library\n")
    assert [d.name for d in list_domains(tmp_path)] == ["toy"]
