"""Issue 3 at the bedside: the Triage page in a tablet-width window, with large targets, and
usable with the keyboard alone.

Both tests train a 6-stage list on the demo with the paper's setup (the list these layout
checks were written for: a question with answers first, then a number) and triage with M = 1;
every number the page shows after an answer is checked against psl_core
(psl_flows.expected_triage).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Locator, Page, expect
from psl_flows import (
    AnswerPolicy,
    answer,
    demo,
    demo_model,
    expect_triage_state,
    expected_triage,
    go_to_demo_landing,
    open_triage,
    poll,
    train,
    unknown_text,
)

from psl_core.binarization import NUMERIC
from psl_triage.words.questions import UNKNOWN_TEXT

COST_RATIO = 1.0
MAX_STAGES = 6
# Target sizes in CSS pixels. Next and the answer buttons must be large targets: at least 44 px
# tall, WCAG 2.2's enhanced target size (2.5.5) and the usual touch guideline (Next also 44 px
# wide; the answers share the width, an answer's text makes its button wide). Streamlit draws
# segmented-control buttons 36 px tall; pages/2_Triage.py raises them with CSS scoped to their
# container. The number field must at least meet WCAG 2.2's minimum target size (2.5.8, 24 x 24).
LARGE_TARGET_PX = 44
MIN_TARGET_PX = 24

TABLETS = {
    "tablet-768x1024": {"width": 768, "height": 1024},
    "tablet-800x1280": {"width": 800, "height": 1280},
}

FOCUSED = """() => {
    const e = document.activeElement;
    if (!e || e === document.body) return "nothing";
    const keyed = e.closest('[class*="st-key-"]');
    const key = keyed ? [...keyed.classList].find(c => c.startsWith("st-key-")) : "no key";
    const text = (e.innerText || e.getAttribute("aria-label") || e.value || "").trim().replace(/\\s+/g, " ");
    return `<${e.tagName.toLowerCase()} role=${e.getAttribute("role")}> "${text.slice(0, 40)}" in ${key}`;
}"""


# ------------------------------------------------------------------------------ tablet


def box_of(locator: Locator) -> dict:
    expect(locator).to_be_visible()
    box = locator.bounding_box()
    assert box is not None, f"{locator} has no bounding box"
    return box


def expect_no_horizontal_scroll(page: Page) -> dict:
    sizes = page.evaluate(
        "() => ({scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth})"
    )
    assert sizes["scrollWidth"] <= sizes["innerWidth"], f"the page scrolls sideways: {sizes}"
    return sizes


def expect_inside_width(page: Page, locator: Locator, what: str) -> dict:
    box = box_of(locator)
    width = page.viewport_size["width"]
    assert box["x"] >= 0 and box["x"] + box["width"] <= width, (
        f"{what} is not inside the {width} px window: x {box['x']:.1f}..{box['x'] + box['width']:.1f}")
    return box


def expect_target(box: dict, minimum: float, what: str, min_height: float | None = None) -> None:
    min_height = minimum if min_height is None else min_height
    assert box["width"] >= minimum and box["height"] >= min_height, (
        f"{what} is {box['width']:.1f} x {box['height']:.1f} px, smaller than {minimum} x {min_height}")


def expect_bedside_layout(app, question) -> dict:
    """The page fits the window; the question's answers and Next are inside it and big enough:
    answer buttons and Next at least 44 px tall, the number field at least 24 x 24 px."""
    page = app.page
    sizes = expect_no_horizontal_scroll(page)
    widget = app.widget(f"triage_q{question.stage - 1}")
    expect_inside_width(page, widget, "the answer widget")
    if question.kind == NUMERIC:
        field = widget.locator("input")
        expect_target(expect_inside_width(page, field, "the number field"), MIN_TARGET_PX, "the number field")
        unknown = app.widget(f"triage_q{question.stage - 1}_unknown")
        expect_inside_width(page, unknown, f'the "{UNKNOWN_TEXT}" box')
    else:
        buttons = widget.get_by_role("radio").all()
        assert len(buttons) == len(question.options) + len(question.extra_answers)
        heights = []
        for button in buttons:
            label = button.inner_text()
            box = expect_inside_width(page, button, label)
            expect_target(box, MIN_TARGET_PX, f'the answer "{label}"', min_height=LARGE_TARGET_PX)
            heights.append(round(box["height"], 1))
        sizes["answers"] = heights
    next_box = expect_inside_width(page, app.widget("triage_next").get_by_role("button"), "Next")
    expect_target(next_box, LARGE_TARGET_PX, "Next")
    sizes["next"] = (next_box["width"], next_box["height"])
    return sizes


def collapse_sidebar(page: Page) -> None:
    """Close the sidebar as a tablet user would to give the page the whole width (its button
    shows when the pointer is over the sidebar)."""
    sidebar = page.get_by_test_id("stSidebar")
    if sidebar.get_attribute("data-collapsed") == "true":
        return
    sidebar.hover()
    page.get_by_test_id("stSidebarCollapseButton").get_by_role("button").click()
    expect(sidebar).to_have_attribute("data-collapsed", "true")
    width = page.viewport_size["width"]

    def main_takes_the_width():  # once the sidebar's slide-out has ended
        box = box_of(page.get_by_test_id("stMain"))
        assert box["x"] <= 0.5 and box["width"] >= width - 0.5, f"the page is at {box}"

    poll(main_takes_the_width)


@pytest.mark.parametrize("viewport", list(TABLETS.values()), ids=list(TABLETS))
def test_triage_fits_a_tablet_window_with_large_targets(new_app, viewport):
    """In a tablet-sized window (a fresh browser context): no sideways scrolling, the answers and
    Next inside the window width, Next at least 44 x 44 px, every answer button at least 44 px
    tall (and 24 px wide) and the number field at least 24 x 24 px;
    first with the sidebar open as navigation left it (the narrowest page), then closed; then an
    answer (tapped) gives psl_core's numbers and the next question fits too."""
    app = new_app(viewport)
    go_to_demo_landing(app)
    train(app, max_stages=MAX_STAGES, setup="paper")
    open_triage(app, COST_RATIO)
    expected = expected_triage(*demo_model(MAX_STAGES, setup="paper"), COST_RATIO)
    assert expected.next_question is not None, "with M = 1 the demo list should ask a question"
    expect_triage_state(app, expected)

    measured = {"sidebar open": expect_bedside_layout(app, expected.next_question)}
    collapse_sidebar(app.page)
    measured["sidebar closed"] = expect_bedside_layout(app, expected.next_question)

    # "Unknown" first: the demo list then asks a number (a known answer decides at once).
    policy = AnswerPolicy(patient=demo()[0].iloc[0].to_dict(), unknown_at=frozenset({0}))
    question = expected.next_question
    raw = policy.choose(question)
    answer(app, question, raw)
    expected.answer(raw)
    expect_triage_state(app, expected)
    assert expected.next_question is not None and expected.next_question.kind == NUMERIC
    measured["number question"] = expect_bedside_layout(app, expected.next_question)
    assert app.page_errors == [], f"JavaScript errors in the tab: {app.page_errors}"
    print(f"{viewport}: {measured}")


# ---------------------------------------------------------------------------- keyboard


def focus_text(page: Page) -> str:
    return page.evaluate(FOCUSED)


def has_focus(locator: Locator) -> bool:
    return locator.evaluate("e => e.contains(document.activeElement)")


def press_until_focused(page: Page, key: str, target: Locator, what: str, max_presses: int = 8) -> None:
    """Press ``key`` (Tab, Shift+Tab, an arrow) until the focus is on ``target``: the keyboard
    user's way there, without counting on an exact number of presses."""
    expect(target).to_be_visible()
    for _ in range(max_presses):
        if has_focus(target):
            return
        page.keyboard.press(key)
    assert has_focus(target), f"{max_presses} x {key} did not reach {what}; the focus is on {focus_text(page)}"


def keyboard_answer(app, question, raw, text: str) -> None:
    """Answer the page's question with the keyboard alone, starting from the focus on Next (where
    the previous Next left it): Shift+Tab back into the answer widget; a number is typed, the
    "unknown" box of a number ticked with Space, an option reached with arrow keys and chosen
    with Space; Tab to Next and press Enter. Each move takes at most a few presses."""
    page = app.page
    widget = app.widget(f"triage_q{question.stage - 1}")
    next_button = app.widget("triage_next").get_by_role("button")
    if question.kind == NUMERIC:
        if raw is None:
            unknown = app.widget(f"triage_q{question.stage - 1}_unknown").get_by_role("checkbox")
            press_until_focused(page, "Shift+Tab", unknown, f'the "{UNKNOWN_TEXT}" box')
            page.keyboard.press("Space")
            expect(unknown).to_be_checked()
        else:
            field = widget.locator("input")
            press_until_focused(page, "Shift+Tab", field, "the number field")
            page.keyboard.type(f"{raw:g}")
            expect(field).to_have_value(f"{raw:g}")
    else:
        radios = widget.get_by_role("radio")
        press_until_focused(page, "Shift+Tab", radios.first.locator("xpath=.."), "the answers")
        option = widget.get_by_role("radio", name=text, exact=True)
        texts = [radio.inner_text().strip() for radio in radios.all()]
        focused = radios.evaluate_all("rs => rs.findIndex(r => r.contains(document.activeElement))")
        arrow = "ArrowRight" if texts.index(text) >= focused else "ArrowLeft"
        press_until_focused(page, arrow, option, f'the answer "{text}"', max_presses=len(texts))
        page.keyboard.press("Space")
        expect(option).to_have_attribute("aria-checked", "true")
    press_until_focused(page, "Tab", next_button, "Next")
    page.keyboard.press("Enter")
    app.wait_idle()


def test_triage_with_the_keyboard_alone(app):
    """A triage answered with the keyboard alone; the mouse only sets up (landing, Train, M = 1)
    and ``focus()`` puts the focus on the first answer of question 1, as a click would.

    With the keyboard: arrow keys move among the answers of a question and Space chooses one
    (question 1: "unknown"; question 3: the first answer), digits are typed into the number field
    of question 2, Space ticks the "unknown" box of question 4 and of any later one (or chooses
    "unknown" among its answers), Tab moves on to Next and Enter presses it. After an answer
    the focus stays on Next (pages/2_Triage.py keeps the form in its place for this), and
    Shift+Tab goes back into the following question. After every answer the page shows what
    psl_core says (total, probability, interval, next question or the end: every question
    answered, uncertain)."""
    go_to_demo_landing(app)
    train(app, max_stages=MAX_STAGES, setup="paper")
    open_triage(app, COST_RATIO)
    expected = expected_triage(*demo_model(MAX_STAGES, setup="paper"), COST_RATIO)
    expect_triage_state(app, expected)

    first = expected.next_question
    assert first.kind != NUMERIC, "the demo list's first question is expected to offer answers"
    app.widget(f"triage_q{first.stage - 1}").get_by_role("radio").first.focus()
    # question 1 unknown, a number, the first answer offered, then unknown to the end of the
    # list's recommended length: psl_core runs this to the end (a known first answer would
    # decide at once).
    plan = [None, 0.0, "first option", None]
    for planned in plan + [None] * (MAX_STAGES - len(plan)):
        question = expected.next_question
        if question is None:
            assert expected.stage >= len(plan), f"the triage stopped after {expected.stage} answers"
            break
        if question.kind == NUMERIC:
            assert planned is None or isinstance(planned, float), f"question {question.stage} asks a number"
            raw, text = planned, None
        else:
            raw = None if planned is None else question.options[0][0]
            text = unknown_text(question) if raw is None else dict(question.options)[raw]
        keyboard_answer(app, question, raw, text)
        expected.answer(raw)
        expect_triage_state(app, expected)
        if not expected.halted:  # the next question is a few Shift+Tabs away
            expect(app.widget("triage_next").get_by_role("button")).to_be_focused()
    assert expected.stage >= len(plan) and expected.halted
    assert app.page_errors == [], f"JavaScript errors in the tab: {app.page_errors}"


# ---------------------------------------------------------------------------- change an answer


def test_change_the_last_answer_starts_from_the_answer_taken_back(app):
    """openintro/yrbss: "Change the last answer" asked the question again with its widget empty.
    In the browser the question comes back holding the answer taken back (an option chosen, a
    number typed, the "unknown" box ticked), and Next sends it again unchanged."""
    go_to_demo_landing(app)
    train(app, max_stages=MAX_STAGES, setup="paper")
    open_triage(app, COST_RATIO)
    expected = expected_triage(*demo_model(MAX_STAGES, setup="paper"), COST_RATIO)
    policy = AnswerPolicy(patient=demo()[0].iloc[0].to_dict(), unknown_at=frozenset({2}))
    undo = app.widget("triage_undo").get_by_role("button")
    for _ in range(3):
        question = expected.next_question
        assert question is not None, "with M = 1 the demo list should ask three questions"
        raw = policy.choose(question)
        answer(app, question, raw)
        undo.click()
        app.wait_idle()
        widget = app.widget(f"triage_q{question.stage - 1}")
        if question.kind == NUMERIC and raw is None:
            expect(app.widget(f"triage_q{question.stage - 1}_unknown").get_by_role("checkbox")).to_be_checked()
        elif question.kind == NUMERIC:
            expect(widget.locator("input")).to_have_value(f"{raw:g}")
        else:
            text = dict(question.extra_answers)[raw] if raw is None else dict(question.options)[raw]
            expect(widget.get_by_role("radio", name=text, exact=True)).to_have_attribute("aria-checked", "true")
        app.widget("triage_next").get_by_role("button").click()
        app.wait_idle()
        expected.answer(raw)
        expect_triage_state(app, expected)
    assert app.page_errors == [], f"JavaScript errors in the tab: {app.page_errors}"
