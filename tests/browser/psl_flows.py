"""Shared steps of the browser tests and what psl_core says the app should show.

The browser tests drive the app like a user; the numbers they check come from psl_core,
computed here in the test process on the same data and options:

- :func:`demo_prepared` and :func:`demo_model`: the demo data as the landing page prepares
  it by default, and the list the Train page learns from it with given options.
- :func:`expected_triage`: the product's :class:`psl_triage.bedside.session.TriageSession` of a
  list, answered one answer at a time as the test answers the page (the expected total,
  probability, interval, decision and stop reason).
- ``train``, ``open_triage``, ``answer``, ``expect_triage_state``...: the page steps.

Widgets are found by their keys (``.st-key-<key>``, documented in each page's docstring; the
landing page's choices by the base of their per-dataset key, ``StreamlitApp.choice_widget``),
numbers are read from st.metric values and compared numerically, never from st.dataframe
(drawn on a canvas).
"""

from __future__ import annotations

import functools
import math
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

from psl_core.binarization import NUMERIC
from psl_core.decision import NOT_MEASURED
from psl_triage.bedside.session import TriageSession, TriageSettings, recommended_length
from psl_triage.data import DEFAULT_MISSING_HANDLING, infer_column_types, prepare_training_data
from psl_triage.data.demo import load_demo
from psl_triage.training.fit import train_list
from psl_triage.training.options import DEFAULT_SETUP, SETUPS, TrainingOptions
from psl_triage.words.decision import headline, stop_sentence
from psl_triage.words.triage import is_undecided_end
from tests.paths import ROOT

TRAIN_TIMEOUT_MS = 120_000
HUNGARIAN = ROOT / "datasets" / "heart_hungarian.csv"  # a second site
BUTTONS_MAX_OPTIONS = 7  # pages/2_Triage.py: up to this many answers are buttons, else a drop-down


# --------------------------------------------------------------------------- psl_core side


@functools.cache
def demo():
    return load_demo()


@functools.cache
def demo_prepared(missing: str | None = None):
    """The demo data with the landing page's default choices (outcome, positive class, types;
    the handling of missing values too unless ``missing`` is given)."""
    df, meta = demo()
    types = infer_column_types(df, meta.columns)
    handling = missing or DEFAULT_MISSING_HANDLING
    return prepare_training_data(df, types, meta.outcome, [meta.positive_class], handling, meta.columns)


@functools.cache
def demo_model(max_stages: int | None = None, seed: int = 0, setup: str = DEFAULT_SETUP):
    """(model, metadata) the Train page learns from the demo with these options (others as the
    page starts: the setup ``setup``, by default the page's default one)."""
    _, meta = demo()
    options = TrainingOptions(**SETUPS[setup], max_stages=max_stages, seed=seed)
    return train_list(demo_prepared(), meta.name, options)


def expected_triage(model, metadata, cost_ratio, confidence=0.95, basis="upper", length=None) -> TriageSession:
    """The product's triage of a list with the Triage page's settings (``length`` questions, by
    default the page's: the recommended number, else the whole list): what the page should show."""
    length = recommended_length(model) if length is None else length
    return TriageSession(model, metadata, settings=TriageSettings(cost_ratio, confidence, basis, length=length))


@dataclass
class AnswerPolicy:
    """How a test answers: "unknown" at the asked questions in ``unknown_at`` (0-based ask order),
    a number from ``patient`` (a demo row) for a numeric question ("not measured" where the row
    has no value and the question offers it, else "unknown"), else option ``option``."""

    patient: dict
    unknown_at: frozenset = frozenset({0})
    option: int = 0
    asked: int = field(default=0, init=False)

    def choose(self, question):
        index, self.asked = self.asked, self.asked + 1
        if index in self.unknown_at:
            return None
        if question.kind == NUMERIC:
            value = float(self.patient[question.column])
            if math.isnan(value):
                return NOT_MEASURED if NOT_MEASURED in dict(question.extra_answers) else None
            return value
        return question.options[self.option % len(question.options)][0]


# ------------------------------------------------------------------------------ page side


def parse_numbers(text: str) -> list[float]:
    """Every number in a displayed text, with the true minus sign understood."""
    return [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", text.replace("\u2212", "-"))]


def shown_as_percent(shown: float, p: float) -> bool:
    """Whether a percentage shown with one decimal is the probability ``p``."""
    exact = 100 * p
    if abs(shown - exact) <= 0.05 + 1e-9:
        return True
    # psl_core never rounds an inner probability to 0 % or 100 %: "<0.1%", ">99.9%".
    return (0 < exact < 0.05 and shown == 0.1) or (99.95 < exact < 100 and shown == 99.9)


def poll(check, timeout_s: float = 30.0, interval_s: float = 0.25):
    """Run ``check`` until it does not raise AssertionError (the page may still be drawing)."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            return check()
        except AssertionError:
            if time.monotonic() > deadline:
                raise
        time.sleep(interval_s)


def go_to_demo_landing(app, reload: bool = True) -> None:
    """Open the landing page in a new session (unless ``reload=False``: it is open) and check
    it shows the demo, ready to train."""
    if reload:
        app.open()
    else:
        app.wait_for_render()
    page = app.page
    _, meta = demo()
    prepared = demo_prepared()
    expect(page.get_by_role("heading", name=f"Preview: {meta.name}")).to_be_visible()
    ready = app.alerts("success").filter(has_text="Ready")
    expect(ready).to_contain_text(f"{prepared.n_rows_after} rows and {len(prepared.columns)} features")
    app.assert_no_exception()


def train(app, max_stages: int | None = None, seed: int | None = None, expected_stages: int | None = None,
          setup: str | None = None):
    """On the Train page: set options, press Train, wait, check the list and measures appear."""
    start_training(app, max_stages, seed, setup=setup)
    expect_trained(app, expected_stages)


def start_training(app, max_stages: int | None = None, seed: int | None = None, navigate: bool = True,
                   setup: str | None = None) -> None:
    """Go to Train (unless already there), set the options given (others stay) and press Train.
    ``setup``: "paper" or "recommended" chosen first (None keeps the page's choice)."""
    if navigate:
        app.navigate("Train")
    if setup is not None:
        app.widget("w_train_setup").get_by_text(re.compile("^Recommended" if setup == "recommended" else "^The paper")).click()
        app.wait_idle()
    if max_stages is not None:
        fill_number(app, "w_train_max_stages", max_stages)
    if seed is not None:
        fill_number(app, "w_train_seed", seed)
    app.widget("w_train_submit").get_by_role("button").click()


def fill_number(app, key: str, value) -> None:
    """Type ``value`` into the number input ``key`` and see that it stays: a rerun still under way
    (the setup choice fills the options in its on_change) can redraw the field with the setup's
    value after it was typed, under load. Typed again until it holds, a few times."""
    field = app.widget(key).locator("input")
    for _ in range(4):
        field.fill(str(value))
        app.wait_idle()
        if field.input_value() == str(value):
            return
    expect(field).to_have_value(str(value))


def expect_trained(app, expected_stages: int | None = None) -> None:
    """Wait for the training to finish; the list, its measures and no error are shown."""
    app.wait_idle(TRAIN_TIMEOUT_MS)
    app.assert_no_exception()
    page = app.page
    done = page.get_by_test_id("stProgress")
    expect(done).to_contain_text("Done", timeout=TRAIN_TIMEOUT_MS)
    expect(app.alerts("error")).to_have_count(0)
    if expected_stages is not None:
        expect(done).to_contain_text(re.compile(rf"\b{expected_stages} stages?\b"))
    # The list (Table 1) and the measures: st.dataframe (a canvas; its key gives no st-key class);
    # the table of question costs is one too, hidden in its closed expander.
    tables = page.locator("[data-testid=stDataFrame] >> visible=true")
    expect(tables.first).to_be_visible()
    # Waits for the second table too (a bare count() races the page's last render under load).
    expect(tables.nth(1), "the Train page should show the list and its measures as tables").to_be_visible()
    expect(app.widget("w_train_performance_chart").locator(".js-plotly-plot")).to_be_visible()


def upload_own_table(app, path: Path, new_session: bool = True) -> None:
    """Upload the table at ``path`` as the user's own on the Data page (``new_session``: in a
    session opened afresh; otherwise in this one, keeping its list): it is read without an
    exception."""
    if new_session:
        app.open()
    else:
        app.navigate("Data")
    app.widget("w_source").get_by_text("Upload my own table").click()
    app.wait_idle()
    app.upload("w_upload", path)
    # The upload's rerun may start after wait_idle's pause: until it ends, the demo's widgets
    # stand beside the new table's (two follow-up checkboxes), so wait for the page to settle.
    expect(app.page.get_by_text(f"Preview: {Path(path).name}")).to_be_visible()
    app.wait_quiet()
    app.assert_no_exception()


def set_horizon(app, horizon, unit: str) -> None:
    """Type the follow-up horizon and its time unit on the landing page."""
    for name, value in (("w_horizon", str(horizon)), ("w_time_unit", unit)):
        field = app.choice_widget(name).locator("input")
        field.fill(value)
        field.press("Enter")
        app.wait_idle()


def upload_site_table(app, frame, path: Path) -> None:
    """Open Validate and upload ``frame`` as the other site's table (written to ``path``, a CSV):
    it is read without an exception or an error."""
    frame.to_csv(path, index=False)
    app.navigate("Validate")
    app.upload("validate_upload", str(path))
    app.assert_no_exception()
    expect(app.alerts("error")).to_have_count(0)


def recalibrate_and_save(app) -> tuple[Path, int]:
    """Press Validate's "Recalibrate ... and save"; (path, version) of the file it reports saved."""
    app.widget("validate_recalibrate").get_by_role("button").click()
    app.wait_idle()
    app.assert_no_exception()
    saved = app.alerts("success").filter(has_text="Saved as")
    expect(saved).to_be_visible()
    match = re.search(r"Saved as (\S+\.json) \(version (\d+)\) in (.+?)\.?$", saved.inner_text().strip())
    assert match, saved.inner_text()
    return Path(match[3]) / match[1], int(match[2])


def open_triage(app, cost_ratio: float) -> None:
    """Go to Triage and set M in the settings."""
    app.navigate("Triage")
    set_cost_ratio(app, cost_ratio)
    expect_cost_ratio(app, cost_ratio)


def set_cost_ratio(app, cost_ratio: float) -> None:
    """On the Triage page: open the settings, type M and press Enter (does not wait)."""
    app.page.get_by_test_id("stExpander").filter(has_text="Settings").locator("summary").click()
    field_ = app.choice_widget("triage_cost_ratio").locator("input")  # triage_cost_ratio_v<N>
    expect(field_).to_be_visible()
    field_.fill(f"{cost_ratio:g}")
    field_.press("Enter")


def expect_cost_ratio(app, cost_ratio: float) -> None:
    """The Triage page decides with this M (its caption says so)."""
    app.wait_idle()
    expect(app.page.get_by_text(f"Deciding with M = {cost_ratio:g} (").first).to_be_visible()


def answer(app, question, raw, wait: bool = True) -> None:
    """Answer the page's question ``question`` (a psl_core Question) with ``raw`` and press Next.

    ``wait=False`` returns as soon as Next is pressed (to keep several sessions busy at once).
    """
    box = app.widget(f"triage_q{question.stage - 1}")
    expect(box).to_be_visible()
    form = app.page.get_by_test_id("stForm")
    expect(form).to_contain_text(question.rule)
    extras = dict(question.extra_answers)  # raw None: "unknown"; NOT_MEASURED: "not measured"
    if question.kind == NUMERIC:
        if raw is None or raw == NOT_MEASURED:
            suffix = "unknown" if raw is None else "not_measured"
            app.widget(f"triage_q{question.stage - 1}_{suffix}").get_by_text(extras[raw]).click()
        else:
            box.locator("input").fill(f"{raw:g}")
    else:
        text = extras[raw] if raw is None or raw == NOT_MEASURED else dict(question.options)[raw]
        if len(question.options) + len(question.extra_answers) <= BUTTONS_MAX_OPTIONS:
            box.get_by_role("radio", name=text, exact=True).click()
        else:
            choose_option(app, box, text)
    app.widget("triage_next").get_by_role("button").click()
    if wait:
        app.wait_idle()


def unknown_text(question) -> str:
    """The text of a question's "unknown" answer (it names "not at hand" when the list also
    offers "not measured")."""
    return question.extra_answers[0][1]


def choose_option(app, widget, text: str | re.Pattern) -> None:
    """Pick an option of a selectbox or multiselect (the element with its st-key class)."""
    option = app.page.get_by_role("option", name=text, exact=True) if isinstance(text, str) else \
        app.page.get_by_role("option", name=text)
    # A rerun that is still drawing the page (after an upload, under load) can close the list
    # just opened or replace the box: open it again until the option shows, a few times.
    for attempt in range(4):
        app.wait_idle()
        box = widget.get_by_role("combobox")
        box.click()
        box.press("ArrowDown")  # opens the list; a click alone does not (Streamlit 1.67, headless)
        try:
            option.wait_for(state="visible", timeout=10_000)
            break
        except PlaywrightTimeoutError:
            if attempt == 3:
                raise
            box.press("Escape")
    option.click()
    app.wait_idle()


def expect_triage_state(app, expected: TriageSession, timeout_s: float = 30.0) -> None:
    """The page shows the expected triage's total(s), probability, interval, next question or stop."""
    step = expected.current
    total = app.metric_value("Total")
    probability = app.metric_value("Probability")
    interval = app.metric_value("interval")

    def numbers_match():
        shown_totals = parse_numbers(total.inner_text())
        assert sorted(shown_totals) == sorted(step.totals), f"total {shown_totals} != psl_core {step.totals}"
        shown_p = parse_numbers(probability.inner_text())
        expected_p = [step.probability_low] if step.probability_low == step.probability_high else [
            step.probability_low, step.probability_high]
        assert len(shown_p) == len(expected_p) and all(map(shown_as_percent, shown_p, expected_p)), (
            f"probability {probability.inner_text()!r} != psl_core {expected_p}")
        shown_i = parse_numbers(interval.inner_text())
        assert len(shown_i) == 2 and all(map(shown_as_percent, shown_i, [step.lower, step.upper])), (
            f"interval {interval.inner_text()!r} != psl_core {[step.lower, step.upper]}")

    poll(numbers_match, timeout_s)
    if expected.halted:
        expect(app.page.get_by_test_id("stForm")).to_have_count(0)
        if is_undecided_end(step):
            expect(app.alerts("warning").filter(has_text="Uncertain")).to_be_visible()
        else:
            stopped = app.alerts("success").filter(has_text="Stopped")
            expect(stopped).to_be_visible()
            expect(stopped).to_contain_text(stop_sentence(step))
        shown = headline(step, expected.settings.basis, *expected.class_labels)
        expect(app.page.get_by_role("heading", name=shown, exact=False).first).to_be_visible()
    else:
        question = expected.next_question
        expect(app.widget(f"triage_q{question.stage - 1}")).to_be_visible()
        form = app.page.get_by_test_id("stForm")
        expect(form).to_contain_text(f"Question {question.stage} of {len(expected.questions)}")
        expect(form).to_contain_text(question.rule)
    app.assert_no_exception()


def run_triage(app, expected: TriageSession, policy: AnswerPolicy, max_questions: int = 30) -> None:
    """Answer the page's questions by ``policy`` until the list stops, checking every step."""
    expect_triage_state(app, expected)
    for _ in range(max_questions):
        if expected.halted:
            return
        question = expected.next_question
        raw = policy.choose(question)
        answer(app, question, raw)
        expected.answer(raw)
        expect_triage_state(app, expected)
    raise AssertionError(f"the triage did not stop within {max_questions} questions")


def download(app, key: str) -> str:
    """Press the download button ``key``; the text of the file the browser receives."""
    with app.page.expect_download() as event:
        app.widget(key).get_by_role("button").click()
    return event.value.path().read_text(encoding="utf-8")


def download_record_text(app) -> str:
    return download(app, "triage_download_text")
