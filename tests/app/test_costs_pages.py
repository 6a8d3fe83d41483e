"""Question costs through the pages: set on Train, saved with the list, weighed and shown in Triage."""


import pytest
from streamlit.testing.v1 import AppTest

from psl_core import ProbabilisticScoringList
from psl_core.costs import default_change_value
from psl_core.decision import NOT_WORTH_COST, StageBands, triage_step
from psl_triage.words import shown
from psl_triage.words.decision import stop_sentence
from tests.apptest import put_list, training
from tests.paths import ROOT
from tests.tables import dataset_session
from ui.state_keys import DATASET, TRIAGE

TRIAGE_PAGE = str(ROOT / "pages" / "2_Triage.py")
COSTS = {"hr": 5.0, "cp": 30.0, "sex": 1.0}
METADATA = {
    "name": "Synthetic chest pain with costs",
    "columns": {
        "hr": {"label": "Max heart rate", "unit": "bpm", "kind": "numeric", "category_labels": {}},
        "sex": {"label": "Sex", "unit": "", "kind": "binary", "category_labels": {"1": "male", "0": "female"}},
        "cp": {"label": "Chest pain type", "unit": "", "kind": "categorical",
               "category_labels": {"1": "typical angina", "2": "atypical angina", "4": "asymptomatic"}},
    },
    "dataset": {"outcome_label": "Heart disease", "positive_label": "heart disease",
                "negative_label": "no heart disease"},
    "cost_unit": "minutes",
}


@pytest.fixture(scope="module")
def model(chest_pain_data):
    X, y = chest_pain_data
    fitted = ProbabilisticScoringList(score_set=(-2, -1, 1, 2), question_costs=COSTS).fit(X, y)
    assert (fitted.stage_costs_[:1] > 0).all()  # every column costs: the first question too
    return fitted


@pytest.fixture(autouse=True)
def empty_store(tmp_path, monkeypatch):
    monkeypatch.setenv("PSL_MODEL_DIR", str(tmp_path / "models"))


def open_triage(model):
    at = AppTest.from_file(TRIAGE_PAGE, default_timeout=60)
    put_list(at, model, METADATA)
    at.run()
    assert not at.exception
    return at


def test_triage_shows_each_questions_cost_and_the_cost_so_far(model):
    at = open_triage(model)
    value = at.number_input(key="triage_change_value")
    assert value.value == default_change_value(model.stage_costs_) == 10 * max(COSTS.values())
    captions = " ".join(shown(c.value) for c in at.caption)
    assert f"Question 1 of {len(model.literals_)} · costs {model.stage_costs_[0]:g} minutes" in captions
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Questions' cost so far"] == "0 minutes"


def test_a_low_value_of_a_changed_outcome_stops_before_a_dear_question(model):
    at = open_triage(model)
    at.number_input(key="triage_change_value").set_value(0.01).run()
    assert not at.exception
    bands = StageBands(model, 0.95)
    expected = triage_step(bands, [], 10.0, change_value=0.01)
    assert expected.stop_reason == NOT_WORTH_COST  # no share of changes x 0.01 reaches a cost of 1 or more
    assert TRIAGE.get(at.session_state).stage == 0 and not at.get("form")
    sentence = stop_sentence(expected, change_value=0.01, unit="minutes")
    assert "more than it is likely to gain" in sentence and "minutes" in sentence
    assert sentence in shown(at.success[0].value)
    assert not any("Before any question" in shown(info.value) for info in at.info)  # not the base-rate note
    assert any("Questions asked cost 0 minutes." in shown(code.value) for code in at.code)


def test_a_list_without_costs_asks_for_no_value(model):
    plain = ProbabilisticScoringList.from_json(model.to_json())
    plain.question_costs = None
    at = open_triage(plain)
    assert "triage_change_value" not in [w.key for w in at.number_input]
    assert "Questions' cost so far" not in [m.label for m in at.metric]


def test_costs_set_on_train_reach_the_list_and_its_file(project_root, demo_prepared):
    at = AppTest.from_file(str(project_root / "app.py"), default_timeout=60)
    DATASET.put(at.session_state, dataset_session(demo_prepared))
    training(at).cost_values.update({"ca": 20.0, "thal": 20.0, "chol": 2.0})
    training(at).cost_groups.update({"chol": "blood test", "fbs": "blood test"})
    at.switch_page("pages/1_Train.py").run()
    assert not at.exception
    at.text_input(key="w_train_cost_unit").set_value("points").run()
    at.select_slider(key="w_train_cost_weight").set_value(0.05).run()
    at.button(key="w_train_submit").click().run()
    assert not at.exception and not at.error
    trained = training(at).model
    assert trained.question_costs == {"ca": 20.0, "thal": 20.0, "chol": 2.0} and trained.cost_weight == 0.05
    assert trained.cost_groups == {"chol": "blood test", "fbs": "blood test"}
    metadata = training(at).metadata
    assert metadata.cost_unit == "points"
    assert "question_costs" not in metadata.training_options and "cost_groups" not in metadata.training_options
    loaded = ProbabilisticScoringList.from_json(trained.to_json(metadata.to_dict()))
    assert loaded.question_costs == trained.question_costs and loaded.metadata_["cost_unit"] == "points"
    assert loaded.cost_groups == trained.cost_groups
