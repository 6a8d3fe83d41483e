"""The export on the pages (issue 42, item 2): the Card page's specification and scorers, the
Triage page's FHIR RiskAssessment, in Streamlit's AppTest."""

from __future__ import annotations

import hashlib
import json

import pytest
from streamlit.testing.v1 import AppTest

from psl_triage.bedside.session import recommended_length
from psl_triage.model_file.export import verify
from psl_triage.model_file.store import read_model_file, save_model
from psl_triage.training.fit import train_list
from psl_triage.training.options import TrainingOptions
from psl_triage.words import export as words
from tests.apptest import put_list
from tests.paths import ROOT
from ui.export import exported_files

CARD = str(ROOT / "pages" / "7_Card.py")


@pytest.fixture(scope="module")
def trained(demo_prepared):
    return train_list(demo_prepared, "Heart disease (UCI, Cleveland)", TrainingOptions(max_stages=4))


def _labels(at):
    return [button.label for button in at.get("download_button")]


def test_the_card_page_offers_the_specification_and_three_scorers_once_asked(trained):
    at = AppTest.from_file(CARD, default_timeout=120)
    put_list(at, *trained)
    at.run()
    assert not at.exception and len(_labels(at)) == 2  # nothing is built before it is asked for
    at.button(key="card_export_prepare").click().run()
    assert not at.exception and not at.error
    assert _labels(at)[2:] == list(words.EXPORT_LABELS.values())
    assert any("test case" in caption.value for caption in at.caption)


def test_a_saved_lists_specification_carries_its_files_checksum(trained, isolated_model_dir):
    stored = save_model(trained[0], "Export page test", trained[1])
    at = AppTest.from_file(CARD, default_timeout=120).run()
    at.selectbox(key="card_model_choice").set_value(str(stored.path)).run()
    at.button(key="card_export_prepare").click().run()
    assert not at.exception and not at.error and len(_labels(at)) == 6
    data = read_model_file(stored.path)
    model = trained[0]
    stage = recommended_length(model)
    spec = verify(json.loads(exported_files(data, 10.0, stage)["specification"]))
    assert spec["list"]["model_sha256"] == hashlib.sha256(data).hexdigest()
    assert spec["list"]["name"] == "Export page test" and spec["list"]["version"] == "1"
