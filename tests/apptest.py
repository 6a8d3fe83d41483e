"""Helpers of the tests that drive the pages (imported as ``tests.apptest``): the repository's
root, a list made current as the Train page makes it, and a page opened with a list and data."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from psl_triage.model_file.metadata import ModelMetadata
from psl_triage.training.session import TrainingSession
from tests.paths import ROOT
from ui.state_keys import DATASET, TRAINING


def training(at) -> TrainingSession:
    """The app's training session in an AppTest's (or a dict's) session state, made on first use."""
    return TRAINING.setdefault(at.session_state if isinstance(at, AppTest) else at, TrainingSession)


def put_list(at, model, metadata, origin: str = "") -> TrainingSession:
    """Make ``model`` the current list, as training or loading it on the Train page does;
    ``metadata``: a :class:`~psl_triage.model_file.metadata.ModelMetadata` or a model file's dict."""
    session = training(at)
    session.make_current(model, ModelMetadata.coerce(metadata), origin)
    return session


def open_page(page: str, model, metadata, dataset, timeout: float = 60) -> AppTest:
    """The app on ``page`` (``"pages/…py"``) with this list current and the data page's session
    ``dataset`` (:func:`tests.tables.dataset_session`)."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=timeout)
    put_list(at, model, metadata)
    DATASET.put(at.session_state, dataset)
    return at.switch_page(page).run()
