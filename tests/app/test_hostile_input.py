"""Hostile names and files through the pages (AppTest).

A list whose data, labels and model name carry Markdown images and links, raw HTML and
``javascript:`` URLs, saved next to one bad file of each kind: the Triage page lists the good
list, notes the bad files, asks every question and reaches a decision, and no element that
Streamlit renders as Markdown holds any of the hostile text unescaped.
"""

import re
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from psl_core import ProbabilisticScoringList
from psl_triage.model_file.store import save_model
from psl_triage.words import md, shown
from tests.apptest import put_list
from ui.state_keys import DATASET, TRIAGE

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "logic"))
from test_store_hostile import BAD_FILES, fill_bad_folder  # noqa: E402

from tests.paths import ROOT
from ui.triage import answer_key, extra_key

HOST = "http://127.0.0.1:9"
HOSTILE = {
    "image": f"![pixel]({HOST}/image.png)",
    "link": f"[click]({HOST}/link)",
    "js": "[run](javascript:alert(1))",
    "img": f'<img src="{HOST}/tag.png" onerror="alert(1)">',
    "script": "<script>alert(1)</script>",
    "directive": ":red[loud] :material/warning:",
}


def hostile_table():
    rng = np.random.default_rng(5)
    n = 400
    names = {key: f"{key} {text}" for key, text in HOSTILE.items()}
    X = pd.DataFrame({
        names["image"]: rng.normal(150, 20, n).round(),
        names["link"]: pd.Categorical(rng.choice([HOSTILE["js"], HOSTILE["img"], "plain"], n)),
        names["script"]: rng.integers(0, 2, n).astype(float),
    })
    logit = (-0.05 * (X[names["image"]] - 150) + 1.5 * X[names["script"]]
             + np.where(X[names["link"]] == "plain", -1.5, 1.0))
    y = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
    return X, y, names


def hostile_model(**options):
    X, y, names = hostile_table()
    model = ProbabilisticScoringList(score_set=(-2, -1, 1, 2), min_support=5, **options).fit(X, y)
    metadata = {
        "dataset": {"name": HOSTILE["img"], "positive_label": HOSTILE["image"], "negative_label": HOSTILE["link"]},
        "columns": {
            names["image"]: {"label": HOSTILE["script"], "unit": HOSTILE["directive"], "kind": "numeric",
                             "category_labels": {}},
            names["script"]: {"label": HOSTILE["js"], "unit": "", "kind": "binary",
                              "category_labels": {"1": HOSTILE["image"], "0": HOSTILE["img"]}},
        },
        "decision": {"cost_ratio": 1.0},
    }
    return model, metadata


def markdown_texts(at):
    """Every text of the page that Streamlit renders as Markdown."""
    texts = []
    for kind in ("markdown", "caption", "info", "success", "warning", "error", "title", "header", "subheader"):
        texts += [element.value for element in at.get(kind)]
    texts += [metric.label for metric in at.metric]
    for kind in ("button", "number_input", "selectbox", "radio", "checkbox", "segmented_control"):
        texts += [widget.label for widget in at.get(kind)]
    for widget in [*at.radio, *at.get("segmented_control")]:
        texts += [str(option) for option in widget.options]
    for kind in ("multiselect", "text_input", "file_uploader"):
        texts += [widget.label for widget in at.get(kind)]
    for kind in ("button", "number_input", "selectbox", "radio", "checkbox", "multiselect", "text_input"):
        texts += [widget.help for widget in at.get(kind) if getattr(widget, "help", None)]
    for table in at.table:
        texts += [str(cell) for cell in table.value.to_numpy().ravel()]
    return texts


HOSTILE_FRAGMENTS = ("![pixel]", "[click](", "[run](", "](http", "javascript:", "<img", "<script", ":red[loud]",
                     ":material/warning:")


def assert_no_markdown_left(at):
    """No hostile fragment is left as Markdown anywhere on the page."""
    for text in markdown_texts(at):
        unescaped = re.sub(r"\\.", "", text)  # what Markdown still reads as syntax
        for fragment in HOSTILE_FRAGMENTS:
            assert fragment not in unescaped, (fragment, text)


def assert_nothing_unescaped(at):
    """No hostile fragment is left as Markdown; the hostile text is shown (escaped) somewhere."""
    assert_no_markdown_left(at)
    assert any(HOSTILE["image"] in shown(text) for text in markdown_texts(at))


@pytest.fixture()
def hostile_store(tmp_path, monkeypatch):
    folder = tmp_path / "models"
    folder.mkdir()
    model, metadata = hostile_model()
    fill_bad_folder(folder, model)
    save_model(model, HOSTILE["image"] + " " + HOSTILE["img"] + " ward", metadata, folder)
    monkeypatch.setenv("PSL_MODEL_DIR", str(folder))
    return folder


def test_triage_lists_the_good_lists_and_asks_every_hostile_question(hostile_store):
    at = AppTest.from_file(str(ROOT / "pages" / "2_Triage.py"), default_timeout=60).run()
    assert not at.exception
    options = at.selectbox(key="triage_model_choice").options
    assert len(options) == 2 and any("ward" in option for option in options)  # the hostile list and "good"
    notes = " ".join(caption.value for caption in at.caption)
    for name in BAD_FILES:
        assert md(name) in notes
    hostile = next(path for path in hostile_store.glob("pixel-*-v1.json"))
    at.selectbox(key="triage_model_choice").set_value(str(hostile)).run()
    answer_every_question(at)


def answer_every_question(at, check=None):
    """Answers "unknown" until the list stops, checking every view on the way (``check``,
    by default :func:`assert_nothing_unescaped`)."""
    check = check or assert_nothing_unescaped
    assert not at.exception
    for _ in range(20):
        check(at)
        if not at.get("form"):
            if "triage_continue" not in [button.key for button in at.button]:
                break
            at.button(key="triage_continue").click().run()
            continue
        key = answer_key(TRIAGE.get(at.session_state))
        if key in [widget.key for widget in at.number_input]:
            at.checkbox(key=extra_key(key, None)).check()
        else:
            widget = next(w for w in [*at.get("segmented_control"), *at.selectbox] if w.key == key)
            widget.set_value(len(widget.options) - 1)
        at.button(key="triage_next").click().run()
        assert not at.exception
    assert at.table and not at.get("form")
    check(at)


def test_a_model_files_cost_unit_is_shown_as_text_on_triage(tmp_path, monkeypatch):
    columns = hostile_table()[0].columns
    model, metadata = hostile_model(question_costs={name: 5.0 + i for i, name in enumerate(columns)})
    assert model.stage_costs_.any()
    metadata = dict(metadata, cost_unit=HOSTILE["link"] + " " + HOSTILE["image"])
    stored = save_model(model, "costly", metadata, tmp_path)
    monkeypatch.setenv("PSL_MODEL_DIR", str(tmp_path))
    at = AppTest.from_file(str(ROOT / "pages" / "2_Triage.py"), default_timeout=60).run()
    at.selectbox(key="triage_model_choice").set_value(str(stored.path)).run()
    answer_every_question(at)


def test_the_validate_page_shows_a_site_tables_names_and_a_files_labels_as_text(tmp_path, monkeypatch):
    monkeypatch.setenv("PSL_MODEL_DIR", str(tmp_path))
    model, metadata = hostile_model()
    X, y, names = hostile_table()
    site = X.rename(columns={names["image"]: "pressure " + HOSTILE["image"]})
    site[names["link"]] = site[names["link"]].astype(str).replace("plain", "**new** " + HOSTILE["link"])
    outcome = "outcome " + HOSTILE["link"]
    site[outcome] = y
    at = AppTest.from_file(str(ROOT / "pages" / "6_Validate.py"), default_timeout=90)
    put_list(at, model, dict(metadata, name="hostile"))
    at.run()
    at.file_uploader(key="validate_upload").set_value(
        (HOSTILE["image"] + ".csv", site.to_csv(index=False).encode(), "text/csv")).run()
    assert not at.exception
    assert_nothing_unescaped(at)  # the column matching: the list's label of the unmatched column
    at.selectbox(key=f"validate_map_{names['image']}").set_value("pressure " + HOSTILE["image"]).run()
    at.checkbox(key=f"validate_rest_missing_{names['link']}").check().run()
    assert_nothing_unescaped(at)
    at.selectbox(key="validate_outcome").set_value(outcome).run()
    at.multiselect(key="validate_positive").set_value([1]).run()
    assert not at.exception
    assert at.table, [e.value for e in at.error]
    assert_nothing_unescaped(at)


def test_the_data_page_shows_a_files_and_its_columns_names_as_text():
    rng = np.random.default_rng(1)
    n = 200
    outcome = "died " + HOSTILE["image"]
    frame = pd.DataFrame({"age " + HOSTILE["link"]: rng.normal(60, 10, n).round(), outcome: rng.integers(0, 2, n)})
    frame["copy " + HOSTILE["img"]] = frame[outcome].map({0: "alive", 1: "dead"})  # a leak
    frame["id " + HOSTILE["js"]] = np.arange(n)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=90).run()
    at.radio(key="w_source").set_value("upload").run()
    at.file_uploader(key="w_upload").set_value(
        (HOSTILE["link"] + ".csv", frame.to_csv(index=False).encode(), "text/csv")).run()
    assert not at.exception
    assert DATASET.get(at.session_state).active.outcome == outcome
    assert_nothing_unescaped(at)
