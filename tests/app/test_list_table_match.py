"""Evaluation and Calibration refuse, in one sentence, a table the list was not trained on
(AppTest): a horizon list with a table without follow-up, a list with another table.
Intervals, which reads only the list, does not."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from psl_triage.training.fit import train_list
from psl_triage.training.options import TrainingOptions
from psl_triage.words import shown
from tests.apptest import open_page, put_list
from tests.paths import ROOT
from tests.tables import dataset_session, follow_up_study

PAGES = ("pages/3_Calibration.py", "pages/5_Evaluation.py")


@pytest.fixture(scope="module")
def study():
    return follow_up_study()


def open_with_table(page, trained, frame, prepared, name):
    """``page`` with the list ``trained`` current and ``frame`` (named ``name``) on the Data page."""
    return open_page(page, *trained, dataset_session(prepared, frame, name))


def refused(at, trained_on, loaded):
    assert not at.exception and not at.error
    text = " ".join(shown(w.value) for w in at.warning).replace("**", "")
    assert f"The loaded table, {loaded}, is not the one the list was trained on ({trained_on}" in text
    assert "psl_" not in text and "Data page" in text
    assert not at.dataframe and not at.get("plotly_chart") and not at.button


@pytest.mark.parametrize("page", PAGES)
def test_a_horizon_list_with_a_table_without_follow_up_is_refused(study, page):
    frame, with_time, without = study
    trained = train_list(with_time, "pbc.csv", TrainingOptions(max_stages=2))
    refused(open_with_table(page, trained, frame, without, "pbc_no_time.csv"), "pbc.csv", "pbc_no_time.csv")


@pytest.mark.parametrize("page", PAGES)
def test_a_list_with_another_table_is_refused(demo_prepared, study, page):
    frame, _, without = study
    trained = train_list(demo_prepared, "heart.csv", TrainingOptions(max_stages=2))
    refused(open_with_table(page, trained, frame, without, "study.csv"), "heart.csv", "study.csv")


def test_a_horizon_list_without_held_out_rows_says_so_without_code_names(study):
    frame, with_time, _ = study
    trained = train_list(with_time, "pbc.csv", TrainingOptions(max_stages=2, test_fraction=0.0))
    at = open_with_table("pages/3_Calibration.py", trained, frame, with_time, "pbc.csv")
    assert not at.exception and not at.error and not at.warning
    text = " ".join(shown(i.value) for i in at.info)
    assert "held out" in text and "Evaluation page" in text and "psl_" not in text


def test_intervals_reads_only_the_list_and_says_nothing_of_the_table(demo_prepared, study):
    """Intervals draws the list's own training counts: another table on the Data page (or
    none) changes nothing there, so the page neither checks nor mentions it."""
    frame, _, without = study
    trained = train_list(demo_prepared, "heart.csv", TrainingOptions(max_stages=2))
    at = open_with_table("pages/4_Intervals.py", trained, frame, without, "study.csv")
    assert not at.exception and not at.error and not at.warning and len(at.get("plotly_chart")) == 2
    assert "study.csv" not in " ".join(shown(m.value) for m in [*at.markdown, *at.caption])
    alone = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    put_list(alone, *trained)
    alone.switch_page("pages/4_Intervals.py").run()  # no table loaded at all
    assert not alone.exception and not alone.warning and len(alone.get("plotly_chart")) == 2


@pytest.mark.parametrize("page", PAGES)
def test_a_list_without_prepared_data_is_sent_to_the_data_page(demo_prepared, page):
    """No table on the Data page: the page says there are no data and links there, without
    judging the list (ui.required_data stops it before the table is compared)."""
    trained = train_list(demo_prepared, "heart.csv", TrainingOptions(max_stages=2))
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    put_list(at, *trained)
    at.switch_page(page).run()
    assert not at.exception and not at.error and not at.warning
    assert "There are no data to" in " ".join(shown(i.value) for i in at.info)
    assert not at.dataframe and not at.get("plotly_chart")
