"""Probe sets: hand-written tasks beyond each domain's generator (domains/<name>/probes/).

Every probe must parse cleanly, be solvable (a plan found by a satisficing search and accepted by our
validator), and be described in the probe set's README. Probes of costumed variants are the originals
renamed: the original's plan, renamed, must solve them.
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path

import pytest

from genplan.engine.domainlib import DomainDir
from genplan.engine.pddl import Domain, load_domain, load_problem
from genplan.engine.pddl.validate import validate_plan
from genplan.engine.planner import solve
from genplan.engine.variants.mapping import load_mapping
from genplan.engine.variants.renaming import rename_plan

DOMAINS_ROOT = Path(__file__).resolve().parents[1] / "domains"
# The domains whose probe sets follow the paper's "generalization beyond generator" notes.
PROBED = (
    "ferry", "gripper", "delivery", "miconic", "spanner", "hiking", "heavy",
    "logistics", "grippers", "visitall", "satellite", "transport",
    "beluga", "goldminer", "minigrid", "rovers",
    "briefcase", "recycling",  # the ADL domains
)
PRESENT = [name for name in PROBED if (DOMAINS_ROOT / name / "domain.toml").is_file()]
PROBES = [(name, path.name) for name in PRESENT for path in sorted((DOMAINS_ROOT / name / "probes").glob("*.pddl"))]


def _meta(path: Path) -> dict:
    return tomllib.loads((path / "domain.toml").read_text(encoding="utf-8"))


COSTUMED = [p for p in sorted(DOMAINS_ROOT.iterdir()) if (p / "domain.toml").is_file() and _meta(p).get("variant") == "costume"]


@cache
def domain(name: str) -> Domain:
    return load_domain(DOMAINS_ROOT / name / "domain.pddl")


@cache
def probe_plan(name: str, probe: str) -> tuple[str, ...]:
    problem = load_problem(DOMAINS_ROOT / name / "probes" / probe, domain(name))
    result = solve(domain(name), problem, optimal=False, planner="builtin", timeout=20)
    if not result.solved:  # a harder probe: let Fast Downward try, if it is installed
        result = solve(domain(name), problem, optimal=False, timeout=60)
    assert result.solved and result.plan is not None, f"{name}/probes/{probe}: {result.summary()}"
    return tuple(result.plan)


def test_the_core_domains_have_probes() -> None:
    assert {"ferry", "gripper", "delivery"} <= set(PRESENT)


@pytest.mark.parametrize("name", PRESENT)
def test_probe_set_is_small_and_documented(name: str) -> None:
    probes = DomainDir.open(DOMAINS_ROOT / name).probe_tasks()
    assert 3 <= len(probes) <= 6, f"{name}: {len(probes)} probes"
    readme = (DOMAINS_ROOT / name / "probes" / "README.md").read_text(encoding="utf-8")
    for probe in probes:
        assert f"`{probe.name}`" in readme, f"{name}/probes/README.md does not describe {probe.name}"
        first_line = probe.read_text(encoding="utf-8").splitlines()[0]
        assert first_line.startswith(";; probe: "), f"{probe}: the first line should say what the probe tests"


@pytest.mark.parametrize(("name", "probe"), PROBES, ids=[f"{n}-{p}" for n, p in PROBES])
def test_probe_parses_and_is_solvable(name: str, probe: str) -> None:
    problem = load_problem(DOMAINS_ROOT / name / "probes" / probe, domain(name))
    assert not problem.warnings, problem.warnings
    assert problem.goal_text(), "the probe has no goal"
    plan = list(probe_plan(name, probe))
    assert validate_plan(domain(name), problem, plan).valid
    assert not validate_plan(domain(name), problem, []).valid, "the goal must not hold at the start"


@pytest.mark.parametrize("variant", COSTUMED, ids=[p.name for p in COSTUMED])
def test_costumed_probes_are_solved_by_the_renamed_plans(variant: Path) -> None:
    base = _meta(variant)["costume_of"]
    costume = load_mapping(variant / "costume.toml")
    costumed_domain = load_domain(variant / "domain.pddl")
    base_probes = sorted((DOMAINS_ROOT / base / "probes").glob("*.pddl"))
    assert [p.name for p in DomainDir.open(variant).probe_tasks()] == [p.name for p in base_probes]
    for path in base_probes:
        original = load_problem(path, domain(base))
        renaming = costume.renaming_for(domain(base), original, variant.name)
        costumed = load_problem(variant / "probes" / path.name, costumed_domain)
        plan = rename_plan(probe_plan(base, path.name), renaming)
        assert validate_plan(costumed_domain, costumed, plan).valid, f"{variant.name}/probes/{path.name}"
