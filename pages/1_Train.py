"""Train: learn a probabilistic scoring list from the prepared data, read it, save or load one.

The page lays out :class:`psl_triage.training.session.TrainingSession` (options, run, current
list, load and save) with the words of :mod:`psl_triage.words.train`; the options' widgets and
the save and load sections are in ``ui/training.py``. Training runs only when Train is pressed;
the list stays until the next training or load. The session is the app's one
(``state_keys.TRAINING``, which the later pages read); the data are the data page's session's
(``state_keys.DATASET``); the widget keys ``"w_train_*"`` keep their values across page switches,
and the options' values belong to the table (``ui.training.follow_table``: a new table starts
them at their defaults, a table shown again gets its own back).
"""

from __future__ import annotations

import streamlit as st

from psl_triage.model_file.metadata import ModelMetadata
from psl_triage.plots import performance_figure
from psl_triage.training import tables
from psl_triage.training.choices import start_value
from psl_triage.training.session import OPTION_NAMES
from psl_triage.words import lists as list_words
from psl_triage.words import md
from psl_triage.words import train as words
from psl_triage.words.common import GO_TO_DATA, page_title, queued
from psl_triage.words.editors import constraints_said
from ui import link, shown_errors, training_session
from ui.evidence import sample_size_section
from ui.state_keys import DATASET
from ui.training import follow_table, load_section, options_section, save_section, timing_section

ss = st.session_state
session = training_session()
dataset = DATASET.get(ss)


def train() -> None:
    names = (*OPTION_NAMES, "score_preset", "custom_scores", "cost_unit")
    bar = st.progress(0.0, text=words.STARTING)
    try:
        seconds = session.run(dataset, {name: ss[f"w_train_{name}"] for name in names},
                              lambda stage, n: bar.progress(stage / n, text=words.stage_progress(stage, n)),
                              lambda running, waited: bar.progress(0.0, text=queued("training", running, waited)))
    except BaseException:  # an error (or a rerun) leaves no finished-looking bar above the old list
        bar.empty()
        raise
    bar.progress(1.0, text=words.done(session.model.n_stages_ - 1, seconds))


def other_table_note(metadata: ModelMetadata) -> None:
    """What the list is, when it is the one from before a failed training or not the loaded
    table's (with the offer to train on that one)."""
    if session.training_failed:
        st.warning(list_words.PREVIOUS_LIST, icon=":material/history:")
    reason = session.other_table(dataset)
    if reason is not None:
        loaded = dataset.active.name
        st.warning(list_words.list_of_another_table(reason, metadata.trained_on.name, loaded), icon=":material/swap_horiz:")
        if dataset.prepared is not None:
            st.button(list_words.train_on_loaded(loaded), key="w_train_on_loaded", on_click=session.train_on_loaded)


def list_section(model, metadata: ModelMetadata) -> None:
    other_table_note(metadata)
    st.caption(md(session.origin))
    warning = session.too_good()
    if warning is not None:
        st.error(words.too_good(warning), icon=":material/report:")
        if session.can_retrain_without(warning, dataset):
            st.button(words.retrain_without(warning.questions), key="w_train_retrain_without", type="primary",
                      on_click=session.retrain_without, args=(dataset, warning.questions, " ".join(warning.reasons)))
    for paragraph in words.list_reading(model, metadata):
        st.markdown(paragraph)
    if said := constraints_said(model.monotone, model.required, model.forbidden):
        st.markdown(md(said))
    intervals = st.toggle(words.show_intervals(tables.DEFAULT_CONFIDENCE), key="w_train_show_intervals",
                          persist_state="session")
    outcome = md(words.positive_outcome(metadata))
    st.markdown(words.table_explained(outcome, intervals))
    no_gain = words.no_gain_note(model, outcome)
    if no_gain:
        st.warning(no_gain, icon=":material/warning:")
    table = tables.list_table(model, tables.readable_columns(metadata), intervals=intervals)
    config = {name: st.column_config.Column(pinned=True) for name in words.PINNED_COLUMNS}
    if intervals:  # room for "34% (21–49%)"
        config.update({name: st.column_config.Column(width=115) for name in table.columns[3:]})
    st.dataframe(table, hide_index=True, height="content", column_config=config, key="w_train_list_table")
    timing_section(session, dataset)


def performance_section(metadata: ModelMetadata) -> None:
    long = tables.performance_long(metadata)
    if long.empty:
        st.info(words.NO_PERFORMANCE)
        return
    st.markdown(words.PERFORMANCE)
    measures = tables.performance_table(long)
    st.dataframe(measures, hide_index=True, height="content", key="w_train_performance_table",
                 column_config={name: st.column_config.NumberColumn(format="%.3f") for name in measures.columns[1:]})
    st.plotly_chart(performance_figure(long), key="w_train_performance_chart")


st.set_page_config(page_title=page_title("train"), page_icon="🩺", layout="wide")
st.title(words.TITLE)
st.markdown(words.INTRO)
st.header(words.HEADERS["data"])
prepared = None if dataset is None else dataset.prepared
if prepared is None:
    if dataset is not None and dataset.prepare_error:
        st.warning(words.not_ready(dataset.prepare_error))
    else:
        st.info(words.NO_DATA)
    link("pages/0_Data.py", *GO_TO_DATA)
else:
    follow_table(session, dataset.active.table)
    st.markdown(words.data_summary(dataset.active.name, prepared))
    sample_size_section("w_train", prepared, ss.get("w_train_max_feature_uses") or start_value("max_feature_uses"))
    st.header(words.HEADERS["options"])
    if options_section(session, prepared) or session.take_retrain():
        with shown_errors(words.TRAINING):
            train()

st.header(words.HEADERS["list"])
model, metadata = session.model, session.metadata
if model is None:
    st.info(words.NO_LIST)
else:
    with shown_errors(words.SHOWING_LIST):
        list_section(model, metadata)
    st.header(words.HEADERS["performance"])
    with shown_errors(words.SHOWING_PERFORMANCE):
        performance_section(metadata)
st.header(words.HEADERS["files"])
if model is not None:
    with shown_errors(words.PREPARING_SAVE):
        save_section(session, model)
load_section(session)
