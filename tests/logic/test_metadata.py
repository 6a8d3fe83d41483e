"""ModelMetadata: a model file's metadata parsed once, typed, and written back unchanged."""

import json
import os

import pytest

from psl_core import PSLError
from psl_core.cost_ratio import DEFAULT_COST_RATIO
from psl_core.errors import ModelFileError
from psl_triage.model_file import store
from psl_triage.model_file.metadata import NEGATIVE_FALLBACK, POSITIVE_FALLBACK, ColumnRecord, ModelMetadata
from psl_triage.model_file.store import list_models, open_model, save_model
from psl_triage.training.fit import train_list
from psl_triage.training.options import TrainingOptions


@pytest.fixture(scope="module")
def trained(demo_prepared):
    return train_list(demo_prepared, "Heart disease (UCI, Cleveland)", TrainingOptions(max_stages=3))


def test_what_the_app_writes_round_trips_exactly(trained):
    _, metadata = trained
    parsed = ModelMetadata.from_dict(metadata)
    assert parsed.to_dict() == metadata
    assert json.loads(json.dumps(parsed.to_dict())) == metadata
    assert parsed.source == "trained" and parsed.extra == {}  # every entry the app writes is typed
    assert parsed.dataset.positive_label == metadata["dataset"]["positive_label"]
    assert parsed.columns["chol"].training_range == metadata["columns"]["chol"]["training_range"]
    assert parsed.cost_ratio == metadata["decision"]["cost_ratio"]
    assert ModelMetadata.from_dict(parsed.to_dict()) == parsed


OLD_FILES = [
    {},
    {"name": "old"},
    {"name": "old", "version": 3, "created": "2025-01-01T00:00:00+00:00", "dataset": {"name": "t.csv"},
     "columns": {"age": {"label": "Age", "unit": "years"}}},  # before kinds, ranges and M
    {"dataset": {"name": "t", "n_rows": "many", "notes": "one"}, "columns": [], "performance": "n/a",
     "version": "2b", "decision": None, "future_entry": {"x": [1, 2]}},  # entries of other types
    {"columns": {"grade": {"label": None, "unit": None, "kind": "binary", "category_labels": {"1": 2}}}},
]


@pytest.mark.parametrize("old", OLD_FILES)
def test_old_and_odd_metadata_loads_and_is_written_back_unchanged(old):
    parsed = ModelMetadata.from_dict(old)
    assert parsed.to_dict() == old
    assert parsed.cost_ratio == DEFAULT_COST_RATIO and parsed.saved_cost_ratio is None


def test_what_an_old_file_lacks_is_filled_by_one_rule_each():
    old = ModelMetadata.from_dict(OLD_FILES[2])
    assert old.class_names == (POSITIVE_FALLBACK, NEGATIVE_FALLBACK)
    assert old.default_name == "old" and ModelMetadata().default_name == "PSL"
    assert ModelMetadata.from_dict({"dataset": {"name": " t.csv "}}).default_name == "t.csv"
    assert old.column("age") == ColumnRecord(label="Age", unit="years")
    assert old.column("absent") == ColumnRecord()
    assert old.readable_columns() == {"age": {"label": "Age", "unit": "years", "category_labels": {}}}
    odd = ModelMetadata.from_dict(OLD_FILES[3])
    assert odd.dataset.n_rows is None and odd.dataset.extra == {"n_rows": "many", "notes": "one"}
    assert odd.columns is None and odd.performance is None and odd.version is None and not odd.is_saved
    labelled = ModelMetadata.from_dict({"dataset": {"positive_label": "heart disease", "negative_label": ""}})
    assert labelled.class_names == ("heart disease", NEGATIVE_FALLBACK)


def test_a_bad_m_is_refused_as_loading_the_file_refuses_it():
    with pytest.raises(ModelFileError, match="metadata.decision"):
        ModelMetadata.from_dict({"decision": {"cost_ratio": -1}})
    with pytest.raises(ModelFileError, match="metadata.decision must be an object"):
        ModelMetadata.from_dict({"decision": 10})


def test_coerce_and_of_parse_only_what_is_not_parsed_yet(trained):
    model, metadata = trained
    parsed = ModelMetadata.from_dict(metadata)
    assert ModelMetadata.coerce(parsed) is parsed
    assert ModelMetadata.coerce(None) == ModelMetadata()
    model.metadata_ = metadata
    assert ModelMetadata.of(model) == parsed


def test_the_store_writes_the_typed_metadata_once_and_opens_it_parsed(tmp_path, trained):
    model, metadata = trained
    stored = save_model(model, "Chest pain", ModelMetadata.from_dict(metadata), tmp_path)
    opened = open_model(stored.path)
    assert opened.metadata == ModelMetadata.from_dict(metadata).saved_as(stored)
    assert opened.metadata.to_dict() == dict(metadata, name="Chest pain", version=1, created=stored.created)
    assert save_model(model, "Chest pain", metadata, tmp_path).version == 2  # a dict is parsed at the boundary


def test_one_cached_loader_reads_each_version_of_a_file_once(tmp_path, trained, monkeypatch):
    model, metadata = trained
    stored = save_model(model, "Cached", metadata, tmp_path)
    list_models(tmp_path)  # the listing reads the file through the loader
    calls = []
    real = store.read_model_file
    monkeypatch.setattr(store, "read_model_file", lambda path: calls.append(path) or real(path))
    first = open_model(stored.path)
    assert open_model(stored.path) is first and calls == []
    text = stored.path.read_text(encoding="utf-8").replace('"Cached"', '"Cached again"')
    stored.path.write_text(text, encoding="utf-8")  # replaced in place: another size
    os.utime(stored.path, ns=(1, 1))
    again = open_model(stored.path)
    assert calls == [stored.path] and again.metadata.name == "Cached again"


def test_a_missing_file_is_an_error_the_pages_can_show(tmp_path):
    with pytest.raises((OSError, PSLError)):
        open_model(tmp_path / "gone-v1.json")


def test_the_parse_shares_nothing_mutable_with_the_dicts_around_it(trained):
    _, metadata = trained
    raw = json.loads(json.dumps(metadata))
    parsed = ModelMetadata.from_dict(raw)
    raw["training_options"]["seed"] = 99
    raw["columns"]["chol"]["training_range"]["min"] = -1.0
    raw["dataset"]["notes"].append("added later")
    assert parsed.to_dict() == metadata
    written = parsed.to_dict()
    written["performance"]["train"]["brier"][0] = -1.0
    written["columns"]["chol"]["category_labels"]["x"] = "y"
    assert parsed.to_dict() == metadata
