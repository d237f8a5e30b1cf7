"""The paper's published numbers shipped with genplan (engine/report/stein2026.toml): complete for the 17
domains and internally consistent (best run >= average, the domain rows average to the paper's Avg rows,
Table 3's original column is Table 1's GPT-4o F5-3), so a transcription slip shows up here."""

from __future__ import annotations

from statistics import mean

import pytest

from genplan.engine.report.paper import PAPER_PLANNER_COLUMNS, load_paper_numbers

DOMAINS = {"delivery", "ferry", "gripper", "heavy", "hiking", "miconic", "spanner", "beluga", "blocksworld",
           "goldminer", "grippers", "logistics", "minigrid", "rovers", "satellite", "transport", "visitall"}
PAPER = load_paper_numbers()


def test_every_domain_model_and_preset_is_there() -> None:
    assert set(PAPER.domains) == DOMAINS and len(PAPER.domains) == 17
    assert PAPER.models == ["gpt-4o", "llama-3.3", "deepseek", "qwen3-thinking"]
    assert PAPER.presets == ["Sil", "Bas", "F5-3", "F3-6", "F3-6-MC", "F3-6-SD", "F3-6-CR"]
    assert PAPER.models_of("F3-6-MC") == ["gpt-4o", "llama-3.3", "qwen3-thinking"]  # DeepSeek ran no ablations
    for domain in DOMAINS | {"average"}:
        for model in PAPER.models:
            for preset in PAPER.presets:
                if model == "deepseek" and preset.startswith("F3-6-"):
                    assert PAPER.cell(domain, preset, model) is None
                else:
                    assert PAPER.cell(domain, preset, model) is not None, (domain, preset, model)
        for planner, seconds in PAPER_PLANNER_COLUMNS:
            assert (domain, planner, seconds) in PAPER.planners
    # spot checks against the paper's tables
    assert PAPER.cell("miconic", "F5-3", "gpt-4o") == (68.0, 100.0)
    assert PAPER.cell("minigrid", "F3-6", "qwen3-thinking") == (53.0, 65.0)
    assert PAPER.cell("average", "F3-6", "deepseek") == (82.0, 89.0)
    assert PAPER.planners[("spanner", "ff", 1800)] == 59.0 and PAPER.planners[("blocksworld", "lm", 45)] == 79.0
    assert PAPER.budget[("deepseek", "Sil")] == (9.0, None, 1283.0)
    assert PAPER.comparison[("lm", "gpt-4o")] == [536.0, 0.43, 97.0, 2.19, 28.0]


def test_best_run_is_never_below_the_average() -> None:
    for (domain, preset, model), (average, best) in PAPER.coverage.items():
        if average is not None and best is not None:
            assert best >= average, (domain, preset, model, average, best)
    for planner in ("lm", "ff"):
        for domain in DOMAINS:  # more time never solves fewer tasks
            assert PAPER.planners[(domain, planner, 45)] <= PAPER.planners[(domain, planner, 1800)]  # type: ignore[operator]


@pytest.mark.parametrize("key", sorted({(p, m) for _d, p, m in PAPER.coverage}))
def test_domain_rows_average_to_the_papers_avg_row(key: tuple[str, str]) -> None:
    preset, model = key
    for index in (0, 1):
        cells = [PAPER.cell(d, preset, model)[index] for d in DOMAINS]  # type: ignore[index]
        known = [c for c in cells if c is not None]
        printed = PAPER.cell("average", preset, model)[index]  # type: ignore[index]
        assert printed is not None
        if len(known) == len(cells):  # every cell rounded (+-0.5), the Avg row too
            assert abs(mean(known) - printed) <= 1.0, (preset, model, index, mean(known), printed)
        else:  # a cell the text lost: the others leave it a value from 0 to 100
            missing = 17 * printed - sum(known)
            assert -17 <= missing <= 100 + 17, (preset, model, index, missing)


def test_planner_columns_average_to_the_avg_row() -> None:
    for planner, seconds in PAPER_PLANNER_COLUMNS:
        cells = [PAPER.planners[(d, planner, seconds)] for d in DOMAINS]
        assert abs(mean(c for c in cells if c is not None) - PAPER.planners[("average", planner, seconds)]) <= 1.0  # type: ignore[operator]


def test_table3_original_is_table1_gpt4o_f53() -> None:
    assert PAPER.variants_model == "gpt-4o"
    for (domain, variant), cells in PAPER.variants.items():
        if variant == "original" and domain != "average":
            assert cells == PAPER.cell(domain, "F5-3", "gpt-4o"), domain
    for variant in ("original", "costume", "anonymized"):
        for index in (0, 1):
            cells = [v[index] for (d, name), v in PAPER.variants.items() if name == variant and d != "average"]
            assert len(cells) == 7
            assert abs(mean(cells) - PAPER.variants[("average", variant)][index]) <= 1.0  # type: ignore[arg-type,operator]
