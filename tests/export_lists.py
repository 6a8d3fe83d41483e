"""The lists the export is checked on (issue 42): one of each kind the test suite builds.

yes/no (the demo table, trained as the app trains it: metadata, recommended length, stop
statistics), horizon (a follow-up study), costs (question costs and a value of a changed outcome),
missing directions (:func:`tests.tables.lab_list`), ordered levels (:func:`tests.tables.sleep_table`),
one question (:func:`tests.tables.small_model`), none (a list of no question), a list saved before
stop statistics, one decided on the point estimate, and names that break code written naively
(quotes, a comment, ``__proto__``). Each is (model file text, TriageSettings or None). The costs
list's dearest question comes last, where few outcomes still change, so its cost stops some
patients ("not worth its cost") and not others.
"""

from __future__ import annotations

import functools

from psl_core import ProbabilisticScoringList
from psl_triage.bedside.session import TriageSettings
from psl_triage.data import infer_column_types, prepare_training_data
from psl_triage.data.demo import load_demo
from psl_triage.training.fit import train_list
from psl_triage.training.options import TrainingOptions
from tests.tables import (
    SLEEP_LEVELS,
    chest_pain_columns,
    chest_pain_table,
    follow_up_study,
    lab_list,
    sleep_table,
    small_model,
)


def _trained(prepared, name):
    model, metadata = train_list(prepared, name, TrainingOptions())
    return model.to_json(metadata)


def _hostile():
    X, y = chest_pain_table(seed=3)
    names = {"hr": "it's \"hr\"; -- x", "sex": "__proto__", "cp": "cp\\'\n</script>"}
    X = X.rename(columns=names)
    X[names["cp"]] = X[names["cp"]].cat.rename_categories({"4": "O'Brien \\ \"4\"", "2": "-- 2", "1": "<b>1</b>"})
    return ProbabilisticScoringList(recommend_folds=3).fit(X, y).to_json({"name": "Quote ' \" -- */ </script>"})


def uncertain_at_first(text, **settings):
    """Settings whose threshold 1/(1+M) is the list's base rate: the triage is uncertain before the
    first question, so the test cases walk the list instead of stopping at once."""
    prior = float(ProbabilisticScoringList.from_json(text).stage_probabilities_[0][0])
    return TriageSettings(cost_ratio=(1 - prior) / prior, **settings)


def _without_statistics():
    X, y = chest_pain_table(seed=4)
    model = ProbabilisticScoringList(max_stages=4).fit(X, y)
    model.stop_statistics_ = None
    return model.to_json({"columns": chest_pain_columns()})


@functools.cache
def export_corpus() -> dict:
    """Name -> (model file text, TriageSettings or None: the list's defaults)."""
    demo, meta = load_demo()
    yes_no = prepare_training_data(demo, infer_column_types(demo, meta.columns), meta.outcome, meta.positive_class,
                                   "drop", meta.columns)
    _, horizon, _ = follow_up_study()
    sleep = sleep_table()
    ordered = prepare_training_data(sleep, {"Sleep": "categorical", "Age": "numeric"}, "Outcome", 1, "learn",
                                    orders={"Sleep": SLEEP_LEVELS})
    X, y = chest_pain_table()
    costs = ProbabilisticScoringList(recommend_folds=3, question_costs={"hr": 2.0, "cp": 0.5, "sex": 4.0}).fit(X, y)
    lab, _ = lab_list()
    none = ProbabilisticScoringList(max_stages=0).fit(X, y)
    return {
        "yes/no": (_trained(yes_no, "heart.csv"), None),
        "horizon": (horizon_list := _trained(horizon, "study.csv"), uncertain_at_first(horizon_list)),
        "costs": (costs.to_json({"columns": chest_pain_columns(), "cost_unit": "minutes"}),
                  TriageSettings(cost_ratio=2.0, change_value=10.0, length=None)),
        "missing directions": (lab.to_json(), None),
        "ordered levels": (_trained(ordered, "sleep.csv"), None),
        "one question": (one := small_model().to_json(), uncertain_at_first(one)),
        "none": (none.to_json(), None),
        "without stop statistics": (old := _without_statistics(), uncertain_at_first(old)),
        "point basis": (old, uncertain_at_first(old, basis="point", confidence=0.9)),
        "hostile names": (_hostile(), None),
    }
