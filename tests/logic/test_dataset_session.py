"""The Data page's state machine without Streamlit (psl_triage.data.session.DatasetSession)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from psl_core.errors import DataError
from psl_triage.data import IGNORE, NumberFormat, outcome_classes
from psl_triage.data.demo import load_demo
from psl_triage.data.session import DatasetSession
from psl_triage.training.options import TrainingOptions
from psl_triage.training.session import TrainingSession


def study_csv(n: int = 40, leak: bool = False) -> bytes:
    """A small study: an id, two numbers, a text binary and a text outcome (and a copy of it)."""
    rng = np.random.default_rng(1)
    frame = pd.DataFrame({
        "patient_id": range(1, n + 1),
        "age": rng.integers(30, 80, n),
        "crp": rng.normal(10, 3, n).round(1),
        "smoker": ["yes", "no"] * (n // 2),
        "outcome": ["died", "alive", "alive", "died"] * (n // 4),
    })
    if leak:
        frame["echo"] = np.where(frame["outcome"] == "died", 0.9, 0.1)
    return frame.to_csv(index=False).encode()


@pytest.fixture
def session() -> DatasetSession:
    return DatasetSession(load_demo)


def upload(session: DatasetSession, name: str = "study.csv", data: bytes | None = None, token: str = "1") -> None:
    session.read_upload(token, name, lambda: study_csv() if data is None else data, 2**20)


def test_a_session_starts_on_the_demo_with_its_published_outcome_and_learns_around_gaps(session):
    data = session.active
    assert (data.source, data.outcome, data.positive_class, data.missing_handling) == ("demo", "heart_disease", [1], "learn")
    assert data.column_types["num"] == IGNORE and data.column_types["cp"] == "categorical"
    prepared = session.refresh()
    assert prepared.n_rows_after == 303 and session.prepare_error is None
    assert session.version == 1 and session.key("w_type", "heart_disease", "age") == "w_type_v1::heart_disease::age"


def test_the_training_data_is_prepared_again_only_when_a_choice_changed(session):
    first = session.refresh()
    assert session.refresh() is first
    session.set_missing_handling("drop")
    dropped = session.refresh()
    assert dropped is not first and dropped.n_rows_after == 297
    session.choose_outcome(None)
    assert session.refresh() is None and session.prepare_error == "Choose the outcome column."


def test_switching_between_demo_and_upload_loses_nothing(session):
    session.set_missing_handling("impute")
    upload(session)
    assert session.active.source == "upload" and session.active.outcome == "outcome"
    assert session.active.column_types["patient_id"] == IGNORE and session.active.positive_class == ["died"]
    session.set_types({**session.active.column_types, "crp": IGNORE})
    session.switch_to("demo")
    assert session.active.source == "demo" and session.active.missing_handling == "impute"
    session.switch_to("upload")
    assert session.active.name == "study.csv" and session.active.column_types["crp"] == IGNORE
    assert list(session.refresh().X.columns) == ["age", "smoker"]
    assert session.version == 4  # demo, upload, demo again, upload again: fresh widgets each time


def test_a_refused_upload_keeps_the_active_dataset_and_says_why_once(session):
    upload(session, "empty.csv", b"")
    assert session.upload_error and "empty.csv" in session.upload_error
    assert session.active.source == "demo" and session.version == 1
    upload(session, "empty.csv", study_csv())  # the same token: not read again
    assert session.active.source == "demo"


def test_a_flagged_column_put_back_gets_its_detected_kind_and_a_fresh_widget(session):
    upload(session, data=study_csv(leak=True))
    assert session.proposed_out() == ["echo"] and "echo" not in session.refresh().X
    before = session.type_key("echo")
    session.put_back("echo")
    assert session.active.column_types["echo"] == "binary"
    assert session.type_key("echo") != before and session.proposed_out() == []
    assert "echo" in session.refresh().X


def test_questions_taken_out_as_leaks_are_ignored_with_the_evidence(session):
    session.take_out(["thalach"], "too good")
    data = session.active
    assert data.column_types["thalach"] == IGNORE and data.column_roles["thalach"].role == "leak"
    assert data.flagged_columns["thalach"].endswith("too good") and "thalach" not in session.refresh().X


def test_another_outcome_brings_its_own_positive_class_and_class_names(session):
    session.name_classes(("sick", "well"))
    assert session.refresh().positive_label == "sick"
    session.choose_outcome("exang")
    assert session.active.positive_class == [1] and session.chosen_class_names() is None
    session.choose_positive([0])
    prepared = session.refresh()
    assert prepared.outcome == "exang" and prepared.n_positive == int((session.active.df["exang"] == 0).sum())
    session.choose_outcome("heart_disease")
    assert session.chosen_class_names() == ("sick", "well")


def test_an_upload_is_read_again_another_way_or_stays_with_the_reason(session):
    upload(session)
    with pytest.raises(DataError, match="does not look like a table"):
        session.reread(";", NumberFormat(".", ""))
    assert session.active.reading["delimiter"] == "," and session.version == 2
    session.reread(",", NumberFormat(",", ""))
    assert session.active.reading["numbers"].decimal == "," and session.version == 3


def test_the_other_pages_read_the_session_itself_not_a_copy(session):
    """One source of truth: the Train page reads the data page's session, so a choice made
    there reaches it without a copy in between."""
    session.refresh()
    training = TrainingSession()
    session.choose_outcome("exang")
    session.refresh()
    training.train(session, TrainingOptions(max_stages=1))
    assert training.metadata.trained_on.outcome == "exang"
    assert training.metadata.trained_on.name == session.active.name


def test_the_preview_leaves_every_gap_missing_for_the_page_to_show_alike():
    """Stat2Data/YouthRisk2009: a gap showed as "None" in a number column and blank in a text
    one. The preview keeps every gap missing (numbers keep their type); the page shows each
    the one way (tests/app/test_landing.py)."""
    session = DatasetSession(load_demo)
    table = b"age,smoker,note,lab\n" + b"".join(
        b"%d,%s,%s,%s\n" % (i, b"yes" if i % 3 else b"   ", b"" if i % 2 else b"x", b"" if i % 2 else b"1.5")
        for i in range(30))
    session.read_upload("t", "blank.csv", lambda: table, 10**6)
    preview = session.preview()
    assert len(preview) == 30 and pd.isna(preview["smoker"].iloc[0]) and preview["note"].iloc[0] == "x"
    assert pd.isna(preview["note"].iloc[1]) and pd.isna(preview["lab"].iloc[1])
    assert preview["age"].dtype.kind in "iuf" and preview["lab"].dtype.kind == "f"


def test_awaiting_a_choice_reads_the_outcome_once_and_follows_a_change(session, monkeypatch):
    """The Data page asks on every rerun whether the data wait for the user's choice; the
    outcome's classes are counted once per table and outcome, and the answer follows a
    positive value chosen or taken back, another outcome, another table."""
    from psl_triage.data import profile

    counted = []
    monkeypatch.setattr(profile, "outcome_classes",
                        lambda series: counted.append(series.name) or outcome_classes(series))
    session.choose_outcome("cp")  # four chest-pain types: the positive values are the user's choice
    assert session.refresh() is None and session.awaiting_choice() and session.awaiting_choice()
    session.choose_positive([4])
    assert session.refresh() is not None and not session.awaiting_choice()
    session.choose_positive([])
    assert session.refresh() is None and session.awaiting_choice()
    assert counted == ["cp"]
    session.choose_outcome("sex")  # two values: the page guesses the positive one
    assert session.refresh() is not None and not session.awaiting_choice()
    session.choose_outcome(None)
    assert session.refresh() is None and session.awaiting_choice()
    upload(session, data=study_csv().replace(b",alive", b",lost", 1))  # died, alive, lost
    session.choose_outcome("outcome")
    session.choose_positive([])
    assert session.refresh() is None and session.awaiting_choice() and session.awaiting_choice()
    assert counted == ["cp", "outcome"]


def test_each_column_is_one_record(session):
    """Kind, proposed role with its evidence, why it was proposed out and its revision live in
    one ColumnState per column; the dicts the pages read are views of them, not stores."""
    from dataclasses import fields

    from psl_triage.data.session import ColumnState, Dataset

    upload(session, data=study_csv(leak=True))
    data = session.active
    assert all(isinstance(state, ColumnState) for state in data.columns.values())
    assert list(data.columns) == list(data.df.columns)
    assert data.columns["patient_id"].kind == IGNORE and data.columns["patient_id"].role.role == "identifier"
    assert data.columns["outcome"].role is None  # the outcome has no role
    leak = data.columns["echo"]
    assert leak.kind == IGNORE and leak.role.role == "leak" and leak.role.evidence in leak.proposed_out
    session.put_back("echo")
    assert data.columns["echo"].kind != IGNORE and data.columns["echo"].revision == 1
    assert data.flagged_columns["echo"] == leak.proposed_out  # still says why it was proposed out
    session.take_out(["crp"], "a list too good to be true asks it")
    assert data.columns["crp"] == ColumnState(IGNORE, data.column_roles["crp"], data.flagged_columns["crp"], 0)
    with pytest.raises(AttributeError):
        data.column_types = {}  # a view: a second store cannot come back by assignment
    per_column = [item.name for item in fields(Dataset) if item.type.startswith("dict[str")]
    assert per_column == ["columns", "level_orders"]
