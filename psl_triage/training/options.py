"""The learner's options as the Train page offers them: score sets, the two named setups and
:class:`TrainingOptions`, validated before any data is split.

The learner's options are the estimator's parameters, declared once in
:data:`psl_core.parameters.PARAMETER_CONSTRAINTS`: :data:`LEARNER_OPTIONS` is every one of them
but those the app leaves at the estimator's default (:data:`NOT_OFFERED`) or sets itself
(:data:`SET_BY_THE_APP`), and :class:`TrainingOptions` gets one field for each.
"""

from __future__ import annotations

import math
import numbers
import re
from dataclasses import asdict, dataclass, field, make_dataclass
from typing import Any

from psl_core.cost_ratio import DEFAULT_COST_RATIO, check_cost_ratio
from psl_core.errors import PSLError
from psl_core.model import ProbabilisticScoringList
from psl_core.parameters import PAPER_SETUP, PARAMETER_CONSTRAINTS, check_score_set
from psl_triage.training.costs import check_unit
from psl_triage.words import settings as words

SCORE_SET_PRESETS = {
    "paper": PAPER_SETUP["score_set"],
    "positive": tuple(s for s in PAPER_SETUP["score_set"] if s > 0),
}
"""The score sets the page offers besides a custom one; "paper" is the paper's {±1, ±2, ±3}."""

MAX_ABS_SCORE = 10
"""Largest score a custom set may hold: larger points only stretch the table of totals."""


_TOKEN = re.compile(r"^(?P<sign>[+\-±]?)(?P<digits>[0-9]+)$")
_MINUS_SIGNS = str.maketrans({"−": "-", "–": "-", "—": "-"})


def parse_score_set(text):
    """Scores typed by a user, e.g. ``"-2, -1, 1, 2"``, as a sorted tuple of integers.

    Scores are whole numbers separated by commas, semicolons or spaces; a leading "+" is
    allowed and "±2" stands for -2 and 2.

    Raises
    ------
    PSLError
        The text is empty, holds something other than whole numbers, a 0, a repeated
        score, or a score larger than :data:`MAX_ABS_SCORE` in absolute value.
    """
    tokens = [t for t in re.split(r"[,;\s]+", str(text).translate(_MINUS_SIGNS)) if t]
    if not tokens:
        raise PSLError(words.EMPTY_SCORE_SET)
    scores = []
    for token in tokens:
        match = _TOKEN.match(token)
        if match is None:
            raise PSLError(words.SCORE_NOT_WHOLE.format(token=token))
        value = int(match["digits"])
        scores.extend({"-": [-value], "±": [-value, value]}.get(match["sign"], [value]))
    if any(abs(s) > MAX_ABS_SCORE for s in scores):
        raise PSLError(words.SCORE_TOO_LARGE.format(max_abs_score=MAX_ABS_SCORE))
    if 0 in scores:
        raise PSLError(words.SCORE_ZERO)
    repeated = sorted({s for s in scores if scores.count(s) > 1})
    if repeated:
        raise PSLError(words.REPEATED_SCORES.format(repeated=', '.join(map(str, repeated))))
    return check_score_set(scores)


RECOMMEND_FOLDS = 5
"""Folds of the internal cross-validation that recommends the list's length (the triage page
asks that many questions by default); the estimator's default (None) skips it."""

NOT_OFFERED = ("lookahead", "beam_width", "calibration_size", "cv_folds", "missing", "recommend_repeats")
"""The estimator's parameters the app leaves at their defaults: search breadth and depth,
a separate calibration split, the criterion's folds, how missing values are treated
(learned) and how often the recommending folds are drawn are for scripts and benchmarks."""

SET_BY_THE_APP = ("random_state", "recommend_folds", "horizon")
"""The estimator's parameters the app sets itself: ``random_state`` from :attr:`seed` (which
also seeds the train/test split), ``recommend_folds`` to :data:`RECOMMEND_FOLDS`, and the
horizon from the data page's follow-up choice (:func:`psl_triage.training.fit.train_list`)."""

LEARNER_OPTIONS = tuple(name for name in PARAMETER_CONSTRAINTS if name not in NOT_OFFERED + SET_BY_THE_APP)
"""The estimator's parameters a :class:`TrainingOptions` carries, one field each."""

_SETUP_KEYS = tuple(key for key in PAPER_SETUP if key != "score_set")  # the score set is a choice of its own
SETUPS = {
    "paper": {key: PAPER_SETUP[key] for key in _SETUP_KEYS},
    "recommended": {key: ProbabilisticScoringList().get_params()[key] for key in _SETUP_KEYS},
}
"""The learner's choices of the two named setups: the paper's (Hanselle et al.) and the
recommended one, :class:`~psl_core.model.ProbabilisticScoringList`'s defaults, chosen by
their measured test Brier scores on the shared datasets (``bench/quality.py``)."""

DEFAULT_SETUP = "recommended"
"""The setup the Train page starts with: the measured best; the paper's is one click away."""

_LEARNER_DEFAULTS = {**ProbabilisticScoringList().get_params(), **PAPER_SETUP}
# TrainingOptions() is the paper's learner (PAPER_SETUP over the estimator's defaults), a
# deliberate difference from the estimator's own defaults: scripts, tests and benchmarks that
# build options reproduce the paper unless they say otherwise. The Train page starts at
# DEFAULT_SETUP, the estimator's defaults.
_LearnerOptions = make_dataclass(
    "_LearnerOptions", [(name, Any, field(default=_LEARNER_DEFAULTS[name])) for name in LEARNER_OPTIONS], frozen=True,
)
_LearnerOptions.__module__ = __name__


@dataclass(frozen=True)
class TrainingOptions(_LearnerOptions):
    """The learner's options on the Train page, and the app's own.

    One field per name of :data:`LEARNER_OPTIONS`: the estimator's parameter of that name (see
    :class:`~psl_core.model.ProbabilisticScoringList`), defaulting to the paper's setup
    (:data:`~psl_core.parameters.PAPER_SETUP`, the estimator's default elsewhere). Among them
    ``question_costs``, ``cost_groups``, ``monotone``, ``required`` and ``forbidden`` are saved in
    the list's parameters, not repeated in ``"training_options"``. The app's own:

    Attributes
    ----------
    test_fraction : float in [0, 1)
        Share of the rows held out (stratified) to measure the list on; 0 keeps none.
    seed : int >= 0
        Seed of the train/test split, of the cross-validated criterion's folds and of
        the internal cross-validation that recommends where to stop the list
        (:data:`RECOMMEND_FOLDS` folds).
    cost_ratio : float > 0
        M, the cost of a missed case relative to a false alarm, saved with the list
        (``metadata["decision"]``) as the trade-off the bedside pages start with; not a
        learner option (the list is the same for every M).
    cost_unit : str
        The question costs' unit, saved as ``metadata["cost_unit"]`` (:mod:`psl_triage.training.costs`).

    :meth:`setup` names the setup the choices make ("paper", "recommended" or "custom");
    ``TrainingOptions(**SETUPS["recommended"])`` is the recommended one.
    """

    test_fraction: float = 1 / 3
    seed: int = 0
    cost_ratio: float = DEFAULT_COST_RATIO
    cost_unit: str = ""

    def __post_init__(self):
        if self.max_stages is not None and self.max_stages < 1:
            raise PSLError(words.BAD_MAX_STAGES.format(max_stages=self.max_stages))
        fraction = self.test_fraction
        if (
            isinstance(fraction, bool)
            or not isinstance(fraction, numbers.Real)
            or not math.isfinite(fraction)
            or not 0 <= fraction < 1
        ):
            raise PSLError(words.BAD_TEST_FRACTION.format(fraction=fraction))
        if isinstance(self.seed, bool) or not isinstance(self.seed, numbers.Integral) or self.seed < 0:
            raise PSLError(words.BAD_SEED.format(seed=self.seed))
        # Validated here, not in fit, so a bad choice is reported before the data is split.
        self.estimator()._check_params()
        check_cost_ratio(self.cost_ratio)
        check_unit(self.cost_unit)

    def setup(self):
        """"paper" or "recommended" when the learner's choices are that setup's, else "custom"."""
        for name, choices in SETUPS.items():
            if all(getattr(self, key) == value for key, value in choices.items()):
                return name
        return "custom"

    def estimator(self):
        """An unfitted list with these options."""
        return ProbabilisticScoringList(
            **{name: getattr(self, name) for name in LEARNER_OPTIONS},
            recommend_folds=RECOMMEND_FOLDS,
            random_state=self.seed,
        )

    def to_dict(self):
        """JSON-ready options, for the model file (M goes to its ``"decision"`` entry)."""
        options = asdict(self)
        for key in (  # each has its own home in the file
            "cost_ratio", "question_costs", "cost_groups", "cost_unit", "monotone", "required", "forbidden",
        ):
            del options[key]
        options["score_set"] = [int(s) for s in self.score_set]
        options["test_fraction"] = float(self.test_fraction)
        options["prior_strength"] = float(self.prior_strength)
        options["setup"] = self.setup()
        return options
