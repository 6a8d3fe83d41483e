"""The Card page (pages/7_Card.py) in Streamlit's AppTest."""


import pytest
from streamlit.testing.v1 import AppTest

from psl_triage.bedside.session import recommended_length
from psl_triage.training.fit import train_list
from psl_triage.training.options import TrainingOptions
from tests.apptest import put_list
from tests.paths import ROOT
from ui import current_list_key

PAGE = str(ROOT / "pages" / "7_Card.py")


@pytest.fixture(scope="module")
def trained(demo_prepared):
    return train_list(demo_prepared, "Heart disease (UCI, Cleveland)", TrainingOptions(max_stages=6))


def test_without_a_list_the_page_says_where_to_get_one(tmp_path, monkeypatch):
    monkeypatch.setenv("PSL_MODEL_DIR", str(tmp_path))  # an empty store
    at = AppTest.from_file(PAGE, default_timeout=30).run()
    assert not at.exception and any("Train" in info.value for info in at.info)


def test_the_card_and_report_are_offered_and_follow_the_choices(trained):
    model, metadata = trained
    at = AppTest.from_file(PAGE, default_timeout=60)
    put_list(at, *trained)
    at.run()
    assert not at.exception and not at.error
    assert at.slider(key=current_list_key("card_stage", at.session_state)).value == recommended_length(model)
    assert len(at.get("download_button")) == 2
    at.slider(key=current_list_key("card_stage", at.session_state)).set_value(2).run()
    assert not at.exception and not at.error
    at.number_input(key=current_list_key("card_cost_ratio", at.session_state)).set_value(3.0).run()
    assert not at.exception and not at.error


def test_another_list_starts_the_card_at_its_own_stage(trained):
    """As Calibration and Intervals: the number of questions chosen for one list was kept for
    the next; a list that becomes current starts at its recommended stage."""
    import copy

    from psl_triage.words.card import questions_on_card

    model, metadata = trained
    label = questions_on_card(len(model.literals_))
    at = AppTest.from_file(PAGE, default_timeout=60)
    put_list(at, *trained)
    at.run()
    next(box for box in at.slider if box.label == label).set_value(1).run()
    other = copy.deepcopy(model)  # trained or loaded on the Train page
    put_list(at, other, metadata)
    at.run()
    assert not at.exception and not at.error
    assert next(box for box in at.slider if box.label == label).value == recommended_length(other) != 1


def test_a_saved_list_prints_without_one_on_the_train_page(trained, isolated_model_dir):
    from psl_triage.model_file.store import save_model

    stored = save_model(trained[0], "Card page test", trained[1])
    at = AppTest.from_file(PAGE, default_timeout=60).run()  # a fresh session
    at.selectbox(key="card_model_choice").set_value(str(stored.path)).run()
    assert not at.exception and not at.error
    assert len(at.get("download_button")) == 2
    assert any("Card page test" in markdown.value for markdown in at.markdown)


def test_a_stored_file_without_a_name_is_called_by_its_file_name(trained, isolated_model_dir):
    """A list downloaded before it was saved, put into the model folder: the Card page called
    it "an unnamed list"; it is called by its file's name, as an uploaded one is."""
    from psl_triage.model_file.writer import list_identity
    from psl_triage.words import shown

    model, metadata = trained
    path = isolated_model_dir / "chain-download-v1.json"  # as the store names its files
    path.write_text(model.to_json({key: value for key, value in metadata.items() if key != "name"}))
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    at.selectbox(key="card_model_choice").set_value(str(path)).run()
    assert not at.exception and not at.error
    assert any(shown(markdown.value).startswith("**chain-download-v1**") for markdown in at.markdown)
    assert list_identity({}).startswith("**An unnamed list**")  # a list trained here, not saved


def test_the_report_takes_the_evidence_of_this_session(trained, demo_prepared):
    from psl_core.evaluation import monte_carlo_cv
    from psl_triage.judging.evidence import report_evidence

    model, _ = trained
    result = monte_carlo_cv(demo_prepared.X, demo_prepared.y, lambda: model.__class__(max_stages=3),
                            n_splits=2, n_jobs=1)
    at = AppTest.from_file(PAGE, default_timeout=60)
    put_list(at, *trained)
    at.session_state["evaluation_result"] = {"model": model, "prepared": demo_prepared, "result": result}
    at.run()
    assert not at.exception and not at.error
    assert "calibration" in report_evidence(2, result)
