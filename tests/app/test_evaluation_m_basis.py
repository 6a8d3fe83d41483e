"""The Evaluation page's "Where M matters" agrees with its decision curves (issue 39): both act
where the point risk is above 1/(1+M). On the risk-averse basis the sentence said a list
changes no decision and treats everyone while the curve below sat at treating no one."""

from __future__ import annotations

from psl_triage.model_file.metadata import ModelMetadata
from psl_triage.training.fit import train_list
from psl_triage.training.options import TrainingOptions
from psl_triage.words.trade_off import where_m_matters
from tests.apptest import open_page
from tests.tables import dataset_session


def test_where_m_matters_is_said_on_the_point_basis_of_the_curves(demo_prepared, isolated_model_dir):
    model, metadata = train_list(demo_prepared, "Heart disease", TrainingOptions(max_stages=3))
    at = open_page("pages/5_Evaluation.py", model, metadata, dataset_session(demo_prepared))
    assert not at.exception
    shown = [element.value for element in [*at.info, *at.caption] if "Where M matters" in str(element.value)]
    names = ModelMetadata.coerce(metadata).class_names
    point = where_m_matters(model, 10.0, *names, 0.95, basis="point", curves_here=True)[0]
    upper = where_m_matters(model, 10.0, *names, 0.95, basis="upper", curves_here=True)[0]
    assert point != upper and shown == [point]
