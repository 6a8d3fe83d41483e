"""Fitting a list from prepared data, as the Train page does it: a stratified train/test
split, the fit, and the metadata that describes the list for its model file; and how much
slower than on a quiet machine a fit runs now (:func:`training_slowdown`).
"""

from __future__ import annotations

import dataclasses
import math
import time

import numpy as np
from sklearn.model_selection import train_test_split
from sklearn.utils import _safe_indexing

from psl_core.errors import DataError
from psl_core.model import ProbabilisticScoringList
from psl_core.serialization import max_text_chars
from psl_core.survival import survival_outcome, uncensored_at_horizon
from psl_triage.data import MIN_ROWS_PER_CLASS
from psl_triage.data.follow_up import survival_part
from psl_triage.model_file.metadata import FollowUpRecord, HeldOutRecord
from psl_triage.model_file.writer import model_metadata
from psl_triage.training.too_good import too_good_to_be_true
from psl_triage.words import settings as words
from psl_triage.words.lists import COMPETING_EVENTS


def split_rows(X, y, test_fraction, seed, min_per_class=MIN_ROWS_PER_CLASS):
    """Stratified train/test split; with ``test_fraction == 0`` every row trains.
    ``min_per_class``: the training rows each class needs (a follow-up's are counted at its
    horizon instead, so its events and censored patients need none here).

    Returns
    -------
    X_train, X_test, y_train, y_test
        ``X_test`` and ``y_test`` are None without a test set.

    Raises
    ------
    DataError
        The fraction leaves a class without rows in the train or the test part.
    """
    if test_fraction == 0:
        return X, None, y, None
    n_rows, n_classes = len(y), len(np.unique(y))
    n_test = math.ceil(test_fraction * n_rows)
    if n_test < n_classes or n_rows - n_test < n_classes:
        raise DataError(words.TOO_FEW_FOR_BOTH_CLASSES.format(test_fraction=test_fraction, n_rows=n_rows, n_test=n_test, n_train=n_rows - n_test))
    try:
        parts = train_test_split(X, y, test_size=test_fraction, stratify=y, random_state=seed)
    except ValueError as exc:
        raise DataError(words.NO_STRATIFIED_SPLIT.format(test_fraction=test_fraction, exc=exc)) from None
    classes, counts = np.unique(np.asarray(parts[2]), return_counts=True)
    rarest = int(counts.min()) if len(classes) == n_classes else 0
    if rarest < min_per_class:
        raise DataError(words.TOO_FEW_TRAINING_ROWS.format(test_fraction=test_fraction, n_rows=n_rows, n_train=len(parts[2]), rarest=rarest, min_rows_per_class=MIN_ROWS_PER_CLASS))
    return parts


def train_list(prepared, data_name, options, progress=None, column_roles=None):
    """Split prepared data, fit a list on the training rows and describe it.

    Parameters
    ----------
    prepared : psl_triage.data.PreparedData
    data_name : str
    options : TrainingOptions
    progress : callable or None
        ``progress(stage, n_stages)`` after each learned stage.
    column_roles : dict or None
        :func:`psl_triage.data.roles.roles_record`: the columns proposed out of the list, why, and
        whether the user put them back; saved as ``"column_roles"``.

    Returns
    -------
    model : fitted ProbabilisticScoringList
    metadata : dict
        :func:`psl_triage.model_file.writer.model_metadata` with train (and test) measures,
        ``"decision"`` (the options' M), ``"training_options"`` (the options and the
        numbers of train and test rows), ``"source": "trained"``, ``"held_out"`` (the rows held
        out), ``"column_roles"`` when given, and ``"too_good_warning"`` when the list is too
        good to be true.
    """
    train, test = _split(prepared, options)
    if prepared.follow_up is not None:
        return _train_horizon_list(prepared, data_name, options, progress, column_roles, train, test)
    X, y = prepared.X, prepared.y
    model = options.estimator().fit(_safe_indexing(X, train), y[train], progress=progress)
    return _described(model, prepared, data_name, options, column_roles, (model, _safe_indexing(X, train), y[train]),
                      None if test is None else (model, _safe_indexing(X, test), y[test]), held_out=test)


def _split(prepared, options):
    """The positions of the training rows and of the held-out ones (None without a test set),
    stratified by the outcome (:func:`split_rows`)."""
    rows = np.arange(len(prepared.y))
    if options.test_fraction == 0:
        return rows, None
    fewest = MIN_ROWS_PER_CLASS if prepared.follow_up is None else 0  # counted at the horizon
    return tuple(split_rows(rows, prepared.y, options.test_fraction, options.seed, fewest)[:2])


def _train_horizon_list(prepared, data_name, options, progress, column_roles, train, test):
    """:func:`train_list` for a time-to-event list: split stratified by the event, fit on
    (event, time) with the horizon, measure at the horizon with censoring weights."""
    horizon = prepared.follow_up.horizon
    time, event = prepared.time, prepared.y
    # The split keeps the event's share, not the horizon's classes: say which one it left too small.
    rarest = min(int((event[train].astype(bool) & (time[train] <= horizon)).sum()), int((time[train] > horizon).sum()))
    if rarest < MIN_ROWS_PER_CLASS:
        raise DataError(words.TOO_FEW_TRAINING_ROWS_AT_HORIZON.format(
            test_fraction=options.test_fraction, n_train=len(train), rarest=rarest, horizon=horizon,
            min_rows_per_class=MIN_ROWS_PER_CLASS))
    model = options.estimator().set_params(horizon=horizon).fit(
        _safe_indexing(prepared.X, train), survival_outcome(time[train], event[train]), progress=progress,
    )
    parts = []
    for part in (train, test):
        if part is None:
            parts.append(None)
            continue
        kept, outcome, weight = survival_part(time[part], event[part], horizon, time[train], event[train])
        parts.append((model, _safe_indexing(prepared.X, part[kept]), outcome, weight))
    # The training rows' censoring at the horizon: Validate compares a site's with it.
    uncensored = uncensored_at_horizon(survival_outcome(time[train], event[train]), horizon)
    # The horizon itself is the list's parameter, recorded nowhere else (list_horizon).
    follow_up = FollowUpRecord(time=str(prepared.follow_up.time), unit=prepared.follow_up.unit,
                               uncensored_at_horizon=uncensored)
    entries = {"follow_up": follow_up, "competing_events": COMPETING_EVENTS}
    return _described(model, prepared, data_name, options, column_roles, parts[0], parts[1],
                      n_rows=(len(train), 0 if test is None else len(test)), held_out=test, entries=entries)


def _described(model, prepared, data_name, options, column_roles, train, test, n_rows=None, held_out=None,
               entries=None):
    """The fitted list and its metadata (see :func:`train_list`), written through
    :class:`~psl_triage.model_file.metadata.ModelMetadata`; ``held_out``: the positions of the
    held-out rows, recorded once (:class:`~psl_triage.model_file.metadata.HeldOutRecord`)
    unless their mask exceeds the longest text a model file holds (a table of some 600,000
    rows: such a list's pages find its rows from the seed, as for a file saved before)."""
    n_train, n_test = n_rows or (len(train[2]), 0 if test is None else len(test[2]))
    record = None if held_out is None else HeldOutRecord.of_rows(held_out, len(prepared.y))
    if record is not None and len(record.test_rows) > max_text_chars():
        record = None
    metadata = model_metadata(
        prepared, data_name, train=train, test=test, cost_ratio=options.cost_ratio,
        training_options=dict(options.to_dict(), n_train=n_train, n_test=n_test), source="trained",
        column_roles=column_roles, cost_unit=options.cost_unit if options.question_costs else None, held_out=record,
        **(entries or {}),
    )
    warning = too_good_to_be_true(metadata, model.features_)
    if warning is not None:
        metadata = dataclasses.replace(metadata, too_good=warning.record())
    return model, metadata.to_dict()


SLOWDOWN_SAMPLE_CPU_S = 0.2
"""CPU seconds of the table's own work :func:`training_slowdown` times: enough for the
machine's other work to take its share of the cores meanwhile."""
SLOWDOWN_SAMPLE_WALL_S = 2.0
"""The longest :func:`training_slowdown` times, in seconds, however busy the machine (give or
take one fit of the sample)."""
SLOWDOWN_SAMPLE_ROWS = 50_000
"""The most rows :func:`training_slowdown` fits on: one fit of one column of them takes 0.06 s
of CPU, so the bounds above hold. On all of a 1,000,000-row table's training rows one fit took
0.9 s of CPU and, at a load of 20 on 2 cores, 3.1-3.6 s of wall time, past the bound; the ratio
it measures was the same (3.5 on 100,000 rows and on 666,666)."""


def training_slowdown(X, rows: int) -> float:
    """How many times slower than on a quiet machine a training on ``X`` runs now (at least 1).

    The constants of :func:`psl_triage.training.runs.training_estimate` were measured on a
    quiet machine; on a busy one (other sessions, other programs on the same cores) a training
    took up to 4 times as long (bench/README.md, section 10). So a small part of
    the real work is timed at the moment of estimating: one stage of the learner on the table's
    own columns, one at a time, and its first ``rows`` rows (at most
    :data:`SLOWDOWN_SAMPLE_ROWS`; an alternating outcome: the search's work does not depend on
    it), until :data:`SLOWDOWN_SAMPLE_CPU_S` of this thread's CPU time or
    :data:`SLOWDOWN_SAMPLE_WALL_S` have passed. On a quiet machine the work has a core to itself
    and its wall time equals its CPU time; on a busy one the wall time is longer by the share of
    the cores it waits for, and so will the training's be.

    What it adds to the Train click (only for a training estimated at more than
    :data:`~psl_triage.training.runs.SLOWDOWN_CHECK_SHARE` of the server's limit): about 0.2 s on
    a quiet machine, the slowdown times that on a busy one, 2 s at the most. Measured on 10
    numeric columns at a load of 20 on 2 cores: 0.6-0.8 s of wall time for 0.20-0.25 s of CPU
    (slowdown 3.0-3.3) on tables of 1,000 to 1,000,000 rows.
    """
    sample = X.iloc[:max(2, min(rows, len(X), SLOWDOWN_SAMPLE_ROWS))]
    outcome = np.arange(len(sample)) % 2
    started, cpu_started = time.perf_counter(), time.thread_time()
    wall = cpu = 0.0
    column = 0
    while cpu < SLOWDOWN_SAMPLE_CPU_S and wall < SLOWDOWN_SAMPLE_WALL_S:
        ProbabilisticScoringList(max_stages=1).fit(sample.iloc[:, [column % sample.shape[1]]], outcome)
        column += 1
        wall, cpu = time.perf_counter() - started, time.thread_time() - cpu_started
    return max(1.0, wall / max(cpu, 1e-9))
