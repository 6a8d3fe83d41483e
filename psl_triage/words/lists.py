"""What the app says about a fitted list outside any one page's layout: which list it is and
what it learned from, the rows it is judged on, why it looks too good to be true, and the
horizon of a list of follow-up data.

Plain text: the pages escape these sentences where they render them (:func:`md`), since a
column's name can be part of them; only :func:`list_identity` is Markdown, its names escaped.
"""

import re

import numpy as np

from psl_triage.words.common import counted, share
from psl_triage.words.escape import md


def training_rows(n_train, n_test, n_rows):
    """How many patients the list learned from: "198 of its 297 patients (99 held out to test
    the list)", "297 patients", or None when the file does not say."""
    if n_train is not None and n_test:
        return f"{n_train} of its {n_train + n_test} patients ({n_test} held out to test the list)"
    if n_train is not None:
        return f"{n_train} patients"
    return None if n_rows is None else f"{n_rows} patients"


UNNAMED_LIST = "An unnamed list"
"""How :func:`list_identity` starts for a list without a name (lower-cased inside a sentence)."""


def list_identity(name, version, created, trained_on, rows, recalibrated_at, recalibrated_rows):
    """Which list this is, in one Markdown sentence (names escaped): "**Heart** (version 2, saved
    2026-01-02 10:00), trained on heart.csv, 297 patients; recalibrated at site-b.csv (412
    patients)." ``version`` is None for a list not saved yet; ``rows`` is :func:`training_rows`."""
    saved = (
        f"version {version}" + (f", saved {md(created[:16].replace('T', ' '))}" if created else "")
        if version is not None else "not saved yet"
    )
    text = f"**{md(name) if name else UNNAMED_LIST}** ({saved})"
    if trained_on:
        text += f", trained on {md(trained_on)}" + (f", {rows}" if rows else "")
    if recalibrated_at:
        text += f"; recalibrated at {md(recalibrated_at)}" + (
            f" ({recalibrated_rows} patients)" if recalibrated_rows is not None else "")
    return text + "."


def own_test_rows(n_test, n_train):
    """The list is judged on the test rows the Train page held out."""
    return f"The {n_test} test rows the Train page held out; the list was trained on the other {n_train}."


def refitted_rows(n_train, seed, n_test):
    """The list's own test rows are unknown: a list with its settings is fitted on a fresh split."""
    return (
        f"The list's own test rows are not known, so a list with the same settings was "
        f"trained here on {n_train} rows (stratified split, seed {seed}) and is judged "
        f"on the other {n_test}: this judges how the list was learned, on data it never saw."
    )


def auc_too_high(rows, auc):
    """A too-good list's AUC (``rows``: "held-out" or "training")."""
    return f"Its AUC on the {rows} rows reaches {auc:.3f}; lists from findings known at triage seldom pass 0.9."


def brier_too_low(rows, base, best):
    """A too-good list's Brier score, against the base rate's."""
    return f"Its Brier score on the {rows} rows falls from {base:.3f} (the base rate's) to {best:.3f}, below a tenth of it."


def one_question_carries(feature, gain, fall):
    """One question carries most of the list's gain (``gain`` and ``fall`` as fractions)."""
    return (
        f"One question, {feature!r}, carries {share(gain)} of the list's gain "
        f"(the Brier score falls by {share(fall)} of the base rate's)."
    )


def within(horizon, unit=""):
    """A horizon as a span: "1825 days", "5"."""
    return f"{horizon:g}{' ' + unit if unit else ''}"


def class_counts(prepared, tag_negative=True):
    """The prepared data's two classes with their counts; for follow-up data the counts at the
    horizon (:attr:`psl_triage.data.PreparedData.horizon_counts`) and the censored ones."""
    text = (
        f"{prepared.n_positive} rows with {md(prepared.positive_label)} (positive), "
        f"{prepared.n_negative} with {md(prepared.negative_label)}" + (" (negative)" if tag_negative else "")
    )
    if prepared.horizon_counts is not None:
        text += f", {prepared.n_censored} censored before the horizon (weighted out)"
    return text + "."


def horizon_sentence(counts, when, censored_share):
    """Events by the horizon, censored before it (they drop out), followed beyond it."""
    return (
        f"Of {counts['n']} patients, {counts['events']} had the event within {when}, "
        f"{counted(counts['beyond'], 'patient', 'was', 'were')} followed beyond it and "
        f"{counted(counts['censored'], 'patient', 'was', 'were')} censored before it "
        f"({censored_share}): their outcome at {when} is unknown, so they "
        "drop out and the patients followed like them are weighted up to stand in for them "
        "(inverse probability of censoring weights)."
    )


def horizon_page_note(when, page):
    """Why a page that judges a list of the risk within ``when`` ("1825 days") on its held-out rows cannot."""
    return (
        f"This list predicts the risk of the event within {md(when)} (follow-up data). The {page} "
        "page judges such a list at its horizon on the rows the Train page held out, and these are "
        "not known for this list (it was trained on every row, loaded from a file, or the Data page "
        "now asks for another horizon). Train it again with some rows held out to test it, or "
        "compare its settings with a Cox model on the Evaluation page."
    )


_MISMATCH = {
    "follow_up": "the list predicts the risk within a follow-up horizon and the loaded table has no follow-up time",
    "no_follow_up": "the loaded table has a follow-up time and the list predicts a yes/no outcome",
    "outcome": "the list predicts another outcome",
    "columns": "the loaded table lacks columns the list asks about",
    "data": "the loaded table holds other patients or values than the ones the list learned from",
}


def not_this_table(reason, trained_on, loaded):
    """Markdown, names escaped: the loaded table is not the list's (``reason``: a code of
    :func:`psl_triage.data.list_data.data_mismatch`), and what to do."""
    trained = f"**{md(trained_on)}**" if trained_on else "another table"
    return (
        f"The loaded table, **{md(loaded)}**, is not the one the list was trained on ({trained}: "
        f"{_MISMATCH[reason]}), so this page does not judge the list on it: load the list's table on "
        "the Data page, or train a list on this one on the Train page."
    )


def base_rate_reason(base_rate):
    """Why a stage's risk stays at the base rate (``base_rate``: "31.2%"), a clause the Train
    page, Triage and the card and report share: its stage's shrinkage factor is 0
    (:func:`psl_core.recommend.base_rate_stages`, the one rule they all ask)."""
    return (
        "in the internal cross-validation, scores of that length predicted no better than the base rate for "
        f"patients the list had not seen, so the risk there stays at the base rate ({base_rate}) whatever the answers"
    )


def list_of_another_table(reason, trained_on, loaded):
    """Markdown, names escaped: the Train page's current list is not the loaded table's
    (``reason``: a code of :func:`psl_triage.data.list_data.list_table_mismatch`), so its list and
    measures are its own table's, and what to do."""
    trained = f"**{md(trained_on)}**" if trained_on else "another table"
    if trained_on == loaded:
        trained = f"{trained} as it was then"
    return (
        f"This list was trained on {trained}, not on the table loaded now, **{md(loaded)}** "
        f"({_MISMATCH[reason]}): its questions and measures below are those of {trained}. "
        f"Train a list on **{md(loaded)}** with the options above, or keep using this one on the next pages."
    )


PREVIOUS_LIST = (
    "This is the list from before: the last training, with the options above, did not finish (the message "
    "above says why), so the list and its measures below are the previous list's. Change what the message "
    "names and train again, or keep using this one on the next pages."
)
"""Said above the Train page's list after a training that was refused or did not finish."""


def train_on_loaded(loaded):
    """The Train page's button that trains a list on the loaded table (a label: Markdown, its name escaped)."""
    return f"Train a list on {md(loaded)}"


def follow_up_outcome(time_column, horizon, unit=""):
    """The model report's note on the outcome of a list of the risk within a horizon."""
    return (
        f"Time to event: the risk of the event within {within(horizon, unit)} of follow-up (follow-up time "
        f"in column {time_column}). Patients censored before the horizon count through inverse-probability-"
        "of-censoring weights; competing events are not modelled (an event of another kind counts as censoring)."
    )


# --- follow-up data (psl_triage.data.follow_up) -------------------------------------------------------
COMPETING_EVENTS = (
    "Competing events are out of scope: a patient who died of another cause counts as censored, "
    "so the risk is that of the event had the other cause not intervened."
)
"""Saved with a horizon list and shown where it is judged."""
TIME_WITHOUT_NUMBERS = "The time column {time!r} holds no numbers: choose the follow-up time."
TIME_NEGATIVE = "The time column {time!r} has negative times: a follow-up time is >= 0."
HORIZON_MEASURES = {"brier": "Brier at the horizon", "auc": "AUC at the horizon",
                    "observed_expected": "Observed / expected",
                    "net_benefit": "Net benefit"}
"""The measures of a horizon list's comparison, by code."""
HORIZON_MODELS = {"list": "This list", "cox": "Cox model, all features", "naive": "Yes/no list: event during follow-up"}
"""The models a horizon list is compared with, by code."""


def cox_model_label(n_failed, n_splits):
    """The Cox model's row of a horizon list's comparison, saying on how many of the splits it
    could not be fitted (its numbers are those of the others)."""
    if not n_failed:
        return HORIZON_MODELS["cox"]
    on = f"any of the {n_splits}" if n_failed == n_splits else f"{n_failed} of the {n_splits}"
    return (f"{HORIZON_MODELS['cox']} (could not be fitted on {on} splits, not even with a larger ridge "
            f"penalty{'' if n_failed == n_splits else '; its numbers are of the other splits'})")


def mean_sd(values):
    """A measure over the splits as "mean (standard deviation)", over the splits where it is
    defined; "not fitted" where it is nowhere."""
    values = np.asarray(values, dtype=float)
    values = values[~np.isnan(values)]
    return f"{values.mean():.3f} ({values.std():.3f})" if len(values) else "not fitted"


_NOT_AN_EVENT_NOUN = frozenset({
    "status", "event", "events", "censor", "censored", "fustat", "delta", "outcome", "label", "target", "class",
    "result", "response", "vital", "flag", "indicator",
})
"""Outcome column names that name no event: a code of theirs reads "event (status = 1)"."""


def _event_noun(column):
    """The event a coded outcome column's name says ("Death", "relapse"), or None ("status",
    "d1", "rel": a code, a word for any event, or too short to read)."""
    name = str(column) if column is not None else ""
    return name if re.fullmatch(r"[A-Za-z]{4,}", name) and name.casefold() not in _NOT_AN_EVENT_NOUN else None


def horizon_class_names(event_label, horizon, unit="", negative_label=None, coded=False, column=None):
    """The two classes of a time-to-event list, each saying its horizon, which every page that
    names a class then says with it: ("death within 5 years", "no death within 5 years").

    ``negative_label``: the user's own name of the negative class (else "no" + the event);
    ``coded``: the event is a code of ``column`` ("Death = 1", "status = 1"): the classes read
    "Death within 36 months" / "no death within 36 months" when the column's name says the
    event, else "event (status = 1) within 5 years" / "no event within 5 years" (never "no
    event (Death = 1)", which reads as if the event were the negative class). A name that
    already says the horizon keeps it once.
    """
    when = f"within {within(horizon, unit)}"

    def said(name):
        return name if name.casefold().endswith(when.casefold()) else f"{name} {when}"

    if negative_label is None and coded:
        noun = _event_noun(column)
        event_label = noun if noun is not None else f"event ({event_label})"
        negative_label = f"no {noun[0].lower() + noun[1:]}" if noun is not None else "no event"
    elif negative_label is None:
        negative_label = f"no {event_label}"
    return said(event_label), said(negative_label)
