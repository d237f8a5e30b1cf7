"""The release's BlocksWorld validation, which published imports use: the plan the states show, applied by
the domain's rules. genplan's own validation checks the states themselves."""

from __future__ import annotations

from genplan.engine.autotos.domains import Instance, _validate_blocks, blocks_action, validate_blocks_as_released

INIT = {"clear": ["a", "c"], "on-table": ["b", "c"], "arm-empty": True, "holding": None, "on": [["a", "b"]]}
GOAL = {"clear": [], "on-table": [], "on": [["b", "c"]]}  # b on c


def _state(clear: list[str], table: list[str], on: list[list[str]], holding: str | None = None) -> dict:
    return {"clear": clear, "on-table": table, "arm-empty": holding is None, "holding": holding, "on": on}


def _instance(optimal: int = 4) -> Instance:
    return Instance("x", INIT, goal_extra=[GOAL], info={"optimal": optimal})


# unstack a b, put-down a, pick-up b, stack b c
LEGAL = [INIT,
         _state(["b", "c"], ["b", "c"], [], "a"),
         _state(["a", "b", "c"], ["a", "b", "c"], []),
         _state(["a", "c"], ["a", "c"], [], "b"),
         _state(["a", "b"], ["a", "c"], [["b", "c"]])]


def test_the_actions_are_read_from_what_the_hand_takes_and_lets_go():
    assert [blocks_action(x, y) for x, y in zip(LEGAL, LEGAL[1:])] == [
        ("unstack", "a", "b"), ("put-down", "a"), ("pick-up", "b"), ("stack", "b", "c")]
    assert blocks_action(INIT, INIT) is None


def test_a_legal_plan_passes_both_validations():
    assert _validate_blocks(_instance(), LEGAL) is None
    assert validate_blocks_as_released(_instance(), LEGAL) is None


def test_a_wrongly_built_state_behind_a_legal_action_passes_only_the_releases_validation():
    wrong = [*LEGAL[:-1], _state(["a"], ["a", "c"], [["b", "c"]])]  # stack b c forgot that b is clear
    assert _validate_blocks(_instance(), wrong) == "step 4 is not a legal transition"
    assert validate_blocks_as_released(_instance(), wrong) is None


def test_an_action_taken_with_a_full_hand_fails_both():
    # unstack a b, then "pick-up c" while a is still held (a vanishes from the state)
    vanished = [INIT, LEGAL[1], _state(["b"], ["b"], [], "c")]
    assert validate_blocks_as_released(_instance(2), vanished) == "step 2 (pick-up c) is not applicable"
    assert _validate_blocks(_instance(2), vanished) is not None


def test_the_goal_and_the_optimal_length_are_required():
    assert validate_blocks_as_released(_instance(), LEGAL[:3]) == "the plan does not reach the goal"
    assert validate_blocks_as_released(_instance(6), LEGAL) == "solution of length 4, optimal 6"
    assert validate_blocks_as_released(_instance(), None) == "no solution found"
