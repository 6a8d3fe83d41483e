"""The Train page's choices for each option: the values a radio offers, the range of a number
field, and the value each widget starts with.

A widget starts with the default setup's choice (:data:`~psl_triage.training.DEFAULT_SETUP`)
where the setups differ, else with :class:`~psl_triage.training.TrainingOptions`' default.
The words of each choice are in :mod:`psl_triage.words.train`.

Nothing here imports Streamlit.
"""

from __future__ import annotations

from dataclasses import fields

from psl_core.cost_ratio import COST_RATIO_RANGE
from psl_triage.training.options import DEFAULT_SETUP, SETUPS, TrainingOptions

RADIO_CHOICES = {
    "calibration": ("isotonic", "beta", "sigmoid"),
    "binarization": ("in-search", "preprocess"),
    "threshold_search": ("bisect", "brute"),
    "loss": ("entropy", "cv_brier", "nested_cv_brier"),
    "interval_correction": ("bonferroni", "sidak"),
    "shrinkage": ("cv", None),
}
"""The values each radio option offers, in the page's order."""

NUMBER_CHOICES = {
    "prior_strength": {"min_value": 0.0, "max_value": 100.0, "step": 1.0, "format": "%.1f"},
    "max_feature_uses": {"min_value": 1, "max_value": 3, "step": 1},
    "min_support": {"min_value": 1, "max_value": 1000, "step": 1},
    "max_stages": {"min_value": 1, "step": 1},
    "test_fraction": {"min_value": 0.0, "max_value": 0.9, "step": 0.05, "format": "%.2f"},
    "seed": {"min_value": 0, "step": 1},
    "cost_ratio": {"min_value": COST_RATIO_RANGE[0], "max_value": COST_RATIO_RANGE[1], "step": 1.0, "format": "%g"},
}
"""The range and step of each number option's field (None: the field has no bound)."""

_DEFAULTS = {field.name: field.default for field in fields(TrainingOptions)}


def start_value(name):
    """The value an option's widget starts with (a number field's in its field's type)."""
    value = SETUPS[DEFAULT_SETUP].get(name, _DEFAULTS[name])
    kind = type(NUMBER_CHOICES[name]["min_value"]) if name in NUMBER_CHOICES else None
    return kind(value) if kind is not None and value is not None else value
