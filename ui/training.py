"""The Train page's parts (Streamlit layout only): the options (the setup, the tables of what
clinicians know and what questions cost, the form of the learner's options), the save and the
load of a list. The choices come from
:mod:`psl_triage.training.choices`, the words from :mod:`psl_triage.words.train`, the state
from :class:`psl_triage.training.session.TrainingSession`. Every widget's key is
``"w_train_<option>"``; its value is kept across page switches and belongs to the loaded
table (:func:`follow_table`).
"""

from __future__ import annotations

import streamlit as st

from psl_triage.model_file.files import download_file_name
from psl_triage.model_file.store import list_models, model_dir
from psl_triage.training.choices import NUMBER_CHOICES, RADIO_CHOICES, start_value
from psl_triage.training.costs import COST_WEIGHTS, MAX_UNIT_CHARS, cost_rows
from psl_triage.training.knowledge import knowledge_rows
from psl_triage.training.known_at_triage import ANSWERS
from psl_triage.training.options import DEFAULT_SETUP, SCORE_SET_PRESETS, SETUPS
from psl_triage.training.session import TrainingSession
from psl_triage.ward.approval import saver
from psl_triage.words import known_at_triage as timing_words
from psl_triage.words import label_md, md
from psl_triage.words import train as words
from psl_triage.words.editors import ASKED, ASKS, COLUMN, COST, DIRECTION, DIRECTIONS, GROUP
from psl_triage.words.known_at_triage import CONFIRMED, NO_QUESTION, RECORDED_LATER
from ui import shown_errors
from ui.state_keys import TRAIN_MODEL_NAME
from ui.ward import acting_user, export_click

FORM_LAYOUT = (  # the form's three columns, top to bottom
    ("score_preset", "custom_scores", "cost_ratio"),
    ("calibration", "binarization", "threshold_search", "loss"),
    ("prior_strength", "max_feature_uses", "min_support", "interval_correction", "shrinkage", "group_categories",
     "max_stages", "test_fraction", "seed"),
)
TABLE_SETTINGS = tuple(f"w_train_{name}" for name in (
    "setup", *(name for names in FORM_LAYOUT for name in names), "cost_unit", "cost_weight", "anticipated_c"))
"""The keys of the widgets whose values belong to one table (with the knowledge and cost tables):
a new table starts them at their defaults (:func:`follow_table`)."""
HELP = words.option_help(SETUPS)
ss = st.session_state


def follow_table(session: TrainingSession, table: object) -> None:
    """Make the page's choices the table's (:meth:`TrainingSession.follow_table`): on a change
    of table, before the widgets are drawn, each widget of :data:`TABLE_SETTINGS` takes that
    table's value or, for a new table, starts at its default."""
    settings = session.follow_table(table, {key: ss[key] for key in TABLE_SETTINGS if key in ss})
    if settings is not None:
        for key in TABLE_SETTINGS:
            if key in settings:
                ss[key] = settings[key]
            else:
                ss.pop(key, None)


def started(name: str, value) -> str:
    """The key of a widget of :data:`TABLE_SETTINGS`, its value started at ``value`` in Session
    State unless it holds one. Its value is set there (:func:`follow_table`, :func:`apply_setup`),
    so the widget is drawn without a default of its own: Streamlit warns of a widget created with
    a default value whose value was also set through Session State."""
    key = f"w_train_{name}"
    ss.setdefault(key, value)
    return key


def radio(name: str, labels: dict | None = None, start=None, **kwargs) -> None:
    """A radio of an option's choices, kept across page switches, starting at its start value
    (``start`` for a radio that is not an option's: the first choice when None)."""
    labels = labels or {value: words.CHOICE_LABELS[name][value] for value in RADIO_CHOICES[name]}
    start = start_value(name) if name in RADIO_CHOICES else start
    st.radio(words.OPTION_LABELS[name], list(labels), format_func=labels.get, persist_state="session",
             key=started(name, list(labels)[0] if start is None else start),
             help=kwargs.pop("help", HELP.get(name)), **kwargs)


def option_widget(name: str) -> None:
    """The widget of one option in the form (its value is ``ss["w_train_" + name]``)."""
    label, common = words.OPTION_LABELS[name], {"persist_state": "session"}
    if name in RADIO_CHOICES:
        radio(name)
    elif name == "score_preset":
        radio(name, words.score_set_labels(SCORE_SET_PRESETS))
    elif name == "custom_scores":
        st.text_input(label, key=started(name, "-2, -1, 1, 2"), help=words.CUSTOM_SCORES_HELP, **common)
    elif name == "group_categories":
        st.checkbox(label, key=started(name, bool(start_value(name))), help=HELP[name], **common)
    else:
        st.number_input(label, key=started(name, start_value(name)), help=HELP.get(name), **common,
                        **NUMBER_CHOICES[name], placeholder=words.MAX_STAGES_PLACEHOLDER if name == "max_stages" else None)
    if name == "cost_ratio":
        st.caption(words.COST_RATIO_CAPTION)


def apply_setup() -> None:
    """on_change of the setup choice: fill the option widgets with that setup's choices."""
    for key, value in SETUPS[ss.w_train_setup].items():
        ss[f"w_train_{key}"] = value


def keep_edits(key: str, keep, names: list) -> None:
    """on_change of a table of one row per feature column: the session keeps the edits."""
    keep(ss[key]["edited_rows"], names)


def edited_table(rows, key: str, keep, config: dict) -> None:
    """A table of one row per feature column (its index) whose edits ``keep`` keeps."""
    st.data_editor(rows, hide_index=True, num_rows="fixed", disabled=[COLUMN], key=key, column_config=config,
                   on_change=keep_edits, args=(key, keep, list(rows.index)))


def options_section(session: TrainingSession, prepared) -> bool:
    """The options' widgets, the two tables (of ``prepared``'s columns) and the form; whether
    Train was pressed."""
    radio("setup", words.SETUP_LABELS, start=DEFAULT_SETUP, on_change=apply_setup, help=words.SETUP_HELP)
    with st.expander(words.KNOWLEDGE):
        st.markdown(words.KNOWLEDGE_TEXT)
        edited_table(knowledge_rows(prepared.columns, *session.knowledge()), "w_train_knowledge_editor",
                     session.keep_knowledge, {
                         DIRECTION: st.column_config.SelectboxColumn(options=list(DIRECTIONS.values()), required=True),
                         ASKED: st.column_config.SelectboxColumn(options=list(ASKS.values()), required=True)})
    with st.expander(words.COSTS):
        st.markdown(words.COSTS_TEXT)
        edited_table(cost_rows(prepared.columns, *session.costs()), "w_train_cost_editor", session.keep_costs, {
            COST: st.column_config.NumberColumn(min_value=0.0, format="%g"),
            GROUP: st.column_config.TextColumn(max_chars=MAX_UNIT_CHARS, help=words.GROUP_HELP)})
        unit_column, weight_column = st.columns(2)
        unit_column.text_input(words.COST_UNIT, value="", max_chars=MAX_UNIT_CHARS, key="w_train_cost_unit",
                               placeholder=words.COST_UNIT_PLACEHOLDER, persist_state="session")
        weight_column.select_slider(words.COST_WEIGHT, COST_WEIGHTS, key=started("cost_weight", 0.0),
                                    format_func=words.cost_weight_label, persist_state="session",
                                    help=words.COST_WEIGHT_HELP)
    with st.form("w_train_form", border=True):
        for column, names in zip(st.columns(3), FORM_LAYOUT):
            with column:
                for name in names:
                    option_widget(name)
        return st.form_submit_button(words.TRAIN, type="primary", key="w_train_submit")


def _mark_timing(session: TrainingSession, column: str, key: str) -> None:
    """on_change of a question's "known at triage?" answer: the session keeps it."""
    session.mark_timing(column, ss[key])


def timing_section(session: TrainingSession, dataset) -> None:
    """"Known at triage?" for each column the current list asks about, where the confirmation
    stands, and the one click that trains again without the columns recorded later."""
    status = session.timing_status()
    if status is None or status.state == NO_QUESTION:
        return
    st.subheader(timing_words.HEADER)
    st.markdown(timing_words.intro(len(status.asked)))
    answers = session.metadata.known_at_triage or {}
    with st.container(key="w_train_known"):
        for column, place in zip(status.asked, st.columns(min(3, len(status.asked))) * len(status.asked)):
            key = session.known_key(column)
            place.radio(label_md(session.metadata.column(column).label or column), list(ANSWERS),
                        index=ANSWERS.index(answers[column]) if column in answers else None,
                        format_func=timing_words.ANSWERS.get, horizontal=True, key=key,
                        on_change=_mark_timing, args=(session, column, key))
    said = timing_words.status(status.state, status.later, status.unanswered, len(status.asked))
    if status.state == CONFIRMED:
        st.success(said, icon=":material/task_alt:")
    elif status.state == RECORDED_LATER:
        st.warning(said, icon=":material/history:")
        if session.can_train_without(status.later, dataset):
            st.button(timing_words.train_again(status.later), key="w_train_without_later", type="primary",
                      on_click=session.train_without_later)
            for prefix, others in session.time_point_siblings(status.later, dataset).items():
                st.button(timing_words.train_again_with_time_point(prefix, len(others)), help=md(", ".join(others)),
                          key=f"w_train_without_time_point::{prefix}", on_click=session.train_without_later, args=(others,))
        else:
            st.caption(timing_words.NOT_HERE)
    else:
        st.info(said, icon=":material/help:")
    if session.answers_unsaved and session.metadata.is_saved:
        st.caption(timing_words.SAVE_AGAIN)


MAX_UPLOAD_MB = 5
"""The largest model file the uploader takes, in MB."""


def load_uploaded_model(session: TrainingSession) -> None:
    """on_change of the uploader: a valid model file becomes the current list."""
    uploaded = ss.get("w_train_upload")
    if uploaded is None:
        session.forget_load_message()
    else:
        session.load_upload(uploaded.getvalue(), uploaded.name)


def save_section(session: TrainingSession, model) -> None:
    """The save field and buttons of the current list ``model``, with the last save's message."""
    if (proposed := session.take_proposed_name()) is not None:  # a list that became current
        TRAIN_MODEL_NAME.put(ss, proposed)  # proposes its name (before the field is drawn)
    name = st.text_input(words.MODEL_NAME, key=TRAIN_MODEL_NAME.name, persist_state="session")
    save_column, download_column = st.columns(2)
    if save_column.button(words.SAVE, key="w_train_save", type="primary"):
        with shown_errors(words.SAVING):
            session.save(name, saver(acting_user()))
    if session.saved_message:
        save_column.success(md(session.saved_message))
    else:
        save_column.caption(words.store_note(model_dir()))
    download_column.download_button(words.DOWNLOAD, data=model.to_json(session.metadata.to_dict()),
                                    file_name=download_file_name(name), mime="application/json",
                                    key="w_train_download", **export_click(download_file_name(name)))


def load_section(session: TrainingSession) -> None:
    """The model file uploader and the store's lists to open, with the last upload's message."""
    st.file_uploader(words.UPLOAD, type=["json"],
                     max_upload_size=MAX_UPLOAD_MB, on_change=load_uploaded_model, args=(session,), key="w_train_upload")
    stored_lists, _ = list_models()
    if stored_lists:
        labels = {str(entry.path): entry.label for entry in stored_lists}
        opened = st.selectbox(words.OPEN_CHOICE, list(labels), format_func=labels.get,
                              index=None, placeholder=words.OPEN_PLACEHOLDER, key="w_train_open_choice")
        st.button(words.OPEN, key="w_train_open", disabled=opened is None, on_click=session.open_stored,
                  args=(opened, labels.get(opened, "")))
    message = session.load_message
    if message:
        {"error": st.error, "warning": st.warning}.get(message["kind"], st.info)(md(message["text"]))
