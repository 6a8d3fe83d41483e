"""The outcome: which column is proposed as the outcome and why, its positive class and class
names, and whether one column copies it (:func:`leak_reason`)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
from pandas.api import types as ptypes

from psl_core.errors import DataError
from psl_triage.words import preparing as words

from .formats import BINARY, MAX_OUTCOME_CLASSES, MIN_ROWS_PER_CLASS, ColumnSpec
from .separation import related_to_others
from .values import normalized, outcome_classes, value_label, value_text

_POSITIVE_WORDS = {
    "1", "yes", "y", "true", "t", "positive", "pos", "present", "presence", "disease", "diseased",
    "case", "cases", "abnormal", "died", "dead", "death", "deceased", "event", "sick", "ill",
    "malignant", "high", "+", "oui", "si", "sí", "ja", "sim",
}

_NEGATIVE_WORDS = {
    "0", "no", "n", "false", "f", "negative", "neg", "absent", "absence", "none", "normal",
    "control", "controls", "alive", "survived", "healthy", "benign", "low", "-", "non", "nein",
    "nee", "nej", "não", "nao",
}

_OUTCOME_NAME = re.compile(
    r"(^|[^a-z])(outcome|target|label|class|classification|diagnosis|dx|y|death|died|dead|"
    r"mortality|survival|survived|event|status|disease|response|result|low|malignant|cancer|"
    r"recurrence|relapse|readmission|readmitted|complication|infection|fate|vital status|"
    r"deces|exitus|verstorben|fallecido)([^a-z]|$)"
)


WEAK_OUTCOME_WORDS = frozenset({"status", "event", "events"})
"""Outcome words only alone or with a survival qualifier ("status", "os_status"), never in
"er_status", "marital_status" or "smoking_status", which are findings (:func:`weakly_named`)."""
SURVIVAL_QUALIFIERS = frozenset({
    "os", "pfs", "dfs", "efs", "rfs", "dss", "css", "ttp", "fu", "followup", "survival", "surv", "death",
    "recurrence", "relapse", "event",
})
"""Words that make a weak outcome word or a duration a survival outcome's ("os_status", "pfs months")."""


def weakly_named(tokens: Sequence[str]) -> bool:
    """Whether a name's words hold a weak outcome word (:data:`WEAK_OUTCOME_WORDS`) with only
    survival qualifiers beside it: "status", "os_status", "event" yes; "marital_status" no."""
    return any(token in WEAK_OUTCOME_WORDS for token in tokens) and all(
        token in WEAK_OUTCOME_WORDS or token in SURVIVAL_QUALIFIERS for token in tokens
    )


_LAST_BINARY = 3
"""Rank of the fallback candidate: the last two-valued column, named like no outcome."""
MAX_FLAGS_TRIED = 5
"""Two-valued columns, from the last, tried as the outcome nothing names."""


def _outcome_candidates(df: pd.DataFrame, types: Mapping[str, str]) -> list[tuple[object, str]]:
    """Columns that may be the outcome, best first, each with why.

    Among the columns named like an outcome, one a list can be learned from (:func:`_too_few`)
    comes before one that has too few rows of a class; the first one's reason then says which
    better-named column it passed over. A column named like an outcome is never passed over for
    the last two-valued column, which only its position recommends: the page then says what is
    wrong with the named one, rather than proposing to predict, say, whether a patient smokes.
    """
    binary = [name for name in df.columns if types.get(name) == BINARY]
    ranked: list[tuple[int, int, object, str]] = []
    for position, name in enumerate(df.columns):
        plain = "".join(c for c in unicodedata.normalize("NFKD", str(name)) if not unicodedata.combining(c))
        spoken = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", plain).lower()
        spoken = re.sub(r"[^a-z0-9]+", " ", spoken).strip()
        match = _OUTCOME_NAME.search(spoken)
        finding = not weakly_named(spoken.split())  # "marital status": its "status" names a finding
        while match and finding and match.group(2) in WEAK_OUTCOME_WORDS:
            match = _OUTCOME_NAME.search(spoken, match.end(2))
        if name in binary and match and match.group(2) == spoken:
            ranked.append((0, position, name, words.OUTCOME_NAME_EXACTLY.format(name=str(name))))
        elif name in binary and match:
            ranked.append((1, position, name, words.OUTCOME_NAME_CONTAINS.format(value=match.group(2))))
        elif match and 1 <= len(outcome_classes(df[name])) <= MAX_OUTCOME_CLASSES:
            ranked.append((2, position, name, words.NAME_CONTAINS_OUTCOME_WORD.format(value=match.group(2))))
    short: dict[object, tuple[object, int] | None] = {}  # _too_few of each column asked, once

    def too_few(name):
        if name not in short:
            short[name] = _too_few(df[name])
        return short[name]

    usable = [name for name in reversed(binary) if not too_few(name)]
    # Only its position recommends the last two-valued column: it must at least be related to
    # the rest of the table (a randomised treatment, a sampling flag is not); unsure, ask.
    last = next((name for name in usable[:MAX_FLAGS_TRIED] if related_to_others(df, name)), None)
    if last is None and binary and not usable:
        last = binary[-1]
    if last is not None:
        ranked.append((_LAST_BINARY, 0, last, words.LAST_BINARY_COLUMN))
    ordered = sorted(ranked, key=lambda item: item[:2])
    for _, _, name, _ in ordered:
        too_few(name)
    named = [item for item in ordered if item[0] < _LAST_BINARY]
    ordered = (
        [item for item in named if not short[item[2]]] + [item for item in named if short[item[2]]]
        + [item for item in ordered if item[0] == _LAST_BINARY]
    )
    candidates = [(name, reason) for _, _, name, reason in ordered]
    passed = [name for name, _ in candidates if short[name]]
    if candidates and passed and not short[candidates[0][0]]:
        value, n_rows = short[passed[0]]
        reason = words.passed_over(candidates[0][1], str(passed[0]), value, n_rows, MIN_ROWS_PER_CLASS)
        candidates[0] = (candidates[0][0], reason)
    return candidates


def _too_few(series: pd.Series) -> tuple[object, int] | None:
    """(class, rows) a list cannot be learned from for want of rows (fewer than
    :data:`~.formats.MIN_ROWS_PER_CLASS`), None when each side has enough: the rarer of two
    values as its text; with more values "" when no value has enough rows, None (the values
    other than the most common one) when those together have too few; a column with one value
    lacks a second class ("", 0)."""
    counts = normalized(series).value_counts()  # per distinct value, then merged by its text
    by_text: dict[str, int] = {}
    for value, n in counts.items():
        by_text[value_text(value)] = by_text.get(value_text(value), 0) + int(n)
    counts = list(by_text.items())
    if len(counts) < 2:
        return ("", 0)
    most = max(n for _, n in counts)
    rest = sum(n for _, n in counts) - most
    if len(counts) == 2:
        value, rarer = min(counts, key=lambda item: item[1])
        return (value, rarer) if rarer < MIN_ROWS_PER_CLASS else None
    if most < MIN_ROWS_PER_CLASS:
        return ("", most)
    return (None, rest) if rest < MIN_ROWS_PER_CLASS else None


def guess_outcome(df: pd.DataFrame, types: Mapping[str, str]) -> str | None:
    """A likely outcome column, or None; :func:`explain_outcome_guess` says why.

    Preference: a binary column named with an outcome word ("outcome", "low", "died"...),
    then a binary column whose name contains one ("death_status"), then any column with such a
    name and few values (even one value, so that the user learns what is wrong with it), then
    the last binary column; but first of all one a list can be learned from (enough rows of
    each class).
    """
    candidates = _outcome_candidates(df, types)
    return candidates[0][0] if candidates else None


def explain_outcome_guess(df: pd.DataFrame, types: Mapping[str, str]) -> str:
    """Why :func:`guess_outcome` chose its column, e.g. "it has two values and its name ..."."""
    candidates = _outcome_candidates(df, types)
    return candidates[0][1] if candidates else words.NO_OUTCOME_LIKE_COLUMN


def guess_positive_class(series: pd.Series) -> object | None:
    """The likely positive value of a two-valued outcome; None for any other number of values.

    A value that reads as positive ("yes", "1", "died", "present"...) is chosen, else the
    value whose partner reads as negative, else the rarer value (events are usually the
    minority), else the later one in natural order.
    """
    classes = outcome_classes(series)
    if len(classes) != 2:
        return None
    return pick_one(series, classes)


def pick_one(series: pd.Series, two_values: list) -> object:
    texts = [value_text(value).casefold() for value in two_values]
    for value, text in zip(two_values, texts):
        if text in _POSITIVE_WORDS:
            return value
    for index, text in enumerate(texts):
        if text in _NEGATIVE_WORDS:
            return two_values[1 - index]
    counts = normalized(series).dropna().map(value_text).value_counts()
    first, second = (int(counts.get(value_text(value), 0)) for value in two_values)
    if first != second:
        return two_values[0] if first < second else two_values[1]
    return two_values[1]


LEAK_ERROR_SHARE = 0.02
"""A column encodes the outcome when its best single cut (or its categories) misplaces at most
this share of the rarer class's rows."""

MIN_ROWS_FOR_LEAK = 20
"""Fewer rows with both values than this cannot tell a leak from luck; no column is flagged."""


def leak_reason(values: pd.Series, y: np.ndarray, positive: str = "positive", negative: str = "negative") -> str:
    """Why a column looks like it encodes the outcome, or "" if it does not.

    A numeric column does when one cut puts all but at most :data:`LEAK_ERROR_SHARE` of the
    rarer class's rows on their own side (a perfect cut is the continuous measure the outcome is
    a threshold of); a text or categorical column with fewer categories than half its rows
    does when the classes barely mix within its categories.

    Parameters
    ----------
    values : pandas.Series of shape (n,)
        The column's values on rows where it and the outcome are known (floats or text).
    y : numpy.ndarray of shape (n,)
        1 for the positive class, else 0.
    positive, negative : str
        The classes' names, for the sentence.
    """
    y = np.asarray(y, dtype=np.int64)
    n_positive = int(y.sum())
    rarer = min(n_positive, len(y) - n_positive)
    if len(y) < MIN_ROWS_FOR_LEAK or rarer == 0:
        return ""
    allowed = int(LEAK_ERROR_SHARE * rarer)
    if ptypes.is_numeric_dtype(values) and not isinstance(values.dtype, pd.CategoricalDtype):
        numbers = values.to_numpy(dtype=float)
        order = np.argsort(numbers, kind="stable")
        ordered, labels = numbers[order], y[order]
        ends = np.flatnonzero(np.diff(ordered) > 0)  # cut after these positions
        if ends.size == 0:
            return ""
        positives_below = np.cumsum(labels)[ends]
        negatives_below = ends + 1 - positives_below
        high_is_positive = positives_below + (len(y) - n_positive - negatives_below)
        low_is_positive = negatives_below + (n_positive - positives_below)
        errors = np.minimum(high_is_positive, low_is_positive)
        best = int(np.argmin(errors))
        if errors[best] > allowed:
            return ""
        cut = (ordered[ends[best]] + ordered[ends[best] + 1]) / 2
        above, below = (positive, negative) if high_is_positive[best] <= low_is_positive[best] else (negative, positive)
        return words.threshold_encodes_outcome(value_text(float(f'{cut:.4g}')), errors[best], above, below, int(errors[best]), len(y))
    texts = values.astype(str)
    if texts.nunique() * 2 > len(texts):
        return ""
    counts = pd.crosstab(texts.to_numpy(), y)
    errors = int(counts.min(axis=1).sum()) if counts.shape[1] == 2 else 0
    if errors > allowed:
        return ""
    return words.VALUES_ENCODE_OUTCOME.format(positive=positive, negative=negative, errors=errors, n_rows=len(y))


def default_class_names(
    series: pd.Series, outcome: object, positive_values: Sequence[object], spec: ColumnSpec | None = None
) -> tuple[str, str]:
    """Readable names of the positive and the negative class, from the data.

    A spec's category labels win ("heart disease"); text values name themselves ("malignant",
    "benign"); numeric codes say which column and value they are ("low = 1", "low = 0";
    "num = 1, 2 or 3" for several values), never a bare "1".
    """
    positive_texts = {value_text(value) for value in positive_values}
    negatives = [value for value in outcome_classes(series) if value_text(value) not in positive_texts]
    return (
        _class_label(outcome, list(positive_values), spec),
        _class_label(outcome, negatives, spec),
    )


def class_names_of(
    series: pd.Series,
    outcome: object,
    positive_values: Sequence[object],
    spec: ColumnSpec | None,
    chosen: tuple[str, str] | None,
) -> tuple[str, str]:
    """The user's class names where given (stripped, not blank), the defaults elsewhere."""
    defaults = default_class_names(series, outcome, positive_values, spec)
    chosen = chosen or ("", "")
    names = tuple(str(name).strip() or default for name, default in zip(chosen, defaults))
    if names[0].casefold() == names[1].casefold():
        raise DataError(words.SAME_CLASS_NAMES.format(names=names[0]))
    return names


def positive_class_values(
    series: pd.Series, outcome: str, positive_class: object, notes: list[str], others: str = "negative"
) -> tuple[set[str], list]:
    """Canonical texts and raw values of the positive class; validates the outcome. ``others``:
    what the other values count as in the note ("censored" for follow-up data's event column)."""
    classes = outcome_classes(series)
    name = repr(str(outcome))
    if not classes:
        raise DataError(words.OUTCOME_ALL_MISSING.format(name=name))
    if len(classes) == 1:
        raise DataError(words.OUTCOME_ONE_VALUE.format(name=name, value=value_text(classes[0])))
    if len(classes) > MAX_OUTCOME_CLASSES:
        raise DataError(words.OUTCOME_TOO_MANY_VALUES.format(name=name, n_classes=len(classes)))
    if positive_class is None or (isinstance(positive_class, (list, tuple, set, frozenset)) and not positive_class):
        if len(classes) > 2:
            raise DataError(words.pick_positive_class(name, len(classes), [value_text(value) for value in classes]))
        guessed = pick_one(series, classes)
        notes.append(words.POSITIVE_CLASS_ASSUMED.format(guessed=value_text(guessed)))
        wanted = [guessed]
    elif isinstance(positive_class, (list, tuple, set, frozenset)):
        wanted = list(positive_class)
    else:
        wanted = [positive_class]
    by_text = {value_text(value): value for value in classes}
    texts = []
    for value in wanted:
        text = value_text(value)
        if text not in by_text:
            raise DataError(words.positive_class_absent(text, name, by_text))
        if text not in texts:
            texts.append(text)
    if len(texts) == len(classes):
        raise DataError(words.EVERY_VALUE_POSITIVE.format(name=name))
    if len(classes) > 2:
        negatives = [text for text in by_text if text not in texts]
        notes.append(words.outcome_classes_note(name, len(classes), texts, len(texts), negatives, others))
    return set(texts), [by_text[text] for text in texts]


def _class_label(outcome: object, values: Sequence[object], spec: ColumnSpec | None) -> str:
    labels = [value_label(value, spec) for value in values]
    joined = labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + " or " + labels[-1]
    return f"{outcome} = {joined}" if is_coded(values, spec) else joined


def is_coded(values: Sequence[object], spec: ColumnSpec | None) -> bool:
    """Whether a class is bare number codes without a label ("status = 1" names it)."""
    return all(_is_number_text(label) and label == value_text(value)
               for label, value in ((value_label(value, spec), value) for value in values))


def _is_number_text(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True
