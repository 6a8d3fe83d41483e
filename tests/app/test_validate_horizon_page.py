"""The Validate page for a list of the risk within a horizon (AppTest): a list trained on one
follow-up table judged at the horizon on another, its time column found by name or chosen,
the measures at the horizon shown (no refusal), recalibrated with censoring weights and saved."""

import sys
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from psl_triage.data import infer_column_types, prepare_training_data
from psl_triage.data.follow_up import FollowUp
from psl_triage.model_file.store import load_model
from psl_triage.training.fit import train_list
from psl_triage.training.options import TrainingOptions
from tests.apptest import put_list
from tests.paths import ROOT
from tests.tables import follow_up_table

PAGE = str(ROOT / "pages" / "6_Validate.py")
sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_markdown_names import IMAGE, LINK, assert_no_markdown_from_names  # noqa: E402


@pytest.fixture(scope="module")
def horizon_list():
    frame = follow_up_table(seed=1)
    types = {**infer_column_types(frame), "pid": "ignore"}
    prepared = prepare_training_data(frame, types, "status", [1], "learn", follow_up=FollowUp("rfstime", 1000.0, "days"))
    return train_list(prepared, "study.csv", TrainingOptions())


def site_page(horizon_list, site, name="site.csv"):
    at = AppTest.from_file(PAGE, default_timeout=90)
    put_list(at, *horizon_list)
    at.run()
    assert not at.exception
    at.file_uploader(key="validate_upload").set_value((name, site.to_csv(index=False).encode(), "text/csv")).run()
    assert not at.exception
    return at


def test_a_horizon_list_is_judged_at_the_horizon(horizon_list, isolated_model_dir):
    model, _ = horizon_list
    at = site_page(horizon_list, follow_up_table(seed=2, n=300))
    assert not at.error
    assert at.selectbox(key="validate_time").value == "rfstime"  # the list's time column, by name
    assert at.selectbox(key="validate_outcome").value == "status"
    assert at.multiselect(key="validate_positive").value == [1]
    texts = " ".join(m.value for m in at.markdown)
    assert "does not weigh censoring" not in " ".join(i.value for i in at.info)
    assert "censored before it" in texts and "Competing events are out of scope" in texts
    measures = at.table[0].value
    assert list(measures["Measure"])[:3] == ["Observed / expected at the horizon",
                                             "Brier score at the horizon (censoring weighted)",
                                             "AUC at the horizon (time-dependent)"]
    assert at.get("plotly_chart")
    stages = [frame.value for frame in at.dataframe if "censored" in frame.value.columns]  # every stage
    assert len(stages) == 1 and len(stages[0]) == model.n_stages_ and {"brier", "auc"} <= set(stages[0].columns)
    # Recalibrated with censoring weights, saved, and the saved file opens with its horizon.
    at.button(key="validate_recalibrate").click().run()
    assert not at.exception and not at.error
    saved = at.session_state["validate_saved"]
    assert any("Saved" in s.value for s in at.success)
    reopened = load_model(next(isolated_model_dir.glob(f"**/{saved['file']}")))
    assert reopened.horizon == model.horizon == 1000.0


def test_a_time_column_named_otherwise_is_chosen(horizon_list):
    site = follow_up_table(seed=3, n=200).rename(columns={"rfstime": "days", "status": "recurred"})
    at = site_page(horizon_list, site)
    assert at.selectbox(key="validate_time").value is None
    assert any("follow-up time" in i.value for i in at.info)
    at.selectbox(key="validate_time").set_value("days").run()
    at.selectbox(key="validate_outcome").set_value("recurred").run()
    at.multiselect(key="validate_positive").set_value([1]).run()
    assert not at.exception and not at.error
    assert at.table[0].value.shape[0] == 4


def test_a_bad_time_or_event_column_is_refused_in_words(horizon_list):
    site = follow_up_table(seed=3, n=200)
    site.loc[:4, "rfstime"] = -5
    at = site_page(horizon_list, site)
    assert any("negative times" in e.value for e in at.error) and not at.exception
    site = follow_up_table(seed=3, n=200).assign(status=lambda f: f["grade"])  # three values, 1 chosen
    at = site_page(horizon_list, site)
    assert not at.exception and not at.error  # the other values count as censored, said once
    assert any("1 counts as the event, 2, 3 as censored" in c.value.replace("\\", "") for c in at.caption)


def test_names_from_the_site_reach_no_markdown(horizon_list):
    time, event = f"days {IMAGE}", f"event {LINK}"
    site = follow_up_table(seed=3, n=200).rename(columns={"rfstime": time, "status": event})
    at = site_page(horizon_list, site, f"{LINK}.csv")
    at.selectbox(key="validate_time").set_value(time).run()
    at.selectbox(key="validate_outcome").set_value(event).run()
    at.multiselect(key="validate_positive").set_value([1]).run()
    assert at.table and not at.error
    assert_no_markdown_from_names(at, "Validate, horizon list")
    site[time] = site[time].where(site.index > 0, -1)  # refused, the column's name quoted
    at = site_page(horizon_list, site, f"{LINK}.csv")
    at.selectbox(key="validate_time").set_value(time).run()
    at.selectbox(key="validate_outcome").set_value(event).run()
    at.multiselect(key="validate_positive").set_value([1]).run()
    assert any("negative times" in e.value for e in at.error)
    assert_no_markdown_from_names(at, "Validate, a time column with a negative time")


def test_a_second_table_with_the_lists_time_and_event_starts_at_them(horizon_list):
    site = follow_up_table(seed=3, n=200)
    at = site_page(horizon_list, site.rename(columns={"rfstime": "days", "status": "recurred"}))
    assert at.selectbox(key="validate_time").value is None  # the page waits for it
    at.file_uploader(key="validate_upload").set_value(("site2.csv", site.to_csv(index=False).encode(), "text/csv")).run()
    assert not at.exception and not at.error
    assert at.selectbox(key="validate_time").value == "rfstime"
    assert at.selectbox(key="validate_outcome").value == "status"
    assert at.table
