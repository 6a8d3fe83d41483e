"""Learning from pairwise comparisons with the soft rank loss (Sec. 4.5, eq. 14)."""

import numpy as np
import pytest

from psl_core import DataError, ProbabilisticScoringList, PSLError
from psl_core.binarization import numeric_cuts
from psl_core.candidates import score_tracks


def pair_loss(totals, pairs):
    """Eq. 14 over pairs: 0 when the preferred case totals more, 1/2 for a tie, else 1."""
    d = totals[pairs[:, 0]] - totals[pairs[:, 1]]
    return float(np.mean(np.where(d > 0, 0.0, np.where(d == 0, 0.5, 1.0))))


def data(seed, n=50):
    rng = np.random.default_rng(seed)
    X = np.column_stack([rng.integers(0, 6, n), rng.integers(0, 2, n), np.round(rng.normal(size=n), 1)]).astype(float)
    utility = X[:, 0] - 2 * X[:, 1] + rng.normal(scale=1.0, size=n)
    a, b = rng.integers(0, n, (2, 200))
    keep = a != b
    a, b = a[keep], b[keep]
    pairs = np.where((utility[a] >= utility[b])[:, None], np.column_stack([a, b]), np.column_stack([b, a]))
    return X, pairs


@pytest.mark.parametrize("seed", range(5))
def test_each_stage_is_the_exhaustive_minimizer(seed):
    X, pairs = data(seed)
    score_set = (-2, -1, 1, 2)
    # Every feature once, as the enumeration below (test_search covers reuse).
    psl = ProbabilisticScoringList(
        score_set=score_set, threshold_search="brute", max_feature_uses=1, min_support=1,
    ).fit_pairs(X, pairs)
    totals = np.zeros(len(X), dtype=int)
    used = set()
    assert psl.stage_criterion_[0] == pytest.approx(0.5)
    for k, (literal, score) in enumerate(zip(psl.literals_, psl.scores_)):
        values = []
        for j in range(X.shape[1]):
            if j in used:
                continue
            column = X[:, j]
            cuts = np.array([0.5]) if np.isin(column, (0, 1)).all() else numeric_cuts(column)[0]
            for s, negated in score_tracks(score_set, k == 0):
                for cut in cuts:
                    hit = ((column > cut) != negated).astype(int)
                    values.append(pair_loss(totals + s * hit, pairs))
        chosen = totals + score * literal.evaluate(X[:, literal.column])
        assert pair_loss(chosen, pairs) == pytest.approx(min(values), abs=1e-12)
        assert psl.stage_criterion_[k + 1] == pytest.approx(pair_loss(chosen, pairs), abs=1e-12)
        totals = chosen
        used.add(literal.column)


def test_ranks_without_probabilities():
    X, pairs = data(0, n=200)
    psl = ProbabilisticScoringList(max_stages=2).fit_pairs(X, pairs)
    assert set(psl.features_) == {0, 1}
    assert psl.scores_[psl.features_.index(1)] < 0  # the binary feature lowers the utility
    assert psl.total_scores(X).shape == (200,)
    with pytest.raises(PSLError, match="pairwise comparisons"):
        psl.predict_proba(X)
    with pytest.raises(PSLError, match="pairwise comparisons"):
        psl.to_json()
    assert psl.stage_table().shape[0] == 3


@pytest.mark.parametrize(
    "pairs, message",
    [
        (np.zeros((0, 2), dtype=int), "n_pairs >= 1"),
        (np.array([0, 1]), "shape"),
        (np.array([[0, 99]]), "outside"),
        (np.array([[1, 1]]), "itself"),
        (np.array([[0.5, 1.0]]), "integer"),
    ],
)
def test_bad_pairs(pairs, message):
    X, _ = data(0, n=10)
    with pytest.raises(DataError, match=message):
        ProbabilisticScoringList().fit_pairs(X, pairs)
