"""AutoToS on genplan's own PDDL domains: scripted correct succ/goal pairs solve every debug task optimally
by BFS; buggy variants get the feedback of their category. Real openai client, scripted server, sandbox."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.small_ferry import small_ferry

from genplan.engine.autotos.executor import SandboxExecutor
from genplan.engine.autotos.loop import Settings
from genplan.engine.autotos.pddl_family import PddlTasks, build_pddl_domain
from genplan.engine.autotos.session import preset_of, run_loop, run_meta
from genplan.engine.domainlib import DomainDir
from genplan.engine.llm import ModelSettings, OpenAIProvider

ROOT = Path(__file__).resolve().parents[1]

GOAL = "```python\ndef is_goal(state, goal):\n    return all(fact in state for fact in goal)\n```"
GOAL_ANY = "```python\ndef is_goal(state, goal):\n    return any(fact in state for fact in goal)\n```"

FERRY = '''```python
def succ(state, objects):
    locations = [f[1] for f in state if f[0] == "location"]
    cars = [f[1] for f in state if f[0] == "car"]
    here = next(f[1] for f in state if f[0] == "at-ferry")
    out = []
    for to in locations:
        if ("not-eq", here, to) in state:
            out.append((f"(sail {here} {to})", frozenset(state - {("at-ferry", here)} | {("at-ferry", to)})))
    for car in cars:
        if ("at", car, here) in state and ("empty-ferry",) in state:
            out.append((f"(board {car} {here})",
                        frozenset(state - {("at", car, here), ("empty-ferry",)} | {("on", car)})))
        if ("on", car) in state:
            out.append((f"(debark {car} {here})",
                        frozenset(state - {("on", car)} | {("at", car, here), ("empty-ferry",)})))
    return out
```'''
FERRY_BOARD_KEEPS_EMPTY = FERRY.replace('{("at", car, here), ("empty-ferry",)} | {("on", car)}',
                                        '{("at", car, here)} | {("on", car)}')
FERRY_NO_SAIL = FERRY.replace('out.append((f"(sail', 'pass  # out.append((f"(sail')
FERRY_MUTATES = FERRY.replace("    out = []\n", "    out = []\n    if isinstance(state, set):\n        state.add(('seen',))\n", 1)
FERRY_SLOW = "```python\ndef succ(state, objects):\n    while True:\n        pass\n```"

GRIPPER = '''```python
def succ(state, objects):
    rooms = [f[1] for f in state if f[0] == "room"]
    balls = [f[1] for f in state if f[0] == "ball"]
    grippers = [f[1] for f in state if f[0] == "gripper"]
    here = next(f[1] for f in state if f[0] == "at-robby")
    out = []
    for room in rooms:
        out.append((f"(move {here} {room})", frozenset(state - {("at-robby", here)} | {("at-robby", room)})))
    for ball in balls:
        for g in grippers:
            if ("at", ball, here) in state and ("free", g) in state:
                out.append((f"(pick {ball} {here} {g})",
                            frozenset(state - {("at", ball, here), ("free", g)} | {("carry", ball, g)})))
            if ("carry", ball, g) in state:
                out.append((f"(drop {ball} {here} {g})",
                            frozenset(state - {("carry", ball, g)} | {("at", ball, here), ("free", g)})))
    return out
```'''

BLOCKS = '''```python
def succ(state, objects):
    blocks = [o[0] if isinstance(o, tuple) else o for o in objects]
    out = []
    for x in blocks:
        if ("clear", x) in state and ("ontable", x) in state and ("handempty",) in state:
            out.append((f"(pick-up {x})", frozenset(state - {("clear", x), ("ontable", x), ("handempty",)} | {("holding", x)})))
        if ("holding", x) in state:
            out.append((f"(put-down {x})", frozenset(state - {("holding", x)} | {("clear", x), ("handempty",), ("ontable", x)})))
        for y in blocks:
            if ("holding", x) in state and ("clear", y) in state:
                out.append((f"(stack {x} {y})", frozenset(state - {("holding", x), ("clear", y)}
                                                          | {("clear", x), ("handempty",), ("on", x, y)})))
            if ("on", x, y) in state and ("clear", x) in state and ("handempty",) in state:
                out.append((f"(unstack {x} {y})", frozenset(state - {("clear", x), ("handempty",), ("on", x, y)}
                                                            | {("holding", x), ("clear", y)})))
    return out
```'''


@pytest.fixture(scope="module")
def executor():
    ex = SandboxExecutor(hash_seed=0)
    yield ex
    ex.close()


def _domain(name: str, domains: Path = ROOT / "domains"):
    directory = DomainDir.open(domains / name)
    debug = directory.debug_tasks()
    # The debug tasks serve as unit tests and as the evaluation set: every one must be solved optimally.
    tasks = PddlTasks(directory.domain_file, debug, debug, directory.typed_objects, planner="builtin")
    return build_pddl_domain(tasks, seed=1)


@pytest.fixture(scope="module")
def ferry():
    """Ferry with its small debug tasks (tests/support/small_ferry.py): the feedback of each category, in seconds."""
    return _domain("ferry", small_ferry().parent)


def run_autotos(domain, provider, executor, settings, run_dir: Path):
    """The AutoToS loop on ``domain`` as a run in ``run_dir`` (an empty directory), made and carried out as every
    run is (engine.runs: create, Run, execute); the loop's outcome."""
    from genplan.engine.runs import create
    from genplan.engine.runs.run import Run, RunSetup, execute

    store = create(run_dir.parent, run_meta(domain.name, settings), run_id=run_dir.name, existing_dir_ok=True)
    run = Run(store, RunSetup(provider), target=domain.name)
    return execute(run, lambda run: run_loop(run, domain, executor, settings, preset_of(settings))).value


def _run(server, domain, executor, tmp_path, succ, goal, **settings):
    server.on_step("autotos.succ", succ)
    server.on_step("autotos.goal", goal)
    provider = OpenAIProvider(ModelSettings(model=server.model, base_url=server.base_url, timeout_s=10.0))
    return run_autotos(domain, provider, executor, Settings(**settings), tmp_path)


@pytest.mark.parametrize("name,succ", [("ferry", FERRY), ("gripper", GRIPPER), ("blocksworld", BLOCKS)])
def test_a_correct_pair_solves_every_debug_task_optimally_by_bfs(scripted_server, executor, tmp_path, name, succ):
    domain = _domain(name)
    outcome = _run(scripted_server, domain, executor, tmp_path, [succ], [GOAL])
    assert outcome.rounds == [], [r.feedback for r in outcome.rounds]
    evaluation = outcome.evaluation
    assert evaluation is not None
    assert (evaluation.solved, evaluation.failed) == (len(domain.eval_instances), 0), evaluation.reasons
    assert "succ(state, objects)" in scripted_server.requests[0].body["messages"][-1]["content"]


def test_a_transition_with_a_wrong_next_state_is_unsound(scripted_server, ferry, executor, tmp_path):
    outcome = _run(scripted_server, ferry, executor, tmp_path, [FERRY_BOARD_KEEPS_EMPTY, FERRY], [GOAL])
    first = outcome.rounds[0]
    assert first.category == "succ soundness" and first.check == "unsound"
    assert first.failure["action"].startswith("(board")
    assert ["empty-ferry"] in first.failure["extra"]
    assert outcome.evaluation is not None and outcome.evaluation.failed == 0


def test_missing_actions_fail_the_completeness_test(scripted_server, ferry, executor, tmp_path):
    outcome = _run(scripted_server, ferry, executor, tmp_path, [FERRY_NO_SAIL, FERRY], [GOAL])
    assert [r.category for r in outcome.rounds] == ["succ completeness"]
    assert any(m[0].startswith("(sail") for m in outcome.rounds[0].failure["missing"])


def test_a_goal_test_that_accepts_partial_goals_is_unsound(scripted_server, ferry, executor, tmp_path):
    outcome = _run(scripted_server, ferry, executor, tmp_path, [FERRY], [GOAL_ANY, GOAL])
    assert outcome.rounds[0].category == "goal soundness"
    assert outcome.rounds[0].failure["expected"] is False


def test_a_successor_that_times_out(scripted_server, ferry, executor, tmp_path):
    outcome = _run(scripted_server, ferry, executor, tmp_path, [FERRY_SLOW, FERRY], [GOAL], call_timeout=0.2)
    assert outcome.rounds[0].category == "succ timeout"


def test_greedy_best_first_search_finds_valid_plans(scripted_server, ferry, executor, tmp_path):
    outcome = _run(scripted_server, ferry, executor, tmp_path, [FERRY], [GOAL], search="gbfs")
    evaluation = outcome.evaluation
    assert evaluation is not None
    # Greedy plans are valid but need not be optimal: every failure must be a length difference.
    assert evaluation.invalid == sum(1 for r in evaluation.reasons.values() if r.startswith("plan of length"))
    assert evaluation.solved >= 1
