"""What a table's values say about its columns is worked out once per table
(psl_triage.data.profile.TableProfile): an upload, and the choices after it, infer each column's
kind once and look for follow-up times once."""

from __future__ import annotations

import collections
import sys

import pytest

from psl_triage.data import columns, event_times, follow_up
from psl_triage.data.demo import load_demo
from psl_triage.data.session import DatasetSession
from tests.tables import follow_up_table

COUNTED = {"infer_kind": columns, "follow_up_evidence": event_times, "guess_follow_up": follow_up,
           "time_columns": follow_up}


@pytest.fixture
def calls(monkeypatch):
    """How often each table-only finding runs: every module of the app holding the function by
    name gets a counting wrapper."""
    counts = collections.Counter()
    for name, home in COUNTED.items():
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
