"""Every saved list is listed (issue 40, item 2): names in any Unicode form, without "-vN" (the
name the Download button gives), with an upper-case .JSON or an absurd version; one normal
form when saving beside them; a file the store does not read named with the reason."""

import json
import os
import unicodedata

import pytest

from psl_core.names import look_alike_key
from psl_triage.model_file.files import download_file_name
from psl_triage.model_file.store import list_models, load_model, save_model
from psl_triage.words import md
from tests.hostile_corpus import unusual_names


@pytest.fixture(scope="module")
def document(small_list):
    return json.loads(small_list.to_json({"name": "ward", "version": 1, "created": "2026-01-01T00:00:00+00:00"}))


def test_every_list_in_the_folder_is_listed_whatever_its_name(tmp_path, document):
    for name, (text, _) in unusual_names(document).items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    models, problems = list_models(tmp_path)
    expected = sorted(name for name, (_, kind) in unusual_names(document).items() if kind == "good")
    assert sorted(m.path.name for m in models) == expected
    assert problems == ["notes.txt is not read: a model file's name ends in .json"]
    for entry in models:
        load_model(entry.path)
        assert len(entry.label) < 120, entry.label  # no 240-digit version in a label
    labels = [look_alike_key(entry.label) for entry in models]
    assert len(set(labels)) == len(labels), labels  # no two entries read alike


def test_two_files_of_one_name_and_version_are_told_apart_by_their_file(tmp_path, document):
    text = json.dumps(document)
    for name in ("ward-v01.json", "ward-v1.json", "copy of ward-v1.json"):
        (tmp_path / name).write_text(text, encoding="utf-8")
    models, _ = list_models(tmp_path)
    assert sorted(m.label for m in models) == [
        f"ward (v1, 2026-01-01 00:00), file {name}" for name in ("copy of ward-v1.json", "ward-v01.json", "ward-v1.json")]
    (tmp_path / "copy of ward-v1.json").unlink()
    (tmp_path / "ward-v01.json").unlink()
    assert [m.label for m in list_models(tmp_path)[0]] == ["ward (v1, 2026-01-01 00:00)"]


def test_a_version_in_full_width_digits_is_that_version(tmp_path, document, small_list):
    (tmp_path / "ward-v\uff11.json").write_text(json.dumps(document), encoding="utf-8")
    assert save_model(small_list, "ward", directory=tmp_path).path.name == "ward-v2.json"


def test_the_download_button_s_file_name_is_listed(tmp_path, small_list):
    name = download_file_name("Chest pain")
    (tmp_path / name).write_text(small_list.to_json({"name": "Chest pain"}), encoding="utf-8")
    models, problems = list_models(tmp_path)
    assert [m.path.name for m in models] == [name] and problems == []
    assert name in models[0].label and models[0].version is None


def test_saving_beside_a_decomposed_name_takes_the_next_version_of_the_same_name(tmp_path, small_list):
    decomposed = unicodedata.normalize("NFD", "café-v1.json")
    (tmp_path / decomposed).write_text(small_list.to_json({"name": "café"}), encoding="utf-8")
    stored = save_model(small_list, "café", None, tmp_path)
    assert stored.version == 2
    names = [unicodedata.normalize("NFC", name) for name in os.listdir(tmp_path)]
    assert sorted(names) == ["café-v1.json", "café-v2.json"]
    assert save_model(small_list, "CAFÉ", None, tmp_path).version == 3


def test_a_240_digit_version_does_not_block_saving_its_name(tmp_path, document, small_list):
    (tmp_path / f"ward-v{'9' * 240}.json").write_text(json.dumps(document), encoding="utf-8")
    assert save_model(small_list, "ward", None, tmp_path).version == 1
    assert save_model(small_list, "ward", None, tmp_path).version == 2
    assert len(list_models(tmp_path)[0]) == 3


def test_a_file_name_that_is_not_utf8_is_listed_and_shown_readably(tmp_path, small_list):
    path = os.path.join(os.fsencode(tmp_path), b"caf\xe9-v1.json")
    with open(path, "w", encoding="utf-8") as stream:
        stream.write(small_list.to_json({}))
    models, problems = list_models(tmp_path)
    assert problems == [] and len(models) == 1
    label = models[0].label
    label.encode("utf-8")  # shown as its code, not a lone surrogate that breaks the page
    md(label).encode("utf-8")
    assert "⟨U+DCE9⟩" in label


def test_two_long_names_that_differ_near_their_ends_are_two_lists(tmp_path, small_list):
    """Names cut to the file name's length once shared it: "... emergency department, adults"
    saved as version 2 of "... emergency department, children" (issue 40, fourth probe)."""
    stem = "Chest pain triage for patients over 65 years in the emergency department"
    adults, children = (save_model(small_list, f"{stem}, {who}", directory=tmp_path) for who in ("adults", "children"))
    again = save_model(small_list, f"{stem}, adults", directory=tmp_path)
    assert (adults.version, children.version, again.version) == (1, 1, 2)
    assert len({adults.path.stem[:-3], children.path.stem[:-3]}) == 2 and len(adults.path.name) <= 68
    assert again.path.name == adults.path.name.replace("-v1.json", "-v2.json")
    models, problems = list_models(tmp_path)
    assert problems == [] and sorted(m.name for m in models) == sorted([f"{stem}, adults"] * 2 + [f"{stem}, children"])
    assert all(len(m.label) < 160 for m in models)
    long = save_model(small_list, "x" * 300, directory=tmp_path)
    assert "x" * 101 not in next(m.label for m in list_models(tmp_path)[0] if m.path == long.path)
