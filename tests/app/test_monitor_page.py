"""The Monitor page (pages/8_Monitor.py) in Streamlit's AppTest: a Cleveland list watched over two
years of dated patients drawn from its own table, those with heart disease twice as often in the
second year."""

import io

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from psl_triage.data import infer_column_types, prepare_training_data
from psl_triage.data.demo import load_demo
from psl_triage.data.follow_up import FollowUp
from psl_triage.training.fit import train_list
from psl_triage.training.options import TrainingOptions
from psl_triage.words import monitoring as words
from tests.apptest import put_list
from tests.paths import ROOT
from tests.tables import follow_up_table

PAGE = str(ROOT / "pages" / "8_Monitor.py")


@pytest.fixture(scope="module")
def trained(demo_prepared):
    return train_list(demo_prepared, "Heart disease (UCI, Cleveland)", TrainingOptions(max_stages=5))


@pytest.fixture(scope="module")
def trained_on_more():
    """A list from 3,000 patients drawn from the demo table: its risks are certain enough for doubled
    odds to stand out of its own estimation error (the limits count it: a list from the table's
    200 training patients has limits about three times as high, and does not see them)."""
    frame, meta = load_demo()
    frame = frame.sample(3000, replace=True, random_state=0)
    prepared = prepare_training_data(frame, infer_column_types(frame, meta.columns), meta.outcome,
                                     meta.positive_class, "drop", meta.columns)
    return train_list(prepared, "Heart disease (UCI, Cleveland), resampled", TrainingOptions(max_stages=5))


def patients(n=1200, seed=0, odds=2.0):
    """Cleveland patients drawn with replacement, one a day or so, those with heart disease drawn
    ``odds`` times as often in the second year; dates as text, day first."""
    frame = pd.read_csv(ROOT / "datasets" / "heart_cleveland.csv")
    frame["heart_disease"] = (frame["num"] > 0).astype(int)
    rng = np.random.default_rng(seed)
    first = frame.sample(n // 2, replace=True, random_state=seed)
    weights = np.where(frame["heart_disease"] == 1, odds, 1.0)
    second = frame.sample(n // 2, replace=True, weights=weights, random_state=seed + 1)
    days = np.concatenate([np.sort(rng.integers(0, 365, n // 2)), np.sort(rng.integers(365, 730, n // 2))])
    seen = pd.concat([first, second], ignore_index=True)
    seen["visit_date"] = (pd.Timestamp("2023-01-01") + pd.to_timedelta(days, unit="D")).strftime("%d/%m/%Y")
    return seen.drop(columns=["num"])


def test_without_a_list_the_page_says_where_to_get_one(tmp_path, monkeypatch):
    monkeypatch.setenv("PSL_MODEL_DIR", str(tmp_path))
    at = AppTest.from_file(PAGE, default_timeout=30).run()
    assert not at.exception
    assert any("Train" in info.value for info in at.info)


def test_a_list_watched_over_two_years(trained_on_more):
    at = AppTest.from_file(PAGE, default_timeout=120)
    put_list(at, *trained_on_more)
    at.run()
    assert not at.exception
    seen = patients()
    at.file_uploader(key="monitor_upload").set_value(("since.csv", seen.to_csv(index=False).encode(), "text/csv"))
    at.run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert at.selectbox(key="monitor_date").value == "visit_date"
    assert at.selectbox(key="monitor_outcome").value == "heart_disease"
    headers = [h.value for h in at.header]
    assert any("Period by period" in h for h in headers) and any("CUSUM" in h for h in headers)
    text = " ".join(m.value for m in at.markdown)
    assert "signals higher risk than predicted" in text and "closed testing procedure" in text
    delays = next(caption.value for caption in at.caption if caption.value.startswith("How fast the charts"))
    assert "one question's effect halved in" in delays and "A quiet chart does not show" in delays
    periods = at.dataframe[0].value
    assert len(periods) == 24 and periods["Patients seen"].sum() == len(seen)
    at.radio(key="monitor_period").set_value("quarter").run()
    assert not at.exception and len(at.dataframe[0].value) == 8


def test_an_update_hands_the_patients_to_validate(trained):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    put_list(at, *trained)
    at.switch_page("pages/8_Monitor.py").run()
    seen = patients(2000, odds=4.0)  # the list learned from 200 patients: the closed test weighs that
    at.file_uploader(key="monitor_upload").set_value(("since.csv", seen.to_csv(index=False).encode(), "text/csv"))
    at.run()
    at.date_input(key="monitor_test_from").set_value(pd.Timestamp("2024-01-01").date()).run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    text = " ".join(m.value for m in at.markdown)
    assert "the patients seen from 2024-01-01 (" in text and "says: **keep" not in text
    at.button(key="monitor_recalibrate").click().run()
    assert not at.exception
    name, data = at.session_state["validate_table"]
    handed = pd.read_csv(io.BytesIO(data))
    assert name == "since-monitored.csv" and len(handed) == 1000
    assert (pd.to_datetime(handed["visit_date"], format="%d/%m/%Y") >= pd.Timestamp("2024-01-01")).all()
    assert at.title[0].value.startswith("Validate")  # the recalibration is there, on the table handed over
    assert any("monitored" in caption.value and "1000 rows" in caption.value for caption in at.caption)
    assert not at.error and at.header  # Validate judges the list on them, its recalibration below


def test_names_from_the_file_reach_the_page_escaped(trained):
    at = AppTest.from_file(PAGE, default_timeout=120)
    put_list(at, *trained)
    at.run()
    hostile = "seen *on* <b>[x](http://e)</b>"
    seen = patients(400).rename(columns={"visit_date": hostile})
    seen.loc[:3, hostile] = ""  # rows without a date: a note names the column
    at.file_uploader(key="monitor_upload").set_value(("<i>since</i>.csv", seen.to_csv(index=False).encode(),
                                                      "text/csv"))
    at.run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert at.selectbox(key="monitor_date").value == hostile
    shown = [c.value for c in at.caption] + [m.value for m in at.markdown]
    assert any("without a date in" in text and "\\*on\\*" in text and "\\<b\\>" in text for text in shown)
    assert any("\\<i\\>since\\<\\/i\\>" in text for text in shown)
    assert not any("<b>" in text or "<i>" in text for text in shown)


def test_a_horizon_list_asks_for_the_follow_up_time_and_weights_the_censored():
    frame = follow_up_table(seed=1)
    types = {**infer_column_types(frame), "pid": "ignore"}
    prepared = prepare_training_data(frame, types, "status", [1], "learn", follow_up=FollowUp("rfstime", 1000.0, "days"))
    at = AppTest.from_file(PAGE, default_timeout=120)
    put_list(at, *train_list(prepared, "study.csv", TrainingOptions(max_stages=3)))
    at.run()
    seen = follow_up_table(400, seed=5)  # a quarter censored before 1000 days: refused before the weights
    censored = int(((seen["rfstime"] <= 1000) & (seen["status"] == 0)).sum())
    seen["seen"] = (pd.Timestamp("2024-01-01") + pd.to_timedelta(np.arange(len(seen)) % 365, unit="D")).astype(str)
    at.file_uploader(key="monitor_upload").set_value(("study-since.csv", seen.to_csv(index=False).encode(),
                                                      "text/csv"))
    at.run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert at.selectbox(key="monitor_time").value == "rfstime" and at.selectbox(key="monitor_outcome").value == "status"
    periods = at.dataframe[0].value
    assert periods["Patients seen"].sum() == len(seen) and censored > 0.2 * len(seen)
    assert periods["Outcome known (by the horizon)"].sum() == len(seen) - censored
    assert any(words.WEIGHTED in block.value for block in at.markdown)
    assert any(f"{censored} of {len(seen)} patients were censored" in caption.value for caption in at.caption)
