"""Look-ahead statistics of the bedside stop rule: how often more answers change the outcome.

A list that has ruled a patient in or out may still change its mind with more answers.
How often it does is measured on the training patients: for each stage k and each
*reference* stage r (the list's recommended length, and its whole length), the number of
training patients with total T_k at stage k and total T_r at stage r. These transition
counts are aggregate counts only (never a patient's row) and do not depend on M, the
confidence level or the decision basis, so one table serves every setting: at the bedside
:mod:`psl_core.decision` turns each total into its outcome under the chosen setting and
asks what share of the training patients with the current answers ends at a different
outcome at the reference stage (:func:`change_share`).

The statistics are kept on a fitted list as ``stop_statistics_`` and saved in the model
file under the optional top-level key ``"stop_statistics"``::

    {"version": 1, "n_rows": 303,
     "transitions": [{"reference": r, "stages": [[[T_k, T_r, count], ...] for k in 0..r-1]}, ...]}

A file without the key (saved before the statistics existed) loads with
``stop_statistics_ = None``; the bedside rule then stops as soon as the patient is ruled
in or out.
"""

import numbers

import numpy as np

from .errors import ModelFileError, PSLError

__all__ = [
    "STOP_STATISTICS_VERSION", "DEFAULT_TOLERANCE", "MIN_ROWS", "check_tolerance", "reference_stages",
    "transition_counts", "check_stop_statistics", "ChangeTable"
]

STOP_STATISTICS_VERSION = 1
"""Version of the ``"stop_statistics"`` entry of a model file."""

DEFAULT_TOLERANCE = 0.05
"""Stop once fewer than 1 in 20 training patients with the current answers change outcome."""

MIN_ROWS = 20
"""Training patients with the current answers needed to judge them on their own; with fewer
the share is taken over every training patient at this stage with the same outcome."""


def check_tolerance(tolerance):
    """Validate the tolerance: the share of changed outcomes below which the list stops, in [0, 1)."""
    if isinstance(tolerance, bool) or not isinstance(tolerance, numbers.Real) or not 0 <= tolerance < 1:
        raise PSLError(f"tolerance must be a share in [0, 1), got {tolerance!r}")
    return float(tolerance)


def reference_stages(n_literals, recommended):
    """The stages to measure changes against: the recommended length (if any) and the whole list."""
    stages = {int(n_literals)}
    if recommended is not None and 0 < recommended < n_literals:
        stages.add(int(recommended))
    return sorted(stages)


def transition_counts(totals, references):
    """The stop statistics of a list from its training patients' totals.

    Parameters
    ----------
    totals : ndarray of int, shape (n_samples, K + 1)
        Total of each training patient at stages 0..K (``stagewise_totals``).
    references : sequence of int
        Reference stages r in 1..K.

    Returns
    -------
    dict
        JSON-ready (see the module docstring): for each reference r and stage k < r, the
        distinct (T_k, T_r) pairs with their counts.
    """
    totals = np.asarray(totals, dtype=np.int64)
    transitions = []
    for reference in references:
        stages = []
        for k in range(reference):
            pairs, counts = np.unique(totals[:, [k, reference]], axis=0, return_counts=True)
            stages.append([[int(a), int(b), int(c)] for (a, b), c in zip(pairs, counts)])
        transitions.append({"reference": int(reference), "stages": stages})
    return {"version": STOP_STATISTICS_VERSION, "n_rows": int(len(totals)), "transitions": transitions}


def check_stop_statistics(data, stage_totals, scores=None, stage_counts=None):
    """Validate the ``"stop_statistics"`` entry of a model file (None when absent).

    Besides its shape: every table of one reference stage counts the same patients, so gives
    the same totals at the reference; no pair of totals lies further apart than the points of
    the stages between them; and the totals' shares at each stage agree with the list's own
    counts there (the calibration counts: the same training patients, or a share of them held
    out for calibration) within sampling error (:func:`_check_agrees_with_counts`).

    Parameters
    ----------
    data : dict or None
    stage_totals : list of array of int
        The reachable totals of stages 0..K of the list in the file.
    scores : sequence of int, optional
        The points of stages 1..K.
    stage_counts : list of array of int, optional
        The list's patients per reachable total at stages 0..K (positives + negatives).

    Returns
    -------
    dict or None
        ``data`` itself.

    Raises
    ------
    ModelFileError
        Naming the first problem.
    """
    if data is None:
        return None
    n_literals = len(stage_totals) - 1
    if not isinstance(data, dict) or set(data) != {"version", "n_rows", "transitions"}:
        _fail('must be an object with the entries "version", "n_rows" and "transitions"')
    if data["version"] != STOP_STATISTICS_VERSION:
        _fail(f"version {data['version']!r} is not supported (this version reads {STOP_STATISTICS_VERSION})")
    n_rows = _count(data["n_rows"], "n_rows")
    if n_rows < 0 or not isinstance(data["transitions"], list):
        _fail("n_rows must be >= 0 and transitions a list")
    for entry in data["transitions"]:
        if not isinstance(entry, dict) or set(entry) != {"reference", "stages"}:
            _fail('each transition must be an object with "reference" and "stages"')
        reference = _count(entry["reference"], "reference")
        if not 1 <= reference <= n_literals:
            _fail(f"reference {reference} lies outside the list's stages 1..{n_literals}")
        stages = entry["stages"]
        if not isinstance(stages, list) or len(stages) != reference:
            _fail(f"reference {reference} needs one table per stage 0..{reference - 1}")
        for k, table in enumerate(stages):
            _check_stage_table(table, k, reference, stage_totals, n_rows)
        if scores is not None:
            _check_tables_agree(stages, reference, scores)
        if stage_counts is not None:
            for k, table in enumerate(stages):
                _check_agrees_with_counts(table, 0, k, stage_totals, stage_counts)
            if stages:
                _check_agrees_with_counts(stages[0], 1, reference, stage_totals, stage_counts)
    return data


def _marginal(table, column):
    shares = {}
    for row in table:
        shares[row[column]] = shares.get(row[column], 0) + row[2]
    return shares


def _check_tables_agree(stages, reference, scores):
    """The tables of one reference count the same patients: the same totals at the reference,
    and totals at stage k and at the reference at most the points between them apart."""
    at_reference = _marginal(stages[0], 1) if stages else {}
    for k, table in enumerate(stages):
        if _marginal(table, 1) != at_reference:
            _fail(f"the tables of stages 0 and {k} give different totals at stage {reference}; "
                  "they count the same patients")
        reach = sum(abs(int(score)) for score in scores[k:reference])
        if any(abs(row[1] - row[0]) > reach for row in table):
            _fail(f"stage {k} pairs totals further apart than the points of stages {k + 1}..{reference}")


def _check_agrees_with_counts(table, column, k, stage_totals, stage_counts):
    """The shares of the totals at stage k (``column`` 0: the table's own stage, 1: the
    reference) against the list's counts at stage k: a total variation distance of at most
    0.1 + sqrt(totals / patients), where a fit's own statistics stay below 0.1 even when
    calibration holds out a share of the rows (tests/core/test_model_file_meaning.py)."""
    counts = np.asarray(stage_counts[k], dtype=float)
    n_counted, n_table = counts.sum(), float(sum(row[2] for row in table))
    if n_counted <= 0 or n_table <= 0:
        return
    expected = dict(zip(np.asarray(stage_totals[k]).tolist(), counts / n_counted))
    observed = {total: count / n_table for total, count in _marginal(table, column).items()}
    distance = 0.5 * sum(abs(observed.get(t, 0.0) - expected.get(t, 0.0)) for t in {*expected, *observed})
    tolerance = 0.1 + np.sqrt(len(expected) / min(n_counted, n_table))
    if distance > tolerance:
        _fail(f"the totals at stage {k} disagree with the list's own counts there (they differ in "
              f"{distance:.0%} of patients); the file was edited or is damaged")


def _fail(message):
    raise ModelFileError(f"stop_statistics: {message}")


def _count(value, what):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        _fail(f"{what} must be a whole number, got {value!r}")
    return int(value)


def _check_stage_table(table, k, reference, stage_totals, n_rows):
    """Validate one stage's rows [total at k, total at reference, count]."""
    if not isinstance(table, list):
        _fail(f"the table of stage {k} must be a list")
    for row in table:
        if not isinstance(row, list) or len(row) != 3:
            _fail(f"each row of stage {k} must be [total, total at {reference}, count]")
        for value in row:
            _count(value, f"a value of stage {k}")
        if row[0] not in stage_totals[k] or row[1] not in stage_totals[reference]:
            _fail(f"stage {k} has a total the list cannot reach: {row[:2]}")
    if sum(row[2] for row in table) != n_rows or any(row[2] < 0 for row in table):
        _fail(f"the counts of stage {k} must be >= 0 and add up to n_rows = {n_rows}")


class ChangeTable:
    """The stop statistics of one list as arrays, for fast look-ups at the bedside.

    ``table(reference, stage)`` gives (totals at the stage, totals at the reference,
    counts), each an int array of shape (pairs,).
    """

    def __init__(self, statistics):
        self.tables = {}
        for entry in statistics["transitions"]:
            for k, rows in enumerate(entry["stages"]):
                rows = np.array(rows, dtype=np.int64).reshape(-1, 3)
                self.tables[entry["reference"], k] = (rows[:, 0], rows[:, 1], rows[:, 2])
        self.references = sorted({entry["reference"] for entry in statistics["transitions"]})

    def reference_for(self, stage, last):
        """The reference stage a triage at ``stage`` of a list used up to ``last`` looks ahead to:
        the first stored one after ``stage`` and at most ``last``; None when there is none."""
        return next((r for r in self.references if stage < r <= last), None)

    def shares(self, stage, reference, stage_outcome, reference_outcome):
        """What :meth:`change_share` needs at one stage, reference and setting, computed once.

        Parameters
        ----------
        stage, reference : int
        stage_outcome, reference_outcome : callable
            Map an int array of totals at the stage / at the reference to outcome codes
            (they depend on M, the confidence level and the basis: one setting).

        Returns
        -------
        tuple
            (distinct totals at the stage, shape (m,); training patients per total, shape
            (m,); of them, those whose outcome at the reference differs from code c, shape
            (3, m), row c + 1; per current code the same two counts pooled over the
            stage's totals with that outcome, shape (3,) each).
        """
        at_stage, at_reference, counts = self.tables[reference, stage]
        distinct, group = np.unique(at_stage, return_inverse=True)
        final = reference_outcome(at_reference)
        n = np.bincount(group, counts, minlength=len(distinct)).astype(np.int64)
        changed = np.array([
            np.bincount(group, counts * (final != code), minlength=len(distinct)) for code in (-1, 0, 1)
        ]).astype(np.int64)
        here = stage_outcome(distinct)
        pooled_n = np.array([n[here == code].sum() for code in (-1, 0, 1)])
        pooled_changed = np.array([changed[code + 1][here == code].sum() for code in (-1, 0, 1)])
        return distinct, n, changed, pooled_n, pooled_changed

    @staticmethod
    def change_share(shares, totals, current, min_rows=MIN_ROWS):
        """Share of training patients like this one whose outcome at the reference differs.

        Parameters
        ----------
        shares : tuple
            :meth:`shares` of the stage, reference and setting.
        totals : array of int, distinct
            The totals the current answers allow (several when some are unknown).
        current : int
            The current outcome code.
        min_rows : int
            Training patients with these totals needed to judge them on their own.

        Returns
        -------
        (share, rows, scope) : (float, int, str) or (None, 0, None)
            ``scope`` is "answers" when the share is over the training patients with these
            totals, "stage" when, with fewer than ``min_rows`` of them, it is over every
            training patient at this stage with the same outcome; None without any.
        """
        distinct, n, changed, pooled_n, pooled_changed = shares
        # Where the totals sit among ``distinct`` (sorted): a search, not np.isin, which
        # costs more on these few numbers (this runs per state of every patient).
        totals = np.asarray(totals)
        index = np.searchsorted(distinct, totals)
        inside = index < len(distinct)
        rows = index[inside][distinct[index[inside]] == totals[inside]]
        with_these = int(n[rows].sum())
        if with_these >= min_rows:
            return float(changed[current + 1][rows].sum() / with_these), with_these, "answers"
        if pooled_n[current + 1] >= 1:
            return float(pooled_changed[current + 1] / pooled_n[current + 1]), int(pooled_n[current + 1]), "stage"
        return None, 0, None
