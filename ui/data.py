"""The Data page's Streamlit helpers: the outcome's classes, the follow-up choice and the choice of
how a file is read.

They draw widgets keyed by the dataset session's version (:meth:`DatasetSession.key
<psl_triage.data.session.DatasetSession.key>`) and return or apply what the user chose; the
page (pages/0_Data.py) lays them out with the rest.
"""

from __future__ import annotations

import zlib

import pandas as pd
import streamlit as st

from psl_core.errors import DataError
from psl_triage.data import (
    DECIMAL_MARKS,
    DELIMITERS,
    MAX_CATEGORIES,
    THOUSANDS_SEPARATORS,
    LoadedTable,
    NumberFormat,
    count_classes,
    default_class_names,
    order_by_places,
    value_label,
)
from psl_triage.data.follow_up import (
    FollowUp,
    default_horizon,
    event_time,
    horizon_text,
    is_status,
    time_evidence,
)
from psl_triage.data.session import DatasetSession
from psl_triage.words import data as words
from psl_triage.words import md
from psl_triage.words.lists import COMPETING_EVENTS
from ui import index_of


def follow_up_choice(session: DatasetSession, outcome: str) -> FollowUp | None:
    """Follow-up data: the time column (any numeric column, the follow-up times found first),
    the horizon and its unit; None for a yes/no outcome. The outcome is the event."""
    df, current = session.active.df, session.active.follow_up
    profile = session.active.profile
    candidates = [name for name in profile.numeric_columns if name != outcome]
    found = [name for name in profile.time_columns if name != outcome]
    if not candidates or (current is None and not found and not is_status(df[outcome])):
        return None
    st.subheader(words.FOLLOW_UP_TITLE)
    if not st.checkbox(words.FOLLOW_UP_CHECK, value=current is not None, key=session.key("w_follow_up", outcome),
                       help=words.FOLLOW_UP_HELP):
        return None
    options = candidates if current is None or current.time in candidates else [current.time, *candidates]
    time = st.selectbox(words.TIME_LABEL, options, index=index_of(options, current.time if current else None),
                        key=session.key("w_time", outcome))
    if evidence := time_evidence(df, time, outcome):
        st.caption(md(evidence))
    try:
        times, events = event_time(df, time, outcome, session.active.positive_class)
    except DataError as exc:
        st.error(md(str(exc)))
        return None
    left, right = st.columns(2)
    start = current.horizon if current is not None and current.time == time else default_horizon(times)
    horizon = left.number_input(words.horizon_label(time), min_value=0.0, value=float(start), step=1.0,
                                key=session.key("w_horizon", outcome, time))
    unit = right.text_input(words.TIME_UNIT_LABEL, value=current.unit if current else "", max_chars=20,
                            key=session.key("w_time_unit", outcome)).strip()
    if horizon <= 0:
        st.error(words.HORIZON_TOO_SHORT)
        return None
    st.info(md(horizon_text(times, events, horizon, unit)))
    st.caption(COMPETING_EVENTS)
    return FollowUp(time, float(horizon), unit)


def reading_choices(session: DatasetSession) -> None:
    """How the upload was read, and select boxes to read it another way."""
    reading = session.active.reading
    numbers: NumberFormat = reading["numbers"]
    st.caption(words.read_as(LoadedTable(session.active.df, delimiter=reading["delimiter"], numbers=numbers,
                                        columns=reading["columns"]).describe_reading()))
    with st.expander(words.READING_EXPANDER):
        grid, chosen = st.columns(3), [reading["delimiter"], numbers.decimal, numbers.thousands]
        for place, (name, options) in enumerate(zip(("w_delimiter", "w_decimal", "w_thousands"),
                                                    (DELIMITERS, DECIMAL_MARKS, THOUSANDS_SEPARATORS))):
            if chosen[place] is not None:
                chosen[place] = grid[place].selectbox(
                    words.READING_LABELS[place], list(options), index=index_of(list(options), chosen[place]),
                    format_func=options.get, key=session.key(name))
        if chosen != [reading["delimiter"], numbers.decimal, numbers.thousands]:
            try:
                session.reread(chosen[0], NumberFormat(chosen[1], chosen[2]))
            except DataError as exc:
                st.error(md(str(exc)))
            else:
                st.rerun()


def outcome_classes_choice(session: DatasetSession, outcome: str) -> None:
    """The positive class(es) of the outcome and the names of the two classes."""
    data, df = session.active, session.active.df
    outcome_spec, counts = data.meta.columns.get(outcome), dict(count_classes(df[outcome]))
    classes = list(counts)
    if len(classes) == 2:
        positive = st.selectbox(
            words.POSITIVE_LABEL, classes, format_func=lambda value: words.class_title(value, value_label(value, outcome_spec), counts[value]),
            index=index_of(classes, data.positive_class[0] if data.positive_class else None, fallback=1),
            key=session.key("w_positive", outcome))
        session.choose_positive([positive])
        other = next(c for c in classes if c != positive)
        st.caption(words.other_is_negative(words.class_title(other, value_label(other, outcome_spec), counts[other])))
    elif 2 < len(classes) <= 20:
        session.choose_positive(st.multiselect(
            words.which_positive(outcome, len(classes)), classes,
            default=[value for value in data.positive_class if value in classes],
            format_func=lambda value: words.class_title(value, value_label(value, outcome_spec), counts[value]),
            key=session.key("w_positive_multi", outcome), placeholder=words.POSITIVE_PLACEHOLDER))
    if data.positive_class and len(data.positive_class) < len(classes):
        names = session.chosen_class_names() or default_class_names(df[outcome], outcome, data.positive_class, outcome_spec)
        parts, left, right = (outcome, "|".join(map(str, data.positive_class))), *st.columns(2)
        typed = (left.text_input(words.POSITIVE_NAME, value=names[0], key=session.key("w_class", *parts, "positive")),
                 right.text_input(words.NEGATIVE_NAME, value=names[1], key=session.key("w_class", *parts, "negative")))
        if typed != names:
            session.name_classes(typed)


def level_orders(session: DatasetSession) -> None:
    """Ordered categories: each order the data propose (one click), then a categorical column
    declared ordered or not, with its order editable as place numbers."""
    proposals, names = session.grouped_order_proposals(), session.orderable()
    with st.expander(words.ORDER_EXPANDER, expanded=bool(proposals or session.orders())):
        st.caption(words.ORDER_CAPTION)
        for order, columns in proposals.items():  # one notice per order, however many columns show it
            text, button = st.columns([5, 1], vertical_alignment="center")
            text.info(words.order_proposal(columns, order))
            button.button(words.use_order(len(columns)), key=session.key("w_use_order", columns[0]),
                          on_click=session.set_orders, args=(columns, order))
        if not names:
            st.caption(words.NO_ORDERABLE.format(max_categories=MAX_CATEGORIES))
            return
        name = st.selectbox(words.ORDER_COLUMN, names, format_func=str,  # as the file names it: labels change
                            key=session.key("w_order_column"))
        order = session.level_order(name)
        stamp = zlib.crc32("\x1f".join(order or ()).encode())
        if st.toggle(words.ORDERED_TOGGLE, value=order is not None, key=session.key("w_ordered", name, stamp)) != (
                order is not None):
            session.set_order(name, None if order is not None else session.levels(name))
            st.rerun()
        if order is None:
            return
        st.caption(words.ORDER_EDITOR_CAPTION)
        table = pd.DataFrame({words.ORDER_PLACE: range(1, len(order) + 1), words.ORDER_CATEGORY: order})
        edited = st.data_editor(
            table, hide_index=True, disabled=[words.ORDER_CATEGORY], key=session.key("w_order", name, stamp),
            column_config={words.ORDER_PLACE: st.column_config.NumberColumn(words.ORDER_PLACE, step=1)})
        moved = order_by_places(order, edited[words.ORDER_PLACE].tolist())
        if moved != order:
            session.set_order(name, moved)
            st.rerun()
        st.markdown(words.order_text(order))
