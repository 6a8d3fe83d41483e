"""A model file's probabilities recomputed from its own counts on load (issue 40, fifth probe).

A file of version 2 records what the learner computed each stage's probabilities from (the
weighted counts of a weighted list, the earlier list's probabilities of a recalibrated one;
the shrinkage factors and params it always had), and loading recomputes them total by total.
A file whose probabilities contradict their counts while each stage's mean stays within the
old tolerance is refused; every legitimate kind of list loads back equal; a file of version 1
loads with ``probabilities_checked_`` False (the app's notice).
"""

import json

import numpy as np
import pandas as pd
import pytest

from psl_core import ModelFileError, ProbabilisticScoringList
from psl_core.recomputed import ROUNDING
from psl_core.survival import survival_outcome
from psl_core.validation import recalibrate
from tests.hostile_corpus import honest_lists, risks_against_counts, version_1


def _two_groups():
    """A yes/no column: 27 of 112 positive without it, 66 of 90 with it (the re-probe's counts)."""
    x = np.r_[np.zeros(112), np.ones(90)]
    y = np.r_[np.ones(27), np.zeros(85), np.ones(66), np.zeros(24)].astype(int)
    return pd.DataFrame({"sign": x}), y


def _table(n=300, seed=0):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({"age": rng.normal(60, 10, n), "smoker": rng.integers(0, 2, n).astype(float),
                      "bp": rng.normal(130, 15, n)})
    y = ((X["age"] - 60) / 10 + X["smoker"] + rng.normal(size=n) > 0.8).astype(int)
    return X, y


def test_risks_that_contradict_their_counts_are_refused_though_the_mean_agrees():
    X, y = _two_groups()
    model = ProbabilisticScoringList(loss="entropy", max_stages=1, min_support=5).fit(X, y)
    document = json.loads(model.to_json())
    stage = document["calibration"][1]
    assert stage["positives"] == [27, 66] and np.add(stage["positives"], stage["negatives"]).tolist() == [112, 90]
    stage["probabilities"] = [0.001, 0.999]  # mean 0.446 against a rate of 0.460: within the old tolerance
    with pytest.raises(ModelFileError, match=r"stage 1, total 0: the file gives the probability 0\.001000, but its "
                                             r"counts \(27 positive, 85 negative\) give 0\.24"):
        ProbabilisticScoringList.from_json(json.dumps(document))
    # The same lie in a file of version 1 loads, as such files always did, and is marked as unchecked.
    old = ProbabilisticScoringList.from_json(json.dumps(version_1(document)))
    assert not old.probabilities_checked_


def test_a_lie_on_a_shrunk_stage_with_many_totals_is_refused():
    X, y = _table()
    document = json.loads(ProbabilisticScoringList(recommend_folds=3).fit(X, y).to_json())
    stage = len(document["stages"])
    with pytest.raises(ModelFileError, match=rf"stage {stage}, total -?\d+: the file gives the probability"):
        ProbabilisticScoringList.from_json(risks_against_counts(document, stage))


def test_a_probability_off_by_more_than_rounding_is_refused_and_rounding_is_not():
    X, y = _table()
    document = json.loads(ProbabilisticScoringList().fit(X, y).to_json())
    document["calibration"][1]["probabilities"][0] += ROUNDING / 10
    ProbabilisticScoringList.from_json(json.dumps(document))
    document["calibration"][1]["probabilities"][0] += 0.001
    with pytest.raises(ModelFileError, match="stage 1, total"):
        ProbabilisticScoringList.from_json(json.dumps(document))


def _weights(n, seed=1):
    return np.round(np.random.default_rng(seed).uniform(0, 3, n), 1)  # rounded, some 0


def _horizon_outcome(y, seed=2):
    rng = np.random.default_rng(seed)
    time = np.where(y == 1, rng.uniform(0, 5, len(y)), rng.uniform(2, 10, len(y)))
    censored = rng.random(len(y)) < 0.3
    return survival_outcome(np.where(censored, time / 2, time), (np.asarray(y) == 1) & ~censored)


def _with_unknowns(X, seed=3):
    rng = np.random.default_rng(seed)
    return X.assign(smoker=np.where(rng.random(len(X)) < 0.2, np.nan, X["smoker"]))


def _lists():
    X, y = _table()
    shrunk = ProbabilisticScoringList(recommend_folds=3).fit(X, y)
    weighted = ProbabilisticScoringList(recommend_folds=3, calibration="beta").fit(X, y, sample_weight=_weights(len(y)))
    site_X, site_y = _table(200, seed=9)
    return {
        "plain isotonic": ProbabilisticScoringList(calibration="isotonic", prior_strength=0).fit(X, y),
        "shrunk": shrunk,
        "weighted": weighted,
        "horizon": ProbabilisticScoringList(horizon=4.0, recommend_folds=3).fit(X, _horizon_outcome(y)),
        "calibration rows": ProbabilisticScoringList(calibration_size=0.3).fit(X, y),
        "missing learned": ProbabilisticScoringList().fit(_with_unknowns(X), y),
        "recalibrated": recalibrate(shrunk, _with_unknowns(site_X), site_y),
        "recalibrated weighted": recalibrate(weighted, site_X, site_y, sample_weight=_weights(200) + 0.1),
        "recalibrated twice": recalibrate(recalibrate(shrunk, site_X, site_y, n_stages=2), X, y),
    }


@pytest.fixture(scope="module")
def lists():
    return _lists()


@pytest.mark.parametrize("kind", list(_lists()))
def test_every_legitimate_kind_of_list_loads_back_equal(lists, kind):
    model = lists[kind]
    text = model.to_json()
    assert json.loads(text)["schema_version"] == 2
    loaded = ProbabilisticScoringList.from_json(text)
    assert loaded.probabilities_checked_
    for name in ("stage_totals_", "stage_probabilities_", "stage_positives_", "stage_negatives_",
                 "stage_weighted_positives_", "stage_weighted_negatives_", "stage_prior_probabilities_"):
        mine, theirs = getattr(model, name), getattr(loaded, name)
        assert (mine is None) == (theirs is None), name
        for a, b in zip(mine or (), theirs or ()):
            np.testing.assert_array_equal(a, b, err_msg=name)
    for k in range(model.n_stages_):
        np.testing.assert_array_equal(model.stage_interval(k)[1], loaded.stage_interval(k)[1])
        np.testing.assert_array_equal(model.stage_interval(k)[3], loaded.stage_interval(k)[3])
    assert loaded.to_json() == text


def test_the_weighted_counts_must_agree_with_the_intervals_counts(lists):
    document = json.loads(lists["weighted"].to_json())
    entry = document["calibration"][1]
    entry["positives"][0] += 5  # intervals from counts the weights do not give
    entry["negatives"][0] = max(entry["negatives"][0] - 5, 0)
    with pytest.raises(ModelFileError, match="stage 1, total .*: its intervals count .* but its weighted counts"):
        ProbabilisticScoringList.from_json(json.dumps(document))
    del document["calibration"][2]["weighted_negatives"]
    with pytest.raises(ModelFileError, match="calibration of stage 2 lacks weighted_negatives"):
        ProbabilisticScoringList.from_json(json.dumps(document))


def test_a_recalibrated_file_cannot_claim_a_shrinkage(lists):
    document = json.loads(lists["recalibrated"].to_json())
    shrunk = json.loads(lists["shrunk"].to_json())
    document["validation"] = shrunk["validation"]
    document["validation"]["brier"] = document["validation"]["brier"][: len(document["calibration"])]
    document["validation"]["brier_se"] = document["validation"]["brier_se"][: len(document["calibration"])]
    document["validation"]["recommended_stages"] = 1
    document["validation"]["shrinkage"] = [1.0] * len(document["calibration"])
    document["validation"].pop("interval_inflation", None)
    with pytest.raises(ModelFileError, match="a recalibrated list .* has no shrinkage"):
        ProbabilisticScoringList.from_json(json.dumps(document))


def test_the_factors_keep_the_shape_the_learner_gives_them(lists):
    document = json.loads(lists["shrunk"].to_json())
    inflation = document["validation"]["interval_inflation"]
    assert inflation[0] == 1.0 and len(inflation) >= 3
    narrower = json.loads(json.dumps(document))
    narrower["validation"]["interval_inflation"] = [1.0, inflation[1] + 1.0] + [1.0] * (len(inflation) - 2)
    with pytest.raises(ModelFileError, match="interval_inflation falls from .* at stage 1 to 1 at stage 2"):
        ProbabilisticScoringList.from_json(json.dumps(narrower))
    for key in ("interval_inflation", "shrinkage"):
        moved = json.loads(json.dumps(document))
        moved["validation"][key][0] = 0.5 if key == "shrinkage" else 2.0
        with pytest.raises(ModelFileError, match=f"validation {key} gives stage 0 the factor"):
            ProbabilisticScoringList.from_json(json.dumps(moved))


def test_a_file_of_version_1_loads_unchecked_and_is_saved_checked_when_its_counts_allow(lists):
    plain = json.loads(lists["shrunk"].to_json())
    old = ProbabilisticScoringList.from_json(json.dumps(version_1(plain)))
    assert not old.probabilities_checked_
    again = json.loads(old.to_json())
    assert again["schema_version"] == 2  # its counts recompute its probabilities: checked from now on
    assert ProbabilisticScoringList.from_json(json.dumps(again)).probabilities_checked_
    weighted = ProbabilisticScoringList.from_json(json.dumps(version_1(json.loads(lists["weighted"].to_json()))))
    assert not weighted.probabilities_checked_
    assert json.loads(weighted.to_json())["schema_version"] == 1  # nothing recomputes it: the notice stays
    assert recalibrate(weighted, *_table(200, seed=9)).probabilities_checked_


@pytest.mark.parametrize("name", list(honest_lists()))
def test_the_corpus_honest_lists_load(name):
    text = honest_lists()[name]
    model = ProbabilisticScoringList.from_json(text)
    assert model.probabilities_checked_ == (json.loads(text)["schema_version"] == 2)
