"""Training as the Train page does it: options, split, the list as Table 1, measures, model files."""

import json
import re
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

import psl_core.chance
from psl_core.errors import DataError, ModelFileError, PSLError
from psl_core.model import ProbabilisticScoringList
from psl_triage.model_file.files import download_file_name, read_model_upload
from psl_triage.model_file.metadata import ModelMetadata
from psl_triage.plots import performance_figure
from psl_triage.training.fit import split_rows, train_list
from psl_triage.training.options import MAX_ABS_SCORE, SETUPS, TrainingOptions, parse_score_set
from psl_triage.training.tables import list_table, performance_long, performance_table, readable_columns, total_label
from psl_triage.words.common import decision_text, percent, saved_cost_ratio_note
from psl_triage.words.train import MEASURES, list_end_text, score_set_label, shrinkage_text

DEMO_NAME = "Heart disease (UCI, Cleveland)"


@pytest.fixture(scope="module")
def trained(demo_prepared):
    return train_list(demo_prepared, DEMO_NAME, TrainingOptions())


# --------------------------------------------------------------------------- score sets


@pytest.mark.parametrize(
    "text, expected",
    [
        ("-2,-1,1,2", (-2, -1, 1, 2)),
        (" 2 ; -1  1 ", (-1, 1, 2)),
        ("±1, ±2, ±3", (-3, -2, -1, 1, 2, 3)),
        ("+3, −2", (-2, 3)),  # a typographic minus, as copied from a paper
        ("1,2,3,", (1, 2, 3)),
    ],
)
def test_custom_score_sets_in_the_forms_people_type(text, expected):
    assert parse_score_set(text) == expected


@pytest.mark.parametrize(
    "text, words",
    [
        ("", "empty"),
        (" , ", "empty"),
        ("1, two", "'two', which is not a whole number"),
        ("1.5, 2", "'1.5', which is not a whole number"),
        ("0, 1", "has 0"),
        ("1, -1, 1", "repeats 1"),
        (f"1, {MAX_ABS_SCORE + 1}", f"beyond ±{MAX_ABS_SCORE}"),
    ],
)
def test_a_bad_custom_score_set_says_what_is_wrong(text, words):
    with pytest.raises(PSLError, match=re.escape(words)):
        parse_score_set(text)


def test_score_set_labels_read_like_the_paper():
    assert score_set_label((-3, -2, -1, 1, 2, 3)) == "±{1, 2, 3}"
    assert score_set_label((1, 2, 3)) == "{1, 2, 3}"
    assert score_set_label((-2, 1)) == "{-2, 1}"


# --------------------------------------------------------------------------- options and split


def test_the_default_options_are_the_papers_setup():
    options = TrainingOptions()
    assert options.score_set == (-3, -2, -1, 1, 2, 3)
    assert (options.calibration, options.binarization, options.threshold_search) == (
        "isotonic", "in-search", "bisect",
    )
    assert options.max_stages is None and options.test_fraction == pytest.approx(1 / 3)
    assert json.loads(json.dumps(options.to_dict()))["score_set"] == [-3, -2, -1, 1, 2, 3]


@pytest.mark.parametrize(
    "change, words",
    [
        ({"test_fraction": 1.0}, "test fraction"),
        ({"test_fraction": -0.1}, "test fraction"),
        ({"test_fraction": float("nan")}, "test fraction"),
        ({"seed": -1}, "seed"),
        ({"max_stages": 0}, "at least 1"),
        ({"calibration": "platt"}, "calibration"),
        ({"score_set": (0, 1)}, "0"),
        ({"cost_ratio": 0}, "cost_ratio \\(M\\) must be a positive number, got 0"),
        ({"cost_ratio": float("nan")}, "cost_ratio"),
        ({"cost_ratio": "ten"}, "cost_ratio"),
    ],
)
def test_bad_options_are_refused_with_a_message(change, words):
    with pytest.raises(PSLError, match=words):
        TrainingOptions(**change)


def test_the_split_is_stratified_and_repeatable(demo_prepared):
    X_train, X_test, y_train, y_test = split_rows(demo_prepared.X, demo_prepared.y, 1 / 3, seed=0)
    assert len(y_test) == 99 and len(y_train) == len(demo_prepared.y) - 99
    assert y_test.mean() == pytest.approx(demo_prepared.y.mean(), abs=0.01)
    assert set(X_train.index).isdisjoint(X_test.index)
    again = split_rows(demo_prepared.X, demo_prepared.y, 1 / 3, seed=0)[1]
    assert list(again.index) == list(X_test.index)
    assert list(split_rows(demo_prepared.X, demo_prepared.y, 1 / 3, seed=1)[1].index) != list(X_test.index)


def test_a_test_fraction_of_zero_trains_on_every_row(demo_prepared):
    X_train, X_test, y_train, y_test = split_rows(demo_prepared.X, demo_prepared.y, 0, seed=0)
    assert X_test is None and y_test is None and len(y_train) == len(demo_prepared.y)


def test_a_test_part_too_small_for_both_classes_is_explained(demo_prepared):
    with pytest.raises(DataError, match="too few to hold both outcome classes"):
        split_rows(demo_prepared.X, demo_prepared.y, 0.001, seed=0)


# --------------------------------------------------------------------------- training


def test_training_records_the_options_the_rows_and_both_measures(demo_prepared, trained):
    model, metadata = trained
    options = metadata["training_options"]
    assert options["n_train"] + options["n_test"] == demo_prepared.n_rows_after
    assert options["n_test"] == 99 and metadata["source"] == "trained"
    assert metadata["dataset"]["name"] == DEMO_NAME
    for part in ("train", "test"):
        assert len(metadata["performance"][part]["auc"]) == model.n_stages_
    json.dumps(metadata)  # the model file must be able to hold it


def test_training_saves_m_with_the_list_and_measures_the_loss_with_it(demo_prepared, trained):
    _, default = trained
    assert default["decision"] == {"cost_ratio": 10.0}
    assert "cost_ratio" not in default["training_options"]  # one place for M in the file
    model, metadata = train_list(demo_prepared, DEMO_NAME, TrainingOptions(cost_ratio=1.0))
    assert metadata["decision"] == {"cost_ratio": 1.0}
    assert model.to_json({}) == trained[0].to_json({})  # the list is the same for every M
    # The recorded expected loss is the one of this M: min(1 - p, M p) per patient.
    assert metadata["performance"]["test"]["expected_loss"] != default["performance"]["test"]["expected_loss"]
    loaded = read_model_upload(model.to_json(metadata).encode(), "m1.json")
    assert loaded.metadata_["decision"] == {"cost_ratio": 1.0}
    assert decision_text(ModelMetadata.coerce(loaded.metadata_)).startswith("Saved with M = 1: a missed case counts as much as 1 false alarm")
    assert "50.0%" in decision_text(ModelMetadata.coerce(loaded.metadata_))
    assert saved_cost_ratio_note(ModelMetadata.coerce(loaded.metadata_)) == "This list was saved with M = 1."


def test_a_list_saved_before_m_was_kept_reads_as_the_papers_m():
    assert decision_text(ModelMetadata.coerce({})).startswith("Saved before lists carried their M")
    assert "M = 10" in decision_text(ModelMetadata.coerce({})) and "9.1%" in decision_text(ModelMetadata.coerce({}))
    assert "the paper's 10" in saved_cost_ratio_note(ModelMetadata.coerce({"name": "old"}))


@pytest.mark.parametrize("loss", ["nested_cv_brier", "nested_cv_log_loss"])
def test_the_nested_criteria_reach_the_learner_and_train(demo_prepared, loss):
    options = TrainingOptions(**dict(SETUPS["recommended"], loss=loss), max_stages=2)
    assert options.estimator().loss == loss and options.setup() == "custom"
    model, metadata = train_list(demo_prepared, DEMO_NAME, options)
    assert model.loss == loss and 1 <= model.n_stages_ - 1 <= 2
    assert metadata["training_options"]["loss"] == loss
    assert read_model_upload(model.to_json(metadata).encode(), "nested.json").loss == loss


def test_training_reports_every_stage_and_honours_max_stages(demo_prepared):
    seen = []
    model, metadata = train_list(
        demo_prepared, DEMO_NAME, TrainingOptions(max_stages=3, test_fraction=0),
        progress=lambda k, n: seen.append((k, n)),
    )
    assert model.n_stages_ == 4
    assert seen == [(1, 3), (2, 3), (3, 3)]
    assert "test" not in metadata["performance"] and metadata["training_options"]["n_test"] == 0


def test_the_same_seed_learns_the_same_list(demo_prepared, trained):
    model, _ = trained
    again, _ = train_list(demo_prepared, DEMO_NAME, TrainingOptions())
    assert again.to_json({}) == model.to_json({})


# --------------------------------------------------------------------------- the list as Table 1


@pytest.mark.parametrize(
    "p, text", [(0.0, "0%"), (0.004, "<1%"), (0.006, "1%"), (0.344, "34%"), (0.996, ">99%"), (1.0, "100%")]
)
def test_percentages_never_round_a_small_risk_to_zero(p, text):
    assert percent(p, 0) == text


def test_the_table_has_a_row_per_stage_and_the_probability_of_every_reachable_total(trained):
    model, metadata = trained
    columns = readable_columns(metadata)
    table = list_table(model, columns)
    all_totals = np.unique(np.concatenate(model.stage_totals_))
    assert list(table.columns) == ["Stage", "Feature", "Points", "Brier score (cross-validated)", "Recommended stop"] + [
        total_label(t) for t in all_totals
    ]
    assert table["Recommended stop"].tolist().index("★") == model.recommended_stages_
    assert table["Brier score (cross-validated)"].tolist() == [f"{v:.3f}" for v in model.validation_brier_]
    assert table["Stage"].tolist() == list(range(model.n_stages_))
    assert table["Feature"].iloc[1] == model.describe_stage(1, columns)
    assert table["Points"].iloc[1] == f"{model.scores_[0]:+d}"
    for k in range(model.n_stages_):
        reachable = dict(zip(model.stage_totals_[k].tolist(), model.stage_probabilities_[k]))
        for t in all_totals.tolist():
            expected = percent(reachable[t], 0) if t in reachable else ""
            assert table.loc[k, total_label(t)] == expected


def test_the_features_read_in_plain_words_with_units(trained):
    model, metadata = trained
    features = " | ".join(list_table(model, readable_columns(metadata))["Feature"])
    assert "Thallium stress test = normal" in features
    assert re.search(r"ST depression [>≤] [0-9.]+ mm", features)


def test_interval_cells_hold_the_estimate_inside_its_bounds(trained):
    model, metadata = trained
    table = list_table(model, readable_columns(metadata), intervals=True)
    cells = [c for c in table.iloc[:, 5:].to_numpy().ravel() if c]
    assert cells
    for cell in cells:
        match = re.fullmatch(r"([<>]?)(\d+)% \(([<>]?)(\d+)–([<>]?)(\d+)%\)", cell)
        assert match, cell
        point, lower, upper = int(match[2]), int(match[4]), int(match[6])
        assert lower <= point <= upper


def test_a_list_without_readable_names_uses_the_column_names(trained):
    model, _ = trained
    assert list_table(model)["Feature"].iloc[1] == model.describe_stage(1)


def test_malformed_column_names_in_a_file_are_skipped_not_fatal():
    columns = readable_columns(
        {"columns": {"a": "not a dict", "b": {"label": 3, "unit": "mm", "category_labels": [1]}, "c": {"label": "C"}}}
    )
    assert columns == {
        "b": {"label": None, "unit": "mm", "category_labels": {}},
        "c": {"label": "C", "unit": None, "category_labels": {}},
    }
    assert readable_columns({"columns": []}) == {} and readable_columns(None) == {}


# --------------------------------------------------------------------------- measures


def test_the_measures_table_has_train_and_test_per_measure(trained):
    model, metadata = trained
    long = performance_long(metadata)
    assert set(long["data"]) == {"train", "test"} and set(long["measure"]) == set(MEASURES.values())
    table = performance_table(long)
    assert table["Stage"].tolist() == list(range(model.n_stages_))
    assert list(table.columns[1:]) == [f"{m} ({d})" for m in MEASURES.values() for d in ("train", "test")]
    assert table["AUC (test)"].tolist() == pytest.approx(metadata["performance"]["test"]["auc"])
    assert table["Brier score (train)"].iloc[0] > table["Brier score (train)"].iloc[-1]


def test_the_chart_has_one_panel_per_measure_and_a_line_per_part(trained):
    _, metadata = trained
    figure = performance_figure(performance_long(metadata))
    assert {a.text for a in figure.layout.annotations} == set(MEASURES.values()) | {"base rate"}
    assert len(figure.data) == 2 * len(MEASURES)
    assert {trace.name for trace in figure.data} == {"train", "test"}


def test_each_panel_leaves_room_for_the_next_panels_own_tick_labels(trained):
    """Every panel has its own y scale and tick labels; with plotly's default 3 % between
    panels the Brier panel's "0.25" and the AUC panel's "1" sat on the panel before it
    (its last point and its "base rate" label; seen on gss2010.csv at 1400 px)."""
    _, metadata = trained
    layout = performance_figure(performance_long(metadata)).layout
    domains = [layout[name].domain for name in ("xaxis", "xaxis2", "xaxis3")]
    assert all(right[0] - left[1] >= 0.06 for left, right in zip(domains, domains[1:]))


def test_a_file_without_measures_gives_an_empty_table():
    long = performance_long({"performance": {"train": {"auc": "n/a"}}})
    assert long.empty and isinstance(performance_table(long), pd.DataFrame)


# --------------------------------------------------------------------------- names and files


def test_names_for_saving_and_downloading():
    def default_model_name(raw):  # the name proposed when saving
        return ModelMetadata.from_dict(raw).default_name

    assert default_model_name({"name": "Chest pain", "dataset": {"name": "x"}}) == "Chest pain"
    assert default_model_name({"dataset": {"name": DEMO_NAME}}) == DEMO_NAME
    assert default_model_name({}) == "PSL"
    assert download_file_name("Chest pain triage") == "chest-pain-triage.json"
    assert download_file_name("???") == "psl-model.json"


def test_an_uploaded_model_file_loads_back_to_the_same_list(trained):
    model, metadata = trained
    loaded = read_model_upload(model.to_json(metadata).encode("utf-8"), "mine.json")
    assert loaded.to_json(metadata) == model.to_json(metadata)
    assert loaded.metadata_["dataset"]["name"] == DEMO_NAME


@pytest.mark.parametrize(
    "data, words",
    [
        (b'{"format": "psl", "stages": [', "cannot be read"),
        (b"\xff\xfe\x00garbage", "not UTF-8"),
        (b'{"hello": "world"}', "it is not a model file"),
        (b"[1, 2, 3]", "must hold a JSON object"),
    ],
)
def test_a_file_that_is_not_a_model_is_refused_naming_the_file(data, words):
    with pytest.raises(ModelFileError, match=rf"broken\.json.*{words}"):
        read_model_upload(data, "broken.json")


# --------------------------------------------------------------------------- list length


@pytest.mark.parametrize(
    "options, words",
    [
        ({"max_stages": 2}, "The list has 2 questions: the maximum number of stages asked for."),
        ({"max_feature_uses": 1}, "The list has 22 questions about 13 columns: no question was left to add (a "
                                  "category of a column is a question of its own)."),
        ({"max_feature_uses": 2, "loss": "entropy"}, "a numeric column may be asked up to 2 times"),
        ({"loss": "cv_brier", "max_feature_uses": 2}, "past the recommended stop, the next question lowered the "
                                                      "cross-validated criterion by no more than 2 standard errors"),
        ({"min_support": 200}, "The list ended before a first question: no question splits the training "
                               "rows into answers of at least 200 rows each"),
    ],
)
def test_the_length_of_a_list_is_explained(demo_prepared, options, words):
    model, _ = train_list(demo_prepared, DEMO_NAME, TrainingOptions(**options))
    assert words in list_end_text(model)


def test_the_length_agrees_with_the_held_out_column_past_the_recommended_stop(demo_prepared, monkeypatch):
    """A list that goes on past its recommended stop (here without the chance rule of
    psl_core.chance, which ends this one at the stop; a table whose later questions beat
    chance goes on).
    The walk on MASS/birthwt and survival/pbc: "no further question improved the
    probabilities on held-out training rows" stood above a Held-out Brier column that rises
    after the recommended stop. The search's end and the recommendation are told apart."""
    from psl_triage.training.options import SETUPS
    from psl_triage.words.train import list_reading

    monkeypatch.setattr(psl_core.chance, "REQUIRED_Z", -np.inf)
    model, metadata = train_list(demo_prepared, DEMO_NAME, TrainingOptions(**SETUPS["recommended"]))
    stage = model.recommended_stages_
    assert model.end_reason_ == "no_gain" and 0 < stage < model.n_stages_ - 1
    assert model.validation_brier_[stage + 1] > model.validation_brier_[stage]  # the column rises after ★
    length = list_reading(model, ModelMetadata.coerce(metadata))[0]
    assert "improved the probabilities on held-out" not in length
    assert f"does best after {stage} questions among the lengths every part's list reached, the recommended stop (★)" in length
    assert f"Triage asks the first {stage} by default" in length
    # A yes/no list: the sentence claims no gain after ★ only where the column shows none.
    brier = model.validation_brier_
    lower = [k for k in range(stage + 1, len(brier)) if brier[k] < brier[stage]]
    assert ("do not improve its probabilities" in length) == (not lower)


def test_the_two_brier_scores_are_named_for_what_they_are(demo_prepared, monkeypatch):
    """(A list that goes on past its recommended stop, as in the test above.)
    The walk: the list's table said "Held-out Brier" (the internal cross-validation's) and
    the measures' table "Brier score (test)" (the test rows the page held out), two held-out
    scores told apart by nothing. Each is named for what it is, the sentence on the stop
    names the list table's column as the table does."""
    from psl_triage.words.train import list_reading

    monkeypatch.setattr(psl_core.chance, "REQUIRED_Z", -np.inf)
    model, metadata = train_list(demo_prepared, DEMO_NAME, TrainingOptions(**SETUPS["recommended"]))
    columns = list(list_table(model, readable_columns(metadata)).columns)
    measures = list(performance_table(performance_long(metadata)).columns)
    assert "Brier score (cross-validated)" in columns and "Brier score (test)" in measures
    assert not [name for name in columns + measures if "held" in name.lower()]
    assert "(the column Brier score (cross-validated) below)" in list_reading(model, ModelMetadata.coerce(metadata))[0]


def test_the_length_names_the_later_stages_only_some_folds_reached():
    """survival/colon, deaths at 1826 days: "the list does best after 1 question ... the
    questions after it do not improve its probabilities" stood above a Held-out Brier column
    reading ★ 0.236 at 1 question and 0.229 at 8 and 9, stages only some folds' lists reached
    (the recommendation counts only stages every fold's list reached). The sentence says that
    rule and names those stages."""
    from psl_triage.words.train import recommended_stop_text

    model = SimpleNamespace(n_stages_=11, recommended_stages_=1, validation_brier_=np.array(  # the column as shown
        [0.25, 0.236, 0.24, 0.238, 0.24, 0.24, 0.238, 0.236, 0.229, 0.229, np.nan]))
    text = recommended_stop_text(model)
    assert "does best after 1 question among the lengths every part's list reached" in text
    assert "do not improve" not in text
    assert "Stages 8 and 9 score lower in that column, but only some parts' lists were that long" in text
    assert "Triage asks only the first by default" in text


def test_a_list_from_before_the_reason_was_recorded_has_no_explanation(trained):
    model, metadata = trained
    document = json.loads(model.to_json(metadata))
    del document["end_reason"]
    assert list_end_text(read_model_upload(json.dumps(document).encode(), "old.json")) is None


def test_a_list_that_recommends_no_question_says_so_with_the_evidence(demo_prepared, monkeypatch):
    # Pure noise (seed 0): the internal cross-validation finds no question that beats the
    # base rate, and the note gives both held-out scores with their standard errors. (With
    # the chance rule of psl_core.chance this list asks no question at all; the note is for a
    # list whose later questions beat chance but not the base rate.)
    monkeypatch.setattr(psl_core.chance, "REQUIRED_Z", -np.inf)
    from psl_core import ProbabilisticScoringList
    from psl_triage.words.common import percent
    from psl_triage.words.train import no_gain_note

    rng = np.random.default_rng(0)
    X, y = rng.standard_normal((150, 4)), (rng.random(150) < 0.4).astype(int)
    noise = ProbabilisticScoringList(recommend_folds=5).fit(X, y)
    assert noise.recommended_stages_ == 0 and len(noise.literals_) > 0
    note = no_gain_note(noise, "disease")
    brier, se = noise.validation_brier_, noise.validation_brier_se_
    best = 1 + int(np.nanargmin(brier[1:]))
    assert "no question beat the base rate" in note and "asking nothing" in note
    assert f"{brier[0]:.3f} ± {se[0]:.3f}" in note and f"{brier[best]:.3f}" in note
    assert f"base rate of disease ({percent(noise.stage_probabilities_[0][0], 1)})" in note
    # A list whose questions do help, or one fitted without the internal validation: no note.
    helpful, _ = train_list(demo_prepared, "demo", TrainingOptions(max_stages=4))
    assert helpful.recommended_stages_ > 0 and no_gain_note(helpful, "disease") is None
    assert no_gain_note(ProbabilisticScoringList().fit(X, y), "disease") is None


def test_the_shrinkage_is_said_with_its_factor_or_not_at_all():
    rng = np.random.default_rng(5)
    X = pd.DataFrame({f"x{j}": rng.normal(0, 1, 90).round(2) for j in range(5)})
    y = (rng.random(90) < 1 / (1 + np.exp(-0.8 * X["x0"]))).astype(int)
    model = ProbabilisticScoringList(recommend_folds=5).fit(X, y)
    stage = model.recommended_stages_
    assert stage > 0 and model.shrinkage_[stage] < 1
    text = shrinkage_text(model)
    assert f"calibration slope of {model.shrinkage_[stage]:.2f}" in text
    assert f"recommended {stage} question" in text
    assert shrinkage_text(ProbabilisticScoringList(recommend_folds=5, shrinkage=None).fit(X, y)) is None
    assert shrinkage_text(ProbabilisticScoringList().fit(X, y)) is None


def test_the_list_table_shows_question_costs_when_the_list_has_them(demo_prepared):
    costs = {"ca": 20.0, "thal": 20.0, "chol": 2.0}
    model, _ = train_list(demo_prepared, "demo", TrainingOptions(max_stages=5, question_costs=costs))
    table = list_table(model)
    assert table["Cost"].tolist() == [""] + [f"{c:g}" for c in model.stage_costs_]
    plain, _ = train_list(demo_prepared, "demo", TrainingOptions(max_stages=5))
    assert "Cost" not in list_table(plain).columns


def test_a_list_that_barely_beats_the_base_rate_says_so(demo_prepared):
    """Issue 26, item 12: a weak signal in many rows gives a list whose held-out Brier score is
    a few per cent below the base rate's; the sentence says so with both scores."""
    from psl_triage.words.train import small_gain_text

    rng = np.random.default_rng(0)
    n = 3000
    X = pd.DataFrame({f"x{j}": rng.normal(size=n).round(2) for j in range(4)})
    y = (rng.random(n) < 1 / (1 + np.exp(-(-2.8 + 0.35 * X["x0"])))).astype(int)
    weak = ProbabilisticScoringList(recommend_folds=5, random_state=0).fit(X, y)
    brier = weak.validation_brier_
    assert weak.recommended_stages_ and brier[weak.recommended_stages_] > 0.9 * brier[0]
    said = small_gain_text(weak)
    assert said.startswith("It barely beats the base rate")
    assert f"{brier[weak.recommended_stages_]:.3f} against {brier[0]:.3f}" in said
    strong, _ = train_list(demo_prepared, DEMO_NAME, TrainingOptions())
    assert small_gain_text(strong) is None


def test_the_metric_charts_keep_their_natural_scale_and_show_the_base_rate(trained):
    """Issue 26, item 11: a Brier change of 0.0526 to 0.0509 must not look like a cliff."""
    from psl_triage.plots import performance_figure
    from psl_triage.training.tables import performance_long

    _, metadata = trained
    long = performance_long(metadata)
    figure = performance_figure(long)
    ranges = [figure.layout[axis].range for axis in ("yaxis", "yaxis2", "yaxis3")]
    assert ranges[0][0] == 0 and ranges[1][0] == 0 and ranges[2][0] == 0.5  # entropy, Brier, AUC
    assert ranges[1][1] >= 0.25
    brier0 = long[(long["measure"] == "Brier score") & (long["stage"] == 0) & (long["data"] == "train")]["value"]
    lines = {shape.yref: shape.y0 for shape in figure.layout.shapes}
    assert lines["y2"] == pytest.approx(float(brier0.iloc[0])) and lines["y3"] == 0.5
    assert sum(a.text == "base rate" for a in figure.layout.annotations) == 3


def test_the_table_says_which_stages_are_held_at_the_base_rate():
    """blood_storage at 24 months: "1 Age > 52.35 -3" changed no risk (its stage's probabilities
    were shrunk all the way to the base rate, as at stages 7, 9 and 10) and the table said
    nothing. It marks those stages and the paragraph above it names them, from the rule Triage
    uses at the bedside (psl_core.recommend.base_rate_stages)."""
    from psl_core.recommend import base_rate_stages
    from psl_triage.words.train import BASE_RATE_COLUMN, HELD_AT_BASE_RATE, list_reading

    rng = np.random.default_rng(36)
    X = pd.DataFrame({f"x{j}": rng.normal(0, 1, 120).round(2) for j in range(5)})
    y = (rng.random(120) < 1 / (1 + np.exp(-0.8 * X["x0"]))).astype(int)
    # Since the factor is the held-out slope itself (issue 37) such a list is rare: stage 1's factor
    # is set to 0 the way shrinkage="cv" applies a factor (as in test_triage_session).
    model = ProbabilisticScoringList(recommend_folds=5, shrinkage=None).fit(X, y)
    factors = np.ones(model.n_stages_)
    factors[1] = 0.0
    base = model.stage_probabilities_[0][0]
    model.stage_probabilities_ = [base + s * (q - base) for s, q in zip(factors, model.stage_probabilities_)]
    model.shrinkage_ = factors
    held = base_rate_stages(model.shrinkage_)
    assert 1 in held and 2 not in held
    table = list_table(model)
    assert [k for k, mark in enumerate(table[BASE_RATE_COLUMN]) if mark == HELD_AT_BASE_RATE] == held
    for k in held:  # every reachable total of such a stage reads the base rate
        assert set(model.stage_probabilities_[k]) == {model.stage_probabilities_[0][0]}
    reading = " ".join(list_reading(model, ModelMetadata()))
    assert f"{held[0]}" in reading and "pulled all the way to the base rate" in reading
    # A list without such a stage keeps its table as it was.
    unshrunk = ProbabilisticScoringList(recommend_folds=5, shrinkage=None).fit(X, y)
    assert BASE_RATE_COLUMN not in list_table(unshrunk).columns
    assert "all the way to the base rate" not in " ".join(list_reading(unshrunk, ModelMetadata()))


def test_a_slight_shrinkage_is_not_said_as_a_list_that_promises_too_much():
    """openintro/yrbss (9,047 training rows) has a slope of 0.99: "a little too far", not the
    sentence on lists learned from few patients, which stays for a slope of 0.57."""

    def said(factor):
        return shrinkage_text(SimpleNamespace(shrinkage_=np.array([1.0, 1.0, factor]), recommended_stages_=2))

    assert "a little too far" in said(0.99) and "few patients" not in said(0.99)
    assert "calibration slope of 0.99" in said(0.99)
    assert "were too far" in said(0.57) and "promises more than it keeps" in said(0.57)
