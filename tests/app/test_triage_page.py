"""The Triage page driven through its widgets (streamlit.testing.v1.AppTest).

A list is fitted on synthetic data with a numeric (heart rate), a binary (sex) and a
categorical (chest pain type) column and handed to the page as the list just trained. What
the page shows after each answer must equal psl_core.decision.triage_step for the same
answers.
"""

import re

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from psl_core import ProbabilisticScoringList
from psl_core.decision import END_OF_LIST, RULE_IN, RULE_OUT, RULED, StageBands, answer_for, triage_step
from psl_triage.model_file.metadata import ModelMetadata
from psl_triage.model_file.store import save_model
from psl_triage.training.fit import train_list
from psl_triage.training.options import DEFAULT_SETUP, SETUPS, TrainingOptions
from psl_triage.words import export as export_words
from psl_triage.words import shown
from psl_triage.words import triage as triage_words
from psl_triage.words.common import percent
from psl_triage.words.decision import headline, interval_sentence, interval_text, outcome_text, stop_sentence
from tests.apptest import put_list, training
from tests.paths import ROOT
from tests.tables import chest_pain_columns
from ui import current_list_key
from ui.state_keys import TRIAGE
from ui.triage import answer_key, extra_key

PAGE = str(ROOT / "pages" / "2_Triage.py")
UNKNOWN = "Unknown / not recorded"
MINUS = "\u2212"
COLUMNS = chest_pain_columns("hr")
METADATA = {
    "name": "Synthetic chest pain",
    "columns": COLUMNS,
    "dataset": {
        "outcome_label": "Heart disease", "positive_label": "heart disease", "negative_label": "no heart disease",
    },
}


@pytest.fixture(scope="module")
def model(chest_pain_data):
    X, y = chest_pain_data
    fitted = ProbabilisticScoringList(score_set=(-2, -1, 1, 2)).fit(X, y)
    columns = [literal.column for literal in fitted.literals_]
    # The tests below need every kind of question and a column that comes back.
    assert {"hr", "sex", "cp"} <= set(columns) and len(columns) > len(set(columns))
    return fitted


@pytest.fixture(autouse=True)
def empty_store(tmp_path, monkeypatch):
    store = tmp_path / "models"
    monkeypatch.setenv("PSL_MODEL_DIR", str(store))
    return store


def open_page(model=None, cost_ratio=None, metadata=METADATA):
    at = AppTest.from_file(PAGE, default_timeout=60)
    if model is not None:
        put_list(at, model, metadata)
    at.run()
    if cost_ratio is not None:
        cost_ratio_input(at).set_value(cost_ratio).run()
    assert not at.exception
    return at


def captions(at):
    return " ".join(shown(caption.value) for caption in at.caption)


def cost_ratio_input(at):
    """The number input of M: keyed by the count of lists the page has followed (ui.cost_ratio_input)."""
    return at.number_input(key=current_list_key("triage_cost_ratio", at.session_state))


def asked_column(at, model):
    """The column of the question on screen (None when no question is shown)."""
    if not at.get("form"):
        return None
    return model.literals_[TRIAGE.get(at.session_state).stage].column


def answer(at, value):
    """Answer the question on screen: an option's text, a number, or None for unknown; press Next."""
    key = answer_key(TRIAGE.get(at.session_state))
    if key in [widget.key for widget in at.number_input]:
        if value is None:
            at.checkbox(key=extra_key(key, None)).check()
        else:
            at.number_input(key=key).set_value(value)
    else:
        buttons = at.segmented_control(key=key)
        buttons.set_value(buttons.options.index(UNKNOWN if value is None else value))
    at.button(key="triage_next").click().run()
    assert not at.exception


def expected_step(model, raw_by_column, n_answered, cost_ratio=10.0, confidence=0.95, basis="upper"):
    holds = [answer_for(literal, raw_by_column[literal.column]) for literal in model.literals_[:n_answered]]
    return triage_step(StageBands(model, confidence), holds, cost_ratio, basis)


def without_statistics(model):
    """The list as a file saved before lists carried stop statistics loads."""
    old = ProbabilisticScoringList.from_json(model.to_json())
    old.stop_statistics_ = None
    return old


def assert_shows(at, step, basis="upper", confidence=0.95):
    metrics = {metric.label: metric.value for metric in at.metric}
    totals = [str(t).replace("-", MINUS) for t in step.totals]
    assert all(total in metrics["Total score"] for total in totals)
    probability = metrics["Probability of heart disease"]
    assert percent(step.probability_low) in probability and percent(step.probability_high) in probability
    assert metrics["95% interval"] == f"{percent(step.lower)} to {percent(step.upper)}"
    shown = next(md.value for md in at.markdown if md.value.startswith("## "))
    assert headline(step, basis, "heart disease", "no heart disease") in shown
    assert interval_sentence(step, confidence) in [md.value for md in at.markdown]


def test_without_a_model_the_page_points_to_train():
    at = open_page()
    assert "no list to triage with" in at.info[0].value
    assert any("Train" in md.value for md in at.markdown) or at.get("page_link")
    assert not at.get("form")


def test_each_answer_shows_what_triage_step_says(model):
    at = open_page(model, cost_ratio=1.0)
    assert_shows(at, expected_step(model, {}, 0, cost_ratio=1.0))
    patient = {"hr": 171.0, "sex": 0.0, "cp": "2"}
    shown = {"hr": 171.0, "sex": "female", "cp": "atypical angina"}
    asked = []
    while True:
        column = asked_column(at, model)
        if column is not None:
            answer(at, shown[column])
            asked.append(column)
            assert_shows(at, expected_step(model, patient, TRIAGE.get(at.session_state).stage, cost_ratio=1.0))
        elif "triage_continue" in [button.key for button in at.button]:
            at.button(key="triage_continue").click().run()
        else:
            break
    # Every column was asked once; its later stages took the same answer.
    assert sorted(asked) == sorted(COLUMNS)
    assert TRIAGE.get(at.session_state).stage == len(model.literals_)


def test_an_unknown_answer_shows_the_range_over_both_answers(model):
    at = open_page(model, cost_ratio=1.0)
    column = asked_column(at, model)
    answer(at, None)
    step = expected_step(model, {column: None}, 1, cost_ratio=1.0)
    assert len(step.totals) == 2 and step.probability_low < step.probability_high
    assert_shows(at, step)
    metrics = {metric.label: metric.value for metric in at.metric}
    assert " or " in metrics["Total score"] and " to " in metrics["Probability of heart disease"]
    assert "does not guess" in at.info[0].value


def stops_at(model, patient, after, cost_ratio=10.0):
    """The first stage after ``after`` where triage_step stops for this patient (or the list's end)."""
    n_stages = len(model.literals_)
    return next(k for k in range(after + 1, n_stages + 1)
                if k == n_stages or expected_step(model, patient, k, cost_ratio).stop_reason is not None)


def answer_until_stopped(at, model, shown):
    while (column := asked_column(at, model)) is not None:
        answer(at, shown[column])
    return TRIAGE.get(at.session_state).stage


def test_at_m_10_the_list_asks_stops_when_unlikely_to_change_and_again_after_continue_anyway(model):
    at = open_page(model)  # M = 10: the prior alone is ruled in, but many training patients end ruled out
    step = expected_step(model, {}, 0)
    assert step.outcome == RULE_IN and step.stop_reason is None and step.change_share >= 0.05
    assert_shows(at, step)
    assert at.get("form") and not at.success  # the first question is asked
    patient = {"hr": 171.0, "sex": 0.0, "cp": "4"}
    shown = {"hr": 171.0, "sex": "female", "cp": "asymptomatic"}
    stage = answer_until_stopped(at, model, shown)
    step = expected_step(model, patient, stage)
    assert stage == stops_at(model, patient, 0) and step.stop_reason is not None
    assert_shows(at, step)
    if stage < len(model.literals_):
        assert f"Stopped after question {stage}." in at.success[0].value
        assert stop_sentence(step) in at.success[0].value
        at.button(key="triage_continue").click().run()
        assert not at.exception
        assert at.get("form") and "would stop here" in captions(at)
        again = answer_until_stopped(at, model, shown)
        assert again == stops_at(model, patient, stage) and again > stage  # stops again at the next stop
        assert_shows(at, expected_step(model, patient, again))


def test_a_list_saved_without_statistics_stops_as_soon_as_ruled_in_and_says_so(model):
    old = without_statistics(model)
    at = open_page(old)  # M = 10
    step = expected_step(old, {}, 0)
    assert (step.outcome, step.stop_reason) == (RULE_IN, RULED)
    assert_shows(at, step)
    assert "Stopped before the first question" in at.success[0].value
    assert "saved before lists carried how often more questions change the outcome" in captions(at)
    assert not at.get("form")
    at.button(key="triage_continue").click().run()
    assert not at.exception
    assert at.get("form") and "would stop here" in captions(at)
    assert not [info for info in at.info if "Before any question" in info.value]
    # The list stops again at its next stop: here as soon as the next answer leaves it ruled in or out.
    patient = {"hr": 171.0, "sex": 0.0, "cp": "4"}
    stage = answer_until_stopped(at, old, {"hr": 171.0, "sex": "female", "cp": "asymptomatic"})
    assert stage == stops_at(old, patient, 0)


def test_a_stop_before_the_first_question_says_the_base_rate_decides_every_patient(model):
    old = without_statistics(model)
    at = open_page(old)  # M = 10
    step = expected_step(old, {}, 0)
    assert (step.outcome, step.stop_reason) == (RULE_IN, RULED)
    [info] = [info.value for info in at.info if "Before any question" in info.value]
    assert info.startswith(
        f"Before any question, the base rate of heart disease is {percent(step.probability_high)} "
        f"(95% interval {percent(step.lower)} to {percent(step.upper)}): the whole interval lies above "
        "the decision threshold 1/(1+M) = 9.1%, so at M = 10 the list decides **heart disease** for "
        "every patient without asking a question."
    )
    assert "Continue anyway" in info and at.button(key="triage_continue")
    # The M it suggests (in the settings, as it says) makes the list ask its first question.
    lowered = float(re.search(r"With M at most ([0-9.]+)", info)[1])
    cost_ratio_input(at).set_value(lowered).run()
    assert not at.exception
    assert expected_step(old, {}, 0, cost_ratio=lowered).outcome != RULE_IN
    assert not [info for info in at.info if "Before any question" in info.value]
    assert at.get("form") or "can change this outcome" in at.success[0].value


def test_a_prior_below_the_threshold_is_explained_too(model):
    old = without_statistics(model)
    at = open_page(old, cost_ratio=0.1)  # threshold 1/1.1 = 90.9 %
    step = expected_step(old, {}, 0, cost_ratio=0.1)
    assert (step.outcome, step.stop_reason) == (RULE_OUT, RULED)
    [info] = [info.value for info in at.info if "Before any question" in info.value]
    assert "below the decision threshold 1/(1+M) = 90.9%" in info
    assert "decides **no heart disease** for every patient" in info
    raised = float(re.search(r"With M of ([0-9.]+) or more", info)[1])
    assert expected_step(old, {}, 0, cost_ratio=raised).outcome != RULE_OUT


def test_m_starts_at_the_lists_saved_m_and_a_value_typed_stays_until_another_list(model):
    at = open_page(model, metadata=dict(METADATA, decision={"cost_ratio": 1.0}))
    assert cost_ratio_input(at).value == 1.0
    assert "This list was saved with M = 1." in captions(at)
    assert "Deciding with M = 1 (as saved with the list" in captions(at)
    assert_shows(at, expected_step(model, {}, 0, cost_ratio=1.0))
    cost_ratio_input(at).set_value(3.0).run()
    at.run()
    assert cost_ratio_input(at).value == 3.0
    assert "Deciding with M = 3 (the list was saved with M = 1" in captions(at)
    # Saving the list on Train changes its metadata, not the list: the typed M stays.
    training(at).metadata = ModelMetadata.from_dict(dict(METADATA, decision={"cost_ratio": 1.0}, name="Saved", version=1))
    at.run()
    assert cost_ratio_input(at).value == 3.0
    # Another list (trained or loaded on Train) starts at its own saved M.
    put_list(at, ProbabilisticScoringList.from_json(model.to_json()), dict(METADATA, decision={"cost_ratio": 5.0}))
    at.run()
    assert not at.exception
    assert cost_ratio_input(at).value == 5.0
    assert_shows(at, expected_step(model, {}, 0, cost_ratio=5.0))
    # A list saved before lists carried their M starts at 10, without an error.
    put_list(at, ProbabilisticScoringList.from_json(model.to_json()), METADATA)
    at.run()
    assert not at.exception and not at.error
    assert cost_ratio_input(at).value == 10.0
    assert "saved before lists carried their M" in captions(at)


def test_a_saved_list_chosen_on_the_page_starts_at_its_m(model, empty_store):
    stored = save_model(model, "Stored chest pain", dict(METADATA, decision={"cost_ratio": 2.0}))
    at = open_page(model)
    assert cost_ratio_input(at).value == 10.0
    at.selectbox(key="triage_model_choice").set_value(str(stored.path)).run()
    assert not at.exception
    assert cost_ratio_input(at).value == 2.0


def test_all_unknown_ends_uncertain(model):
    at = open_page(model, cost_ratio=1.0)
    while asked_column(at, model) is not None:
        answer(at, None)
    n_stages = len(model.literals_)
    assert TRIAGE.get(at.session_state).stage == n_stages
    step = expected_step(model, {c: None for c in COLUMNS}, n_stages, cost_ratio=1.0)
    assert (step.outcome, step.stop_reason) == ("uncertain", END_OF_LIST)
    assert_shows(at, step)
    assert "Uncertain: refer or gather more evidence" in at.warning[0].value


def test_next_without_an_answer_asks_for_one(model):
    at = open_page(model, cost_ratio=1.0)
    at.button(key="triage_next").click().run()
    assert not at.exception
    assert TRIAGE.get(at.session_state).stage == 0 and TRIAGE.get(at.session_state).answers == {}
    assert "Choose an answer" in at.warning[0].value or "Enter the value" in at.warning[0].value


def test_restart_and_undo_clear_answers(model):
    at = open_page(model, cost_ratio=1.0)
    first = asked_column(at, model)
    answer(at, None)
    second = asked_column(at, model)
    assert second is not None and second != first
    answer(at, None)
    at.button(key="triage_undo").click().run()
    assert list(TRIAGE.get(at.session_state).answers) == [first]
    assert asked_column(at, model) == second
    at.button(key="triage_restart").click().run()
    assert not at.exception
    assert TRIAGE.get(at.session_state).answers == {} and TRIAGE.get(at.session_state).stage == 0
    assert asked_column(at, model) == first
    assert_shows(at, expected_step(model, {}, 0, cost_ratio=1.0))


def shown_answer(at, question, stage):
    """The raw answer the widget of ``question`` (asked at ``stage``) holds; "" when empty."""
    key = f"triage_q{stage}"
    if question.kind == "numeric":
        ticked = [raw for raw, _ in question.extra_answers if at.checkbox(key=extra_key(key, raw)).value]
        number = at.number_input(key=key).value
        return ticked[0] if ticked else ("" if number is None else number)
    index = at.segmented_control(key=key).value
    return "" if index is None else [raw for raw, _ in (*question.options, *question.extra_answers)][index]


def test_change_the_last_answer_shows_it_as_the_starting_value(model):
    """openintro/yrbss: "Change the last answer" asked the question again with an empty widget.
    Now it holds the answer taken back: a number, a choice, or "unknown"."""
    kinds = set()
    for unknown_first in (False, True):
        at = open_page(model, cost_ratio=1.0)
        for _ in model.literals_:
            session = TRIAGE.get(at.session_state)
            if asked_column(at, model) is None:
                break
            stage, question = session.stage, session.next_question
            raw = None if unknown_first else 151.0 if question.kind == "numeric" else question.options[0][0]
            answer(at, raw if question.kind == "numeric" or raw is None else question.options[0][1])
            at.button(key="triage_undo").click().run()
            assert not at.exception and TRIAGE.get(at.session_state).stage == stage
            assert shown_answer(at, question, stage) == raw
            at.button(key="triage_next").click().run()  # the answer shown is sent again as it is
            assert not at.exception and TRIAGE.get(at.session_state).answers[question.column] == raw
            kinds.add("unknown" if raw is None else question.kind)
            if unknown_first:
                break
    assert {"numeric", "category", "unknown"} <= kinds, kinds


def test_settings_change_recomputes_with_the_answers_kept(model):
    at = open_page(model, cost_ratio=1.0)
    column = asked_column(at, model)
    answer(at, None)
    at.radio(key="triage_confidence").set_value(0.99).run()
    at.radio(key="triage_basis").set_value("point").run()
    assert not at.exception
    assert TRIAGE.get(at.session_state).answers == {column: None}
    step = expected_step(model, {column: None}, 1, cost_ratio=1.0, confidence=0.99, basis="point")
    metrics = {metric.label: metric.value for metric in at.metric}
    assert metrics["99% interval"] == f"{percent(step.lower)} to {percent(step.upper)}"
    assert interval_sentence(step, 0.99) in [md.value for md in at.markdown]


def test_the_record_holds_questions_answers_and_result(model):
    at = open_page(model, cost_ratio=1.0)
    shown = {"hr": 171.0, "sex": "female", "cp": "atypical angina"}
    while (column := asked_column(at, model)) is not None:
        answer(at, shown[column])
    record = at.code[0].value
    assert record.startswith("PSL Triage record — model Synthetic chest pain (version not saved)")
    n_answered = TRIAGE.get(at.session_state).stage
    for literal in model.literals_[:n_answered]:
        assert {"hr": "171 bpm", "sex": "female", "cp": "atypical angina"}[literal.column] in record
    step = expected_step(model, {"hr": 171.0, "sex": 0.0, "cp": "2"}, n_answered, cost_ratio=1.0)
    assert f"Result: {outcome_text(step, 'upper').upper()}" in record
    assert interval_sentence(step, 0.95) in record and stop_sentence(step) in record
    table = at.table[0].value
    assert list(table["Decision"]) == [
        outcome_text(expected_step(model, {"hr": 171.0, "sex": 0.0, "cp": "2"}, k, cost_ratio=1.0), "upper")
        for k in range(1, n_answered + 1)
    ]
    labels = [button.label for button in at.get("download_button")]
    assert labels == [triage_words.DOWNLOAD_TEXT, triage_words.DOWNLOAD_JSON, export_words.DOWNLOAD_FHIR]


def test_a_saved_model_can_be_chosen_and_switching_restarts(model, empty_store):
    stored = save_model(model, "Stored chest pain", METADATA)
    at = open_page(model, cost_ratio=1.0)
    choice = at.selectbox(key="triage_model_choice")
    assert at.session_state["triage_model_choice"] == "trained"
    assert choice.options[1].startswith("Stored chest pain (v1")
    answer(at, None)
    assert TRIAGE.get(at.session_state).answers
    at.selectbox(key="triage_model_choice").set_value(str(stored.path)).run()
    assert not at.exception
    assert TRIAGE.get(at.session_state).answers == {} and TRIAGE.get(at.session_state).stage == 0
    assert "Stored chest pain (version 1)" in " ".join(caption.value for caption in at.caption)


def test_a_new_list_from_train_becomes_the_choice(model, empty_store):
    stored = save_model(model, "Stored chest pain", METADATA)
    at = open_page(model)
    at.selectbox(key="triage_model_choice").set_value(str(stored.path)).run()
    assert at.session_state["triage_model_choice"] == str(stored.path)
    put_list(at, ProbabilisticScoringList.from_json(model.to_json()), METADATA)
    at.run()
    assert not at.exception
    assert at.session_state["triage_model_choice"] == "trained"


def test_the_recommended_length_is_the_default_and_the_whole_list_is_a_choice(model):
    shortened = ProbabilisticScoringList.from_json(model.to_json())
    shortened.recommended_stages_ = 2
    shortened.validation_brier_ = np.full(shortened.n_stages_, 0.2)
    shortened.validation_brier_se_ = np.full(shortened.n_stages_, 0.01)
    at = open_page(shortened)
    length = at.radio(key="triage_length")
    assert length.value == 2
    assert any("2 of" in caption.value for caption in at.caption)
    length.set_value(shortened.n_stages_ - 1).run()
    assert not at.exception
    assert any(f"{shortened.n_stages_ - 1} of" in caption.value for caption in at.caption)


def test_a_list_without_questions_decides_from_the_base_rate_or_says_it_cannot():
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"hr": rng.normal(150, 20, 30).round(), "sex": rng.integers(0, 2, 30).astype(float)})
    y = (rng.random(30) < 0.4).astype(int)
    empty = ProbabilisticScoringList(min_support=20).fit(X, y)  # 30 rows: no cut leaves 20 on each side
    assert empty.n_stages_ == 1
    at = open_page(empty, cost_ratio=1)  # threshold 50%, inside the base rate's interval
    assert "This list has no questions (the Train page says why)" in at.warning[0].value
    at = open_page(empty, cost_ratio=10)  # threshold 9.1%, below the whole interval
    assert "Before any question, the base rate" in " ".join(info.value for info in at.info)


def test_on_the_demo_at_the_default_m_the_page_asks_a_question(demo_prepared):
    """The Train page's default list of the demo, the page's default settings (M = 10, 95 %,
    risk-averse, recommended length, 5 % tolerance): the triage starts with a question."""
    model, metadata = train_list(demo_prepared, "Demo", TrainingOptions(**SETUPS[DEFAULT_SETUP]))
    assert model.stop_statistics_ is not None
    at = AppTest.from_file(PAGE, default_timeout=60)
    put_list(at, model, metadata)
    at.run()
    assert not at.exception
    assert cost_ratio_input(at).value == 10.0
    assert at.get("form") and not at.success, "at M = 10 the demo list should ask its first question"
    prior = next(md.value for md in at.markdown if md.value.startswith("## "))
    assert "not stopped yet" in prior


def test_a_list_that_recommends_no_question_warns_above_the_questions():
    rng = np.random.default_rng(0)  # pure noise: no question beats the base rate on held-out folds
    X = pd.DataFrame({"hr": rng.normal(150, 20, 150).round(), "sex": rng.integers(0, 2, 150).astype(float)})
    noise = ProbabilisticScoringList(recommend_folds=5).fit(X, (rng.random(150) < 0.4).astype(int))
    assert noise.recommended_stages_ == 0 and noise.end_reason_ == "chance"  # no question beat chance either
    at = open_page(noise)
    warnings = [w.value for w in at.warning if "no question beat the base rate" in w.value]
    assert len(warnings) == 1 and "heart disease" in warnings[0]
    # The list that does help says nothing of the kind.
    assert not any("no question beat" in w.value for w in open_page(ProbabilisticScoringList(
        recommend_folds=5).fit(*_helpful_table())).warning)


@pytest.fixture
def no_gain_list(monkeypatch):
    """A noise list whose later questions beat chance (the chance rule switched off) but not the
    base rate on held-out folds: it has questions and recommends none."""
    import psl_core.chance

    monkeypatch.setattr(psl_core.chance, "REQUIRED_Z", -np.inf)
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"hr": rng.normal(150, 20, 150).round(), "sex": rng.integers(0, 2, 150).astype(float)})
    noise = ProbabilisticScoringList(recommend_folds=5).fit(X, (rng.random(150) < 0.4).astype(int))
    assert noise.recommended_stages_ == 0 and len(noise.literals_) > 0
    return noise


@pytest.mark.parametrize("m", [10, 1, 0.1])
def test_a_list_recommending_no_question_asks_none_and_says_the_base_rate(no_gain_list, m):
    """Issue 39: a list whose recommended length is 0 gives every patient the base-rate risk with
    its interval and decision at the bedside, and says why no question helps; its questions stay
    one choice away, labelled as beyond the recommendation."""
    at = open_page(no_gain_list, cost_ratio=m)
    session, n = TRIAGE.get(at.session_state), len(no_gain_list.literals_)
    assert not at.get("form"), "the recommended length asks no question"
    length = at.radio(key="triage_length")
    assert length.value == 0 and length.options == [triage_words.length_option(0, 0), triage_words.length_option(n, 0)]
    assert "beyond the recommendation" in length.options[1].lower()
    step = session.current
    note = next(i.value for i in at.info if "No question is recommended" in i.value)
    assert f"{percent(step.probability_high)} (95% interval {interval_text(step)})" in shown(note)
    assert "none of its" in note and "better than the base rate" in note
    assert not at.success and not at.warning[1:], "no stop sentence about answered questions"
    assert any(f"0 of {n} questions" in c.value for c in at.caption)
    length.set_value(n).run()
    assert not at.exception and not any("No question is recommended" in i.value for i in at.info)
    assert len(TRIAGE.get(at.session_state).questions) == n and (at.get("form") or m < 1)  # M = 0.1 settles first


def _helpful_table():
    rng = np.random.default_rng(1)
    X = pd.DataFrame({"hr": rng.normal(150, 20, 300).round(), "sex": rng.integers(0, 2, 300).astype(float)})
    return X, (rng.random(300) < 1 / (1 + np.exp(-0.08 * (X["hr"].to_numpy() - 150)))).astype(int)


def test_question_labels_read_by_screen_readers_carry_no_markdown_escapes(chest_pain_data):
    """Issue 26, item 10: a widget's label is its aria-label as given; a column named ct_result
    must not be read as "ct\\_result" (and a hostile name still renders as text)."""
    X, y = chest_pain_data
    X = X.rename(columns={"cp": "ct_result", "sex": "sex_at_birth"})
    model = ProbabilisticScoringList(score_set=(-2, -1, 1, 2)).fit(X, y)
    metadata = {"name": "Renamed", "columns": {}, "dataset": {"positive_label": "ct_positive"}}
    at = open_page(model, cost_ratio=1.0, metadata=metadata)
    first = model.literals_[0].column
    assert first in ("ct_result", "sex_at_birth", "hr")
    widget = next(w for w in [*at.segmented_control, *at.number_input] if w.key == "triage_q0")
    assert "\\" not in widget.label and first in widget.label
    assert all("\\" not in metric.label for metric in at.metric)


def test_how_it_works_gives_this_lists_first_question_as_its_example(model):
    """The example was the demo's "Max heart rate > 147.5 bpm" whatever the list (seen on a
    breast-cancer list trained on survival/rotterdam)."""
    from psl_triage.bedside.questions import build_questions
    from psl_triage.training.tables import readable_columns
    from psl_triage.words import md

    metadata = {**METADATA, "columns": {**COLUMNS, "hr": {**COLUMNS["hr"], "label": "Resting pulse"}}}
    at = open_page(model, metadata=metadata)
    text = " ".join(block.value for block in at.markdown)
    first = build_questions(model, readable_columns(metadata))[0]
    assert "Max heart rate" not in text
    assert f'worth a few points ("{md(first.rule)}")' in text
