"""A list saved with a too-good-to-be-true warning shows it on every page that opens it, not
only on Train and in the report (issue 39): Triage, Calibration, Intervals, Validate, the Card
page and the printed card."""

from __future__ import annotations

import pytest

from psl_triage.judging.card import card_html
from psl_triage.training.fit import train_list
from psl_triage.training.options import TrainingOptions
from tests.apptest import open_page
from tests.tables import dataset_session

WARNING = {"shown": True, "data": "test", "reasons": ["Held-out AUC 0.99."], "questions": ["thalach"]}


@pytest.fixture(scope="module")
def flagged(demo_prepared):
    model, metadata = train_list(demo_prepared, "Heart disease", TrainingOptions(max_stages=3))
    return model, {**metadata, "too_good_warning": WARNING}, demo_prepared


@pytest.mark.parametrize("page", ["2_Triage", "3_Calibration", "4_Intervals", "6_Validate", "7_Card"])
def test_every_page_that_opens_the_list_says_it_is_too_good(flagged, page, isolated_model_dir):
    model, metadata, prepared = flagged
    at = open_page(f"pages/{page}.py", model, metadata, dataset_session(prepared))
    assert not at.exception
    assert any("Too good to be true" in error.value and "thalach" in error.value for error in at.error), page


def test_the_printed_card_says_it_is_too_good(flagged):
    model, metadata, _ = flagged
    assert "Too good to be true" in card_html(model, metadata)
    plain = {key: value for key, value in metadata.items() if key != "too_good_warning"}
    assert "Too good to be true" not in card_html(model, plain)
