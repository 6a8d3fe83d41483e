"""The learner's options as the Train page offers them: score sets, the two named setups and
:class:`TrainingOptions`, validated before any data is split.

Nothing here imports Streamlit.
"""

from __future__ import annotations

import math
import numbers
import re
from dataclasses import asdict, dataclass

from psl_core.cost_ratio import DEFAULT_COST_RATIO, check_cost_ratio
from psl_core.errors import PSLError
from psl_core.model import PAPER_SETUP, ProbabilisticScoringList, check_score_set
from psl_triage.costs import check_unit

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
        raise PSLError("The custom score set is empty: type whole numbers separated by commas, e.g. -2, -1, 1, 2.")
    scores = []
    for token in tokens:
        match = _TOKEN.match(token)
        if match is None:
            raise PSLError(
                f"The custom score set has {token!r}, which is not a whole number: "
                "type whole numbers separated by commas, e.g. -2, -1, 1, 2."
            )
        value = int(match["digits"])
        scores.extend({"-": [-value], "±": [-value, value]}.get(match["sign"], [value]))
    if any(abs(s) > MAX_ABS_SCORE for s in scores):
        raise PSLError(
            f"The custom score set has a score beyond ±{MAX_ABS_SCORE}: points that large make "
            "the list hard to read. Use smaller whole numbers."
        )
    if 0 in scores:
        raise PSLError("The custom score set has 0: a feature worth 0 points adds nothing. Leave it out.")
    repeated = sorted({s for s in scores if scores.count(s) > 1})
    if repeated:
        raise PSLError(f"The custom score set repeats {', '.join(map(str, repeated))}: give each score once.")
    return check_score_set(scores)


# Folds of the internal cross-validation that recommends the list's length (the triage
# page asks that many questions by default).
RECOMMEND_FOLDS = 5


_SETUP_KEYS = (
    "calibration", "loss", "prior_strength", "max_feature_uses", "min_support", "interval_correction", "shrinkage",
    "group_categories",
)
SETUPS = {
    "paper": {key: PAPER_SETUP[key] for key in _SETUP_KEYS},
    "recommended": {key: ProbabilisticScoringList().get_params()[key] for key in _SETUP_KEYS},
}
"""The learner's choices of the two named setups: the paper's (Hanselle et al.) and the
recommended one, :class:`~psl_core.model.ProbabilisticScoringList`'s defaults, chosen by
their measured test Brier scores on the shared datasets (``bench/quality.py``)."""

DEFAULT_SETUP = "recommended"
"""The setup the Train page starts with: the measured best; the paper's is one click away."""


@dataclass(frozen=True)
class TrainingOptions:
    """The learner's options on the Train page; the defaults are the paper's setup
    (read from :data:`~psl_core.model.PAPER_SETUP` and the estimator, not restated).

    Attributes
    ----------
    score_set : tuple of int
    calibration : {"isotonic", "beta", "sigmoid"}
    binarization : {"in-search", "preprocess"}
    threshold_search : {"bisect", "brute"}
    loss : {"entropy", "cv_brier", "cv_log_loss", "nested_cv_brier", "nested_cv_log_loss", "soft_rank"}
        How the search compares candidates (see ``ProbabilisticScoringList``).
    prior_strength : float >= 0
        Pseudo-counts that pull the estimates of rare totals toward the overall rate.
    max_feature_uses : int >= 1
        Stages a numeric feature may fill, each with its own threshold.
    min_support : int >= 1
        Training rows each answer must hold (a threshold leaves at least this many on
        each side); 1 allows any threshold.
    interval_correction : {"bonferroni", "sidak"}
    shrinkage : {"cv", None}
        Pull the probabilities toward the base rate by the factor the internal
        cross-validation finds (:class:`~psl_core.model.ProbabilisticScoringList`).
    max_stages : int >= 1 or None
        None uses every feature.
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
    question_costs : dict of str to float, or None
        What asking each feature column costs (:mod:`psl_core.costs`); saved in the list's
        parameters, not repeated in ``"training_options"``.
    cost_weight : float >= 0
        How much the search trades criterion for cheaper questions (0: not at all).
    cost_groups : dict of str to str, or None
        The test each column is measured with (columns of one test are paid once); saved
        in the list's parameters.
    cost_unit : str
        The costs' unit, saved as ``metadata["cost_unit"]`` (:mod:`psl_triage.costs`).
    monotone, required, forbidden : dict / list, or None
        What clinicians know (:mod:`psl_core.constraints`, :mod:`psl_triage.knowledge`):
        columns whose points never fall or rise with their value, columns asked first (in
        order) and never; saved in the list's parameters.

    :meth:`setup` names the setup the choices make ("paper", "recommended" or "custom");
    ``TrainingOptions(**SETUPS["recommended"])`` is the recommended one.
    """

    score_set: tuple = SCORE_SET_PRESETS["paper"]
    calibration: str = PAPER_SETUP["calibration"]
    binarization: str = ProbabilisticScoringList().binarization
    threshold_search: str = ProbabilisticScoringList().threshold_search
    loss: str = PAPER_SETUP["loss"]
    prior_strength: float = PAPER_SETUP["prior_strength"]
    max_feature_uses: int = PAPER_SETUP["max_feature_uses"]
    min_support: int = PAPER_SETUP["min_support"]
    interval_correction: str = PAPER_SETUP["interval_correction"]
    shrinkage: str | None = PAPER_SETUP["shrinkage"]
    group_categories: bool = PAPER_SETUP["group_categories"]
    max_stages: int | None = None
    test_fraction: float = 1 / 3
    seed: int = 0
    cost_ratio: float = DEFAULT_COST_RATIO
    question_costs: dict | None = None
    cost_weight: float = 0.0
    cost_unit: str = ""
    cost_groups: dict | None = None
    monotone: dict | None = None
    required: list | None = None
    forbidden: list | None = None

    def __post_init__(self):
        if self.max_stages is not None and self.max_stages < 1:
            raise PSLError(f"The maximum number of stages must be at least 1 (or all), got {self.max_stages}.")
        fraction = self.test_fraction
        if (
            isinstance(fraction, bool)
            or not isinstance(fraction, numbers.Real)
            or not math.isfinite(fraction)
            or not 0 <= fraction < 1
        ):
            raise PSLError(f"The test fraction must lie in [0, 1) (0: no test set), got {fraction!r}.")
        if isinstance(self.seed, bool) or not isinstance(self.seed, numbers.Integral) or self.seed < 0:
            raise PSLError(f"The seed must be a whole number >= 0, got {self.seed!r}.")
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
            score_set=self.score_set,
            calibration=self.calibration,
            binarization=self.binarization,
            threshold_search=self.threshold_search,
            loss=self.loss,
            prior_strength=self.prior_strength,
            max_feature_uses=self.max_feature_uses,
            min_support=self.min_support,
            interval_correction=self.interval_correction,
            shrinkage=self.shrinkage,
            group_categories=self.group_categories,
            max_stages=self.max_stages,
            recommend_folds=RECOMMEND_FOLDS,
            random_state=self.seed,
            question_costs=self.question_costs,
            cost_weight=self.cost_weight,
            cost_groups=self.cost_groups,
            monotone=self.monotone,
            required=self.required,
            forbidden=self.forbidden,
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


