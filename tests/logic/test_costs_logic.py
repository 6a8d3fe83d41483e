"""The pages' side of question costs: the table a user edits, the unit, the words, the record."""

import numpy as np
import pytest

from psl_core import PSLError
from psl_core.decision import NOT_MEASURED
from psl_triage.bedside.session import spent
from psl_triage.data import ColumnInfo
from psl_triage.training.costs import check_unit, cost_rows, cost_unit, costs_from_rows
from psl_triage.words.common import cost_text
from psl_triage.words.editors import COLUMN, COST, GROUP


def columns():
    return {
        "chol": ColumnInfo("chol", "Serum cholesterol", "mg/dl", "numeric"),
        "ca": ColumnInfo("ca", "Vessels on fluoroscopy", "", "numeric"),
    }


def test_the_table_starts_at_the_known_costs_and_reads_back():
    rows = cost_rows(columns(), {"ca": 20, "gone": 3, "chol": None}, {"chol": "blood test"})
    assert rows[COLUMN].tolist() == ["Serum cholesterol (mg/dl)", "Vessels on fluoroscopy"]
    assert rows[COST].tolist() == [0.0, 20.0] and rows[GROUP].tolist() == ["blood test", ""]
    assert costs_from_rows(rows) == ({"ca": 20.0}, {"chol": "blood test"})
    rows.loc["chol", COST] = np.nan  # an emptied cell is 0, an emptied test "measured alone"
    rows.loc["chol", GROUP] = np.nan
    rows.loc["ca", GROUP] = "  fluoroscopy "
    assert costs_from_rows(rows) == ({"ca": 20.0}, {"ca": "fluoroscopy"})
    rows.loc["ca", COST] = 0.0
    rows.loc["ca", GROUP] = None
    assert costs_from_rows(rows) == (None, None)


def test_a_long_test_name_names_the_feature():
    rows = cost_rows(columns(), groups={"ca": "x" * 41})
    with pytest.raises(PSLError, match="The test Vessels on fluoroscopy is measured with has a 41-character name"):
        costs_from_rows(rows)


@pytest.mark.parametrize("value, message", [
    (-2.0, "The cost of Vessels on fluoroscopy is -2: a cost is a finite number of 0 or more."),
    (float("inf"), "is inf"),
])
def test_a_bad_cost_names_the_feature(value, message):
    rows = cost_rows(columns())
    rows.loc["ca", COST] = value
    with pytest.raises(PSLError, match=message):
        costs_from_rows(rows)


def test_text_of_a_cost_the_unit_and_what_was_spent():
    assert cost_text(20.0, "minutes") == "20 minutes" and cost_text(2.5) == "2.5" and cost_text(1234.0, "EUR") == "1,234 EUR"
    assert check_unit("  minutes ") == "minutes"
    with pytest.raises(PSLError, match="cost unit is 41 characters long"):
        check_unit("x" * 41)
    assert cost_unit({"cost_unit": "EUR"}) == "EUR" and cost_unit({"cost_unit": 3}) == "" and cost_unit(None) == ""
    # An unknown answer was not measured: its question cost nothing.
    assert spent(np.array([5.0, 20.0, 0.0]), [True, None, False]) == 5.0
    assert spent(None, [True]) == 0.0
    # "not measured" goes where the list learned (it holds or not) but nothing was paid for it
    assert spent(np.array([5.0, 20.0]), [True, False], [61.0, NOT_MEASURED]) == 5.0


def test_the_record_says_what_the_questions_cost():
    from psl_core.decision import StepResult
    from psl_triage.bedside.record import triage_record
    from psl_triage.words.record import record_text

    step = StepResult(0, [0], 0.4, 0.4, 0.3, 0.5, 0.25, "rule in", "positive", "not worth its cost", 0.6,
                      change_share=0.1, change_rows=50, change_scope="answers", change_reference=3, next_cost=20.0)
    record = triage_record("list", "1", [], [], [step], 3.0, 0.95, "upper", 0.05,
                           costs={"unit": "minutes", "change_value": 100.0, "spent": 0.0})
    assert record["costs"] == {"unit": "minutes", "change_value": 100.0, "spent": 0.0}
    assert record["result"]["why_stopped"] == (
        "The next question costs 20 minutes, more than it is likely to gain: 5 of 50 training patients with "
        "these answers changed outcome with more questions, and a changed outcome is worth 100 minutes."
    )
    assert "Questions asked cost 0 minutes." in record_text(record)
    assert "costs" not in triage_record("list", "1", [], [], [step], 3.0, 0.95, "upper", 0.05)
