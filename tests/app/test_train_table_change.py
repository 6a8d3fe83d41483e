"""The Train page after the Data page loads another table (AppTest): the list trained on the
first table is said to be that table's, with the offer to train on the new one; the options
start afresh for a new table and come back with a table shown again; a training that fails
leaves no finished-looking progress bar."""

from dataclasses import replace

import pytest
from streamlit.testing.v1 import AppTest

from psl_core.errors import RequiredColumnError
from psl_triage.training.costs import COST_WEIGHTS
from psl_triage.words import shown
from tests.apptest import training
from tests.paths import ROOT
from tests.tables import dataset_session, follow_up_study
from ui.state_keys import DATASET

TRAIN_PAGE = "pages/1_Train.py"
DEMO_NAME = "Heart disease (UCI, Cleveland)"


def texts(elements):
    return " ".join(shown(element.value) for element in elements).replace("**", "")


@pytest.fixture
def trained(demo_prepared):
    """The Train page with a two-question list trained on the demo."""
    demo = dataset_session(demo_prepared)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    DATASET.put(at.session_state, demo)
    at.switch_page(TRAIN_PAGE).run()
    at.number_input(key="w_train_max_stages").set_value(2)
    at.button(key="w_train_submit").click().run()
    assert not at.exception and not at.error and training(at).model is not None
    return at, demo


def load(at, dataset):
    DATASET.put(at.session_state, dataset)
    return at.run()


def test_a_list_of_another_table_is_said_to_be_that_tables_with_the_offer_to_train_on_this_one(trained):
    at, _ = trained
    frame, _, without = follow_up_study()
    first = training(at).model
    load(at, dataset_session(without, frame, "study.csv"))
    assert not at.exception and not at.error
    said = texts(at.warning)
    assert f"This list was trained on {DEMO_NAME}, not on the table loaded now, study.csv" in said
    assert "the list predicts another outcome" in said and "psl_" not in said
    at.button(key="w_train_on_loaded").click().run()
    assert not at.exception and not at.error
    assert training(at).model is not first and training(at).metadata.trained_on.name == "study.csv"
    assert "This list was trained on" not in texts(at.warning) and "w_train_on_loaded" not in [b.key for b in at.button]


def test_a_table_with_the_same_columns_and_other_rows_is_not_the_lists(trained, demo_prepared):
    at, _ = trained
    half = replace(demo_prepared, X=demo_prepared.X.iloc[::2], y=demo_prepared.y[::2],
                   n_rows_after=len(demo_prepared.y[::2]))
    load(at, dataset_session(half, name="heart_half.csv"))
    assert not at.exception
    said = texts(at.warning)
    assert "not on the table loaded now, heart_half.csv" in said and "other patients or values" in said


def test_the_lists_own_table_again_shows_no_note(trained, demo_prepared):
    at, demo = trained
    load(at, dataset_session(demo_prepared, name="heart again.csv"))  # the same rows, loaded again
    assert not at.exception and "This list was trained on" not in texts(at.warning)
    load(at, dataset_session(None, demo.active.df, "study.csv", prepare_error="Choose the outcome column."))
    assert "This list was trained on" in texts(at.warning)  # not ready, but not the list's table
    load(at, demo)
    assert not at.exception and "This list was trained on" not in texts(at.warning)


def test_the_options_start_afresh_for_a_new_table_and_come_back_with_a_table_shown_again(trained):
    """Every option of the Train page is the table's, as the knowledge and cost tables are."""
    at, demo = trained
    at.number_input(key="w_train_min_support").set_value(20)
    at.radio(key="w_train_calibration").set_value("beta")
    at.button(key="w_train_submit").click().run()  # a form's values count once it is sent
    starts = {name: at.number_input(key=f"w_train_{name}").value for name in ("max_stages", "min_support")}
    assert starts == {"max_stages": 2, "min_support": 20}
    frame, _, without = follow_up_study()
    load(at, dataset_session(without, frame, "study.csv"))
    assert not at.exception
    assert at.number_input(key="w_train_max_stages").value is None  # the default: as many as the learner finds
    assert at.number_input(key="w_train_min_support").value != 20
    assert at.radio(key="w_train_calibration").value != "beta"
    load(at, demo)
    assert {name: at.number_input(key=f"w_train_{name}").value for name in starts} == {"max_stages": 2, "min_support": 20}
    assert at.radio(key="w_train_calibration").value == "beta"


def test_a_training_that_fails_leaves_no_finished_looking_progress(trained, monkeypatch):
    """The search reached its last stage, then a required column had no question: the error
    is shown, the previous list stays, and no bar says "Stage 17 of 17"."""
    at, _ = trained
    before = training(at).model

    def fails_at_the_end(*args, progress=None, **kwargs):
        for stage in range(1, 18):
            progress(stage, 17)
        raise RequiredColumnError("no question", "thal", 10)

    monkeypatch.setattr("psl_triage.training.fit.train_list", fails_at_the_end)
    at.button(key="w_train_submit").click().run()
    assert not at.exception and "thal" in texts(at.error)
    assert training(at).model is before
    assert not at.get("progress")
    assert "This is the list from before" in texts(at.warning)


def test_a_refused_option_says_the_list_shown_is_the_one_from_before(trained):
    """openintro/yrbss: after a refused option the old list stayed under the error as if it were
    the options' list. Now it is said to be the one from before, until a list is trained."""
    at, _ = trained
    before = training(at).model
    at.radio(key="w_train_score_preset").set_value("custom")
    at.text_input(key="w_train_custom_scores").set_value("0, x")
    at.button(key="w_train_submit").click().run()
    assert not at.exception and at.error and training(at).model is before
    assert "This is the list from before" in texts(at.warning)
    at.text_input(key="w_train_custom_scores").set_value("-1, 1")
    at.button(key="w_train_submit").click().run()
    assert not at.exception and not at.error and training(at).model is not before
    assert "This is the list from before" not in texts(at.warning)


def test_no_option_widget_has_a_default_of_its_own_and_a_value_set_through_session_state(
        demo_prepared, monkeypatch):
    """The server log warned once: "widget `w_train_calibration` ... default value but also ...
    set via the Session State API" on the first switch to the paper's setup. The options'
    values are set there (the setup, ui.training.follow_table), so no widget has a default of
    its own. AppTest runs without a runtime, where Streamlit skips the check: it is made to run."""
    import streamlit.elements.lib.policies as policies

    warned = []
    monkeypatch.setattr(policies.runtime, "exists", lambda: True)
    monkeypatch.setattr(policies, "_shown_default_value_warning", False)
    monkeypatch.setattr(policies._LOGGER, "warning", lambda message, *args, **kwargs: warned.append(message % args))
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    demo = dataset_session(demo_prepared)
    load(at, demo)
    at.switch_page(TRAIN_PAGE).run()
    at.radio(key="w_train_setup").set_value("paper").run()
    at.radio(key="w_train_setup").set_value("recommended").run()
    at.select_slider(key="w_train_cost_weight").set_value(COST_WEIGHTS[1]).run()
    frame, _, without = follow_up_study()
    load(at, dataset_session(without, frame, "study.csv"))
    load(at, demo)  # the first table's settings come back through Session State
    assert not at.exception and warned == []
    assert at.select_slider(key="w_train_cost_weight").value == COST_WEIGHTS[1]
