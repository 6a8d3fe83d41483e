"""scikit-learn compatibility: the full estimator check suite, clone, CV and Pipeline."""

import numpy as np
import pandas as pd
from sklearn.base import clone
from sklearn.model_selection import cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import FunctionTransformer
from sklearn.utils.estimator_checks import check_estimator

from psl_core import ProbabilisticScoringList

# Checks that cannot apply to a scoring list, with the reason. Keep this list short.
EXPECTED_FAILED_CHECKS = {
    "check_sample_weight_equivalence_on_dense_data": (
        "a weight counts in every class count, but min_support counts rows and the internal "
        "cross-validation puts two copies of a row in different folds (tests/core/test_survival.py "
        "checks the equivalence where neither applies)"
    ),
}


def test_check_estimator_passes():
    results = check_estimator(
        ProbabilisticScoringList(max_stages=4),
        expected_failed_checks=EXPECTED_FAILED_CHECKS,
        on_fail=None,
    )
    failed = [r for r in results if r["status"] == "failed"]
    assert not failed, "\n".join(f"{r['check_name']}: {r['exception']!r}" for r in failed)
    assert sum(r["status"] == "passed" for r in results) > 30


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
