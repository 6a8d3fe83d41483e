"""The Validate page's larger widgets (Streamlit): the columns matched to the list's, the
values of a column coded otherwise mapped to the list's coding, and the recalibration.

Kept out of ``pages/`` because Streamlit turns every file there into a page. The logic is
:mod:`psl_triage.judging.validation`; every sentence is :mod:`psl_triage.words.validate`'s.
"""

from __future__ import annotations

import hashlib

import streamlit as st

from psl_core.binarization import NUMERIC
from psl_core.validation import MIN_RECALIBRATION_ROWS, stagewise_validation
from psl_triage.judging.validation import (
    MISSING,
    NOT_AVAILABLE,
    band_map,
    coding_mismatches,
    match_columns,
    needed_columns,
    save_recalibrated,
)
from psl_triage.model_file.metadata import ModelMetadata
from psl_triage.ward.approval import saver
from psl_triage.words import md
from psl_triage.words import validate as words
from psl_triage.words.train import saved as saved_message
from ui import index_of, shown_errors, training_session
from ui.state_keys import VALIDATE_SAVED
from ui.ward import acting_user, export_click

MAX_MAPPED_VALUES = 40  # a column with more values at the site is recoded before upload
SEEN_TABLE = "validate_defaults_for"
"""Session key: (the site table's digest, the list) the widgets were last started for."""


def start_at_defaults(model, site_bytes: bytes, defaults: dict) -> None:
    """On a table (or with a list) the page has not shown before, start each widget of
    ``defaults`` (its key -> its value) at that value: the list's own outcome (time, event)
    column when the table has one of that name, and its positive values. A None default
    leaves the widget as it was, so a choice made on an earlier table stays where it still fits.

    Streamlit keeps a keyed widget's value when its options change, an empty choice too: a
    second table holding the list's outcome would otherwise open with none chosen."""
    ss = st.session_state
    digest, seen = hashlib.sha256(site_bytes).hexdigest(), ss.get(SEEN_TABLE)
    if seen is not None and seen[0] == digest and seen[1] is model:
        return
    ss[SEEN_TABLE] = (digest, model)
    for key, value in defaults.items():
        if value is not None:
            ss[key] = value


def chosen_column(label: str, columns: list, default, key: str, placeholder: str, hint: str, container=None):
    """A select box of the site's columns starting at ``default`` (None: no choice); without a
    choice, ``hint`` and a stop of the page."""
    chosen = (container or st).selectbox(
        label, columns, index=_start(key, None if default is None else columns.index(default)),
        placeholder=placeholder, key=key,
    )
    if chosen is None:
        st.info(hint)
        st.stop()
    return chosen


def chosen_values(label: str, values: list, default: list) -> list:
    """The outcome's (event's) values counted as positive (``"validate_positive"``)."""
    return st.multiselect(label, values, default=_start("validate_positive", [v for v in default if v in values]),
                          key="validate_positive")


def _start(key: str, default):
    """A widget's default, or None once :func:`start_at_defaults` (or the user) gave it a value:
    Streamlit warns of a widget given both."""
    return None if key in st.session_state else default


def matched_columns(model, metadata: ModelMetadata, frame) -> dict:
    """Each column the list asks about -> the site table's column (by name, else the user's choice)."""
    needed = needed_columns(model, metadata)
    matched = match_columns(needed, frame.columns)
    choices = [NOT_AVAILABLE] + [str(c) for c in frame.columns]
    unmatched = [need for need in needed if matched[need.name] is NOT_AVAILABLE]
    if not unmatched:
        st.success(words.ALL_FOUND.format(n_columns=len(needed)))
        return matched
    st.markdown(words.UNMATCHED)
    for need in unmatched:
        matched[need.name] = st.selectbox(
            words.map_column_label(need), choices,
            format_func=lambda c: words.NOT_RECORDED if c is NOT_AVAILABLE else c, key=f"validate_map_{need.name}",
        )
    return matched


def value_maps(model, metadata: ModelMetadata, frame, matched) -> dict:
    """The user's map of every column coded otherwise here; stops the page while one is left."""
    maps, unmapped = {}, False
    for mismatch in coding_mismatches(model, metadata, frame, matched):
        name = mismatch.need.name
        with st.container(border=True, key=f"validate_coding_{name}"):
            verdict = st.empty()
            maps[name] = _value_map(mismatch)
            left = coding_mismatches(model, metadata, frame, {name: matched[name]}, {name: maps[name]})
            if left:
                verdict.error(left[0].message(metadata), icon=":material/error:")
            else:
                verdict.success(words.values_mapped(mismatch.source))
            unmapped = unmapped or bool(left)
    if unmapped:  # each column is checked on its own: the ones left are those (the table once, not twice)
        st.stop()
    return maps


def _value_map(mismatch) -> dict:
    """One column's map: each value here -> the list's value (or a number, or MISSING)."""
    name = mismatch.need.name
    value_map, shown_values = {}, mismatch.site_values[:MAX_MAPPED_VALUES]
    bands = band_map(mismatch)
    if bands is not None and st.checkbox(words.bands_label(mismatch), key=f"validate_bands_{name}"):
        value_map, shown_values = dict(bands), []
    columns = st.columns(min(len(shown_values), 4) or 1)
    for index, value in enumerate(shown_values):
        with columns[index % len(columns)]:
            if mismatch.need.kind == NUMERIC:
                chosen = st.number_input(words.value_here_label(value), value=None, key=f"validate_value_{name}_{index}",
                                         placeholder=words.A_NUMBER)
                chosen = None if chosen is None else float(chosen)
            else:
                options = mismatch.training_values
                chosen = st.selectbox(
                    words.value_here_label(value), options, index=index_of(options, value, fallback=None),
                    format_func=lambda v, labels=mismatch.training_labels: words.coding_option(v, labels),
                    placeholder=words.VALUE_PLACEHOLDER, key=f"validate_value_{name}_{index}",
                )
            if chosen is not None:
                value_map[value] = chosen
    if st.checkbox(words.REST_MISSING, key=f"validate_rest_missing_{name}"):
        value_map.update({value: MISSING for value in mismatch.site_values if value not in value_map})
    return value_map


def recalibration(model, metadata: ModelMetadata, table, site_name: str, stage: int, supported: int,
                  sample_weight=None) -> None:
    """Section 4: recalibrate the list on the site's table, save it as a new version, download
    it or use it in the session (``"validate_saved"``; on use, the training session's current list).
    With ``sample_weight`` (a horizon list's censoring weights) the recalibration is weighted
    and the yes/no measures after it are not shown."""
    ss = st.session_state
    st.markdown(words.RECALIBRATE_INTRO)
    if supported < 0:
        st.info(words.CANNOT_RECALIBRATE.format(min_rows=MIN_RECALIBRATION_ROWS))
        return
    if supported < len(model.literals_):
        st.caption(words.kept_questions(supported, MIN_RECALIBRATION_ROWS))
    keep = st.number_input(
        words.KEEP, min_value=0, max_value=supported, value=supported, step=1, key="validate_keep",
    )
    name = st.text_input(words.MODEL_NAME, value=metadata.default_name, key="validate_name")
    if st.button(words.RECALIBRATE, key="validate_recalibrate", type="primary"):
        with shown_errors(words.RECALIBRATING):
            new, new_metadata, stored = save_recalibrated(model, metadata, table, site_name, int(keep), name,
                                                          sample_weight=sample_weight,
                                                          save=saver(acting_user(), "recalibrate"))
            after = None if sample_weight is not None else stagewise_validation(new, table.X, table.y).loc[
                min(stage, int(keep))]
            VALIDATE_SAVED.put(ss, {
                "from": model, "model": new, "metadata": ModelMetadata.from_dict(new_metadata), "after": after,
                "message": saved_message(stored), "file": stored.path.name,
            })
    saved = VALIDATE_SAVED.get(ss)
    if not saved or saved.get("from") is not model:
        return
    st.success(md(saved["message"]))
    if saved["after"] is not None:
        st.markdown(words.after_recalibration(saved["after"]))
    st.download_button(
        words.DOWNLOAD_RECALIBRATED, data=saved["model"].to_json(saved["metadata"].to_dict()),
        file_name=saved["file"], mime="application/json", key="validate_download_model", **export_click(saved["file"]),
    )
    if st.button(words.USE_RECALIBRATED, key="validate_use"):
        training_session().make_current(
            saved["model"], saved["metadata"], words.recalibrated_origin(site_name, saved["message"]))
        VALIDATE_SAVED.put(ss, None)
        st.rerun()
