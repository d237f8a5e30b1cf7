"""The closed sets that were strings compared in several places are enums now, spelled in files as before:
feedback styles, a batch job's kind and status."""

from __future__ import annotations

import json

from genplan.engine.approaches import APPROACHES
from genplan.engine.batch import JobKind, JobStatus
from genplan.engine.feedback import FeedbackStyle
from genplan.engine.feedback.programs import timeout_message, wrong_type_message
from genplan.engine.runs.status import RunStatus


def test_feedback_styles_keep_their_spelling_and_every_approach_names_one() -> None:
    assert [style.value for style in FeedbackStyle] == ["stein", "silver", "autotos", "pddlego"]
    assert json.dumps({"style": FeedbackStyle.SILVER}) == '{"style": "silver"}'
    styles = {name: approach.feedback_style for name, approach in APPROACHES.items()}
    assert all(isinstance(style, FeedbackStyle) for style in styles.values())
    assert (styles["stein"], styles["bas"], styles["sil"], styles["autotos"]) == (
        FeedbackStyle.STEIN, FeedbackStyle.SILVER, FeedbackStyle.SILVER, FeedbackStyle.AUTOTOS)
    # a program check speaks Silver's words for Silver's style, Table 13's for every other
    assert [style.of_programs for style in FeedbackStyle] == [FeedbackStyle.STEIN, FeedbackStyle.SILVER,
                                                             FeedbackStyle.STEIN, FeedbackStyle.STEIN]


def test_the_silver_style_picks_silvers_words_and_a_plain_string_still_does() -> None:
    silver = timeout_message(30.0, None, FeedbackStyle.SILVER)
    assert "timed out" in silver and silver != timeout_message(30.0, None, FeedbackStyle.STEIN)
    assert wrong_type_message("None", "get_plan", FeedbackStyle.SILVER) == wrong_type_message("None", "get_plan", "silver")  # type: ignore[arg-type]


def test_a_batch_jobs_status_comes_from_its_runs_and_is_spelled_as_before() -> None:
    assert [JobKind.RUN, JobKind.EVALUATION] == ["run", "evaluation"]
    assert JobStatus.of_run(RunStatus.FINISHED) is JobStatus.FINISHED
    assert JobStatus.of_run(RunStatus.STOPPED) is JobStatus.STOPPED
    assert JobStatus.of_run(RunStatus.UNKNOWN) is JobStatus.FAILED  # a run cannot end without a status
    assert [s for s in JobStatus if s.run_done] == [JobStatus.FINISHED, JobStatus.SKIPPED]
    assert json.dumps([JobStatus.NO_PROGRAM, JobStatus.EVALUATED]) == '["no-program", "evaluated"]'


def test_an_approach_named_with_a_styles_word_gets_the_member_and_an_unknown_word_is_refused() -> None:
    from dataclasses import replace

    import pytest

    stein = APPROACHES["stein"]
    assert replace(stein, feedback_style="silver").feedback_style is FeedbackStyle.SILVER  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="shakespeare"):
        replace(stein, feedback_style="shakespeare")  # type: ignore[arg-type]


def test_a_step_mode_decision_is_one_of_four_actions() -> None:
    from genplan.engine.runs.gateway import Decision, DecisionAction

    assert [Decision.send().action, Decision.stop().action] == [DecisionAction.SEND, DecisionAction.STOP]
    assert Decision("answer", answer="x").action is DecisionAction.ANSWER  # type: ignore[arg-type]
    import pytest

    with pytest.raises(ValueError, match="postpone"):
        Decision("postpone")  # type: ignore[arg-type]
