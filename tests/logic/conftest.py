"""Fixtures the app package's tests share: the bundled demo table and its column kinds; a small
fitted list for the tests that save, list and approve one."""

from __future__ import annotations

import numpy as np
import pytest

from psl_core import ProbabilisticScoringList
from psl_triage.data import infer_column_types
from psl_triage.data.demo import load_demo


@pytest.fixture(scope="module")
def demo():
    return load_demo()


@pytest.fixture(scope="module")
def demo_types(demo):
    df, meta = demo
    return infer_column_types(df, meta.columns)


@pytest.fixture(scope="session")
def small_data():
    """(X, y): 200 patients with three yes/no answers; the outcome mostly follows the first."""
    rng = np.random.default_rng(0)
    X = rng.integers(0, 2, size=(200, 3)).astype(float)
    y = (X[:, 0] + rng.random(200) > 1).astype(int)
    return X, y


@pytest.fixture(scope="session")
def small_list(small_data):
    """A list fitted on :func:`small_data`: what the store and the ward save, list and approve.
    Shared by the whole run: tests read it and never change it."""
    return ProbabilisticScoringList(min_support=5).fit(*small_data)
