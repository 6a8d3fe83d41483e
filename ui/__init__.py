"""Streamlit helpers shared by the pages (the app's only UI module outside the pages).

Kept out of ``pages/`` because Streamlit turns every file there into a page, and out of
``psl_core`` because the library never imports Streamlit.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING

import streamlit as st
from streamlit.errors import StreamlitPageNotFoundError

from psl_core import PSLError
from psl_core.cost_ratio import COST_RATIO_RANGE
from psl_triage.data import load_table, upload_limit_mb
from psl_triage.data.list_data import data_mismatch
from psl_triage.model_file.csv_export import csv_bytes
from psl_triage.model_file.metadata import ModelMetadata
from psl_triage.words import common as words
from psl_triage.words import lists as list_words
from psl_triage.words import md, visible
from psl_triage.words import reading as reading_words
from psl_triage.words import store as store_words
from psl_triage.words import ward as ward_words
from ui.state_keys import DATASET, TRAINING
from ui.ward import viewer

if TYPE_CHECKING:
    from psl_triage.data.session import DatasetSession
    from psl_triage.training.session import TrainingSession

logger = logging.getLogger("psl_triage")
timing_logger = logging.getLogger("psl_triage.timing")
"""Server time of the pages' interactive parts (:func:`timed`), at INFO. Silent unless the
environment variable ``PSL_LOG_TIMING`` is set (to anything): the app then writes the lines
to its standard error, where the browser tests read them."""
if os.environ.get("PSL_LOG_TIMING") and not timing_logger.handlers:
    _handler = logging.StreamHandler()
    _handler.setFormatter(logging.Formatter("%(name)s: %(message)s"))
    timing_logger.addHandler(_handler)
    timing_logger.setLevel(logging.INFO)


def index_of(options: Sequence, value: object, fallback: int | None = 0) -> int | None:
    """The position of a stored choice among a widget's options (its default ``index=``)."""
    return options.index(value) if value in options else fallback


@contextmanager
def timed(what: str):
    """Log how long the block took on the server (``timing_logger``), in milliseconds; a
    block that Streamlit stops or reruns midway is not logged."""
    started = time.perf_counter()
    yield
    timing_logger.info("%s: %.1f ms", what, 1000 * (time.perf_counter() - started))


@contextmanager
def shown_errors(doing: str):
    """Show psl_core's message for bad input and a plain sentence for anything else.

    Never a traceback in the browser: an unexpected error's traceback goes to the server
    log, where whoever maintains the app can read it.
    """
    try:
        yield
    except PSLError as exc:
        st.error(md(exc))  # messages quote names and values from the user's files
    except Exception as exc:  # never a traceback in the browser; logged for the maintainer
        logger.exception("unexpected error while %s", doing)
        st.error(words.unexpected_error(doing, type(exc).__name__))


def link(page: str, label: str, fallback: str) -> None:
    """A link to another page; plain text when the page runs on its own (as in tests)."""
    try:
        st.page_link(page, label=label)
    except StreamlitPageNotFoundError:
        st.markdown(fallback)


def csv_download(table, name: str, key: str, label: str = words.CSV_DOWNLOAD_LABEL, on_click=None, args=()) -> None:
    """A button that downloads a table (the numbers behind a plot) as CSV, which cannot run
    as formulas in a spreadsheet (:func:`psl_triage.model_file.csv_export.csv_bytes`);
    ``on_click(*args)`` runs when it is clicked (the audit trail records an export)."""
    st.download_button(label, csv_bytes(table), file_name=f"{name}.csv", mime="text/csv", key=key,
                       on_click=on_click, args=args)


@st.cache_data(show_spinner=False, max_entries=4)
def read_upload(data: bytes, name: str, limit_mb: int):
    """An uploaded site table read as the Data page reads one (cached: a rerun does not read it again)."""
    return load_table(data, name, max_bytes=limit_mb * 1024 * 1024)


def shown_upload(data: bytes, name: str, limit_mb: int, reading: str, table_size):
    """The uploaded table's frame, read under ``reading`` (a problem is shown and stops the
    page), with its size (``table_size(name, rows, columns)``) and reading notes as captions."""
    loaded = None
    with shown_errors(reading):
        loaded = read_upload(data, name, limit_mb)
    frame = stopped_unless(loaded).frame
    st.caption(table_size(name, len(frame), len(frame.columns)))
    for note in loaded.notes:
        st.caption(md(note))
    return frame


def stopped_unless(value, hint: str | None = None):
    """``value``; without one, ``hint`` (if any) and a stop of the page."""
    if value is None:
        if hint:
            st.info(hint)
        st.stop()
    return value


def _required(value, hint: str, page: str, go: tuple[str, str]):
    """``value``, or when it is None ``hint`` with a link to ``page`` and a stop of the page."""
    if value is None:
        st.info(hint)
        link(page, *go)
        st.stop()
    return value


def required_list(reason: str = ""):
    """The list on the Train page, or a hint with a link to Train and a stop of the page; a
    list trained too good to be true says so first (:func:`too_good_note`)."""
    model = _required(training_session().model, words.NO_LIST.format(reason=reason), "pages/1_Train.py", words.GO_TO_TRAIN)
    too_good_note(trained_metadata())
    unchecked_note(model)
    return model


def too_good_note(metadata) -> None:
    """The too-good-to-be-true warning a list was trained with, on every page that opens it
    (:func:`psl_triage.training.too_good.recorded_warning`); nothing for a list without one."""
    from psl_triage.training.too_good import recorded_warning  # here: the landing page need not load the learner

    warning = recorded_warning(metadata)
    if warning is not None:
        from psl_triage.words.train import too_good  # here: the landing page need not load the learner

        st.error(too_good(warning), icon=":material/report:")


def unchecked_note(model) -> None:
    """The notice of a list read from a model file of version 1, whose risks could not be
    checked against their counts (``probabilities_checked_``), on every page that opens it."""
    if not getattr(model, "probabilities_checked_", True):
        st.warning(store_words.RISKS_NOT_CHECKED, icon=":material/warning:")


def required_data(purpose: str) -> DatasetSession:
    """The Data page's :class:`~psl_triage.data.session.DatasetSession` when it holds
    prepared data, or a hint with a link to the start page and a stop of the page."""
    dataset = DATASET.get(st.session_state)
    _required(None if dataset is None else dataset.prepared, words.NO_DATA.format(purpose=purpose), "pages/0_Data.py",
              words.GO_TO_DATA)
    return dataset


def required_list_and_data(purpose: str, reason: str = ""):
    """(the list on the Train page, the data page's prepared data) of a page that judges the
    list on the data: without either, a hint and a link (:func:`required_list`,
    :func:`required_data`); with a table the list was not trained on, what to do
    (:func:`_required_match`); the page stops in all three cases."""
    model = required_list(reason)
    dataset = required_data(purpose)
    _required_match(model, dataset)
    return model, dataset.prepared


def _required_match(model, dataset: DatasetSession) -> None:
    """Stop the page, saying what to do, when the Data page's table is not the one the current
    list was trained on (:func:`psl_triage.data.list_data.data_mismatch`)."""
    metadata = trained_metadata()
    reason = data_mismatch(model, metadata, dataset.prepared)
    if reason is None:
        return
    st.warning(list_words.not_this_table(reason, metadata.trained_on.name, dataset.active.name))
    link("pages/0_Data.py", *words.GO_TO_DATA)
    st.stop()


def per_list_key(name: str, model) -> str:
    """The key ``"<name>_v<N>"`` of a widget whose value belongs to one list: N counts the lists
    the widget has followed (``"<name>_list"`` holds the current one, ``"<name>_version"`` N).
    A new list gets a fresh widget that starts at its default, as on a first visit; a value the
    user set stays, across page switches too, as long as the list does. Nothing writes the
    widget's key: a write could race with the user's input."""
    state = st.session_state
    if state.get(f"{name}_list") is not model:
        state[f"{name}_list"] = model
        state[f"{name}_version"] = state.get(f"{name}_version", 0) + 1
    return current_list_key(name, state)


def current_list_key(name: str, state) -> str:
    """The key :func:`per_list_key` gave ``name`` last, read from ``state`` (the session state,
    or an AppTest's) without counting a new list."""
    return f"{name}_v{state[f'{name}_version']}"


def stage_slider(prefix: str, model, label: str, of=None, last: int | None = None, start: int | None = None,
                 container=None, **kwargs) -> int:
    """The slider of the stage (number of questions asked) a page shows of the list ``model``.

    One widget per list (``per_list_key(prefix + "_stage", model)``: ``"<prefix>_stage_v<N>"``):
    a new list starts afresh, a stage the user chose stays, across page switches too, as long
    as the list does. It offers stages 0 to ``last`` (by default the last of ``of``, the list
    judged: a refit of ``model`` on a page that refitted it, else ``model``), starts at
    ``start`` (by default the recommended stage of ``of``, :func:`psl_triage.bedside.session.recommended_length`,
    where Triage and the card start; its help says so) and is disabled for a list without
    questions. A stage kept from a longer list judged before is dropped. ``container``: where
    to draw it (a column); ``kwargs``: more of ``st.slider``'s arguments.

    Returns
    -------
    int
        The chosen stage, never beyond ``last``.
    """
    state, of = st.session_state, model if of is None else of
    last = of.n_stages_ - 1 if last is None else last
    key = per_list_key(f"{prefix}_stage", model)
    if state.get(key, last) > last:
        del state[key]
    if start is None:
        from psl_triage.bedside.session import recommended_length  # here: the landing page need not load the learner

        start = recommended_length(of)
        kwargs.setdefault("help", words.STAGE_HELP)
    stage = (container or st).slider(label, 0, max(last, 1), min(start, last), key=key, disabled=last == 0,
                                     persist_state="session", **kwargs)
    return min(stage, last)


SHARED_COST_RATIO = "list_cost_ratio"
"""The M last chosen for a list on any page (the list, the page's prefix, the value): one M per
list across the pages (:func:`cost_ratio_input`)."""


def cost_ratio_input(prefix: str, model, metadata, container=None, **kwargs) -> float:
    """The number input of M on a page that uses a list; it starts at the M last chosen for
    the list on any page, else at the list's saved M: one M per list across the pages.

    The widget's key is ``per_list_key("<prefix>_cost_ratio", model)``: ``"<prefix>_cost_ratio_v<N>"``,
    N counting the lists the page has followed. A new list gets a fresh widget whose default is
    its saved M (:func:`psl_core.cost_ratio.saved_cost_ratio`, 10 for a list saved before
    lists carried their M); a value the user typed stays, across page switches too, as long
    as the list does. Nothing writes the widget's key: a number input keyed once keeps its
    value whatever its ``value=`` says, and a write could race with the user's typing (see
    pages/0_Data.py).

    Parameters
    ----------
    prefix : str
        The page's key prefix ("triage", "intervals", "evaluation").
    model, metadata
        The list the page uses and its :class:`~psl_triage.model_file.metadata.ModelMetadata`.
    container : Streamlit container or None
        Where to draw the input (a column, a form); the page itself by default.
    **kwargs
        Further arguments of ``st.number_input`` (``help=``...).

    Returns
    -------
    float
    """
    metadata = ModelMetadata.coerce(metadata)
    saved = metadata.cost_ratio
    low, high = COST_RATIO_RANGE
    name, state = f"{prefix}_cost_ratio", st.session_state
    key, shared, start = per_list_key(name, model), state.get(SHARED_COST_RATIO), saved
    if shared is not None and shared["list"] is model:
        start = shared["value"]
        if shared["page"] != prefix and key in state and state[key] != start:
            # M chosen on another page for this list: a fresh widget starting at it (never a write to the key)
            state[f"{name}_version"] += 1
            key = f"{name}_v{state[f'{name}_version']}"
    value = (container or st).number_input(
        words.COST_RATIO_LABEL, min_value=low, max_value=high, value=min(max(start, low), high), step=1.0,
        format="%g", key=key, persist_state="session", **kwargs,
    )
    state[SHARED_COST_RATIO] = {"list": model, "page": prefix, "value": float(value)}
    (container or st).caption(
        words.saved_cost_ratio_note(metadata)
        + ("" if low <= saved <= high else words.SAVED_M_OUTSIDE.format(low=low, high=high))
    )
    return float(value)


def training_session() -> TrainingSession:
    """The app's one :class:`~psl_triage.training.session.TrainingSession` (the current list
    and the Train page's tables), made on first use (:data:`ui.state_keys.TRAINING`)."""
    from psl_triage.training.session import TrainingSession  # here: the landing page need not load the learner

    return TRAINING.setdefault(st.session_state, TrainingSession)


def trained_metadata() -> ModelMetadata:
    """The metadata of the list on the Train page (empty without one), parsed once, when the
    list became current (:meth:`~psl_triage.training.session.TrainingSession.make_current`)."""
    return training_session().metadata


def class_names() -> tuple[str, str]:
    """The trained list's names of its positive and negative class (the Data page's), for figures."""
    return trained_metadata().class_names


def table_uploader(what: str, key: str):
    """The uploader of a table (CSV, TSV or Excel) within the app's upload limit.

    ``what`` completes the label ("CSV, TSV or Excel (.xlsx) file<what> (up to N MB)").
    A bad ``PSL_MAX_UPLOAD_MB`` is reported and the default limit used.

    Returns
    -------
    (uploaded file or None, limit in MB)
    """
    try:
        limit_mb = upload_limit_mb(os.environ.get("PSL_MAX_UPLOAD_MB"))
    except PSLError as exc:  # serve.py refuses to start with it; app.py alone warns
        limit_mb = upload_limit_mb(None)
        st.warning(md(reading_words.UPLOAD_LIMIT_DEFAULT_USED.format(problem=exc, default_max_upload_mb=limit_mb)))
    uploaded = st.file_uploader(
        words.UPLOAD_LABEL.format(what=what, limit_mb=limit_mb),
        type=["csv", "tsv", "txt", "xlsx"],
        key=key,
        max_upload_size=limit_mb,
    )
    return uploaded, limit_mb


def kept_upload(uploaded, key: str):
    """The table uploaded on a page, kept in the session across page switches.

    Streamlit forgets a file uploader's file when the user opens another page; the file's
    name and bytes are kept under ``key`` until another file is uploaded.

    Returns
    -------
    (name, data) of the current or last upload, or None before any.
    """
    if uploaded is not None:
        st.session_state[key] = (uploaded.name, uploaded.getvalue())
    return st.session_state.get(key)


TRAINED = "trained"
"""The list picker's option for the list on the Train page (the others are saved files' paths)."""


def list_options() -> tuple[dict[str, str], list[str]]:
    """The lists a page can use: the Train page's (if any), then every saved file, newest first;
    with sign-in, those the user's role may see (:func:`psl_triage.ward.approval.visible_lists`).

    Returns
    -------
    options : dict of str to str
        :data:`TRAINED` or a file's path -> its label.
    problems : list of str
        Files of the store that were skipped, with why.
    """
    from psl_triage.model_file.store import list_models  # here: the landing page need not load the learner
    from psl_triage.ward.approval import visible_lists

    stored, problems = list_models()
    user = viewer()
    try:
        stored = visible_lists(user, stored)  # a clinician: the lists approved for clinical use, read now
    except PSLError as exc:  # the record unreadable: no list is known to be approved
        stored, problems = [], [*problems, str(exc)]
    options = {}
    if training_session().model is not None and user.can("train"):
        metadata = trained_metadata()
        options[TRAINED] = words.list_option_label(visible(metadata.name or words.JUST_TRAINED), _version(metadata, None))
    # Copies and links of one file (or two files of one name and time) say which file they are:
    # the store's labels are told apart (psl_triage.model_file.store.list_models).
    options.update({str(entry.path): entry.label for entry in stored})
    return options, problems


def chosen_list(choice: str):
    """(model, metadata, name, version) of an option of :func:`list_options`; a saved file is
    read through the store's cached loader (:func:`psl_triage.model_file.store.open_model`)."""
    if choice == TRAINED:
        session = training_session()
        metadata = session.metadata
        return session.model, metadata, metadata.name or words.JUST_TRAINED_NAME, _version(metadata, words.NOT_SAVED)
    from psl_triage.model_file.store import open_model

    opened = open_model(choice)
    metadata = opened.metadata.named_after(choice)
    return opened.model, metadata, metadata.name, _version(opened.metadata, "?")


def _version(metadata: ModelMetadata, missing: str):
    return metadata.version if metadata.is_saved else metadata.extra.get("version", missing)


def list_picker(prefix: str, empty_hint: str, label: str = words.LIST_PICKER_LABEL):
    """The select box of the list a page uses: the Train page's or any saved one.

    A list trained or loaded on the Train page since the page's last visit becomes the choice;
    otherwise the choice persists across page switches (``"<prefix>_model_choice"``, with
    ``"<prefix>_seen_trained"``). A page opened for the first time starts at the list last
    chosen on any page (``"list_choice"``, with ``"list_choice_trained"``: the Train page's list
    then), so a list picked on Triage is the one Validate and Card open with. Without any list the page shows ``empty_hint`` with a link
    to Train and stops; a saved file that cannot be used is reported and the page stops.

    Returns
    -------
    (model, ModelMetadata, name, version)
    """
    ss = st.session_state
    options, problems = list_options()
    for problem in problems:
        st.caption(f"{md(problem)}.")
    if not options:
        if not viewer().can("train"):  # a clinician: the lists come from approval, not from Train
            st.info(ward_words.NO_APPROVED_LIST)
            st.stop()
        st.info(empty_hint)
        link("pages/1_Train.py", *words.GO_TO_TRAIN)
        st.stop()
    key = f"{prefix}_model_choice"
    trained = training_session().model
    if trained is not None and ss.get(f"{prefix}_seen_trained") is not trained:
        # A list trained or loaded since the last visit comes first, unless this is the page's
        # first visit and another page chose a list since that list was trained.
        chosen_since = ss.get("list_choice_trained") is trained and ss.get("list_choice") in options
        ss[key] = ss["list_choice"] if f"{prefix}_seen_trained" not in ss and chosen_since else TRAINED
        ss[f"{prefix}_seen_trained"] = trained
    if ss.get(key) not in options:
        ss[key] = ss.get("list_choice") if ss.get("list_choice") in options else next(iter(options))
    choice = st.selectbox(label, list(options), format_func=options.get, key=key, persist_state="session")
    ss.list_choice, ss.list_choice_trained = choice, trained
    try:
        chosen = chosen_list(choice)
    except (OSError, PSLError) as exc:
        st.error(words.UNUSABLE_MODEL.format(message=md(exc)))
        st.stop()
    too_good_note(chosen[1])
    unchecked_note(chosen[0])
    return chosen


COLUMNS_PER_PAGE = 30
"""Column widgets drawn at once; a wider table gets a page choice (pages/0_Data.py)."""


def one_page(names: list, key: str, noun: str = "columns") -> list:
    """The names of the chosen page of ``names``, with a page choice when there is more than one:
    a table of hundreds of columns draws 30 widgets a rerun, not hundreds."""
    if len(names) <= COLUMNS_PER_PAGE:
        return names
    starts = range(0, len(names), COLUMNS_PER_PAGE)
    start = st.selectbox(
        words.SHOW.format(noun=noun), starts, key=key,
        format_func=lambda first: words.columns_shown(first, COLUMNS_PER_PAGE, len(names)),
    )
    return names[start:start + COLUMNS_PER_PAGE]
