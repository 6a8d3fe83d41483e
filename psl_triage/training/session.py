"""The Train page's state machine without Streamlit: options, the run, the current list.

The app keeps one :class:`TrainingSession` in ``st.session_state``
(:data:`~ui.state_keys.TRAINING`, made on first use by :func:`ui.training_session`);
the Train page renders it and the later pages read and set the current list through it:

- the current list and its metadata (:attr:`~TrainingSession.model`,
  :attr:`~TrainingSession.metadata`: a :class:`~psl_triage.model_file.metadata.ModelMetadata` parsed once,
  when the list becomes current, :meth:`~TrainingSession.make_current`), with where it comes
  from, the last save's and upload's messages;
- what the user knows and what questions cost, edited in two tables
  (:meth:`~TrainingSession.keep_knowledge`, :meth:`~TrainingSession.keep_costs`), and the
  widgets' values turned into :class:`~psl_triage.training.options.TrainingOptions`
  (:meth:`~TrainingSession.options`);
- the run (:meth:`~TrainingSession.train`), the too-good-to-be-true warning and "retrain
  without" (:meth:`~TrainingSession.too_good`, :meth:`~TrainingSession.retrain_without`), a
  model file loaded or a saved list opened (:meth:`~TrainingSession.load_upload`,
  :meth:`~TrainingSession.open_stored`) and a save (:meth:`~TrainingSession.save`).

Widget values stay under their widget keys (Streamlit keeps them there); the page passes them
in. The data to train on are the data page's session's
(:class:`~psl_triage.data.session.DatasetSession`, :data:`~ui.state_keys.DATASET`),
passed in too, so the session never holds a copy of them.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import replace

from psl_core.errors import PSLError, RequiredColumnError
from psl_triage.data import ORDERED
from psl_triage.data.list_data import list_table_mismatch
from psl_triage.data.roles import roles_record
from psl_triage.data.session import DatasetSession
from psl_triage.model_file.files import read_model_upload
from psl_triage.model_file.metadata import ModelMetadata
from psl_triage.model_file.store import load_model, save_model
from psl_triage.training import fit
from psl_triage.training.costs import check_unit, cost_rows, costs_from_rows
from psl_triage.training.knowledge import knowledge_from_rows, knowledge_rows
from psl_triage.training.known_at_triage import TimingStatus, list_answers, same_time_point, timing_status
from psl_triage.training.options import LEARNER_OPTIONS, SCORE_SET_PRESETS, TrainingOptions, parse_score_set
from psl_triage.training.runs import (
    MAX_TRAINING_ENV,
    SLOWDOWN_CHECK_SHARE,
    TrainingEstimate,
    max_training_minutes,
    one_run_at_a_time,
    training_estimate,
)
from psl_triage.training.too_good import TooGood, recorded_warning
from psl_triage.words import editors as editor_words
from psl_triage.words import store as store_words
from psl_triage.words import train as words
from psl_triage.words.editors import ASKED, ASKS, COST, DIRECTION, DIRECTIONS, GROUP
from psl_triage.words.known_at_triage import LATER

FROM_TABLES = ("question_costs", "cost_groups", "monotone", "required", "forbidden")
"""Learner options the page's two tables give (what questions cost, what clinicians know)."""

OPTION_NAMES = (
    *(name for name in LEARNER_OPTIONS if name not in (*FROM_TABLES, "score_set")), "test_fraction", "seed", "cost_ratio",
)
"""The options the page's widgets give as they are (``w_train_<name>``); the score set, the
costs' unit and the two tables are read by :meth:`TrainingSession.options`."""

logger = logging.getLogger("psl_triage")  # the app's log (ui.logger)


class TrainingSession:
    """The Train page's state: the current list and the page's two tables.

    Attributes
    ----------
    model : ProbabilisticScoringList or None
        The current list (trained, loaded, opened or recalibrated), which the later pages use.
    metadata : ModelMetadata
        Its metadata (empty without a list).
    origin : str
        One sentence on where the current list comes from.
    saved_message : str or None
        The last save's message for the current list.
    load_message : dict or None
        The last upload's outcome: ``{"kind": "error" | "info", "text": ...}``.
    fit_seconds : float or None
        How long training the current list took (None for a list loaded or opened): the
        Evaluation page's estimate of its run (:func:`psl_triage.training.runs.evaluation_seconds`).
    directions, asks : dict
        The knowledge table's choices per column ('' | 'increasing' | 'decreasing'; '' |
        'first' | 'never'), kept across pages for one table (:meth:`follow_table`).
    cost_values, cost_groups : dict
        The cost table's choices per column: its cost and the test it is measured with.
    timing : dict
        The researcher's answers per column: known at triage or recorded later
        (:mod:`psl_triage.training.known_at_triage`), kept for one table as the two tables' choices are;
        a list trained here takes those of its questions (:meth:`mark_timing`).
    list_number : int
        Counts the lists made current: the widgets of one list's answers are that list's.
    answers_unsaved : bool
        Whether answers were given since the current list was made current or saved.
    training_failed : bool
        Whether the last training (:meth:`run`) was refused or did not finish, so the current
        list is the one from before it (the page says so beside the list).
    """

    def __init__(self):
        self.model = None
        self.metadata = ModelMetadata()
        self.origin = ""
        self.saved_message: str | None = None
        self.load_message: dict | None = None
        self.fit_seconds: float | None = None
        self.directions: dict[str, str] = {}
        self.asks: dict[str, str] = {}
        self.cost_values: dict[str, float] = {}
        self.cost_groups: dict[str, str] = {}
        self.timing: dict[str, str] = {}
        self.list_number = 0
        self.answers_unsaved = False
        self.training_failed = False
        self._retrain_pending = False
        self._proposed_name: str | None = None
        self._table: object = None
        self._other_tables: dict = {}
        self._list_table: object = None

    # --- the current list -----------------------------------------------------------------
    def known_key(self, column) -> str:
        """The key of the "known at triage?" widget of ``column``: new for each list."""
        return f"w_train_known_v{self.list_number}::{column}"

    def make_current(self, model, metadata, origin: str) -> None:
        """Make a list the one the page shows and the later pages use; its metadata (a model
        file's dict or a :class:`~psl_triage.model_file.metadata.ModelMetadata`) is parsed here, once."""
        self.model = model
        self.metadata = ModelMetadata.coerce(metadata)
        self.origin = origin
        self.saved_message = self.load_message = None
        self.fit_seconds = None
        self.training_failed = False
        self._list_table = None
        self._proposed_name = self.default_name()
        self.list_number += 1
        self.answers_unsaved = False

    def default_name(self) -> str:
        """The name the save field proposes for the current list."""
        return self.metadata.default_name

    def take_proposed_name(self) -> str | None:
        """The name of a list that became current since the last call (for the save field), or None."""
        name, self._proposed_name = self._proposed_name, None
        return name

    # --- what clinicians know, what questions cost ------------------------------------------
    def knowledge(self) -> tuple[dict, dict]:
        """The knowledge table's choices: directions and asks per column (kept across pages)."""
        return self.directions, self.asks

    def costs(self) -> tuple[dict, dict]:
        """The cost table's choices: cost and test per column (kept across pages)."""
        return self.cost_values, self.cost_groups

    def follow_table(self, table: object, settings: Mapping | None = None) -> dict | None:
        """The page's choices belong to one table (``table``, e.g. the dataset's
        :attr:`~psl_triage.data.session.Dataset.table`): the knowledge and cost tables, and
        ``settings``, the values of the options' widgets now (key -> value). Another table
        starts afresh, one shown again gets its own choices back (a column of the same name is
        not the same question, nor is a number of stages the same choice on another table).
        Choices made before the first table is followed are that table's.

        Returns
        -------
        dict or None
            When the table changed, the settings of the table followed now (the widgets to
            set; those missing start at their defaults, all of them for a new table); None
            when it is the same table.
        """
        changed = table != self._table and self._table is not None
        settings_now = None
        if changed:
            self._other_tables[self._table] = (
                self.directions, self.asks, self.cost_values, self.cost_groups, self.timing, dict(settings or {}))
            *tables, settings_now = self._other_tables.pop(table, ({}, {}, {}, {}, {}, {}))
            self.directions, self.asks, self.cost_values, self.cost_groups, self.timing = tables
        self._table = table
        return settings_now

    def keep_knowledge(self, edited_rows: dict, names: list) -> None:
        """Keep a knowledge-table edit (Streamlit's ``edited_rows``; row i is column ``names[i]``)."""
        directions, asks = self.knowledge()
        for row, change in edited_rows.items():
            for column, texts, kept in ((DIRECTION, DIRECTIONS, directions), (ASKED, ASKS, asks)):
                if column in change:
                    kept[names[int(row)]] = {text: key for key, text in texts.items()}.get(change[column], "")

    def keep_costs(self, edited_rows: dict, names: list) -> None:
        """Keep a cost-table edit (Streamlit's ``edited_rows``; row i is column ``names[i]``)."""
        values, groups = self.costs()
        for row, change in edited_rows.items():
            for column, kept in ((COST, values), (GROUP, groups)):
                if column in change:
                    kept[names[int(row)]] = change[column]

    # --- options and the run --------------------------------------------------------------
    def options(self, prepared, choices: dict) -> TrainingOptions:
        """The learner's options from the widgets' values.

        ``choices`` holds every name of :data:`OPTION_NAMES` plus ``score_preset``,
        ``custom_scores`` and ``cost_unit``. Raises :class:`PSLError` naming a bad choice.
        """
        costs, groups = costs_from_rows(cost_rows(prepared.columns, *self.costs()))
        monotone, required, forbidden = knowledge_from_rows(
            knowledge_rows(prepared.columns, *self.knowledge()),
            {name: ORDERED if info.levels else info.kind for name, info in prepared.columns.items()},
        )
        preset = choices["score_preset"]
        score_set = parse_score_set(choices["custom_scores"]) if preset == "custom" else SCORE_SET_PRESETS[preset]
        given = {name: choices[name] for name in OPTION_NAMES}
        for name in ("prior_strength", "test_fraction", "cost_ratio", "cost_weight"):
            given[name] = float(given[name])
        for name in ("max_feature_uses", "min_support", "seed"):
            given[name] = int(given[name])
        given["max_stages"] = None if given["max_stages"] is None else int(given["max_stages"])
        given["group_categories"] = bool(given["group_categories"])
        return TrainingOptions(
            **given, score_set=score_set, question_costs=costs, cost_groups=groups,
            cost_unit=check_unit(choices["cost_unit"]), monotone=monotone, required=required, forbidden=forbidden,
        )

    def run(self, dataset: DatasetSession, choices: dict, progress: Callable[[int, int], None] | None = None,
            waiting: Callable | None = None) -> float:
        """The Train button: the options from the widgets' values (:meth:`options`), then
        :meth:`train`; the seconds it took. When either raises (an option refused, a search that
        fails, a rerun), the list from before stays current and :attr:`training_failed` says so
        until a list is made current."""
        self.training_failed = True
        return self.train(dataset, self.options(dataset.prepared, choices), progress, waiting)

    def train(self, dataset: DatasetSession, options: TrainingOptions,
              progress: Callable[[int, int], None] | None = None, waiting: Callable | None = None) -> float:
        """Train on the data page's prepared data and make the list current; the seconds the fit
        took (without the time it waited for another session's run).

        One training runs at a time in the app (:func:`psl_triage.training.runs.one_run_at_a_time`);
        ``waiting(run before it, seconds waited)`` is called while it waits. A training that
        would run longer than the server allows is refused before it waits or starts, with
        what to change (:func:`check_training_time`).
        """
        active, data_name = dataset.active, dataset.active.name
        roles = roles_record(active.column_roles, active.column_types)
        check_training_time(dataset.prepared.X, options)
        with one_run_at_a_time("training", waiting) as run:
            start = time.perf_counter()

            def reported(stage: int, n_stages: int) -> None:
                run.progress(stage, n_stages)
                if progress is not None:
                    progress(stage, n_stages)

            try:
                # Looked up on the package at call time: a test replaces it there.
                model, metadata = fit.train_list(dataset.prepared, data_name, options, progress=reported,
                                                      column_roles=roles)
            except RequiredColumnError as exc:  # in the page's words: its option and choice, not the parameters
                raise PSLError(editor_words.REQUIRED_WITHOUT_QUESTION.format(
                    column=exc.column, min_support=exc.min_support, option=words.OPTION_LABELS["min_support"],
                    asked=ASKS[""])) from exc
            seconds = time.perf_counter() - start
        self.make_current(model, metadata, words.trained_origin(data_name, metadata, options))
        self.metadata = replace(self.metadata, known_at_triage=list_answers(model, self.timing))
        self.fit_seconds = seconds
        self._list_table = active.table
        return seconds

    def other_table(self, dataset: DatasetSession | None) -> str | None:
        """Why the current list and its measures are not the loaded table's, as a code of
        :func:`psl_triage.data.list_data.list_table_mismatch` (another outcome, columns it asks
        about missing, other rows), or None when they are (or nothing is loaded to compare).
        Data not prepared yet are another table's when the list was trained here on another
        load (``"data"``). The one place the Train page asks; Triage, Calibration and Intervals
        use the list as it is, whatever is loaded."""
        if self.model is None or dataset is None:
            return None
        if dataset.prepared is None:
            return None if self._list_table in (None, dataset.active.table) else "data"
        return list_table_mismatch(self.model, self.metadata, dataset.prepared)

    def train_on_loaded(self) -> None:
        """on_click of "train on this table": the next run of the page trains with the options
        on the form (:meth:`take_retrain`)."""
        self._retrain_pending = True

    # --- known at triage ----------------------------------------------------------------------
    def timing_status(self) -> TimingStatus | None:
        """Whether the researcher confirmed the current list's questions are known at triage
        (:func:`psl_triage.training.known_at_triage.timing_status`); None without a list."""
        return None if self.model is None else timing_status(self.model, self.metadata)

    def mark_timing(self, column: str, answer: str | None) -> None:
        """Keep the researcher's answer for a question of the current list: known at triage,
        recorded later, or None (not answered). A question recorded later is never asked again
        (the knowledge table's "never", the ``forbidden`` constraint); taking that answer back
        lets it be asked when it helps again. The list's metadata carries the answers of its
        questions, so a save (or download) keeps them."""
        before = self.timing.get(column)
        if answer is None:
            self.timing.pop(column, None)
        else:
            self.timing[column] = answer
        if answer == LATER:
            self.asks[column] = "never"
        elif before == LATER and self.asks.get(column) == "never":
            self.asks.pop(column)
        answers = {**(self.metadata.known_at_triage or {}), column: answer}
        self.metadata = replace(self.metadata, known_at_triage=list_answers(self.model, answers))
        self.answers_unsaved = True

    def can_train_without(self, columns, dataset: DatasetSession | None) -> bool:
        """Whether the list can be trained again without ``columns`` here: they are columns of
        the data page's prepared data, which is the list's table."""
        return self.other_table(dataset) is None and _columns_of(dataset, columns)

    def train_without_later(self, also: tuple[str, ...] = ()) -> None:
        """on_click of "train again without" the questions recorded later: the next run of the
        page trains with the options on the form, the knowledge table holding them as "never"
        (:meth:`take_retrain`). ``also``: more columns recorded later, set so here (the other
        columns of their time point, :meth:`time_point_siblings`)."""
        for column in also:
            self.timing[column] = LATER
            self.asks[column] = "never"
        self._retrain_pending = True

    def time_point_siblings(self, later, dataset: DatasetSession | None) -> dict[str, tuple[str, ...]]:
        """The other columns of the prepared data recorded at the time point of a column marked
        recorded later (:func:`psl_triage.training.known_at_triage.same_time_point`), by prefix; empty
        when the list cannot be trained again here (:meth:`can_train_without`)."""
        if not self.can_train_without(later, dataset):
            return {}
        return same_time_point(later, list(map(str, dataset.prepared.X.columns)))

    # --- too good to be true ----------------------------------------------------------------
    def too_good(self) -> TooGood | None:
        """The current list's too-good-to-be-true warning, if its metadata records one."""
        return recorded_warning(self.metadata)

    def can_retrain_without(self, warning: TooGood, dataset: DatasetSession | None) -> bool:
        """Whether the list can be trained again without its suspect questions here
        (:meth:`can_train_without`): on another table the page offers to train on that one
        instead, and "again without" would train a list on rows the warning never saw."""
        return self.can_train_without(warning.questions, dataset)

    def retrain_without(self, dataset: DatasetSession, questions: tuple[str, ...], reasons: str) -> None:
        """Take the questions out of the data page's choices as leaks and prepare the data again
        (:meth:`psl_triage.data.session.DatasetSession.take_out`); the next run of the page
        trains with the same options (:meth:`take_retrain`), unless the data cannot be prepared
        (the page then says why, as the data page does)."""
        dataset.take_out(questions, words.too_good_evidence(reasons))
        dataset.refresh()
        if dataset.prepared is not None:
            self._retrain_pending = True

    def take_retrain(self) -> bool:
        """Whether "retrain without" asked for a run (asked once)."""
        pending, self._retrain_pending = self._retrain_pending, False
        return pending

    # --- files --------------------------------------------------------------------------------
    def load_upload(self, data: bytes, filename: str) -> bool:
        """Make an uploaded model file the current list; False, with an error message, when
        it is not a valid model file or reading it failed unexpectedly (logged in full). A list
        whose file names none (a download of a list not saved) takes the file's name."""
        model = self._read(lambda: read_model_upload(data, filename), filename, words.load_failed(filename))
        if model is None:
            return False
        metadata = ModelMetadata.coerce(getattr(model, "metadata_", None)).named_after(filename)
        self.make_current(model, metadata, words.loaded_origin(filename))
        loaded = words.loaded(filename, model.n_stages_ - 1)
        self.load_message = {"kind": "info", "text": loaded}
        self._say_if_unchecked(model, f"{loaded} ")
        return True

    def forget_load_message(self) -> None:
        """The uploader was emptied: the last upload's message goes."""
        self.load_message = None

    def open_stored(self, path, label: str) -> bool:
        """Make a list of the model store current; False, with an error message, when it could
        not be read. Called from the open button's callback, before the page draws its widgets,
        so the save field can take the opened list's name."""
        model = self._read(lambda: load_model(path), label, words.open_failed(label))
        if model is None:
            return False
        self.make_current(model, model.metadata_, words.opened_origin(label))
        self._say_if_unchecked(model)
        return True

    def _say_if_unchecked(self, model, before: str = "") -> None:
        """A list read from a model file of version 1: the load message says that its risks could
        not be checked against their counts, and how to have them checked."""
        if not getattr(model, "probabilities_checked_", True):
            self.load_message = {"kind": "warning", "text": before + store_words.RISKS_NOT_CHECKED}

    def _read(self, read, name: str, failed: str):
        """``read()``'s list, or None with the load message saying why (unexpected errors logged)."""
        self.load_message = None
        try:
            return read()
        except PSLError as exc:
            self.load_message = {"kind": "error", "text": str(exc)}
        except Exception:  # noqa: BLE001 - a user's file must never crash the page; the log has the details
            logger.exception("unexpected error while reading %s", name)
            self.load_message = {"kind": "error", "text": failed}
        return None

    def save(self, name: str, save=save_model) -> None:
        """Save the current list to the model store as the next version of ``name``, through
        ``save`` (the store's :func:`~psl_triage.model_file.store.save_model`, or on a shared
        ward one that checks the user's role as it writes and records the save:
        :func:`psl_triage.ward.approval.saver`).

        The last save's message goes first: a save that fails (its error shown by the page)
        does not leave the previous "Saved" beside it."""
        self.saved_message = None
        stored = save(self.model, name, self.metadata)
        self.metadata = self.metadata.saved_as(stored)
        self.saved_message = words.saved(stored)
        self.answers_unsaved = False


def check_training_time(X, options, environ=os.environ, slowdown=None) -> TrainingEstimate:
    """The training's estimate (:func:`training_estimate`) at the machine's present load, or a
    PSLError saying how long it would take, the server's limit (:func:`max_training_minutes`)
    and what to change, when it would take longer: checked before the training waits for the
    run lock or starts. A training that could come near the limit
    (:data:`~psl_triage.training.runs.SLOWDOWN_CHECK_SHARE`) is first timed on a sample of the
    table, ``slowdown(X, rows)`` (default :func:`~psl_triage.training.fit.training_slowdown`), so that a busy machine's
    estimate is as long as its training will be."""
    estimate = training_estimate(X, options)
    limit_s = 60 * max_training_minutes(environ.get(MAX_TRAINING_ENV))
    if estimate.seconds > SLOWDOWN_CHECK_SHARE * limit_s:
        estimate = estimate.slowed((slowdown or fit.training_slowdown)(X, estimate.rows))
    if estimate.seconds > limit_s:
        raise PSLError(words.training_too_long(estimate, limit_s / 60, MAX_TRAINING_ENV,
                                               estimate.stages_within(limit_s)))
    return estimate

def _columns_of(dataset: DatasetSession | None, columns) -> bool:
    """Whether ``columns`` are all columns of the data page's prepared data."""
    prepared = None if dataset is None else dataset.prepared
    return prepared is not None and set(columns) <= set(map(str, prepared.X.columns))
