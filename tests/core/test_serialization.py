"""Model files: every kind of broken or hostile file is rejected with a clear message."""

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from psl_core import ModelFileError, ProbabilisticScoringList
from psl_core.cost_ratio import saved_cost_ratio


@pytest.fixture(scope="module")
def document():
    rng = np.random.default_rng(1)
    X = pd.DataFrame({"age": rng.integers(30, 80, 200).astype(float), "smoker": rng.integers(0, 2, 200)})
    y = ((X["age"] > 60) ^ (rng.random(200) < 0.2)).astype(int)
    return json.loads(ProbabilisticScoringList().fit(X, y).to_json({"name": "test"}))


def edited(document, change):
    copy = json.loads(json.dumps(document))
    change(copy)
    return json.dumps(copy)


def set_path(path, value):
    def change(doc):
        target = doc
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return change


CASES = [
    (set_path(["schema_version"], 99), "schema version 99 is not supported"),
    (set_path(["format"], "something else"), "format is"),
    (set_path(["calibration", 1, "probabilities"], [0.9, 0.1]), "must be monotone"),
    (set_path(["calibration", 1, "probabilities"], [0.1, 1.5]), "probabilities\\[1\\] is 1.5, outside the allowed range"),
    (set_path(["calibration", 1, "positives"], [-1, 3]), "positives\\[0\\] is -1, outside the allowed range"),
    (set_path(["calibration", 1, "totals"], [0, 7]), "the scores reach"),
    (set_path(["stages", 0, "feature"], "weight"), "unknown feature 'weight'"),
    (set_path(["stages", 0, "score"], 9), "not in the score set"),
    (set_path(["stages", 0, "kind"], "python"), "kind is 'python', expected one of"),
    (set_path(["params", "calibration"], "platt"), "params are invalid"),
    (set_path(["params", "__reduce__"], "os.system"), "unknown entries"),
    (set_path(["py/object"], "builtins.eval"), "unknown entries"),
    (set_path(["metadata", "__class__"], "x"), "has the key '__class__'; keys must be"),
    (set_path(["classes"], [1]), "classes has too few entries"),
    (lambda doc: doc.pop("stages"), "lacks \\['stages'\\]"),
    (set_path(["end_reason"], "tired"), "end_reason is 'tired', expected one of"),
    (set_path(["metadata", "decision"], {"cost_ratio": -1}), "metadata.decision.cost_ratio \\(M\\) must be a positive"),
    (set_path(["metadata", "decision"], {"cost_ratio": "10"}), "metadata.decision.cost_ratio"),
    (set_path(["metadata", "decision"], {"cost_ratio": True}), "metadata.decision.cost_ratio"),
    (set_path(["metadata", "decision"], {"cost_ratio": 0}), "metadata.decision.cost_ratio"),
    (set_path(["metadata", "decision"], 10), "metadata.decision must be an object"),
]


@pytest.mark.parametrize("change, message", CASES)
def test_invalid_files_are_rejected(document, change, message):
    with pytest.raises(ModelFileError, match=message):
        ProbabilisticScoringList.from_json(edited(document, change))


@pytest.mark.parametrize("text", ["", "{", "[]", "null", "\x00\xff garbage", '{"format": NaN}'])
def test_malformed_text_is_rejected(text):
    with pytest.raises(ModelFileError, match="not a valid model file"):
        ProbabilisticScoringList.from_json(text)


def test_truncated_file_is_rejected(document):
    text = json.dumps(document)
    with pytest.raises(ModelFileError, match="truncated or edited"):
        ProbabilisticScoringList.from_json(text[: len(text) // 2])


def test_duplicate_keys_are_rejected(document):
    text = json.dumps(document)
    with pytest.raises(ModelFileError, match="repeated keys"):
        ProbabilisticScoringList.from_json(text[:-1] + ', "format": "x"}')


def test_valid_file_round_trips(document):
    model = ProbabilisticScoringList.from_json(json.dumps(document))
    assert model.metadata_ == {"name": "test"}
    assert model.end_reason_ == document["end_reason"] and document["end_reason"] in ("length", "no_gain")
    assert json.loads(model.to_json()) == document


def test_a_file_with_a_byte_order_mark_reads_as_without_one(document):
    # Windows editors may save UTF-8 with a byte-order mark; bytes and text read alike.
    text = json.dumps(document)
    for given in (b"\xef\xbb\xbf" + text.encode(), "\ufeff" + text, text.encode()):
        assert json.loads(ProbabilisticScoringList.from_json(given).to_json()) == document


def test_a_file_from_before_feature_reuse_reads_as_every_feature_once(document):
    older = json.loads(json.dumps(document))
    del older["params"]["max_feature_uses"]
    del older["params"]["min_support"]
    del older["end_reason"]
    model = ProbabilisticScoringList.from_json(json.dumps(older))
    assert model.end_reason_ is None  # not recorded then
    # Not today's defaults: those lists used every feature once, at any threshold.
    assert (model.max_feature_uses, model.min_support) == (1, 1)
    assert (ProbabilisticScoringList().max_feature_uses, ProbabilisticScoringList().min_support) != (1, 1)


def test_the_saved_m_loads_back_and_a_file_from_before_it_defaults_to_10(document):
    assert "decision" not in document["metadata"]  # as written before lists carried their M
    older = ProbabilisticScoringList.from_json(json.dumps(document))
    assert saved_cost_ratio(older.metadata_) == 10.0
    with_m = edited(document, set_path(["metadata", "decision"], {"cost_ratio": 2.5}))
    model = ProbabilisticScoringList.from_json(with_m)
    assert saved_cost_ratio(model.metadata_) == 2.5
    assert json.loads(model.to_json())["metadata"]["decision"] == {"cost_ratio": 2.5}


def test_a_file_from_before_repeated_folds_reads_as_one_draw(document):
    assert document["params"]["recommend_repeats"] == "auto"  # today's default is saved
    older = json.loads(json.dumps(document))
    del older["params"]["recommend_repeats"]
    model = ProbabilisticScoringList.from_json(json.dumps(older))
    assert model.recommend_repeats == 1  # those lists drew their folds once
    again = json.loads(json.dumps(document))
    again["params"]["recommend_repeats"] = 3
    assert ProbabilisticScoringList.from_json(json.dumps(again)).recommend_repeats == 3
    for wrong in (0, "twice", 2.5):
        again["params"]["recommend_repeats"] = wrong
        with pytest.raises(ModelFileError):
            ProbabilisticScoringList.from_json(json.dumps(again))


def test_the_published_schema_names_each_key_once():
    """A key written twice in the schema file loads silently as its last copy (the
    recommend_repeats entry was once written twice: docs/ links to psl_core's file)."""
    from psl_core.serialization import SCHEMA_FILE

    def no_repeats(pairs):
        keys = [key for key, _ in pairs]
        assert len(keys) == len(set(keys)), sorted({key for key in keys if keys.count(key) > 1})
        return dict(pairs)

    import psl_core

    path = Path(psl_core.__file__).with_name(SCHEMA_FILE)
    json.loads(path.read_text(encoding="utf-8"), object_pairs_hook=no_repeats)
