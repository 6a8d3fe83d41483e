"""Names that are Markdown images and links, through every page (AppTest; issue 27).

One table whose column names, categories, outcome classes, leak and identifier columns (and
the file's and the saved list's names) are Markdown images and links walks the whole app:
Data -> Train -> Triage -> Calibration -> Intervals -> Evaluation -> Validate -> Card. On every
view, no element that Streamlit renders as Markdown (text, captions, notices, headings, metric
and widget labels and help, radio and segmented-control options, expander and tab labels,
table cells) holds an image or a link built from a name: the names reach Markdown only through
:mod:`psl_triage.words`.
"""

import re
import sys

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from psl_triage.words import shown
from tests.paths import ROOT

sys.path.insert(0, str(ROOT / "tests" / "app"))
from test_hostile_input import answer_every_question  # noqa: E402

HOST = "http://127.0.0.1:9"
IMAGE = f"![x]({HOST}/x.png)"
LINK = f"[click]({HOST}/)"
OUTCOME = f"died {IMAGE}"
POSITIVE, NEGATIVE = f"yes {IMAGE}", f"no {LINK}"
# What Markdown still reads as an image or a link once the escapes are taken out.
BUILT = ("![", "](http")

# Elements whose value Streamlit renders as Markdown; every node's label and help are checked too.
MARKDOWN_VALUES = {"markdown", "caption", "info", "success", "warning", "error", "title", "header", "subheader",
                   "toast", "alert"}


def study_table(n: int = 300, seed: int = 3) -> pd.DataFrame:
    """A study export whose every name is Markdown: a number, a category, a binary, an
    identifier, a copy of the outcome (a leak) and the outcome, all predicting it."""
    rng = np.random.default_rng(seed)
    age = rng.normal(60, 10, n).round()
    pain = rng.choice([f"typical {IMAGE}", f"atypical {LINK}", "none"], n)
    sex = rng.choice(["male", f"female {LINK}"], n)
    logit = 0.08 * (age - 60) + np.where(pain == "none", -1.5, 1.0) + np.where(sex == "male", 0.8, -0.4)
    died = rng.random(n) < 1 / (1 + np.exp(-logit))
    return pd.DataFrame({
        f"id {LINK}": np.arange(1, n + 1),
        f"age {IMAGE}": age,
        f"pain {LINK}": pain,
        f"sex {IMAGE}": sex,
        f"copy {IMAGE}": np.where(died, f"dead {LINK}", f"alive {IMAGE}"),
        OUTCOME: np.where(died, POSITIVE, NEGATIVE),
    })


def markdown_sources(at: AppTest) -> list[str]:
    """The Markdown source of every element on the page that Streamlit renders as Markdown."""
    texts = []
    for node in at._tree:
        proto = getattr(node, "proto", None)
        if getattr(node, "type", None) in MARKDOWN_VALUES and isinstance(getattr(node, "value", None), str):
            texts.append(node.value)
        for field in ("label", "help"):
            if proto is not None and hasattr(proto, field) and isinstance(getattr(proto, field), str):
                texts.append(getattr(proto, field))
        if isinstance(node.__dict__.get("label"), str):  # expanders, tabs, status blocks
            texts.append(node.label)
        if getattr(node, "type", None) in ("radio", "button_group"):
            texts += [str(option) for option in node.options]
        if getattr(node, "type", None) == "arrow_table":
            texts += [str(cell) for cell in node.value.to_numpy().ravel()]
    return [text for text in texts if text]


def assert_no_markdown_from_names(at: AppTest, where: str) -> None:
    assert not at.exception, (where, [e.value for e in at.exception])
    for text in markdown_sources(at):
        read = re.sub(r"\\.", "", text)  # what Markdown still reads as syntax
        for built in BUILT:
            assert built not in read, (where, built, text)


def key_starting(widgets, prefix: str) -> str:
    """The key of the one widget whose key starts with ``prefix`` (the Data page versions its keys)."""
    keys = [widget.key for widget in widgets if widget.key and widget.key.startswith(prefix)]
    assert len(keys) == 1, (prefix, keys)
    return keys[0]


@pytest.mark.slow
def test_markdown_names_reach_no_markdown_on_any_page(tmp_path, monkeypatch):
    monkeypatch.setenv("PSL_MODEL_DIR", str(tmp_path))
    table = study_table()
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    at.radio(key="w_source").set_value("upload").run()
    at.file_uploader(key="w_upload").set_value((f"{LINK}.csv", table.to_csv(index=False).encode(), "text/csv")).run()
    at.selectbox(key=key_starting(at.selectbox, "w_outcome")).set_value(OUTCOME).run()
    at.selectbox(key=key_starting(at.selectbox, "w_positive")).set_value(POSITIVE).run()
    assert_no_markdown_from_names(at, "Data")
    warnings = " ".join(shown(warning.value) for warning in at.warning)
    assert f"copy {IMAGE}" in warnings  # the leak's warning names it, as text

    at.switch_page("pages/1_Train.py").run()
    at.number_input(key="w_train_max_stages").set_value(3)
    at.button(key="w_train_submit").click().run()
    assert_no_markdown_from_names(at, "Train")
    at.text_input(key="w_train_model_name").input(f"list {IMAGE}")
    at.button(key="w_train_save").click().run()
    assert at.success, [error.value for error in at.error]
    assert_no_markdown_from_names(at, "Train, saved")

    at.switch_page("pages/2_Triage.py").run()
    answer_every_question(at, lambda page: assert_no_markdown_from_names(page, "Triage"))

    for page in ("3_Calibration", "4_Intervals"):
        at.switch_page(f"pages/{page}.py").run()
        assert_no_markdown_from_names(at, page)

    at.switch_page("pages/5_Evaluation.py").run()
    at.number_input(key="evaluation_splits").set_value(2)
    at.button(key="evaluation_run").click().run()
    assert_no_markdown_from_names(at, "Evaluation")

    at.switch_page("pages/6_Validate.py").run()
    at.file_uploader(key="validate_upload").set_value(
        (f"site {IMAGE}.csv", study_table(200, seed=4).to_csv(index=False).encode(), "text/csv")).run()
    assert_no_markdown_from_names(at, "Validate")

    at.switch_page("pages/7_Card.py").run()
    assert_no_markdown_from_names(at, "Card")
