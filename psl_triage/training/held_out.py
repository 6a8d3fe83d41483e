"""The rows a fitted list is judged on: its own held-out test rows, or a fresh split.

The fit records which rows it held out (:class:`~psl_triage.model_file.metadata.HeldOutRecord`);
:func:`recorded_split` reads that record, the one place every page (Calibration, Evaluation,
the calibration at a horizon) finds a list's own rows, and rebuilds them from the seed only
for a file saved before lists recorded them.
"""

from dataclasses import dataclass

import numpy as np
from sklearn.base import clone

from psl_core.errors import DataError
from psl_core.evaluation import labels01
from psl_core.survival import is_horizon_list
from psl_triage.data.list_data import list_table_mismatch
from psl_triage.model_file.metadata import ModelMetadata
from psl_triage.training.fit import split_rows
from psl_triage.words import lists as words


@dataclass(frozen=True)
class HeldOut:
    """A fitted list with the rows it was trained on and rows it never saw.

    ``refitted`` says whether ``model`` is the list itself (its own held-out rows are known)
    or a list with the same settings fitted here on a fresh split.
    """

    model: object
    X_train: object
    y_train: np.ndarray
    X_test: object
    y_test: np.ndarray
    refitted: bool
    description: str


def recorded_split(model, metadata, prepared):
    """The positions, ascending, of the rows ``model`` was trained on and of those it held out
    among ``prepared``'s rows; None when they are not known.

    They are known when the list was trained by :func:`psl_triage.training.fit.train_list`
    (``"source": "trained"``) on these very rows
    (:func:`psl_triage.data.list_data.list_table_mismatch` finds no difference) with a test
    set: from the record the fit wrote (``"held_out"``, its row count that of ``prepared``);
    for a file saved before lists recorded it, rebuilt from its ``training_options``' test
    fraction and seed, and kept only when the rebuilt split holds out the recorded number of
    rows and (a yes/no list) its training rows' class counts are the list's stage 0.

    Returns
    -------
    (train, test) : tuple of ndarray of int, or None
    """
    metadata = ModelMetadata.coerce(metadata)
    if metadata.source != "trained" or list_table_mismatch(model, metadata, prepared) is not None:
        return None
    n_rows = len(prepared.y)
    if metadata.held_out is None:
        test = _rebuilt_test_rows(model, metadata.training_options or {}, prepared)
    elif metadata.held_out.n_rows == n_rows:
        test = metadata.held_out.test_positions()
    else:
        test = None
    if test is None or not 0 < len(test) < n_rows:
        return None
    return np.setdiff1d(np.arange(n_rows), test), test


def _rebuilt_test_rows(model, options, prepared):
    """The held-out rows of a file saved before lists recorded them, from its seed (see
    :func:`recorded_split`); None when they cannot be told."""
    fraction, seed = options.get("test_fraction"), options.get("seed")
    if not (isinstance(fraction, float) and 0 < fraction < 1 and isinstance(seed, int)):
        return None
    try:
        train, test = split_rows(np.arange(len(prepared.y)), prepared.y, fraction, seed)[:2]
    except DataError:
        return None
    if options.get("n_test", len(test)) != len(test):
        return None
    y_train = labels01(prepared.y)[train]
    counts = (model.stage_negatives_[0].sum(), model.stage_positives_[0].sum())
    if not is_horizon_list(model) and counts != (np.sum(y_train == 0), np.sum(y_train == 1)):
        return None
    return np.sort(test)


def held_out_rows(model, metadata, prepared, test_size=1 / 3, seed=0):
    """Training and held-out test rows for judging a fitted list on prepared data.

    When the list's own rows are known (:func:`recorded_split`), the list itself is judged on
    the rows it held out. Otherwise (a loaded list, a list trained on every row, other data)
    the rows are split here, stratified with ``test_size`` and ``seed``, and a list with the
    same settings is fitted on the training part: its held-out rows judge the learning
    procedure, not the very list on screen, and :attr:`HeldOut.description` says so.

    Returns
    -------
    HeldOut
    """
    X, y = prepared.X, labels01(prepared.y)
    split = recorded_split(model, metadata, prepared)
    if split is not None:
        train, test = split
        return HeldOut(model, X.iloc[train], y[train], X.iloc[test], y[test], False,
                       words.own_test_rows(len(test), len(train)))
    X_train, X_test, y_train, y_test = split_rows(X, y, test_size, seed)
    refitted = clone(model).fit(X_train, y_train)
    return HeldOut(
        refitted, X_train, y_train, X_test, y_test, True,
        words.refitted_rows(len(y_train), seed, len(y_test)),
    )
