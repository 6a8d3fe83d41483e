"""The Data page's words: every sentence and label it shows, names from the file escaped here."""

from __future__ import annotations

from psl_triage.words.escape import label_md, md
from psl_triage.words.lists import class_counts

LOAD_HEADER = "1. Load data"
OUTCOME_HEADER = "2. Outcome"
COLUMNS_HEADER = "3. Columns"
SOURCE_LABEL = "Data"
GAP_SHOWN_AS = ""
"""How a missing value shows in the preview, alike in number and text columns: a blank cell
(st.dataframe's own default is "None" in some columns and blank in others)."""
MISSING_HEADER = "4. Missing values"
READY_HEADER = "5. Ready to train?"
COLUMNS_IN_USE = "columns in use"
"""The noun of the label editors' page choice ("Show columns in use")."""
INTRO = (
    "This app learns a **probabilistic scoring list** from your data: a short list of "
    "questions about a patient, asked one at a time. Each answer adds points, and after every "
    "answer the app shows the risk with its uncertainty, so a clinician can stop as soon as "
    "the decision is clear.\n\n"
    "Start here: load a table with one row per patient, choose the outcome to predict, and "
    "check how each column is used. Then open **Train** in the sidebar. Your data stays in "
    "this app's memory for your session; nothing is sent anywhere else."
)
SOURCE_LABELS = {"demo": "Demo: heart disease (UCI, Cleveland)", "upload": "Upload my own table"}
UPLOAD_WHAT = ", one row per patient, column names in the first row"
NUMERIC_KIND, CATEGORICAL_KIND = "numeric", "categorical (categories)"
BINARY_KIND, IGNORE_KIND = "binary (two values)", "ignore (not used)"
"""How the page names each column kind (:data:`psl_triage.data.formats.KIND_LABELS`)."""
MISSING_LABELS = {
    "learn": "Keep them: the list learns whether a missing answer counts as yes or no",
    "drop": "Drop rows with a missing value",
    "impute": "Fill in: median for numbers, most frequent value otherwise",
}
OUTCOME_LABEL = "Outcome column: what should the list predict?"
OUTCOME_PLACEHOLDER = "Choose the outcome column"
PUBLISHED_OUTCOME = "The outcome this dataset was published with."
POSITIVE_LABEL = "Positive class: the value the list predicts the risk of"
POSITIVE_PLACEHOLDER = "Pick one or more positive values"
POSITIVE_NAME = "Name of the positive class (used on every page)"
NEGATIVE_NAME = "Name of the negative class"
READING_EXPANDER = "Change how the file is read (delimiter, decimal mark, thousands separator)"
READING_LABELS = ("Fields separated by", "Decimal mark", "Thousands separator")
FOLLOW_UP_TITLE = "Follow-up: the risk within a horizon"
FOLLOW_UP_CHECK = "Follow-up data: predict the risk of the event within a horizon, censoring respected"
FOLLOW_UP_HELP = (
    "Each patient has a time (to the event, or to the last contact) and this column says "
    "whether the event happened then. Without this, the list predicts \"event during follow-up\", "
    "which counts one month of follow-up the same as ten years."
)
TIME_LABEL = "Follow-up time column (never a question)"
TIME_UNIT_LABEL = "Unit of the times (e.g. days, months)"
HORIZON_TOO_SHORT = "Choose a horizon greater than 0."
COLUMNS_TEXT = (
    "Each column is used as **numeric** (the list finds a threshold, e.g. \"Max heart rate > "
    "147 bpm\"), **binary** (two values, e.g. sex), **categorical** (a question on one "
    "category, or on a group of them, e.g. \"Chest pain = typical or atypical\") or is **ignored**. "
    "The types below were detected from the values; change any that is wrong."
)
TYPES_EXPANDER = "Change column types"
LABELS_EXPANDER = "Labels and units: how questions, plots and the card name each column"
LABELS_CAPTION = (
    "A clinical label and a unit, e.g. \"Positive lymph nodes\" and \"count\", replace the "
    "column name in every question, plot and card."
)
PROPOSED_OUT = (
    "**Proposed out of the list.** A list that asks about an identifier, a date, a follow-up "
    "time or something recorded after the outcome is worse than no list. If a column below is "
    "known at triage, before the outcome, put it back."
)
PUT_BACK = "Put back"
MISSING_QUESTION = "How should missing values be handled?"
NO_MISSING = "No missing values in the outcome or the columns in use."
STATUS_NEXT_TO_TIME = "it is a status next to the follow-up time {time!r}"
"""Why the outcome guess is an event column: it stands next to its time."""
UNREADABLE_UPLOAD = "{name} could not be read ({error}: {exc})."
UNEXPECTED_PREPARING = "Unexpected problem while preparing the data ({error}: {exc})."


def keeps_using(name: str, refused: bool) -> str:
    """The dataset still in use while an upload is refused (``refused``) or not there yet."""
    if refused:
        return f"Still using the previous data: {md(name)}."
    return f"Until a table is uploaded, the app keeps using {md(name)}."


def preview(name: str, n_rows: int, n_columns: int, source: str) -> tuple[str, str]:
    """The preview's heading and its caption (the table's size and where it comes from)."""
    return f"Preview: {md(name)}", f"{n_rows} rows × {n_columns} columns" + (f". {source}" if source else "")


def read_as(description: str) -> str:
    """The caption under the preview: how the file was read, column names escaped with the rest."""
    return f"Read as: {md(description)}"


def column_title(name: str, meta) -> str:
    """A column as plain text (a select box's option): its label (from ``meta``, the table's
    :class:`~psl_triage.data.DatasetMeta`) and its name."""
    spec = meta.columns.get(name)
    return f"{spec.label} ({name})" if spec is not None and spec.label else name


def type_label(name: str, meta) -> str:
    return md(column_title(name, meta))


def outcome_reason(reason: str) -> str:
    return f"Proposed because {md(reason)}."


def class_title(value: object, label: str, count: int) -> str:
    """An outcome class as plain text: its value, its label (:func:`psl_triage.data.value_label`)
    when it has one, and its rows."""
    text = f"{value} ({label})" if label != str(value) else str(value)
    return f"{text}: {count} rows"


def other_is_negative(title: str) -> str:
    return f"The other value, {md(title)}, is negative."


def which_positive(outcome: str, n_classes: int) -> str:
    return f"{md(outcome)} has {n_classes} values. Which count as positive? All others count as negative."


def horizon_label(time: str) -> str:
    return f"Horizon, in the unit of {md(time)}"


def label_and_unit(name: str) -> tuple[str, str]:
    """The labels of a column's label and unit fields."""
    return f"Label of {label_md(name)}", f"Unit of {md(name)}"


def proposed_out(name: str, reason: str) -> tuple[str, str]:
    """A column proposed out: the warning with its reason, and the help of its "Put back" button."""
    return f"**{md(name)}**: {md(reason)}", f"Use {md(name)} as a question after all"


def ready(prepared) -> str:
    """What the prepared training data holds (:class:`psl_triage.data.PreparedData`)."""
    return (
        f"Ready: {prepared.n_rows_after} rows and {len(prepared.columns)} features. "
        f"{class_counts(prepared)} "
        "Open **Train** in the sidebar."
    )


def bullets(notes: list[str]) -> str:
    return "\n".join(f"- {md(note)}" for note in notes)
ORDERED_TYPE = "categorical, ordered"
"""The column table's type of a categorical column declared ordered."""
ORDER_EXPANDER = "Ordered categories: categories with an order (hours of sleep, a grade, a stage)"
ORDER_CAPTION = (
    "A categorical column whose categories have an order may be asked by a cut in that order "
    "(\"Sleep: 7 hours or more\") or on one category, and its answers are listed in it. On Train "
    "its points can be set to only rise or only fall along it: it is then asked only by cuts. An "
    "unordered one's categories are grouped by how often the outcome occurs in each."
)
USE_ORDER = "Use this order"
ORDER_COLUMN = "Column"
ORDERED_TOGGLE = "Its categories have an order"
ORDER_EDITOR_CAPTION = (
    "Lowest first. Give a category another place number to move it; the categories are then "
    "sorted by their numbers."
)
ORDER_PLACE, ORDER_CATEGORY = "place", "category"
NO_ORDERABLE = "No categorical column with 2 to {max_categories} categories is in use."


ORDER_PROPOSAL_NAMES = 5
"""Columns named in one order proposal; the others are counted."""


def order_proposal(names, order):
    """One click away: the order the values of the columns ``names`` show, said once for all of
    them (Markdown, names escaped)."""
    shown = ", ".join(f"**{md(str(name))}**" for name in names[:ORDER_PROPOSAL_NAMES])
    if len(names) > ORDER_PROPOSAL_NAMES:
        shown += f" and {len(names) - ORDER_PROPOSAL_NAMES} more ({len(names)} columns)"
    if len(names) == 1:
        return (f"The categories of {shown} show an order (the numbers in them, or the "
                f"file's own order): {' < '.join(md(level) for level in order)}.")
    return (f"The categories of {shown} show the same order (the numbers in them, or the "
            f"file's own order): {' < '.join(md(level) for level in order)}.")


def use_order(n_columns):
    """The button that declares the proposed order, for one column or several."""
    return USE_ORDER if n_columns == 1 else f"{USE_ORDER} for all {n_columns}"


def order_text(order):
    """The order of an ordered column, lowest first (Markdown, names escaped)."""
    return "Order: " + " < ".join(md(level) for level in order)
