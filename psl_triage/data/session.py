"""The Data page's state machine without Streamlit: the loaded table and every choice about it.

A :class:`DatasetSession` holds the active dataset (the demo or an upload): the table as read
and how it was read, the column kinds and roles, the columns proposed out, the outcome with its
positive class and class names, the follow-up choice, the handling of missing values, and the
training data prepared from all of them (:attr:`DatasetSession.prepared`, recomputed by
:meth:`~DatasetSession.refresh` only when a choice changed). Switching between the demo and an
upload stashes the other one's state, so switching back loses nothing.

The Data page keeps one session in ``st.session_state`` (:data:`ui.state_keys.DATASET`)
and renders it; the other pages read the same session, never a copy of its parts: its
:attr:`~DatasetSession.prepared` data and the :attr:`~DatasetSession.active` table and choices.
Widgets are keyed by :attr:`~DatasetSession.version` (:meth:`~DatasetSession.key`): it changes
with every new dataset, so a new dataset never inherits the previous one's widget state, and its
widgets start from its stored choices.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TypeVar

import pandas as pd

from psl_core.errors import DataError
from psl_triage.data import (
    CATEGORICAL,
    DEFAULT_MISSING_HANDLING,
    IGNORE,
    MAX_CATEGORIES,
    DatasetMeta,
    LoadedTable,
    NumberFormat,
    PreparedData,
    checked_order,
    column_summary,
    explain_outcome_guess,
    guess_outcome,
    guess_positive_class,
    infer_column_types,
    load_table,
    prepare_training_data,
    relabel,
)
from psl_triage.data.event_times import event_codes
from psl_triage.data.follow_up import FollowUp, proposed_follow_up
from psl_triage.data.profile import TableProfile
from psl_triage.data.roles import ROLES, Role, propose_roles, role_labels, taken_out
from psl_triage.words import data as words
from psl_triage.words.common import CHOOSE_OUTCOME

_TABLES = itertools.count(1)
T = TypeVar("T")
PREVIEW_ROWS = 100
"""Rows of the table the Data page shows under its name."""


@dataclass(frozen=True)
class ColumnState:
    """One column of a loaded table as the Data page knows it, in one record.

    Attributes
    ----------
    kind : str
        The kind in use (:data:`psl_triage.data.KINDS`; "ignore" when the column stays out).
    role : Role or None
        The role proposed for it with its evidence (:func:`~psl_triage.data.roles.propose_roles`); None for the outcome
        and before roles are proposed.
    proposed_out : str or None
        Why it was proposed out of the list, as the page says it ("Identifier: ..."), when it
        was, whether or not the user put it back.
    revision : int
        How often the session changed its kind itself, so that its widget is drawn afresh.
    """

    kind: str
    role: Role | None = None
    proposed_out: str | None = None
    revision: int = 0


@dataclass
class Dataset:
    """One table and the user's choices about it (what switching datasets stashes).

    ``reading`` is an upload's ``bytes``, ``name``, ``delimiter`` (None for Excel) and
    ``numbers`` (:class:`~psl_triage.data.NumberFormat`), to read it again another way; None
    for the demo. ``columns``: every column's kind, proposed role with its evidence, why it was
    proposed out (identifiers, times, leaks, empty: such a column starts as "ignore" until the
    user puts it back) and revision, one :class:`ColumnState` each; the
    pages read them through :attr:`column_types`, :attr:`column_roles`, :attr:`flagged_columns`
    and :attr:`type_revisions`, and the session writes them through :meth:`record`. ``class_names``: (outcome, positive values) -> the user's names.
    ``table``: a number for this loaded table, new for each load, the same when it is shown
    again (the Train page keeps its knowledge and costs per table). ``level_orders``: the
    categorical columns the user declared ordered -> their levels in order. ``profile``: what
    the table's values say about its columns, worked out once (:class:`~psl_triage.data.profile.TableProfile`).
    """

    source: str
    name: str
    df: pd.DataFrame
    meta: DatasetMeta
    notes: list[str]
    reading: dict | None
    columns: dict[str, ColumnState]
    outcome: str | None
    outcome_guess: tuple[str | None, str]
    profile: TableProfile
    positive_class: list = field(default_factory=list)
    class_names: dict[tuple, tuple[str, str]] = field(default_factory=dict)
    follow_up: FollowUp | None = None
    missing_handling: str = DEFAULT_MISSING_HANDLING
    level_orders: dict[str, tuple[str, ...]] = field(default_factory=dict)
    table: int = field(default_factory=lambda: next(_TABLES))

    @property
    def column_types(self) -> dict[str, str]:
        """Column -> the kind in use."""
        return {name: state.kind for name, state in self.columns.items()}

    @property
    def column_roles(self) -> dict[str, Role]:
        """Column -> the role proposed with its evidence (the outcome has none)."""
        return {name: state.role for name, state in self.columns.items() if state.role is not None}

    @property
    def flagged_columns(self) -> dict[str, str]:
        """The columns proposed out -> why, as the page says it."""
        return {name: state.proposed_out for name, state in self.columns.items() if state.proposed_out is not None}

    @property
    def type_revisions(self) -> dict[str, int]:
        """Column -> how often the session changed its kind itself (columns it never changed left out)."""
        return {name: state.revision for name, state in self.columns.items() if state.revision}

    def record(self, types=None, roles=None, flagged=None, revised=()) -> None:
        """Write the columns' kinds, roles or reasons for being proposed out (each a mapping
        from column; None keeps the present ones) and count a revision for ``revised``."""
        types = self.column_types if types is None else types
        roles = self.column_roles if roles is None else roles
        flagged = self.flagged_columns if flagged is None else flagged
        revised, old = set(revised), self.columns
        self.columns = {
            name: ColumnState(kind, roles.get(name), flagged.get(name),
                              (old[name].revision if name in old else 0) + (name in revised))
            for name, kind in {**types, **{name: IGNORE for name in roles if name not in types}}.items()
        }


class DatasetSession:
    """The active dataset, the stashed one, and the training data prepared from the choices.

    Parameters
    ----------
    load_demo : callable returning (DataFrame, DatasetMeta)
        The bundled demo (the page passes a cached loader); the session starts with it.
    """

    def __init__(self, load_demo: Callable[[], tuple[pd.DataFrame, DatasetMeta]]):
        self._load_demo = load_demo
        self.version = 0
        self.stashed: dict[str, Dataset] = {}
        self.upload_token: str | None = None
        self.upload_error: str | None = None
        self.prepared: PreparedData | None = None
        self.prepare_error: str | None = None
        self._prepared_for: tuple | None = None
        self._computed: dict[str, tuple] = {}
        df, meta = load_demo()
        self.active = self._fresh("demo", meta.name, df, meta, [])

    # --- switching datasets ----------------------------------------------------------------

    def _fresh(self, source, name, df, meta, notes, reading=None) -> Dataset:
        """A freshly loaded table with the default choices, made active (a new version)."""
        profile = TableProfile(df)
        types = infer_column_types(df, meta.columns, profile.kinds)
        guess = (guess_outcome(df, types), explain_outcome_guess(df, types))
        pair = profile.follow_up_pair
        if pair is not None:
            guess = (pair[1], words.STATUS_NEXT_TO_TIME.format(time=pair[0]))
        outcome = meta.outcome if meta.outcome in df.columns else guess[0]
        columns = {name: ColumnState(kind) for name, kind in types.items()}
        self.active = Dataset(source, name, df, meta, notes, reading, columns, outcome, guess, profile)
        self._outcome_defaults()
        self.version += 1
        return self.active

    def switch_to(self, source: str) -> None:
        """Make the demo or the last good upload active, stashing the current dataset."""
        self.stashed[self.active.source] = self.active
        if source in self.stashed:
            self.active = self.stashed.pop(source)
            self.version += 1
        elif source == "demo":
            df, meta = self._load_demo()
            self._fresh("demo", meta.name, df, meta, [])

    def read_upload(self, token: str, name: str, data: Callable[[], bytes], max_bytes: int) -> None:
        """Read a new upload (``token`` names it; the same token again is not read twice). Only a
        good table replaces the active dataset; otherwise :attr:`upload_error` says why."""
        if token == self.upload_token:
            return
        self.upload_token, self.upload_error = token, None
        try:
            content = data()
            loaded = load_table(content, name, max_bytes=max_bytes)
        except DataError as exc:
            self.upload_error = str(exc)
            return
        except Exception as exc:  # noqa: BLE001 - a user's file must never crash the page
            self.upload_error = words.UNREADABLE_UPLOAD.format(name=name, error=type(exc).__name__, exc=exc)
            return
        self.stashed.pop("upload", None)
        if self.active.source == "demo":
            self.stashed["demo"] = self.active
        self._take_upload(name, content, loaded)

    def reread(self, delimiter: str | None, numbers: NumberFormat) -> None:
        """Read the active upload again with another delimiter or number format.

        Raises
        ------
        DataError
            The file cannot be read that way; the active dataset stays as it was.
        """
        reading = self.active.reading
        loaded = load_table(reading["bytes"], reading["name"], delimiter=delimiter, numbers=numbers)
        self._take_upload(reading["name"], reading["bytes"], loaded)

    def _take_upload(self, name: str, content: bytes, loaded: LoadedTable) -> None:
        reading = {"bytes": content, "name": name, "delimiter": loaded.delimiter, "numbers": loaded.numbers,
                   "columns": loaded.columns}
        self._fresh("upload", name, loaded.frame, DatasetMeta(name=name), loaded.notes, reading)

    # --- choices -----------------------------------------------------------------------------

    def key(self, name: str, *parts: object) -> str:
        """The key of a widget for a choice about the active dataset, e.g. ``w_type_v3::age``."""
        return "::".join([f"{name}_v{self.version}", *map(str, parts)])

    def type_key(self, name: str) -> str:
        """The key of a column's kind widget: new for each outcome and each time the session
        changed the kind itself (put back, proposed out again)."""
        revision = self.active.type_revisions.get(name)
        return self.key("w_type", self.active.outcome, name, *([f"r{revision}"] if revision else []))

    def choose_outcome(self, outcome: str | None) -> None:
        if outcome != self.active.outcome:
            self.active.outcome = outcome
            self._outcome_defaults()

    def _outcome_defaults(self) -> None:
        data = self.active
        data.positive_class = self._default_positive_class()
        data.follow_up = None if data.outcome is None else proposed_follow_up(
            data.df, data.outcome, data.positive_class, data.profile)
        self.flag_columns()

    def _default_positive_class(self) -> list:
        data = self.active
        if data.outcome is None:
            return []
        if data.outcome == data.meta.outcome and data.meta.positive_class is not None:
            return [data.meta.positive_class]
        guess = guess_positive_class(data.df[data.outcome])
        return [] if guess is None else [guess]

    def choose_positive(self, values: list) -> None:
        """The outcome's positive values; for an outcome of more than two values whose follow-up
        time shows only once its event is known (a status coded 1, 2, 3), the pair is proposed then."""
        data = self.active
        if list(values) != data.positive_class:
            data.positive_class = list(values)
            if (data.follow_up is None and data.outcome is not None and data.positive_class
                    and event_codes(data.df[data.outcome]) is None):  # a 0/1 status had its pair proposed already
                data.follow_up = proposed_follow_up(data.df, data.outcome, data.positive_class, data.profile)
            self.flag_columns(revise=True)

    def flag_columns(self, revise: bool = False) -> None:
        """Propose column roles and set every column proposed out (an identifier, a time, a
        leak, nothing to learn from) to "ignore", with the evidence.

        Columns flagged before and still ignored get their detected kind back; columns flagged
        before that the user kept stay in use. ``revise``: the kind widgets of this outcome are
        already drawn, so a column whose kind changes gets a fresh one (:meth:`type_key`).
        """
        data = self.active
        detected = infer_column_types(data.df, data.meta.columns, data.profile.kinds)
        before = dict(data.column_types)
        types = dict(before)
        kept = {name for name in data.flagged_columns if types.get(name, IGNORE) != IGNORE}
        for name in data.flagged_columns:
            if types.get(name) == IGNORE:
                types[name] = detected[name]
        roles = propose_roles(data.df, types, data.outcome, data.positive_class or None, data.profile)
        flagged = {name: reason for name, reason in taken_out(roles).items() if types.get(name, IGNORE) != IGNORE}
        types.update(dict.fromkeys(set(flagged) - kept, IGNORE))
        revised = [name for name in types if types[name] != before.get(name)] if revise else []
        data.record(types, roles, flagged, revised)

    def put_back(self, name: str) -> None:
        """Use a column proposed out as a question after all, with its detected kind."""
        data = self.active
        kind = infer_column_types(data.df[[name]], data.meta.columns, data.profile.kinds)[name]
        data.record({**data.column_types, name: kind}, revised=[name])

    def take_out(self, questions: Iterable[str], evidence: str) -> None:
        """Set columns to "ignore" as leaks with ``evidence`` (a list too good to be true with them)."""
        data, questions = self.active, list(questions)
        data.record({**data.column_types, **dict.fromkeys(questions, IGNORE)},
                    {**data.column_roles, **{name: Role("leak", evidence) for name in questions}},
                    {**data.flagged_columns, **{name: f"{ROLES['leak']}: {evidence}" for name in questions}})

    def set_types(self, types: dict[str, str]) -> None:
        self.active.record(dict(types))

    def relabel(self, typed: dict) -> None:
        """Record the user's label and unit of columns (:func:`psl_triage.data.relabel`)."""
        self.active.meta = relabel(self.active.meta, typed)

    def chosen_class_names(self) -> tuple[str, str] | None:
        """The user's names of the two classes for the current outcome and positive class."""
        return self.active.class_names.get(self._class_names_key())

    def name_classes(self, names: tuple[str, str]) -> None:
        self.active.class_names = {**self.active.class_names, self._class_names_key(): tuple(names)}

    def _class_names_key(self) -> tuple:
        return (self.active.outcome, tuple(map(str, self.active.positive_class)))

    def set_follow_up(self, follow_up: FollowUp | None) -> None:
        self.active.follow_up = follow_up

    def set_missing_handling(self, handling: str) -> None:
        self.active.missing_handling = handling

    # --- ordered categories ----------------------------------------------------------------

    def orderable(self) -> list:
        """The categorical columns in use that may be declared ordered (at most
        :data:`MAX_CATEGORIES` levels, as a list can use)."""
        data = self.active
        return [name for name in self.in_use() if data.column_types.get(name) == CATEGORICAL
                and 2 <= len(data.profile.levels(name)) <= MAX_CATEGORIES]

    def level_order(self, name) -> tuple[str, ...] | None:
        """The order of a column declared ordered, None for one that is not (or whose levels
        or type changed since)."""
        data = self.active
        if data.column_types.get(name) != CATEGORICAL:
            return None
        return checked_order(data.profile.levels(name), data.level_orders.get(name))

    def levels(self, name) -> tuple[str, ...]:
        """A column's levels in its order if it has one; else the order its values show
        (:meth:`order_proposals`), else by name, as an unordered column's are listed: the
        order a column starts with when the user declares it ordered."""
        profile = self.active.profile
        return self.level_order(name) or profile.proposed_order(name) or profile.levels(name)

    def set_order(self, name, order: Iterable[str] | None) -> None:
        """Declare a categorical column ordered with ``order`` (its levels, lowest first), or
        unordered with None."""
        orders = {key: value for key, value in self.active.level_orders.items() if key != name}
        if order is not None:
            orders[name] = tuple(str(level) for level in order)
        self.active.level_orders = orders

    def set_orders(self, names, order: Iterable[str]) -> None:
        """Declare each of the columns ``names`` ordered with the one ``order``."""
        for name in names:
            self.set_order(name, order)

    def order_proposals(self) -> dict:
        """Column -> the order its values show (:func:`psl_triage.data.propose_level_order`),
        for the orderable columns not declared ordered yet: the page offers each, one click."""
        proposals = {name: self.active.profile.proposed_order(name) for name in self.orderable() if self.level_order(name) is None}
        return {name: order for name, order in proposals.items() if order is not None}

    def grouped_order_proposals(self) -> dict:
        """The order proposals by order: each order -> the columns whose values show it, so a
        table of sixty columns of the same levels gets one proposal, not sixty."""
        grouped: dict = {}
        for name, order in self.order_proposals().items():
            grouped.setdefault(order, []).append(name)
        return grouped

    def orders(self) -> dict:
        """The columns in use declared ordered -> their order."""
        return {name: order for name in self.in_use() if (order := self.level_order(name)) is not None}

    # --- what the choices give ---------------------------------------------------------------

    def features(self) -> list:
        """Every column but the outcome and the follow-up time."""
        data = self.active
        time = data.follow_up.time if data.follow_up is not None else None
        return [name for name in data.df.columns if name not in (data.outcome, time)]

    def in_use(self) -> list:
        """The features whose kind is not "ignore"."""
        return [name for name in self.features() if self.active.column_types.get(name, IGNORE) != IGNORE]

    def proposed_out(self) -> list:
        """The flagged features the user has not put back."""
        features = set(self.features())
        types = self.active.column_types
        return [name for name in self.active.flagged_columns if name in features and types.get(name) == IGNORE]

    def refresh(self) -> PreparedData | None:
        """Prepare the training data again when the dataset or a choice changed since last time;
        :attr:`prepared`, or None with the reason in :attr:`prepare_error`."""
        data = self.active
        orders = self.orders()
        choices = (
            self.version, dict(data.column_types), data.outcome, list(data.positive_class),
            self.chosen_class_names(), data.missing_handling,
            [(name, spec.label, spec.unit) for name, spec in data.meta.columns.items()], data.follow_up, orders,
        )
        if self._prepared_for == choices:
            return self.prepared
        self._prepared_for = choices
        self.prepared, self.prepare_error = None, None
        if data.outcome is None:
            self.prepare_error = CHOOSE_OUTCOME
            return None
        try:
            self.prepared = prepare_training_data(
                data.df, data.column_types, data.outcome, data.positive_class, data.missing_handling,
                data.meta.columns, self.chosen_class_names(), data.follow_up, orders,
            )
        except DataError as exc:
            self.prepare_error = str(exc)
        except Exception as exc:  # noqa: BLE001 - show, never a traceback; psl_core's tests keep this branch dead
            self.prepare_error = words.UNEXPECTED_PREPARING.format(error=type(exc).__name__, exc=exc)
        return self.prepared

    def awaiting_choice(self) -> bool:
        """Whether the data are not ready only because a choice is still the user's to make (the
        outcome, or the positive values of an outcome with more than two): the page asks for
        it, it does not refuse the table."""
        data = self.active
        if self.prepared is not None:
            return False
        if data.outcome is None:
            return True
        return not data.positive_class and data.profile.n_classes(data.outcome) > 2

    def preview(self, n_rows: int = PREVIEW_ROWS) -> pd.DataFrame:
        """The first rows of the active table, gaps left missing in every column (numbers keep
        their type): the page shows each gap alike (:data:`psl_triage.words.data.GAP_SHOWN_AS`)."""
        return self.active.df.head(n_rows)

    def column_table(self) -> pd.DataFrame:
        """The column summary with roles and units, computed once per table and choices: on a
        wide table it is costly, and the page reruns on every click."""
        data, features = self.active, self.features()
        orders = self.orders()
        key = (self.version, tuple(features), tuple(data.column_types.items()), tuple(data.flagged_columns.items()),
               tuple(data.meta.columns.items()), tuple(data.column_roles.items()), tuple(orders))
        return self._once("column_table", key, lambda: self._column_summary(features, orders))

    def _column_summary(self, features: list, orders: dict) -> pd.DataFrame:
        data = self.active
        evidence = {  # the table has a role column: its reasons need not repeat the role
            name: data.column_roles[name].evidence if name in data.column_roles else text
            for name, text in data.flagged_columns.items()
        }
        summary = column_summary(data.df[features], data.column_types, data.meta.columns, evidence)
        summary.insert(2, "role", role_labels(features, data.column_roles, data.column_types))
        units = [data.meta.columns[name].unit if name in data.meta.columns else "" for name in features]
        summary.insert(2, "unit", units)
        summary["type"] = [words.ORDERED_TYPE if name in orders else kind for name, kind in zip(features, summary["type"])]
        return summary

    def _once(self, name: str, key: tuple, compute: Callable[[], T]) -> T:
        """``compute()``, again only when ``key`` (the table's version and the choices the
        answer depends on) differs from last time: the page reruns on every click, and these
        read the whole table."""
        held = self._computed.get(name)
        if held is None or held[0] != key:
            held = self._computed[name] = (key, compute())
        return held[1]
