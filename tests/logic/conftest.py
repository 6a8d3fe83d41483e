"""Fixtures the data package's tests share: the bundled demo table and its column kinds."""

from __future__ import annotations

import pytest

from psl_triage.data import infer_column_types
from psl_triage.data.demo import load_demo


@pytest.fixture(scope="module")
def demo():
    return load_demo()


@pytest.fixture(scope="module")
def demo_types(demo):
    df, meta = demo
    return infer_column_types(df, meta.columns)
