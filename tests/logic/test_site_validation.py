"""Another site's table for a list (psl_triage.judging.validation): matching, coding, unit checks, saving."""

import dataclasses
import json

import numpy as np
import pandas as pd
import pytest

from psl_core.errors import DataError
from psl_triage.data.demo import load_demo
from psl_triage.judging.validation import (
    match_columns,
    needed_columns,
    outcome_defaults,
    save_recalibrated,
    site_table,
    unit_checks,
)
from psl_triage.training.fit import train_list
from psl_triage.training.options import TrainingOptions


@pytest.fixture(scope="module")
def trained(demo_prepared):
    return train_list(demo_prepared, "Heart disease (UCI, Cleveland)", TrainingOptions())  # the whole list: every kind of column


@pytest.fixture(scope="module")
def cleveland():
    frame, _ = load_demo()
    return frame


def test_training_records_ranges_and_codings(trained):
    _, metadata = trained
    chol = metadata["columns"]["chol"]["training_range"]
    assert chol["min"] <= chol["q25"] <= chol["median"] <= chol["q75"] <= chol["max"] and chol["n"] > 0
    assert metadata["columns"]["sex"]["one_value"] == 1
    assert metadata["dataset"]["positive_class"] == [1]
    json.dumps(metadata)  # JSON-ready


def test_columns_match_by_name_then_loosely(trained):
    model, metadata = trained
    needed = needed_columns(model, metadata)
    names = [need.name for need in needed]
    assert names == list(dict.fromkeys(str(literal.column) for literal in model.literals_))
    assert {"cp", "age", "thal"} <= set(names)
    others = [name for name in names if name not in ("cp", "age", "thal")]
    matched = match_columns(needed, ["C P", "age", "Age", "THAL"] + others)
    assert matched["cp"] == "C P" and matched["thal"] == "THAL"  # case and spaces ignored
    assert matched["age"] == "age"  # the exact name wins over "Age"
    assert all(matched[name] == name for name in others)
    assert match_columns(needed, ["Age ", " AGE"] + others)["age"] is None  # two loose matches: ask


def test_the_training_table_codes_back_to_the_training_columns(trained, cleveland, demo_prepared):
    model, metadata = trained
    needed = needed_columns(model, metadata)
    table = site_table(model, metadata, cleveland, match_columns(needed, cleveland.columns), "heart_disease", [1])
    assert table.y.sum() == int((cleveland["num"] > 0).sum())
    complete = table.X.notna().all(axis=1)
    rows = demo_prepared.X.index
    for need in needed:
        expected = demo_prepared.X.loc[rows, need.name].astype(object if need.kind == "category" else float)
        got = table.X.loc[rows, need.name]
        assert list(got.astype(str)) == list(expected.astype(str)), need.name
    assert complete.sum() == len(demo_prepared.y)
    assert unit_checks(metadata, table) == []


def test_a_site_table_s_fingerprint_changes_with_its_patients_not_with_a_copy(trained, cleveland):
    """Validate and Monitor keep a costly result (a bootstrap, a simulation) per site table's
    fingerprint: a copy of the same rows finds it, another patient's answers or outcome do not."""
    model, metadata = trained
    table = site_table(model, metadata, cleveland, match_columns(needed_columns(model, metadata), cleveland.columns),
                       "heart_disease", [1])
    same = dataclasses.replace(table, X=table.X.copy(), y=table.y.copy(), notes=["another note"])
    assert same.fingerprint == table.fingerprint
    first, second = np.flatnonzero(table.y == 0)[0], np.flatnonzero(table.y == 1)[0]
    swapped = table.X.copy()
    swapped.iloc[[first, second]] = table.X.iloc[[second, first]].to_numpy()
    assert dataclasses.replace(table, X=swapped).fingerprint != table.fingerprint
    y = table.y.copy()
    y[first] = 1
    assert dataclasses.replace(table, y=y).fingerprint != table.fingerprint


def test_a_change_of_unit_is_flagged(trained, cleveland):
    model, metadata = trained
    mmol = cleveland.assign(chol=cleveland["chol"] / 38.67, age=cleveland["age"] * 12)
    needed = needed_columns(model, metadata)
    table = site_table(model, metadata, mmol, match_columns(needed, mmol.columns), "heart_disease", [1])
    warnings = unit_checks(metadata, table)
    assert len(warnings) == 2
    assert "column 'chol'" in " ".join(warnings) and "column 'age'" in " ".join(warnings)


def test_an_old_file_without_ranges_skips_the_unit_check_with_a_note(trained, cleveland):
    model, metadata = trained
    old = dict(metadata, columns={k: {key: v for key, v in info.items() if key != "training_range"}
                                  for k, info in metadata["columns"].items()})
    table = site_table(model, old, cleveland, match_columns(needed_columns(model, old), cleveland.columns),
                       "heart_disease", [1])
    assert any("no training ranges" in warning for warning in unit_checks(old, table))


def test_binary_columns_are_coded_with_the_saved_yes_value(trained, cleveland):
    model, metadata = trained
    needed = needed_columns(model, metadata)
    texts = cleveland.assign(sex=cleveland["sex"].map({1.0: "1", 0.0: "0"}))
    table = site_table(model, metadata, texts, match_columns(needed, texts.columns), "heart_disease", [1])
    np.testing.assert_array_equal(table.X["sex"].to_numpy(), cleveland["sex"].to_numpy())
    recoded = cleveland.assign(sex=cleveland["sex"].map({1.0: "m", 0.0: "f"}))
    old = dict(metadata, columns=dict(metadata["columns"], sex={"kind": "binary", "label": "Sex"}))
    with pytest.raises(DataError, match="does not say which of them means yes"):
        site_table(model, old, recoded, match_columns(needed, recoded.columns), "heart_disease", [1])


def test_a_missing_column_and_bad_choices_are_explained(trained, cleveland):
    model, metadata = trained
    needed = needed_columns(model, metadata)
    mapping = dict(match_columns(needed, cleveland.columns), **{needed[0].name: None})
    table = site_table(model, metadata, cleveland, mapping, "heart_disease", [1])
    assert table.X[needed[0].name].isna().all()
    assert any("not in this table" in note for note in table.notes)
    with pytest.raises(DataError, match="count as positive"):
        site_table(model, metadata, cleveland, mapping, "heart_disease", [])
    with pytest.raises(DataError, match="not in the table"):
        site_table(model, metadata, cleveland, mapping, "outcome", [1])


def test_outcome_defaults_use_the_saved_outcome(trained, cleveland):
    _, metadata = trained
    assert outcome_defaults(metadata, cleveland) == ("heart_disease", [1])
    assert outcome_defaults(metadata, cleveland.drop(columns=["heart_disease"])) == (None, [])


def test_a_recalibrated_list_is_saved_with_its_origin(trained, cleveland, tmp_path):
    model, metadata = trained
    metadata = dict(metadata, name="Heart", version=1, created="2026-01-01T00:00:00+00:00")
    needed = needed_columns(model, metadata)
    table = site_table(model, metadata, cleveland, match_columns(needed, cleveland.columns), "heart_disease", [1])
    new, meta, stored = save_recalibrated(model, metadata, table, "cleveland-again.csv", 2, directory=tmp_path)
    assert stored.name == "Heart" and stored.version == 1  # the first in this (empty) store
    assert meta["origin"]["recalibrated_from"] == {"name": "Heart", "version": 1, "created": "2026-01-01T00:00:00+00:00"}
    assert meta["origin"]["table"] == {"name": "cleveland-again.csv", "n_rows": len(cleveland)}
    assert new.literals_ == model.literals_[:2] and "performance" not in meta
    np.testing.assert_array_equal(new.stage_totals_[2], model.stage_totals_[2])
    assert pd.notna(meta["origin"]["date"])


def test_one_outcome_only_is_said_plainly(trained, cleveland):
    from psl_core.validation import validation_report
    from psl_triage.words.validate import measures_table, report_sentences

    model, metadata = trained
    sick = cleveland[cleveland["heart_disease"] == 1]
    table = site_table(model, metadata, sick, match_columns(needed_columns(model, metadata), sick.columns),
                       "heart_disease", [1])
    report = validation_report(model, table.X, table.y, stage=2, n_boot=20)
    assert "All these patients have the same outcome" in " ".join(report_sentences(report))
    shown = measures_table(report).set_index("Measure")
    assert shown.loc["AUC", "Estimate"] == "–" and shown.loc["Calibration slope", "Estimate"] == "–"


@pytest.fixture(scope="module")
def breast():
    """A list learned on tumour size in mm and a grade coded 2/3 (yes = 3), and a second site
    that codes size in bands and grade 1 to 3."""
    from psl_triage.data import infer_column_types, prepare_training_data

    rng = np.random.default_rng(3)
    n = 600
    frame = pd.DataFrame({"size": rng.integers(5, 90, n).astype(float), "grade": rng.choice([2, 3], n)})
    logit = (frame["size"] - 35) / 12 + 1.5 * (frame["grade"] == 3) - 0.5
    frame["recur"] = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
    prepared = prepare_training_data(frame, infer_column_types(frame[["size", "grade"]]), "recur", 1)
    model, metadata = train_list(prepared, "first site", TrainingOptions(max_stages=4))
    assert {literal.column for literal in model.literals_} == {"size", "grade"}
    site = frame.assign(
        size=pd.cut(frame["size"], [0, 20, 50, 100], labels=["<=20", "20-50", ">50"]).astype(str),
        grade=np.where(frame["grade"] == 3, 3, rng.choice([1, 2], n)),
    )
    return model, metadata, site


def test_a_coding_mismatch_names_the_column_and_both_codings(breast):
    from psl_triage.judging.validation import coding_mismatches
    from psl_triage.words import shown

    model, metadata, site = breast
    mapping = match_columns(needed_columns(model, metadata), site.columns)
    found = {m.need.name: m for m in coding_mismatches(model, metadata, site, mapping)}
    assert set(found) == {"size", "grade"}
    grade = shown(found["grade"].message(metadata))
    assert "'grade'" in grade and "3 (yes), 2 (no) in the list" in grade and "1 is not in the list's coding" in grade
    size = shown(found["size"].message(metadata))
    assert "'size'" in size and "<=20" in size and "where the list learned numbers from 5 to 89" in size


def test_mapped_values_and_bands_code_the_table_like_the_training_one(breast):
    from psl_triage.judging.validation import MISSING, coding_mismatches

    model, metadata, site = breast
    mapping = match_columns(needed_columns(model, metadata), site.columns)
    maps = {"grade": {"1": "2"}, "size": {"<=20": 12.0, "20-50": 35.0, ">50": MISSING}}
    assert coding_mismatches(model, metadata, site, mapping, maps) == []
    table = site_table(model, metadata, site, mapping, "recur", [1], maps)
    np.testing.assert_array_equal(table.X["grade"], (site["grade"] == 3).astype(float))
    expected = site["size"].map({"<=20": 12.0, "20-50": 35.0, ">50": np.nan})
    np.testing.assert_array_equal(table.X["size"].to_numpy(), expected.to_numpy())
    assert not any("count as missing" in note for note in table.notes)


def test_the_unit_check_says_which_way_the_median_moved(trained, cleveland):
    model, metadata = trained
    shifted = cleveland.assign(oldpeak=cleveland["oldpeak"] / 4)
    needed = needed_columns(model, metadata)
    table = site_table(model, metadata, shifted, match_columns(needed, shifted.columns), "heart_disease", [1])
    said = " ".join(unit_checks(metadata, table))
    median = metadata["columns"]["oldpeak"]["training_range"]["median"]
    assert f"is 4.0 times smaller than the training median {median:g} mm" in said
    assert "times the training median" not in said


def test_numbers_at_the_site_sort_into_the_lists_bands():
    """Issue 26, item 3, the other way round: a list learned size in bands, the site has mm."""
    from psl_triage.data import infer_column_types, prepare_training_data
    from psl_triage.judging.validation import MISSING, band_map, coding_mismatches

    rng = np.random.default_rng(4)
    n = 600
    mm = rng.integers(3, 120, n)
    bands = pd.cut(mm, [0, 20, 50, 1000], labels=["<=20", "20-50", ">50"]).astype(str)
    frame = pd.DataFrame({"size": bands, "age": rng.integers(30, 80, n).astype(float)})
    logit = np.select([bands == ">50", bands == "20-50"], [1.5, 0.3], -1.0)
    frame["recur"] = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
    prepared = prepare_training_data(frame, infer_column_types(frame[["size", "age"]]), "recur", 1)
    model, metadata = train_list(prepared, "bands", TrainingOptions(max_stages=3))
    assert "size" in {literal.column for literal in model.literals_}
    site = frame.assign(size=mm.astype(float))
    mapping = match_columns(needed_columns(model, metadata), site.columns)
    (mismatch,) = coding_mismatches(model, metadata, site, mapping)
    sorted_ = band_map(mismatch)
    assert sorted_["20"] == "<=20" and sorted_["21"] == "20-50" and sorted_["50"] == "20-50"
    assert sorted_["51"] == ">50" and sorted_["3"] == "<=20" and MISSING not in sorted_.values()
    assert coding_mismatches(model, metadata, site, mapping, {"size": sorted_}) == []
    table = site_table(model, metadata, site, mapping, "recur", [1], {"size": sorted_})
    assert table.X["size"].tolist() == list(bands)


def test_values_never_seen_count_as_the_pooled_category_when_the_list_pooled_rare_ones():
    from psl_triage.data import POOLED_CATEGORY, infer_column_types, prepare_training_data

    rng = np.random.default_rng(4)
    clinics = np.array([f"clinic {i}" for i in range(45)])
    clinic = rng.choice(clinics, 1500, p=np.r_[np.full(15, 0.06), np.full(30, 0.1 / 30)])
    rare = ~np.isin(clinic, clinics[:15])
    frame = pd.DataFrame({"clinic": clinic, "age": rng.integers(20, 90, 1500),
                          "outcome": (rng.random(1500) < np.where(rare, 0.8, 0.2)).astype(int)})
    prepared = prepare_training_data(frame, infer_column_types(frame), "outcome", 1)
    model, metadata = train_list(prepared, "clinics", TrainingOptions(max_stages=2))
    assert ("clinic", POOLED_CATEGORY) in {(literal.column, literal.category) for literal in model.literals_}
    site = pd.DataFrame({"clinic": ["clinic 0", "clinic 99", None], "age": [50, 60, 70], "outcome": [0, 1, 1]})
    table = site_table(model, metadata, site, {"clinic": "clinic", "age": "age"}, "outcome", [1])
    assert table.X["clinic"].tolist()[:2] == ["clinic 0", POOLED_CATEGORY] and pd.isna(table.X["clinic"].iloc[2])
    assert any("(clinic 99); they count as 'other (pooled)'" in note for note in table.notes)


def test_a_shift_of_case_mix_is_not_called_a_change_of_unit(trained, cleveland):
    """Rotterdam -> GBSG: nodes' median 1 -> 3 (a node-positive cohort), its spread about the
    same; a unit scales the spread with the median, a case mix moves the median alone."""
    model, metadata = trained
    training = metadata["columns"]["oldpeak"]["training_range"]
    shifted = cleveland.assign(oldpeak=cleveland["oldpeak"] + 2 * training["median"])  # median x3, same spread
    needed = needed_columns(model, metadata)
    table = site_table(model, metadata, shifted, match_columns(needed, shifted.columns), "heart_disease", [1])
    assert "'oldpeak'" not in " ".join(unit_checks(metadata, table))


def test_a_mean_difference_within_chance_is_said_so(trained, cleveland):
    """The walk on rpart/stagec: "it under-estimates the risk here" beside an interval of
    observed − expected from -0.054 to 0.115. A difference whose interval holds 0 is within
    chance; one whose interval does not is still called an under-estimate."""
    from psl_core.validation import validation_report
    from psl_triage.words.validate import report_sentences

    model, metadata = trained
    needed = needed_columns(model, metadata)

    def read(rows):
        table = site_table(model, metadata, rows, match_columns(needed, rows.columns), "heart_disease", [1])
        report = validation_report(model, table.X, table.y, stage=2, n_boot=50)
        return report.measures.loc["observed_minus_expected"], report_sentences(report)[1]

    (difference, low, high, *_), said = read(cleveland.sample(60, random_state=0))
    assert difference > 0.02 and low < 0 < high
    assert "under-estimates the risk here." not in said.replace("no sign that it under-estimates the risk here", "")
    assert f"within chance (the 95 % interval of observed − expected, {low:.3f} to {high:.3f}, includes 0)" in said
    sick_mostly = pd.concat([cleveland[cleveland["heart_disease"] == 1], cleveland[cleveland["heart_disease"] == 0][:30]])
    (difference, low, *_), said = read(sick_mostly)
    assert low > 0 and said.endswith("it under-estimates the risk here.")


def test_the_page_says_how_a_missing_answer_was_judged_and_who_is_left_out():
    """medicaldata/opt: "87 patients with a missing answer are left out" although the list had
    learned where a missing answer goes. They are judged as not measured, and said so; only a
    missing answer without a learned direction leaves a patient out, named with its column.
    A column the site does not record is "not measured" for every patient."""
    from psl_core.validation import validation_report
    from psl_triage.words import md
    from psl_triage.words.validate import report_sentences
    from tests.tables import lab_list

    model, X = lab_list()
    frame = X.iloc[:200].assign(outcome=np.arange(200) % 3 == 0)
    frame.loc[frame.index[:10], "age"] = np.nan
    table = site_table(model, {}, frame, {"lab": "lab", "age": "age"}, "outcome", [True])
    n_lab = int((frame["lab"].isna() & frame["age"].notna()).sum())
    said = report_sentences(validation_report(model, table.X, table.y, stage=2, n_boot=20))[0]
    assert said.startswith("Judged at stage 2 (the first 2 questions) on 190 patients (")
    assert (f"{n_lab} of them have a missing answer to a question whose column had missing values in training: "
            'it counts as "not recorded", yes or no as the list learned') in said
    assert f"10 patients with a missing answer to {md(repr('age'))} are left out: no value was missing there" in said
    # A column without gaps in training: the bedside shows a range, a prediction a guess; said so.
    assert "the list shows the range over both answers; a single prediction would take the more common" in said
    without_lab = site_table(model, {}, frame, {"lab": None, "age": "age"}, "outcome", [True])
    assert 'every answer to it counts as "not recorded", yes or no as the list learned' in without_lab.notes[0]
    assert validation_report(model, without_lab.X, without_lab.y, stage=2, n_boot=20).n_not_measured == 190
    without_age = site_table(model, {}, frame, {"lab": "lab", "age": None}, "outcome", [True])
    assert "the list learned no direction for a missing answer; only stages before question 2 can be judged" in (
        without_age.notes[0])


def test_the_validating_line_names_an_unnamed_list_in_lower_case_mid_sentence():
    from psl_triage.model_file.writer import list_identity
    from psl_triage.words.validate import validating

    assert validating(list_identity({})) == "Validating **an unnamed list** (not saved yet)."
    assert list_identity({}).startswith("**An unnamed list**")  # where it starts a sentence
    named = validating(list_identity({"name": "An unnamed list of mine"}))
    assert named.startswith("Validating **An unnamed list of mine**")


def test_the_bedside_star_counts_not_measured_answers_as_answers():
    from psl_triage.words.evidence import site_utility_note

    note = site_utility_note(167)
    assert "167 patients here with an answer to every bedside question" in note and "not recorded" in note
    assert "all known" not in note


def test_a_two_valued_column_coded_alike_at_both_sites_is_no_mismatch():
    """nwtco's histol coded 1/2 at both sites: Validate stopped with "histol is coded 1, 2
    here, but 1, 0 (2) in the list" (issue 39): the list's own recoding of its two values
    is the site's coding too."""
    import numpy as np
    import pandas as pd

    from psl_triage.data import infer_column_types, prepare_training_data
    from psl_triage.judging.validation import coding_mismatches
    from psl_triage.training.fit import train_list
    from psl_triage.training.options import TrainingOptions

    rng = np.random.default_rng(0)
    histol = rng.choice([1, 2], 400, p=[0.8, 0.2])
    table = pd.DataFrame({"histol": histol, "age": rng.integers(1, 15, 400),
                          "rel": (rng.random(400) < np.where(histol == 2, 0.6, 0.1)).astype(int)})
    prepared = prepare_training_data(table, infer_column_types(table), "rel", [1], "learn")
    model, metadata = train_list(prepared, "nwtco", TrainingOptions(max_stages=2))
    assert "histol" in model.features_
    site = table.sample(frac=0.5, random_state=1)
    assert coding_mismatches(model, metadata, site, {"histol": "histol", "age": "age"}) == []
    recoded = site.assign(histol=site["histol"].map({1: "FH", 2: "UH"}))
    assert [m.need.name for m in coding_mismatches(model, metadata, recoded, {"histol": "histol", "age": "age"})] == ["histol"]
