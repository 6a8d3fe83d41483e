"""Training a list from prepared data, as the Train page offers it, and reading the result.

The page collects the learner's options (:class:`TrainingOptions`, with the score set
typed by the user parsed by :func:`parse_score_set`), :func:`train_list` splits the data
into stratified train and test rows, fits the list and describes it for the model file,
and the remaining functions lay the result out for a reader: the list as the paper's
Table 1 (:func:`list_table`), the stagewise measures on train and test rows
(:func:`performance_long`, :func:`performance_table`; :mod:`psl_triage.plots` draws them).
:func:`read_model_upload` turns an uploaded file into a validated list.

Nothing here imports Streamlit.
"""

from __future__ import annotations

import math
import numbers
import re
from dataclasses import asdict, dataclass

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split
from sklearn.utils import _safe_indexing

from psl_core.cost_ratio import DEFAULT_COST_RATIO, check_cost_ratio
from psl_core.errors import DataError, ModelFileError, PSLError
from psl_core.model import PAPER_SETUP, ProbabilisticScoringList, check_score_set
from psl_core.search import CROSS_VALIDATED
from psl_core.survival import survival_outcome
from psl_triage.costs import UNIT_KEY, check_unit, cost_text
from psl_triage.data import MIN_ROWS_PER_CLASS
from psl_triage.follow_up import COMPETING_EVENTS_NOTE, survival_part
from psl_triage.metadata import ModelMetadata
from psl_triage.modelcard import model_metadata
from psl_triage.questions import missing_note, percent
from psl_triage.store import slugify
from psl_triage.too_good import METADATA_KEY as TOO_GOOD_KEY
from psl_triage.too_good import too_good_to_be_true

SCORE_SET_PRESETS = {
    "paper": PAPER_SETUP["score_set"],
    "positive": tuple(s for s in PAPER_SETUP["score_set"] if s > 0),
}
"""The score sets the page offers besides a custom one; "paper" is the paper's {±1, ±2, ±3}."""

MAX_ABS_SCORE = 10
"""Largest score a custom set may hold: larger points only stretch the table of totals."""

MEASURES = {"expected_entropy": "Expected entropy (bits)", "brier": "Brier score", "auc": "AUC"}
"""Stagewise measures the page reports, with their readable names (paper, Sec. 5)."""

DEFAULT_CONFIDENCE = 0.95

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


def score_set_label(score_set):
    """A score set as a reader writes it: ``"±{1, 2, 3}"`` when symmetric, else ``"{-2, 1}"``."""
    scores = sorted(score_set)
    positive = [s for s in scores if s > 0]
    if positive and scores == sorted([-s for s in positive] + positive):
        return "±{" + ", ".join(map(str, positive)) + "}"
    return "{" + ", ".join(map(str, scores)) + "}"


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


def split_rows(X, y, test_fraction, seed):
    """Stratified train/test split; with ``test_fraction == 0`` every row trains.

    Returns
    -------
    X_train, X_test, y_train, y_test
        ``X_test`` and ``y_test`` are None without a test set.

    Raises
    ------
    DataError
        The fraction leaves a class without rows in the train or the test part.
    """
    if test_fraction == 0:
        return X, None, y, None
    n_rows, n_classes = len(y), len(np.unique(y))
    n_test = math.ceil(test_fraction * n_rows)
    if n_test < n_classes or n_rows - n_test < n_classes:
        raise DataError(
            f"A test fraction of {test_fraction:.2f} of {n_rows} rows leaves "
            f"{n_test} test and {n_rows - n_test} training rows, too few to hold both outcome "
            "classes. Choose a fraction nearer 1/3, or 0 for no test set."
        )
    try:
        parts = train_test_split(X, y, test_size=test_fraction, stratify=y, random_state=seed)
    except ValueError as exc:
        raise DataError(
            f"The rows cannot be split into stratified train and test parts with a test fraction "
            f"of {test_fraction:.2f}: {exc}. Choose a fraction nearer 1/3, or 0 for no test set."
        ) from None
    classes, counts = np.unique(np.asarray(parts[2]), return_counts=True)
    rarest = int(counts.min()) if len(classes) == n_classes else 0
    if rarest < MIN_ROWS_PER_CLASS:
        raise DataError(
            f"A test fraction of {test_fraction:.2f} of {n_rows} rows leaves {len(parts[2])} training rows, "
            f"{rarest} of them in the rarer outcome class: too few to learn from (at least "
            f"{MIN_ROWS_PER_CLASS} of each class are needed). Choose a smaller test fraction (the "
            "paper holds out 1/3), or 0 to train on every row."
        )
    return parts


def train_list(prepared, data_name, options, progress=None, column_roles=None):
    """Split prepared data, fit a list on the training rows and describe it.

    Parameters
    ----------
    prepared : psl_triage.data.PreparedData
    data_name : str
    options : TrainingOptions
    progress : callable or None
        ``progress(stage, n_stages)`` after each learned stage.
    column_roles : dict or None
        :func:`psl_triage.roles.roles_record`: the columns proposed out of the list, why, and
        whether the user put them back; saved as ``"column_roles"``.

    Returns
    -------
    model : fitted ProbabilisticScoringList
    metadata : dict
        :func:`psl_triage.modelcard.model_metadata` with train (and test) measures,
        ``"decision"`` (the options' M), ``"training_options"`` (the options and the
        numbers of train and test rows), ``"source": "trained"``, ``"column_roles"`` when given,
        and :data:`psl_triage.too_good.METADATA_KEY` when the list is too good to be true.
    """
    if prepared.follow_up is not None:
        return _train_horizon_list(prepared, data_name, options, progress, column_roles)
    X_train, X_test, y_train, y_test = split_rows(prepared.X, prepared.y, options.test_fraction, options.seed)
    model = options.estimator().fit(X_train, y_train, progress=progress)
    return _described(model, prepared, data_name, options, column_roles,
                      (model, X_train, y_train), None if X_test is None else (model, X_test, y_test))


def _train_horizon_list(prepared, data_name, options, progress, column_roles):
    """:func:`train_list` for a time-to-event list: split stratified by the event, fit on
    (event, time) with the horizon, measure at the horizon with censoring weights."""
    rows = np.arange(len(prepared.y))
    train, test = (rows, None) if options.test_fraction == 0 else split_rows(
        rows, prepared.y, options.test_fraction, options.seed)[:2]
    horizon = prepared.follow_up.horizon
    time, event = prepared.time, prepared.y
    model = options.estimator().set_params(horizon=horizon).fit(
        _safe_indexing(prepared.X, train), survival_outcome(time[train], event[train]), progress=progress,
    )
    parts = []
    for part in (train, test):
        if part is None:
            parts.append(None)
            continue
        kept, outcome, weight = survival_part(time[part], event[part], horizon, time[train], event[train])
        parts.append((model, _safe_indexing(prepared.X, part[kept]), outcome, weight))
    extra = {"follow_up": prepared.follow_up.record(), "competing_events": COMPETING_EVENTS_NOTE}
    return _described(model, prepared, data_name, options, column_roles, parts[0], parts[1],
                      n_rows=(len(train), 0 if test is None else len(test)), extra=extra)


def _described(model, prepared, data_name, options, column_roles, train, test, n_rows=None, extra=None):
    """The fitted list and its metadata (see :func:`train_list`)."""
    n_train, n_test = n_rows or (len(train[2]), 0 if test is None else len(test[2]))
    training_options = dict(options.to_dict(), n_train=n_train, n_test=n_test)
    metadata = model_metadata(
        prepared,
        data_name,
        train=train,
        test=test,
        cost_ratio=options.cost_ratio,
        extra={
            "training_options": training_options, "source": "trained",
            **({"column_roles": column_roles} if column_roles is not None else {}),
            **({UNIT_KEY: options.cost_unit} if options.question_costs else {}),
            **(extra or {}),
        },
    )
    warning = too_good_to_be_true(metadata, model.features_)
    if warning is not None:
        metadata[TOO_GOOD_KEY] = warning.record()
    return model, metadata


def readable_columns(metadata):
    """The ``"columns"`` entry of model metadata, keeping only well-formed entries.

    A loaded file's metadata is free JSON; a malformed entry only costs its readable name.
    """
    return ModelMetadata.coerce(metadata).readable_columns()


def list_end_text(model):
    """One sentence on why a fitted list has the length it has, or None when that is not
    known (a list read from a file saved before :attr:`end_reason_` was recorded).

    Parameters
    ----------
    model : fitted ProbabilisticScoringList
    """
    reason = getattr(model, "end_reason_", None)
    n_questions = model.n_stages_ - 1
    further = "further " if n_questions else ""
    if reason == "length":
        plural = "" if n_questions == 1 else "s"
        if n_questions == model.max_stages:
            return f"The list has {n_questions} question{plural}: the maximum number of stages asked for."
        n_columns = len({literal.column for literal in model.literals_})
        if n_columns == n_questions:
            return (f"The list has {n_questions} question{plural}, one about each of the {n_columns} columns "
                    "it could ask about: no question was left to add.")
        repeats = ["a category of a column is a question of its own"] if any(
            literal.kind == "category" for literal in model.literals_) else []
        if model.max_feature_uses > 1:
            repeats.append(f"a numeric column may be asked up to {model.max_feature_uses} times with different thresholds")
        return (f"The list has {n_questions} question{plural} about {n_columns} column{'' if n_columns == 1 else 's'}: "
                f"no question was left to add ({' and '.join(repeats) or 'some columns are asked more than once'}).")
    if reason == "no_gain" and model.loss in CROSS_VALIDATED:
        why = (f"no {further}question improved the probabilities on held-out training rows "
               "(the cross-validated criterion)")
    elif reason == "no_gain":
        why = f"no {further}question changed the probabilities"
    elif reason == "support":
        why = (f"no {further}question splits the training rows into answers of at least "
               f"{model.min_support} rows each (option 'Training rows each answer must hold'); "
               f"lower it or add rows for a longer list")
    else:
        return None
    ended = f"after {n_questions} question{'' if n_questions == 1 else 's'}" if n_questions else "before a first question"
    return f"The list ended {ended}: {why}."


def total_label(total):
    """Column name of a total: "-3", "0", "+2"."""
    return f"{total:+d}" if total else "0"


def shrinkage_text(model):
    """One sentence on how far the probabilities were pulled toward the base rate (Markdown),
    or None when they were not (``shrinkage_`` is None, or 1 at the recommended length)."""
    factors = getattr(model, "shrinkage_", None)
    stage = model.recommended_stages_
    if factors is None or not stage or factors[stage] >= 1:
        return None
    return (
        f"On held-out patients the estimates after the recommended {stage} question{'' if stage == 1 else 's'} "
        f"were too far from the base rate: internal cross-validation supports a calibration slope of "
        f"{factors[stage]:.2f} (its estimate less one standard error), so the probabilities there, and their "
        "intervals with them, are pulled toward the base rate by that factor (1 would leave them as learned). A list learned from few "
        "patients promises more than it keeps; this makes its probabilities honest."
    )


SMALL_GAIN = 0.10
"""A list whose held-out Brier score at its recommended length is less than this share below
the base rate's (a Brier skill score under 0.1) barely beats the base rate: the Train page
says so next to its length (:func:`small_gain_text`)."""


def small_gain_text(model):
    """A sentence when the list barely beats the base rate on held-out patients, else None.

    From the internal cross-validation's held-out Brier scores at stage 0 (the base rate) and
    at the recommended length (a gain of less than :data:`SMALL_GAIN` of the base rate's
    score). None without that cross-validation, or when it recommends no question
    (:func:`no_gain_note` speaks then).
    """
    brier = getattr(model, "validation_brier_", None)
    stage = getattr(model, "recommended_stages_", None)
    if brier is None or not stage or not np.isfinite(brier[0]) or brier[0] <= 0 or not np.isfinite(brier[stage]):
        return None
    gain = 1 - brier[stage] / brier[0]
    if gain >= SMALL_GAIN:
        return None
    return (
        f"It barely beats the base rate: on held-out patients its Brier score after {stage} "
        f"question{'' if stage == 1 else 's'} is {brier[stage]:.3f} against {brier[0]:.3f} for the base rate "
        f"alone, {gain:.0%} better (lower is better). Its answers change the estimates little; weigh whether "
        f"{stage} question{'' if stage == 1 else 's'} are worth asking for that."
    )


def no_gain_note(model, positive_label):
    """What to say when the internal cross-validation recommends asking no question (Markdown).

    Held-out evidence did not show a gain over the base rate (``recommended_stages_`` = 0):
    the note says so plainly with the numbers: the held-out Brier score before any question
    and at the best later stage, each with its standard error over the folds.

    Parameters
    ----------
    model : fitted ProbabilisticScoringList
    positive_label : str
        The positive class's name (Markdown-escaped by the caller).

    Returns
    -------
    str or None
        None unless the list was fitted with ``recommend_folds`` and recommends 0 questions.
    """
    if model.recommended_stages_ != 0 or model.n_stages_ < 2:
        return None
    brier, se = np.asarray(model.validation_brier_), np.asarray(model.validation_brier_se_)

    def score(k):
        return f"{brier[k]:.3f}" + (f" ± {se[k]:.3f}" if np.isfinite(se[k]) else "")

    later = np.where(np.isfinite(brier[1:]), brier[1:], np.inf)
    best = 1 + int(np.argmin(later))
    evidence = (
        f"held-out Brier score {score(0)} before any question, {score(best)} at the best later stage "
        f"({best} question{'' if best == 1 else 's'}; lower is better, ± one standard error over the folds)"
        if np.isfinite(later).any() else f"held-out Brier score {score(0)} before any question"
    )
    base_rate = percent(float(model.stage_probabilities_[0][0]), 1)
    return (
        f"**On held-out patients no question beat the base rate.** The internal cross-validation "
        f"found {evidence}, so the list recommends asking nothing: the base rate of {positive_label} "
        f"({base_rate}) is as good an estimate for a new patient as any answer to its questions. More "
        "rows, fewer candidate columns or stronger regularization may change that. The whole list "
        "is still shown and can be used, but it is not validated to beat the base rate."
    )


def list_table(model, columns=None, intervals=False, confidence=DEFAULT_CONFIDENCE):
    """The list laid out as the paper's Table 1.

    One row per stage 0..K: the stage, the feature's condition in words, its points, and
    per total T (one column per total reachable at some stage, named by
    :func:`total_label`) the probability q(k, T) as a percentage, empty where T is not
    reachable at stage k.

    Parameters
    ----------
    model : fitted ProbabilisticScoringList
    columns : dict or None
        Readable names per column (see :func:`readable_columns`).
    intervals : bool
        Add the simultaneous confidence interval of the stage to each cell: "34% (21–49%)".
    confidence : float

    Returns
    -------
    pandas.DataFrame with columns "Stage", "Feature", "Points", for a list with question
    costs "Cost" (of asking the stage's question, :mod:`psl_core.costs`), for a list with a
    recommended length "Held-out Brier" and "Recommended stop" (★ on the recommended
    stage), and one per total.
    """
    all_totals = np.unique(np.concatenate(model.stage_totals_)).tolist()
    costs = model.stage_costs_
    rows = []
    for k in range(model.n_stages_):
        row = {
            "Stage": k,
            "Feature": stage_condition(model, k, columns) if k else "Before any feature (prior)",
            "Points": f"{model.scores_[k - 1]:+d}" if k else "",
        }
        if costs.any():
            row["Cost"] = cost_text(costs[k - 1]) if k else ""
        if model.recommended_stages_ is not None:
            held_out = model.validation_brier_[k]
            row["Held-out Brier"] = f"{held_out:.3f}" if np.isfinite(held_out) else "not reached"
            row["Recommended stop"] = "★" if k == model.recommended_stages_ else ""
        totals, lower, point, upper = model.stage_interval(k, confidence)
        cells = {}
        for t, lo, p, hi in zip(totals.tolist(), lower, point, upper):
            cell = percent(p, 0)
            if intervals:
                cell += f" ({percent(lo, 0).removesuffix('%')}–{percent(hi, 0)})"
            cells[t] = cell
        row.update({total_label(t): cells.get(t, "") for t in all_totals})
        rows.append(row)
    return pd.DataFrame(rows)


def stage_condition(model, stage, columns=None):
    """A stage's condition with where a missing answer goes, for the list's table and the
    card: "Cholesterol > 240 (missing: counts as no)"."""
    note = missing_note(model.literals_[stage - 1])
    return model.describe_stage(stage, columns) + (f" ({note})" if note else "")


def performance_long(metadata):
    """Stagewise measures recorded in model metadata, one row per (data, stage, measure).

    Returns
    -------
    pandas.DataFrame with columns "data" ("train" or "test"), "stage", "measure" (the
    readable name from :data:`MEASURES`) and "value"; empty when nothing was recorded.
    """
    performance = ModelMetadata.coerce(metadata).performance
    rows = []
    if isinstance(performance, dict):
        for data in ("train", "test"):
            part = performance.get(data)
            if not isinstance(part, dict):
                continue
            for key, measure in MEASURES.items():
                values = part.get(key)
                if isinstance(values, list):
                    rows.extend(
                        {"data": data, "stage": stage, "measure": measure, "value": float(value)}
                        for stage, value in enumerate(values)
                        if isinstance(value, (int, float)) and not isinstance(value, bool)
                    )
    return pd.DataFrame(rows, columns=["data", "stage", "measure", "value"])


def performance_table(long):
    """:func:`performance_long` as one row per stage, a column per measure and data.

    Columns are named like "Brier score (test)", measures in the order of :data:`MEASURES`,
    train before test.
    """
    if long.empty:
        return pd.DataFrame({"Stage": []})
    wide = long.pivot_table(index="stage", columns=["measure", "data"], values="value", sort=False)
    order = [
        (measure, data)
        for measure in MEASURES.values()
        for data in ("train", "test")
        if (measure, data) in wide.columns
    ]
    wide = wide[order]
    wide.columns = [f"{measure} ({data})" for measure, data in order]
    return wide.rename_axis("Stage").reset_index()


def default_model_name(metadata):
    """Name proposed when saving: the model's own name, else its dataset's, else "PSL"
    (:attr:`psl_triage.metadata.ModelMetadata.default_name`)."""
    return ModelMetadata.coerce(metadata).default_name


def download_file_name(name):
    """File name of a downloaded model: the model name's slug, "psl-model" without one."""
    try:
        return f"{slugify(name)}.json"
    except PSLError:
        return "psl-model.json"


def read_model_upload(data, filename):
    """A validated list from an uploaded model file's bytes.

    Raises
    ------
    ModelFileError
        The file is not UTF-8 text or not a valid model file; the message names the file.
    """
    try:
        return ProbabilisticScoringList.from_json(bytes(data))
    except ModelFileError as exc:
        raise ModelFileError(f"{filename}: {exc}") from None
