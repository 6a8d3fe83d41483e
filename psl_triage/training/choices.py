"""The Train page's choices for each option: the values a radio offers, the range of a number
field, and the value each widget starts with.

The choices derive from the estimator's declared parameters
(:func:`psl_core.parameters.parameter_choices`, :func:`~psl_core.parameters.parameter_range`):
a radio offers every value the estimator accepts but those in :data:`NOT_OFFERED_CHOICES`, in
the order of their words (:data:`psl_triage.words.train.CHOICE_LABELS`); a number field starts
at the estimator's lower bound unless the page declares a tighter one, and the page caps some
fields (:data:`NUMBER_CHOICES`). A widget starts with the default setup's choice
(:data:`~psl_triage.training.options.DEFAULT_SETUP`) where the setups differ, else with
:class:`~psl_triage.training.options.TrainingOptions`' default.
"""

from __future__ import annotations

from dataclasses import fields

from psl_core.cost_ratio import COST_RATIO_RANGE
from psl_core.parameters import parameter_choices, parameter_range
from psl_triage.training.options import DEFAULT_SETUP, SETUPS, TrainingOptions
from psl_triage.words.train import CHOICE_LABELS

NOT_OFFERED_CHOICES = {"loss": ("cv_log_loss", "nested_cv_log_loss", "soft_rank")}
"""Values the estimator accepts that the page does not offer: the page offers the paper's
criterion and the Brier-score ones the recommended setup was chosen by (``bench/quality.py``);
the log-loss variants and the soft rank loss (it learns a ranking, not probabilities) stay
available to scripts."""

RADIO_CHOICES = {
    name: tuple(value for value in CHOICE_LABELS[name]
                if value in parameter_choices(name) and value not in NOT_OFFERED_CHOICES.get(name, ()))
    for name in ("calibration", "binarization", "threshold_search", "loss", "interval_correction", "shrinkage")
}
"""The values each radio option offers, in the page's order."""


def _from_the_estimator(name, **page):
    """A number field's range: the estimator's lower bound (in its type), then the page's own."""
    low = parameter_range(name)[0]
    kind = float if isinstance(page.get("step", 1), float) else int
    return {"min_value": kind(low), **page}


NUMBER_CHOICES = {
    "prior_strength": _from_the_estimator("prior_strength", max_value=100.0, step=1.0, format="%.1f"),
    "max_feature_uses": _from_the_estimator("max_feature_uses", max_value=3, step=1),
    "min_support": _from_the_estimator("min_support", max_value=1000, step=1),
    # The estimator accepts 0 stages (the base rate alone); the page asks for at least one.
    "max_stages": {"min_value": 1, "step": 1},
    "test_fraction": {"min_value": 0.0, "max_value": 0.9, "step": 0.05, "format": "%.2f"},
    "seed": {"min_value": 0, "step": 1},
    "cost_ratio": {"min_value": COST_RATIO_RANGE[0], "max_value": COST_RATIO_RANGE[1], "step": 1.0, "format": "%g"},
}
"""The range and step of each number option's field (no ``max_value``: the field has no bound)."""

_DEFAULTS = {field.name: field.default for field in fields(TrainingOptions)}


def start_value(name):
    """The value an option's widget starts with (a number field's in its field's type)."""
    value = SETUPS[DEFAULT_SETUP].get(name, _DEFAULTS[name])
    kind = type(NUMBER_CHOICES[name]["min_value"]) if name in NUMBER_CHOICES else None
    return kind(value) if kind is not None and value is not None else value
