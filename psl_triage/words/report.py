"""The words of the printed card and the model report (:mod:`psl_triage.card`), as HTML
fragments: every name from a file (a table, a list, a class, a date) is escaped here with
:func:`html.escape`, once.
"""

from html import escape

NOT_RECORDED = "Not recorded in this model file."
NO_VALIDATION = "None recorded: the list has not been checked on another population in this app."
NO_QUESTION = "None: the prior risk."


def html_text(value, default=""):
    """``value`` from a file as escaped HTML text; ``default`` (escaped) when it is not a
    string or number, or is empty."""
    return escape(str(value)) if isinstance(value, (str, int, float)) and str(value) != "" else escape(default)


def plural(count, word):
    """``word`` with an s unless ``count`` is 1: "1 question", "3 questions"."""
    return f"{word}{'' if count == 1 else 's'}"


def subtitle(version, created):
    """The line under the title: "version 2 · saved 2026-01-02"; ``version`` None for a list
    not saved in the store."""
    parts = [f"version {html_text(version)}" if version is not None else "not saved in the store"]
    if created:
        parts.append(f"saved {html_text(created[:10])}")
    return " · ".join(parts)


def recalibrated_at(origin):
    """" Probabilities re-estimated on <table> (<n> patients, <date>)." of a recalibrated list
    ("" for another)."""
    table = (origin or {}).get("table")
    if not isinstance(table, dict):
        return ""
    return (f" Probabilities re-estimated on {html_text(table.get('name'))} "
            f"({html_text(table.get('n_rows'))} patients, {html_text(str(origin.get('date', ''))[:10])}).")


def learned_from(dataset_name, rows):
    """Where the card's list was learned: "Learned from heart.csv: 297 patients." (``rows``:
    :func:`psl_triage.words.lists.training_rows`)."""
    return f"Learned from {html_text(dataset_name, 'an unnamed table')}" + (f": {escape(rows)}" if rows else "") + "."


def participants(dataset):
    """TRIPOD 5: how many patients, how many with the outcome, and the preparation's notes
    (``dataset``: a :class:`~psl_triage.metadata.DatasetRecord`)."""
    text = NOT_RECORDED
    if dataset.n_rows and dataset.n_positive is not None:
        text = (
            f"{dataset.n_rows} patients after preparation ({html_text(dataset.n_rows_source, '?')} in the source table); "
            f"{dataset.n_positive} with the outcome ({100 * dataset.n_positive / dataset.n_rows:.1f} %)."
        )
    if dataset.notes:
        text += "<ul>" + "".join(f"<li>{html_text(note)}</li>" for note in dataset.notes) + "</ul>"
    return text


def recalibration(origin):
    """The recalibration a file records (``metadata.origin``), or :data:`NO_VALIDATION`."""
    if not origin:
        return NO_VALIDATION
    source = origin.get("recalibrated_from") if isinstance(origin.get("recalibrated_from"), dict) else {}
    table = origin.get("table") if isinstance(origin.get("table"), dict) else {}
    return (
        f"Recalibrated on {html_text(table.get('name'), 'another table')} ({html_text(table.get('n_rows'), '?')} patients) "
        f"on {html_text(str(origin.get('date', ''))[:10])}, from {html_text(source.get('name'), 'a list')} version "
        f"{html_text(source.get('version'), '?')}: same questions and points, probabilities re-estimated there."
    )


def intended_use(positive_label, cost_ratio, threshold):
    """The report's intended use: the outcome, one question at a time, and M with its threshold."""
    return (f"Risk of {escape(positive_label)} for patients like the participants above, one question "
            f"at a time, to rule the outcome in or out. M = {cost_ratio:g}: a missed case counts as much as "
            f"{cost_ratio:g} {plural(cost_ratio, 'false alarm')}, so the list decides positive above "
            f"1/(1+M) = {100 * threshold:.1f} %.")
