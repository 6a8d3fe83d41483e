"""Synthetic tables that tests in several folders share (imported as ``tests.tables``)."""

import numpy as np
import pandas as pd

from psl_core import ProbabilisticScoringList
from psl_triage.data import DatasetMeta
from psl_triage.data.demo import load_demo
from psl_triage.data.session import DatasetSession


def dataset_session(prepared, table=None, name=None, prepare_error=None):
    """The data page's session, as the later pages read it, with ``prepared`` as its prepared data.

    On the demo, or on ``table`` (a DataFrame, named ``name``); ``prepare_error``: why there are
    no prepared data. Put it into a session state with ``DATASET.put(state, ...)`` (or as
    ``dataset_session=`` where a test sets keys by name: the key is ``DATASET.name``).
    """
    session = DatasetSession(load_demo if table is None else lambda: (table, DatasetMeta(name=name or "table")))
    if name is not None:
        session.active.name = name
    session.prepared, session.prepare_error = prepared, prepare_error
    return session


def small_model(seed=1):
    """A list of one question fitted on 200 rows of one noisy numeric finding ``x``."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=200)
    return ProbabilisticScoringList(score_set=(-1, 1)).fit(pd.DataFrame({"x": x}), (x + rng.normal(size=200) > 0).astype(int))


def follow_up_table(n=400, seed=0):
    """A study export: an id, three findings, a recurrence-free time in days and its 0/1 status."""
    rng = np.random.default_rng(seed)
    nodes = rng.poisson(3, n)
    age = rng.integers(30, 80, n)
    grade = rng.integers(1, 4, n)
    rate = 0.0004 * np.exp(0.15 * nodes + 0.4 * (grade - 2))
    event_time = rng.exponential(1 / rate)
    censor_time = rng.uniform(200, 3000, n)
    return pd.DataFrame({
        "pid": rng.permutation(n) + 1000,
        "age": age,
        "nodes": nodes,
        "grade": grade,
        "rfstime": np.minimum(event_time, censor_time).round(),
        "status": (event_time <= censor_time).astype(int),
    })


def chest_pain_table(n=600, seed=0):
    """(X, y): synthetic patients with a heart rate ``hr``, a 0/1 ``sex`` and a chest pain type
    ``cp`` ("1", "2", "4", a categorical), the outcome drawn from a logistic model of all three."""
    rng = np.random.default_rng(seed)
    hr = rng.normal(150, 20, n).round()
    sex = rng.integers(0, 2, n).astype(float)
    cp = rng.choice(["1", "2", "4"], n, p=[0.3, 0.3, 0.4])
    logit = -0.08 * (hr - 150) + 1.5 * sex + np.select([cp == "4", cp == "2"], [2.0, -1.0], -2.0) - 0.6
    y = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
    return pd.DataFrame({"hr": hr, "sex": sex, "cp": pd.Categorical(cp)}), y


def chest_pain_columns(heart_rate="hr"):
    """A model file's metadata of the synthetic chest-pain columns: the maximum heart rate
    (named ``heart_rate``), sex and the type of chest pain, with labels, units and codes."""
    return {
        heart_rate: {"label": "Max heart rate", "unit": "bpm", "kind": "numeric", "category_labels": {}},
        "sex": {"label": "Sex", "unit": "", "kind": "binary", "category_labels": {"1": "male", "0": "female"}},
        "cp": {
            "label": "Chest pain type", "unit": "", "kind": "categorical",
            "category_labels": {"1": "typical angina", "2": "atypical angina", "4": "asymptomatic"},
        },
    }


def follow_up_study():
    """:func:`follow_up_table` (seed 1) and its prepared data with the follow-up time (1000
    days) and without it (the time ignored): a horizon list's table and a yes/no one."""
    from psl_triage.data import infer_column_types, prepare_training_data
    from psl_triage.data.follow_up import FollowUp

    frame = follow_up_table(seed=1)
    types = {**infer_column_types(frame), "pid": "ignore"}
    with_time = prepare_training_data(frame, types, "status", [1], "learn", follow_up=FollowUp("rfstime", 1000.0, "days"))
    without = prepare_training_data(frame, {**types, "rfstime": "ignore"}, "status", [1], "learn")
    return frame, with_time, without


def cox_failing(monkeypatch, n_failing):
    """Make :func:`psl_core.survival.cox_risk` fail (DataError) on its first ``n_failing`` calls,
    as on a split where no ridge penalty gives a finite fit; it fits on the later ones."""
    from psl_core import survival
    from psl_core.errors import DataError

    fitted, calls = survival.cox_risk, []

    def cox_risk(*args):
        calls.append(args)
        if len(calls) <= n_failing:
            raise DataError("the Cox model could not be fitted")
        return fitted(*args)

    monkeypatch.setattr(survival, "cox_risk", cox_risk)


def lab_list():
    """A two-question list and its 600 training rows: a lab value whose missingness carries
    the outcome (its direction learned), then age, never missing at training (no direction)."""
    rng = np.random.default_rng(5)
    n = 600
    y = rng.random(n) < 0.3
    ordered = rng.random(n) < np.where(y, 0.9, 0.3)
    X = pd.DataFrame({"lab": np.where(ordered, rng.normal(size=n) + y, np.nan), "age": rng.normal(60, 10, n) + 4 * y})
    model = ProbabilisticScoringList(required=["lab", "age"], max_stages=2).fit(X, y.astype(int))
    assert [literal.column for literal in model.literals_] == ["lab", "age"]
    assert model.literals_[0].not_measured is not None and model.literals_[1].not_measured is None
    return model, X


SLEEP_LEVELS = ("4 or less hours", "5 hours", "6 hours", "7 hours", "8 hours", "9 hours", "10 or more hours")
"""The levels of :func:`sleep_table`'s ``Sleep``, in their order (alphabetically "10 or more hours" comes first)."""


def sleep_table(n=400, seed=0):
    """A survey export with an ordered text column: ``Sleep`` (:data:`SLEEP_LEVELS`, fewer hours
    more risk), ``Age`` and a 0/1 ``Outcome``; a few rows without Sleep."""
    rng = np.random.default_rng(seed)
    place = rng.choice(len(SLEEP_LEVELS), n, p=[0.06, 0.08, 0.18, 0.28, 0.24, 0.1, 0.06])
    age = rng.integers(13, 19, n)
    logit = 1.2 - 0.6 * place + 0.3 * (age - 15)
    frame = pd.DataFrame({
        "Sleep": np.array(SLEEP_LEVELS, dtype=object)[place],
        "Age": age,
        "Outcome": (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int),
    })
    frame.loc[::37, "Sleep"] = None
    return frame


def transplant_table(n=300, seed=0):
    """A transplant study export named as such studies name columns (``t1``/``d1`` death,
    ``t2``/``d2`` relapse, ``ta``/``da`` acute GVHD, ``z1``...``z6`` baseline, ``z6`` a
    treatment flag): every event's time is censored at the end of follow-up ``t1``."""
    rng = np.random.default_rng(seed)
    z1, z2 = rng.integers(7, 60, n), rng.integers(2, 60, n)
    z3, z4, z5, z6 = (rng.random((4, n)) < [[0.5], [0.4], [0.3], [0.5]]).astype(int)
    risk = 0.0006 * np.exp(0.03 * (z1 - 30) + 0.7 * z3 + 0.5 * z4)
    death, end = rng.exponential(1 / risk), rng.uniform(400, 2600, n)
    t1 = np.ceil(np.minimum(death, end))
    relapse, gvhd = rng.exponential(1 / (0.6 * risk)), rng.exponential(60, n) / (1 + z5)
    t2, ta = np.ceil(np.minimum(relapse, t1)), np.ceil(np.minimum(gvhd, t1))
    return pd.DataFrame({
        "t1": t1, "d1": (death <= end).astype(int), "t2": t2, "d2": (t2 < t1).astype(int),
        "ta": ta, "da": (ta < t1).astype(int), "z1": z1, "z2": z2, "z3": z3, "z4": z4, "z5": z5, "z6": z6,
    })


def liver_table(n=400, seed=0):
    """A liver cancer cohort: findings, ``OS`` months with ``Death`` and ``RFS`` months (never
    above ``OS``, equal to it where there was no recurrence) with ``Recurrence``."""
    rng = np.random.default_rng(seed)
    age, tumour, afp = rng.integers(30, 85, n), rng.gamma(2.0, 2.5, n).round(1), rng.lognormal(3, 1.5, n).round(1)
    cirrhosis = (rng.random(n) < 0.6).astype(int)
    risk = 0.01 * np.exp(0.15 * (tumour - 5) + 0.6 * cirrhosis + 0.2 * np.log(afp / 20))
    death, end = rng.exponential(1 / risk), rng.uniform(12, 84, n)
    os_months = np.minimum(death, end).round(1)
    recurrence = rng.exponential(1 / (1.5 * risk))
    rfs = np.minimum(recurrence, os_months).round(1)
    return pd.DataFrame({
        "Age": age, "Tumour size": tumour, "AFP": afp, "Cirrhosis": cirrhosis,
        "OS": os_months, "Death": (death <= end).astype(int),
        "RFS": rfs, "Recurrence": (rfs < os_months).astype(int),
    })
