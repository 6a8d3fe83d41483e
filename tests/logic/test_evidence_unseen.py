"""Issue 28's evidence on cases found verifying it: subgroups none of which can be judged."""

import numpy as np
import pandas as pd

from psl_core.subgroups import subgroup_measures
from psl_triage.judging.card import report_html
from psl_triage.judging.evidence import report_evidence, subgroup_sentences


def tiny_groups():
    """28 patients in groups of 13, 14 and 1: every group too small (one class in each)."""
    rng = np.random.default_rng(0)
    y = np.r_[np.ones(13), np.zeros(15)].astype(int)
    p = rng.uniform(0.1, 0.9, 28)
    groups = np.r_[["A"] * 13, ["B"] * 14, ["C"]]
    return subgroup_measures(y, p, groups, threshold=0.2, n_boot=20)


def test_when_no_group_can_be_judged_the_page_does_not_say_none_differs():
    table = tiny_groups()
    assert table.drop(index="All patients")["too_small"].all()
    text = " ".join(subgroup_sentences(table, "ward"))
    assert "differs beyond its interval" not in text
    assert "No group of ward is large enough to judge" in text


def test_when_no_group_can_be_judged_the_report_does_not_say_none_differs(demo_prepared):
    from psl_triage.training.fit import train_list
    from psl_triage.training.options import TrainingOptions

    model, metadata = train_list(demo_prepared, "demo", TrainingOptions(max_stages=2))
    evidence = report_evidence(1, subgroup_reports=[("a site", "ward", tiny_groups())])
    report = report_html(model, metadata, 1, evidence=evidence)
    assert "no group differs beyond its interval" not in report
    assert "no group is large enough to judge" in report


def test_a_judged_group_that_does_not_differ_is_still_said_so():
    rng = np.random.default_rng(1)
    p = rng.uniform(0.05, 0.95, 2000)
    y = (rng.random(2000) < p).astype(int)
    table = subgroup_measures(y, p, np.where(np.arange(2000) % 2, "f", "m"), threshold=0.2, n_boot=50)
    assert "No group of sex differs beyond its interval." in subgroup_sentences(table, "sex")
    assert isinstance(pd.DataFrame(table), pd.DataFrame)


def test_a_list_worse_than_chance_at_a_site_is_said_not_silently_set_to_051():
    from psl_triage.judging.evidence import validation_adequacy

    rng = np.random.default_rng(3)
    p = rng.uniform(0.05, 0.95, 600)
    y = (rng.random(600) < 1 - p).astype(int)  # the list ranks the site's patients backwards
    size, table, sentence = validation_adequacy(y, p)
    assert "below 0.5" in sentence and "0.51" in sentence, sentence
