"""Reading the labels and the row weights at the estimator's boundary.

The columns of X are read by :func:`psl_core.binarization.read_columns`; here the other
two inputs of ``fit``: y (exactly two classes, one type of label) and ``sample_weight``.
Every problem is a :class:`~psl_core.errors.DataError` that says what to change.
"""

import numpy as np
import pandas as pd
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import _check_sample_weight, column_or_1d

from .errors import DataError


def read_labels(y, n_rows, estimator_name="ProbabilisticScoringList"):
    """The two classes of y (sorted) and y as 0/1 (1 = the second class).

    Parameters
    ----------
    y : array-like of shape (n_rows,)
    n_rows : int
        Rows of X.
    estimator_name : str
        Named in the message when y is None.

    Returns
    -------
    classes : ndarray of shape (2,)
    y01 : ndarray of int64, shape (n_rows,)
    """
    if y is None:
        raise DataError(f"{estimator_name} requires y to be passed, but the target y is None.")
    # A list keeps its labels' types as objects (numpy would turn 0 and "1" into text).
    labels = np.asarray(y) if hasattr(y, "__array__") else np.asarray(y, dtype=object)
    if labels.ndim > 1 and (labels.ndim != 2 or labels.shape[1] != 1):
        raise DataError(
            f"y must be 1-D, one label per row, got an array of shape {labels.shape}; "
            "a scoring list predicts one outcome: pass that column"
        )
    if labels.dtype == object and pd.api.types.infer_dtype(labels.ravel(), skipna=True) in (
        "mixed", "mixed-integer",
    ):
        examples = ", ".join(repr(v) for v in pd.unique(labels.ravel())[:4].tolist())
        raise DataError(
            f"y mixes labels of different types (e.g. {examples}); give y one type of labels, "
            "all numbers or all text"
        )
    y = column_or_1d(y, warn=True)
    if len(y) != n_rows:
        raise DataError(f"X and y have different lengths: {n_rows} rows in X, {len(y)} labels in y")
    if pd.isna(pd.Series(y)).any():
        raise DataError("y has missing labels: drop those rows or fill in the outcome")
    _check_label_type(y)
    classes = np.unique(y)
    if len(classes) < 2:
        raise DataError(
            f"y has only one class ({classes[0]!r}): a scoring list needs cases of two classes"
        )
    if len(classes) > 2:
        raise DataError(
            f"Only binary classification is supported: y has {len(classes)} classes "
            f"{classes[:10].tolist()}; choose the positive class and map the other labels to negative"
        )
    return classes, (y == classes[1]).astype(np.int64)


def _check_label_type(y):
    """scikit-learn's target check, re-raised as a DataError that says what to change."""
    try:
        check_classification_targets(y)
    except ValueError as exc:
        examples = ", ".join(repr(value) for value in pd.unique(np.asarray(y).ravel())[:3].tolist())
        raise DataError(
            f"{exc} (e.g. {examples}). A scoring list predicts one of two classes: give y as "
            "two labels, e.g. y = (measure > cutoff)"
        ) from None


def read_sample_weight(sample_weight, X):
    """Row weights as floats (None stays None); a DataError naming the problem otherwise."""
    if sample_weight is None:
        return None
    if np.isscalar(sample_weight):
        raise DataError(f"sample_weight must hold one weight per row, got the single value {sample_weight!r}")
    try:
        weight = _check_sample_weight(sample_weight, X, dtype=np.float64, ensure_non_negative=True)
    except ValueError as exc:
        raise DataError(f"sample_weight cannot be used: {exc}") from None
    if weight.sum() <= 0:
        raise DataError("sample_weight is zero for every row: at least one weight must be > 0")
    return weight
