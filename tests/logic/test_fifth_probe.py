"""The fifth re-probe of issue 40 (new hostile inputs of its six classes, by a prober who had not
read the tests): the inputs that failed, each through the part of the app that failed it."""

import json

import pytest

from psl_core import ProbabilisticScoringList
from psl_triage.bedside.questions import build_questions
from psl_triage.judging.card import card_html, report_html
from psl_triage.model_file.metadata import ModelMetadata
from psl_triage.words import label_md, plotly_text
from psl_triage.words.triage import answer_labels, answer_texts
from tests.hostile_corpus import DIRECTION_SPOOFS, meaning_document

OVERRIDE = "\u202e"


@pytest.mark.parametrize("text", DIRECTION_SPOOFS)
def test_a_direction_override_shows_as_its_code_in_labels_and_figures(text):
    for shown in (label_md(text), plotly_text(text)):
        assert OVERRIDE not in shown and "\u2066" not in shown and "\u202d" not in shown
        assert "⟨U+" in shown


def _spoofed_list():
    """A valid list whose "pain" answers include one that an override draws as "typical"
    (its letters reversed), beside "typical" itself: the file reads apart, the page must too."""
    document = meaning_document()
    document["metadata"]["columns"]["pain"]["category_labels"]["atypical"] = f"{OVERRIDE}lacipyt"
    document["metadata"]["columns"]["smoker"]["label"] = f"{OVERRIDE}niap tsehC"  # drawn "Chest pain"
    return ProbabilisticScoringList.from_json(json.dumps(document))


def test_answers_an_override_draws_alike_read_apart_at_the_bedside():
    model = _spoofed_list()
    metadata = ModelMetadata.of(model)
    for question in build_questions(model, metadata.readable_columns()):
        assert not any(OVERRIDE in text for text in [*answer_labels(question), *answer_texts(question)])
        assert OVERRIDE not in label_md(question.prompt)


def test_the_card_and_the_report_show_a_direction_override_as_its_code():
    model = _spoofed_list()
    metadata = ModelMetadata.of(model)
    for html in (card_html(model, metadata), report_html(model, metadata)):
        assert OVERRIDE not in html
        assert "⟨U+202E⟩" in html
