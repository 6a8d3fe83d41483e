"""The estimator's parameters, declared once in scikit-learn's style.

:data:`PARAMETER_CONSTRAINTS` is :class:`~psl_core.model.ProbabilisticScoringList`'s
``_parameter_constraints``: for each parameter the types, ranges and choices it accepts
(``sklearn.utils._param_validation``). Parameters whose rules need more than a type and a
range (the score set, costs, constraints, the horizon) are ``"no_validation"`` here and
have a checker of their own, which :func:`check_params` calls and which the model file
reader and the app share. :func:`parameter_choices` and :func:`parameter_range` read the
declarations (for an app's options) without touching scikit-learn's private classes.
"""

import numbers
from numbers import Integral, Real

import numpy as np
from sklearn.utils._param_validation import (
    Interval,
    InvalidParameterError,
    StrOptions,
    make_constraint,
    validate_parameter_constraints,
)

from .calibration import CALIBRATION_CODES
from .constraints import check_constraints
from .costs import check_cost_groups, check_cost_weight, check_question_costs
from .errors import PSLError
from .intervals import CORRECTIONS
from .search import CRITERION_CODES
from .survival import check_horizon

PARAMETER_CONSTRAINTS = {
    "score_set": "no_validation",  # check_score_set
    "calibration": [StrOptions(set(CALIBRATION_CODES))],
    "binarization": [StrOptions({"in-search", "preprocess"})],
    "threshold_search": [StrOptions({"bisect", "brute"})],
    "loss": [StrOptions(set(CRITERION_CODES))],
    "max_stages": [Interval(Integral, 0, None, closed="left"), None],
    "lookahead": [Interval(Integral, 1, None, closed="left")],
    "beam_width": [Interval(Integral, 1, None, closed="left")],
    "calibration_size": [Interval(Real, 0, 1, closed="neither"), None],
    "random_state": ["random_state"],
    "prior_strength": [Interval(Real, 0, None, closed="left")],
    "cv_folds": [Interval(Integral, 2, None, closed="left")],
    "interval_correction": [StrOptions(set(CORRECTIONS))],
    "recommend_folds": [Interval(Integral, 2, None, closed="left"), None],
    "recommend_repeats": [Interval(Integral, 1, None, closed="left"), StrOptions({"auto"})],
    "max_feature_uses": [Interval(Integral, 1, None, closed="left")],
    "min_support": [Interval(Integral, 1, None, closed="left")],
    "question_costs": "no_validation",  # costs.check_question_costs
    "cost_weight": "no_validation",  # costs.check_cost_weight
    "shrinkage": [StrOptions({"cv"}), None],
    "cost_groups": "no_validation",  # costs.check_cost_groups
    "missing": [StrOptions({"learn", "error"})],
    "monotone": "no_validation",  # constraints.check_constraints
    "required": "no_validation",  # constraints.check_constraints
    "forbidden": "no_validation",  # constraints.check_constraints
    "horizon": "no_validation",  # survival.check_horizon
    "group_categories": ["boolean"],
}
"""Each parameter of the estimator and what it accepts (scikit-learn's constraint language)."""

PAPER_SETUP = {
    "score_set": (-3, -2, -1, 1, 2, 3),
    "calibration": "isotonic",
    "loss": "entropy",
    "prior_strength": 0.0,
    "max_feature_uses": 1,
    "min_support": 1,
    "interval_correction": "bonferroni",
    "shrinkage": None,
    "group_categories": False,
}
"""The paper's setup (Hanselle et al.): its score set and the parameters where the
defaults differ from it. ``ProbabilisticScoringList(**PAPER_SETUP)`` is the paper's learner."""

MAX_SCORE = 1000
"""Largest points of a question (in absolute value): the bound of the model file's schema, and
what keeps the table of reachable totals small."""


def check_score_set(score_set):
    """Validate a score set: non-empty, distinct non-zero integers; returns a sorted tuple."""
    try:
        values = list(score_set)
    except TypeError:
        raise PSLError(f"score_set must be a collection of integers, got {score_set!r}") from None
    if not values:
        raise PSLError("score_set is empty: give at least one non-zero integer score")
    checked = []
    for value in values:
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Integral, numbers.Real)):
            raise PSLError(f"score_set must hold integers, got {value!r}")
        if float(value) != int(value):
            raise PSLError(f"score_set must hold integers, got the non-integer {value!r}")
        if int(value) == 0:
            raise PSLError("score_set must not contain 0: a feature worth 0 points adds nothing")
        if abs(int(value)) > MAX_SCORE:
            raise PSLError(
                f"score_set must hold scores from -{MAX_SCORE} to {MAX_SCORE}, got {value!r}: "
                "a person adds the points at the bedside"
            )
        checked.append(int(value))
    if len(set(checked)) != len(checked):
        raise PSLError(f"score_set has repeated scores: {sorted(checked)}")
    return tuple(sorted(checked))


def check_params(params, caller_name="ProbabilisticScoringList"):
    """Validate the estimator's parameters (a ``get_params(deep=False)`` dict).

    Returns
    -------
    tuple of int
        The checked score set, sorted.

    Raises
    ------
    PSLError
        Naming the first parameter that is wrong and its value.
    """
    try:
        validate_parameter_constraints(PARAMETER_CONSTRAINTS, params, caller_name=caller_name)
    except InvalidParameterError as exc:
        raise PSLError(str(exc)) from None
    for name, value in params.items():
        # scikit-learn counts True as the integer 1; a count or size given as True is a mistake.
        if isinstance(value, (bool, np.bool_)) and parameter_range(name) is not None:
            raise PSLError(
                f"The {name!r} parameter of {caller_name} must be a number, not True or False. Got {value!r} instead."
            )
    check_question_costs(params["question_costs"])
    check_cost_groups(params["cost_groups"])
    check_cost_weight(params["cost_weight"])
    check_constraints(params["monotone"], params["required"], params["forbidden"])
    if params["horizon"] is not None:
        check_horizon(params["horizon"])
    return check_score_set(params["score_set"])


def parameter_choices(name):
    """The values a choice parameter accepts (sorted, None last if allowed), or None when
    ``name`` is not a choice among fixed values."""
    declared = PARAMETER_CONSTRAINTS[name]
    if declared == "no_validation":
        return None
    options = [c for c in declared if isinstance(c, StrOptions)]
    if not options:
        return None
    choices = tuple(sorted(options[0].options))
    return choices + (None,) if None in declared else choices


def parameter_range(name):
    """``(low, high, closed)`` of a numeric parameter (None for no bound; ``closed`` is
    ``"left"``, ``"right"``, ``"both"`` or ``"neither"``), or None when it has no range."""
    declared = PARAMETER_CONSTRAINTS[name]
    if declared == "no_validation":
        return None
    for constraint in map(make_constraint, declared):
        if isinstance(constraint, Interval):
            return constraint.left, constraint.right, constraint.closed
    return None
