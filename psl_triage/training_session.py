"""The Train page's state machine without Streamlit: options, the run, the current list.

A :class:`TrainingSession` reads and writes a session-state mapping (``st.session_state``
on the page, a plain dict in tests) through the keys of :mod:`psl_triage.state_keys`:

- the current list and its metadata (:data:`~psl_triage.state_keys.TRAINED_MODEL`,
  :data:`~psl_triage.state_keys.TRAINED_METADATA`: a :class:`~psl_triage.metadata.ModelMetadata`
  parsed once, when the list becomes current), the contract with the later pages, with
  where it comes from (:data:`~psl_triage.state_keys.TRAIN_ORIGIN`);
- what the user knows and what questions cost, edited in two tables
  (:meth:`keep_knowledge`, :meth:`keep_costs`), and the widgets' values turned into
  :class:`~psl_triage.training.TrainingOptions` (:meth:`options`);
- the run (:meth:`train`), the too-good-to-be-true warning and "retrain without"
  (:meth:`too_good`, :meth:`retrain_without`), a model file loaded or a saved list opened
  (:meth:`load_upload`, :meth:`open_stored`) and a save (:meth:`save`).

The session holds no state of its own, so other pages that set the current list (Validate's
recalibrated list) and the page's tests that set the keys directly stay in step with it. The
data to train on are the data page's session's (:data:`~psl_triage.state_keys.DATASET`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, MutableMapping
from typing import Any

from psl_core.errors import PSLError, RequiredColumnError
from psl_triage import training
from psl_triage.costs import COST, GROUP, check_unit, cost_rows, costs_from_rows
from psl_triage.knowledge import ASKED, ASKS, DIRECTION, DIRECTIONS, knowledge_from_rows, knowledge_rows
from psl_triage.metadata import ModelMetadata
from psl_triage.roles import roles_record
from psl_triage.runs import one_run_at_a_time
from psl_triage.state_keys import (
    DATASET,
    TRAIN_ASKS,
    TRAIN_COST_GROUPS,
    TRAIN_COST_VALUES,
    TRAIN_DIRECTIONS,
    TRAIN_LOAD_MESSAGE,
    TRAIN_MODEL_NAME,
    TRAIN_ORIGIN,
    TRAIN_RETRAIN_PENDING,
    TRAIN_SAVED,
    TRAINED_METADATA,
    TRAINED_MODEL,
)
from psl_triage.store import load_model, save_model
from psl_triage.too_good import TooGood, recorded_warning
from psl_triage.training import SCORE_SET_PRESETS, TrainingOptions, parse_score_set, read_model_upload
from psl_triage.training.options import LEARNER_OPTIONS
from psl_triage.words import editors as editor_words
from psl_triage.words import train as words

FROM_TABLES = ("question_costs", "cost_groups", "monotone", "required", "forbidden")
"""Learner options the page's two tables give (what questions cost, what clinicians know)."""

OPTION_NAMES = (
    *(name for name in LEARNER_OPTIONS if name not in (*FROM_TABLES, "score_set")), "test_fraction", "seed", "cost_ratio",
)
"""The options the page's widgets give as they are (``w_train_<name>``); the score set, the
costs' unit and the two tables are read by :meth:`TrainingSession.options`."""

logger = logging.getLogger("psl_triage")  # the app's log (ui.logger)


class TrainingSession:
    """The Train page's state, kept in a session-state mapping.

    Parameters
    ----------
    state : MutableMapping
        ``st.session_state``, ``AppTest.session_state`` or a dict.
    """

    def __init__(self, state: MutableMapping[str, Any]):
        self.state = state

    # --- the data (the data page's DatasetSession) -------------------------------------------
    @property
    def dataset(self):
        """The data page's :class:`~psl_triage.dataset_session.DatasetSession`, or None."""
        return DATASET.get(self.state)

    @property
    def prepared(self):
        """:class:`psl_triage.data.PreparedData` to train on, or None."""
        return None if self.dataset is None else self.dataset.prepared

    @property
    def prepare_error(self) -> str | None:
        """Why there are no prepared data, when the data page said."""
        return None if self.dataset is None else self.dataset.prepare_error

    @property
    def data_name(self) -> str:
        return self.dataset.active.name if self.dataset is not None else "the data"

    # --- the current list -----------------------------------------------------------------
    @property
    def model(self):
        """The current list (trained, loaded or opened), or None."""
        return TRAINED_MODEL.get(self.state)

    @property
    def metadata(self) -> ModelMetadata:
        """The current list's metadata (empty without a list), parsed when it became current."""
        return TRAINED_METADATA.get(self.state) or ModelMetadata()

    @property
    def origin(self) -> str:
        return TRAIN_ORIGIN.get(self.state) or ""

    @property
    def saved_message(self) -> str | None:
        return TRAIN_SAVED.get(self.state)

    @property
    def load_message(self) -> dict | None:
        """The last upload's outcome: ``{"kind": "error" | "info", "text": ...}``."""
        return TRAIN_LOAD_MESSAGE.get(self.state)

    def make_current(self, model, metadata, origin: str) -> None:
        """Make a list the one the page shows and the later pages use; its metadata (a model
        file's dict or a :class:`~psl_triage.metadata.ModelMetadata`) is parsed here, once."""
        TRAINED_MODEL.put(self.state, model)
        TRAINED_METADATA.put(self.state, ModelMetadata.coerce(metadata))
        TRAIN_ORIGIN.put(self.state, origin)
        TRAIN_SAVED.put(self.state, None)
        TRAIN_LOAD_MESSAGE.put(self.state, None)
        TRAIN_MODEL_NAME.put(self.state, self.default_name())

    def default_name(self) -> str:
        """The name the save field proposes for the current list."""
        return self.metadata.default_name

    # --- what clinicians know, what questions cost ------------------------------------------
    def knowledge(self) -> tuple[dict, dict]:
        """The knowledge table's choices: directions and asks per column (kept across pages)."""
        return TRAIN_DIRECTIONS.setdefault(self.state, dict), TRAIN_ASKS.setdefault(self.state, dict)

    def costs(self) -> tuple[dict, dict]:
        """The cost table's choices: cost and test per column (kept across pages)."""
        return TRAIN_COST_VALUES.setdefault(self.state, dict), TRAIN_COST_GROUPS.setdefault(self.state, dict)

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
            {name: info.kind for name, info in prepared.columns.items()},
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

    def train(self, options: TrainingOptions, progress: Callable[[int, int], None] | None = None) -> float:
        """Train on the prepared data and make the list current; the seconds it took.

        One training runs at a time in the app (:func:`psl_triage.runs.one_run_at_a_time`).
        """
        prepared, data_name = self.prepared, self.data_name
        active = self.dataset.active if self.dataset is not None else None
        roles = roles_record(active.column_roles, active.column_types) if active is not None else {}
        start = time.perf_counter()
        with one_run_at_a_time():
            try:
                # Looked up on the package at call time: a test replaces it there.
                model, metadata = training.train_list(prepared, data_name, options, progress=progress, column_roles=roles)
            except RequiredColumnError as exc:  # in the page's words: its option and choice, not the parameters
                raise PSLError(editor_words.REQUIRED_WITHOUT_QUESTION.format(
                    column=exc.column, min_support=exc.min_support, option=words.OPTION_LABELS["min_support"],
                    asked=ASKS[""])) from exc
        seconds = time.perf_counter() - start
        self.make_current(model, metadata, words.trained_origin(data_name, metadata, options))
        return seconds

    # --- too good to be true ----------------------------------------------------------------
    def too_good(self) -> TooGood | None:
        """The current list's too-good-to-be-true warning, if its metadata records one."""
        return recorded_warning(self.metadata)

    def can_retrain_without(self, warning: TooGood) -> bool:
        """Whether the suspect questions are columns of the data page's prepared data (so they
        can go)."""
        prepared = self.prepared
        return (prepared is not None
                and set(warning.questions) <= set(map(str, prepared.X.columns)))

    def retrain_without(self, questions: tuple[str, ...], reasons: str) -> None:
        """Take the questions out of the data page's choices as leaks and prepare the data again
        (:meth:`psl_triage.dataset_session.DatasetSession.take_out`); the next run of the page
        trains with the same options (:meth:`take_retrain`), unless the data cannot be prepared
        (the page then says why, as the data page does)."""
        dataset = self.dataset
        dataset.take_out(questions, words.too_good_evidence(reasons))
        dataset.refresh()
        if dataset.prepared is not None:
            TRAIN_RETRAIN_PENDING.put(self.state, True)

    def take_retrain(self) -> bool:
        """Whether "retrain without" asked for a run (asked once)."""
        return bool(TRAIN_RETRAIN_PENDING.pop(self.state))

    # --- files --------------------------------------------------------------------------------
    def load_upload(self, data: bytes, filename: str) -> bool:
        """Make an uploaded model file the current list; False, with an error message, when
        it is not a valid model file or reading it failed unexpectedly (logged in full)."""
        model = self._read(lambda: read_model_upload(data, filename), filename, words.load_failed(filename))
        if model is None:
            return False
        self.make_current(model, getattr(model, "metadata_", None), words.loaded_origin(filename))
        TRAIN_LOAD_MESSAGE.put(self.state, {"kind": "info", "text": words.loaded(filename, model.n_stages_ - 1)})
        return True

    def forget_load_message(self) -> None:
        """The uploader was emptied: the last upload's message goes."""
        TRAIN_LOAD_MESSAGE.put(self.state, None)

    def open_stored(self, path, label: str) -> bool:
        """Make a list of the model store current; False, with an error message, when it could
        not be read. Called from the open button's callback, before the page draws its widgets,
        so the save field can take the opened list's name."""
        model = self._read(lambda: load_model(path), label, words.open_failed(label))
        if model is None:
            return False
        self.make_current(model, model.metadata_, words.opened_origin(label))
        return True

    def _read(self, read, name: str, failed: str):
        """``read()``'s list, or None with the load message saying why (unexpected errors logged)."""
        TRAIN_LOAD_MESSAGE.put(self.state, None)
        try:
            return read()
        except PSLError as exc:
            TRAIN_LOAD_MESSAGE.put(self.state, {"kind": "error", "text": str(exc)})
        except Exception:  # noqa: BLE001 - a user's file must never crash the page; the log has the details
            logger.exception("unexpected error while reading %s", name)
            TRAIN_LOAD_MESSAGE.put(self.state, {"kind": "error", "text": failed})
        return None

    def save(self, name: str) -> None:
        """Save the current list to the model store as the next version of ``name``."""
        stored = save_model(self.model, name, self.metadata)
        TRAINED_METADATA.put(self.state, self.metadata.saved_as(stored))
        TRAIN_SAVED.put(self.state, words.saved(stored))
