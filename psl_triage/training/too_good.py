"""A list too good to be true: held-out performance no clinical predictor reaches, named.

Clinical data is noisy: a list from findings known at triage rarely ranks patients with an AUC
above 0.9, and its Brier score stays a sizeable share of the base rate's (the Brier score of
predicting the prevalence for everyone). When a trained list does far better, or one question
carries almost all of the gain, that question is almost always the outcome in another form: a
value that defines it, a second outcome, something recorded after it, an identifier sorted by
it. :func:`too_good_to_be_true` says so in sentences and names the questions responsible; the
Train page shows it prominently, offers to retrain without them, and the saved model records
that the warning was shown (:attr:`~psl_triage.model_file.metadata.ModelMetadata.too_good`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from psl_triage.model_file.metadata import ModelMetadata
from psl_triage.words import lists as words

IMPLAUSIBLE_AUC = 0.98
"""A held-out AUC at least this high is implausible for clinical data."""

IMPLAUSIBLE_BRIER_SHARE = 0.10
"""A held-out Brier score below this share of the base rate's is implausible."""

ONE_QUESTION_SHARE = 0.90
"""One question carrying at least this share of the list's Brier-score gain is suspicious ..."""

MIN_GAIN_FOR_ONE_QUESTION = 0.50
"""... when the list removes at least this share of the base rate's Brier score."""

RESPONSIBLE_SHARE = 0.80
"""The questions named are the fewest whose stages carry this share of the gain."""

@dataclass(frozen=True)
class TooGood:
    """Why a list looks too good to be true and which of its questions to suspect.

    Attributes
    ----------
    data : str
        "test" (held-out rows) or "train" (no rows were held out).
    reasons : tuple of str
        One sentence per implausible measure.
    questions : tuple of str
        The columns of the questions responsible, most gain first.
    """

    data: str
    reasons: tuple[str, ...]
    questions: tuple[str, ...]

    def record(self) -> dict:
        """The JSON-ready entry saved with the model (:attr:`ModelMetadata.too_good`):
        ``{"shown", "data", "reasons", "questions"}``."""
        return {"shown": True, "data": self.data, "reasons": list(self.reasons), "questions": list(self.questions)}


def too_good_to_be_true(metadata: ModelMetadata | Mapping, features: Sequence[str]) -> TooGood | None:
    """Whether a trained list's recorded performance is implausible, and why.

    Parameters
    ----------
    metadata : ModelMetadata or mapping
        The list's metadata with ``"performance"``: stagewise ``"brier"`` and ``"auc"`` lists
        on "test" (preferred) or "train" rows, stage 0 being the prior (the base rate).
    features : sequence of str
        The column of each question, in the list's order (``model.features_``).

    Returns
    -------
    TooGood or None
    """
    performance = ModelMetadata.coerce(metadata).performance
    if not isinstance(performance, Mapping):
        return None
    data = "test" if isinstance(performance.get("test"), Mapping) else "train"
    part = performance.get(data)
    if not isinstance(part, Mapping):
        return None
    brier = _numbers(part.get("brier"))
    auc = _numbers(part.get("auc"))
    if brier is None or len(brier) < 2 or len(brier) != len(features) + 1 or not brier[0] > 0:
        return None
    rows = "held-out" if data == "test" else "training"
    reasons = []
    if auc is not None and np.nanmax(auc) >= IMPLAUSIBLE_AUC:
        reasons.append(words.auc_too_high(rows, np.nanmax(auc)))
    best = float(np.nanmin(brier))
    if best < IMPLAUSIBLE_BRIER_SHARE * brier[0]:
        reasons.append(words.brier_too_low(rows, brier[0], best))
    gains = np.maximum(-np.diff(brier), 0.0)
    total = float(gains.sum())
    if total <= 0:
        return None
    top = int(np.argmax(gains))
    fall = brier[0] - best
    if not reasons and gains[top] >= ONE_QUESTION_SHARE * total and fall >= MIN_GAIN_FOR_ONE_QUESTION * brier[0]:
        reasons.append(words.one_question_carries(features[top], gains[top] / total, fall / brier[0]))
    if not reasons:
        return None
    questions: list[str] = []
    carried = 0.0
    for stage in np.argsort(-gains, kind="stable"):
        if carried >= RESPONSIBLE_SHARE * total:
            break
        carried += gains[stage]
        if str(features[stage]) not in questions:
            questions.append(str(features[stage]))
    return TooGood(data, tuple(reasons), tuple(questions))


def recorded_warning(metadata: Mapping) -> TooGood | None:
    """The warning a saved list records, or None (also for a malformed entry)."""
    entry = ModelMetadata.coerce(metadata).too_good
    if entry is None:
        return None
    reasons, questions = entry.get("reasons"), entry.get("questions")
    if not isinstance(reasons, list) or not isinstance(questions, list):
        return None
    return TooGood(
        str(entry.get("data", "test")),
        tuple(str(reason) for reason in reasons),
        tuple(str(question) for question in questions),
    )


def _numbers(values) -> np.ndarray | None:
    if not isinstance(values, list) or not values:
        return None
    try:
        return np.array([np.nan if value is None else float(value) for value in values])
    except (TypeError, ValueError):
        return None
