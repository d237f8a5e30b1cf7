"""The reference code's small rules: which failed task is reported, which example each candidate sees,
and how action hints name parameter types."""

from __future__ import annotations

from dataclasses import dataclass, field

from support.ferry_model import FERRY

from genplan.engine.pddl import load_domain
from genplan.engine.pddl.encoding import PythonTask
from genplan.engine.pipeline.failures import (
    PLAN_GROUP,
    PYTHON_GROUP,
    FailureSelector,
    error_group,
)
from genplan.engine.pipeline.hints import action_hint
from genplan.engine.pipeline.orderings import candidate_examples

DOMAINS = FERRY.parent


@dataclass
class Check:
    task: str
    solved: bool
    kind: str | None
    details: dict[str, object] = field(default_factory=dict)


def checks(**kinds: str | None) -> list[Check]:
    return [Check(name, kind is None, kind) for name, kind in kinds.items()]


def test_error_groups() -> None:
    assert error_group(Check("t", False, "timeout")) == PYTHON_GROUP
    assert error_group(Check("t", False, "exception")) == PYTHON_GROUP
    assert error_group(Check("t", False, "wrong-type")) == PYTHON_GROUP  # not a list
    assert error_group(Check("t", False, "unknown-action", {"syntax": True})) == PYTHON_GROUP  # badly formed
    assert error_group(Check("t", False, "precondition")) == PLAN_GROUP


def test_python_errors_come_first_then_seeded_random() -> None:
    state = checks(a="precondition", b="goal", c="exception", d=None, e="timeout")
    picks = {FailureSelector(seed=s).choose(state).task for s in range(20)}  # type: ignore[union-attr]
    assert picks == {"c", "e"}  # only Python-level errors, and both get picked for some seed
    only_plans = checks(a="precondition", b="goal", c="goal")
    picks = {FailureSelector(seed=s).choose(only_plans).task for s in range(30)}  # type: ignore[union-attr]
    assert picks == {"a", "b", "c"}
    # the same seed gives the same choice
    assert [FailureSelector(seed=7).choose(only_plans).task for _ in range(3)] == [  # type: ignore[union-attr]
        FailureSelector(seed=7).choose(only_plans).task  # type: ignore[union-attr]
    ] * 3


def test_sticky_only_within_the_same_error_group() -> None:
    selector = FailureSelector(seed=1)
    first = selector.choose(checks(a="precondition"))
    assert first is not None and first.task == "a"
    # a still fails with a plan error, and others fail too: a is kept
    assert selector.choose(checks(a="goal", b="precondition", c="precondition")).task == "a"  # type: ignore[union-attr]
    # a now fails with an exception: the group changed, so a Python error is chosen afresh (a or c)
    chosen = selector.choose(checks(a="exception", b="precondition", c="timeout"))
    assert chosen is not None and chosen.task in {"a", "c"}
    assert selector.previous_group == PYTHON_GROUP
    assert selector.choose(checks(a=None, b=None)) is None


def test_file_order_rule_is_sticky_whatever_the_error() -> None:
    selector = FailureSelector("file-order")
    assert selector.choose(checks(a="goal", b="precondition")).task == "a"  # type: ignore[union-attr]
    assert selector.choose(checks(a="exception", b="timeout")).task == "a"  # type: ignore[union-attr]
    assert FailureSelector("file-order").choose(checks(a="goal", b="timeout")).task == "b"  # type: ignore[union-attr]


TASK = PythonTask(
    ["c0", "c1", "c2", "l0", "l1"],
    [("at", "c2", "l1"), ("at-ferry", "l0"), ("at", "c0", "l0"), ("at", "c1", "l1")],
    [("at", "c0", "l1"), ("at", "c1", "l0"), ("at", "c2", "l0")],
)


def test_every_candidate_gets_a_distinct_shuffled_example_with_sorted_init() -> None:
    examples = candidate_examples(TASK, 5, seed=1)
    assert len(examples) == 5
    assert len({(tuple(e.objects), tuple(e.goal)) for e in examples}) == 5  # no duplicate orderings
    assert all(e.init == sorted(TASK.init) for e in examples)
    assert all(sorted(e.objects) == sorted(TASK.objects) and sorted(e.goal) == sorted(TASK.goal) for e in examples)
    # the first candidate is shuffled too (for some seed its example differs from the file order)
    assert any(candidate_examples(TASK, 1, seed=s)[0].objects != TASK.objects for s in range(5))
    assert candidate_examples(TASK, 5, seed=1) == examples  # seeded
    older = candidate_examples(TASK, 3, seed=1, shuffle_all=False)
    assert older[0] == TASK  # the older rule: candidate 1 sees the file order


def test_tiny_task_with_few_orderings_still_gives_every_candidate_an_example() -> None:
    tiny = PythonTask(["a"], [("p", "a")], [("q", "a")])
    assert len(candidate_examples(tiny, 3, seed=2)) == 3


def test_action_hints_name_parameter_types() -> None:
    domain = load_domain(DOMAINS / "blocksworld" / "domain.pddl")
    typed = [action_hint(a) for a in domain.actions.values()]
    assert any(" is of type " in hint for hint in typed), typed
    assert all(hint.startswith("(") for hint in typed)
    plain = [action_hint(a, typed=False) for a in domain.actions.values()]
    assert plain == [a.lifted() for a in domain.actions.values()]
    ferry = load_domain(FERRY / "domain.pddl")  # untyped: nothing to add
    assert [action_hint(a) for a in ferry.actions.values()] == [a.lifted() for a in ferry.actions.values()]
