"""What the parts of a model file must agree on, beyond their shapes (:mod:`.serialization`).

A file that passes the JSON Schema can still describe no list a fit could give: look-alike
names, a list that breaks the constraints its own parameters record, totals its scores cannot
reach, probabilities that contradict the counts they were estimated from. A file of version 2
has its probabilities recomputed from its counts besides (:mod:`.recomputed`). Each check refuses
such a file with a :class:`~psl_core.errors.ModelFileError` that says what disagrees.
"""

import math

import numpy as np

from .binarization import CATEGORY
from .constraints import DIRECTIONS
from .errors import ModelFileError
from .names import look_alike_pairs


def refuse(message):
    """Raise the :class:`~psl_core.errors.ModelFileError` of a file that is not a valid model file."""
    raise ModelFileError(f"not a valid model file: {message}")


def shorten(value, limit=60):
    """``repr(value)``, cut to ``limit`` characters for a message."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def check_look_alikes(names, classes, literals):
    """Refuse two column names, two class labels or two categories of one column that look
    the same when shown (:func:`~psl_core.names.look_alike_pairs`): two identical questions
    or answers at the bedside."""
    categories = {}
    for literal in literals:
        if literal.category is not None:
            categories.setdefault(literal.column, []).append(literal.category)
        categories.setdefault(literal.column, []).extend(literal.categories or ())
    groups = [("column names", names or []), ("classes", [str(c) for c in classes])]
    groups += [(f"categories of {shorten(column)}", values) for column, values in categories.items()]
    for what, values in groups:
        pairs = look_alike_pairs(dict.fromkeys(values))
        if pairs:
            refuse(f"the {what} {shorten(pairs[0][0])} and {shorten(pairs[0][1])} look the same when shown; "
                  "rename one")


def check_constraints_kept(model, literals, scores):
    """Refuse a list that breaks the constraints its own params record: a forbidden column
    asked, required columns not asked first in their order, a monotone column whose points
    go the other way (:mod:`psl_core.constraints`)."""
    columns = [literal.column for literal in literals]
    asked = [column for column in model.forbidden or () if column in columns]
    if asked:
        refuse(f"params.forbidden names {shorten(asked[0])}, which the list asks at stage "
              f"{columns.index(asked[0]) + 1}")
    required = list(model.required or ())[: len(columns)]
    if columns[: len(required)] != required:
        refuse(f"params.required names {shorten(required)} to be asked first, but the list starts with "
              f"{shorten(columns[: len(required)])}")
    for k, (literal, score) in enumerate(zip(literals, scores), start=1):
        direction = DIRECTIONS.get((model.monotone or {}).get(literal.column))
        if direction is None or literal.kind == CATEGORY or literal.asks_missing:
            continue
        if score * (-1 if literal.negated else 1) * direction < 0:
            refuse(f"stage {k} gives {shorten(literal.column)} points against its monotone direction in params")


def calibration_tables(calibration, scores):
    """(totals, probabilities, positives, negatives) per stage 0..K, as arrays.

    No stage counts more patients than stage 0, which counts them all: a patient has at most
    one total at every stage (a list recalibrated at a site leaves out of a stage the patients
    whose answer to it is unknown). A file whose stage counts ten times as many patients would
    show intervals ten times too narrow. A weighted list (sample weights, a horizon's censoring
    weights) rounds each count to a whole number, so a stage may exceed stage 0 by the
    rounding: at most one patient per total of either stage."""
    if len(calibration) != len(scores) + 1:
        refuse(f"calibration must have one entry per stage 0..{len(scores)}")
    tables, reachable = [], {0}
    for k, entry in enumerate(calibration):
        where = f"calibration of stage {k}"
        if k:  # Sigma_k (eq. 5), grown one stage at a time: the work stays within the file's size
            reachable |= {t + scores[k - 1] for t in reachable}
        totals = entry["totals"]
        if len(totals) != len(reachable) or totals != sorted(reachable):
            expected = sorted(reachable)
            refuse(f"{where} lists totals {shorten(totals)}, but the scores reach {shorten(expected)}")
        for key in ("probabilities", "positives", "negatives"):
            if len(entry[key]) != len(totals):
                refuse(f"{where} {key} must list one value per total")
        q = np.array(entry["probabilities"], dtype=float)
        if (np.diff(q) < -1e-12).any():
            refuse(f"{where} probabilities decrease with the total; they must be monotone")
        counts = [np.array(entry[key], dtype=np.int64) for key in ("positives", "negatives")]
        check_counts_agree(where, q, *counts)
        _check_same_patients(k, tables[0][2:] if tables else counts, counts)
        tables.append((np.array(totals, dtype=np.int64), q, *counts))
    return tables


def _check_same_patients(k, first, counts):
    patients, counted = int(sum(c.sum() for c in first)), int(sum(c.sum() for c in counts))
    if counted - patients > len(first[0]) + len(counts[0]):  # rounded weights: 1/2 per count
        refuse(f"calibration of stage {k} counts {counted} patients, more than the {patients} of stage 0, "
               "which counts every patient; the file was edited or is damaged")


def check_counts_agree(where, probabilities, positives, negatives):
    """Refuse probabilities that contradict the counts they were estimated from.

    Calibration (isotonic, beta, with shrinkage toward the base rate) keeps the mean
    probability of a stage's patients close to their share of positives; a file whose
    probabilities say 99.9 % where its counts say 0 of 1,000 would show an interval that
    cannot be. The tolerance, 0.05 plus four binomial standard errors, is ten times the
    largest gap a fit has shown (tests/core/test_model_file_hostile.py).
    """
    n = float((positives + negatives).sum())
    if n <= 0:
        return
    rate = positives.sum() / n
    mean = float((probabilities * (positives + negatives)).sum() / n)
    tolerance = 0.05 + 4 * math.sqrt(max(rate * (1 - rate), 1 / n) / n)
    if abs(mean - rate) > tolerance:
        refuse(f"{where} probabilities (mean {mean:.3f}) contradict its counts ({int(positives.sum())} "
              f"positive of {int(n)}, a rate of {rate:.3f}); the file was edited or is damaged")

