"""Column roles from evidence: which columns of a study export a bedside list may ask about.

A researcher's table is a study export, not a feature matrix. Next to the predictors it holds
patient and sample identifiers, dates, follow-up times, a second outcome of the same study,
columns filled in only for patients who had the event, and measurements that define the outcome.
A list that asks about any of them is worse than no list. :func:`propose_roles` proposes a role
per column, each with one sentence of evidence that the Data page shows:

``"question"``   a question candidate: a measurement, answer or category known at triage;
``"identifier"`` a patient, sample or row identifier, a person's name, free text;
``"time"``       a date or a time measured from baseline (follow-up, turnaround, day of study);
``"leak"``       a column that looks recorded after the outcome or derived from it;
``"ignore"``     nothing to learn from (all missing, constant).

The evidence comes from the column's name read token by token ("pid", "rfs time",
"cause of death", never "protime" as "time"), its values (different in every row, rising with
the row order, dates, text with one value per person) and the outcome itself: a column whose
single cut or categories, learned on one half of the rows, tell the classes apart on the other
half; a column whose missingness tells them apart or that is filled in for one class only; a
second 0/1 column tied to the outcome. A column more than :data:`~psl_triage.data.MOSTLY_EMPTY_SHARE` empty is never filled in
(:func:`psl_triage.data.prepare_training_data` leaves it to the learner, which learns where a
missing answer goes): when its missingness carries the outcome it is a leak, otherwise it stays
a question candidate and its evidence says how empty it is.

Nothing is final: the page sets every column that is not a question candidate to "ignore",
shows why, and lets the user put it back in one click (:func:`roles_record` keeps the choice
with the model's metadata).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd
from pandas.api import types as ptypes

from psl_core.errors import DataError
from psl_triage.data.after_baseline import along_follow_up, shares_outcome_time, status_levels
from psl_triage.data.columns import infer_kind
from psl_triage.data.event_times import filled_after, filled_with, follow_up_evidence, own_time, times_along_named
from psl_triage.data.formats import BINARY, CATEGORICAL, IGNORE, MOSTLY_EMPTY_SHARE, NUMERIC
from psl_triage.data.outcome import SURVIVAL_QUALIFIERS, default_class_names, positive_class_values, weakly_named
from psl_triage.data.separation import MIN_PER_CLASS, held_out_auc, held_out_separation, lone_separator, phi_of
from psl_triage.data.values import normalized, running_number, value_text
from psl_triage.model_file.metadata import ModelMetadata
from psl_triage.words import preparing
from psl_triage.words import roles as words
from psl_triage.words.common import share

ROLES = words.ROLE_LABELS
"""The roles a column can have, with how the page names them."""

MIN_PHASES = 3
"""A table whose column names share at least this many prefixes ("preOp_", "pacu30min_", ...),
each by two or more columns, is read as recorded in time points (:func:`_phase_leaks`)."""

HELD_OUT_SEPARATION = 0.95
"""A column leaks when a rule learned from it on one half of the rows reaches at least this
balanced accuracy on the other half, in both directions. A clinical predictor seldom passes
0.85; a measurement the outcome is defined by, or one recorded after it, reaches 1."""

MISSINGNESS_SEPARATION = 0.90
"""A column leaks when whether it is filled in alone reaches this balanced accuracy."""

PRESENT_FOR_ONE_CLASS = 0.01
"""A column is "present only for one class" when at most this share of the other class has it."""

TIED_BINARY = 0.80
"""A second 0/1 column leaks when its correlation with the outcome (phi) is at least this."""

MANY_IDS = 50
"""A column named like an identifier with more different values than this is one even when each
value repeats (a patient's many tests); with fewer it may be a code for a site or a ward."""

MIN_ROWS_PER_HALF = MIN_PER_CLASS
"""Each half needs this many rows of either class before a held-out rule is trusted."""

_ID_TOKENS = frozenset({
    "id", "ids", "pid", "sid", "uid", "uuid", "guid", "mrn", "patid", "patientid", "subjid",
    "subjectid", "caseid", "studyid", "identifier", "rownames", "rowname", "rowid", "seqn",
})
_PERSON_NAME_TOKENS = frozenset({"surname", "firstname", "lastname", "forename", "givenname", "vorname", "nachname"})
_PERSON_NAME_QUALIFIERS = frozenset({"first", "last", "sur", "given", "family", "fake", "full", "middle", "maiden", "patient", "person"})
_TIME_TOKENS = frozenset({
    "time", "times", "date", "dates", "datetime", "timestamp", "futime", "followup", "fu",
    "day", "days", "tat", "dt", "los", "datum", "zeit", "tage", "tstart", "tstop",
})
_RATE_UNITS = frozenset({"day", "days", "tage"})
"""Time words that are also the unit of a rate ("BL.Cig.Day": cigarettes per day): alone in a
name they make a time only with the values of one (:func:`_day_count`)."""
MIN_DAYS = 20
"""A column named only with a rate's unit is a day count when it has at least this many
different values (or different values in half its rows, in a small table): follow-up and study
days spread out, while a rate per day heaps on a few round numbers (5, 10, 20 cigarettes)."""
_DURATION_UNITS = frozenset({"months", "month", "mo", "mos", "weeks", "wk", "years", "yrs", "duration"})
_TIME_PREFIXES = ("fu", "rfs", "os", "pfs", "dfs", "efs", "surv", "r", "d", "e", "s", "t", "death", "event", "censor", "obs")
_BEFORE_BASELINE = frozenset({
    "diag", "diagnosis", "onset", "symptom", "symptoms", "since", "prior", "pain", "history", "ago", "pre",
    "fever", "illness", "cough",
})
"""A time with one of these words is measured before triage ("diag.time", "symptom_duration",
"time since onset"): a finding, not a follow-up time."""
_YEAR_TOKENS = frozenset({"year", "yr", "yyyy", "jahr"})
OUTCOME_TOKENS = frozenset({
    "death", "dead", "died", "deceased", "mortality", "recur", "recurrence", "recurred", "relapse",
    "censor", "censored", "fustat", "vital", "survival", "survived", "progression", "outcome", "etype",
    "tod", "todesursache", "verstorben", "rezidiv", "deces",
})
_OUTCOME_VALUE_WORDS = frozenset({
    "dead", "died", "death", "deceased", "alive", "living", "censored", "censor", "event", "relapse",
    "recurrence", "recurred", "progression", "progressed", "lost", "yes", "no", "true", "false",
})
_FOLLOW_UP_UNITS = frozenset({"time", "times", "to", "until", "days", "months", "years", "weeks"})
"""Words a follow-up time adds to the name of its event ("time.to.agvhd", "ptime" of "pstat")."""
_EVENT_SUFFIXES = ("status", "stat", "event", "ind")
_DATE_TEXT = re.compile(r"^\s*(\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4})([ T]\d{1,2}:\d{2}.*)?\s*$")


@dataclass(frozen=True)
class Role:
    """A proposed role and the one sentence of evidence for it."""

    role: str
    evidence: str

    @property
    def takes_out(self) -> bool:
        """Whether the column is proposed to stay out of the list."""
        return self.role != "question"


def name_tokens(name: object) -> list[str]:
    """The words of a column name in lower case: "rfsTime" -> ["rfs", "time"], "col_rec_tat" ->
    ["col", "rec", "tat"], "sample.yr" -> ["sample", "yr"]."""
    text = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", str(name))
    text = re.sub(r"(?<=[A-Za-z])(?=\d)|(?<=\d)(?=[A-Za-z])", " ", text)
    return [token for token in re.split(r"[^0-9a-z]+", text.lower()) if token]


def propose_roles(
    df: pd.DataFrame,
    types: Mapping[object, str],
    outcome: object = None,
    positive_class: object = None,
    profile=None,
) -> dict[object, Role]:
    """A role with its evidence for every column other than the outcome.

    Parameters
    ----------
    df : pandas.DataFrame
        The table as loaded.
    types : mapping of column name to str
        The detected types (:func:`psl_triage.data.infer_column_types`).
    outcome : column name or None
        The outcome; without it (or without a usable positive class) the outcome-based signals
        are not used.
    positive_class : object, list or None
        As for :func:`psl_triage.data.prepare_training_data`.
    profile : psl_triage.data.profile.TableProfile or None
        The table's kinds and follow-up evidence when already worked out (the dataset session's).

    Returns
    -------
    dict of column name to Role, in the table's column order.
    """
    target = _outcome(df, outcome, positive_class)
    roles = {}
    for name in df.columns:
        if name == outcome:
            continue
        inferred = infer_kind(name, df[name]) if profile is None else profile.kinds[name]
        roles[name] = _column_role(df, name, types.get(name, IGNORE), outcome, target, inferred)
    for name, evidence in _phase_leaks(df.columns, outcome).items():
        if roles[name].role == "question":
            roles[name] = Role("leak", evidence)
    pairs = follow_up_pairs(df, types, outcome)
    named = [name for name, role in roles.items() if role.role == "time"] + [time for _, time in pairs]
    own = _found_times(df, outcome, roles, target, positive_class, None if profile is None else profile.found_times,
                       named)
    for event, time in pairs:
        if event != outcome and roles[event].role == "question":
            roles[event] = Role("leak", words.EVENT_WITH_OWN_TIME.format(time=str(time)))
        if roles[time].role == "question":
            roles[time] = Role("time", words.TIME_OF_EVENT.format(event=str(event)))
    if target is not None:
        _after_baseline(df, roles, target, own, outcome)
        _ask_lone_separator(df, types, target, roles)
    return roles


def _after_baseline(df: pd.DataFrame, roles: dict[object, Role], target, time: object, outcome: object) -> None:
    """Take out the question candidates :mod:`psl_triage.data.after_baseline` finds recorded after
    baseline: along the outcome's follow-up ``time`` (None without one), the other values of the
    outcome's status."""
    asked = [name for name, role in roles.items() if role.role == "question"]
    found = {**(along_follow_up(df, time, asked) if time is not None else {}), **status_levels(df, target.y, asked, outcome)}
    for name, evidence in found.items():
        roles[name] = Role("leak", evidence)


def _ask_lone_separator(df: pd.DataFrame, types: Mapping[object, str], target, roles: dict[object, Role]) -> None:
    """Propose out the question candidate that alone separates the outcome far better than any
    other (:func:`psl_triage.data.separation.lone_separator`), naming it and its held-out AUC:
    the user puts it back when it is known at triage."""
    aucs = {}
    for name, role in roles.items():
        kind = types.get(name)
        if role.role != "question" or kind not in (NUMERIC, BINARY, CATEGORICAL):
            continue
        values = normalized(df[name])
        rows = (target.y >= 0) & values.notna().to_numpy()
        if kind == NUMERIC:
            feature = pd.to_numeric(values, errors="coerce").to_numpy(dtype=float)
            rows &= np.isfinite(feature)
        else:
            feature = _texts(values).to_numpy(dtype=object)
        aucs[name] = held_out_auc(feature[rows], target.y[rows], target.halves[rows], numeric=kind == NUMERIC)
    lone = lone_separator(aucs)
    if lone is not None:
        roles[lone.column] = Role("leak", words.lone_separator(
            lone.column, lone.auc, lone.next_column, lone.next_auc, target.positive, target.negative))


def _found_times(df: pd.DataFrame, outcome: object, roles: dict[object, Role], target=None, positive=None, found=None,
                 named_times=()) -> object:
    """Take out the times the values show (:mod:`psl_triage.data.event_times`), whatever their
    names: the outcome's own follow-up time (``positive``: its event's values, for a status of
    other codes), every other event's time, every other event with its own time (a leak) and what
    is filled in only after it, however the event went out; columns proposed out for another reason
    keep it, and a finding 1 with the outcome in many rows stays in although it behaves as an event of
    the outcome's own time (:func:`~psl_triage.data.after_baseline.shares_outcome_time`). ``found``: the
    evidence known; ``named_times``: times known by name (:func:`times_along_named`). Returns the
    outcome's own follow-up time, None without one."""
    found = follow_up_evidence(df) if found is None else found
    found = [*found, *times_along_named(df, found, named_times)]
    positive = None if positive is None else [positive] if np.isscalar(positive) else list(positive)
    own = own_time(df, outcome, found, positive) if outcome in df.columns else []
    own_time_name = own[0].time if own else None
    for item in [*found, *own]:
        if target is not None and item.time == own_time_name and item.event not in (None, outcome) and (
                item.event in roles and shares_outcome_time(df, item.event, target.y)):
            continue  # a finding: the outcome's own item names the time
        if item.time in roles and item.time != outcome and roles[item.time].role == "question":
            roles[item.time] = Role("time", item.evidence)
        companions = item.event is None if item.longer is not None else item.event not in (None, outcome)
        for name in filled_with(df, item.time) if companions else ():
            if name in roles and name not in (outcome, item.event) and roles[name].role == "question":
                roles[name] = Role("leak", words.FILLED_WITH_TIME.format(time=str(item.time)))
        event = item.event if item.event != outcome and item.event in roles else None
        if event is not None and roles[event].role == "question":
            roles[event] = Role("leak", words.EVENT_WITH_OWN_TIME.format(time=str(item.time)))
        for name, filled in filled_after(df, event).items() if event is not None else ():
            if name in roles and roles[name].role == "question":
                roles[name] = Role("leak", words.FILLED_AFTER_EVENT.format(event=str(item.event), share=share(filled)))
    return own_time_name


def _phase(name: object) -> str | None:
    """The part of a column name before its first separator ("pacu30min" of
    "pacu30min_throatPain"), in lower case; None for a name without one."""
    match = re.match(r"([^_.\s]+)[_.\s]+\S", str(name))
    return match.group(1).lower() if match and re.search("[A-Za-z]", match.group(1)) else None


def time_points(columns: Iterable[object]) -> dict[object, str]:
    """The columns of a study export recorded in time points ("preOp_*", "pacu30min_*", "V5.*"),
    each with its time point (:func:`_phase`); empty unless at least :data:`MIN_PHASES`
    prefixes are shared by two or more columns each. Columns whose prefix no other column
    shares are left out."""
    phases = {name: _phase(name) for name in columns}
    counts: dict[str, int] = {}
    for phase in phases.values():
        if phase is not None:
            counts[phase] = counts.get(phase, 0) + 1
    grouped = {phase for phase, count in counts.items() if count >= 2}
    if len(grouped) < MIN_PHASES:
        return {}
    return {name: phase for name, phase in phases.items() if phase in grouped}


def _phase_leaks(columns: Iterable[object], outcome: object) -> dict[object, str]:
    """Columns of a study export recorded in time points (:func:`time_points`) that come from
    the outcome's own time point or a later one, with the evidence.

    Only when the outcome's name has a time point; "later" is the order in which the prefixes
    first appear in the table, the order study exports keep.
    """
    points = time_points(columns)
    own = points.get(outcome)
    if own is None:
        return {}
    first: dict[str, int] = {}
    for index, phase in enumerate(points.values()):
        first.setdefault(phase, index)
    leaks = {}
    for name, phase in points.items():
        if name == outcome:
            continue
        if phase == own:
            leaks[name] = words.RECORDED_WITH_OUTCOME.format(phase=phase, outcome=str(outcome))
        elif first[phase] > first[own]:
            leaks[name] = words.RECORDED_LATER.format(phase=phase, own=own)
    return leaks


def _column_role(df: pd.DataFrame, name: object, kind: str, outcome: object, target, inferred) -> Role:
    """``inferred``: the column's (kind, reason) from :func:`infer_kind`."""
    series = df[name]
    values = normalized(series)
    tokens = name_tokens(name)
    inferred, reason = inferred
    role = _time_or_date(tokens, values, series) or _identifier(tokens, values, inferred, reason)
    if role is not None:
        return role
    if target is not None:
        role = _outcome_signal(name, tokens, values, kind, outcome, target)
        if role is not None:
            return role
    empty = float(values.isna().mean()) if len(values) else 0.0
    if inferred == IGNORE and kind == IGNORE:
        return Role("ignore", words.as_sentence(reason))
    if empty > MOSTLY_EMPTY_SHARE:
        return Role(
            "question",
            words.EMPTY_BUT_NOT_TELLING.format(empty=share(empty)),
        )
    return Role("question", words.as_sentence(reason))


# --- identifiers ------------------------------------------------------------------------------


def _identifier(tokens: list[str], values: pd.Series, inferred: str, reason: str) -> Role | None:
    present = values.dropna()
    if len(present) == 0:
        return None
    distinct = int(present.nunique())
    if inferred == IGNORE and (preparing.IDENTIFIER_NAMED in reason or preparing.ROW_COUNTER in reason):
        return Role("identifier", words.as_sentence(reason))
    if inferred == IGNORE and preparing.EVERY_ROW_DIFFERENT in reason:
        return Role("identifier", words.as_sentence(reason))
    numbers = _numbers(present)
    whole = numbers is not None and bool((numbers == np.round(numbers)).all())
    id_name = next((token for token in tokens if token in _ID_TOKENS), None)
    if id_name and distinct > 2 and (distinct >= 0.5 * len(present) or distinct > MANY_IDS) and (whole or numbers is None):
        return Role(
            "identifier",
            words.NAMED_IDENTIFIER.format(id_name=id_name, distinct=distinct, n_rows=len(present)),
        )
    person = [token for token in tokens if token in _PERSON_NAME_TOKENS]
    if not person and "name" in tokens and (
        len(tokens) == 1 or any(token in _PERSON_NAME_QUALIFIERS for token in tokens)
    ):
        person = ["name"]
    if person and numbers is None:
        return Role("identifier", words.person_name(tokens))
    correlation = running_number(values)
    if correlation is not None:
        return Role("identifier", words.RUNNING_NUMBER.format(correlation=correlation))
    if numbers is None and distinct > 30:
        counts = _texts(present).value_counts()
        once = float(counts[counts == 1].sum()) / len(present)
        if once >= 0.5:
            return Role(
                "identifier",
                words.FREE_TEXT.format(distinct=distinct, unique_share=share(once)),
            )
    return None


# --- times and dates --------------------------------------------------------------------------


def _time_or_date(tokens: list[str], values: pd.Series, series: pd.Series) -> Role | None:
    if ptypes.is_datetime64_any_dtype(series) or ptypes.is_timedelta64_dtype(series):
        return Role("time", words.DATES_OR_TIMES)
    present = values.dropna()
    if len(present) == 0:
        return None
    numbers = _numbers(present)
    if numbers is None:
        sample = present.astype(str).head(200)
        if sample.map(lambda text: bool(_DATE_TEXT.match(text))).mean() >= 0.9:
            return Role("time", words.CALENDAR_DATES.format(example=sample.iloc[0]))
        return None
    word = time_word(tokens)
    if word in _RATE_UNITS:
        return _day_count(word, tokens, numbers)
    if word:
        return Role("time", words.NAMED_LIKE_TIME.format(word=word))
    year = next((token for token in tokens if token in _YEAR_TOKENS or token.endswith(("yr", "year"))), None)
    if year and ((numbers >= 1900) & (numbers <= 2100) & (numbers == np.round(numbers))).all():
        return Role(
            "time",
            words.CALENDAR_YEARS.format(first=value_text(numbers.min()), last=value_text(numbers.max())),
        )
    return None


def _day_count(word: str, tokens: list[str], numbers: pd.Series) -> Role | None:
    """A time when a column named "day" or "days" holds day counts (:data:`MIN_DAYS`), never
    a rate ("per day"); None for a rate, whose evidence is then its values'."""
    distinct = int(numbers.nunique())
    if "per" in tokens or distinct < min(MIN_DAYS, math.ceil(len(numbers) / 2)):
        return None
    return Role(
        "time",
        words.DAY_COUNT.format(
            word=word, distinct=distinct, first=value_text(numbers.min()), last=value_text(numbers.max())
        ),
    )


def time_word(tokens: list[str]) -> str | None:
    """The word that makes a name a time ("futime", "rfs time", "os months"), or None."""
    if any(token in _BEFORE_BASELINE for token in tokens):
        return None
    for token in tokens:
        if token in _TIME_TOKENS or (token.endswith("time") and token[: -len("time")] in _TIME_PREFIXES):
            return token
    if any(token in _DURATION_UNITS for token in tokens) and any(token in SURVIVAL_QUALIFIERS for token in tokens):
        return " ".join(tokens)
    return None


# --- the outcome ------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Target:
    y: np.ndarray  # 1 positive, 0 negative, -1 no outcome
    positive: str
    negative: str
    halves: np.ndarray  # 0 or 1 per row: which half a row is in


def _outcome(df: pd.DataFrame, outcome: object, positive_class: object) -> _Target | None:
    if outcome is None or outcome not in df.columns:
        return None
    if isinstance(positive_class, (list, tuple)) and not positive_class:
        positive_class = None
    try:
        positive_texts, positive_values = positive_class_values(df[outcome], outcome, positive_class, [])
    except DataError:
        return None
    labels = default_class_names(df[outcome], outcome, positive_values)
    values = normalized(df[outcome])
    y = _texts(values).isin(positive_texts).to_numpy(dtype=np.int64)
    y[values.isna().to_numpy()] = -1
    halves = np.random.default_rng(0).permutation(len(y)) % 2
    return _Target(y, *labels, halves)


def _outcome_signal(
    name: object, tokens: list[str], values: pd.Series, kind: str, outcome: object, target: _Target
) -> Role | None:
    known = target.y >= 0
    y = target.y
    word = next((token for token in tokens if token in OUTCOME_TOKENS), None)
    if word is None and weakly_named(tokens):  # and only with codes or outcome words as values
        word = " ".join(tokens)
    if word and word not in OUTCOME_TOKENS and not _outcome_like_values(values):
        word = None
    if word:
        return Role(
            "leak",
            words.NAMED_LIKE_OUTCOME.format(word=word, outcome=str(outcome)),
        )
    missing = values.isna().to_numpy()
    role = _missingness_leak(missing[known], y[known], target)
    if role is not None:
        return role
    rows = known & ~missing
    if kind == NUMERIC:
        numbers = pd.to_numeric(values, errors="coerce").to_numpy(dtype=float)
        rows &= np.isfinite(numbers)
        feature = numbers
    elif kind in (BINARY, CATEGORICAL):
        feature = _texts(values).to_numpy(dtype=object)
    else:
        return None
    if kind == BINARY and rows.sum() >= 2 * MIN_ROWS_PER_HALF:
        codes = (feature[rows] == sorted(set(feature[rows]))[0]).astype(float)
        phi = phi_of(codes, y[rows])
        if abs(phi) >= TIED_BINARY:
            return Role(
                "leak",
                words.second_outcome(phi),
            )
    accuracy, rule = held_out_separation(feature[rows], y[rows], target.halves[rows], numeric=kind == NUMERIC)
    if accuracy >= HELD_OUT_SEPARATION:
        return Role(
            "leak",
            words.ALONE_TELLS_CLASSES.format(positive=target.positive, negative=target.negative, rule=rule, accuracy=share(accuracy)),
        )
    return None


def _outcome_like_values(values: pd.Series) -> bool:
    """Whether a column named only "status" or "event" holds an outcome's values: number codes
    or words like dead / alive / censored, not categories like outpatient / inpatient."""
    present = values.dropna()
    if len(present) == 0 or _numbers(present) is not None:
        return True
    tokens = {token for text in _texts(present).unique() for token in name_tokens(text)}
    return bool(tokens & _OUTCOME_VALUE_WORDS)


def follow_up_pairs(
    df: pd.DataFrame, types: Mapping[object, str], outcome: object
) -> list[tuple[object, object]]:
    """(event, time) pairs: a 0/1 column (or the outcome) and the numeric column that is its
    follow-up time by name: "pstat" and "ptime", "agvhd" and "time.to.agvhd"."""
    times: dict[str, object] = {}
    for name in df.columns:
        tokens = name_tokens(name)
        if name == outcome or types.get(name) != NUMERIC:
            continue
        if not any(token in ("time", "times") or (token.endswith("time") and len(token) > 4) for token in tokens):
            continue
        if any(token in _BEFORE_BASELINE for token in tokens):
            continue
        stem = [token[: -len("time")] if token.endswith("time") and len(token) > 4 else token for token in tokens]
        times.setdefault(" ".join(token for token in stem if token not in _FOLLOW_UP_UNITS), name)
    pairs = []
    for name in df.columns:
        if name != outcome and types.get(name) != BINARY:
            continue
        tokens = name_tokens(name)
        if len(tokens) > 1 and tokens[-1] in _EVENT_SUFFIXES:
            tokens = tokens[:-1]
        elif len(tokens) == 1:
            suffix = next((end for end in _EVENT_SUFFIXES if tokens[0].endswith(end) and len(tokens[0]) > len(end)), "")
            tokens = [tokens[0][: len(tokens[0]) - len(suffix)]]
        stem = " ".join(tokens)
        if stem and stem in times:
            pairs.append((name, times[stem]))
    return pairs


def _missingness_leak(missing: np.ndarray, y: np.ndarray, target: _Target) -> Role | None:
    n_positive, n_negative = int(y.sum()), int(len(y) - y.sum())
    if not missing.any() or missing.all() or min(n_positive, n_negative) < MIN_ROWS_PER_HALF:
        return None
    present_positive = float((~missing[y == 1]).mean())
    present_negative = float((~missing[y == 0]).mean())
    for present, other, cls in (
        (present_positive, present_negative, target.positive),
        (present_negative, present_positive, target.negative),
    ):
        if other <= PRESENT_FOR_ONE_CLASS and present * (n_positive if cls == target.positive else n_negative) >= MIN_ROWS_PER_HALF:
            return Role(
                "leak",
                words.FILLED_IN_FOR_ONE_CLASS.format(cls=cls, present=share(present), other=share(other)),
            )
    accuracy = (max(present_positive, 1 - present_positive) + max(present_negative, 1 - present_negative)) / 2
    if (present_positive > 0.5) != (present_negative > 0.5) and accuracy >= MISSINGNESS_SEPARATION:
        return Role(
            "leak",
            words.MISSINGNESS_TELLS_CLASSES.format(positive=target.positive, negative=target.negative, accuracy=share(accuracy)),
        )
    return None


def _texts(values: pd.Series) -> pd.Series:
    """Each value's canonical text (missing stays missing), computed once per distinct value."""
    codes, uniques = pd.factorize(values, use_na_sentinel=True)
    texts = np.array([value_text(value) for value in uniques] + [None], dtype=object)
    return pd.Series(texts[codes], index=values.index)


def _numbers(present: pd.Series) -> pd.Series | None:
    """The values as floats when all of them are numbers, else None."""
    if ptypes.is_bool_dtype(present):
        return None
    numbers = present if ptypes.is_numeric_dtype(present) else pd.to_numeric(present, errors="coerce")
    if numbers.isna().any():
        return None
    return numbers.astype(float)



# --- the page's record ------------------------------------------------------------------------


def taken_out(roles: Mapping[object, Role]) -> dict[object, str]:
    """The columns proposed to stay out, each with its role's name and evidence."""
    return {name: f"{ROLES[role.role]}: {role.evidence}" for name, role in roles.items() if role.takes_out}


def roles_record(roles: Mapping[object, Role], types: Mapping[object, str]) -> dict[str, dict]:
    """JSON-ready record of the proposals for the model's metadata.

    ``{column: {"role", "evidence", "kept"}}`` for every column proposed to stay out; "kept" is
    true when the user put it back as a question (its type in ``types`` is not "ignore").
    """
    return {
        str(name): {"role": role.role, "evidence": role.evidence, "kept": types.get(name, IGNORE) != IGNORE}
        for name, role in roles.items()
        if role.takes_out
    }


def role_labels(names: Iterable[object], roles: Mapping[object, Role], types: Mapping[object, str]) -> list[str]:
    """The role each column has now, as the column table shows it: the proposal while the
    column is out, "question candidate (put back)" when the user kept a column proposed out."""
    labels = []
    for name in names:
        role = roles.get(name)
        if types.get(name, IGNORE) == IGNORE:
            labels.append(ROLES[role.role] if role is not None and role.takes_out else "ignore")
        else:
            labels.append(ROLES["question"] + (words.PUT_BACK if role is not None and role.takes_out else ""))
    return labels


def recorded_roles(metadata: Mapping) -> list[tuple[str, str, str, bool]]:
    """The proposals a model file records (``"column_roles"``, :func:`roles_record`): one
    (column, role name, evidence, put back) per column proposed out; malformed entries are skipped."""
    record = ModelMetadata.coerce(metadata).column_roles
    if record is None:
        return []
    return [
        (str(name), ROLES[entry["role"]], str(entry.get("evidence", "")), entry.get("kept") is True)
        for name, entry in record.items()
        if isinstance(entry, Mapping) and entry.get("role") in ROLES
    ]
