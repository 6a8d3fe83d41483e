"""Benchmark datasets as numeric matrices, identical in the project's and the peers' venvs.

Imported by ``bench/compare.py`` (project venv: numpy 2, pandas 3) and by
``bench/peers_worker.py`` (peers venv: numpy 1, pandas 2), so both sides fit on exactly the
same matrix. Only plain pandas/numpy calls that behave the same in both are used.

The CSV files live in ``shared/data`` beside the repository (``../shared/data`` from the repo
root); set ``PSL_BENCH_DATA`` to point elsewhere.
"""

import os
from pathlib import Path

import numpy as np
import pandas as pd

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA_DIR = REPO_ROOT.parent / "shared" / "data"

DATASETS = ("heart_cleveland", "pima", "bcc_coimbra", "ilpd")
OPTIONAL_DATASETS = ("breast_cancer",)


def data_dir():
    return Path(os.environ.get("PSL_BENCH_DATA", DEFAULT_DATA_DIR))


def _read(name):
    path = data_dir() / name
    if not path.exists():
        raise FileNotFoundError(
            f"dataset file {path} not found; set PSL_BENCH_DATA to the folder holding the CSVs"
        )
    return pd.read_csv(path)


def _split_outcome(frame, positive):
    """Rows with a missing value are dropped (a handful per dataset, see README)."""
    frame = frame.dropna().reset_index(drop=True)
    y = positive(frame).to_numpy().astype(np.int64)
    return frame, y


def load_dataset(name):
    """Return ``(X, y, feature_names)``: X float64 (n, d), y int64 in {0, 1} (1 = positive)."""
    if name == "heart_cleveland":
        frame, y = _split_outcome(_read("heart_cleveland.csv"), lambda f: f["num"] > 0)
        frame = frame.drop(columns=["num"])
    elif name == "pima":
        both = pd.concat([_read("pima_train.csv"), _read("pima_test.csv")], ignore_index=True)
        frame, y = _split_outcome(both, lambda f: f["type"] == "Yes")
        frame = frame.drop(columns=["type"])
    elif name == "bcc_coimbra":
        frame, y = _split_outcome(_read("bcc_coimbra.csv"), lambda f: f["Classification"] == "Yes")
        frame = frame.drop(columns=["Classification"])
    elif name == "ilpd":
        frame, y = _split_outcome(_read("ilpd.csv"), lambda f: f["Label"] == 1)
        frame = frame.drop(columns=["Label"])
        gender = frame["Gender"].astype(str).str.strip().str.lower()
        unknown = sorted(set(gender) - {"male", "female"})
        if unknown:
            raise ValueError(f"ilpd: unexpected Gender values {unknown}")
        frame["Gender"] = (gender == "male").astype(np.float64)
    elif name == "breast_cancer":
        from sklearn.datasets import load_breast_cancer

        bunch = load_breast_cancer()
        # scikit-learn codes malignant as 0; the positive class here is malignant.
        return (
            np.asarray(bunch.data, dtype=np.float64),
            (bunch.target == 0).astype(np.int64),
            [str(n) for n in bunch.feature_names],
        )
    else:
        raise ValueError(
            f"unknown dataset {name!r}; choose from {DATASETS + OPTIONAL_DATASETS}"
        )
    return frame.to_numpy(dtype=np.float64), y, [str(c) for c in frame.columns]
