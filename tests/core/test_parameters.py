"""The estimator's parameters are declared once (psl_core.parameters) and read from there."""

import inspect

import pytest

from psl_core import ProbabilisticScoringList, PSLError
from psl_core.parameters import PARAMETER_CONSTRAINTS, check_params, parameter_choices, parameter_range


def test_every_parameter_is_declared_once_and_nothing_else():
    names = set(inspect.signature(ProbabilisticScoringList.__init__).parameters) - {"self"}
    assert set(PARAMETER_CONSTRAINTS) == names
    assert ProbabilisticScoringList._parameter_constraints is PARAMETER_CONSTRAINTS


def test_the_defaults_satisfy_the_declarations():
    assert check_params(ProbabilisticScoringList().get_params(deep=False)) == (-3, -2, -1, 1, 2, 3)


def test_choices_and_ranges_are_read_from_the_declarations():
    assert parameter_choices("calibration") == ("beta", "isotonic", "sigmoid")
    assert parameter_choices("shrinkage") == ("cv", None)
    assert parameter_choices("min_support") is None
    assert parameter_choices("score_set") is None
    assert parameter_range("min_support") == (1, None, "left")
    assert parameter_range("calibration_size") == (0, 1, "neither")
    assert parameter_range("calibration") is None
    assert parameter_range("horizon") is None


@pytest.mark.parametrize("name", ["max_stages", "cv_folds", "prior_strength", "calibration_size"])
def test_a_number_given_as_true_is_refused(name):
    params = ProbabilisticScoringList().get_params(deep=False) | {name: True}
    with pytest.raises(PSLError, match=f"'{name}' parameter of ProbabilisticScoringList must be"):
        check_params(params)
