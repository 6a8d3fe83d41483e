"""A fair shared server (issue 40, item 5): a run that waits for another session's says so at
once, with where that run stands, and the time it reports is its own, not the wait's."""

import threading
import time

from psl_triage.training import runs
from psl_triage.training.options import TrainingOptions
from psl_triage.training.runs import one_run_at_a_time
from psl_triage.training.session import TrainingSession
from psl_triage.words.common import queued
from tests.tables import dataset_session


def hold_the_lock(seconds, started):
    with one_run_at_a_time("evaluation") as run:
        run.progress(12, 50)
        started.set()
        time.sleep(seconds)


def test_a_waiting_run_hears_at_once_what_runs_and_where_it_stands():
    started, calls = threading.Event(), []
    other = threading.Thread(target=hold_the_lock, args=(1.5, started))
    other.start()
    started.wait(10)
    began = time.monotonic()
    with one_run_at_a_time("training", lambda running, waited: calls.append((running, waited, time.monotonic()))):
        pass
    other.join()
    assert calls and calls[0][2] - began < 0.1  # at once
    running, waited, _ = calls[0]
    assert (running.what, running.done, running.total) == ("evaluation", 12, 50)
    text = queued("training", running, waited)
    assert text.startswith("Waiting: another session's evaluation is in progress (12 of 50 splits done, running for")
    assert "your training starts as soon as it ends" in text
    assert len(calls) >= 2  # told again while it waits
    assert runs._running is None


def test_the_time_of_a_fit_is_its_own_not_the_wait(demo_prepared):
    session, dataset = TrainingSession(), dataset_session(demo_prepared)
    started, waits = threading.Event(), []
    other = threading.Thread(target=hold_the_lock, args=(3.0, started))
    other.start()
    started.wait(10)
    began = time.perf_counter()
    seconds = session.train(dataset, TrainingOptions(max_stages=1), waiting=lambda running, waited: waits.append(waited))
    total = time.perf_counter() - began
    other.join()
    assert waits and total > 2.5
    assert seconds < total - 2.0, (seconds, total)  # the fit's own time, not the 3 s behind the other run
    assert session.fit_seconds == seconds
