"""The cost ratio M: its default, its validation, the threshold, the value saved with a list.

A missed case (false negative) costs M, a false alarm (false positive) costs 1 (paper,
Sec. 5.4). For a probability p the expected loss of deciding is ``min(1 - p, M p)``, so
the cost-optimal decision is positive exactly when p > 1 / (1 + M), the *decision
threshold*. Every module that needs M (the bedside rule in :mod:`psl_core.decision`, the
measures in :mod:`psl_core.metrics` and :mod:`psl_core.evaluation`, the model format in
:mod:`psl_core.serialization`, the app's inputs and figures) takes it from here.

A list is saved with the M it is meant for, as ``metadata["decision"] = {"cost_ratio": M}``
(:func:`saved_cost_ratio`); a file saved before lists carried their M is used with
:data:`DEFAULT_COST_RATIO`. What M means in words is the app's (:mod:`psl_triage.words.common`).
"""

import numbers

import numpy as np

from .errors import ModelFileError, PSLError

__all__ = [
    "DEFAULT_COST_RATIO", "COST_RATIO_RANGE", "check_cost_ratio", "cost_ratio_at", "decision_threshold",
    "expected_loss", "saved_cost_ratio"
]

DEFAULT_COST_RATIO = 10.0
"""M of the paper's evaluation: a missed case costs as much as ten false alarms."""

COST_RATIO_RANGE = (0.001, 1000.0)
"""The values of M offered for choice: from a false alarm a thousand times worse than a missed
case to a missed case a thousand times worse than a false alarm (the range of M over which a
list of a common outcome changes decisions may lie far below 1: 0.0095)."""

def check_cost_ratio(cost_ratio):
    """Validate M, the cost of a missed case relative to a false alarm (> 0).

    Returns
    -------
    float
    """
    try:
        value = float(cost_ratio)
    except (TypeError, ValueError):
        raise PSLError(f"cost_ratio (M) must be a positive number, got {cost_ratio!r}") from None
    if not np.isfinite(value) or value <= 0:
        raise PSLError(f"cost_ratio (M) must be a positive number, got {cost_ratio!r}")
    return value


def decision_threshold(cost_ratio):
    """1 / (1 + M): the probability above which deciding positive costs less."""
    return 1.0 / (1.0 + check_cost_ratio(cost_ratio))


def cost_ratio_at(threshold):
    """The M whose decision threshold 1 / (1 + M) is ``threshold`` (in (0, 1]): 1 / threshold - 1,
    the inverse of :func:`decision_threshold` (0 for a threshold of 1, which no valid M reaches)."""
    return 1.0 / threshold - 1.0


def expected_loss(p, cost_ratio):
    """Expected loss of the cost-optimal decision, ``min(1 - p, M p)`` (elementwise)."""
    p = np.asarray(p, dtype=float)
    return np.minimum(1.0 - p, check_cost_ratio(cost_ratio) * p)


def saved_cost_ratio(metadata):
    """M saved with a list: ``metadata["decision"]["cost_ratio"]``.

    Parameters
    ----------
    metadata : dict or None
        A model file's metadata.

    Returns
    -------
    float
        The saved M; :data:`DEFAULT_COST_RATIO` for a list saved before lists carried
        their M (no ``"decision"`` entry).

    Raises
    ------
    ModelFileError
        The entry is there but holds no positive number for M.
    """
    decision = (metadata or {}).get("decision")
    if decision is None:
        return DEFAULT_COST_RATIO
    if not isinstance(decision, dict) or "cost_ratio" not in decision:
        raise ModelFileError(f'metadata.decision must be an object {{"cost_ratio": M}}, got {decision!r}')
    value = decision["cost_ratio"]
    try:
        if isinstance(value, bool) or not isinstance(value, numbers.Real):  # no "10" or true in a file
            raise PSLError(f"cost_ratio (M) must be a positive number, got {value!r}")
        return check_cost_ratio(value)
    except PSLError as exc:
        raise ModelFileError(f"metadata.decision.{exc}") from None
