"""The Train page's words: option labels and help, the sentences about a trained list (its
length, its shrinkage, a small or no gain over the base rate), where a list comes from, and
the outcome of a load or a save. Names that come from a file are escaped here, once, with
:func:`~psl_triage.words.md`.
"""

from __future__ import annotations

import numpy as np

from psl_core.chance import REQUIRED_Z
from psl_core.kernels import TIE_TOLERANCE
from psl_core.metrics import MEASURE_LABELS
from psl_core.recommend import base_rate_stages
from psl_core.search import CROSS_VALIDATED
from psl_triage.words.common import (
    COST_RATIO_LABEL,
    INTERVAL_PROMISE,
    counted,
    decision_text,
    level_text,
    noun,
    percent,
    plural,
)
from psl_triage.words.escape import md
from psl_triage.words.lists import base_rate_reason, class_counts
from psl_triage.words.trade_off import where_m_matters

# What the page was doing when an unexpected error stopped it (ui.shown_errors).
SAVING = "saving the list"
TRAINING = "training the list"
SHOWING_LIST = "showing the list"
SHOWING_PERFORMANCE = "showing the performance"
PREPARING_SAVE = "preparing the save options"


def score_set_label(score_set):
    """A score set as a reader writes it: ``"±{1, 2, 3}"`` when symmetric, else ``"{-2, 1}"``."""
    scores = sorted(score_set)
    positive = [s for s in scores if s > 0]
    if positive and scores == sorted([-s for s in positive] + positive):
        return "±{" + ", ".join(map(str, positive)) + "}"
    return "{" + ", ".join(map(str, scores)) + "}"



def list_end_text(model):
    """One sentence on why a fitted list has the length it has, or None when that is not
    known (a list read from a file saved before :attr:`psl_core.model.ProbabilisticScoringList.end_reason_` was recorded).

    Parameters
    ----------
    model : fitted ProbabilisticScoringList
    """
    reason = getattr(model, "end_reason_", None)
    n_questions = model.n_stages_ - 1
    further = "further " if n_questions else ""
    if reason == "length":
        if n_questions == model.max_stages:
            return f"The list has {plural(n_questions, 'question')}: the maximum number of stages asked for."
        n_columns = len({literal.column for literal in model.literals_})
        if n_columns == n_questions:
            return (f"The list has {plural(n_questions, 'question')}, one about each of the {n_columns} columns "
                    "it could ask about: no question was left to add.")
        repeats = ["a category of a column is a question of its own"] if any(
            literal.kind == "category" for literal in model.literals_) else []
        if model.max_feature_uses > 1:
            repeats.append(f"a numeric column may be asked up to {model.max_feature_uses} times with different thresholds")
        return (f"The list has {plural(n_questions, 'question')} about {n_columns} {noun(n_columns, 'column')}: "
                f"no question was left to add ({' and '.join(repeats) or 'some columns are asked more than once'}).")
    if reason == "no_gain" and model.loss in CROSS_VALIDATED:
        why = f"no {further}question lowered the cross-validated criterion the search chooses questions by"
    elif reason == "no_gain":
        why = f"no {further}question changed the probabilities"
    elif reason == "chance":
        why = (f"past the recommended stop, the next question lowered the cross-validated criterion by no more "
               f"than {REQUIRED_Z:g} standard errors, which the best of the many questions the search tries "
               "reaches by chance")
    elif reason == "support":
        why = (f"no {further}question splits the training rows into answers of at least "
               f"{model.min_support} rows each (option 'Training rows each answer must hold'); "
               f"lower it or add rows for a longer list")
    else:
        return None
    ended = f"after {n_questions} {noun(n_questions, 'question')}" if n_questions else "before a first question"
    return f"The list ended {ended}: {why}."



def recommended_stop_text(model):
    """One sentence on the recommended stop when the list goes on past it, else None.

    The search's criterion scores each next question with the earlier ones fixed; the list's
    table shows the cross-validated Brier score of the whole list refitted on parts of the training
    rows, which may rise after the recommended stop. Said beside the list's length, so the
    sentence on where the search ended does not read as a claim about that column.

    The stop is the best length among those every part's refitted list reached
    (:func:`psl_core.recommend.recommended_stage`); a later stage that only some parts' lists
    reached may score lower in the column (survival/colon, deaths at 1826 days: ★ 0.236 at 1
    question, 0.229 at 8 and 9). The sentence says that rule and names such stages, so it
    never claims what the column contradicts."""
    stage = getattr(model, "recommended_stages_", None)
    if not stage or stage >= model.n_stages_ - 1:
        return None
    brier = np.asarray(model.validation_brier_, dtype=float)
    lower = [k for k in range(stage + 1, len(brier)) if np.isfinite(brier[k]) and brier[k] < brier[stage] - TIE_TOLERANCE]
    text = (
        f"Refitted whole on parts of the training rows (the column {CV_BRIER_COLUMN} below), the list does best "
        f"after {plural(stage, 'question')} among the lengths every part's list reached, the recommended stop (★)"
    )
    asks = f"Triage asks {'only the first' if stage == 1 else f'the first {stage}'} by default"
    if not lower:
        return text + f": the questions after it do not improve its probabilities on held-out patients, and {asks}."
    names = [str(k) for k in lower]
    stages = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return text + (
        f", and {asks}. {noun(len(lower), 'Stage')} {stages} "
        f"{noun(len(lower), 'scores', 'score')} lower in that column, but only some parts' lists were that long: "
        "a mean over fewer parts is the luck of those parts, not a gain the list can promise."
    )


def base_rate_text(model):
    """Which stages' risks are pulled all the way to the base rate, whatever the answers
    (:func:`psl_core.recommend.base_rate_stages`), or None when none is."""
    held = base_rate_stages(getattr(model, "shrinkage_", None))
    if not held:
        return None
    names = [str(k) for k in held]
    stages = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return (
        f"At {noun(len(held), 'stage')} {stages} the list's probabilities are pulled all the way to the base rate: "
        f"{base_rate_reason(percent(model.stage_probabilities_[0][0]))} "
        f"(column \"{BASE_RATE_COLUMN}\": {HELD_AT_BASE_RATE}). Triage and the card say so there."
    )


SLIGHT_SHRINKAGE = 0.9
"""A calibration slope at or above this (below 1) pulls the probabilities only a little: the Train
page says "a little too far" and not that the list promises more than it keeps, which would
overstate a slope of 0.99 learned from 9,000 patients (:func:`shrinkage_text`)."""


def shrinkage_text(model):
    """One sentence on how far the probabilities were pulled toward the base rate (Markdown),
    or None when they were not (``shrinkage_`` is None, or 1 at the recommended length)."""
    factors = getattr(model, "shrinkage_", None)
    stage = model.recommended_stages_
    if factors is None or not stage or factors[stage] >= 1:
        return None
    slight = factors[stage] >= SLIGHT_SHRINKAGE
    return (
        f"On held-out patients the estimates after the recommended {stage} {noun(stage, 'question')} "
        f"were {'a little ' if slight else ''}too far from the base rate: internal cross-validation supports a "
        f"calibration slope of {factors[stage]:.2f}, so the probabilities there are pulled toward the base rate by "
        "that factor (1 would leave them as learned); their intervals still hold the risk of the patients with each "
        "total." + ("" if slight else " A list learned from few patients promises more than it keeps; this "
                          "makes its probabilities honest.")
    )


SMALL_GAIN = 0.10
"""A list whose cross-validated Brier score at its recommended length is less than this share below
the base rate's (a Brier skill score under 0.1) barely beats the base rate: the Train page
says so next to its length (:func:`small_gain_text`)."""


def small_gain_text(model):
    """A sentence when the list barely beats the base rate on held-out patients, else None.

    From the internal cross-validation's Brier scores at stage 0 (the base rate) and
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
        f"It barely beats the base rate: its cross-validated Brier score after {stage} "
        f"{noun(stage, 'question')} is {brier[stage]:.3f} against {brier[0]:.3f} for the base rate "
        f"alone, {gain:.0%} better (lower is better). Its answers change the estimates little; weigh whether "
        f"{counted(stage, 'question', 'is', 'are')} worth asking for that."
    )


def no_gain_note(model, positive_label):
    """What to say when the internal cross-validation recommends asking no question (Markdown).

    Held-out evidence did not show a gain over the base rate (``recommended_stages_`` = 0):
    the note says so plainly with the numbers: the cross-validated Brier score before any question
    and at the best later stage, each with its standard error over the folds.

    Parameters
    ----------
    model : fitted ProbabilisticScoringList
    positive_label : str
        The positive class's name (Markdown-escaped by the caller).

    Returns
    -------
    str or None
        None unless the list was fitted with ``recommend_folds`` and recommends 0 questions
        (and has questions, or ended before its first one by chance: :mod:`psl_core.chance`).
    """
    ended_by_chance = getattr(model, "end_reason_", None) == "chance"
    if model.recommended_stages_ != 0 or (model.n_stages_ < 2 and not ended_by_chance):
        return None
    brier, se = np.asarray(model.validation_brier_), np.asarray(model.validation_brier_se_)

    def score(k):
        return f"{brier[k]:.3f}" + (f" ± {se[k]:.3f}" if np.isfinite(se[k]) else "")

    later = np.where(np.isfinite(brier[1:]), brier[1:], np.inf)
    best = 1 + int(np.argmin(later)) if len(later) else 0
    evidence = (
        f"a cross-validated Brier score of {score(0)} before any question, {score(best)} at the best later stage "
        f"({best} {noun(best, 'question')}; lower is better, ± one standard error over the folds)"
        if np.isfinite(later).any() else f"a cross-validated Brier score of {score(0)} before any question"
    )
    base_rate = percent(float(model.stage_probabilities_[0][0]), 1)
    return (
        f"**On held-out patients no question beat the base rate.** The internal cross-validation "
        f"found {evidence}, so the list recommends asking nothing: the base rate of {positive_label} "
        f"({base_rate}) is as good an estimate for a new patient as any answer to its questions. More "
        "rows, fewer candidate columns or stronger regularization may change that."
        + (" Triage and the card therefore ask no question by default; the whole list can still be chosen "
           "there, beyond the recommendation, but it is not validated to beat the base rate."
           if model.n_stages_ > 1 else "")
    )




# --- the page ---------------------------------------------------------------------------------
TITLE = "Train a scoring list"
INTRO = (
    "The learner picks the features one at a time: at each stage the feature, threshold and "
    "points that make the risk estimates best. The result is a list a clinician works through "
    "from the top, with the risk of every total at every stage."
)
HEADERS = {
    "data": "Training data", "options": "Options", "list": "The list", "performance": "Performance stage by stage",
    "files": "Save, download or load",
}
TRAIN = "Train"
STARTING = "Starting…"
MODEL_NAME = "Model name"
SAVE = "Save to the model store"
DOWNLOAD = "Download the model file (JSON)"
UPLOAD = "Load a model file (.json) saved or downloaded before"
OPEN_CHOICE = "Or open a list saved in the model store"
OPEN_PLACEHOLDER = "Choose a saved list"
OPEN = "Open the saved list"
GROUP_HELP = "e.g. blood test"
NO_DATA = "No data loaded yet. Load a table (or the demo) and choose the outcome first."
NO_LIST = "No list yet: train one above, or load a saved model file below."
NO_PERFORMANCE = "This model file records no performance measures."
PERFORMANCE = (
    "Expected entropy (lower: more certain estimates), Brier score (lower: better "
    "probabilities) and AUC (higher: better ranking of patients) after each stage, on "
    "the training rows and, if some were held out, the test rows."
)
PAPER = " (paper default)"
RECOMMENDED = " (recommended)"


def not_ready(reason):
    """Why the data cannot be trained on yet (the data page's reason, escaped)."""
    return f"The data is not ready for training yet: {md(reason)}"


def data_summary(data_name, prepared):
    """The training data in one sentence: name, rows, features and the two outcome classes."""
    return (
        f"**{md(data_name)}**: {prepared.n_rows_after} rows and {len(prepared.columns)} features. "
        + class_counts(prepared, tag_negative=False)
    )


def stage_progress(stage, n_stages):
    return f"Stage {stage} of {n_stages}"


def done(n_questions, seconds):
    """The progress bar's last text: "Done: 1 stage in 0.4 s", "Done: 3 stages in 1.2 s"."""
    return f"Done: {plural(n_questions, 'stage')} in {seconds:.1f} s"


def trained_origin(data_name, metadata, options):
    """Where a just-trained list comes from: data, rows and setup (plain text)."""
    counts = metadata["training_options"]
    test_part = f", measured on {counts['n_test']} test rows" if counts["n_test"] else ", no test rows"
    setup = {"paper": "the paper's setup.", "recommended": "the recommended setup."}.get(
        options.setup(), "a custom mix of the paper's and the recommended options.")
    return (f"Trained on {data_name} ({counts['n_train']} training rows{test_part}) "
            f"with the score set {score_set_label(options.score_set)} and {setup}")


def loaded_origin(filename):
    return f"Loaded from the file {filename}."


def opened_origin(label):
    return f"Opened from the model store: {label}."


def loaded(filename, n_stages):
    return (f"Loaded {filename}: a list of {n_stages} stages. "
            "It is now the current list, shown above and used by the next pages.")


def load_failed(filename):
    return (f"{filename} could not be loaded: something unexpected went wrong "
            "(the details are in the server log).")


def open_failed(label):
    return (f"{label} could not be opened: something unexpected went wrong "
            "(the details are in the server log). The current list is unchanged.")


def saved(stored):
    """What a save says: the file, its version and the folder."""
    return f"Saved as {stored.path.name} (version {stored.version}) in {stored.path.parent}."


def store_note(folder):
    return f"Saved lists go to {md(folder)}; a name saved again becomes its next version."


def too_good_evidence(reasons):
    """Why a question "retrain without" took out is a leak (the data page shows it)."""
    return f"The list was too good to be true with it. {reasons}"


def too_good(warning):
    """The too-good-to-be-true error above the list (Markdown, names escaped)."""
    names = ", ".join(f"**{md(name)}**" for name in warning.questions)
    return (
        f"**Too good to be true.** {' '.join(md(reason) for reason in warning.reasons)} "
        f"Suspect {names}: a value that defines the outcome, a second outcome, something "
        "recorded after it or an identifier sorted by it. Do not use this list at the bedside "
        "until you know it is measured before the outcome."
    )


def retrain_without(questions):
    return f"Retrain without {', '.join(md(name) for name in questions)}"


def list_reading(model, metadata):
    """The Markdown paragraphs above a list's table, in order, each with a bold lead-in: its
    length and shrinkage when there is something to say, the M it was saved with and over
    which M it decides anything (``metadata``: the list's typed ModelMetadata)."""
    paragraphs = []
    length = " ".join(part for part in (list_end_text(model), recommended_stop_text(model), small_gain_text(model))
                      if part)
    if length:
        paragraphs.append(f"**Length.** {length}")
    shrunk = " ".join(part for part in (shrinkage_text(model), base_rate_text(model)) if part)
    if shrunk:
        paragraphs.append(f"**Probabilities.** {shrunk}")
    paragraphs.append(f"**Decision trade-off.** {decision_text(metadata)}")
    paragraphs.append(where_m_matters(model, metadata.cost_ratio, *class_labels(metadata))[0])
    return paragraphs


def table_explained(outcome, intervals):
    """How to read the list's table (``outcome`` escaped by the caller)."""
    return (
        f"Each row adds one feature. Its points count when the condition holds; the columns "
        f"are the possible totals so far, and each cell is the probability of **{outcome}** "
        "for a patient with that total at that stage (empty: total not reachable)."
        + (" In brackets: the confidence interval, wider where few training rows had that total. "
           + INTERVAL_PROMISE if intervals else "")
    )


def show_intervals(confidence):
    return f"Show intervals ({level_text(confidence)} confidence)"


# --- the options: labels and help ----------------------------------------------------------------
SETUP_HELP = (
    "Fills the options below; any of them can still be changed. The paper's setup is "
    "the published method. The recommended one (sigmoid calibration, cross-validated choice "
    "of features, 2 pseudo-counts, up to two thresholds per numeric feature, at least 10 "
    "training rows per answer, Šidák intervals, probabilities pulled toward the base rate by the "
    "factor internal cross-validation finds) gave lower test Brier scores on four "
    "clinical datasets (bench/quality.py) and takes a little longer to train."
)
SETUP_LABELS = {
    "recommended": "Recommended: the setup with the best measured probabilities",
    "paper": "The paper's setup (Hanselle et al.)",
}
CUSTOM_SCORES_HELP = "Whole numbers other than 0, separated by commas; ±2 stands for -2 and 2."
COST_RATIO_CAPTION = (
    "Saved with the list as the trade-off Triage, Intervals and Evaluation start with: "
    "the list decides positive above a risk of 1/(1+M). Choose it from what a missed case "
    "and a false alarm cost where the list is used (10 is only the paper's example); "
    "after training the page says over which M the list decides anything. The list "
    "itself is the same for every M."
)


def score_set_labels(presets):
    """The score-set radio's options: the presets by their sets, and a custom one."""
    return {
        "paper": f"Paper: {score_set_label(presets['paper'])}{PAPER}",
        "positive": f"Positive only: {score_set_label(presets['positive'])}",
        "custom": "Custom (type it below)",
    }


OPTION_LABELS = {
    "setup": "Setup",
    "score_preset": "Score set: the points a feature may get",
    "calibration": "Calibration of the probabilities",
    "binarization": "Thresholds of numeric features are chosen",
    "threshold_search": "Threshold search",
    "loss": "Each stage's feature is the one with",
    "prior_strength": "Pseudo-counts per total",
    "max_feature_uses": "Thresholds per numeric feature",
    "min_support": "Training rows each answer must hold",
    "interval_correction": "Confidence intervals",
    "shrinkage": "Pull the probabilities toward the base rate",
    "group_categories": "Ask a categorical feature as one grouping of its categories",
    "max_stages": "Maximum number of stages",
    "test_fraction": "Test fraction: share of rows held out to measure the list",
    "seed": "Random seed of the train/test split",
    "custom_scores": "Custom score set (used when Custom is chosen)",
    "cost_ratio": COST_RATIO_LABEL,
}
"""Each option's widget label."""

CHOICE_LABELS = {
    "calibration": {"isotonic": f"Isotonic{PAPER}", "beta": "Beta", "sigmoid": f"Sigmoid (logistic){RECOMMENDED}"},
    "binarization": {"in-search": f"During the search{PAPER}", "preprocess": "Beforehand, once per feature"},
    "threshold_search": {"bisect": f"Bisection{PAPER}", "brute": "Every mid-point (brute force)"},
    "loss": {
        "entropy": f"Most certain estimates on the training rows (expected entropy){PAPER}",
        "cv_brier": f"Best estimates on held-out rows (cross-validated Brier score){RECOMMENDED}",
        "nested_cv_brier": "Thresholds validated too (nested cross-validation; slower, can help on small data)",
    },
    "interval_correction": {"bonferroni": f"Bonferroni{PAPER}", "sidak": f"Šidák (never wider){RECOMMENDED}"},
    "shrinkage": {"cv": f"By the factor internal cross-validation finds{RECOMMENDED}", None: f"No{PAPER}"},
}
"""The words of each offered choice of a radio option (value -> label), in the page's order."""

MAX_STAGES_PLACEHOLDER = "all features" + PAPER


def option_help(setups):
    """Each option's help text; ``setups`` gives the paper's and the recommended values."""

    def both(key):
        return f"{setups['paper'][key]:g}{PAPER}", f"{setups['recommended'][key]:g}{RECOMMENDED}"

    return {
        "loss": "Expected entropy is the paper's criterion, measured on the rows it learns "
        "from. The cross-validated Brier score judges each candidate on held-out folds. "
        "The nested variant also chooses a numeric feature's threshold inside each fold "
        "before scoring the held-out fold, so the threshold's choice is validated too: "
        "measured to help on small data (heart disease, 198 training rows; breast cancer "
        "Coimbra, 77) and to hurt on larger data (Pima, ILPD); 4–6 times slower to train.",
        "prior_strength": "{}; {}. Pulls the probability of a total seen in few training rows toward the "
        "overall rate, so that rare totals do not get extreme probabilities.".format(*both("prior_strength")),
        "max_feature_uses": "{}: every feature once; {}: a later stage may ask about the same measurement "
        "with another threshold (its value is entered once).".format(*both("max_feature_uses")),
        "min_support": "{}: any threshold; {}: a threshold is only used where "
        "at least this many training rows fall on each side of it (and between it and the "
        "feature's other threshold), and a yes/no feature only when at least this many rows "
        "answer yes and as many no. Keeps the list from singling out a few extreme cases by "
        "chance. With fewer than twice this many rows no threshold qualifies.".format(*both("min_support")),
        "interval_correction": "How the confidence level is shared among a stage's totals, a margin that "
        "keeps each total's interval holding the risk of its patients although the questions were "
        "chosen on the same patients. Šidák's intervals are never wider than Bonferroni's.",
        "shrinkage": "A list learned from few patients tends to promise more than it keeps: its "
        "probabilities are too far from the base rate on new patients. The internal "
        "cross-validation measures by how much (the calibration slope of its held-out "
        "estimates) and the list's probabilities are pulled back by that slope; with many rows "
        "the factor is near 1 and changes little. The intervals still hold the risk of the patients. Measured on small tables "
        "(bench/small_data.py): fewer lists worse than the base rate on new patients, and "
        "lower test Brier scores on three of four tables.",
        "group_categories": "Besides one question per category, the search may ask \"Chest pain = typical "
        "or atypical\": the categories in order of their rate of the outcome (or their own "
        "order), cut like a number, so a feature of six categories can be one question. "
        f"Off{PAPER}; on{RECOMMENDED}.",
        "max_stages": "Leave empty to use every feature.",
        "test_fraction": "1/3" + PAPER + ". 0 trains on every row and measures on the training rows only.",
    }


# --- what clinicians know, what questions cost ------------------------------------------------------
KNOWLEDGE = "What you know already (optional): directions, questions asked first or never"
KNOWLEDGE_TEXT = (
    "A feature whose risk only rises with its value (age, a lab) can be held to it: the list "
    "then never gives a higher value fewer points, at any question. A feature can be asked "
    "first (the presenting complaint; several in the table's order) or never (not available "
    "at triage). Nothing is set by default."
)
COSTS = "Question costs (optional): time, money or harm of asking each feature"
COSTS_TEXT = (
    "Give what asking each feature costs at the bedside, in one unit (0: free, e.g. history "
    "and examination). Features measured with one test (a blood draw, an exercise test) get "
    "the test's name: the test is paid once, by the first of them asked. The costs are saved "
    "with the list: Triage shows them and stops before "
    "a question that costs more than a changed outcome is worth. The search can also prefer "
    "cheaper questions."
)
COST_UNIT = "Unit of the costs"
COST_UNIT_PLACEHOLDER = "e.g. minutes, EUR, points"
COST_WEIGHT = "Prefer cheaper questions in the search"
COST_WEIGHT_HELP = (
    "0 leaves the list as without costs. A weight w lets the most expensive question "
    "come first only if it improves the criterion by w times the base rate's criterion more "
    "than a free one. Measured on the demo with illustrative costs (bench/costs.py, 20 "
    "splits): 0.05 lowered the mean cost asked at the bedside by about a quarter for "
    "+0.012 held-out Brier score; 0.1 by about 60 % for +0.016."
)


def cost_weight_label(weight):
    return "no (0)" if weight == 0 else f"{weight:g}"


def class_labels(metadata):
    """The list's positive and negative class names from its metadata, with the horizon of a
    follow-up list (:attr:`psl_triage.model_file.metadata.ModelMetadata.class_names`; "positive", "negative" when it has none).
    ``metadata``: the list's :class:`~psl_triage.model_file.metadata.ModelMetadata`."""
    named = metadata.trained_on.positive_label, metadata.trained_on.negative_label
    return tuple(name if given else fallback for name, given, fallback in
                 zip(metadata.class_names, named, ("positive", "negative")))


def positive_outcome(metadata):
    """What the list's probabilities are of: its positive class (with the horizon of a
    follow-up list), or "the positive outcome"."""
    return metadata.positive_label if metadata.trained_on.positive_label else "the positive outcome"


# --- the list as Table 1 (psl_triage.training.tables) ------------------------------------------
STAGE_COLUMN, FEATURE_COLUMN, POINTS_COLUMN, COST_COLUMN = "Stage", "Feature", "Points", "Cost"
CV_BRIER_COLUMN, RECOMMENDED_COLUMN = f"{MEASURE_LABELS['brier']} (cross-validated)", "Recommended stop"
"""The list table's columns of the internal cross-validation (``validation_brier_``): the
Brier score of the whole list refitted on parts of the training rows and judged on the part
left out, which chooses the recommended stop. Not the Brier score on the test rows the page
held out, which the measures' table shows as :data:`MEASURE_ON` ("Brier score (test)")."""
BASE_RATE_COLUMN, HELD_AT_BASE_RATE = "Risk moves", "no: base rate"
"""The column that marks the stages whose risks are held at the base rate, and its mark."""
PINNED_COLUMNS = (STAGE_COLUMN, FEATURE_COLUMN, POINTS_COLUMN)
"""The columns that stay in view when the table scrolls sideways."""
MEASURE_ON = "{measure} ({data})"
"""A column of the stagewise measures: "Brier score (test)"."""
PRIOR_ROW = "Before any feature (prior)"
"""Stage 0's row of the list's table, before any question."""
NOT_REACHED = "not reached"
"""A cross-validated Brier score of a stage the refits never reached."""


MEASURES = {code: MEASURE_LABELS[code] for code in ("expected_entropy", "brier", "auc")}
"""Stagewise measures the page reports, with their readable names (paper, Sec. 5)."""


def _duration(seconds):
    """``"about 40 s"``, ``"about 12 minutes"``, ``"about 3 hours"``."""
    if seconds < 90:
        return f"about {max(1, round(seconds))} s"
    if seconds < 90 * 60:
        return f"about {round(seconds / 60)} minutes"
    return f"about {seconds / 3600:.0f} hours"


def training_too_long(estimate, minutes, env_var, fitting_stages):
    """Why a training is not started: it would run longer than the server allows; what to change.

    ``estimate`` is a :class:`psl_triage.training.runs.TrainingEstimate`, ``fitting_stages``
    the most stages that train within the limit. A busy server (a slowdown of 1.5 or more) is
    said, with how much slower it runs now."""
    limit = f"{minutes:g} minute{'s' if minutes != 1 else ''}"
    busy = (f" (the server is busy: it runs a training about {estimate.slowdown:.1f} times slower now "
            "than when it is quiet)" if estimate.slowdown >= 1.5 else "")
    said = (f"Training was not started: with {estimate.questions:,} candidate questions on "
            f"{estimate.rows:,} training rows, a list of up to {estimate.stages:,} stages could take "
            f"{_duration(estimate.seconds)}{busy}, and this server runs a training for at most {limit} "
            f"(the setting {env_var}), so that other users' runs do not wait behind it. To train "
            "faster:")
    changes = []
    if fitting_stages > 0:
        changes.append(f"set '{OPTION_LABELS['max_stages']}' to {fitting_stages} or fewer "
                       f"({_duration(estimate.seconds_for(fitting_stages))})")
    many = [f"{name} ({levels} levels)" for name, levels in estimate.widest[:3] if levels > 5]
    if many:
        changes.append("give categorical columns fewer levels (on the Data page, leave out or "
                       f"regroup {', '.join(many)}), or turn off '{OPTION_LABELS['group_categories']}'")
    changes.append("leave out columns that clinicians would not ask about (type 'ignore' on the Data page)")
    return " ".join([said, "; ".join(changes) + "."])
