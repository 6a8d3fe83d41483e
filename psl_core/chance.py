"""Where a cross-validated list ends: past its recommended length, a question must beat chance.

A cross-validated criterion (:data:`psl_core.search.CROSS_VALIDATED`) scores every
candidate on held-out folds, but the folds are drawn once and the search compares
hundreds to thousands of candidates on them: on a small table one of them nearly always
lowers the held-out score by chance, and a list ended by "no candidate improves" grew to
13 to 36 questions from about 150 rows (issue 37), past any length the internal
cross-validation recommends. With ``recommend_folds`` the estimator therefore cuts the
whole list after the last stage past the recommended one (and the required ones) whose
question lowers the held-out score by more than :data:`REQUIRED_Z` standard errors
(:func:`kept_stages`): no question after it beats chance; ``end_reason_`` is then
``"chance"``. The recommended length, found by refitting the search on the internal folds,
is not changed, nor is any stage up to it; the internal folds' own lists are not cut (they
judge every length).

The test is a paired one on the rows (:func:`stage_evidence`): each row's held-out loss
(Brier score or log-loss of the estimate calibrated on the other folds, as the criterion
scores it) under the list up to stage k - 1 and up to stage k; their mean difference is
stage k's gain (exactly the criterion's improvement) and its standard error follows from
the rows' differences. How large chance makes the best option's gain was measured, not
assumed (``bench/README.md``, section "Where the full list ends"): with the outcome
permuted, so that no question helps, the best of the 14 to 78 options of a stage on 150
rows of the shared tables gained between 0.1 and 2.2 of its standard errors. A Bonferroni
bound over the options (2.7 to 3.3 standard errors) is far stricter than that, because the
options of one column are nearly one question: applied at every stage, it stopped the
whole 303-row heart_cleveland table after 2 questions. Judging the questions past the
recommended length together (their joint gain over it) does not control chance: selected
gains add up, and a list on a permuted outcome kept all of its 13 questions. What the rule
costs is measured there too: on a table whose later questions each help a little (MASS
biopsy, 100 training rows) the list ends near the recommended length and gives up the
gain of the fifth question. Without ``recommend_folds``, or with a training criterion
(expected entropy, soft rank loss), the list ends as the search ends.
"""

import numpy as np

from .calibration import CALIBRATION_CODES, calibrated_probabilities, stage_counts
from .kernels import CV_BRIER, NESTED_CV_BRIER
from .search import apply_option

REQUIRED_Z = 2.0
"""Standard errors of its paired differences by which a question past the recommended length
must lower the held-out score to stay in the list (chosen by ``bench/list_end.py``)."""

_METHODS = {code: name for name, code in CALIBRATION_CODES.items()}
_LOG_LOSS_EPS = 1e-3  # the criterion's clip of a probability before its logarithm (psl_core.kernels)


def held_out_losses(evaluator, totals, reach):
    """Each row's held-out loss under the given totals, as the evaluator's criterion scores it.

    Parameters
    ----------
    evaluator : LabelEvaluator
        With a cross-validated criterion: its folds, labels, weights, calibration and
        pseudo-counts.
    totals : ndarray of int, shape (n,)
        Every row's total.
    reach : (int, int)
        The stage's smallest and largest reachable totals.

    Returns
    -------
    ndarray of float, shape (n,)
        The loss of each row's estimate calibrated on the rows of the other folds.
    """
    lo, hi = reach
    dense = np.arange(lo, hi + 1)
    method = _METHODS[evaluator.method]
    y = evaluator.y
    p = np.empty(len(y))
    for fold in range(evaluator.n_folds):
        held = evaluator.folds == fold
        train = ~held
        weight = None if evaluator.weight is None else evaluator.weight[train]
        positives, negatives = stage_counts(totals[train], y[train], dense, weight)
        q = calibrated_probabilities(dense, positives, negatives, method, lo, hi, evaluator.shrink)
        p[held] = q[totals[held] - lo]
    if evaluator.criterion in (CV_BRIER, NESTED_CV_BRIER):
        return (p - y) ** 2
    p = np.clip(p, _LOG_LOSS_EPS, 1.0 - _LOG_LOSS_EPS)
    return -(y * np.log(p) + (1 - y) * np.log(1.0 - p))


def paired_gain(evaluator, before, after):
    """Mean held-out gain of ``after`` over ``before`` and its standard error.

    Parameters
    ----------
    evaluator : LabelEvaluator
    before, after : (totals, reach)
        The rows' totals and the reachable range without and with the option.

    Returns
    -------
    gain, se : float
        The (weighted) mean of the rows' loss differences, and its standard error.
    """
    difference = held_out_losses(evaluator, *before) - held_out_losses(evaluator, *after)
    return _mean_and_se(difference, evaluator.weight)


def _mean_and_se(difference, weight):
    """Weighted mean of the rows' differences and its standard error."""
    weight = np.ones(len(difference)) if weight is None else weight
    total = weight.sum()
    gain = float(weight @ difference / total)
    n = len(difference)
    spread = float(weight**2 @ (difference - gain) ** 2) * n / max(n - 1, 1)
    return gain, float(np.sqrt(spread) / total)


def stage_evidence(evaluator, chosen):
    """Each stage's held-out gain in standard errors of its rows' paired differences.

    Parameters
    ----------
    evaluator : LabelEvaluator
        The search's, with a cross-validated criterion.
    chosen : list of Option
        The list's questions in order.

    Returns
    -------
    ndarray of shape (len(chosen),)
        Gain / standard error of stages 1..K over the stage before each (a gain without
        spread: +-inf, or 0 if none).
    """
    totals, reach = np.zeros(evaluator.n_rows, dtype=np.int64), (0, 0)
    z = np.zeros(len(chosen))
    for k, option in enumerate(chosen):
        after = apply_option(evaluator.features, option, totals, reach)
        gain, se = paired_gain(evaluator, (totals, reach), after)
        z[k] = gain / se if se > 0 else np.sign(gain) * np.inf
        totals, reach = after
    return z


def kept_stages(z, protected):
    """How many stages a list keeps: up to the last one after ``protected`` whose own question
    gains more than :data:`REQUIRED_Z` standard errors (a stage before it keeps its place), and
    never fewer than ``protected``; past it no question beats chance."""
    return max([protected, *(k for k in range(protected + 1, len(z) + 1) if z[k - 1] > REQUIRED_Z)])
