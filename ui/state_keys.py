"""Every ``st.session_state`` key the pages and their tests share, typed, in one place.

A page keeps one session object per job in the session state (a dataset session on Data, a
training session on Train, a triage session on Triage: see :mod:`psl_triage.data.session`,
:mod:`psl_triage.training.session`, :mod:`psl_triage.bedside.session`) and renders it. Pages and
tests name a key only through the constants here, so a key is spelled once and the type of
what it holds is declared once::

    session = DATASET.get(st.session_state)          # -> DatasetSession | None
    DATASET.put(st.session_state, DatasetSession(...))

Widget keys (strings Streamlit uses to keep a widget's value) stay with the page that draws
the widget; only the state that outlives a page's run is declared here.

Nothing here imports Streamlit: a state is any mutable mapping (``st.session_state``,
``AppTest.session_state`` or a plain dict in tests).
"""

from __future__ import annotations

from collections.abc import MutableMapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
    from psl_triage.bedside.session import TriageSession
    from psl_triage.data.session import DatasetSession
    from psl_triage.training.session import TrainingSession

T = TypeVar("T")


@dataclass(frozen=True)
class StateKey(Generic[T]):
    """One session-state key and the type of its value.

    Parameters
    ----------
    name : str
        The key in the session state.
    doc : str
        What the key holds and who writes it (shown in :func:`describe`).
    """

    name: str
    doc: str = ""

    def get(self, state: MutableMapping[str, Any], default: T | None = None) -> T | None:
        """The value, or ``default`` when the key is not set."""
        # Not state.get(): AppTest's session state has no get().
        return state[self.name] if self.name in state else default  # noqa: SIM401

    def put(self, state: MutableMapping[str, Any], value: T) -> T:
        """Store ``value`` under the key and return it."""
        state[self.name] = value
        return value

    def pop(self, state: MutableMapping[str, Any]) -> T | None:
        """Remove the key; its value, or None when it was not set."""
        if self.name in state:
            value = state[self.name]
            del state[self.name]
            return value
        return None

    def setdefault(self, state: MutableMapping[str, Any], make) -> T:
        """The value, storing ``make()`` first when the key is not set."""
        if self.name not in state:
            state[self.name] = make()
        return state[self.name]


def describe() -> dict[str, str]:
    """Every declared key -> what it holds.

    Raises
    ------
    ValueError
        When two constants declare the same key: they would share one value in the state.
    """
    keys = [value for value in globals().values() if isinstance(value, StateKey)]
    names = [key.name for key in keys]
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise ValueError(f"session-state keys declared twice: {', '.join(repeated)}")
    return {key.name: key.doc for key in keys}


# The keys. Each lane adds its own below, one constant per key, with the value's type as the
# type parameter and one sentence of ``doc``.

# --- Train ---------------------------------------------------------------------------------------
TRAINING: StateKey[TrainingSession] = StateKey(
    "training_session",
    "psl_triage.training.session.TrainingSession: the current list (trained, loaded, opened or recalibrated), "
    "its metadata and origin, and the Train page's tables (made on first use; the later pages read its list).",
)
TRAIN_MODEL_NAME: StateKey[str] = StateKey(
    "w_train_model_name", "str: the Train page's save field; a list that becomes current proposes its own name.")

# Triage (pages/2_Triage.py).
TRIAGE: StateKey[TriageSession] = StateKey(
    "triage_session", "The Triage page's TriageSession: the chosen list, its answers, stage and stops."
)

# --- Evaluation, Validate, Card (pages/5_Evaluation.py, 6_Validate.py, 7_Card.py) ----------------
EVALUATION_RESULT: StateKey[dict] = StateKey(
    "evaluation_result", 'dict: the last repeated splits, {"model", "prepared", "result": CVResult}; Card reads it.')
EVALUATION_HORIZON: StateKey[dict] = StateKey(
    "evaluation_horizon",
    'dict: a horizon list against a Cox model, {"model", "prepared", "table", "curves", "cost_ratio"}.')
VALIDATE_REPORT: StateKey[tuple] = StateKey(
    "validate_report", "tuple (model, key of table and stage, ValidationReport): the report kept while they stay.")
VALIDATE_SAVED: StateKey[dict] = StateKey(
    "validate_saved", 'dict: the recalibrated list, {"from", "model", "metadata": ModelMetadata, "after", "message", "file"}.')

DATASET: StateKey[DatasetSession] = StateKey(
    "dataset_session",
    "psl_triage.data.session.DatasetSession: the Data page's table, choices and prepared data "
    "(written by Data; the other pages read its prepared data and active table).",
)
