"""Ordered categories in Streamlit's AppTest: the Data page proposes the order a text column's
numbers show, one click declares it, and the Train page trains with "never fewer" on it."""

import numpy as np
import pandas as pd
from streamlit.testing.v1 import AppTest

from psl_triage.words import data as words
from psl_triage.words import shown
from tests.apptest import training
from tests.paths import ROOT
from tests.tables import SLEEP_LEVELS, dataset_session, sleep_table
from ui.state_keys import DATASET


def data_page():
    """The app on the Data page with the sleep table loaded and its outcome chosen."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    session = dataset_session(None, sleep_table(), "sleep")
    session.choose_outcome("Outcome")
    DATASET.put(at.session_state, session)
    at.run()
    assert not at.exception
    return at, session


def test_the_proposed_order_is_declared_with_one_click_and_can_be_undone():
    at, session = data_page()
    said = " ".join(shown(info.value) for info in at.info)
    assert "The categories of **Sleep** show an order" in said and "4 or less hours < 5 hours" in said
    assert session.refresh().columns["Sleep"].levels is None  # proposed, not applied
    at.button(key=session.key("w_use_order", "Sleep")).click().run()
    assert not at.exception and session.level_order("Sleep") == SLEEP_LEVELS
    assert session.refresh().columns["Sleep"].levels == SLEEP_LEVELS
    table = next(frame.value for frame in at.dataframe if "reason" in frame.value.columns)
    assert table.set_index("column").loc["Sleep", "type"] == words.ORDERED_TYPE
    assert not [info for info in at.info if "show an order" in shown(info.value)]  # accepted: no longer proposed
    toggle = next(t for t in at.toggle if t.label == words.ORDERED_TOGGLE)
    assert toggle.value
    toggle.set_value(False).run()
    assert not at.exception and session.level_order("Sleep") is None
    assert session.refresh().columns["Sleep"].levels is None


def test_training_with_never_fewer_on_the_ordered_column():
    at, session = data_page()
    at.button(key=session.key("w_use_order", "Sleep")).click().run()
    training(at).directions.update({"Sleep": "increasing"})
    training(at).asks.update({"Sleep": "first"})
    at.switch_page("pages/1_Train.py").run()
    at.button(key="w_train_submit").click().run()
    assert not at.exception and not at.error
    model = training(at).model
    assert model.monotone == {"Sleep": "increasing"} and model.features_[0] == "Sleep"
    levels = np.array(SLEEP_LEVELS, dtype=object)
    points = sum(score * literal.evaluate(levels) for literal, score in zip(model.literals_, model.scores_)
                 if literal.column == "Sleep")
    assert (np.diff(points) >= 0).all()  # never fewer points with more hours
    table = next(frame.value for frame in at.dataframe if "Feature" in frame.value.columns)
    assert any(str(cell).startswith("Sleep: ") for cell in table["Feature"])


def test_many_columns_that_show_one_order_get_one_notice_and_one_click():
    """Issue 40, item 5: a table of sixty columns of the same levels showed the notice sixty times."""
    rng = np.random.default_rng(0)
    levels = [f"grade {k}" for k in range(1, 7)]
    table = pd.DataFrame({f"c{j}": rng.choice(levels, 240) for j in range(12)})
    table["Outcome"] = rng.integers(0, 2, 240)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    session = dataset_session(None, table, "grades")
    session.choose_outcome("Outcome")
    DATASET.put(at.session_state, session)
    at.run()
    assert not at.exception
    notices = [shown(info.value) for info in at.info if "show" in shown(info.value) and "order" in shown(info.value)]
    assert len(notices) == 1, notices
    assert "**c0**, **c1**, **c2**, **c3**, **c4** and 7 more (12 columns) show the same order" in notices[0]
    at.button(key=session.key("w_use_order", "c0")).click().run()
    assert not at.exception
    assert all(session.level_order(f"c{j}") == tuple(levels) for j in range(12))
