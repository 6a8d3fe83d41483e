"""How long the first listing of a model folder of thousands of saved lists takes (issue 40, item 2).

A list of 11 columns (one of six categories) learned on 2,000 rows is saved once and copied N
times; the folder is listed twice (:func:`psl_triage.model_file.store.list_models`): the first
listing reads and checks every file, the second only what changed. The CPU time is
the figure to compare on a shared machine. ``--validator-only`` checks
every file with the schema's validator alone, as before the quick check (psl_core.quick_schema).

    nice -n 10 .venv/bin/python bench/store_listing.py [N] [--validator-only]
"""

import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from psl_core import ProbabilisticScoringList, serialization  # noqa: E402
from psl_triage.model_file.store import list_models, save_model  # noqa: E402


def saved_list(folder):
    rng = np.random.default_rng(0)
    n = 2000
    X = pd.DataFrame({f"x{i}": rng.normal(size=n).round(2) for i in range(10)})
    X["c"] = pd.Categorical(rng.choice(list("abcdef"), n))
    y = ((X["x0"] + X["x1"] + rng.normal(size=n)) > 0.5).astype(int)
    model = ProbabilisticScoringList(recommend_folds=5, min_support=5, group_categories=True).fit(X, y)
    columns = {name: {"label": name.upper(), "unit": "", "kind": "numeric", "category_labels": {}} for name in X.columns[:-1]}
    columns["c"] = {"label": "C", "unit": "", "kind": "categorical", "category_labels": {k: k for k in "abcdef"}}
    metadata = {"dataset": {"name": "synthetic", "n_rows": n, "n_rows_source": n, "n_positive": int(y.sum()),
                            "n_negative": int(n - y.sum()), "positive_label": "sick", "negative_label": "well"},
                "columns": columns}
    return save_model(model, "bench", metadata, folder).path


def main():
    n = int(next((arg for arg in sys.argv[1:] if arg.isdigit()), 5000))
    if "--validator-only" in sys.argv:
        serialization._quick_check = lambda: lambda data: False
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        path = saved_list(folder)
        for i in range(2, n + 1):
            shutil.copyfile(path, folder / f"bench-v{i}.json")
        print(f"{n:,} files of {path.stat().st_size:,} bytes")
        for listing in ("first", "second"):
            start, cpu = time.perf_counter(), time.process_time()
            models, problems = list_models(folder)
            elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
            assert len(models) == n and not problems, problems[:3]
            print(f"{listing} listing: {elapsed:.2f} s, {cpu:.2f} s of CPU ({1000 * cpu / n:.2f} ms a file)")


if __name__ == "__main__":
    main()
