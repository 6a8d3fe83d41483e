"""One M per list across the pages (issue 39): M set on Triage showed as 10 on Intervals,
Evaluation and Card (the printed card then ruled in every total); the input reaches every M
the pages name (ranges down to 0.0095)."""

from __future__ import annotations

import pytest

from psl_core.cost_ratio import COST_RATIO_RANGE
from psl_triage.training.fit import train_list
from psl_triage.training.options import TrainingOptions
from tests.apptest import open_page
from tests.tables import dataset_session


@pytest.fixture(scope="module")
def trained(demo_prepared):
    model, metadata = train_list(demo_prepared, "Heart disease", TrainingOptions(max_stages=3))
    return model, metadata, demo_prepared


def m_input(at, prefix):
    return at.number_input(key=f"{prefix}_cost_ratio_v{at.session_state[f'{prefix}_cost_ratio_version']}")


def test_m_set_on_one_page_is_the_m_of_every_page_that_opens_the_list(trained, isolated_model_dir):
    model, metadata, prepared = trained
    at = open_page("pages/2_Triage.py", model, metadata, dataset_session(prepared))
    m_input(at, "triage").set_value(3.0).run()
    for page, prefix in (("4_Intervals", "intervals"), ("7_Card", "card")):
        at.switch_page(f"pages/{page}.py").run()
        assert not at.exception and m_input(at, prefix).value == 3.0, page
    m_input(at, "card").set_value(0.0095).run()
    at.switch_page("pages/2_Triage.py").run()
    assert not at.exception and m_input(at, "triage").value == 0.0095
    assert COST_RATIO_RANGE[0] <= 0.0095 and m_input(at, "triage").min == COST_RATIO_RANGE[0]
