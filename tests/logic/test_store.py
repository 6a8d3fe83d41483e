"""The model store: versioned files, atomic and concurrent saves, validated loads."""

import json
import threading
from pathlib import Path

import numpy as np
import pytest

from psl_core import ModelFileError
from psl_triage.model_file import store
from psl_triage.model_file.store import list_models, load_model, model_dir, save_model, slugify


def test_save_list_load(tmp_path, small_list, small_data):
    model, (X, _) = small_list, small_data
    first = save_model(model, "Chest pain triage", {"note": "first"}, tmp_path)
    second = save_model(model, "Chest pain triage", None, tmp_path)
    assert first.path.name == "chest-pain-triage-v1.json" and second.version == 2
    models, problems = list_models(tmp_path)
    assert {m.version for m in models} == {1, 2} and not problems
    loaded = load_model(first.path)
    assert loaded.metadata_["note"] == "first" and loaded.metadata_["version"] == 1
    np.testing.assert_array_equal(loaded.predict_proba(X), model.predict_proba(X))
    assert not list(tmp_path.glob(".saving-*"))


def test_a_saved_file_edited_into_utf8_with_a_byte_order_mark_still_loads(tmp_path, small_list, small_data):
    model, (X, _) = small_list, small_data
    path = save_model(model, "Edited", None, tmp_path).path
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    models, problems = list_models(tmp_path)
    assert [m.path for m in models] == [path] and not problems
    np.testing.assert_array_equal(load_model(path).predict_proba(X), model.predict_proba(X))


def test_concurrent_saves_all_succeed(tmp_path, small_list):
    model = small_list
    results, errors = [], []

    def save():
        try:
            results.append(save_model(model, "ward", None, tmp_path))
        except Exception as exc:  # noqa: BLE001 - the test reports any failure
            errors.append(exc)

    threads = [threading.Thread(target=save) for _ in range(10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert sorted(r.version for r in results) == list(range(1, 11))
    for r in results:
        assert json.loads(r.path.read_text())["metadata"]["version"] == r.version
        load_model(r.path)


def test_unreadable_files_are_reported_not_fatal(tmp_path, small_list):
    model = small_list
    save_model(model, "good", None, tmp_path)
    (tmp_path / "broken-v1.json").write_text("{ not json")
    models, problems = list_models(tmp_path)
    assert [m.name for m in models] == ["good"]
    assert problems and "broken-v1.json" in problems[0]
    with pytest.raises(ModelFileError, match="cannot be read"):
        load_model(tmp_path / "broken-v1.json")


def test_the_listing_reads_each_file_once_and_follows_the_folder(tmp_path, small_list, monkeypatch):
    """Pages list the store on every rerun: unchanged files are not read again, while a new
    file appears, a removed one disappears and a replaced one is read again."""
    model = small_list
    first = save_model(model, "ward", None, tmp_path)
    second = save_model(model, "ward", None, tmp_path)
    reads = []
    read = store.read_model_file
    monkeypatch.setattr(store, "read_model_file", lambda path: reads.append(Path(path).name) or read(path))

    def listed():
        reads.clear()
        return sorted(m.label.split(" (")[0] + f" v{m.version}" for m in list_models(tmp_path)[0])

    assert listed() == ["ward v1", "ward v2"] and sorted(reads) == [first.path.name, second.path.name]
    assert listed() == ["ward v1", "ward v2"] and reads == []
    third = save_model(model, "ward", None, tmp_path)
    assert listed() == ["ward v1", "ward v2", "ward v3"] and reads == [third.path.name]
    first.path.unlink()
    assert listed() == ["ward v2", "ward v3"] and reads == []
    text = json.loads(second.path.read_text(encoding="utf-8"))
    text["metadata"]["name"] = "ward, renamed"
    second.path.write_text(json.dumps(text), encoding="utf-8")
    assert listed() == ["ward v3", "ward, renamed v2"] and reads == [second.path.name]


def test_the_listing_runs_the_schema_validator_only_for_a_file_that_breaks_a_rule(tmp_path, small_list, monkeypatch):
    """The first listing of a folder of 5,000 saved lists took 165 s: the schema's validator,
    17 to 30 ms a file, ran for each. The quick check (psl_core.quick_schema) gives its verdict;
    the validator runs only for a file that breaks a rule, which is still named with the rule."""
    from psl_core import serialization

    document = json.loads(save_model(small_list, "ward", None, tmp_path).path.read_text(encoding="utf-8"))
    for i in range(2, 31):
        (tmp_path / f"ward-v{i}.json").write_text(json.dumps(document), encoding="utf-8")
    (tmp_path / "edited-v1.json").write_text(json.dumps({**document, "comment": "edited"}), encoding="utf-8")
    validator, runs = serialization._validator(), []

    class Counted:
        def iter_errors(self, data):
            runs.append(data)
            return validator.iter_errors(data)

    monkeypatch.setattr(serialization, "_validator", Counted)
    models, problems = list_models(tmp_path)
    assert len(models) == 30 and len(runs) == 1
    assert len(problems) == 1 and "edited-v1.json" in problems[0] and "'comment'" in problems[0]


def test_store_folder_from_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("PSL_MODEL_DIR", str(tmp_path / "store"))
    assert model_dir() == tmp_path / "store"
    assert slugify("  Sepsis: ICU / v2 ") == "sepsis-icu-v2"
