"""The stop statistics: aggregate transition counts, computed at fit, saved in the model file."""

import json

import numpy as np
import pandas as pd
import pytest

from psl_core import ModelFileError, ProbabilisticScoringList
from psl_core.decision import RULED, StageBands, triage_step
from psl_core.serialization import SCHEMA_VERSION
from psl_core.stopping import STOP_STATISTICS_VERSION, reference_stages, transition_counts


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(3)
    n = 300
    X = pd.DataFrame({"age": rng.integers(30, 80, n).astype(float), "smoker": rng.integers(0, 2, n),
                      "bp": rng.normal(130, 15, n).round()})
    logit = 0.06 * (X["age"] - 55) + 1.2 * X["smoker"] + 0.03 * (X["bp"] - 130) - 0.5
    y = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
    return X, y


@pytest.fixture(scope="module")
def fitted(data):
    X, y = data
    return ProbabilisticScoringList(recommend_folds=3).fit(X, y)


def test_transition_counts_count_pairs_of_totals():
    totals = np.array([[0, 2, 3], [0, 2, 3], [0, 0, -1], [0, 2, 2]])
    statistics = transition_counts(totals, [1, 2])
    assert statistics["version"] == STOP_STATISTICS_VERSION and statistics["n_rows"] == 4
    by_reference = {entry["reference"]: entry["stages"] for entry in statistics["transitions"]}
    assert by_reference[1] == [[[0, 0, 1], [0, 2, 3]]]
    assert by_reference[2] == [[[0, -1, 1], [0, 2, 1], [0, 3, 2]], [[0, -1, 1], [2, 2, 1], [2, 3, 2]]]
    assert reference_stages(5, 3) == [3, 5] and reference_stages(5, None) == [5] and reference_stages(5, 0) == [5]


def test_fit_keeps_the_training_patients_transitions_as_counts_only(fitted, data):
    X, _ = data
    statistics = fitted.stop_statistics_
    K = len(fitted.literals_)
    assert [entry["reference"] for entry in statistics["transitions"]] == reference_stages(K, fitted.recommended_stages_)
    totals = fitted.stagewise_totals(X)
    for entry in statistics["transitions"]:
        r = entry["reference"]
        for k, rows in enumerate(entry["stages"]):
            assert sum(c for *_, c in rows) == len(X)
            for a, b, c in rows:
                assert c == np.sum((totals[:, k] == a) & (totals[:, r] == b))
    # Only totals and counts: no column of X, no label.
    assert set(statistics) == {"version", "n_rows", "transitions"}


def test_the_statistics_round_trip_through_the_model_file(fitted):
    document = json.loads(fitted.to_json())
    assert document["schema_version"] == SCHEMA_VERSION
    assert document["stop_statistics"] == fitted.stop_statistics_
    loaded = ProbabilisticScoringList.from_json(fitted.to_json())
    assert loaded.stop_statistics_ == fitted.stop_statistics_
    for stage in range(len(fitted.literals_) + 1):
        for M in (1, 10):
            answers = [True] * stage
            assert triage_step(StageBands(loaded), answers, M) == triage_step(StageBands(fitted), answers, M)


def test_a_file_without_statistics_loads_with_the_old_rule(fitted):
    document = json.loads(fitted.to_json())
    del document["stop_statistics"]
    old = ProbabilisticScoringList.from_json(json.dumps(document))
    assert old.stop_statistics_ is None
    bands = StageBands(old)
    assert bands.changes is None
    steps = [triage_step(bands, [False] * k, M) for k in range(len(old.literals_) + 1) for M in (0.2, 1, 10)]
    assert any(step.stop_reason == RULED for step in steps)
    assert all(step.stop_reason != RULED or step.outcome != "uncertain" for step in steps)
    assert all(step.change_share is None for step in steps)


def mutate(document, change):
    copy = json.loads(json.dumps(document))
    change(copy["stop_statistics"])
    return json.dumps(copy)


@pytest.mark.parametrize("change, message", [
    (lambda s: s.update(version=99), "stop_statistics.version is 99"),
    (lambda s: s.update(n_rows="300"), "n_rows must be a whole number"),
    (lambda s: s.update(extra=1), "stop_statistics has unknown entries"),
    (lambda s: s["transitions"][0].update(reference=99), "reference 99 lies outside"),
    (lambda s: s["transitions"][0]["stages"].pop(), "needs one table per stage"),
    (lambda s: s["transitions"][0]["stages"][0][0].__setitem__(2, 10**6), "add up to n_rows"),
    (lambda s: s["transitions"][0]["stages"][0][0].__setitem__(0, 12345), "cannot reach"),
    (lambda s: s["transitions"][0]["stages"][0].__setitem__(0, [0, 1]), "has too few entries"),
])
def test_broken_statistics_are_rejected(fitted, change, message):
    with pytest.raises(ModelFileError, match=message):
        ProbabilisticScoringList.from_json(mutate(json.loads(fitted.to_json()), change))
