"""The export as a user gets it (issue 42, item 2): the Card page's specification and JavaScript
scorer downloaded and run, the Triage page's FHIR RiskAssessment downloaded and validated."""

from __future__ import annotations

import json

from fhir.resources.riskassessment import RiskAssessment
from psl_flows import demo_model, download, expected_triage, go_to_demo_landing, open_triage, train

from psl_triage.bedside.session import recommended_length
from psl_triage.model_file.export import verify


def test_the_card_exports_a_specification_whose_scorer_reproduces_it_in_the_browser(app, browser):
    go_to_demo_landing(app)
    trained, metadata = demo_model()
    train(app, expected_stages=trained.n_stages_ - 1)
    app.navigate("Card")
    app.widget("card_export_prepare").get_by_role("button").click()
    app.wait_idle(timeout_ms=120_000)
    app.assert_no_exception()
    spec = verify(json.loads(download(app, "card_export_specification")))
    assert spec["settings"]["length"] == recommended_length(trained)
    scorer = download(app, "card_export_javascript")
    assert spec["checksum"] in scorer
    page = browser.new_page()
    try:
        page.set_content("<!doctype html><title>scorer</title>")
        page.add_script_tag(content=scorer)
        assert page.evaluate("() => PSLScorer.checkTestCases(PSLScorer.SPECIFICATION.test_cases).length") == 0
        assert page.evaluate("() => PSLScorer.SPECIFICATION.test_cases.length") == len(spec["test_cases"])
    finally:
        page.close()

    open_triage(app, 10.0)
    session = expected_triage(trained, metadata, 10.0)
    resource = json.loads(download(app, "triage_download_fhir"))
    parsed = RiskAssessment.parse_obj(resource)
    assert resource["prediction"][0]["probabilityDecimal"] == session.current.probability_high
    assert parsed.method.coding[0].code == spec["list"]["model_sha256"]
