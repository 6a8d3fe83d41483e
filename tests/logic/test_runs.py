"""The app serialises its own runs (psl_triage.training.runs): the learner holds no process-wide lock."""

import threading

import pandas as pd
import pytest

from psl_core import ProbabilisticScoringList
from psl_core.evaluation import monte_carlo_cv
from psl_triage.training import runs
from psl_triage.training.runs import (
    EVALUATION_BUDGET_S,
    PAPER_SPLITS,
    WORKER_START_S,
    default_splits,
    evaluation_seconds,
    one_run_at_a_time,
    split_seconds,
)

KWARGS = {"n_splits": 4, "seed": 5, "cost_ratio": 2.0, "confidences": (0.8, 0.95)}


def short_list():
    return ProbabilisticScoringList(max_stages=3)


class Interrupted(Exception):
    """What a progress callback raises when the app stops a run midway (a rerun)."""


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore:.*tasks which were still being processed:UserWarning")
def test_a_run_stopped_in_one_thread_leaves_another_threads_run_whole(demo_prepared):
    """A server runs each user's page in its own thread: under the app's run lock, one
    user's stopped run must not break another's that runs at the same time (joblib's
    worker pool is the process's, and a stopped run shuts it down)."""
    serial = monte_carlo_cv(demo_prepared.X, demo_prepared.y, short_list, n_jobs=1, **KWARGS)

    def stop(done, total):
        raise Interrupted

    results, errors = {}, []

    def run(name, progress):
        try:
            with one_run_at_a_time():
                results[name] = monte_carlo_cv(demo_prepared.X, demo_prepared.y, short_list, n_jobs=2,
                                               progress=progress, **KWARGS)
        except Interrupted:
            results[name] = "stopped"
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(f"stopped{i}", stop)) for i in range(2)]
    threads.insert(1, threading.Thread(target=run, args=("whole", None)))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    pd.testing.assert_frame_equal(results["whole"].measures, serial.measures)
    pd.testing.assert_frame_equal(results["whole"].three_way, serial.three_way)


def test_runs_are_one_at_a_time_and_the_lock_is_reentrant():
    """A run that starts a nested one in its thread goes on (no deadlock); while it runs,
    another thread cannot start one."""
    inside, release, seen = threading.Event(), threading.Event(), {}

    def nested_run():
        with one_run_at_a_time(), one_run_at_a_time():
            inside.set()
            release.wait()

    runner = threading.Thread(target=nested_run, daemon=True)
    runner.start()
    # A guard against hanging, not a measure of time: a lock that is not re-entrant never gets here.
    assert inside.wait(timeout=60), "a nested run in the same thread deadlocked"

    def other_thread():
        seen["free"] = runs._ONE_RUN_AT_A_TIME.acquire(blocking=False)

    other = threading.Thread(target=other_thread)
    other.start()
    other.join()
    release.set()
    runner.join()
    assert seen["free"] is False  # another thread's run waits for this one
    assert runs._ONE_RUN_AT_A_TIME.acquire(blocking=False)  # and may start once it ended
    runs._ONE_RUN_AT_A_TIME.release()


def test_the_evaluation_time_follows_the_training_time_and_the_cores():
    # Trained in 60 s with 5 internal folds on 2 cores: the main search (24 s) and three rounds
    # of folds, each half as long; 100 splits two at a time.
    assert evaluation_seconds(60.0, 5, 100, workers=2) == pytest.approx(WORKER_START_S + 24.0 * 50)
    assert evaluation_seconds(60.0, 0, 4, workers=2) == WORKER_START_S + 60.0 * 2
    assert evaluation_seconds(60.0, 5, 100, workers=8) < evaluation_seconds(60.0, 5, 100, workers=2)


def test_the_estimate_counts_the_workers_start_up():
    """mi/CHAIN: "About 3 s" for 100 splits that took 10.7 s; the workers' start-up, a fixed
    cost whatever the splits, was not counted (psl_triage.training.runs.WORKER_START_S, measured)."""
    assert 5.0 <= WORKER_START_S <= 20.0
    quick = evaluation_seconds(0.05, 5, 100, workers=2)
    assert quick >= WORKER_START_S and evaluation_seconds(0.05, 5, 2, workers=2) >= WORKER_START_S
    assert quick - WORKER_START_S == pytest.approx(split_seconds(0.05, 5, 2) * 50)


def test_the_evaluation_starts_with_fewer_splits_when_the_paper_s_would_take_long():
    assert default_splits(None, 5) == PAPER_SPLITS  # a loaded list: nothing to judge by
    assert default_splits(1.0, 5, workers=2) == PAPER_SPLITS  # a small table
    wide = default_splits(78.0, 5, workers=2)  # medicaldata opt's 164 columns, as a new user met it
    assert wide < PAPER_SPLITS
    assert evaluation_seconds(78.0, 5, wide, workers=2) <= EVALUATION_BUDGET_S
    assert default_splits(10_000.0, 5, workers=2) == 10


def test_the_estimate_counts_every_draw_of_the_internal_folds():
    from types import SimpleNamespace

    from psl_triage.training.runs import inner_fits

    assert inner_fits(SimpleNamespace(recommend_folds=5, recommend_draws_=3)) == 15  # few of the rarer class
    assert inner_fits(SimpleNamespace(recommend_folds=5, recommend_draws_=None)) == 5  # read from a file
    assert inner_fits(SimpleNamespace(recommend_folds=None, recommend_draws_=None)) == 0
    assert evaluation_seconds(60.0, 15, 10, workers=2) < evaluation_seconds(60.0, 5, 10, workers=2)
