"""Streamlit's own table download is off (issue 40, item 3): it writes the cells as they are,
so a name such as =HYPERLINK(...) from an uploaded table would run in a spreadsheet; the app's
own CSV downloads neutralise them (psl_triage/model_file/csv_export.py)."""

from playwright.sync_api import expect
from psl_flows import go_to_demo_landing


def test_a_table_s_toolbar_offers_no_download(app):
    go_to_demo_landing(app)
    table = app.page.get_by_test_id("stDataFrame").filter(visible=True).first
    table.hover()
    toolbar = app.page.get_by_test_id("stElementToolbar").filter(visible=True).first
    expect(toolbar.get_by_role("button").first).to_be_visible()  # the toolbar is shown (search, full screen)
    expect(app.page.get_by_role("button", name="Download as CSV")).to_have_count(0)
    app.assert_no_exception()
