"""Data, the landing page: load a table, choose the outcome, check columns and missing values.

The app opens here (``app.py``'s default page). The page keeps one :class:`DatasetSession`
in the session state (:data:`ui.state_keys.DATASET`): it reads widgets, calls the session and
renders it; the other pages read the same session.

Widgets are keyed by the session's ``version`` (``session.key``): ``"w_outcome_v<N>"``,
``"w_positive_v<N>::<outcome>"``, ``"w_type_v<N>::<outcome>::<column>"``, ``"w_missing_v<N>"``...
The session's choices are the truth; widgets get them only as their defaults (``index=`` /
``default=``) and the page reads the widgets' values back into the session. Nothing writes a
widget's key: a value written to st.session_state before the widget is drawn can be lost when
the browser reruns the page before it has drawn a lazily loaded selectbox, and the widget then
falls back to its first option. Keying the dataset's widgets by the version gives a new dataset
fresh widgets with its own defaults, and the positive class gets a fresh widget for every
outcome; Streamlit forgets a widget's state once a page without it has run, and the widget then
comes back with its default: the stored choice.
"""

from __future__ import annotations

import streamlit as st

from psl_triage.data import (
    IGNORE,
    KIND_LABELS,
    KINDS,
    MISSING_HANDLINGS,
    describe_missing_handling,
    missing_report,
)
from psl_triage.data.demo import load_demo
from psl_triage.data.session import DatasetSession
from psl_triage.words import data as words
from psl_triage.words import md
from psl_triage.words.common import APP_NAME
from ui import index_of, one_page, table_uploader
from ui.data import follow_up_choice, level_orders, outcome_classes_choice, reading_choices
from ui.state_keys import DATASET

ss = st.session_state
cached_demo = st.cache_data(show_spinner=False)(load_demo)

st.set_page_config(page_title=APP_NAME, page_icon="🩺", layout="wide")
session = DATASET.setdefault(ss, lambda: DatasetSession(cached_demo))
st.title(APP_NAME)
st.markdown(words.INTRO)

st.header(words.LOAD_HEADER)
sources = list(words.SOURCE_LABELS)
source = st.radio(words.SOURCE_LABEL, sources, index=index_of(sources, session.active.source),
                  format_func=words.SOURCE_LABELS.get, key="w_source", horizontal=True)
if source == "demo" and session.active.source != "demo":
    session.switch_to("demo")
if source == "upload":
    uploaded, limit_mb = table_uploader(words.UPLOAD_WHAT, "w_upload")
    if uploaded is not None:
        session.read_upload(f"{uploaded.file_id}:{uploaded.name}", uploaded.name, uploaded.getvalue, limit_mb * 2**20)
        if session.upload_error:
            st.error(md(session.upload_error))
            st.info(words.keeps_using(session.active.name, refused=True))
    elif session.active.source != "upload" and "upload" in session.stashed:
        session.switch_to("upload")
    elif session.active.source != "upload":
        st.info(words.keeps_using(session.active.name, refused=False))

data = session.active
df, meta = data.df, data.meta
title, caption = words.preview(data.name, len(df), len(df.columns), meta.source)
st.subheader(title)
st.caption(caption)
if meta.description:
    st.markdown(meta.description)
if data.reading is not None:
    reading_choices(session)
for note in data.notes:
    st.info(md(note))
st.dataframe(session.preview(), width="stretch", placeholder=words.GAP_SHOWN_AS)

st.header(words.OUTCOME_HEADER)
columns = list(df.columns)
session.choose_outcome(st.selectbox(
    words.OUTCOME_LABEL, columns, index=index_of(columns, data.outcome, fallback=None),
    format_func=lambda name: words.column_title(name, meta), key=session.key("w_outcome"),
    placeholder=words.OUTCOME_PLACEHOLDER,
))
outcome = data.outcome
if outcome is not None and outcome == meta.outcome:
    st.caption(words.PUBLISHED_OUTCOME)
elif outcome is not None and outcome == data.outcome_guess[0]:
    st.caption(words.outcome_reason(data.outcome_guess[1]))
if outcome is not None:
    outcome_classes_choice(session, outcome)
if outcome is not None and data.positive_class:
    session.set_follow_up(follow_up_choice(session, outcome))

st.header(words.COLUMNS_HEADER)
st.markdown(words.COLUMNS_TEXT)
features = session.features()
table = st.empty()  # filled below, once the type widgets have been read
with st.expander(words.TYPES_EXPANDER):
    grid, types = st.columns(3), dict(data.column_types)
    for index, name in enumerate(one_page(features, session.key("w_type_page", outcome))):
        types[name] = grid[index % 3].selectbox(
            words.type_label(name, meta), KINDS, index=index_of(KINDS, types.get(name, IGNORE)),
            format_func=KIND_LABELS.get, key=session.type_key(name))
    session.set_types(types)
level_orders(session)
with st.expander(words.LABELS_EXPANDER):
    st.caption(words.LABELS_CAPTION)
    typed = {}
    for name in one_page(session.in_use(), session.key("w_label_page"), words.COLUMNS_IN_USE):
        spec, (left, right), (label, unit) = meta.columns.get(name), st.columns([3, 1]), words.label_and_unit(name)
        typed[name] = (
            left.text_input(label, value=spec.label if spec is not None and spec.label else str(name),
                            max_chars=100, key=session.key("w_label", name)),
            right.text_input(unit, value=spec.unit if spec is not None else "", max_chars=30,
                             key=session.key("w_unit", name)))
    session.relabel(typed)
table.dataframe(session.column_table(), hide_index=True, width="stretch",
                column_config={"reason": st.column_config.TextColumn("reason", width="large")})
if out := session.proposed_out():
    st.markdown(words.PROPOSED_OUT)
for name in out:
    (text, button), (warning, help_text) = st.columns([5, 1], vertical_alignment="center"), words.proposed_out(
        name, data.flagged_columns[name])
    text.warning(warning)
    button.button(words.PUT_BACK, key=session.key("w_put_back", outcome, name), on_click=session.put_back,
                  args=(name,), help=help_text)

st.header(words.MISSING_HEADER)
report = missing_report(df, ([outcome] if outcome is not None else []) + session.in_use())
report = report[report["missing"] > 0]
if report.empty:
    st.success(words.NO_MISSING)
else:
    st.dataframe(report, hide_index=True,
                 column_config={"percent": st.column_config.NumberColumn("percent", format="%.1f %%")})
session.set_missing_handling(st.radio(
    words.MISSING_QUESTION, list(MISSING_HANDLINGS), index=index_of(MISSING_HANDLINGS, data.missing_handling),
    format_func=words.MISSING_LABELS.get, key=session.key("w_missing")))
st.info(md(describe_missing_handling(df, data.column_types, outcome, data.missing_handling)))

st.header(words.READY_HEADER)
prepared = session.refresh()
if prepared is None:
    (st.info if session.awaiting_choice() else st.error)(md(session.prepare_error))
else:
    st.success(words.ready(prepared))
    if prepared.notes:
        st.markdown(words.bullets(prepared.notes))
