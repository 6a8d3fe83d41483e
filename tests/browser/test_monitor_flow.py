"""Monitoring in the browser on a real table with a calendar column: the Mayo free light chain
cohort (``flchain``, shipped with scikit-survival), a list of death within four years trained on
the patients sampled in 1995-1996 and watched over those sampled in 1997-2003, year by year.
The figures are drawn, and the downloaded numbers equal an independent computation (the list's
own predict_proba, pandas, statsmodels)."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest
import statsmodels.api as sm
from playwright.sync_api import expect

from psl_core.validation import log_odds
from psl_triage.bedside.session import recommended_length
from psl_triage.data import infer_column_types, prepare_training_data
from psl_triage.model_file.store import save_model
from psl_triage.training.fit import train_list
from psl_triage.training.options import TrainingOptions

HORIZON_DAYS = 4 * 365.25
COLUMNS = ["age", "sex", "kappa", "lambda", "mgus"]


def cohort():
    """flchain with the outcome "died within four years", known for every patient kept: those
    censored before four years are left out; the cause of death (``chapter``) is not a predictor."""
    datasets = pytest.importorskip("sksurv.datasets")
    X, y = datasets.load_flchain()
    frame = X[COLUMNS + ["sample.yr"]].copy()
    frame["sex"] = frame["sex"].astype(str)
    frame["mgus"] = frame["mgus"].astype(str)
    frame["sample.yr"] = frame["sample.yr"].astype(int)
    died = y["death"] & (y["futime"] <= HORIZON_DAYS)
    known = died | (y["futime"] > HORIZON_DAYS)
    frame["died_4y"] = died.astype(int)
    return frame.loc[known].reset_index(drop=True)


def trained_on_early_years(frame):
    early = frame[frame["sample.yr"] <= 1996].drop(columns=["sample.yr"])
    types = infer_column_types(early)
    prepared = prepare_training_data(early, types, "died_4y", [1], "drop")
    return train_list(prepared, "flchain 1995-1996", TrainingOptions(max_stages=4))


def downloaded(app, key):
    with app.page.expect_download() as download:
        app.widget(key).get_by_role("button").click()
    return pd.read_csv(io.StringIO(download.value.path().read_text(encoding="utf-8")))


def test_monitor_flchain_over_the_later_years(own_app, tmp_path):
    app, _ = own_app
    frame = cohort()
    model, metadata = trained_on_early_years(frame)
    save_model(model, "flchain death in 4 years", metadata, tmp_path / "models")
    later = frame[frame["sample.yr"] >= 1997]
    path = tmp_path / "flchain-1997-2003.csv"
    later.to_csv(path, index=False)

    app.open("Monitor")
    app.upload("monitor_upload", str(path))
    app.assert_no_exception()
    expect(app.widget("monitor_date").get_by_role("combobox")).to_have_value("sample.yr")
    app.widget("monitor_period").get_by_text("Year", exact=True).click()
    app.wait_idle()
    app.assert_no_exception()
    expect(app.alerts("error")).to_have_count(0)
    for key in ("monitor_drift", "monitor_cusum", "monitor_answers"):
        expect(app.widget(key).locator(".js-plotly-plot")).to_be_visible()
    expect(app.page.get_by_text("closed testing procedure")).to_be_visible()

    # Independently: the list's own predict_proba at its bedside length, grouped by year with pandas.
    periods = downloaded(app, "monitor_download_periods")
    stage = recommended_length(model)
    X = later[COLUMNS].copy()
    for name, column in metadata["columns"].items():  # yes/no columns as the list learned them: 0/1
        if column.get("kind") == "binary":
            X[name] = (X[name].astype(str) == str(column["one_value"])).astype(float)
    p = model.predict_proba(X, stage=stage)[:, 1]
    by_year = pd.DataFrame({"year": later["sample.yr"].astype(str), "y": later["died_4y"], "p": p})
    assert list(periods["Period"].astype(str)) == sorted(by_year["year"].unique())
    for _, row in periods.iterrows():
        part = by_year[by_year["year"] == str(row["Period"])]
        assert row["Patients judged"] == len(part) and row["With the outcome"] == part["y"].sum()
        judged = min(part["y"].sum(), len(part) - part["y"].sum()) >= 10
        assert bool(row["Judged"]) == judged
        if not judged:
            assert np.isnan(row["O/E"])  # too small to judge, and said so
            continue
        assert row["O/E"] == pytest.approx(part["y"].sum() / part["p"].sum(), rel=1e-9)
        fit = sm.GLM(part["y"], sm.add_constant(log_odds(part["p"].to_numpy())),
                     family=sm.families.Binomial()).fit(tol=1e-12)
        assert row["Slope"] == pytest.approx(fit.params.iloc[1], abs=1e-6)
        assert row["Brier score"] == pytest.approx(np.mean((part["p"] - part["y"]) ** 2), rel=1e-9)
    chart = downloaded(app, "monitor_download_cusum")
    assert len(chart) == len(later) and (np.diff(pd.to_datetime(chart["Date"])) >= np.timedelta64(0)).all()
    shuffled = np.random.default_rng(0).permutation(len(later))  # date order, a year's patients shuffled (seed 0)
    order = shuffled[np.argsort(later["sample.yr"].to_numpy()[shuffled], kind="stable")]
    assert chart["Risk"].to_numpy() == pytest.approx(p[order])
    up, s = [], 0.0  # Steiner's chart for doubled odds, by its recursion
    for outcome, risk in zip(later["died_4y"].to_numpy()[order], p[order]):
        s = max(0.0, s + outcome * np.log(2.0) - np.log1p(risk))
        up.append(s)
    assert chart["Chart up"].to_numpy() == pytest.approx(up, abs=1e-9)
