"""The printable card: downloaded from the Card page and printed to PDF by Chromium, it must
fit exactly one A4 and one Letter page, also for the whole (longest) list."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
from psl_flows import demo_model, download, go_to_demo_landing, train

PAGE_OBJECT = re.compile(rb"/Type\s*/Page(?![a-zA-Z])")  # a page, not the /Pages tree


def printed_pages(page, html: str, paper: str) -> int:
    page.set_content(html)
    return len(PAGE_OBJECT.findall(page.pdf(format=paper)))


@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_the_card_prints_on_one_page(app, browser, paper):
    go_to_demo_landing(app)
    trained, _ = demo_model()
    train(app, expected_stages=trained.n_stages_ - 1)
    app.navigate("Card")
    app.assert_no_exception()
    expect(app.widget("card_view").locator("iframe")).to_be_visible()
    printer = browser.new_page()
    try:
        card = download(app, "card_download_card")
        assert "Thallium stress test" in card and "1/(1+M)" in card
        assert printed_pages(printer, card, paper) == 1
        # The whole list, every question on the card, still fits.
        app.choice_widget("card_stage").get_by_role("slider").press("End")  # the slider's last stage
        app.wait_idle()
        # The page has rerun once the card on it shows the new length; the download button
        # may lag behind the idle signal (without this wait it downloaded the old card in 3 of 6 runs).
        shown = app.widget("card_view").frame_locator("iframe").get_by_text(
            f"Risk after {len(trained.literals_)} questions")
        expect(shown).to_be_visible()
        longest = download(app, "card_download_card")
        # A list that ends at its recommended length (no later question beat chance) is whole on
        # the default card already.
        assert (longest != card) == (len(trained.literals_) > trained.recommended_stages_)
        assert f"Risk after {len(trained.literals_)} questions" in longest
        assert printed_pages(printer, longest, paper) == 1
        report = download(app, "card_download_report")
        assert "model report" in report and printed_pages(printer, report, paper) >= 1
    finally:
        printer.close()
