"""A model file's probabilities recomputed from its counts, as the learner computed them.

A file of version 2 records, besides each stage's counts, what the learner computed its
probabilities from: the params (``calibration``, ``prior_strength``), the shrinkage factors
(``validation.shrinkage``), the weighted counts of a list learned or recalibrated with row
weights (``weighted_positives``, ``weighted_negatives``) and the earlier list's probabilities
of a recalibrated one (``prior``): :func:`recorded_estimates`. On load every stage is
recomputed and compared total by total with what the file says (:func:`check_recomputed`): a
file whose probabilities contradict their own counts is refused, however close each stage's
mean stays to its rate. The intervals are always computed from the counts on load (with the
stage's ``interval_inflation`` and the level asked for); a weighted list's counts must agree
with its weighted counts.

Imported when a file is read or written, not with :mod:`.serialization`: the table readers
take a file's bounds from there without loading the compiled calibration.
"""

import numpy as np

from .calibration import base_rate, calibrated_probabilities, recalibrated_probabilities
from .errors import ModelFileError
from .file_checks import refuse
from .recommend import shrunk_probabilities

__all__ = ["ROUNDING", "recorded_estimates", "check_recomputed", "calibration_entries", "recomputes", "set_estimates"]


ROUNDING = 1e-6
"""How far a stored probability may lie from the one its counts recompute: far above the
arithmetic's rounding (about 1e-15; a file keeps every float's digits), far below the precision
shown (a tenth of a percent)."""


def recorded_estimates(calibration, version):
    """(weighted, priors) recorded by the calibration entries: ``weighted`` the (positives,
    negatives) lists of one float array per stage, ``priors`` one array per stage; each None
    when the file records none.

    Version 2 records what recomputes each stage's probabilities besides its counts: the
    weighted counts of a list learned or recalibrated with row weights, the earlier list's
    probabilities of a recalibrated one. Every stage records the same; version 1 none."""
    recorded = {}
    for key in ("weighted_positives", "weighted_negatives", "prior"):
        has = [key in entry for entry in calibration]
        recorded[key] = None
        if not any(has):
            continue
        if version < 2:
            refuse(f"calibration records {key}, which belongs to model files of version 2, but the file says "
                   f"version {version}")
        if not all(has):
            refuse(f"calibration of stage {has.index(False)} lacks {key}, which the other stages record")
        for k, entry in enumerate(calibration):
            if len(entry[key]) != len(entry["totals"]):
                refuse(f"calibration of stage {k} {key} must list one value per total")
        recorded[key] = [np.array(entry[key], dtype=float) for entry in calibration]
    positives, negatives = recorded["weighted_positives"], recorded["weighted_negatives"]
    if (positives is None) != (negatives is None):
        refuse("calibration records weighted_positives or weighted_negatives alone; a weighted list records both")
    return (None if positives is None else (positives, negatives)), recorded["prior"]


def check_recomputed(tables, estimate):
    """Refuse probabilities that their counts, recomputed as the learner computed them, do not give.

    ``tables`` are :func:`calibration_tables`; ``estimate`` holds what the learner used:
    ``method`` and ``prior_strength`` (the params), ``shrinkage`` (the factors per stage or
    None), and from :func:`recorded_estimates` ``weighted`` ((positives, negatives) lists or
    None) and ``priors`` (a recalibrated list's earlier probabilities or None). A fitted list's
    stage is calibrated on its (weighted) counts with ``prior_strength`` pseudo-cases at the
    base rate (stage 0's rate) and pulled toward q(0) by its shrinkage factor; a recalibrated
    one's with the pseudo-cases at the earlier probabilities. Weighted counts must also agree
    with the effective counts the intervals use (:func:`_check_effective`), and the factors
    keep the shape the learner gives them (:func:`_check_factors`)."""
    weighted, priors, shrinkage = estimate["weighted"], estimate["priors"], estimate["shrinkage"]
    _check_factors(shrinkage, estimate["inflation"], priors is not None)
    counts = [(t[2], t[3]) for t in tables] if weighted is None else list(zip(*weighted))
    if weighted is not None:
        for k, table in enumerate(tables):
            _check_effective(k, table, counts[k])
    rate = base_rate(*counts[0]) if (counts[0][0] + counts[0][1] > 0).any() else 0.0
    recomputed = []
    for k, (table, (positives, negatives)) in enumerate(zip(tables, counts)):
        if not (positives + negatives > 0).any() and (priors is None or not estimate["prior_strength"]):
            refuse(f"calibration of stage {k} counts no patient, so it has no probabilities to give")
        if priors is None:
            q = calibrated_probabilities(table[0], positives, negatives, estimate["method"],
                                         shrink=(estimate["prior_strength"], rate))
        else:
            q = recalibrated_probabilities(table[0], positives, negatives, estimate["method"],
                                           estimate["prior_strength"], priors[k])
        recomputed.append(q)
    if shrinkage is not None:
        recomputed = shrunk_probabilities(recomputed, shrinkage)
    for k, (table, q) in enumerate(zip(tables, recomputed)):
        _check_equal(k, table, q)


def _check_factors(shrinkage, inflation, recalibrated):
    """The shrinkage factors and the intervals' inflation phi_k as the learner makes them: none
    for a recalibrated list (the site's counts chose no question), stage 0 unchanged (1), and
    phi_k non-decreasing over the stages (:func:`psl_core.recommend.interval_inflation`). phi_k
    itself rests on the internal folds' held-out rows, which the file does not hold: a file
    cannot show it was measured, only that it has the shape of one."""
    if recalibrated and (shrinkage is not None or inflation is not None):
        refuse("a recalibrated list (its calibration records a prior) has no shrinkage or interval_inflation: "
               "they belong to the training site's folds; the file was edited")
    for name, factors in (("shrinkage", shrinkage), ("interval_inflation", inflation)):
        if factors is not None and len(factors) and factors[0] != 1.0:
            refuse(f"validation {name} gives stage 0 the factor {factors[0]:g}; stage 0 asks no question and "
                   "has the factor 1: the file was edited or is damaged")
    if inflation is not None and (np.diff(inflation) < 0).any():
        k = int(np.flatnonzero(np.diff(inflation) < 0)[0]) + 1
        refuse(f"validation interval_inflation falls from {inflation[k - 1]:g} at stage {k - 1} to {inflation[k]:g} "
               f"at stage {k}; the search's optimism only grows with its questions: the file was edited or is damaged")


def _check_effective(k, table, weighted):
    totals, _, positives, negatives = table
    n, weight = positives + negatives, weighted[0] + weighted[1]
    rate = np.divide(weighted[0], weight, out=np.zeros(len(weight)), where=weight > 0)
    # Effective counts split n_eff by the weighted rate, rounded: at most half a count off.
    wrong = np.flatnonzero(((n > 0) != (weight > 0)) | (np.abs(positives - rate * n) > 0.5 + 1e-6))
    if len(wrong):
        i = wrong[0]
        refuse(f"stage {k}, total {totals[i]}: its intervals count {positives[i]} positive of {n[i]}, but its "
               f"weighted counts ({weighted[0][i]:.6g} positive, {weighted[1][i]:.6g} negative) give a rate of "
               f"{rate[i]:.6f}; the file was edited or is damaged: use the file as PSL Triage saved it, "
               "or train the list again")


def _check_equal(k, table, recomputed):
    totals, stored, positives, negatives = table
    wrong = np.flatnonzero(~(np.abs(stored - recomputed) <= ROUNDING))
    if len(wrong):
        i = wrong[0]
        refuse(f"stage {k}, total {totals[i]}: the file gives the probability {stored[i]:.6f}, but its counts "
               f"({positives[i]} positive, {negatives[i]} negative) give {recomputed[i]:.6f}; the file was "
               "edited or is damaged: use the file as PSL Triage saved it, or train the list again")


# ---------------------------------------------------------------------------- writing and reading
def calibration_entries(model):
    """The calibration entries of stages 0..K: totals, probabilities, counts, and what recomputes
    the probabilities from them (the weighted counts, a recalibrated list's earlier probabilities)."""
    stages = len(model.stage_totals_)
    weighted_positives, weighted_negatives, priors = (
        getattr(model, name, None) or [None] * stages
        for name in ("stage_weighted_positives_", "stage_weighted_negatives_", "stage_prior_probabilities_")
    )
    return [
        {
            "totals": totals.tolist(),
            "probabilities": [float(p) for p in q],
            "positives": pos.tolist(),
            "negatives": neg.tolist(),
            **({} if w_pos is None else {"weighted_positives": [float(v) for v in w_pos],
                                         "weighted_negatives": [float(v) for v in w_neg]}),
            **({} if prior is None else {"prior": [float(v) for v in prior]}),
        }
        for totals, q, pos, neg, w_pos, w_neg, prior in zip(
            model.stage_totals_, model.stage_probabilities_, model.stage_positives_, model.stage_negatives_,
            weighted_positives, weighted_negatives, priors,
        )
    ]


def recomputes(model):
    """Whether a file can record what recomputes the list's probabilities from its counts: always,
    unless the list was read from a file of version 1 (``probabilities_checked_`` False) and its
    counts do not give its probabilities as a fit without weights would (it was learned with
    weights or recalibrated before a file recorded what from): such a list is written as
    version 1 again, and loads with the same notice."""
    if getattr(model, "probabilities_checked_", True):
        return True
    tables = [(t, np.asarray(q, dtype=float), pos, neg) for t, q, pos, neg in zip(
        model.stage_totals_, model.stage_probabilities_, model.stage_positives_, model.stage_negatives_)]
    try:
        check_recomputed(tables, _estimate(model, None, None))
    except ModelFileError:
        return False
    return True


def set_estimates(model, calibration, version, tables):
    """Read what recomputes the probabilities (a file of version 2: :func:`recorded_estimates`)
    onto ``model`` and check them (:func:`check_recomputed`); a file of version 1 records none,
    and its list's ``probabilities_checked_`` is False."""
    weighted, priors = recorded_estimates(calibration, version)
    model.probabilities_checked_ = version >= 2
    if model.probabilities_checked_:
        check_recomputed(tables, _estimate(model, weighted, priors))
    model.stage_weighted_positives_, model.stage_weighted_negatives_ = weighted or (None, None)
    model.stage_prior_probabilities_ = priors


def _estimate(model, weighted, priors):
    """What :func:`check_recomputed` recomputes a list's probabilities with."""
    return {"method": model.calibration, "prior_strength": float(model.prior_strength),
            "shrinkage": model.shrinkage_, "inflation": model.interval_inflation_, "weighted": weighted,
            "priors": priors}
