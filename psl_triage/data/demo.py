"""The bundled demo dataset: UCI Heart Disease, Cleveland (see datasets/heart_cleveland.md).

:func:`load_demo` returns the table with its derived outcome "Heart disease" (num > 0) and the
metadata a clinician needs to read it: labels, units, which coded columns are categories and
what their codes mean.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from psl_core.errors import DataError
from psl_triage.data import BINARY, CATEGORICAL, IGNORE, NUMERIC, ColumnSpec, DatasetMeta
from psl_triage.words import reading as words

DEMO_PATH = Path(__file__).resolve().parents[2] / "datasets" / "heart_cleveland.csv"
OUTCOME = "heart_disease"

_YES_NO = {1: "yes", 0: "no"}


def _categorical(label: str, codes: dict) -> ColumnSpec:
    """A coded column read as categories, with what each code means."""
    return ColumnSpec(label, "", CATEGORICAL, codes)


HEART_COLUMNS: dict[str, ColumnSpec] = {
    "age": ColumnSpec("Age", "years", NUMERIC),
    "sex": ColumnSpec("Sex", "", BINARY, {1: "male", 0: "female"}, binary_one=1),
    "cp": _categorical("Chest pain type", {1: "typical angina", 2: "atypical angina", 3: "non-anginal pain", 4: "asymptomatic"}),
    "trestbps": ColumnSpec("Resting blood pressure", "mm Hg", NUMERIC, description="On admission."),
    "chol": ColumnSpec("Serum cholesterol", "mg/dl", NUMERIC),
    "fbs": ColumnSpec("Fasting blood sugar > 120 mg/dl", "", BINARY, _YES_NO, binary_one=1),
    "restecg": _categorical("Resting ECG", {0: "normal", 1: "ST-T abnormality", 2: "left ventricular hypertrophy"}),
    "thalach": ColumnSpec("Max heart rate", "bpm", NUMERIC, description="Maximum heart rate achieved in the exercise test."),
    "exang": ColumnSpec("Exercise-induced angina", "", BINARY, _YES_NO, binary_one=1),
    "oldpeak": ColumnSpec("ST depression", "mm", NUMERIC, description="ST depression induced by exercise relative to rest."),
    "slope": _categorical("Slope of peak exercise ST segment", {1: "upsloping", 2: "flat", 3: "downsloping"}),
    "ca": ColumnSpec("Major vessels coloured by fluoroscopy", "vessels", NUMERIC, description="0 to 3."),
    "thal": _categorical("Thallium stress test", {3: "normal", 6: "fixed defect", 7: "reversible defect"}),
    "num": ColumnSpec(
        "Diagnosis code (0-4)",
        "",
        IGNORE,
        description="The raw angiographic diagnosis the outcome is derived from; ignored so a "
        "model cannot read the answer from it.",
    ),
    OUTCOME: ColumnSpec(
        "Heart disease",
        "",
        BINARY,
        {1: "heart disease", 0: "no heart disease"},
        binary_one=1,
        description="Coronary heart disease: more than 50 % diameter narrowing of a major "
        "vessel on angiography (num > 0).",
    ),
}

HEART_META = DatasetMeta(
    name="Heart disease (UCI, Cleveland)",
    columns=HEART_COLUMNS,
    outcome=OUTCOME,
    positive_class=1,
    description="303 patients referred for coronary angiography at the Cleveland Clinic; "
    "13 clinical measurements and the diagnosis. 45.9 % have heart disease.",
    source="UCI Heart Disease, Cleveland Clinic Foundation (Detrano et al. 1989), CC BY 4.0.",
)


def load_demo() -> tuple[pd.DataFrame, DatasetMeta]:
    """The Cleveland heart disease table with the outcome column "heart_disease" (num > 0).

    Returns
    -------
    df : pandas.DataFrame of shape (303, 15)
        The 14 UCI columns and ``heart_disease`` (int 0/1) right after ``num``.
    meta : DatasetMeta
        Labels, units, types and category labels of every column; outcome and positive class.

    Raises
    ------
    DataError
        If the bundled file is missing (a broken installation).
    """
    try:
        df = pd.read_csv(DEMO_PATH)
    except FileNotFoundError as exc:
        raise DataError(words.DEMO_MISSING.format(path=DEMO_PATH)) from exc
    df.insert(df.columns.get_loc("num") + 1, OUTCOME, (df["num"] > 0).astype("int64"))
    return df, HEART_META
