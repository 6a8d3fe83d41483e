"""Hostile names in the browser: nothing is fetched, no script runs, the text is shown as text.

A local HTTP listener (a thread on another port) stands for an outside server. A table whose
column names, category values and class labels, and a file and model names, carry Markdown
images and links to the listener, raw HTML (<img src=...>, <script>) and ``javascript:`` URLs
goes through Data, Train (training, saving, loading a model file), Triage (answering until the
list stops), Calibration, Intervals, Evaluation, Validate (a site table with the same names)
and Card (an iframe). No request may reach the listener, no dialog may open, and no element
may render an image or a link from the data.
"""

from __future__ import annotations

import http.server
import json
import re
import threading

import numpy as np
import pandas as pd
import pytest
from playwright.sync_api import expect
from psl_flows import TRAIN_TIMEOUT_MS

from psl_core import ProbabilisticScoringList
from psl_triage.words import md
from psl_triage.words.questions import UNKNOWN_AT_HAND_TEXT, UNKNOWN_TEXT


def on_screen(text: str) -> str:
    """The text as the page shows it: md's escapes read, its invisible word joiners kept."""
    return re.sub(r"\\(.)", r"\1", md(text))


class Listener:
    """An HTTP server on 127.0.0.1 that records every request it gets."""

    def __init__(self):
        requests = self.requests = []

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 - the http.server API
                requests.append(self.path)
                self.send_response(204)
                self.end_headers()

            do_POST = do_GET  # noqa: N815

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture()
def listener():
    with Listener() as running:
        yield running


def hostile(url: str) -> dict[str, str]:
    return {
        "image": f"![img]({url}/md-image.png)",
        "link": f"[link]({url}/md-link)",
        "js": "[js](javascript:alert('md'))",
        "tag": f'<img src="{url}/html-image.png" onerror="alert(\'tag\')">',
        "script": f"<script>fetch('{url}/script')</script>",
    }


def hostile_table(names: dict[str, str], n: int = 300) -> pd.DataFrame:
    rng = np.random.default_rng(11)
    measure = rng.normal(150, 20, n).round()
    category = rng.choice([names["js"], names["tag"], names["link"]], n)
    flag = rng.integers(0, 2, n)
    logit = -0.05 * (measure - 150) + 1.2 * flag + np.where(category == names["link"], -1.5, 1.0)
    sick = rng.random(n) < 1 / (1 + np.exp(-logit))
    return pd.DataFrame({
        f"measure {names['image']}": measure,
        f"kind {names['tag']}": category,
        f"flag {names['script']}": flag,
        "outcome": np.where(sick, f"sick {names['image']}", f"well {names['tag']}"),
    })


def hostile_model_file(table: pd.DataFrame, names: dict[str, str]) -> bytes:
    X = table.drop(columns="outcome").assign(**{table.columns[1]: lambda d: pd.Categorical(d[table.columns[1]])})
    y = (table["outcome"].str.startswith("sick")).astype(int)
    model = ProbabilisticScoringList(max_stages=3).fit(X, y)
    metadata = {
        "name": f"file {names['image']} {names['tag']}",
        "dataset": {"name": names["script"], "positive_label": names["image"], "negative_label": names["js"]},
        "columns": {table.columns[0]: {"label": names["link"], "unit": names["tag"], "kind": "numeric",
                                       "category_labels": {}}},
    }
    return model.to_json(metadata).encode("utf-8")


def watch(app, listener) -> tuple[list, list]:
    """Record the tab's requests to the listener and every dialog (dismissed)."""
    requests, dialogs = [], []
    app.page.on("request", lambda request: requests.append(request.url)
                if request.url.startswith(listener.url) else None)

    def dialog(d):
        dialogs.append(d.message)
        d.dismiss()

    app.page.on("dialog", dialog)
    return requests, dialogs


def assert_clean(app, listener, requests, dialogs) -> None:
    app.wait_idle()
    app.page.wait_for_timeout(300)  # time for an image or a script to fire
    app.assert_no_exception()
    assert requests == [] and listener.requests == [], (requests, listener.requests)
    assert dialogs == [], dialogs
    page = app.page
    # No element built from the data: images, links and scripts pointing at the listener.
    for selector in (f'img[src^="{listener.url}"]', f'a[href^="{listener.url}"]', 'a[href^="javascript:"]',
                     "script:not([src])[data-hostile]"):
        found = page.locator(selector)
        assert found.count() == 0, (selector, [found.nth(i).evaluate(
            "e => (e.closest('[data-testid]') || e).getAttribute('data-testid') + ' ' + e.outerHTML.slice(0, 200)")
            for i in range(found.count())])


def triage_until_it_stops(app) -> None:
    page = app.page
    for _ in range(12):
        app.wait_for_render()
        page.wait_for_timeout(300)  # a rerun the last click started may not have begun yet
        app.wait_for_render()
        if page.get_by_test_id("stForm").count() == 0:
            go_on = app.widget("triage_continue")
            if go_on.count() == 0:
                return
            go_on.get_by_role("button").click()
            continue
        form = page.get_by_test_id("stForm")
        unknown_box = form.get_by_text(re.compile(f"^({re.escape(UNKNOWN_TEXT)}|{re.escape(UNKNOWN_AT_HAND_TEXT)})$"))
        unknown_box.first.click()
        app.wait_idle()
        app.widget("triage_next").get_by_role("button").click()
    raise AssertionError("the triage did not stop")


def test_hostile_names_fetch_nothing_and_run_nothing(app, listener, tmp_path):
    names = hostile(listener.url)
    table = hostile_table(names)
    page = app.open()
    requests, dialogs = watch(app, listener)

    # Data: the upload, its preview, the outcome, the column types, the summary.
    app.widget("w_source").get_by_text("Upload my own table").click()
    app.wait_idle()
    file_name = "[f](javascript:alert('file'))<img src=x onerror=alert('file')>.csv"
    app.widget("w_upload").locator('input[type="file"]').set_input_files(
        {"name": file_name, "mimeType": "text/csv", "buffer": table.to_csv(index=False).encode()})
    app.wait_idle()
    expect(page.get_by_role("heading", name=f"Preview: {on_screen(file_name)}")).to_be_visible()
    ready = app.alerts("success").filter(has_text="Ready")
    expect(ready).to_contain_text(on_screen(names["image"]))  # the class label, shown as text
    page.get_by_text("Change column types").click()
    expect(page.get_by_text(on_screen(f"measure {names['image']}"), exact=True).first).to_be_visible()
    assert_clean(app, listener, requests, dialogs)

    # Train, save under a hostile name, and load a hostile model file.
    app.navigate("Train")
    app.widget("w_train_max_stages").locator("input").fill("4")
    app.widget("w_train_submit").get_by_role("button").click()
    app.wait_idle(TRAIN_TIMEOUT_MS)
    expect(page.get_by_test_id("stProgress")).to_contain_text("Done", timeout=TRAIN_TIMEOUT_MS)
    name_box = app.widget("w_train_model_name").locator("input")
    name_box.fill(f"ward {names['image']} {names['script']}")
    name_box.press("Enter")
    app.wait_idle()
    app.widget("w_train_save").get_by_role("button").click()
    app.wait_idle()
    expect(app.alerts("success").filter(has_text="Saved as")).to_be_visible()
    assert_clean(app, listener, requests, dialogs)
    model_path = tmp_path / "hostile.json"
    model_path.write_bytes(hostile_model_file(table, names))
    app.widget("w_train_upload").locator('input[type="file"]').set_input_files(str(model_path))
    app.wait_idle()
    expect(app.alerts("info").filter(has_text="Loaded hostile.json")).to_be_visible()
    assert_clean(app, listener, requests, dialogs)

    # Triage with the loaded list, then with the saved one (hostile model name).
    app.navigate("Triage")
    triage_until_it_stops(app)
    expect(page.get_by_text(re.compile(re.escape(on_screen(f"file {names['image']}")))).first).to_be_visible()
    assert_clean(app, listener, requests, dialogs)
    box = app.widget("triage_model_choice").get_by_role("combobox")
    box.click()
    box.press("ArrowDown")
    page.get_by_role("option", name=re.compile("^ward")).click()
    app.wait_for_render()
    expect(page.get_by_role("listbox")).to_have_count(0)  # the drop-down has closed
    triage_until_it_stops(app)
    assert_clean(app, listener, requests, dialogs)

    # The plot pages.
    for title in ("Calibration", "Intervals", "Evaluation"):
        app.navigate(title)
        assert_clean(app, listener, requests, dialogs)
    app.widget("evaluation_splits").locator("input").fill("2")
    app.widget("evaluation_run").get_by_role("button").click()
    app.wait_idle(TRAIN_TIMEOUT_MS)
    assert_clean(app, listener, requests, dialogs)

    # Validate on a site table with the same hostile names, then the card (an iframe).
    app.navigate("Validate")
    app.widget("validate_upload").locator('input[type="file"]').set_input_files(
        {"name": file_name, "mimeType": "text/csv", "buffer": hostile_table(names, 200).to_csv(index=False).encode()})
    app.wait_idle(TRAIN_TIMEOUT_MS)
    expect(page.get_by_text(re.compile(re.escape(on_screen(file_name)))).first).to_be_visible()
    assert_clean(app, listener, requests, dialogs)
    app.navigate("Card")
    expect(page.frame_locator("iframe").first.locator("body")).to_contain_text(names["link"])
    assert_clean(app, listener, requests, dialogs)
    assert json.dumps(listener.requests) == "[]"
