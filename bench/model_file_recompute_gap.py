"""How far a saved list's probabilities lie from the ones its counts recompute on load (issue 40).

Six tables x three calibrations x six kinds of list (shrunk by the internal folds, fitted with
rounded sample weights, with a horizon's censoring weights, calibrated on held-out rows,
recalibrated at a site, recalibrated with weights): each is saved, loaded, and every stage's
stored probabilities compared with what :mod:`psl_core.recomputed` computes from the counts.
Prints the largest gap, which must stay far below the check's ``ROUNDING``.

    .venv/bin/python bench/model_file_recompute_gap.py
"""

import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from psl_core import ProbabilisticScoringList, recomputed  # noqa: E402
from psl_core.survival import survival_outcome  # noqa: E402
from psl_core.validation import recalibrate  # noqa: E402


def lists(seed):
    """The kinds of list on one random table, for each calibration."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(80, 600))
    X = pd.DataFrame({"a": rng.normal(size=n), "b": rng.integers(0, 2, n).astype(float), "c": rng.normal(size=n)})
    X.loc[rng.random(n) < 0.1, "c"] = np.nan
    y = ((X.a + X.b + rng.normal(size=n)) > 0.7).astype(int)
    weight = np.round(rng.uniform(0, 3, n), 1)
    time = np.where(y == 1, rng.uniform(0, 5, n), rng.uniform(2, 10, n))
    for calibration in ("sigmoid", "beta", "isotonic"):
        shrunk = ProbabilisticScoringList(calibration=calibration, recommend_folds=3).fit(X, y)
        weighted = ProbabilisticScoringList(calibration=calibration).fit(X, y, sample_weight=weight)
        yield from (
            shrunk, weighted,
            ProbabilisticScoringList(calibration=calibration, horizon=4.0).fit(X, survival_outcome(time, y == 1)),
            ProbabilisticScoringList(calibration=calibration, calibration_size=0.3).fit(X, y),
            recalibrate(shrunk, X, y), recalibrate(weighted, X, y, sample_weight=weight + 0.1),
        )


def main():
    warnings.simplefilter("ignore")
    gaps, compare = [], recomputed._check_equal  # noqa: SLF001 - the benchmark watches the check's comparison

    def watched(k, table, q):
        gaps.append(float(np.max(np.abs(table[1] - q))))
        compare(k, table, q)

    recomputed._check_equal = watched  # noqa: SLF001
    files = 0
    for seed in range(6):
        for model in lists(seed):
            ProbabilisticScoringList.from_json(model.to_json())
            files += 1
    print(f"{files} files, {len(gaps)} stages: largest |stored - recomputed| = {max(gaps):.3g} "
          f"(the check refuses beyond {recomputed.ROUNDING:g})")


if __name__ == "__main__":
    main()
