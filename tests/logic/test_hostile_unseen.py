"""Hostile inputs of issue 31's kinds that the first corpus did not hold (verification round).

Each case failed before its fix: a column name of invisible characters only became a question
without a name; a cell of invisible characters only became a blank answer; a model file that
is a link to itself raised RuntimeError, not ModelFileError.
"""

import os

import numpy as np
import pandas as pd
import pytest

from psl_core import ProbabilisticScoringList
from psl_core.errors import DataError, ModelFileError
from psl_triage.data import load_table
from psl_triage.model_file.store import load_model
from tests.tables import small_model


def _csv(frame):
    return frame.to_csv(index=False).encode()


@pytest.mark.parametrize("name", ["\u200b", "\u2066\u2069", "\ufeff\u200d"])
def test_a_column_name_with_nothing_visible_is_refused_naming_it(name):
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"outcome": rng.integers(0, 2, 40), name: rng.normal(size=40), "age": rng.normal(size=40)})
    with pytest.raises(DataError, match="no visible character"):
        load_table(_csv(frame), "t.csv")


def test_an_empty_column_with_nothing_visible_in_its_name_is_dropped_with_a_note():
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"outcome": rng.integers(0, 2, 40), "\u200b": np.nan, "age": rng.normal(size=40)})
    loaded = load_table(_csv(frame), "t.csv")
    assert list(loaded.frame.columns) == ["outcome", "age"]
    assert any("without a visible name" in note for note in loaded.notes)


def test_a_cell_of_invisible_characters_only_is_read_as_missing():
    rng = np.random.default_rng(0)
    values = np.array(["a", "b", "\u200b\u2067"], dtype=object)[np.arange(40) % 3]
    frame = pd.DataFrame({"outcome": rng.integers(0, 2, 40), "kind": values})
    loaded = load_table(_csv(frame), "t.csv")
    assert "" not in set(loaded.frame["kind"].dropna())
    assert loaded.frame["kind"].isna().sum() == (np.arange(40) % 3 == 2).sum()


def test_a_model_file_that_links_to_itself_is_a_model_file_error(tmp_path):
    loop = tmp_path / "loop-v1.json"
    os.symlink(loop.name, loop)
    with pytest.raises(ModelFileError, match="cannot be read"):
        load_model(loop)


def test_two_links_in_a_link_cycle_are_a_model_file_error(tmp_path):
    os.symlink("b-v1.json", tmp_path / "a-v1.json")
    os.symlink("a-v1.json", tmp_path / "b-v1.json")
    with pytest.raises(ModelFileError):
        load_model(tmp_path / "a-v1.json")


def test_a_relative_link_inside_the_folder_still_loads(tmp_path):
    rng = np.random.default_rng(1)
    x = rng.normal(size=200)
    model = ProbabilisticScoringList(score_set=(-1, 1)).fit(pd.DataFrame({"x": x}), (x + rng.normal(size=200) > 0).astype(int))
    (tmp_path / "good-v1.json").write_text(model.to_json())
    os.symlink("good-v1.json", tmp_path / "alias-v1.json")
    assert load_model(tmp_path / "alias-v1.json").n_stages_ == model.n_stages_


def test_a_model_name_is_saved_without_direction_controls_and_a_blank_one_is_refused(tmp_path):
    from psl_core.errors import PSLError
    from psl_triage.model_file.store import save_model

    stored = save_model(small_model(), "ward\u202e 7", {}, tmp_path)
    assert stored.name == "ward 7"
    for blank in ("\u3164", "\u2800", "\u115f\u200b"):  # Hangul filler, Braille blank: nothing shows
        with pytest.raises(PSLError, match="no letters or digits"):
            save_model(small_model(), blank, {}, tmp_path)


def test_a_model_files_name_with_direction_controls_is_listed_with_their_codes(tmp_path):
    import json

    from psl_triage.model_file.store import list_models

    document = json.loads(small_model().to_json(metadata={"name": "ward\u202e(v9, 1999-01-01 00:00)"}))
    (tmp_path / "ward-v1.json").write_text(json.dumps(document))
    (entry,), problems = list_models(tmp_path)
    assert "\u202e" not in entry.label and "⟨U+202E⟩" in entry.label, entry.label


def test_a_column_named_by_a_braille_blank_is_refused():
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"outcome": rng.integers(0, 2, 40), "\u2800": rng.normal(size=40)})
    with pytest.raises(DataError, match="no visible character"):
        load_table(_csv(frame), "t.csv")


def test_numbers_in_other_scripts_digits_are_read_as_numbers_with_a_note():
    rng = np.random.default_rng(0)
    arabic_indic, devanagari = "٠١٢٣٤٥٦٧٨٩", "०१२३४५६७८९"
    values = rng.integers(0, 100, 40)
    frame = pd.DataFrame({
        "outcome": rng.integers(0, 2, 40),
        "age": ["".join(arabic_indic[int(d)] for d in str(v)) for v in values],
        "score": ["".join(devanagari[int(d)] for d in str(v)) + ".5" for v in values],
    })
    loaded = load_table(_csv(frame), "t.csv")
    assert loaded.frame["age"].tolist() == values.astype(float).tolist()
    assert loaded.frame["score"].tolist() == (values + 0.5).tolist()
    assert any("digits of another script" in note and "'age'" in note for note in loaded.notes)


@pytest.mark.parametrize("huge", ["1e309", "-1e400", "inf"])
def test_a_number_too_large_for_a_float_is_missing_with_a_note(huge):
    rng = np.random.default_rng(0)
    values = rng.normal(size=40).round(2).astype(object)
    values[:3] = huge
    frame = pd.DataFrame({"outcome": rng.integers(0, 2, 40), "a": values})
    loaded = load_table(_csv(frame), "t.csv")
    assert loaded.frame["a"].isna().sum() == 3 and np.isfinite(loaded.frame["a"].dropna()).all()
    assert any("'a'" in note and ("too large" in note or "not a number" in note) for note in loaded.notes), loaded.notes


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
def test_utf16_text_without_a_byte_order_mark_is_read_with_a_note(encoding):
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"outcome": rng.integers(0, 2, 40), "Größe": rng.integers(150, 200, 40)})
    loaded = load_table(frame.to_csv(index=False).encode(encoding), "t.csv")
    assert list(loaded.frame.columns) == ["outcome", "Größe"]
    assert loaded.frame["Größe"].tolist() == frame["Größe"].tolist()
    assert any("UTF-16" in note for note in loaded.notes)


def test_a_binary_file_with_nul_bytes_is_still_refused():
    data = bytes(np.random.default_rng(0).integers(0, 256, 4000, dtype=np.uint8)) + b"\x00" * 10
    with pytest.raises(DataError, match="binary file"):
        load_table(data, "t.csv")


def test_arabic_decimal_and_thousands_separators_are_read():
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"outcome": rng.integers(0, 2, 40), "dose": ["١٬٢٣٤٫٥", "٣٫٥"] * 20})
    loaded = load_table(_csv(frame), "t.csv")
    assert loaded.frame["dose"].tolist() == [1234.5, 3.5] * 20


def test_a_model_files_name_with_line_breaks_is_listed_on_one_line(tmp_path):
    import json

    from psl_triage.model_file.store import list_models

    document = json.loads(small_model().to_json(metadata={"name": "ward\n\n\r\n\t(v9, 1999-01-01 00:00)\u2028x"}))
    (tmp_path / "ward-v1.json").write_text(json.dumps(document))
    (entry,), _ = list_models(tmp_path)
    assert entry.label.startswith("ward (v9, 1999-01-01 00:00) x (v1, "), entry.label
