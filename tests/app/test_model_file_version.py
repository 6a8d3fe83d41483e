"""A list saved by an earlier version (model file version 1) opens with a notice on every page
that uses it: its risks could not be checked against their counts, and how to have them
checked (issue 40). A list of the current version opens without it."""

import json

import pytest
from streamlit.testing.v1 import AppTest

from psl_triage.words import md
from psl_triage.words.store import RISKS_NOT_CHECKED
from tests.apptest import ROOT, training
from tests.hostile_corpus import honest_lists

OLD, CURRENT = "saved-by-version-1-v1.json", "weighted-v1.json"


@pytest.fixture(scope="module")
def files():
    lists = honest_lists()
    assert json.loads(lists[OLD])["schema_version"] == 1 and json.loads(lists[CURRENT])["schema_version"] == 2
    return {OLD: lists[OLD], CURRENT: lists[CURRENT]}


def _notices(at):
    """The warnings that give the notice (as it is, or escaped where it follows a file name)."""
    return [w.value for w in at.warning if RISKS_NOT_CHECKED in w.value or md(RISKS_NOT_CHECKED) in w.value]


def test_the_triage_page_says_a_version_1_list_is_unchecked(files, tmp_path, monkeypatch):
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.setenv("PSL_MODEL_DIR", str(tmp_path))
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    at.switch_page("pages/2_Triage.py").run()
    at.selectbox(key="triage_model_choice").set_value(str(tmp_path / OLD)).run()
    assert not at.exception and len(_notices(at)) == 1
    at.selectbox(key="triage_model_choice").set_value(str(tmp_path / CURRENT)).run()
    assert not at.exception and _notices(at) == []


def test_the_train_page_says_it_when_a_version_1_file_is_uploaded_or_opened(files, tmp_path, monkeypatch):
    (tmp_path / OLD).write_text(files[OLD], encoding="utf-8")
    monkeypatch.setenv("PSL_MODEL_DIR", str(tmp_path))
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    at.switch_page("pages/1_Train.py").run()
    at.file_uploader(key="w_train_upload").set_value((OLD, files[OLD].encode("utf-8"), "application/json")).run()
    assert not at.exception and training(at).model is not None
    assert len(_notices(at)) >= 1
    at.file_uploader(key="w_train_upload").set_value((CURRENT, files[CURRENT].encode("utf-8"), "application/json")).run()
    assert not at.exception and _notices(at) == []
    at.selectbox(key="w_train_open_choice").set_value(str(tmp_path / OLD)).run()
    at.button(key="w_train_open").click().run()
    assert not at.exception and len(_notices(at)) >= 1
