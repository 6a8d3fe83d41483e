"""A training that would run for minutes is estimated before it starts, bounded by the server's
setting (PSL_MAX_TRAINING_MINUTES), and the user told what to change (issue 40, item 5). The
estimate is at the machine's present load: a busy machine's is longer."""

from __future__ import annotations

import os
import subprocess
import sys
from contextlib import contextmanager

import numpy as np
import pandas as pd
import pytest

from psl_core.errors import PSLError
from psl_triage.data.demo import load_demo
from psl_triage.data.session import DatasetSession
from psl_triage.training import fit
from psl_triage.training.options import SETUPS, TrainingOptions
from psl_triage.training.runs import (
    DEFAULT_MAX_TRAINING_MINUTES,
    MAX_TRAINING_ENV,
    max_training_minutes,
    training_estimate,
)
from psl_triage.training.session import TrainingSession, check_training_time
from tests.tables import dataset_session

RECOMMENDED = TrainingOptions(**SETUPS["recommended"])


def quiet(X, rows):
    """A machine with nothing else running: the estimate's own constants."""
    return 1.0


@contextmanager
def busy_machine():
    """Four times as many programs as cores, each spinning a core for as long as the block runs."""
    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(4 * (os.cpu_count() or 1))]
    try:
        yield
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()


def wide_categorical_table(n_columns=60, levels=29, n_rows=5000, seed=0) -> pd.DataFrame:
    """The issue's table: 60 categorical columns of 29 levels, 5,000 rows, a yes/no outcome."""
    rng = np.random.default_rng(seed)
    codes = rng.integers(0, levels, size=(n_rows, n_columns))
    names = np.array([f"L{k:02d}" for k in range(levels)])
    table = pd.DataFrame({f"c{j}": names[codes[:, j]] for j in range(n_columns)})
    table["outcome"] = np.where((codes[:, :5] % 3 == 0).sum(axis=1) + rng.normal(0, 1, n_rows) > 2, "yes", "no")
    return table


@pytest.fixture(scope="module")
def wide_dataset():
    data = DatasetSession(load_demo)
    data.read_upload("t", "wide.csv", lambda: wide_categorical_table().to_csv(index=False).encode(), 10**9)
    data.choose_outcome("outcome")
    data.choose_positive(["yes"])
    assert data.refresh() is not None, data.prepare_error
    return data


def test_the_issues_table_counts_its_questions_rows_and_stages(wide_dataset):
    estimate = training_estimate(wide_dataset.prepared.X, RECOMMENDED)
    # 29 yes/no questions and one grouping of the levels per column; a third of the rows held out.
    assert (estimate.answers, estimate.thresholds, estimate.rows) == (60 * 29, 60, 3334)
    assert estimate.stages == estimate.questions  # no maximum length: up to one stage per question
    assert estimate.widest[0] == ("c0", 29)
    assert estimate.seconds > 60 * DEFAULT_MAX_TRAINING_MINUTES
    shorter = training_estimate(wide_dataset.prepared.X, TrainingOptions(**SETUPS["recommended"], max_stages=10))
    assert shorter.stages == 10 and shorter.seconds < estimate.seconds / 50


def test_the_refusal_comes_before_any_fit_and_says_what_to_change(wide_dataset, monkeypatch):
    fits = []
    monkeypatch.setattr(fit, "train_list", lambda *args, **kwargs: fits.append(args))
    monkeypatch.setattr(fit, "training_slowdown", quiet)
    monkeypatch.delenv(MAX_TRAINING_ENV, raising=False)
    session = TrainingSession()
    with pytest.raises(PSLError) as refused:
        session.train(wide_dataset, RECOMMENDED)
    said = str(refused.value)
    assert fits == [] and session.model is None
    assert said.startswith("Training was not started: with 1,800 candidate questions on 3,334 training rows")
    assert f"at most {DEFAULT_MAX_TRAINING_MINUTES:g} minutes (the setting {MAX_TRAINING_ENV})" in said
    fitting = int(said.split("'Maximum number of stages' to ")[1].split()[0])
    assert fitting >= 10
    assert "c0 (29 levels)" in said and "leave out columns" in said
    assert "the server is busy" not in said
    within = TrainingOptions(**SETUPS["recommended"], max_stages=fitting)
    X = wide_dataset.prepared.X
    assert check_training_time(X, within, slowdown=quiet).seconds <= 60 * DEFAULT_MAX_TRAINING_MINUTES
    with pytest.raises(PSLError):  # one stage more is refused
        check_training_time(X, TrainingOptions(**SETUPS["recommended"], max_stages=fitting + 1), slowdown=quiet)


def test_a_busy_machine_makes_the_estimate_longer_and_refuses_before_any_fit(wide_dataset, monkeypatch):
    """A training that fits within the limit on a quiet machine is refused on a busy one, before
    any fit, saying the server is busy: its estimate comes from timing the table's own work."""
    monkeypatch.delenv(MAX_TRAINING_ENV, raising=False)
    X = wide_dataset.prepared.X
    quiet_most = training_estimate(X, RECOMMENDED).stages_within(60 * DEFAULT_MAX_TRAINING_MINUTES)
    within = TrainingOptions(**SETUPS["recommended"], max_stages=quiet_most)
    assert check_training_time(X, within, slowdown=quiet).slowdown == 1.0
    fits = []
    monkeypatch.setattr(fit, "train_list", lambda *args, **kwargs: fits.append(args))
    session = TrainingSession()
    with busy_machine():
        slowdown = fit.training_slowdown(X, 3334)
        with pytest.raises(PSLError) as refused:
            session.train(wide_dataset, within)
    assert slowdown >= 1.5, slowdown
    said = str(refused.value)
    assert fits == [] and session.model is None
    assert said.startswith("Training was not started") and "the server is busy: it runs a training about" in said


def test_timing_a_large_table_fits_a_bounded_sample(monkeypatch):
    """On a 1,000,000-row table one fit of one column on all its training rows took 0.9 s of CPU
    and, on a busy machine, 3.1-3.6 s before the Train click went on, past the 2 s the timing
    promises. It fits on at most SLOWDOWN_SAMPLE_ROWS rows, whatever the table."""
    sizes = []

    class Counted(fit.ProbabilisticScoringList):
        def fit(self, X, y, *args, **kwargs):
            sizes.append(len(X))
            return super().fit(X, y, *args, **kwargs)

    monkeypatch.setattr(fit, "ProbabilisticScoringList", Counted)
    X = pd.DataFrame({"lab": np.random.default_rng(0).normal(size=200_000).round(2)})
    assert fit.training_slowdown(X, 133_334) >= 1.0
    assert sizes and max(sizes) == fit.SLOWDOWN_SAMPLE_ROWS
    sizes.clear()
    fit.training_slowdown(X.iloc[:3000], 2000)
    assert set(sizes) == {2000}


def test_a_short_training_is_not_timed_first(demo_prepared):
    def timed(X, rows):
        raise AssertionError("a training far below the limit was timed")

    assert check_training_time(demo_prepared.X, RECOMMENDED, environ={}, slowdown=timed).slowdown == 1.0


def test_the_setting_moves_the_bound(wide_dataset):
    options = TrainingOptions(**SETUPS["recommended"], max_stages=10)
    check_training_time(wide_dataset.prepared.X, options, environ={}, slowdown=quiet)
    with pytest.raises(PSLError, match="at most 0.01 minutes"):
        check_training_time(wide_dataset.prepared.X, options, environ={MAX_TRAINING_ENV: "0.01"}, slowdown=quiet)


def test_the_demo_trains_as_before(demo_prepared, monkeypatch):
    monkeypatch.delenv(MAX_TRAINING_ENV, raising=False)
    assert training_estimate(demo_prepared.X, RECOMMENDED).seconds < 10
    session = TrainingSession()
    session.train(dataset_session(demo_prepared), TrainingOptions(max_stages=2))
    assert session.model is not None


@pytest.mark.parametrize("value", ["0", "-3", "five", "nan", "inf"])
def test_a_bad_setting_is_refused_naming_it(value):
    with pytest.raises(PSLError, match=f"{MAX_TRAINING_ENV} must be a positive number of minutes, got '{value}'"):
        max_training_minutes(value)


def test_the_setting_reads_minutes_and_defaults_when_unset():
    assert max_training_minutes(None) == max_training_minutes(" ") == DEFAULT_MAX_TRAINING_MINUTES
    assert max_training_minutes("12.5") == 12.5
