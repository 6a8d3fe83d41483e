"""Fixtures and settings shared by every test folder (core, app, browser)."""

import os
from pathlib import Path

import pytest
from hypothesis import settings

from psl_triage.data import PreparedData, infer_column_types, prepare_training_data
from psl_triage.data.demo import load_demo
from tests.paths import ROOT

# No deadline anywhere: the first call of a numba-compiled function includes its
# compilation, which would trip Hypothesis' per-example deadline at random.
# On CI the examples are derandomized, so a red run can be replayed exactly.
settings.register_profile("dev", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


@pytest.fixture(scope="session")
def project_root() -> Path:
    """The repository root (where app.py, pages/ and datasets/ live)."""
    return ROOT


@pytest.fixture(scope="session")
def demo_csv_path(project_root: Path) -> Path:
    """The bundled demo data set the app offers on its landing page."""
    return project_root / "datasets" / "heart_cleveland.csv"


@pytest.fixture(scope="session")
def demo_prepared() -> PreparedData:
    """The bundled demo data prepared for training: the landing page's default choices
    (outcome, positive class, detected column types), rows with a missing value dropped.

    Shared by the whole run: tests read it and never change it.
    """
    df, meta = load_demo()
    types = infer_column_types(df, meta.columns)
    return prepare_training_data(df, types, meta.outcome, meta.positive_class, "drop", meta.columns)


@pytest.fixture(scope="session")
def chest_pain_data():
    """(X, y): 600 synthetic patients with a numeric (heart rate ``hr``), a binary (``sex``)
    and a categorical (chest pain type ``cp``: "1", "2", "4") column, for the bedside pages."""
    from tests.tables import chest_pain_table

    return chest_pain_table()


@pytest.fixture(scope="session", autouse=True)
def isolated_model_dir(tmp_path_factory: pytest.TempPathFactory):
    """Point PSL_MODEL_DIR at a fresh folder, so no test reads or writes ./models."""
    model_dir = tmp_path_factory.mktemp("models")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PSL_MODEL_DIR", str(model_dir))
        yield model_dir
