"""Decision curve analysis: is deciding with the list better than treating everyone or no one?

Vickers & Elkin (2006). Acting on patients whose risk exceeds a threshold probability t
weighs a false positive against a true positive by the odds t / (1 - t): the threshold at
which a clinician is indifferent. The *net benefit* of acting on a set of patients is

    NB(t) = TP / n - FP / n * t / (1 - t)

in units of true positives per patient. The list's cost ratio M *is* such a threshold:
t = 1 / (1 + M) (:func:`psl_core.cost_ratio.decision_threshold`), and NB(t) is a linear
function of the expected loss with that M. Two reference strategies: *treat none*
(NB = 0) and *treat all* (NB = prevalence - (1 - prevalence) t / (1 - t)).
*Net interventions avoided* per 100 patients is the gain over treating all, in
unnecessary interventions: 100 (NB - NB_all) (1 - t) / t.

Here a patient is acted on when p > t, the bedside rule's strict inequality
(:mod:`psl_core.decision`); ``dcurves`` acts when p >= t, which differs only for a
probability exactly on a threshold.

A list with question costs carries a harm term: the mean cost of the questions asked
divided by the value of a true positive in the costs' unit, subtracted from its net
benefit (Vickers & Elkin's "harm of the test").
"""

import numpy as np

from .errors import PSLError
from .metrics import checked_probabilities, labels01

__all__ = [
    "THRESHOLD_GRID", "DEFAULT_THRESHOLD_RANGE", "TREAT_ALL", "TREAT_NONE", "check_thresholds", "net_benefit",
    "net_benefit_of_actions", "net_benefit_unchecked", "treat_all_net_benefit", "interventions_avoided"
]

THRESHOLD_GRID = np.round(np.arange(0.01, 1.0, 0.01), 2)
"""Thresholds at which held-out curves are computed (1 % to 99 % in steps of 1 %)."""
DEFAULT_THRESHOLD_RANGE = (0.01, 0.50)
"""Threshold range shown by default (Vickers: the range where clinicians could disagree)."""
TREAT_ALL = "Treat all"
TREAT_NONE = "Treat none"


def check_thresholds(thresholds):
    """Thresholds as a 1-d float array in (0, 1), checked."""
    t = np.atleast_1d(np.asarray(thresholds, dtype=float))
    if t.ndim != 1 or len(t) == 0 or not np.all((t > 0) & (t < 1)):
        raise PSLError(f"thresholds must be probabilities strictly between 0 and 1, got {thresholds!r}")
    return t


def net_benefit(y, p, thresholds, harm=0.0):
    """Net benefit of acting on patients with p > t, for every threshold t.

    Parameters
    ----------
    y : array-like of 0/1, shape (n,)
    p : array-like of float in [0, 1], shape (n,)
    thresholds : array-like of float in (0, 1), shape (m,)
    harm : float >= 0
        Subtracted from every value (the cost of using the model per patient, in true
        positives).

    Returns
    -------
    ndarray of shape (m,)
    """
    y = labels01(y)
    return net_benefit_unchecked(y, checked_probabilities(p, len(y)), check_thresholds(thresholds)) - float(harm)


def net_benefit_unchecked(y, p, t):
    """:func:`net_benefit` without checks, for loops over many resamples (the Monte Carlo splits,
    bootstraps): ``y`` 0/1 and ``p`` arrays of one length, ``t`` thresholds already checked.
    Counts by sorting p once."""
    order = np.argsort(p, kind="stable")
    p_sorted = p[order]
    positives_above = np.concatenate([np.cumsum(y[order][::-1])[::-1], [0]])
    index = np.searchsorted(p_sorted, t, side="right")  # first patient with p > t
    acted = len(y) - index
    tp = positives_above[index]
    fp = acted - tp
    return tp / len(y) - fp / len(y) * t / (1 - t)


def net_benefit_of_actions(y, acted, threshold, harm=0.0):
    """Net benefit at one threshold of a given set of actions (e.g. the bedside stop rule's).

    Parameters
    ----------
    y : array-like of 0/1, shape (n,)
    acted : array-like of bool, shape (n,)
        True where the patient is treated as positive.
    threshold : float in (0, 1)
    harm : float >= 0

    Returns
    -------
    float
    """
    y = labels01(y)
    acted = np.asarray(acted, dtype=bool)
    if acted.shape != y.shape:
        raise PSLError(f"acted must have one entry per label: shape {y.shape}, got {acted.shape}")
    t = float(check_thresholds(threshold)[0])
    tp, fp = np.sum(acted & (y == 1)), np.sum(acted & (y == 0))
    return float(tp / len(y) - fp / len(y) * t / (1 - t) - harm)


def treat_all_net_benefit(prevalence, thresholds):
    """Net benefit of treating everyone: prevalence - (1 - prevalence) t / (1 - t)."""
    t = check_thresholds(thresholds)
    return prevalence - (1 - prevalence) * t / (1 - t)


def interventions_avoided(net_benefit_model, net_benefit_all, thresholds, per=100):
    """Net interventions avoided per ``per`` patients: per (NB - NB_all) (1 - t) / t."""
    t = check_thresholds(thresholds)
    return per * (np.asarray(net_benefit_model) - np.asarray(net_benefit_all)) * (1 - t) / t
