"""A survival study export whose times are named as such studies name them (issue 39): ``OS``
months with ``Death``, ``RFS`` months with ``Recurrence``, no "time" in any name. Uploaded in a
real browser, the follow-up pair is proposed from the values (OS with Death), RFS and Recurrence
are proposed out, a horizon list is trained, a patient triaged, the list validated on another
part of the table and its card printed; every class reads "within 36 months" the right way
round, never "no event (Death = 1)".

The table is made here (tmp_path), never checked in.
"""

from __future__ import annotations

from playwright.sync_api import expect
from psl_flows import (
    AnswerPolicy,
    download,
    expected_triage,
    open_triage,
    run_triage,
    set_horizon,
    train,
    upload_own_table,
    upload_site_table,
)
from test_journey import saved_model_path

from psl_triage.model_file.store import load_model
from tests.tables import liver_table

HORIZON = 36
WITHIN = f"within {HORIZON} months"


def test_an_os_rfs_export_trains_triages_validates_and_prints_within_the_horizon(app, tmp_path):
    frame = liver_table(600, seed=2)
    study, site = frame.iloc[:420], frame.iloc[420:]
    path = tmp_path / "liver_cohort.csv"
    study.to_csv(path, index=False)
    upload_own_table(app, path)

    # Proposed from the values: Death as the event, OS as its follow-up time.
    expect(app.choice_widget("w_follow_up").locator("input[type=checkbox]")).to_be_checked()
    expect(app.choice_widget("w_time").get_by_role("combobox")).to_have_value("OS")
    expect(app.page.get_by_text("Behaves as the follow-up time of 'Death'").first).to_be_visible()
    set_horizon(app, HORIZON, "months")
    expect(app.alerts("info").filter(has_text="censored before it")).to_contain_text(WITHIN)
    # RFS (another event's time) and Recurrence (an event with its own time) stay out.
    expect(app.alerts("warning").filter(has_text="RFS").first).to_be_visible()
    expect(app.alerts("warning").filter(has_text="Recurrence").first).to_be_visible()

    train(app, max_stages=3)
    model = load_model(saved_model_path(app))
    metadata = model.metadata_
    assert model.horizon == HORIZON
    assert not {"OS", "RFS", "Recurrence", "Death"} & set(model.features_)
    dataset = metadata["dataset"]
    assert (dataset["positive_label"], dataset["negative_label"]) == (f"Death {WITHIN}", f"no death {WITHIN}")

    open_triage(app, 4.0)
    patient = study.iloc[0].to_dict()
    run_triage(app, expected_triage(model, metadata, 4.0), AnswerPolicy(patient=patient, unknown_at=frozenset()))
    expect(app.metric_value(WITHIN)).to_be_visible()
    expect(app.page.get_by_text("no event (")).to_have_count(0)

    upload_site_table(app, site, tmp_path / "other_part.csv")
    expect(app.widget("validate_time").get_by_role("combobox")).to_have_value("OS")
    expect(app.page.get_by_text("censored before it").first).to_be_visible()
    expect(app.page.get_by_test_id("stTable").first).to_be_visible()

    app.navigate("Card")
    app.assert_no_exception()
    card = download(app, "card_download_card")
    assert f"Death {WITHIN}" in card and "no event (" not in card
    assert app.page_errors == []
