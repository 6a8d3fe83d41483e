"""The Train page's words: option labels and help, the sentences about a trained list (its
length, its shrinkage, a small or no gain over the base rate), where a list comes from, and
the outcome of a load or a save. Names that come from a file are escaped here, once, with
:func:`~psl_triage.words.md`.

Nothing here imports Streamlit.
"""

from __future__ import annotations

import numpy as np

from psl_core.search import CROSS_VALIDATED
from psl_triage.questions import percent


def score_set_label(score_set):
    """A score set as a reader writes it: ``"±{1, 2, 3}"`` when symmetric, else ``"{-2, 1}"``."""
    scores = sorted(score_set)
    positive = [s for s in scores if s > 0]
    if positive and scores == sorted([-s for s in positive] + positive):
        return "±{" + ", ".join(map(str, positive)) + "}"
    return "{" + ", ".join(map(str, scores)) + "}"



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


