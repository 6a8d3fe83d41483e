"""monte_carlo_cv in parallel: joblib worker processes and a Dask cluster give the serial
result, row for row, and the progress moves once per finished split."""

import gc

import joblib
import numpy as np
import pandas as pd
import pytest

from psl_core import ProbabilisticScoringList
from psl_core.errors import PSLError
from psl_core.evaluation import monte_carlo_cv

SPLITS = 4
KWARGS = {"n_splits": SPLITS, "seed": 5, "cost_ratio": 2.0, "confidences": (0.8, 0.95)}


def short_list():
    return ProbabilisticScoringList(max_stages=3)


@pytest.fixture(scope="module")
def serial(demo_prepared):
    return monte_carlo_cv(demo_prepared.X, demo_prepared.y, short_list, n_jobs=1, **KWARGS)


def assert_same(result, expected):
    pd.testing.assert_frame_equal(result.measures, expected.measures)
    pd.testing.assert_frame_equal(result.three_way, expected.three_way)
    assert result.settings == expected.settings


def test_worker_processes_give_the_serial_result_with_progress_per_split(demo_prepared, serial):
    calls = []
    # A closure, as the Evaluation page passes: sent to the workers by value.
    stages = 3
    parallel = monte_carlo_cv(
        demo_prepared.X, demo_prepared.y, lambda: ProbabilisticScoringList(max_stages=stages), n_jobs=2,
        progress=lambda done, total: calls.append((done, total)), **KWARGS,
    )
    assert_same(parallel, serial)
    assert calls == [(done, SPLITS) for done in range(1, SPLITS + 1)]
    assert list(parallel.measures["split"].unique()) == list(range(SPLITS))


def test_a_dask_cluster_gives_the_serial_result(demo_prepared, serial):
    distributed = pytest.importorskip("distributed")
    calls = []
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None,
        ) as cluster,
        distributed.Client(cluster),
        joblib.parallel_backend("dask"),
    ):
        result = monte_carlo_cv(
            demo_prepared.X, demo_prepared.y, list_on_a_dask_worker, progress=lambda *args: calls.append(args),
            **KWARGS,
        )
    assert_same(result, serial)
    assert len(calls) == SPLITS and calls[-1] == (SPLITS, SPLITS)
    assert len(DASK_WORKERS) == SPLITS  # every split's list was made on a worker of the cluster


DASK_WORKERS = []


def list_on_a_dask_worker():
    """short_list, made where distributed.get_worker() knows the worker (it raises elsewhere)."""
    import distributed

    DASK_WORKERS.append(distributed.get_worker().address)
    return short_list()


def test_a_numpy_table_runs_in_workers_too(demo_prepared, serial):
    numeric = demo_prepared.X.select_dtypes("number")
    kwargs = dict(KWARGS, n_splits=2)
    one = monte_carlo_cv(numeric.to_numpy(), demo_prepared.y, short_list, n_jobs=1, **kwargs)
    two = monte_carlo_cv(numeric.to_numpy(), demo_prepared.y, short_list, n_jobs=2, **kwargs)
    assert_same(two, one)
    assert np.isfinite(two.measures["value"]).all()


@pytest.mark.parametrize("n_jobs", [0, 1.5, True, "all"])
def test_bad_n_jobs_names_the_parameter(demo_prepared, n_jobs):
    with pytest.raises(PSLError, match="n_jobs"):
        monte_carlo_cv(demo_prepared.X, demo_prepared.y, short_list, n_jobs=n_jobs, **KWARGS)


class Interrupted(Exception):
    """What a progress callback raises when the app stops a run midway (a rerun)."""


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore:.*tasks which were still being processed:UserWarning")
def test_a_run_stopped_midway_leaves_the_next_run_working(demo_prepared, serial):
    """A run whose caller stops it from the progress callback (the app's rerun) must not
    leave its workers to be shut down whenever its generator is collected: here during
    the next run, as happens in a long-lived server."""

    def stop(done, total):
        raise Interrupted

    stopped = []
    try:
        monte_carlo_cv(demo_prepared.X, demo_prepared.y, short_list, n_jobs=2, progress=stop, **KWARGS)
    except Interrupted as exc:
        stopped.append(exc)  # the traceback keeps the stopped run's frames alive

    def collect_the_stopped_run(done, total):
        if stopped:
            stopped.clear()
            gc.collect()

    result = monte_carlo_cv(demo_prepared.X, demo_prepared.y, short_list, n_jobs=2,
                            progress=collect_the_stopped_run, **KWARGS)
    assert_same(result, serial)
