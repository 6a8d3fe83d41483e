"""The rows a fitted list is judged on: its own held-out test rows, or a fresh split."""

from dataclasses import dataclass

import numpy as np
from sklearn.base import clone

from psl_core.evaluation import labels01
from psl_triage.model_file.metadata import ModelMetadata
from psl_triage.training.fit import split_rows
from psl_triage.words import lists as words


@dataclass(frozen=True)
class HeldOut:
    """A fitted list with the rows it was trained on and rows it never saw.

    ``refitted`` says whether ``model`` is the list itself (its own train/test split was
    recovered) or a list with the same settings fitted here on a fresh split.
    """

    model: object
    X_train: object
    y_train: np.ndarray
    X_test: object
    y_test: np.ndarray
    refitted: bool
    description: str


def held_out_rows(model, metadata, X, y, test_size=1 / 3, seed=0):
    """Training and held-out test rows for judging a fitted list on prepared data.

    If the list was trained by :func:`psl_triage.training.fit.train_list` on these data with a
    test set (``metadata["source"] == "trained"``, its ``"training_options"`` give the
    test fraction and seed, and the class counts of the recovered training rows equal the
    list's stage-0 counts), the same split is recovered and the list itself is judged.
    Otherwise (a loaded list, a list trained on every row, other data) the rows are split
    here, stratified with ``test_size`` and ``seed``, and a list with the same settings
    is fitted on the training part: its held-out rows judge the learning procedure, not
    the very list on screen, and :attr:`HeldOut.description` says so.

    Returns
    -------
    HeldOut
    """
    y = labels01(y)
    metadata = ModelMetadata.coerce(metadata)
    options = metadata.training_options
    if metadata.source == "trained" and options is not None:
        fraction, split_seed = options.get("test_fraction"), options.get("seed")
        if isinstance(fraction, float) and 0 < fraction < 1 and isinstance(split_seed, int):
            X_train, X_test, y_train, y_test = split_rows(X, y, fraction, split_seed)
            counts = (model.stage_negatives_[0].sum(), model.stage_positives_[0].sum())
            if counts == (np.sum(y_train == 0), np.sum(y_train == 1)):
                return HeldOut(
                    model, X_train, y_train, X_test, y_test, False,
                    words.own_test_rows(len(y_test), fraction, split_seed, len(y_train)),
                )
    X_train, X_test, y_train, y_test = split_rows(X, y, test_size, seed)
    refitted = clone(model).fit(X_train, y_train)
    return HeldOut(
        refitted, X_train, y_train, X_test, y_test, True,
        words.refitted_rows(len(y_train), seed, len(y_test)),
    )


