"""Hostile inputs of issue 31's kinds the first corpus did not hold, through the pages (AppTest)."""

import os
import shutil

from streamlit.testing.v1 import AppTest

from psl_triage.model_file.store import save_model
from tests.paths import ROOT
from tests.tables import small_model


def test_copies_and_links_of_one_file_are_told_apart_in_the_list_choice(tmp_path, monkeypatch):
    stored = save_model(small_model(2), "ward", {}, tmp_path)
    shutil.copy(stored.path, tmp_path / "backup-v1.json")  # a copy under another file name
    os.link(stored.path, tmp_path / "hard-v1.json")  # a hard link
    os.symlink(stored.path.name, tmp_path / "alias-v1.json")  # a relative link inside the folder
    monkeypatch.setenv("PSL_MODEL_DIR", str(tmp_path))
    at = AppTest.from_file(str(ROOT / "pages" / "2_Triage.py"), default_timeout=60).run()
    assert not at.exception
    choice = at.selectbox(key="triage_model_choice")
    labels = list(choice.options)  # the labels shown
    assert len(labels) == 4 and len(set(labels)) == 4, labels  # four files, four different labels
    assert any("backup-v1.json" in label for label in labels)
