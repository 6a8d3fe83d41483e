"""The app starts and its landing page renders."""

from playwright.sync_api import expect


def test_landing_page_renders_with_a_title_and_no_exception(app):
    page = app.open()

    assert page.title().strip(), "the browser tab has no title"
    heading = page.locator("h1").first
    expect(heading).to_be_visible()
    assert heading.inner_text().strip(), "the landing page's main heading is empty"
    app.assert_no_exception()
    assert app.page_errors == [], f"JavaScript errors in the tab: {app.page_errors}"
