"""Data, the landing page: load a table, choose the outcome, check columns and missing values.

The app opens here (``app.py`` declares the pages and makes this one the default, at the
app's root URL). All logic lives in :mod:`psl_triage.data`; this page reads widgets, calls it
and renders.

Session state, the contract with the other pages (all describe the *active* dataset):

``"data_source"``       "demo" or "upload": where the active dataset came from.
``"data_name"``         str: the file name, or the demo's title.
``"raw_df"``            pandas.DataFrame: the table as loaded, never modified.
``"dataset_meta"``      psl_triage.data.DatasetMeta: labels, units, category labels (empty columns for uploads).
``"data_notes"``        list[str]: what the reader decided (encoding fallback, empty rows dropped...).
``"data_reading"``      dict | None: an upload's ``bytes``, ``name``, ``delimiter`` (None for Excel) and
                        ``numbers`` (psl_triage.data.NumberFormat), to read it again another way; None
                        for the demo.
``"column_types"``      dict[str, str]: column -> "numeric" | "categorical" | "binary" | "ignore".
``"column_roles"``      dict[str, psl_triage.roles.Role]: the proposed role of every column but the
                        outcome (question candidate, identifier, time or date, possible leak, ignore)
                        with its evidence (psl_triage.roles.propose_roles).
``"flagged_columns"``   dict[str, str]: columns that would be used but are proposed out (identifiers,
                        times, leaks, empty) -> the role and its evidence; they start as
                        "ignore" until the user puts them back (one click, or their type).
``"type_revisions"``    dict[str, int]: how often the page changed a column's type itself (put back by
                        its button, proposed out again for another positive class): a fresh type
                        widget each time.
``"outcome"``           str | None: the outcome column.
``"outcome_guess"``     (str | None, str): the column proposed as the outcome and why.
``"positive_class"``    list: the outcome value(s) counted as positive (one for a two-class outcome).
``"class_names"``       dict[tuple, tuple[str, str]]: (outcome, positive values) -> the user's names of
                        the positive and the negative class.
``"follow_up"``         psl_triage.follow_up.FollowUp | None: for follow-up data, the time column, the
                        horizon and its unit (the outcome is then the event column); None for a yes/no
                        outcome.
``"missing_handling"``  "drop" | "impute".
``"prepared"``          psl_triage.data.PreparedData | None: training data for these choices; None while
                        they are invalid, with the reason in ``"prepare_error"`` (str | None).

Internal to this page: ``"dataset_version"`` (bumped whenever the active dataset changes),
``"stashed_datasets"`` (the demo's or the upload's state while the other one is active, so
switching back loses nothing), ``"upload_token"``/``"upload_error"`` (the last upload seen and
why it was refused), ``"prepared_for"`` (the choices "prepared" was computed from) and the
widget keys: ``"w_source"``, ``"w_upload"`` and, for the active dataset's choices,
``"w_outcome_v<N>"``, ``"w_positive_v<N>::<outcome>"`` (two classes),
``"w_positive_multi_v<N>::<outcome>"`` (more), ``"w_class_v<N>::<outcome>::<positive>::<side>"``,
``"w_type_v<N>::<outcome>::<column>"``, ``"w_missing_v<N>"`` and the reading choices
``"w_delimiter_v<N>"``, ``"w_decimal_v<N>"``, ``"w_thousands_v<N>"``, where N is ``"dataset_version"``.

The keys above are the truth; widgets get them only as their defaults (``index=`` /
``default=``) and the page reads the widgets' values back into them. Nothing writes a widget's
key: a value written to st.session_state before the widget is drawn can be lost when the
browser reruns the page before it has drawn a lazily loaded selectbox, and the widget then
falls back to its first option. Keying the dataset's widgets by ``"dataset_version"`` gives a
new dataset fresh widgets with its own defaults, and the positive class gets a fresh widget for
every outcome; Streamlit forgets a widget's state once a page without it has run, and the
widget then comes back with its default: the stored choice.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
import streamlit as st

from psl_core.errors import DataError
from psl_triage.data import (
    DECIMAL_MARKS,
    DEFAULT_MISSING_HANDLING,
    DELIMITERS,
    KINDS,
    MISSING_HANDLINGS,
    THOUSANDS_SEPARATORS,
    DatasetMeta,
    LoadedTable,
    NumberFormat,
    column_summary,
    count_classes,
    default_class_names,
    describe_missing_handling,
    explain_outcome_guess,
    guess_outcome,
    guess_positive_class,
    infer_column_types,
    load_table,
    missing_report,
    prepare_training_data,
    relabel,
    value_label,
)
from psl_triage.demo import load_demo
from psl_triage.follow_up import (
    COMPETING_EVENTS_NOTE,
    FollowUp,
    default_horizon,
    event_time,
    guess_follow_up,
    horizon_text,
    proposed_follow_up,
    time_columns,
)
from psl_triage.roles import propose_roles, role_labels, taken_out
from psl_triage.words import label_md, md
from ui import one_page, table_uploader

DATASET_KEYS = (
    "data_source",
    "data_name",
    "raw_df",
    "dataset_meta",
    "data_notes",
    "data_reading",
    "column_types",
    "column_roles",
    "flagged_columns",
    "type_revisions",
    "outcome",
    "outcome_guess",
    "positive_class",
    "class_names",
    "missing_handling",
    "follow_up",
)
SOURCE_LABELS = {"demo": "Demo: heart disease (UCI, Cleveland)", "upload": "Upload my own table"}
KIND_LABELS = {
    "numeric": "numeric",
    "categorical": "categorical (categories)",
    "binary": "binary (two values)",
    "ignore": "ignore (not used)",
}
MISSING_LABELS = {
    "learn": "Keep them: the list learns whether a missing answer counts as yes or no",
    "drop": "Drop rows with a missing value",
    "impute": "Fill in: median for numbers, most frequent value otherwise",
}

ss = st.session_state


@st.cache_data(show_spinner=False)
def cached_demo() -> tuple[pd.DataFrame, DatasetMeta]:
    return load_demo()


def activate(
    source: str, name: str, df: pd.DataFrame, meta: DatasetMeta, notes: list[str], reading: dict | None = None
) -> None:
    """Make a freshly loaded table the active dataset, with default choices."""
    types = infer_column_types(df, meta.columns)
    guess = (guess_outcome(df, types), explain_outcome_guess(df, types))
    pair = guess_follow_up(df)
    if pair is not None:
        guess = (pair[1], f"it is a status next to the follow-up time {pair[0]!r}")
    outcome = meta.outcome if meta.outcome in df.columns else guess[0]
    ss.update(
        data_source=source,
        data_name=name,
        raw_df=df,
        dataset_meta=meta,
        data_notes=notes,
        data_reading=reading,
        column_types=types,
        column_roles={},
        flagged_columns={},
        type_revisions={},
        outcome=outcome,
        outcome_guess=guess,
        positive_class=default_positive_class(df, meta, outcome),
        class_names={},
    )
    ss.follow_up = None if outcome is None else proposed_follow_up(df, outcome, ss.positive_class)
    flag_leaks()
    ss.missing_handling = DEFAULT_MISSING_HANDLING
    dataset_changed()


def flag_leaks(revise: bool = False) -> None:
    """Propose column roles and set every column proposed out (an identifier, a time, a leak,
    nothing to learn from) to "ignore", with the evidence.

    Columns flagged before and still ignored get their detected type back; columns flagged
    before that the user kept stay in use. ``revise``: the type widgets of this outcome are
    already drawn, so a column whose type changes gets a fresh one (:func:`type_key`).
    """
    df, meta = ss.raw_df, ss.dataset_meta
    detected = infer_column_types(df, meta.columns)
    before = dict(ss.column_types)
    types = dict(before)
    kept = {name for name in ss.flagged_columns if types.get(name, "ignore") != "ignore"}
    for name in ss.flagged_columns:
        if types.get(name) == "ignore":
            types[name] = detected[name]
    roles = propose_roles(df, types, ss.outcome, ss.positive_class or None)
    flagged = {
        name: reason for name, reason in taken_out(roles).items()
        if types.get(name, "ignore") != "ignore"
    }
    types.update(dict.fromkeys(set(flagged) - kept, "ignore"))
    if revise:
        revise_types(name for name in types if types[name] != before.get(name))
    ss.column_types, ss.column_roles, ss.flagged_columns = types, roles, flagged


def revise_types(names) -> None:
    ss.type_revisions = {**ss.type_revisions, **{name: ss.type_revisions.get(name, 0) + 1 for name in names}}


def type_key(outcome: str | None, name: str) -> str:
    """The key of a column's type widget: new for each outcome and each time the page changed the type."""
    revision = ss.type_revisions.get(name)
    return choice_key("w_type", outcome, name, *([f"r{revision}"] if revision else []))


def put_back(name: str) -> None:
    """Use a column proposed out as a question after all, with its detected type."""
    ss.column_types = {**ss.column_types, name: infer_column_types(ss.raw_df[[name]], ss.dataset_meta.columns)[name]}
    revise_types([name])


def default_positive_class(df: pd.DataFrame, meta: DatasetMeta, outcome: str | None) -> list:
    if outcome is None:
        return []
    if outcome == meta.outcome and meta.positive_class is not None:
        return [meta.positive_class]
    guess = guess_positive_class(df[outcome])
    return [] if guess is None else [guess]


def switch_to(source: str) -> None:
    """Make the demo or the last good upload active, stashing the current dataset's state."""
    ss.stashed_datasets[ss.data_source] = {key: ss[key] for key in DATASET_KEYS}
    if source in ss.stashed_datasets:
        ss.update(ss.stashed_datasets.pop(source))
        dataset_changed()
    elif source == "demo":
        df, meta = cached_demo()
        activate("demo", meta.name, df, meta, [])


def dataset_changed() -> None:
    """Start fresh widgets for the active dataset's choices (see :func:`choice_key`)."""
    ss.dataset_version = ss.get("dataset_version", 0) + 1


def choice_key(name: str, *parts: object) -> str:
    """The key of a widget for a choice about the active dataset, e.g. ``w_type_v3::age``.

    It changes with the dataset (and with ``parts``), so a new dataset never inherits the
    state of the previous dataset's widget and its widgets start from its stored choices.
    """
    return "::".join([f"{name}_v{ss.dataset_version}", *map(str, parts)])


def index_of(options: Sequence, value: object, fallback: int | None = 0) -> int | None:
    """The position of a stored choice among a widget's options (its default ``index=``)."""
    return options.index(value) if value in options else fallback


def load_upload(uploaded, limit_mb: int) -> None:
    """Read a new upload; only a good table replaces the active dataset."""
    token = f"{uploaded.file_id}:{uploaded.name}"
    if token == ss.get("upload_token"):
        return
    ss.upload_token, ss.upload_error = token, None
    try:
        data = uploaded.getvalue()
        loaded = load_table(data, uploaded.name, max_bytes=limit_mb * 2**20)
        ss.stashed_datasets.pop("upload", None)
        if ss.data_source == "demo":
            ss.stashed_datasets["demo"] = {key: ss[key] for key in DATASET_KEYS}
        activate_upload(uploaded.name, data, loaded)
    except DataError as exc:
        ss.upload_error = str(exc)
    except Exception as exc:  # noqa: BLE001 - a user's file must never crash the page
        ss.upload_error = f"{uploaded.name} could not be read ({type(exc).__name__}: {exc})."


def activate_upload(name: str, data: bytes, loaded: LoadedTable) -> None:
    reading = {"bytes": data, "name": name, "delimiter": loaded.delimiter, "numbers": loaded.numbers}
    activate("upload", name, loaded.frame, DatasetMeta(name=name), loaded.notes, reading)


def reread(delimiter: str | None, numbers: NumberFormat) -> None:
    """Read the active upload again with another delimiter or number format."""
    reading = ss.data_reading
    try:
        loaded = load_table(reading["bytes"], reading["name"], delimiter=delimiter, numbers=numbers)
    except DataError as exc:
        st.error(md(str(exc)))
        return
    activate_upload(reading["name"], reading["bytes"], loaded)
    st.rerun()


def refresh_prepared() -> None:
    """Recompute "prepared" when the dataset or a choice changed since the last run."""
    choices = (
        ss.dataset_version,
        dict(ss.column_types),
        ss.outcome,
        list(ss.positive_class),
        chosen_class_names(),
        ss.missing_handling,
        [(name, spec.label, spec.unit) for name, spec in ss.dataset_meta.columns.items()],
        ss.get("follow_up"),
    )
    if ss.get("prepared_for") == choices:
        return
    ss.prepared_for = choices
    ss.prepared, ss.prepare_error = None, None
    if ss.outcome is None:
        ss.prepare_error = "Choose the outcome column."
        return
    try:
        ss.prepared = prepare_training_data(
            ss.raw_df,
            ss.column_types,
            ss.outcome,
            ss.positive_class,
            ss.missing_handling,
            ss.dataset_meta.columns,
            chosen_class_names(),
            ss.get("follow_up"),
        )
    except DataError as exc:
        ss.prepare_error = str(exc)
    except Exception as exc:  # noqa: BLE001 - show, never a traceback; psl_core's tests keep this branch dead
        ss.prepare_error = f"Unexpected problem while preparing the data ({type(exc).__name__}: {exc})."


def class_names_key() -> tuple:
    return (ss.outcome, tuple(map(str, ss.positive_class)))


def chosen_class_names() -> tuple[str, str] | None:
    """The user's names of the two classes for the current outcome and positive class."""
    return ss.class_names.get(class_names_key())


def follow_up_choices(df: pd.DataFrame, outcome: str) -> None:
    """Follow-up data: the time column, the horizon and its unit (``"follow_up"``)."""
    candidates = [name for name in time_columns(df) if name != outcome]
    current = ss.get("follow_up")
    if not candidates and current is None:
        return
    st.subheader("Follow-up: the risk within a horizon")
    use = st.checkbox(
        "Follow-up data: predict the risk of the event within a horizon, censoring respected",
        value=current is not None, key=choice_key("w_follow_up", outcome),
        help="Each patient has a time (to the event, or to the last contact) and this column says "
             "whether the event happened then. Without this, the list predicts \"event during follow-up\", "
             "which counts one month of follow-up the same as ten years.",
    )
    if not use:
        ss.follow_up = None
        return
    options = candidates if current is None or current.time in candidates else [current.time, *candidates]
    time = st.selectbox(
        "Follow-up time column (never a question)", options,
        index=index_of(options, current.time if current else None), key=choice_key("w_time", outcome),
    )
    try:
        times, events = event_time(df, time, outcome, ss.positive_class)
    except DataError as exc:
        st.error(md(str(exc)))
        ss.follow_up = None
        return
    left, right = st.columns(2)
    start = current.horizon if current is not None and current.time == time else default_horizon(times)
    horizon = left.number_input(
        f"Horizon, in the unit of {md(time)}", min_value=0.0, value=float(start), step=1.0,
        key=choice_key("w_horizon", outcome, time),
    )
    unit = right.text_input(
        "Unit of the times (e.g. days, months)", value=current.unit if current else "", max_chars=20,
        key=choice_key("w_time_unit", outcome),
    )
    if horizon <= 0:
        st.error("Choose a horizon greater than 0.")
        ss.follow_up = None
        return
    st.info(md(horizon_text(times, events, horizon, unit.strip())))
    st.caption(COMPETING_EVENTS_NOTE)
    ss.follow_up = FollowUp(time, float(horizon), unit.strip())


def reading_choices() -> None:
    """How the upload was read, and selectboxes to read it another way."""
    reading = ss.data_reading
    numbers: NumberFormat = reading["numbers"]
    st.caption(
        f"Read as: {LoadedTable(ss.raw_df, delimiter=reading['delimiter'], numbers=numbers).describe_reading()}"
    )
    with st.expander("Change how the file is read (delimiter, decimal mark, thousands separator)"):
        grid = st.columns(3)
        delimiter = reading["delimiter"]
        if delimiter is not None:
            with grid[0]:
                delimiters = list(DELIMITERS)
                delimiter = st.selectbox(
                    "Fields separated by", delimiters, index=index_of(delimiters, delimiter),
                    format_func=DELIMITERS.get, key=choice_key("w_delimiter"),
                )
        with grid[1]:
            decimals = list(DECIMAL_MARKS)
            decimal = st.selectbox(
                "Decimal mark", decimals, index=index_of(decimals, numbers.decimal),
                format_func=DECIMAL_MARKS.get, key=choice_key("w_decimal"),
            )
        with grid[2]:
            separators = list(THOUSANDS_SEPARATORS)
            thousands = st.selectbox(
                "Thousands separator", separators, index=index_of(separators, numbers.thousands),
                format_func=THOUSANDS_SEPARATORS.get, key=choice_key("w_thousands"),
            )
        if (delimiter, decimal, thousands) != (reading["delimiter"], numbers.decimal, numbers.thousands):
            try:
                wanted = NumberFormat(decimal, thousands)
            except DataError as exc:
                st.error(md(str(exc)))
            else:
                reread(delimiter, wanted)


def column_table(df: pd.DataFrame, features: list, meta: DatasetMeta) -> pd.DataFrame:
    """The column summary with roles, computed once per table and choices (kept in the session):
    on a wide table it takes seconds, and the page reruns on every click."""
    key = (ss.dataset_version, tuple(features), tuple(ss.column_types.items()), tuple(ss.flagged_columns.items()),
           tuple(meta.columns.items()), tuple(ss.get("column_roles", {}).items()))
    kept = ss.get("column_table")
    if kept is None or kept[0] != key:
        evidence = {  # the table has a role column: its reasons need not repeat the role
            name: ss.column_roles[name].evidence if name in ss.column_roles else text
            for name, text in ss.flagged_columns.items()
        }
        summary = column_summary(df[features], ss.column_types, meta.columns, evidence)
        summary.insert(2, "role", role_labels(features, ss.column_roles, ss.column_types))
        summary.insert(2, "unit", [meta.columns[name].unit if name in meta.columns else "" for name in features])
        ss.column_table = kept = (key, summary)
    return kept[1]


def column_title(name: str, meta: DatasetMeta) -> str:
    spec = meta.columns.get(name)
    return f"{spec.label} ({name})" if spec is not None and spec.label else name


# --- page ------------------------------------------------------------------------------------

st.set_page_config(page_title="PSL Triage", page_icon="🩺", layout="wide")

if "raw_df" not in ss:
    ss.stashed_datasets = {}
    demo_df, demo_meta = cached_demo()
    activate("demo", demo_meta.name, demo_df, demo_meta, [])

st.title("PSL Triage")
st.markdown(
    "This app learns a **probabilistic scoring list** from your data: a short list of "
    "questions about a patient, asked one at a time. Each answer adds points, and after every "
    "answer the app shows the risk with its uncertainty, so a clinician can stop as soon as "
    "the decision is clear.\n\n"
    "Start here: load a table with one row per patient, choose the outcome to predict, and "
    "check how each column is used. Then open **Train** in the sidebar. Your data stays in "
    "this app's memory for your session; nothing is sent anywhere else."
)

st.header("1. Load data")
source = st.radio(
    "Data",
    list(SOURCE_LABELS),
    index=index_of(list(SOURCE_LABELS), ss.data_source),
    format_func=SOURCE_LABELS.get,
    key="w_source",
    horizontal=True,
)
if source == "demo" and ss.data_source != "demo":
    switch_to("demo")
if source == "upload":
    uploaded, limit_mb = table_uploader(", one row per patient, column names in the first row", "w_upload")
    if uploaded is not None:
        load_upload(uploaded, limit_mb)
        if ss.upload_error:
            st.error(md(ss.upload_error))
            st.info(f"Still using the previous data: {md(ss.data_name)}.")
    elif ss.data_source != "upload" and "upload" in ss.stashed_datasets:
        switch_to("upload")
    elif ss.data_source != "upload":
        st.info(f"Until a table is uploaded, the app keeps using {md(ss.data_name)}.")

df: pd.DataFrame = ss.raw_df
meta: DatasetMeta = ss.dataset_meta
st.subheader(f"Preview: {md(ss.data_name)}")
st.caption(f"{len(df)} rows × {len(df.columns)} columns" + (f". {meta.source}" if meta.source else ""))
if meta.description:
    st.markdown(meta.description)
if ss.data_reading is not None:
    reading_choices()
for note in ss.data_notes:
    st.info(md(note))
st.dataframe(df.head(100), width="stretch")

st.header("2. Outcome")
columns = list(df.columns)
outcome = st.selectbox(
    "Outcome column: what should the list predict?",
    columns,
    index=index_of(columns, ss.outcome, fallback=None),
    format_func=lambda name: column_title(name, meta),
    key=choice_key("w_outcome"),
    placeholder="Choose the outcome column",
)
if outcome != ss.outcome:
    ss.outcome = outcome
    ss.positive_class = default_positive_class(df, meta, outcome)
    ss.follow_up = None if outcome is None else proposed_follow_up(df, outcome, ss.positive_class)
    flag_leaks()
if outcome is not None and outcome == meta.outcome:
    st.caption("The outcome this dataset was published with.")
elif outcome is not None and outcome == ss.outcome_guess[0]:
    st.caption(f"Proposed because {md(ss.outcome_guess[1])}.")

if outcome is not None:
    outcome_spec = meta.columns.get(outcome)
    counts = dict(count_classes(df[outcome]))
    classes = list(counts)

    def class_title(value: object) -> str:
        label = value_label(value, outcome_spec)
        text = f"{value} ({label})" if label != str(value) else str(value)
        return f"{text}: {counts[value]} rows"

    if len(classes) == 2:
        positive = st.selectbox(
            "Positive class: the value the list predicts the risk of",
            classes,
            index=index_of(classes, ss.positive_class[0] if ss.positive_class else None, fallback=1),
            format_func=class_title,
            key=choice_key("w_positive", outcome),
        )
        if [positive] != ss.positive_class:
            ss.positive_class = [positive]
            flag_leaks(revise=True)
        st.caption(f"The other value, {md(class_title(next(c for c in classes if c != positive)))}, is negative.")
    elif 2 < len(classes) <= 20:
        chosen = st.multiselect(
            f"{md(outcome)} has {len(classes)} values. Which count as positive? All others count as negative.",
            classes,
            default=[value for value in ss.positive_class if value in classes],
            format_func=class_title,
            key=choice_key("w_positive_multi", outcome),
            placeholder="Pick the positive value(s)",
        )
        if chosen != ss.positive_class:
            ss.positive_class = chosen
            flag_leaks(revise=True)
    if ss.positive_class and len(ss.positive_class) < len(classes):
        default_names = default_class_names(df[outcome], outcome, ss.positive_class, outcome_spec)
        names = chosen_class_names() or default_names
        left, right = st.columns(2)
        key_parts = (outcome, "|".join(map(str, ss.positive_class)))
        typed = (
            left.text_input(
                "Name of the positive class (used on every page)", value=names[0],
                key=choice_key("w_class", *key_parts, "positive"),
            ),
            right.text_input(
                "Name of the negative class", value=names[1], key=choice_key("w_class", *key_parts, "negative"),
            ),
        )
        if typed != names:
            ss.class_names = {**ss.class_names, class_names_key(): typed}

if outcome is not None and ss.positive_class:
    follow_up_choices(df, outcome)

st.header("3. Columns")
st.markdown(
    "Each column is used as **numeric** (the list finds a threshold, e.g. \"Max heart rate > "
    "147 bpm\"), **binary** (two values, e.g. sex), **categorical** (one question per "
    "category) or is **ignored**. The types below were detected from the values; change any "
    "that is wrong."
)
time_column = ss.follow_up.time if ss.get("follow_up") is not None else None
features = [name for name in columns if name not in (outcome, time_column)]
table = st.empty()  # filled below, once the type widgets have been read
with st.expander("Change column types"):
    shown_features = one_page(features, choice_key("w_type_page", outcome))
    grid = st.columns(3)
    types = dict(ss.column_types)
    for index, name in enumerate(shown_features):
        with grid[index % 3]:
            types[name] = st.selectbox(
                md(column_title(name, meta)),
                KINDS,
                index=index_of(KINDS, types.get(name, "ignore")),
                format_func=KIND_LABELS.get,
                key=type_key(outcome, name),
            )
    ss.column_types = types
in_use = [name for name in features if ss.column_types.get(name, "ignore") != "ignore"]
with st.expander("Labels and units: how questions, plots and the card name each column"):
    st.caption(
        "A clinical label and a unit, e.g. \"Positive lymph nodes\" and \"count\", replace the "
        "column name in every question, plot and card."
    )
    typed = {}
    for name in one_page(in_use, choice_key("w_label_page"), "columns in use"):
        spec = meta.columns.get(name)
        left, right = st.columns([3, 1])
        typed[name] = (
            left.text_input(
                f"Label of {label_md(name)}", value=spec.label if spec is not None and spec.label else str(name),
                max_chars=100, key=choice_key("w_label", name),
            ),
            right.text_input(
                f"Unit of {md(name)}", value=spec.unit if spec is not None else "", max_chars=30,
                key=choice_key("w_unit", name),
            ),
        )
    relabeled = relabel(meta, typed)
    if relabeled != meta:
        ss.dataset_meta = meta = relabeled

summary = column_table(df, features, meta)
table.dataframe(
    summary,
    hide_index=True,
    width="stretch",
    column_config={"reason": st.column_config.TextColumn("reason", width="large")},
)
out = [name for name in ss.flagged_columns if name in features and ss.column_types.get(name) == "ignore"]
if out:
    st.markdown(
        "**Proposed out of the list.** A list that asks about an identifier, a date, a follow-up "
        "time or something recorded after the outcome is worse than no list. If a column below is "
        "known at triage, before the outcome, put it back."
    )
for name in out:
    text, button = st.columns([5, 1], vertical_alignment="center")
    text.warning(f"**{md(name)}**: {md(ss.flagged_columns[name])}")
    button.button(
        "Put back", key=choice_key("w_put_back", outcome, name), on_click=put_back, args=(name,),
        help=f"Use {md(name)} as a question after all",
    )

st.header("4. Missing values")
used = ([outcome] if outcome is not None else []) + [
    name for name in features if ss.column_types.get(name, "ignore") != "ignore"
]
report = missing_report(df, used)
report = report[report["missing"] > 0]
if report.empty:
    st.success("No missing values in the outcome or the columns in use.")
else:
    st.dataframe(
        report,
        hide_index=True,
        column_config={"percent": st.column_config.NumberColumn("percent", format="%.1f %%")},
    )
ss.missing_handling = st.radio(
    "How should missing values be handled?",
    list(MISSING_HANDLINGS),
    index=index_of(MISSING_HANDLINGS, ss.missing_handling),
    format_func=MISSING_LABELS.get,
    key=choice_key("w_missing"),
)
st.info(md(describe_missing_handling(df, ss.column_types, outcome, ss.missing_handling)))

st.header("5. Ready to train?")
refresh_prepared()
prepared = ss.prepared
if prepared is None:
    st.error(md(ss.prepare_error))
else:
    st.success(
        f"Ready: {prepared.n_rows_after} rows and {len(prepared.columns)} features. "
        f"{prepared.n_positive} rows with {md(prepared.positive_label)} (positive), "
        f"{prepared.n_negative} with {md(prepared.negative_label)} (negative). "
        "Open **Train** in the sidebar."
    )
    if prepared.notes:
        st.markdown("\n".join(f"- {md(note)}" for note in prepared.notes))
