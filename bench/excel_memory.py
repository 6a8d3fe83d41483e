"""Peak memory of reading inflated Excel uploads (issue 15): one file per run, in a fresh process.

    python bench/excel_memory.py MB {blank,cell,cells}

builds a workbook whose first sheet's XML carries MB megabytes of blank space between rows
("blank"), one cell of MB megabytes of text ("cell"), or MB megabytes of one-digit cells in
rows of 30 ("cells"), reads it with psl_triage.data.load_table and prints the process's peak
resident memory before and after (ru_maxrss). Results: bench/README.md.
"""

import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "logic")]
from test_excel_bound import inflated_xlsx  # noqa: E402  (the tests' builder of these files)

from psl_triage.data import load_table  # noqa: E402


def main():
    megabytes, kind = int(sys.argv[1]), sys.argv[2]
    data = inflated_xlsx(megabytes * 2**20, kind)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    start = time.perf_counter()
    try:
        result = f"{len(load_table(data, 'inflated.xlsx').frame)} rows"
    except Exception as exc:  # noqa: BLE001 - the benchmark reports any outcome
        result = f"{type(exc).__name__}: {str(exc)[:80]}"
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{megabytes} MB {kind}, file {len(data) / 2**20:.2f} MB: {result}; peak RSS "
          f"{before:.0f} -> {after:.0f} MB, {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
