"""The hostile corpus (tests/hostile_corpus.py) on the real server: every table uploaded on the
Data page, and Triage opened on a model folder of hostile files (a link to /dev/zero, a FIFO, a
folder, a link out of the folder, a 100 MB sparse file, 49,000 metadata keys, ...). No page
shows an exception, Triage lists the good lists, and the server's peak resident memory
(VmHWM of /proc/<pid>/status) stays under 1 GB. ``bench/hostile_memory.py`` runs this test
and prints the figure.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from playwright.sync_api import expect

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from hostile_corpus import hostile_tables, write_model_folder  # noqa: E402
from test_upload_memory import BOUND_KB, peak_rss_kb  # noqa: E402

from psl_triage.model_file.store import list_models  # noqa: E402


def test_the_hostile_corpus_keeps_the_server_up_and_under_1_gb(own_app, tmp_path):
    app, pid = own_app
    kinds = write_model_folder(tmp_path / "models")  # the server's model folder
    app.open()
    app.widget("w_source").get_by_text("Upload my own table").click()
    app.wait_idle()
    at_start = peak_rss_kb(pid)
    for name, data in hostile_tables().items():
        app.widget("w_upload").locator('input[type="file"]').set_input_files(
            {"name": name, "mimeType": "text/csv", "buffer": data})
        app.wait_idle(120_000)
        app.assert_no_exception()
    app.navigate("Triage")
    app.wait_idle(120_000)
    app.assert_no_exception()
    expect(app.page.get_by_text(re.compile("skipped")).first).to_be_attached()
    listed, _ = list_models(tmp_path / "models")
    assert len(listed) == sum(kind == "good" for kind in kinds.values()) > 1  # the good lists, at least two
    peak = peak_rss_kb(pid)
    print(f"server peak RSS: {at_start / 1024:.0f} MB after start, {peak / 1024:.0f} MB after "
          f"{len(hostile_tables())} hostile tables and a folder of {len(kinds)} model files")
    assert peak < BOUND_KB, f"the server's peak resident memory reached {peak / 1024:.0f} MB"
