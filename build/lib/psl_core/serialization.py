"""Versioned JSON model files (never pickle, which runs code on load).

A model file is one JSON object::

    {
      "format": "psl-triage/probabilistic-scoring-list",
      "schema_version": 1,
      "params": {...},                  # the estimator's get_params()
      "classes": [negative, positive],
      "input": {"kind": "dataframe" | "array", "n_features": 13, "feature_names": [...] | null},
      "stages": [{"feature": ..., "kind": "numeric" | "binary" | "category",
                  "threshold": float | null, "category": str | null,
                  "negated": bool, "score": int}, ...],            # stages 1..K
      "calibration": [{"totals": [...], "probabilities": [...],
                       "positives": [...], "negatives": [...]}, ...],  # stages 0..K
      "criterion": [...],                                          # stages 0..K
      "end_reason": "length" | "no_gain" | "support",  # optional: why the list ends
      "validation": null | {"brier": [...], "brier_se": [...],     # stages 0..K
                            "recommended_stages": k},
      "metadata": {...}                 # free description: name, labels, units, ...;
                                        # "decision": {"cost_ratio": M} when present must hold M > 0
    }

:func:`loads` validates everything before building a model: unknown or missing keys,
a wrong format or version, features not among the input columns, scores outside the
score set, totals that the scores cannot reach, probabilities outside [0, 1] or not
monotone, negative counts. Any problem raises :class:`~psl_core.errors.ModelFileError`.
"""

import json
import math
import numbers

import numpy as np

from .binarization import BINARY, CATEGORY, NUMERIC, Literal
from .calibration import reachable_totals
from .cost_ratio import saved_cost_ratio
from .errors import ModelFileError, PSLError
from .search import END_REASONS

FORMAT = "psl-triage/probabilistic-scoring-list"
SCHEMA_VERSION = 1
_TOP_KEYS = {
    "format", "schema_version", "params", "classes", "input", "stages", "calibration", "criterion",
    "validation", "metadata",
}
_OPTIONAL_TOP_KEYS = {"end_reason"}  # absent from files saved before it was recorded
_VALIDATION_KEYS = {"brier", "brier_se", "recommended_stages"}
_STAGE_KEYS = {"feature", "kind", "threshold", "category", "negated", "score"}
_CALIBRATION_KEYS = {"totals", "probabilities", "positives", "negatives"}
_INPUT_KEYS = {"kind", "n_features", "feature_names"}
_MAX_METADATA_DEPTH = 4


def _plain(value):
    """numpy scalars to JSON scalars."""
    if isinstance(value, np.generic):
        return value.item()
    return value


def to_dict(model, metadata=None):
    """The JSON-ready dictionary of a fitted model (see the module docstring)."""
    names = getattr(model, "feature_names_in_", None)
    return {
        "format": FORMAT,
        "schema_version": SCHEMA_VERSION,
        "params": {k: list(v) if k == "score_set" else _plain(v) for k, v in model.get_params().items()},
        "classes": [_plain(c) for c in model.classes_],
        "input": {
            "kind": "dataframe" if names is not None else "array",
            "n_features": int(model.n_features_in_),
            "feature_names": None if names is None else [str(n) for n in names],
        },
        "stages": [
            {
                "feature": _plain(lit.column),
                "kind": lit.kind,
                "threshold": lit.threshold,
                "category": lit.category,
                "negated": lit.negated,
                "score": int(score),
            }
            for lit, score in zip(model.literals_, model.scores_)
        ],
        "calibration": [
            {
                "totals": totals.tolist(),
                "probabilities": [float(p) for p in q],
                "positives": pos.tolist(),
                "negatives": neg.tolist(),
            }
            for totals, q, pos, neg in zip(
                model.stage_totals_, model.stage_probabilities_,
                model.stage_positives_, model.stage_negatives_,
            )
        ],
        "criterion": [float(v) for v in model.stage_criterion_],
        "end_reason": getattr(model, "end_reason_", None),
        "validation": None if getattr(model, "validation_brier_", None) is None else {
            "brier": [_finite_or_none(v) for v in model.validation_brier_],
            "brier_se": [_finite_or_none(v) for v in model.validation_brier_se_],
            "recommended_stages": int(model.recommended_stages_),
        },
        "metadata": dict(metadata if metadata is not None else getattr(model, "metadata_", {}) or {}),
    }


def _finite_or_none(value):
    return float(value) if np.isfinite(value) else None


def dumps(model, metadata=None):
    """JSON text of a fitted model, indented for people to read."""
    return json.dumps(to_dict(model, metadata), indent=2, ensure_ascii=False, allow_nan=False)


def _fail(message):
    raise ModelFileError(f"not a valid model file: {message}")


def _keys(obj, expected, where, optional=frozenset()):
    if not isinstance(obj, dict):
        _fail(f"{where} must be an object")
    missing, extra = expected - obj.keys(), obj.keys() - expected - optional
    if missing:
        _fail(f"{where} lacks {sorted(missing)}")
    if extra:
        _fail(f"{where} has unknown entries {sorted(extra)}")


def _int(value, where):
    if isinstance(value, bool) or not isinstance(value, int):
        _fail(f"{where} must be an integer, got {value!r}")
    return value


def _number(value, where):
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
        _fail(f"{where} must be a finite number, got {value!r}")
    return float(value)


def _check_metadata(value, where="metadata", depth=0):
    if depth > _MAX_METADATA_DEPTH:
        _fail(f"{where} is nested too deeply")
    if isinstance(value, dict):
        for key, item in value.items():
            if key.startswith("__") or key.startswith("py/") or key.startswith("!!"):
                _fail(f"{where} has the code-like entry {key!r}")
            _check_metadata(item, f"{where}.{key}", depth + 1)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _check_metadata(item, f"{where}[{i}]", depth + 1)
    elif not (value is None or isinstance(value, (str, bool, int, float))):
        _fail(f"{where} holds an unsupported value")


def _reject_duplicates(pairs):
    keys = [k for k, _ in pairs]
    if len(keys) != len(set(keys)):
        _fail(f"repeated keys {sorted({k for k in keys if keys.count(k) > 1})}")
    return dict(pairs)


def loads(text, cls):
    """Validate model JSON text and build a fitted ``cls`` instance from it.

    Raises
    ------
    ModelFileError
        With a message naming the first problem found.
    """
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            _fail("the file is not UTF-8 text")
    if not isinstance(text, str):
        _fail(f"expected JSON text, got {type(text).__name__}")
    try:
        data = json.loads(text, object_pairs_hook=_reject_duplicates, parse_constant=lambda c: _fail(f"{c} is not allowed"))
    except json.JSONDecodeError as exc:
        _fail(f"the JSON cannot be read ({exc.msg} at line {exc.lineno}, column {exc.colno}); "
              "the file may be truncated or edited")
    _keys(data, _TOP_KEYS, "the file", _OPTIONAL_TOP_KEYS)
    if data["format"] != FORMAT:
        _fail(f"format is {data['format']!r}, expected {FORMAT!r}")
    version = data["schema_version"]
    if version != SCHEMA_VERSION:
        _fail(f"schema version {version!r} is not supported (this version reads {SCHEMA_VERSION}); "
              "save the model again with a matching version of PSL Triage")
    params = data["params"]
    if not isinstance(params, dict):
        _fail("params must be an object")
    model = cls()
    # Files written before max_feature_uses / min_support existed hold lists that use every
    # feature once, searched over every threshold.
    params = {"max_feature_uses": 1, "min_support": 1, **params}
    if set(params) - set(model.get_params()):
        _fail(f"params has unknown entries {sorted(set(params) - set(model.get_params()))}")
    try:
        model.set_params(**params)
        score_set = model._check_params()
    except PSLError as exc:
        _fail(f"params are invalid: {exc}")
    if not isinstance(data["metadata"], dict):
        _fail("metadata must be an object")
    _check_metadata(data["metadata"])
    try:
        saved_cost_ratio(data["metadata"])  # the list is used with it
    except ModelFileError as exc:
        _fail(str(exc))

    classes = data["classes"]
    if not isinstance(classes, list) or len(classes) != 2 or classes[0] == classes[1]:
        _fail("classes must list two distinct labels, negative first")
    if not all(isinstance(c, (str, int, float, bool)) for c in classes):
        _fail("classes must be plain labels (text or numbers)")

    spec = data["input"]
    _keys(spec, _INPUT_KEYS, "input")
    n_features = _int(spec["n_features"], "input.n_features")
    names = spec["feature_names"]
    if spec["kind"] == "dataframe":
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names) or len(names) != n_features:
            _fail("input.feature_names must list the n_features column names")
    elif spec["kind"] == "array":
        if names is not None:
            _fail("input.feature_names must be null for array input")
    else:
        _fail(f"input.kind must be 'dataframe' or 'array', got {spec['kind']!r}")

    stages = data["stages"]
    if not isinstance(stages, list):
        _fail("stages must be a list")
    literals, scores = [], []
    for k, stage in enumerate(stages, start=1):
        where = f"stage {k}"
        _keys(stage, _STAGE_KEYS, where)
        feature = stage["feature"]
        if names is not None:
            if feature not in names:
                _fail(f"{where} uses the unknown feature {feature!r}")
        elif not (isinstance(feature, int) and not isinstance(feature, bool) and 0 <= feature < n_features):
            _fail(f"{where} uses feature {feature!r}, not a column position below {n_features}")
        kind = stage["kind"]
        if kind not in (NUMERIC, BINARY, CATEGORY):
            _fail(f"{where} has the unknown kind {kind!r}")
        threshold = _number(stage["threshold"], f"{where} threshold") if kind == NUMERIC else stage["threshold"]
        if kind != NUMERIC and threshold is not None:
            _fail(f"{where}: only a numeric feature has a threshold")
        category = stage["category"]
        if (kind == CATEGORY) != isinstance(category, str):
            _fail(f"{where}: a category feature needs a text category, other kinds none")
        if not isinstance(stage["negated"], bool):
            _fail(f"{where} negated must be true or false")
        score = _int(stage["score"], f"{where} score")
        if score not in score_set:
            _fail(f"{where} score {score} is not in the score set {list(score_set)}")
        literals.append(Literal(feature, kind, threshold, category, stage["negated"]))
        scores.append(score)

    calibration = data["calibration"]
    if not isinstance(calibration, list) or len(calibration) != len(stages) + 1:
        _fail(f"calibration must have one entry per stage 0..{len(stages)}")
    tables = []
    for k, entry in enumerate(calibration):
        where = f"calibration of stage {k}"
        _keys(entry, _CALIBRATION_KEYS, where)
        if not isinstance(entry["totals"], list):
            _fail(f"{where} totals must be a list")
        totals = [_int(t, f"{where} totals") for t in entry["totals"]]
        expected = reachable_totals(scores[:k]).tolist()
        if totals != expected:
            _fail(f"{where} lists totals {totals}, but the scores reach {expected}")
        columns = []
        for key in ("probabilities", "positives", "negatives"):
            values = entry[key]
            if not isinstance(values, list) or len(values) != len(totals):
                _fail(f"{where} {key} must list one value per total")
            columns.append(values)
        q = np.array([_number(p, f"{where} probabilities") for p in columns[0]])
        if (q < 0).any() or (q > 1).any():
            _fail(f"{where} has probabilities outside [0, 1]")
        if (np.diff(q) < -1e-12).any():
            _fail(f"{where} probabilities decrease with the total; they must be monotone")
        counts = [np.array([_int(c, f"{where} {key}") for c in values], dtype=np.int64)
                  for key, values in zip(("positives", "negatives"), columns[1:])]
        if any((c < 0).any() for c in counts):
            _fail(f"{where} has negative counts")
        tables.append((np.array(totals, dtype=np.int64), q, *counts))

    criterion = data["criterion"]
    if not isinstance(criterion, list) or len(criterion) != len(stages) + 1:
        _fail("criterion must have one value per stage")

    validation = data["validation"]
    if validation is not None:
        _keys(validation, _VALIDATION_KEYS, "validation")
        for key in ("brier", "brier_se"):
            values = validation[key]
            if not isinstance(values, list) or len(values) != len(stages) + 1:
                _fail(f"validation {key} must have one value per stage")
            validation[key] = np.array([np.nan if v is None else _number(v, f"validation {key}") for v in values])
        recommended = _int(validation["recommended_stages"], "validation recommended_stages")
        if not 0 <= recommended <= len(stages):
            _fail(f"validation recommends {recommended} stages, but the list has {len(stages)}")
        model.validation_brier_, model.validation_brier_se_ = validation["brier"], validation["brier_se"]
        model.recommended_stages_ = recommended
    else:
        model.validation_brier_ = model.validation_brier_se_ = model.recommended_stages_ = None

    model.classes_ = np.array(classes)
    model.n_features_in_ = n_features
    if names is not None:
        model.feature_names_in_ = np.array(names, dtype=object)
    model.literals_ = literals
    model.scores_ = scores
    model.stage_totals_ = [t[0] for t in tables]
    model.stage_probabilities_ = [t[1] for t in tables]
    model.stage_positives_ = [t[2] for t in tables]
    model.stage_negatives_ = [t[3] for t in tables]
    model.stage_criterion_ = np.array([_number(v, "criterion") for v in criterion])
    end_reason = data.get("end_reason")
    if end_reason is not None and end_reason not in END_REASONS:
        _fail(f"end_reason must be one of {list(END_REASONS)} or null, got {end_reason!r}")
    model.end_reason_ = end_reason
    model.metadata_ = data["metadata"]
    return model
