"""Where a default fit spends its time: cProfile of ProbabilisticScoringList().fit.

Run from the repository root with the project's python:

    python bench/profile_fit.py                                  # the four shared datasets and breast cancer
    python bench/profile_fit.py --datasets pima --repeat 10 --top 15
    python bench/profile_fit.py --synthetic 1000000 10 --max-stages 5

Each dataset is fitted once untimed (numba's kernels loaded), then ``--repeat`` times under
cProfile on all its rows. Printed per dataset: the CPU time per fit, the share of the
compiled threshold search (``kernels._search_feature``, one call per feature and stage),
and the functions with the most time of their own.
"""

import argparse
import cProfile
import io
import pstats
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(REPO_ROOT.parent))
sys.path.insert(0, str(REPO_ROOT))

from bench_datasets import load_dataset  # noqa: E402

from psl_core import ProbabilisticScoringList  # noqa: E402

DEFAULT_DATASETS = ("heart_cleveland", "pima", "bcc_coimbra", "ilpd", "breast_cancer")


def profile(name, X, y, repeat, top, max_stages):
    def fit():
        return ProbabilisticScoringList(max_stages=max_stages).fit(X, y)

    model = fit()
    profiler = cProfile.Profile()
    cpu = time.process_time()
    profiler.enable()
    for _ in range(repeat):
        fit()
    profiler.disable()
    cpu = (time.process_time() - cpu) / repeat
    stats = pstats.Stats(profiler)
    total = sum(entry[2] for entry in stats.stats.values())
    kernel = sum(entry[2] for key, entry in stats.stats.items() if key[2] == "_search_feature")
    print(f"\n{name}: {X.shape[0]} x {X.shape[1]}, {model.n_stages_ - 1} stages; {cpu:.3f} s CPU per fit "
          f"(under the profiler); _search_feature {100 * kernel / total:.0f} % of the time")
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(top)
    lines = out.getvalue().splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip().startswith("ncalls"))
    print("\n".join(lines[start:]).rstrip())


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", nargs="+", default=list(DEFAULT_DATASETS))
    parser.add_argument("--synthetic", type=int, nargs=2, metavar=("ROWS", "FEATURES"),
                        help="bench/scaling.py's synthetic table instead of the datasets")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--top", type=int, default=8)
    parser.add_argument("--max-stages", type=int, default=None)
    args = parser.parse_args(argv)
    if args.synthetic:
        from scaling import synthetic

        X, y = synthetic(*args.synthetic)
        profile(f"synthetic {args.synthetic[0]} x {args.synthetic[1]}", X, y, args.repeat, args.top,
                args.max_stages)
        return
    for name in args.datasets:
        X, y, _ = load_dataset(name)
        profile(name, X, y, args.repeat, args.top, args.max_stages)


if __name__ == "__main__":
    main()
