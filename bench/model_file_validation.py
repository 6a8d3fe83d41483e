"""How long a model file takes to validate, against the size of its metadata (issue 31, item 7).

A file with N metadata values, for N doubling up to the bound (MAX_METADATA_VALUES), and the
shapes a hostile file uses (one flat object, two and three levels, column entries): time to
load or refuse it, and the ratio to the previous N (about 2 when the time is linear).

    .venv/bin/python bench/model_file_validation.py
"""

import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from psl_core import ModelFileError, ProbabilisticScoringList  # noqa: E402
from psl_core.serialization import MAX_METADATA_VALUES  # noqa: E402


def base_document():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 2, size=(200, 3)).astype(float)
    y = (X[:, 0] + rng.random(200) > 1).astype(int)
    return json.loads(ProbabilisticScoringList(min_support=5).fit(X, y).to_json({}))


def shapes(n):
    """Metadata of about n values, in four shapes."""
    per = max(1, n // 1000)
    return {
        "flat": {f"k{i}": i for i in range(min(n, 9_999))},
        "two levels": {f"k{i}": {f"j{j}": j for j in range(per - 1)} for i in range(1000)},
        "three levels": {f"k{i}": {f"j{j}": {f"l{m}": m for m in range(7)} for j in range(max(1, per // 8))}
                         for i in range(1000)},
        "columns": {"columns": {f"c{i}": {"label": "x", "extra": {f"e{j}": j for j in range(per - 3)}}
                                for i in range(1000)}},
    }


def seconds(text):
    start = time.perf_counter()
    try:
        ProbabilisticScoringList.from_json(text)
        outcome = "loads"
    except ModelFileError:
        outcome = "refused"
    return time.perf_counter() - start, outcome


def main():
    document = base_document()
    previous = {}
    print(f"{'shape':<14}{'values':>8}{'MB':>7}{'seconds':>9}{'ratio':>7}  outcome")
    for n in (6_250, 12_500, 25_000, 50_000, 100_000):
        for name, blob in shapes(n).items():
            copy = json.loads(json.dumps(document))
            if name == "columns":
                copy["metadata"].update(blob)
            else:
                copy["metadata"]["blob"] = blob
            text = json.dumps(copy)
            elapsed, outcome = min(seconds(text) for _ in range(2))
            ratio = f"{elapsed / previous[name]:.2f}" if name in previous else ""
            previous[name] = elapsed
            print(f"{name:<14}{n:>8,}{len(text) / 2**20:>7.2f}{elapsed:>9.3f}{ratio:>7}  {outcome}")
    print(f"(metadata bound: {MAX_METADATA_VALUES:,} values)")


if __name__ == "__main__":
    main()
