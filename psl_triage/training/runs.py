"""The app runs one fit or evaluation at a time per server process.

Streamlit runs each session's script in a thread of one process. The Monte Carlo evaluation
(:func:`psl_core.evaluation.monte_carlo_cv`) runs its splits in joblib's worker pool, which
is shared by the process: a run stopped midway (its progress callback raised, as a server
does when a user reruns the script) aborts by shutting that pool down, and a second thread's
run that took the pool meanwhile fails ("The executor underlying Parallel has been
shutdown"). The learner leaves concurrency to its caller; the app serialises its own runs
here: the Train page's fit and the Evaluation page's evaluation each hold
:func:`one_run_at_a_time`. A fit already uses the cores it can (its internal folds run in
threads), so serialising fits costs the sessions little throughput.

:func:`evaluation_seconds` says before a run about how long it will take (for a horizon list's
comparison with Cox, :func:`horizon_seconds`), and :func:`default_splits` how many splits
finish in :data:`EVALUATION_BUDGET_S`. :func:`training_estimate` says before a training
about how long it takes on a quiet machine (and, given
:func:`psl_triage.training.fit.training_slowdown`, on the machine as busy as it is now),
:func:`max_training_minutes` how long the server allows
(:data:`MAX_TRAINING_ENV`).
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace

import joblib
import pandas as pd

from psl_core.errors import PSLError
from psl_triage.words import settings as words

_ONE_RUN_AT_A_TIME = threading.RLock()  # re-entrant: a run may start a nested one in its thread
WAIT_POLL_S = 0.5
"""How often a waiting run tells its session where the run before it stands (seconds)."""


@dataclass
class Run:
    """The run that holds the lock: what it is, when it started, its progress (steps done of
    total: a training's stages, an evaluation's splits), for the sessions that wait for it."""

    what: str  # "training" or "evaluation"
    started: float  # time.monotonic()
    done: int = 0
    total: int = 0

    def progress(self, done: int, total: int) -> None:
        self.done, self.total = int(done), int(total)

    @property
    def running_s(self) -> float:
        return time.monotonic() - self.started


_running: Run | None = None


@contextmanager
def one_run_at_a_time(what: str = "run", waiting: Callable[[Run | None, float], None] | None = None) -> Iterator[Run]:
    """Hold the app's run lock for the duration of the ``with`` block; yields this run's
    :class:`Run` (report progress on it: the sessions waiting see it).

    A run waits for the one before it to end (or to be stopped), and while it waits calls
    ``waiting(the run before it, seconds waited)`` at once and every :data:`WAIT_POLL_S`, so
    its session says why nothing happens. The time a caller measures inside the block is the
    run's own, not the wait's. Released on any exception, Streamlit's stop included.
    """
    global _running
    began = time.monotonic()
    acquired = _ONE_RUN_AT_A_TIME.acquire(blocking=False)
    while not acquired:
        if waiting is not None:
            waiting(_running, time.monotonic() - began)
        acquired = _ONE_RUN_AT_A_TIME.acquire(timeout=WAIT_POLL_S)
    outer, run = _running, Run(what, time.monotonic())
    _running = run
    try:
        yield run
    finally:
        _running = outer
        _ONE_RUN_AT_A_TIME.release()


PAPER_SPLITS = 100
"""The paper's number of Monte Carlo splits: the Evaluation page's default when it is quick."""
FEWER_SPLITS = (50, 20, 10)
"""The numbers of splits the page starts with instead, when the paper's would take long."""
EVALUATION_BUDGET_S = 180.0
"""About how long the Evaluation page's default run may take (a wide table's list takes
minutes per split on a laptop, and the paper's 100 splits then most of an hour)."""


FOLD_SHARE = 0.5
"""A fold's search against the whole one, measured on medicaldata opt (431 x 164; the 16.7 s
fit's splits took 6-8 s each on 2 cores at low load)."""


def inner_fits(model) -> int:
    """How many times the list's training refitted it on internal folds: ``recommend_folds``
    times the draws of them (``recommend_draws_``; one for a list read from a file)."""
    return (model.recommend_folds or 0) * (getattr(model, "recommend_draws_", None) or 1)


def split_seconds(fit_seconds: float, folds: int, workers: int | None = None) -> float:
    """About how long one search without the internal folds takes, for a list trained in
    ``fit_seconds``: the training searched once on its rows and once per internal fold
    (``folds``, all draws of them: :func:`inner_fits`; in threads, ``workers`` at a time,
    every core by default: joblib's ``cpu_count``; a fold's search, on fewer rows and often
    to a shorter list, took about :data:`FOLD_SHARE` of the whole one)."""
    workers = workers or joblib.cpu_count()
    return fit_seconds / (1 + FOLD_SHARE * math.ceil(folds / workers))


WORKER_START_S = 9.0
"""The fixed cost of an evaluation's run before its first split: joblib starts its worker
processes, each imports psl_core and loads its compiled kernels. Measured on this 2-core
machine with ``PYTHONPATH=. python bench/worker_start.py`` (a run of 2 splits of a
one-question list with the workers cold, minus one with them warm): 6.5 to 13.1 s over 8
runs, median 9.2 s, at a load of 8-10 from other work. A run within 5 minutes of the last
reuses warm workers and finishes that much sooner than said."""


def evaluation_seconds(fit_seconds: float, folds: int, n_splits: int, workers: int | None = None) -> float:
    """About how long the Evaluation page's ``n_splits`` splits take for a list trained in
    ``fit_seconds``: the workers' start-up (:data:`WORKER_START_S`), then a search per split
    (:func:`split_seconds`), the splits ``workers`` at a time (every core: joblib's
    ``cpu_count``).
    """
    workers = workers or joblib.cpu_count()
    return WORKER_START_S + split_seconds(fit_seconds, folds, workers) * math.ceil(n_splits / workers)


HORIZON_LISTS_PER_SPLIT = 2
"""Lists a horizon list's comparison fits on each split: the list and the naive yes/no list
(the Cox model's fit takes a fraction of theirs)."""


def horizon_seconds(fit_seconds: float, folds: int, n_splits: int, workers: int | None = None) -> float:
    """About how long a horizon list's comparison with Cox (:func:`psl_core.survival.horizon_splits`)
    takes on ``n_splits`` splits: :data:`HORIZON_LISTS_PER_SPLIT` searches per split
    (:func:`split_seconds`), one split after another."""
    return HORIZON_LISTS_PER_SPLIT * split_seconds(fit_seconds, folds, workers) * n_splits


def default_splits(fit_seconds: float | None, folds: int, workers: int | None = None) -> int:
    """The page's starting number of splits: the paper's :data:`PAPER_SPLITS` when the list's
    training time is unknown or they fit in :data:`EVALUATION_BUDGET_S`, else the largest of
    :data:`FEWER_SPLITS` that does (the smallest when none does)."""
    if fit_seconds is None:
        return PAPER_SPLITS
    for n_splits in (PAPER_SPLITS, *FEWER_SPLITS):
        if evaluation_seconds(fit_seconds, folds, n_splits, workers) <= EVALUATION_BUDGET_S:
            return n_splits
    return FEWER_SPLITS[-1]


MAX_TRAINING_ENV = "PSL_MAX_TRAINING_MINUTES"
DEFAULT_MAX_TRAINING_MINUTES = 5.0
"""The longest training the server starts, in minutes, unless :data:`MAX_TRAINING_ENV` says
otherwise: a training holds the one-run lock, so every other session's Train and Evaluation
wait behind it (issue 40: a table of 60 columns of 29 levels trained for 537 s)."""

SECONDS_PER_ANSWER = 1.49e-7
"""Seconds one yes/no candidate question (a binary column, one category of a categorical
column) costs per training row and stage, the internal folds that recommend the list's length
included, on a quiet machine. Measured on this 2-core machine with ``bench/training_time.py``
(load average under 2.5): 60 categorical columns of 29 levels on 3,334 training rows, 10 and
30 stages, 11.4 s and 33.2 s."""
SECONDS_PER_THRESHOLD = 1.13e-6
"""The same for a question with a threshold to search (a numeric column, the grouping of a
categorical one's levels): 40 numeric columns on 3,334 training rows, 40 stages, 6.0 s."""
SECONDS_PER_QUESTION_ROW = 7.75e-8
"""Seconds each candidate question costs per training row once per training (sorting, the
calibration and the lists' ends): the part of the 11.4 s above that does not grow with the stages."""


SLOWDOWN_CHECK_SHARE = 0.1
"""A training estimated at more than this share of the server's limit on a quiet machine is
timed on a sample first (:func:`psl_triage.training.fit.training_slowdown`); below it even a
machine ten times slower would finish within the limit, and the sample's time is saved."""


@dataclass(frozen=True)
class TrainingEstimate:
    """About how long a training takes before it starts (:func:`training_estimate`): its
    candidate questions (yes/no ones and ones with a threshold), training rows, the stages it
    may reach, the seconds; the categorical columns with the most levels, largest first; and
    how many times slower than on a quiet machine the machine runs it now (``slowdown``,
    :func:`psl_triage.training.fit.training_slowdown`; 1 on a quiet machine), which the
    seconds include."""

    answers: int
    thresholds: int
    rows: int
    stages: int
    seconds: float
    widest: tuple[tuple[str, int], ...]
    slowdown: float = 1.0

    @property
    def questions(self) -> int:
        return self.answers + self.thresholds

    def seconds_for(self, stages: int) -> float:
        """The seconds of the same training cut at ``stages`` stages, at the same slowdown."""
        per_stage = self.rows * (SECONDS_PER_ANSWER * self.answers + SECONDS_PER_THRESHOLD * self.thresholds)
        return self.slowdown * (stages * per_stage + SECONDS_PER_QUESTION_ROW * self.rows * self.questions)

    def slowed(self, slowdown: float) -> TrainingEstimate:
        """The same training on a machine running ``slowdown`` times slower than a quiet one."""
        estimate = replace(self, slowdown=float(slowdown))
        return replace(estimate, seconds=estimate.seconds_for(self.stages))

    def stages_within(self, seconds: float) -> int:
        """The most stages that train within ``seconds`` (0 when none do)."""
        stages = self.stages
        while stages > 0 and self.seconds_for(stages) > seconds:
            stages -= 1
        return stages


def training_estimate(X, options) -> TrainingEstimate:
    """About how long training ``options`` on the prepared features ``X`` (a DataFrame) takes.

    The learner tries every candidate question at every stage, so the time grows with the
    candidates, the training rows (``1 - test_fraction`` of X's) and the stages. Without a
    maximum length the list may reach one stage per question: the estimate is then what the
    longest list would take, an upper bound. A categorical column gives one question per
    level and one grouping of its levels (more than two of them, ``group_categories``), a
    column with missing values each question twice (a missing answer on either side), once
    towards the stages.
    """
    answers = thresholds = families = 0
    widest = []
    for name in X.columns:
        column = X[name]
        twice = 2 if column.isna().any() else 1
        if isinstance(column.dtype, pd.CategoricalDtype):
            levels = int(column.nunique())
            grouped = levels > 2 and (options.group_categories or column.cat.ordered)
            answers, thresholds = answers + twice * levels, thresholds + twice * grouped
            families += levels + grouped
            widest.append((str(name), levels))
        else:
            binary = bool(column.dropna().isin((0, 1)).all())
            answers, thresholds = answers + twice * binary, thresholds + twice * (not binary)
            families += 1
    rows = math.ceil(len(X) * (1 - options.test_fraction))
    stages = families if options.max_stages is None else min(options.max_stages, families * options.max_feature_uses)
    estimate = TrainingEstimate(answers, thresholds, rows, stages, 0.0,
                                tuple(sorted(widest, key=lambda pair: -pair[1])))
    return replace(estimate, seconds=estimate.seconds_for(stages))


def max_training_minutes(value: str | None) -> float:
    """The longest training the server starts, in minutes, from the value of
    :data:`MAX_TRAINING_ENV` (None or empty: :data:`DEFAULT_MAX_TRAINING_MINUTES`).

    Raises
    ------
    PSLError
        The value is not a positive number of minutes.
    """
    if value is None or not value.strip():
        return DEFAULT_MAX_TRAINING_MINUTES
    try:
        minutes = float(value.strip())
    except ValueError:
        minutes = math.nan
    if not (math.isfinite(minutes) and minutes > 0):
        raise PSLError(words.BAD_MAX_TRAINING.format(env_var=MAX_TRAINING_ENV, value=value))
    return minutes

