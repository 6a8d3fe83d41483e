"""The printable card and the model report (psl_triage.judging.card): content, escaping, origin."""

import re
from html import escape
from html.parser import HTMLParser

import pytest

from psl_core.decision import RULE_IN
from psl_triage.bedside.session import recommended_length
from psl_triage.judging.card import card_html, report_html
from psl_triage.plots import CONFIDENT_POSITIVE, interval_table
from psl_triage.training.fit import train_list
from psl_triage.training.options import TrainingOptions
from psl_triage.training.tables import readable_columns
from psl_triage.words.common import percent

HOSTILE = '<script>alert("x")</script>&'


@pytest.fixture(scope="module")
def trained(demo_prepared):
    return train_list(demo_prepared, "Heart disease (UCI, Cleveland)", TrainingOptions(max_stages=6))


class Text(HTMLParser):
    """The visible text and the tags of an HTML page."""

    def __init__(self):
        super().__init__()
        self.text, self.tags = [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)

    def handle_data(self, data):
        self.text.append(data)


def parsed(html):
    parser = Text()
    parser.feed(html)
    return " ".join(parser.text), parser.tags


def test_the_card_holds_questions_points_risks_and_the_threshold(trained):
    model, metadata = trained
    metadata = dict(metadata, name="Chest pain", version=4, created="2026-05-01T10:00:00+00:00")
    stage = recommended_length(model)
    text, tags = parsed(card_html(model, metadata, cost_ratio=4))
    assert "Chest pain" in text and "version 4" in text and "2026-05-01" in text
    columns = readable_columns(metadata)
    for k in range(1, stage + 1):
        assert model.describe_stage(k, columns) in text
    table = interval_table(model, stage, 4)
    assert text.count(RULE_IN) == (table["decision"] == CONFIDENT_POSITIVE).sum()
    assert "M = 4" in text and "1/(1+M) = 20.0%" in text
    assert "script" not in tags


def test_the_card_shows_every_total_of_its_stage(trained):
    model, metadata = trained
    html = card_html(model, metadata, stage=3)
    rows = re.findall(r'<tr class="[a-z]*"><td class="num">([+-]?\d+)</td>', html)
    assert [int(r) for r in rows] == model.stage_totals_[3].tolist()


def test_the_card_writes_risks_as_the_bedside_does(trained):
    # One way to write a risk (psl_triage.words.common.percent, whole percents on the card): a
    # risk of 99.6 % reads ">99%", never a false "100 %"; 0.3 % reads "<1%", escaped in HTML.
    model, metadata = trained
    stage = recommended_length(model)
    html = card_html(model, metadata, cost_ratio=4)
    shown = re.findall(r'<tr class="[a-z]*"><td class="num">[^<]*</td><td class="num">([^<]*)</td>'
                       r'<td class="num">([^<]*)</td>', html)
    table = interval_table(model, stage, 4)
    assert shown == [
        (escape(percent(row.probability, 0)), f"{escape(percent(row.lower, 0))} – {escape(percent(row.upper, 0))}")
        for row in table.itertuples()
    ]
    assert percent(0.996, 0) == ">99%" and percent(0.003, 0) == "<1%"


def test_user_text_is_escaped(trained):
    model, metadata = trained
    columns = {name: dict(info, label=HOSTILE + name) for name, info in metadata["columns"].items()}
    hostile = dict(metadata, name=HOSTILE, columns=columns, dataset=dict(metadata["dataset"], name=HOSTILE))
    for html in (card_html(model, hostile), report_html(model, hostile)):
        _, tags = parsed(html)
        assert "script" not in tags and "<script>" not in html
        assert "&lt;script&gt;" in html


def test_the_report_has_the_tripod_items_and_intervals(trained):
    model, metadata = trained
    text, _ = parsed(report_html(model, metadata))
    for item in ("Source of data", "Participants", "Outcome", "Predictors", "Sample size", "Model development",
                 "Intended use", "Performance", "M = 10"):
        assert item in text
    assert "Hanley–McNeil" in text and re.search(r"0\.\d{3} to 0\.\d{3}", text)
    assert "None recorded" in text


def test_the_report_says_where_a_list_was_recalibrated(trained):
    model, metadata = trained
    origin = {"recalibrated_from": {"name": "Heart", "version": 1}, "table": {"name": "hungary.csv", "n_rows": 294},
              "n_stages": 1, "date": "2026-11-23T00:00:00+00:00"}
    text, _ = parsed(report_html(model, dict(metadata, origin=origin)))
    assert "Recalibrated on hungary.csv (294 patients) on 2026-11-23, from Heart version 1" in text
    assert "hungary.csv" in parsed(card_html(model, dict(metadata, origin=origin)))[0]


def test_an_old_file_without_metadata_still_gives_a_card(trained):
    model, _ = trained
    text, _ = parsed(card_html(model, {}))
    assert "not saved in the store" in text and "M = 10" in text
    assert "Not recorded" in parsed(report_html(model, {}))[0]


def test_the_card_shows_question_costs_with_their_unit(demo_prepared):
    costs = {"ca": 20.0, "thal": 20.0, "chol": 2.0, "oldpeak": 5.0}
    model, metadata = train_list(
        demo_prepared, "Heart disease (UCI, Cleveland)",
        TrainingOptions(max_stages=6, question_costs=costs, cost_unit="min <b>"),
    )
    text, _ = parsed(card_html(model, dict(metadata, name="costed")))
    assert "Cost (min <b>)" in text  # the unit, escaped, read back as text
    html = card_html(model, dict(metadata, name="costed"))
    assert "min &lt;b&gt;" in html and "min <b>" not in html
    stage = recommended_length(model)
    for k in range(stage):
        assert f'<td class="num">{model.scores_[k]:+d}</td><td class="num">{model.stage_costs_[k]:g}</td>' in html
    plain, _ = parsed(card_html(*trained_plain(demo_prepared)))
    assert "Cost" not in plain


def trained_plain(demo_prepared):
    return train_list(demo_prepared, "Heart disease (UCI, Cleveland)", TrainingOptions(max_stages=6))


def test_the_card_counts_the_patients_the_list_learned_from(trained):
    """Issue 26, item 9: 198 training patients of 297, not the whole table."""
    model, metadata = trained
    options = metadata["training_options"]
    assert (options["n_train"], options["n_test"]) == (198, 99) and metadata["dataset"]["n_rows"] == 297
    text, _ = parsed(card_html(model, metadata))
    assert "198 of its 297 patients (99 held out to test the list)" in text
    assert ", 297 patients" not in text


def test_the_report_lists_the_columns_proposed_out_and_a_too_good_warning(trained):
    model, metadata = trained
    roles = {"pid": {"role": "identifier", "evidence": "Named 'pid'.", "kept": False},
             HOSTILE: {"role": "leak", "evidence": HOSTILE, "kept": True}, "bad": {"role": "?"}}
    warning = {"shown": True, "data": "test", "reasons": ["Its AUC reaches 0.990."], "questions": ["ct"]}
    html = report_html(model, dict(metadata, column_roles=roles, too_good_warning=warning))
    text, tags = parsed(html)
    assert "Columns proposed out of the list" in text and "Named 'pid'." in text and "possible leak" in text
    assert "bad" not in text.split("Columns proposed out of the list")[1].split("Performance at")[0]
    assert re.search(r"Too good to be true: +Its AUC reaches 0\.990\. Questions suspected: ct\.", text)
    assert HOSTILE in text and "script" not in tags
    assert "None recorded in this model file." in parsed(report_html(model, metadata))[0]


def test_the_report_says_its_settings_in_words_not_codes(trained):
    model, metadata = trained
    text, _ = parsed(report_html(model, metadata))
    for code in ("cv_brier", "sidak", "bonferroni", "selection by", "per allowed use"):
        assert code not in text
    correction = {"sidak": "Šidák", "bonferroni": "Bonferroni"}[model.interval_correction]
    assert f"intervals per total (level shared among a stage's totals by {correction})" in text
    assert "each question chosen by the" in text


def test_no_performance_means_no_auc_footnote(trained):
    import copy

    model, metadata = trained
    bare = copy.copy(model)
    bare.validation_brier_ = None
    text, _ = parsed(report_html(bare, dict(metadata, performance={})))
    assert "No performance recorded in this model file." in text
    assert "Hanley and McNeil" not in text
    assert "Hanley and McNeil" in parsed(report_html(model, metadata))[0]


def test_the_cards_star_is_explained_only_when_a_total_carries_one(trained):
    model, metadata = trained
    seen = set()
    for stage in range(len(model.literals_) + 1):
        starred = bool(interval_table(model, stage, 10.0, 0.95)["no_training_case"].any())
        text, _ = parsed(card_html(model, metadata, stage=stage))
        assert ("No training patient had this total" in text) == starred, stage
        seen.add(starred)
    assert False in seen


def test_the_report_and_card_say_what_the_list_was_trained_to_respect(demo_prepared):
    model, metadata = train_list(
        demo_prepared, "Heart disease (UCI, Cleveland)",
        TrainingOptions(max_stages=6, monotone={"age": "increasing"}, required=["cp"], forbidden=["thal"]),
    )
    said = ("Trained with what you know already: asked first: 'cp'; never asked: 'thal'; "
            "points with a higher value never fewer: 'age'.")
    report_text, _ = parsed(report_html(model, metadata))
    card_text, _ = parsed(card_html(model, metadata))
    assert said in report_text and said in card_text
    row = re.search(r"<td>thal</td><td>[^<]*</td><td>[^<]*</td><td>(.*?)</td>", report_html(model, metadata))
    assert row is not None and row.group(1) == "never (as set on Train)"  # offered, but never asked
    plain, _ = parsed(report_html(*trained_plain(demo_prepared)))
    assert "Trained with what you know already" not in plain


def test_a_recommendation_beyond_the_list_gives_the_whole_list_on_the_card(trained):
    """One default length (issue 38): the card, the Triage page and the evidence all start at
    the bedside's :func:`recommended_length`, the whole list when the recommendation is longer
    than the list (a file may say so) or missing."""
    import copy

    from psl_triage.bedside.session import recommended_length

    model, metadata = trained
    longer = copy.copy(model)
    longer.recommended_stages_ = len(model.literals_) + 2
    assert recommended_length(longer) == len(model.literals_)
    text, _ = parsed(card_html(longer, metadata))
    assert f"after {len(model.literals_)} question" in text or str(len(model.literals_)) in text


def test_a_list_recommending_no_question_prints_the_base_rate_card(monkeypatch):
    """Issue 39: the card starts where Triage does. A list whose recommended length is 0 (no
    question beat the base rate on held-out folds) prints no question and the base-rate risk,
    and says the list's questions are beyond the recommendation."""
    import numpy as np
    import pandas as pd

    import psl_core.chance
    from psl_core import ProbabilisticScoringList
    from psl_triage.words.report import NO_CARD_QUESTION

    monkeypatch.setattr(psl_core.chance, "REQUIRED_Z", -np.inf)  # questions that beat chance, not the base rate
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"hr": rng.normal(150, 20, 150).round(), "sex": rng.integers(0, 2, 150).astype(float)})
    noise = ProbabilisticScoringList(recommend_folds=5).fit(X, (rng.random(150) < 0.4).astype(int))
    n = len(noise.literals_)
    assert noise.recommended_stages_ == 0 and n > 0 and recommended_length(noise) == 0
    text, _ = parsed(card_html(noise, {"name": "Noise"}))
    assert NO_CARD_QUESTION in text and "Risk after 0 questions" in text
    assert f"none of its {n} questions (the recommended length" in text
    assert percent(noise.stage_probabilities_[0][0], 0) in text
