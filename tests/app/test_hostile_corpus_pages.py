"""Hostile tables of the corpus (tests/hostile_corpus.py) through the pages (AppTest):
uploaded on the Data page, trained and saved on the Train page under a hostile model name,
listed and asked on the Triage page. No page raises, nothing Streamlit renders as Markdown
holds a hostile name unescaped, and "Saved" is shown only for a file the Triage page lists."""

import sys

import pytest
from streamlit.testing.v1 import AppTest

from psl_triage.model_file.store import list_models
from tests.apptest import ROOT, training
from tests.hostile_corpus import MARKDOWN, hostile_tables
from ui.state_keys import DATASET

sys.path.insert(0, str(ROOT / "tests" / "app"))
from test_hostile_input import answer_every_question, assert_no_markdown_left  # noqa: E402


@pytest.mark.parametrize("name", ["markdown-names.csv", "greek-and-chinese.csv", "bidi-names.csv"])
def test_a_hostile_table_is_uploaded_trained_saved_listed_and_asked(name, tmp_path, monkeypatch):
    monkeypatch.setenv("PSL_MODEL_DIR", str(tmp_path))
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    at.radio(key="w_source").set_value("upload").run()
    at.file_uploader(key="w_upload").set_value((name, hostile_tables()[name], "text/csv")).run()
    assert not at.exception
    outcome_key = DATASET.get(at.session_state).key("w_outcome")
    at.selectbox(key=outcome_key).set_value(DATASET.get(at.session_state).active.df.columns[-1]).run()
    assert not at.exception and DATASET.get(at.session_state).prepared is not None
    assert_no_markdown_left(at)

    at.switch_page("pages/1_Train.py").run()
    at.number_input(key="w_train_max_stages").set_value(3)
    at.button(key="w_train_submit").click().run()
    assert not at.exception and training(at).model is not None
    at.text_input(key="w_train_model_name").input(f"list {MARKDOWN}")
    at.button(key="w_train_save").click().run()
    assert not at.exception and at.success, [e.value for e in at.error]
    assert_no_markdown_left(at)
    listed, _ = list_models(tmp_path)
    assert len(listed) == 1 and listed[0].name == f"list {MARKDOWN}"  # "Saved" means listed

    at.switch_page("pages/2_Triage.py").run()
    at.selectbox(key="triage_model_choice").set_value(str(listed[0].path)).run()
    answer_every_question(at, assert_no_markdown_left)
