"""The server's memory on the hostile corpus (issue 31): peak resident memory of a real
Streamlit server after every table of tests/hostile_corpus.py is uploaded on the Data page and
Triage lists a model folder of hostile files (a link to /dev/zero, a FIFO, a 100 MB sparse
file, 49,000 metadata keys, ...). The bound is 1 GB. And the 45 MB upload case (issue 40):
two sessions each upload a 45 MB table, then close; the server's resident memory idle (both
sessions open, before the uploads), at its peak, and a minute after the sessions closed.

Runs tests/browser/test_hostile_corpus_memory.py and tests/browser/test_upload_memory_release.py
(Playwright with /usr/bin/chromium) and prints their figures:

    .venv/bin/python bench/hostile_memory.py
"""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

if __name__ == "__main__":
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-s", "-p", "no:cacheprovider",
         "tests/browser/test_hostile_corpus_memory.py", "tests/browser/test_upload_memory_release.py"],
        cwd=ROOT, capture_output=True, text=True,
    )
    lines = [line for line in run.stdout.splitlines() if "peak RSS" in line or "server RSS" in line or "passed" in line or "failed" in line]
    print("\n".join(lines) or run.stdout[-2000:] + run.stderr[-2000:])
    sys.exit(run.returncode)
