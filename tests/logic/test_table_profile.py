"""What a table's values say about its columns is worked out once per table
(psl_triage.data.profile.TableProfile): an upload, and the choices after it, infer each column's
kind once and look for follow-up times once; a column's levels, the order they show and its
classes as an outcome are worked out once per column, however often the page asks."""

from __future__ import annotations

import collections
import sys

import pytest

from psl_triage.data import columns, event_times, follow_up, levels, values
from psl_triage.data.demo import load_demo
from psl_triage.data.profile import TableProfile
from psl_triage.data.session import DatasetSession
from tests.tables import SLEEP_LEVELS, follow_up_table, sleep_table

COUNTED = {"infer_kind": columns, "follow_up_evidence": event_times, "guess_follow_up": follow_up,
           "time_columns": follow_up}

PER_COLUMN = {"column_levels": levels, "propose_level_order": levels, "outcome_classes": values}


@pytest.fixture
def calls(monkeypatch):
    """How often each table-only finding runs."""
    return _counted(monkeypatch, COUNTED)


@pytest.fixture
def column_calls(monkeypatch):
    """How often each finding about one column runs."""
    return _counted(monkeypatch, PER_COLUMN)


def _counted(monkeypatch, functions):
    """Every module of the app holding one of ``functions`` by name gets a counting wrapper."""
    counts = collections.Counter()
    for name, home in functions.items():
        original = getattr(home, name)

        def counted(*args, _name=name, _original=original, **kwargs):
            counts[_name] += 1
            return _original(*args, **kwargs)

        for module in list(sys.modules.values()):
            if getattr(module, "__name__", "").startswith(("psl_triage", "ui")) and getattr(module, name, None) is original:
                monkeypatch.setattr(module, name, counted)
    return counts


def test_one_upload_works_out_each_finding_once(calls):
    frame = follow_up_table(seed=1)
    session = DatasetSession(load_demo)
    calls.clear()
    session.read_upload("1", "study.csv", lambda: frame.to_csv(index=False).encode(), 2**20)
    assert session.upload_error is None and session.active.outcome == "status"
    assert session.active.follow_up is not None and session.active.follow_up.time == "rfstime"
    # Measured before the profile: infer_kind 17 (6 columns), follow_up_evidence 3,
    # guess_follow_up 2, time_columns 2.
    once = {"infer_kind": frame.shape[1], "follow_up_evidence": 1, "guess_follow_up": 1, "time_columns": 1}
    assert dict(calls) == once
    # The user's choices reuse them: another outcome, its positive value, a column put back.
    session.choose_outcome("grade")
    session.choose_positive([3])
    session.put_back("pid")
    session.choose_outcome("status")
    assert dict(calls) == once


def _ask_about_levels(session):
    """What the Data page asks about ordered categories and the outcome on every rerun."""
    session.orderable()
    session.grouped_order_proposals()
    session.levels("Sleep")
    session.orders()
    session.awaiting_choice()


def test_levels_orders_and_classes_are_worked_out_once_per_column(column_calls):
    frame = sleep_table().assign(Grade=lambda f: f["Age"] % 3)  # an outcome of three classes
    session = DatasetSession(load_demo)
    session.read_upload("1", "sleep.csv", lambda: frame.to_csv(index=False).encode(), 2**20)
    session.choose_outcome("Grade")
    assert session.prepared is None and not session.active.positive_class
    _ask_about_levels(session)
    assert session.grouped_order_proposals() == {SLEEP_LEVELS: ["Sleep"]} and session.awaiting_choice()
    once = dict(column_calls)
    assert once.keys() == PER_COLUMN.keys()
    # Another rerun, a declared order, and a visit to the demo and back ask again: nothing is
    # worked out again (before the profile held them, each new version of the session did).
    _ask_about_levels(session)
    session.set_order("Sleep", SLEEP_LEVELS)
    session.switch_to("demo")
    session.switch_to("upload")
    _ask_about_levels(session)
    assert session.orders() == {"Sleep": SLEEP_LEVELS}
    assert dict(column_calls) == once


def test_a_finding_handed_out_cannot_be_changed_for_the_next_caller():
    """The profile keeps what it worked out and hands the same object to every caller: a caller
    that changed it would change what the roles, the kinds and the page are told next."""
    profile = TableProfile(follow_up_table(seed=1))
    with pytest.raises(TypeError):
        profile.kinds["pid"] = ("numeric", "changed")
    for finding in (profile.found_times, profile.time_columns, profile.numeric_columns):
        assert isinstance(finding, tuple) and finding
    assert profile.time_columns[0] == "rfstime" and profile.follow_up_pair[0] == "rfstime"
