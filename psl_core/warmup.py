"""Compile psl_core's numba kernels ahead of the first fit: ``python -m psl_core.warmup``.

The kernels (:mod:`psl_core.kernels`) are compiled with ``cache=True``: numba writes the
machine code to disk and later processes load it in well under a second instead of
compiling for tens of seconds. :func:`warm_kernels` runs small fits of every kind (each
calibration, criterion, threshold search, binarization, pairwise fit) so that every
signature the library uses is compiled and cached, or loaded when it already is.

Where numba keeps that cache, and what makes it compile again (numba 0.68):

- the cache lives in ``NUMBA_CACHE_DIR`` when it is set (in a subfolder named after the
  absolute path of ``psl_core``), else in ``psl_core/__pycache__`` when that folder is
  writable, else in the user's cache folder (``~/.cache/numba``);
- an entry is valid while its module (``kernels.py``, ``calibration_kernels.py``,
  ``monitoring.py``) has the same content, and a search kernel's while
  ``calibration_kernels.py`` has too (numba compares a SHA-256
  of the source file, not its timestamp: a fresh clone or a ``touch`` keeps it valid), for
  the same function bytecode and argument types, numba and Python versions, and the same
  CPU model and features (``NUMBA_CPU_NAME=generic`` makes code that any x86-64 runs).

``make run`` and ``make test`` run this module after installing the requirements, again
only when a kernel module (or this file) changed; the Docker build runs it in the image;
the app runs :func:`warm_kernels` in a background thread at start, which loads the cache
(or compiles what is missing) while the user starts working.
"""

import sys
import time

import numpy as np
import pandas as pd

from .calibration import beta_probabilities, calibrated_probabilities
from .model import ProbabilisticScoringList
from .monitoring import cusum_limit
from .parameters import PAPER_SETUP
from .reliability import brier_decomposition, isotonic_recalibration

# Settings that reach different kernels or argument types; every fit also computes
# intervals. Small lists: compiling does not depend on the size of the data.
_VARIANTS = (
    {},
    PAPER_SETUP,
    {"calibration": "isotonic"},
    {"calibration": "beta"},
    {"loss": "cv_log_loss"},
    {"loss": "soft_rank"},
    {"loss": "nested_cv_brier"},
    {"loss": "nested_cv_log_loss", "calibration": "isotonic"},
    {"threshold_search": "brute", "score_set": (1, 2, 3)},
    {"binarization": "preprocess", "calibration_size": 0.3},
    {"recommend_folds": 3},
)


def _table(n_rows=120, seed=0):
    """A small mixed table (numeric, 0/1 and text columns) and 0/1 labels."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({
        "age": rng.normal(60.0, 10.0, n_rows).round(),
        "pressure": rng.normal(130.0, 15.0, n_rows),
        "smoker": (rng.random(n_rows) < 0.4).astype(float),
        "pain": rng.choice(["none", "typical", "atypical"], n_rows),
    })
    risk = 0.05 * (X["age"] - 60) + 0.8 * X["smoker"] + (X["pain"] == "typical")
    y = (risk + rng.logistic(size=n_rows) > 0.5).astype(int).to_numpy()
    return X, y


def warm_kernels(verbose=False):
    """Compile (or load from numba's disk cache) every kernel psl_core uses.

    Parameters
    ----------
    verbose : bool
        Print what is done and how long it took.

    Returns
    -------
    float
        Seconds taken.
    """
    start = time.perf_counter()
    X, y = _table()
    for params in _VARIANTS:
        model = ProbabilisticScoringList(**{"min_support": 5, **params, "max_stages": 3}).fit(X, y)
        model.predict_interval(X)
    pairs = np.column_stack([np.flatnonzero(y == 1)[:30], np.flatnonzero(y == 0)[:30]])
    ProbabilisticScoringList(max_stages=2).fit_pairs(X, pairs)
    # What the figures and the evaluation calibrate outside a fit.
    totals, positives, negatives = np.arange(4), np.array([1, 3, 5, 8]), np.array([9, 6, 4, 2])
    for method in ("isotonic", "beta", "sigmoid"):
        calibrated_probabilities(totals, positives, negatives, method)
    beta_probabilities(totals, positives, negatives, 0, 3)
    p = model.predict_proba(X)[:, 1]
    isotonic_recalibration(y, p)
    brier_decomposition(y, p)
    cusum_limit(p, n_simulations=20)  # the simulated alarm limits of monitoring
    seconds = time.perf_counter() - start
    if verbose:
        print(f"psl_core kernels ready in {seconds:.1f} s (compiled or loaded from numba's cache)")
    return seconds


if __name__ == "__main__":
    warm_kernels(verbose=True)
    sys.exit(0)
