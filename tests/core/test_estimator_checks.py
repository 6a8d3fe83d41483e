"""scikit-learn compatibility: the full estimator check suite, clone, CV and Pipeline."""

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.model_selection import cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import FunctionTransformer
from sklearn.utils.estimator_checks import check_estimator

from psl_core import PAPER_SETUP, ProbabilisticScoringList
from psl_core.errors import SmallDataWarning

# Checks that cannot apply to a scoring list, with the reason. Keep this list short.
EXPECTED_FAILED_CHECKS = {}


@pytest.mark.parametrize("params", [{}, PAPER_SETUP, {"recommend_folds": 3}], ids=["default", "paper", "recommend"])
def test_check_estimator_passes(params):
    results = check_estimator(
        ProbabilisticScoringList(**{**params, "max_stages": 4}),
        expected_failed_checks=EXPECTED_FAILED_CHECKS,
        on_fail=None,
    )
    failed = [r for r in results if r["status"] == "failed"]
    assert not failed, "\n".join(f"{r['check_name']}: {r['exception']!r}" for r in failed)
    assert sum(r["status"] == "passed" for r in results) > 30
    status = {r["check_name"]: r["status"] for r in results}
    assert status["check_sample_weight_equivalence_on_dense_data"] == "passed"  # issue 37


def test_a_class_with_one_row_fits_at_the_base_rate_with_a_warning():
    """Issue 37: the internal cross-validation refused a class with one row (a DataError), so
    a weighted table whose rarer class is one row of weight 3 did not fit. It fits now: no
    held-out rows of that class, so no question and no recommended length, and a warning
    that names the class."""
    rng = np.random.default_rng(0)
    X = rng.random((40, 3))
    y = np.array(["no"] * 39 + ["yes"])
    with pytest.warns(SmallDataWarning, match="1 row\\(s\\) of class 'yes'.*cannot run"):
        psl = ProbabilisticScoringList(recommend_folds=5).fit(X, y)
    assert (psl.n_stages_, psl.recommended_stages_, psl.end_reason_) == (1, None, "no_gain")
    assert np.allclose(psl.predict_proba(X)[:, 1], psl.stage_probabilities_[0][0])
    copies = np.vstack([X, X[-1:], X[-1:]])  # the one row three times: still one patient's evidence
    with pytest.warns(SmallDataWarning, match="3 row\\(s\\) of class 'yes' and 1 distinct"):
        ProbabilisticScoringList().fit(copies, np.append(y, ["yes", "yes"]))


def test_a_class_with_fewer_rows_than_folds_gets_fewer_folds_with_a_warning():
    rng = np.random.default_rng(1)
    X = rng.random((60, 3))
    y = (np.arange(60) < 3).astype(int)
    with pytest.warns(SmallDataWarning, match="3 rows of class 1: .* uses 3 folds"):
        psl = ProbabilisticScoringList(recommend_folds=5).fit(X, y)
    assert psl.recommended_stages_ is not None


def test_clone_cross_val_and_pipeline(demo_csv_path):
    frame = pd.read_csv(demo_csv_path).dropna()
    y = (frame.pop("num") > 0).astype(int)
    psl = ProbabilisticScoringList(max_stages=5)
    copy = clone(psl)
    assert copy.get_params() == psl.get_params() and not hasattr(copy, "literals_")
    scores = cross_val_score(psl, frame, y, cv=3, scoring="roc_auc")
    assert scores.shape == (3,) and np.all(scores > 0.75)
    pipe = make_pipeline(FunctionTransformer(lambda X: X), ProbabilisticScoringList(max_stages=3))
    pipe.fit(frame, y)
    assert pipe.predict_proba(frame).shape == (len(y), 2)
    psl.set_params(max_stages=2)
    assert psl.fit(frame, y).n_stages_ == 3
