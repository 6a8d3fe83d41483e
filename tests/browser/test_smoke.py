"""The app starts, its landing page renders and the sidebar names the pages by their titles."""

from playwright.sync_api import expect


def test_landing_page_renders_with_a_title_and_no_exception(app):
    page = app.open()

    assert page.title().strip(), "the browser tab has no title"
    heading = page.locator("h1").first
    expect(heading).to_be_visible()
    assert heading.inner_text().strip(), "the landing page's main heading is empty"
    app.assert_no_exception()
    assert app.page_errors == [], f"JavaScript errors in the tab: {app.page_errors}"


def test_sidebar_lists_the_pages_by_their_titles_in_order(app):
    app.open()
    links = app.page.get_by_test_id("stSidebarNav").get_by_role("link")
    expect(links).to_have_text(["Data", "Train", "Triage", "Calibration", "Intervals", "Evaluation", "Validate", "Card", "Monitor"])
    app.navigate("Train")
    app.navigate("Data")  # back at the root URL, on the landing page
    expect(app.page.get_by_role("heading", name="PSL Triage")).to_be_visible()
    app.assert_no_exception()
