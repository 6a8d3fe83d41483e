"""The app runs one fit or evaluation at a time per server process.

Streamlit runs each session's script in a thread of one process. The Monte Carlo evaluation
(:func:`psl_core.evaluation.monte_carlo_cv`) runs its splits in joblib's worker pool, which
is shared by the process: a run stopped midway (its progress callback raised, as a server
does when a user reruns the script) aborts by shutting that pool down, and a second thread's
run that took the pool meanwhile fails ("The executor underlying Parallel has been
shutdown"). The learner leaves concurrency to its caller; the app serialises its own runs
here: the Train page's fit and the Evaluation page's evaluation each hold
:func:`one_run_at_a_time`. A fit's compiled kernels hold the interpreter lock while they
run, so serialising fits costs the sessions little throughput.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

_ONE_RUN_AT_A_TIME = threading.RLock()  # re-entrant: a run may start a nested one in its thread


@contextmanager
def one_run_at_a_time() -> Iterator[None]:
    """Hold the app's run lock for the duration of the ``with`` block.

    A run waits for the one before it to end (or to be stopped); released on any exception,
    Streamlit's stop included.
    """
    with _ONE_RUN_AT_A_TIME:
        yield
