"""The Train page in Streamlit's AppTest: train, read the list, save, download and load.

The page links to the landing page, and Streamlit resolves a page link against the pages the
app's entry point declares, so each test starts from ``app.py`` and switches to the Train page
before the first run: only the Train page runs, on the session state the test sets.
"""

import json

import pytest
from streamlit.testing.v1 import AppTest

from psl_core.model import ProbabilisticScoringList
from psl_triage.words import shown
from tests.apptest import training
from tests.tables import dataset_session
from ui.state_keys import DATASET

TRAIN_PAGE = "pages/1_Train.py"
DEMO_NAME = "Heart disease (UCI, Cleveland)"


def open_train_page(project_root, dataset=None, directions=None, asks=None):
    """The Train page with the data page's session ``dataset`` and the knowledge table's choices."""
    at = AppTest.from_file(str(project_root / "app.py"), default_timeout=60)
    if dataset is not None:
        DATASET.put(at.session_state, dataset)
    training(at).directions.update(directions or {})
    training(at).asks.update(asks or {})
    return at.switch_page(TRAIN_PAGE).run()


@pytest.fixture
def page(project_root, demo_prepared):
    return open_train_page(project_root, dataset=dataset_session(demo_prepared))


def click_train(at):
    return at.button(key="w_train_submit").click().run()


def texts(elements):
    return " ".join(shown(element.value) for element in elements)


def list_table(at):
    return next(frame.value for frame in at.dataframe if "Feature" in frame.value.columns)


def measures_table(at):
    return next(frame.value for frame in at.dataframe if "AUC (train)" in frame.value.columns)


def test_without_data_the_page_says_so_and_links_to_the_data_page(project_root):
    at = open_train_page(project_root)
    assert not at.exception
    assert "No data loaded yet" in texts(at.info)
    assert [link.value for link in at.get("page_link")] == ["Go to the start page"]
    assert not at.get("form")
    assert training(at).model is None


def test_data_that_is_not_ready_shows_the_reason(project_root):
    at = open_train_page(project_root, dataset=dataset_session(None, prepare_error="Choose the outcome column."))
    assert not at.exception
    assert "Choose the outcome column." in texts(at.warning)
    assert at.get("page_link")


def test_train_shows_the_list_the_measures_and_keeps_the_model(page):
    assert not page.exception
    assert "No list yet" in texts(page.info)
    page.radio(key="w_train_setup").set_value("paper").run()  # the paper's setup, one click away
    click_train(page)
    assert not page.exception and not page.error
    model = training(page).model
    assert isinstance(model, ProbabilisticScoringList)
    table = list_table(page)
    assert len(table) == model.n_stages_
    assert table["Feature"].iloc[1] == "Thallium stress test = normal"
    assert {"-3", "0", "+3"} <= set(table.columns)
    assert len(measures_table(page)) == model.n_stages_
    assert page.get("plotly_chart")
    progress = page.get("progress")[0]
    assert progress.value == 100 and progress.text.startswith(f"Done: {model.n_stages_ - 1} stages")
    metadata = training(page).metadata
    assert metadata.source == "trained" and metadata.training_options["test_fraction"] == pytest.approx(1 / 3)
    assert "198 training rows" in texts(page.caption)
    # The paper's setup asks every question the table offers: more questions than columns.
    length = f"**Length.** The list has {model.n_stages_ - 1} questions about 13 columns: no question was left to add"
    assert length in texts(page.markdown) and "candidate features" not in texts(page.markdown)


def test_a_list_that_ends_early_says_why(page):
    page.number_input(key="w_train_min_support").set_value(150)
    click_train(page)
    assert not page.exception and not page.error
    assert training(page).model.n_stages_ == 1
    assert "no question splits the training rows into answers of at least 150 rows each" in texts(page.markdown)


def test_the_result_survives_reruns_without_retraining(page):
    click_train(page)
    model = training(page).model
    page.run()
    assert not page.exception
    assert training(page).model is model
    assert len(list_table(page)) == model.n_stages_
    assert not page.get("progress")


def test_show_intervals_adds_the_interval_to_every_cell(page):
    click_train(page)
    page.toggle(key="w_train_show_intervals").set_value(True).run()
    assert not page.exception
    cells = [c for c in list_table(page).iloc[:, 5:].to_numpy().ravel() if c]
    assert cells and all("(" in c and "–" in c for c in cells)


def test_options_reach_the_learner(page):
    page.radio(key="w_train_score_preset").set_value("positive")
    page.radio(key="w_train_calibration").set_value("beta")
    page.number_input(key="w_train_max_stages").set_value(3)
    page.number_input(key="w_train_test_fraction").set_value(0.0)
    click_train(page)
    assert not page.exception and not page.error
    model = training(page).model
    assert model.n_stages_ == 4 and model.calibration == "beta"
    assert set(model.scores_) <= {1, 2, 3}
    assert len(list_table(page)) == 4
    assert [c for c in measures_table(page).columns if "(test)" in c] == []


def test_the_setups_fill_the_options_and_reach_the_learner(page):
    # The page opens on the recommended setup (the measured best).
    assert page.radio(key="w_train_setup").value == "recommended"
    assert page.radio(key="w_train_calibration").value == "sigmoid"
    assert page.radio(key="w_train_loss").value == "cv_brier"
    assert page.number_input(key="w_train_prior_strength").value == 2.0
    assert page.number_input(key="w_train_max_feature_uses").value == 2
    assert page.number_input(key="w_train_min_support").value == 10
    assert page.radio(key="w_train_interval_correction").value == "sidak"
    page.number_input(key="w_train_max_stages").set_value(4)
    click_train(page)
    assert not page.exception and not page.error
    model = training(page).model
    assert (model.calibration, model.loss, model.prior_strength, model.max_feature_uses, model.min_support) == (
        "sigmoid", "cv_brier", 2.0, 2, 10,
    )
    assert model.interval_correction == "sidak"
    assert training(page).metadata.training_options["setup"] == "recommended"
    assert "the recommended setup" in texts(page.caption)
    # The paper's is one click away: every option takes the paper's choice.
    page.radio(key="w_train_setup").set_value("paper").run()
    assert page.radio(key="w_train_calibration").value == "isotonic"
    assert page.radio(key="w_train_loss").value == "entropy"
    click_train(page)
    model = training(page).model
    assert (model.calibration, model.loss, model.prior_strength, model.max_feature_uses, model.min_support) == (
        "isotonic", "entropy", 0.0, 1, 1,
    )
    assert "the paper's setup" in texts(page.caption)
    # And back.
    page.radio(key="w_train_setup").set_value("recommended").run()
    assert page.radio(key="w_train_calibration").value == "sigmoid"


def test_a_custom_score_set_is_used(page):
    page.radio(key="w_train_score_preset").set_value("custom")
    page.text_input(key="w_train_custom_scores").input("±1, ±4")
    click_train(page)
    assert not page.exception and not page.error
    assert set(training(page).model.scores_) <= {-4, -1, 1, 4}


def test_a_bad_custom_score_set_is_explained_and_nothing_is_trained(page):
    page.radio(key="w_train_score_preset").set_value("custom")
    page.text_input(key="w_train_custom_scores").input("1, two, 3")
    click_train(page)
    assert not page.exception
    assert "'two', which is not a whole number" in texts(page.error)
    assert training(page).model is None


def test_a_test_fraction_too_small_for_both_classes_is_explained(page):
    page.number_input(key="w_train_test_fraction").set_value(0.001)
    click_train(page)
    assert not page.exception
    assert "too few to hold both outcome classes" in texts(page.error)


def test_an_unexpected_failure_is_reported_in_plain_words_without_a_traceback(page, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr("psl_triage.training.fit.train_list", broken)
    click_train(page)
    assert not page.exception
    assert "Something unexpected went wrong while training the list" in texts(page.error)
    assert "disk on fire" not in texts(page.error) + texts(page.code)
    assert training(page).model is None


def test_save_writes_a_new_version_to_the_model_store(page, tmp_path, monkeypatch):
    monkeypatch.setenv("PSL_MODEL_DIR", str(tmp_path))
    click_train(page)
    assert page.text_input(key="w_train_model_name").value == DEMO_NAME
    page.text_input(key="w_train_model_name").input("Chest pain triage")
    page.button(key="w_train_save").click().run()
    assert not page.exception
    assert "chest-pain-triage-v1.json (version 1)" in texts(page.success)
    saved = json.loads((tmp_path / "chest-pain-triage-v1.json").read_text(encoding="utf-8"))
    assert saved["metadata"]["name"] == "Chest pain triage" and saved["metadata"]["source"] == "trained"
    assert training(page).metadata.version == 1
    page.button(key="w_train_save").click().run()
    assert "chest-pain-triage-v2.json (version 2)" in texts(page.success)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["chest-pain-triage-v1.json", "chest-pain-triage-v2.json"]


def test_the_model_file_can_be_downloaded(page):
    click_train(page)
    labels = [button.label for button in page.get("download_button")]
    assert "Download the model file (JSON)" in labels
    assert not page.exception


def test_a_broken_model_file_is_refused_and_the_current_list_stays(page):
    click_train(page)
    model = training(page).model
    page.file_uploader(key="w_train_upload").upload("broken.json", b'{"format": "psl", "st', "application/json")
    page.run()
    assert not page.exception
    assert "broken.json" in texts(page.error) and "not a valid model file" in texts(page.error)
    assert training(page).model is model


def test_a_saved_model_file_loads_as_the_current_list(project_root, demo_prepared):
    trainer = open_train_page(project_root, dataset=dataset_session(demo_prepared))
    trainer.number_input(key="w_train_max_stages").set_value(2)
    click_train(trainer)
    model, metadata = training(trainer).model, training(trainer).metadata.to_dict()
    text = model.to_json(dict(metadata, name="Two questions"))

    at = open_train_page(project_root)  # a new session, without data
    at.file_uploader(key="w_train_upload").upload("two-questions.json", text.encode(), "application/json")
    at.run()
    assert not at.exception and not at.error
    assert "Loaded two-questions.json" in texts(at.info)
    loaded = training(at).model
    assert loaded.to_json(metadata) == model.to_json(metadata)
    assert training(at).metadata.name == "Two questions"
    assert list_table(at)["Feature"].tolist() == list_table(trainer)["Feature"].tolist()
    assert at.text_input(key="w_train_model_name").value == "Two questions"


def test_m_is_set_on_train_saved_with_the_list_and_shown_with_it(page, tmp_path, monkeypatch):
    monkeypatch.setenv("PSL_MODEL_DIR", str(tmp_path))
    field = page.number_input(key="w_train_cost_ratio")
    assert (field.label, field.value, field.min, field.max) == (
        "M: cost of a missed case relative to a false alarm", 10.0, 0.001, 1000.0,
    )
    field.set_value(2.0)
    page.number_input(key="w_train_max_stages").set_value(2)
    click_train(page)
    assert not page.exception and not page.error
    assert training(page).metadata.saved_cost_ratio == 2.0
    assert "Saved with M = 2: a missed case counts as much as 2 false alarms" in texts(page.markdown)
    page.button(key="w_train_save").click().run()
    saved = json.loads(next(tmp_path.glob("*.json")).read_text(encoding="utf-8"))
    assert saved["metadata"]["decision"] == {"cost_ratio": 2.0}


def test_a_model_file_from_before_m_was_saved_loads_with_the_papers_m(project_root, demo_prepared):
    trainer = open_train_page(project_root, dataset=dataset_session(demo_prepared))
    trainer.number_input(key="w_train_max_stages").set_value(2)
    click_train(trainer)
    model, metadata = training(trainer).model, training(trainer).metadata.to_dict()
    older = {key: value for key, value in metadata.items() if key != "decision"}

    at = open_train_page(project_root)
    at.file_uploader(key="w_train_upload").upload("older.json", model.to_json(older).encode(), "application/json")
    at.run()
    assert not at.exception and not at.error
    assert "Loaded older.json" in texts(at.info)
    assert "Saved before lists carried their M" in texts(at.markdown) and "M = 10" in texts(at.markdown)


def test_a_model_file_with_a_bad_m_is_refused_naming_it(project_root, demo_prepared):
    trainer = open_train_page(project_root, dataset=dataset_session(demo_prepared))
    trainer.number_input(key="w_train_max_stages").set_value(2)
    click_train(trainer)
    model, metadata = training(trainer).model, training(trainer).metadata.to_dict()
    text = model.to_json(dict(metadata, decision={"cost_ratio": -5}))
    at = open_train_page(project_root)
    at.file_uploader(key="w_train_upload").upload("bad-m.json", text.encode(), "application/json")
    at.run()
    assert not at.exception
    assert "bad-m.json" in texts(at.error) and "metadata.decision.cost_ratio (M)" in texts(at.error)
    assert training(at).model is None


def test_the_nested_criterion_is_offered_with_an_honest_label_and_reaches_the_learner(page):
    loss = page.radio(key="w_train_loss")
    assert "Thresholds validated too (nested cross-validation; slower, can help on small data)" in loss.options
    assert "4–6 times slower" in loss.help and "hurt on larger data" in loss.help
    loss.set_value("nested_cv_brier")
    page.number_input(key="w_train_max_stages").set_value(2)
    click_train(page)
    assert not page.exception and not page.error
    assert training(page).model.loss == "nested_cv_brier"
    assert training(page).metadata.training_options["loss"] == "nested_cv_brier"
    assert "a custom mix of the paper's and the recommended options" in texts(page.caption)


def test_a_planted_leak_is_called_too_good_and_one_click_retrains_without_it(project_root):
    import numpy as np

    from psl_triage.data.demo import load_demo

    df, meta = load_demo()
    df = df.assign(echo_result=np.where(df[meta.outcome] == meta.positive_class, 0.9, 0.1))
    at = AppTest.from_file(str(project_root / "app.py"), default_timeout=60).run()
    at.radio(key="w_source").set_value("upload").run()
    at.file_uploader(key="w_upload").set_value(("heart.csv", df.to_csv(index=False).encode(), "text/csv")).run()
    at.selectbox(key=DATASET.get(at.session_state).key("w_outcome")).set_value(meta.outcome).run()
    assert "echo_result" in DATASET.get(at.session_state).active.flagged_columns  # proposed out: the user puts it back
    at.button(key=DATASET.get(at.session_state).key("w_put_back", meta.outcome, "echo_result")).click().run()
    assert "echo_result" in DATASET.get(at.session_state).prepared.X
    at.switch_page(TRAIN_PAGE).run()
    click_train(at)
    assert not at.exception
    assert "Too good to be true" in texts(at.error) and "echo_result" in texts(at.error)
    metadata = training(at).metadata
    assert metadata.too_good["questions"] == ["echo_result"]
    assert metadata.column_roles["echo_result"]["kept"] is True
    at.button(key="w_train_retrain_without").click().run()
    assert not at.exception and not at.error
    assert "echo_result" not in training(at).model.features_
    assert training(at).metadata.too_good is None
    assert DATASET.get(at.session_state).active.column_types["echo_result"] == "ignore"


def test_a_list_in_the_model_store_opens_as_the_current_list(project_root, demo_prepared, tmp_path, monkeypatch):
    monkeypatch.setenv("PSL_MODEL_DIR", str(tmp_path))
    from psl_triage.model_file.store import save_model
    from psl_triage.training.fit import train_list
    from psl_triage.training.options import TrainingOptions

    model, metadata = train_list(demo_prepared, DEMO_NAME, TrainingOptions(max_stages=2))
    stored = save_model(model, "Stored list", metadata, tmp_path)
    at = open_train_page(project_root)  # a new session, without data
    at.selectbox(key="w_train_open_choice").set_value(str(stored.path)).run()
    at.button(key="w_train_open").click().run()
    assert not at.exception and not at.error
    assert training(at).metadata.name == "Stored list"
    assert training(at).model.to_json() == stored.path.read_text(encoding="utf-8")
    assert "Opened from the model store" in texts(at.caption)


def test_the_sample_size_criteria_are_shown_before_training(page):
    assert not page.exception
    table = next(frame.value for frame in page.dataframe if "Rows needed" in frame.value.columns)
    assert list(table["Met"]) == ["no", "no", "no"]  # the demo's 297 rows against Riley's criteria
    assert "candidate parameters" in texts(page.markdown)
    assert "may still be trained" in texts(page.warning)
    needed = int(table["Rows needed"].max())
    page.number_input(key="w_train_anticipated_c").set_value(0.9).run()
    assert not page.exception and not page.error
    table = next(frame.value for frame in page.dataframe if "Rows needed" in frame.value.columns)
    assert int(table["Rows needed"].max()) < needed  # a good model's larger R² asks for fewer rows
    assert "anticipated C-statistic of 0.90" in texts(page.markdown)


def test_what_clinicians_know_reaches_the_list(project_root, demo_prepared):
    at = open_train_page(
        project_root, dataset=dataset_session(demo_prepared, name="demo"),
        directions={"age": "increasing"}, asks={"cp": "first", "thal": "never"},
    )
    assert any(block.label.startswith("What you know already") for block in at.expander)
    click_train(at)
    assert not at.exception and not at.error
    trained = training(at).model
    assert trained.monotone == {"age": "increasing"} and trained.required == ["cp"] and trained.forbidden == ["thal"]
    assert trained.features_[0] == "cp" and "thal" not in trained.features_
    assert "Trained with what you know already: asked first: 'cp'; never asked: 'thal'; points with a higher " \
        "value never fewer: 'age'." in texts(at.markdown)


def test_a_direction_for_a_categorical_column_is_explained_and_nothing_is_trained(project_root, demo_prepared):
    at = open_train_page(
        project_root, dataset=dataset_session(demo_prepared, name="demo"), directions={"cp": "increasing"},
    )
    click_train(at)
    assert not at.exception
    assert any("categorical: its categories have no order" in shown(error.value) for error in at.error)
    assert any("their order on the Data page (Ordered categories)" in shown(error.value) for error in at.error)
    assert training(at).model is None


def test_a_first_question_that_cannot_be_asked_is_explained_not_unexpected(project_root, demo_prepared):
    """blood_storage: a rare 0/1 column asked first stopped training with "Something unexpected
    went wrong (TypeError)". The page names the column and what to change."""
    at = open_train_page(project_root, dataset=dataset_session(demo_prepared, name="demo"), asks={"fbs": "first"})
    at.number_input(key="w_train_min_support").set_value(150)
    click_train(at)
    assert not at.exception and training(at).model is None
    said = texts(at.error)
    assert "fbs is to be asked first, but no question about it leaves at least 150 training rows" in said
    assert "Lower 'Training rows each answer must hold'" in said and "unexpected" not in said


def test_a_saved_list_opens_over_a_trained_one(project_root, demo_prepared, tmp_path, monkeypatch):
    """Opening a stored list while a list (and its name box) is on the page: no error, the
    opened list is current and its name is in the box."""
    monkeypatch.setenv("PSL_MODEL_DIR", str(tmp_path))
    at = open_train_page(project_root, dataset=dataset_session(demo_prepared))
    click_train(at)
    at.text_input(key="w_train_model_name").set_value("First list").run()
    at.button(key="w_train_save").click().run()
    stored = next(tmp_path.rglob("*.json"))
    click_train(at)
    assert training(at).metadata.name != "First list"
    at.selectbox(key="w_train_open_choice").set_value(str(stored)).run()
    at.button(key="w_train_open").click().run()
    assert not at.exception and not at.error, texts(at.error)
    assert training(at).model.to_json() == stored.read_text(encoding="utf-8")
    assert training(at).metadata.name == "First list"
    assert "Opened from the model store" in texts(at.caption)
    assert at.text_input(key="w_train_model_name").value == "First list"


def test_what_clinicians_know_does_not_carry_over_to_another_table(project_root, demo_prepared):
    at = open_train_page(project_root, dataset=dataset_session(demo_prepared, name="demo"), asks={"thal": "never"})
    assert training(at).asks == {"thal": "never"}
    DATASET.put(at.session_state, dataset_session(demo_prepared, name="another table with the same columns"))
    at.run()
    assert not at.exception and training(at).knowledge() == ({}, {})
    click_train(at)
    assert "thal" not in (training(at).model.forbidden or [])
