"""A wrong setting stops the server at start with the reason (issue 40, items 4 and 6): an
invalid PSL_MAX_UPLOAD_MB is not passed on to Streamlit, a PSL_FRAME_ANCESTORS that is not a
list of origins does not open the app to every site; a PSL_MAX_TRAINING_MINUTES that is not a
positive number is not taken for no limit."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(("setting", "value", "reason"), [
    ("PSL_MAX_UPLOAD_MB", "0", "PSL_MAX_UPLOAD_MB must be a whole number of megabytes from 1 to 10,000, got '0'"),
    ("PSL_MAX_UPLOAD_MB", "3000000000", "got '3000000000'"),
    ("PSL_MAX_UPLOAD_MB", "50MB", "got '50MB'"),
    ("PSL_MAX_UPLOAD_MB", "-1", "got '-1'"),
    ("PSL_MAX_TRAINING_MINUTES", "0", "PSL_MAX_TRAINING_MINUTES must be a positive number of minutes, got '0'"),
    ("PSL_FRAME_ANCESTORS", "*", "PSL_FRAME_ANCESTORS names '\\*', which is not an origin"),
])
def test_a_wrong_setting_stops_the_server_at_start(tmp_path, setting, value, reason):
    env = {**os.environ, setting: value, "PSL_MODEL_DIR": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "streamlit", "run", "serve.py", "--server.headless", "true",
         "--server.port", "0", "--browser.gatherUsageStats", "false"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL,
    )
    assert done.returncode != 0
    assert "PSL Triage did not start: " in done.stderr
    assert re.search(reason, done.stderr), done.stderr
