"""The Train page asks whether each question the list asks is known at triage: answers kept
across reruns and in the saved file, a column recorded later never asked again after one click.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
from streamlit.testing.v1 import AppTest

from psl_triage.data import DEFAULT_MISSING_HANDLING, infer_column_types, prepare_training_data
from psl_triage.model_file.store import open_model
from psl_triage.words import shown
from psl_triage.words.known_at_triage import KNOWN, LATER
from tests.app.test_train_page import click_train, open_train_page, texts
from tests.apptest import put_list, training
from tests.tables import dataset_session


def answer(at, column, value):
    """Answer "known at triage?" for ``column`` of the current list."""
    return at.radio(key=training(at).known_key(column)).set_value(value).run()


def trained_page(project_root, demo_prepared):
    at = open_train_page(project_root, dataset=dataset_session(demo_prepared))
    at.number_input(key="w_train_max_stages").set_value(4)
    click_train(at)
    assert not at.exception and not at.error
    return at


def test_a_new_list_asks_for_its_questions_only_and_says_it_is_not_confirmed(project_root, demo_prepared):
    at = trained_page(project_root, demo_prepared)
    asked = training(at).timing_status().asked
    radios = [radio for radio in at.radio if radio.key and radio.key.startswith("w_train_known_v")]
    assert sorted(radio.key.split("::")[1] for radio in radios) == sorted(asked)  # three to a row
    assert all(radio.value is None for radio in radios)
    assert "Not confirmed yet" in texts(at.info) and any(shown(h.value) == "Known at triage?" for h in at.subheader)


def test_answers_confirm_the_list_survive_reruns_and_are_saved_with_it(project_root, demo_prepared, tmp_path,
                                                                       monkeypatch):
    monkeypatch.setenv("PSL_MODEL_DIR", str(tmp_path))
    at = trained_page(project_root, demo_prepared)
    asked = training(at).timing_status().asked
    for column in asked:
        answer(at, column, KNOWN)
    assert not at.exception
    assert "Confirmed" in texts(at.success)
    at.run()
    at.switch_page("pages/7_Card.py").run()  # another page and back: the answers are the list's
    at.switch_page("pages/1_Train.py").run()
    assert not at.exception and "Confirmed" in texts(at.success)
    assert all(at.radio(key=training(at).known_key(c)).value == KNOWN for c in asked)
    at.button(key="w_train_save").click().run()
    saved = json.loads(next(tmp_path.glob("*-v1.json")).read_text(encoding="utf-8"))
    assert saved["metadata"]["known_at_triage"] == dict.fromkeys(asked, KNOWN)
    assert training(open_train_page(project_root)).model is None  # a new session: the file is what stays
    reopened = open_model(next(tmp_path.glob("*-v1.json")))
    assert reopened.model.metadata_["known_at_triage"] == dict.fromkeys(asked, KNOWN)


def test_a_question_recorded_later_is_forbidden_and_one_click_trains_again_without_it(project_root, demo_prepared):
    at = trained_page(project_root, demo_prepared)
    first, *others = training(at).timing_status().asked
    for column in others:
        answer(at, column, KNOWN)
    answer(at, first, LATER)
    assert not at.exception
    assert "Recorded later" in texts(at.warning) and first in texts(at.warning)
    assert training(at).asks[first] == "never"
    old = training(at).model
    at.button(key="w_train_without_later").click().run()
    assert not at.exception and not at.error
    session = training(at)
    assert session.model is not old and first not in session.model.features_
    assert session.model.forbidden == [first]
    kept = session.metadata.known_at_triage or {}
    assert first not in kept and all(kept.get(c) == KNOWN for c in others if c in session.timing_status().asked)
    assert "never asked: " + repr(first) in texts(at.markdown)


def visits_table(n=600, seed=5):
    """A trial export recorded at a baseline visit and visits 3 and 5; visit 5 comes after a
    preterm birth for some mothers, so its measures follow the outcome."""
    rng = np.random.default_rng(seed)
    preterm = rng.random(n) < 0.3
    columns = {f"BL.{name}": rng.normal(size=n).round(2) for name in ("GE", "PD", "CAL")}
    columns |= {f"V3.{name}": rng.normal(size=n).round(2) for name in ("GE", "PD", "CAL")}
    columns |= {f"V5.{name}": (rng.normal(size=n) + 1.2 * preterm).round(2) for name in ("GE", "PD", "CAL")}
    return pd.DataFrame({**columns, "preterm": preterm.astype(int)})


def test_a_column_of_a_visit_recorded_later_offers_the_visit_in_one_click(project_root):
    table = visits_table()
    types = infer_column_types(table, {})
    prepared = prepare_training_data(table, types, "preterm", [1], DEFAULT_MISSING_HANDLING, {})
    at = open_train_page(project_root, dataset=dataset_session(prepared, table=table, name="visits.csv"))
    at.number_input(key="w_train_max_stages").set_value(3)
    click_train(at)
    assert not at.exception and not at.error
    asked = training(at).timing_status().asked
    visit5 = [column for column in asked if column.startswith("V5.")]
    assert visit5, asked
    answer(at, visit5[0], LATER)
    others = [c for c in ("V5.GE", "V5.PD", "V5.CAL") if c != visit5[0]]
    button = at.button(key="w_train_without_time_point::V5")
    assert button.label == f"Train again without them and every other V5 column ({len(others)})"
    button.click().run()
    assert not at.exception and not at.error
    model = training(at).model
    assert not any(column.startswith("V5.") for column in map(str, model.features_))
    assert sorted(model.forbidden) == ["V5.CAL", "V5.GE", "V5.PD"]


def test_a_file_saved_before_the_question_reads_as_not_confirmed(project_root, demo_prepared):
    from psl_triage.training.fit import train_list
    from psl_triage.training.options import TrainingOptions

    model, metadata = train_list(demo_prepared, "demo", TrainingOptions(max_stages=2))
    metadata.pop("known_at_triage", None)
    at = AppTest.from_file(str(project_root / "app.py"), default_timeout=60)
    put_list(at, model, metadata)
    at.switch_page("pages/1_Train.py").run()
    assert not at.exception
    assert "Not confirmed yet" in texts(at.info)
    at.switch_page("pages/7_Card.py").run()
    assert not at.exception
