"""Versioned JSON model files (never pickle, which runs code on load).

A model file is one JSON object::

    {
      "format": "psl-triage/probabilistic-scoring-list",
      "schema_version": 2,              # 1: an earlier file, read with a notice (below)
      "params": {...},                  # the estimator's get_params()
      "classes": [negative, positive],
      "input": {"kind": "dataframe" | "array", "n_features": 13, "feature_names": [...] | null},
      "stages": [{"feature": ..., "kind": "numeric" | "binary" | "category",
                  "threshold": float | null, "category": str | null,
                  "negated": bool, "score": int,
                  "missing": bool | null,
                  "missing_learned": bool}, ...],                  # stages 1..K; "missing"
                  # optional: where a missing answer goes; a numeric stage with a null
                  # threshold and a direction asks "is the value missing?";
                  # "missing_learned" optional, false: the direction is the common answer;
                  # "categories" optional: a grouping of levels, x in categories
      "calibration": [{"totals": [...], "probabilities": [...],
                       "positives": [...], "negatives": [...],      # stages 0..K
                       "weighted_positives": [...],   # version 2, a weighted list: what the
                       "weighted_negatives": [...],   # probabilities were calibrated on
                       "prior": [...]}, ...],         # version 2, a recalibrated list: the
                                                      # earlier list's q(k, T)
      "criterion": [...],                                          # stages 0..K
      "end_reason": "length" | "no_gain" | "support" | "chance",  # optional: why the list ends
      "stop_statistics": {"version": 1, ...},          # optional: read by its own reader
      "validation": null | {"brier": [...], "brier_se": [...],     # stages 0..K
                            "recommended_stages": k,
                            "shrinkage": [...],        # optional: stages 0..K
                            "interval_inflation": [...]},  # optional: stages 0..K
      "metadata": {...}                 # free description: name, labels, units, ...;
                                        # "decision": {"cost_ratio": M} when present must hold M > 0
    }

:func:`loads` validates everything before building a model, in three steps: :func:`parse`
reads bounded JSON (size, digits, range, nesting, at most :data:`MAX_VALUES` values and
:data:`MAX_METADATA_VALUES` in the metadata, printable text); :func:`check_schema` checks it against the
published JSON Schema (``model-schema-v2.json``, next to this module and in ``docs/``: types,
unknown or missing keys, number ranges, text lengths, list sizes, how deep the metadata
nests; a whole number written as one: ``4.0`` is no stage count); :func:`build` checks what
a schema cannot say (features among the input columns, each column asked one way, groupings
of one or more distinct categories, scores in the score set, totals the scores reach,
monotone probabilities, one entry per stage, a valid M, the constraints of its params kept,
stop statistics that agree with the stages' counts; in a file of version 2, every stage's
probabilities recomputed from its counts as the learner computed them, and compared total by
total: :mod:`psl_core.recomputed`) and builds the model. Any problem raises
:class:`~psl_core.errors.ModelFileError`; nothing else escapes, whatever the file holds.
An optional top-level ``"stop_statistics"`` object (with its own ``"version"``) is allowed
and left to its own reader.

A file of version 1 (written before a file recorded the weighted counts and the earlier
list's probabilities) is read with the checks it always had, and its list's
``probabilities_checked_`` is False: the app says that its risks could not be checked against
their counts. Written again, such a list takes version 2 when its counts recompute its
probabilities (a list learned without weights), else it keeps version 1.
"""

import functools
import itertools
import json
import math
import re
from collections.abc import Mapping
from importlib import resources

import jsonschema
import numpy as np

from . import quick_schema
from .binarization import CATEGORY, NUMERIC, Literal
from .constraints import check_constraints
from .cost_ratio import saved_cost_ratio
from .costs import check_cost_groups, check_question_costs
from .errors import ModelFileError, PSLError
from .file_checks import calibration_tables, check_constraints_kept, check_look_alikes, refuse, shorten
from .names import describe_character, unreadable_character
from .stopping import check_stop_statistics

__all__ = [
    "FORMAT", "SCHEMA_VERSION", "READ_VERSIONS", "SCHEMA_FILE", "MAX_FILE_CHARS", "MAX_DEPTH", "MAX_VALUES", "MAX_METADATA_VALUES",
    "to_dict", "dumps", "loads", "parse", "schema", "unstorable_name", "check_schema", "build", "max_number",
    "max_text_chars"
]

FORMAT = "psl-triage/probabilistic-scoring-list"
SCHEMA_VERSION = 2
"""The version written: 2 records what recomputes each stage's probabilities from its counts."""
READ_VERSIONS = (1, 2)
"""The versions read; a file of version 1 loads with ``probabilities_checked_`` False."""
SCHEMA_FILE = f"model-schema-v{SCHEMA_VERSION}.json"
"""The published JSON Schema of this version (it reads version 1 too), next to this module (and
in ``docs/``)."""
MAX_FILE_CHARS = 16 * 2**20
"""Longest model file read (characters): far beyond any list, small enough to parse at once."""
MAX_DEPTH = 8
"""Deepest nesting of objects and lists a model file may have (the schema allows 6)."""
MAX_VALUES = 200_000
"""Most values (numbers, texts, entries) a model file may hold, checked before the schema,
whose validator takes about 25 µs a value: a list of 100 stages holds far fewer."""
MAX_METADATA_VALUES = 50_000
"""Most values the metadata may hold (about a dozen a column of the table, a few hundred more):
the schema's validator takes tens of microseconds a value, so this bounds its time."""
_MAX_DIGITS = 30


def max_text_chars():
    """The longest text a model file's metadata holds in one value (the schema's bound)."""
    return int(schema()["$defs"]["scalar"]["maxLength"])


def max_number():
    """The largest magnitude of a number a model file holds (the schema's bound on thresholds,
    ranges and measures): a table's value beyond it could not be kept in a saved list."""
    return float(schema()["$defs"]["real"]["maximum"])


def _plain(value):
    """numpy scalars to JSON scalars."""
    if isinstance(value, np.generic):
        return value.item()
    return value


def to_dict(model, metadata=None):
    """The JSON-ready dictionary of a fitted model (see the module docstring)."""
    from .recomputed import calibration_entries, recomputes  # here: the table readers need not load the kernels

    names = getattr(model, "feature_names_in_", None)
    return {
        "format": FORMAT,
        "schema_version": SCHEMA_VERSION if recomputes(model) else 1,
        "params": {k: _param(k, v) for k, v in model.get_params().items()},
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
                "threshold": None if lit.asks_missing else lit.threshold,
                "category": lit.category,
                "negated": lit.negated,
                "score": int(score),
                **({} if lit.missing is None else {"missing": lit.missing}),
                **({} if lit.missing_learned else {"missing_learned": False}),
                **({} if lit.categories is None else {"categories": list(lit.categories)}),
            }
            for lit, score in zip(model.literals_, model.scores_)
        ],
        "calibration": calibration_entries(model),
        "criterion": [float(v) for v in model.stage_criterion_],
        "end_reason": getattr(model, "end_reason_", None),
        "validation": None if getattr(model, "validation_brier_", None) is None else {
            "brier": [_finite_or_none(v) for v in model.validation_brier_],
            "brier_se": [_finite_or_none(v) for v in model.validation_brier_se_],
            "recommended_stages": int(model.recommended_stages_),
            **({} if getattr(model, "shrinkage_", None) is None else {
                "shrinkage": [float(v) for v in model.shrinkage_],
            }),
            **({} if getattr(model, "interval_inflation_", None) is None else {
                "interval_inflation": [float(v) for v in model.interval_inflation_],
            }),
        },
        "metadata": _metadata(metadata if metadata is not None else getattr(model, "metadata_", {}) or {}),
        # A list without questions has nothing to stop early: the optional key is left out.
        **({} if getattr(model, "stop_statistics_", None) is None else {"stop_statistics": model.stop_statistics_}),
    }


def _param(name, value):
    """One estimator parameter as JSON: the score set as a list, question costs and cost groups
    as lists of ``{"column", "cost"}`` / ``{"column", "group"}`` (a JSON object's keys are
    text, an array's columns positions)."""
    if name == "score_set":
        return list(value)
    if name == "question_costs" and value is not None:
        return [{"column": _plain(column), "cost": float(cost)} for column, cost in value.items()]
    if name == "cost_groups" and value is not None:
        return [{"column": _plain(column), "group": str(group)} for column, group in value.items()]
    if name == "monotone" and value is not None:
        return [{"column": _plain(column), "direction": str(direction)} for column, direction in value.items()]
    if name in ("required", "forbidden") and value is not None:
        return [_plain(column) for column in value]
    return _plain(value)


def _metadata(metadata):
    """The metadata as a dict (PSLError naming ``metadata`` when it is not a mapping)."""
    if not isinstance(metadata, Mapping):
        raise PSLError(f"metadata must be a dict (name, column labels, ...), got {type(metadata).__name__}")
    return dict(metadata)


def _finite_or_none(value):
    return float(value) if np.isfinite(value) else None


def dumps(model, metadata=None):
    """JSON text of a fitted model, indented for people to read.

    Raises PSLError when ``metadata`` holds a value JSON cannot store (a NaN or infinite
    number, an array, a date): convert it to text, a finite number, a list or a dict first.
    """
    data = to_dict(model, metadata)
    try:
        return json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as exc:  # every other entry is written as plain JSON values
        raise PSLError(
            f"the list cannot be written as JSON: its metadata holds a value JSON cannot store ({exc}); "
            "give metadata as text, finite numbers, true/false, None, lists and dicts"
        ) from None


# ---------------------------------------------------------------------------- reading
def loads(text, cls):
    """Validate model JSON text and build a fitted ``cls`` instance from it.

    Three steps, each failing with a :class:`~psl_core.errors.ModelFileError` that names the
    first problem: :func:`parse` (bounded JSON), :func:`check_schema` (the published schema:
    types, nesting, ranges, sizes) and :func:`build` (what a schema cannot say).

    Raises
    ------
    ModelFileError
    """
    data = parse(text)
    check_schema(data)
    return build(data, cls)


def parse(text):
    """JSON text (str or UTF-8 bytes) of at most :data:`MAX_FILE_CHARS` characters as Python objects.

    The one place a model file's bytes become text: UTF-8, with or without the byte-order
    mark some Windows editors write. Numbers are bounded while they are read: an integer of
    more than :data:`_MAX_DIGITS` digits, a number beyond the float range, NaN and Infinity,
    repeated keys and nesting deeper than :data:`MAX_DEPTH` are refused.
    """
    if isinstance(text, (bytes, bytearray, memoryview)):
        try:
            text = bytes(text).decode("utf-8-sig")
        except UnicodeDecodeError:
            refuse("the file is not UTF-8 text")
    if not isinstance(text, str):
        refuse(f"expected JSON text, got {type(text).__name__}")
    text = text.removeprefix("\ufeff")
    if len(text) > MAX_FILE_CHARS:
        refuse(f"the file has {len(text):,} characters; a model file has at most {MAX_FILE_CHARS:,}")
    try:
        data = json.loads(
            text, object_pairs_hook=_reject_duplicates, parse_int=_parse_int, parse_float=_parse_float,
            parse_constant=lambda c: refuse(f"{c} is not allowed"),
        )
    except json.JSONDecodeError as exc:
        refuse(f"the JSON cannot be read ({exc.msg} at line {exc.lineno}, column {exc.colno}); "
              "the file may be truncated or edited")
    except RecursionError:
        refuse(f"the JSON is nested too deeply (a model file nests at most {MAX_DEPTH} levels)")
    _check_depth(data)
    return data


def _parse_int(digits):
    if len(digits.lstrip("-")) > _MAX_DIGITS:
        refuse(f"a number has {len(digits.lstrip('-'))} digits; a model file's numbers have at most {_MAX_DIGITS}")
    return int(digits)


def _parse_float(text):
    value = float(text)
    if not math.isfinite(value):
        refuse(f"the number {text[:40]} is beyond the range of numbers a model file holds")
    return value


def _reject_duplicates(pairs):
    keys = [k for k, _ in pairs]
    if len(keys) != len(set(keys)):
        refuse(f"repeated keys {sorted({k for k in keys if keys.count(k) > 1})[:10]}")
    return dict(pairs)


def _check_depth(data):
    """Refuse nesting deeper than MAX_DEPTH, more than MAX_VALUES values (MAX_METADATA_VALUES
    within the metadata), or text that cannot be shown (a lone surrogate, a control character:
    :func:`~psl_core.names.unreadable_character`), before the schema validator meets them.
    One pass over the values, so the time is linear in the file."""
    metadata = data.get("metadata") if isinstance(data, dict) else None
    stack, n_values = [(data, 1)], 0
    while stack:
        value, depth = stack.pop()
        children = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
        n_values += len(children)
        if n_values > MAX_VALUES:
            refuse(f"the file holds more than {MAX_VALUES:,} values; a model file holds far fewer")
        for child in [*value, *children] if isinstance(value, dict) else children:  # keys too
            if isinstance(child, str):
                _check_text(child)
            elif isinstance(child, (dict, list)):
                if depth + 1 > MAX_DEPTH:
                    refuse(f"the JSON is nested too deeply (a model file nests at most {MAX_DEPTH} levels)")
                stack.append((child, depth + 1))
    if isinstance(data, str):
        _check_text(data)
    if isinstance(metadata, (dict, list)):
        _check_metadata_size(metadata)


def _check_metadata_size(metadata):
    """Refuse metadata of more than MAX_METADATA_VALUES keys and values (schema-valid metadata
    nests at most 4 deep, so this walk is short)."""
    stack, n_values = [metadata], 0
    while stack:
        value = stack.pop()
        children = list(value.values()) if isinstance(value, dict) else value
        n_values += len(children)
        if n_values > MAX_METADATA_VALUES:
            refuse(f"the metadata holds more than {MAX_METADATA_VALUES:,} values; a list's description "
                  "holds far fewer")
        stack.extend(child for child in children if isinstance(child, (dict, list)))


def _check_text(text):
    character = unreadable_character(text)
    if character is not None:
        refuse(f"the text {shorten(text)} holds {describe_character(character)}, which cannot be shown; "
              "a model file holds printable text only")


@functools.cache
def schema():
    """The published JSON Schema of the model file (``psl_core/model-schema-v2.json``)."""
    return json.loads(resources.files(__package__).joinpath(SCHEMA_FILE).read_text(encoding="utf-8"))


def unstorable_name(text):
    """Why a column name or category value cannot be kept in a model file, else None.

    ``"long"`` when it has more characters than the schema's names and keys allow, ``"code"``
    when it starts as the schema's keys may not (``__``, ``py/``, ``!!``: how some readers
    of JSON and YAML mark code). Read off :func:`schema`, so the app refuses at upload exactly
    what a saved list could not hold.
    """
    rule = schema()["$defs"]["key"]
    if len(text) > min(rule["maxLength"], schema()["$defs"]["name"]["maxLength"]):
        return "long"
    return None if _key_pattern().search(text) else "code"


@functools.cache
def _key_pattern():
    return re.compile(schema()["$defs"]["key"]["pattern"])


def _is_whole_number(checker, instance):
    return isinstance(instance, int) and not isinstance(instance, bool)


@functools.cache
def _validator():
    # The schema has no cycles (metadata nests in explicit levels), so its references can be
    # replaced by what they name: a third less time per value than looking them up.
    # A whole number is written as one: JSON Schema counts 4.0 as an integer, but a count, a
    # score or a stage number written "4.0" is read as a float by every JSON reader, and breaks
    # what indexes or compares with it.
    strict = jsonschema.validators.extend(
        jsonschema.Draft202012Validator,
        type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_whole_number),
    )
    return strict(_inlined(schema(), schema()["$defs"]))


@functools.cache
def _quick_check():
    return quick_schema.compiled(_inlined(schema(), schema()["$defs"]))


def _inlined(node, definitions):
    if isinstance(node, dict):
        if "$ref" in node:
            return _inlined(definitions[node["$ref"].removeprefix("#/$defs/")], definitions)
        return {key: _inlined(value, definitions) for key, value in node.items() if key != "$defs"}
    if isinstance(node, list):
        return [_inlined(value, definitions) for value in node]
    return node


def check_schema(data):
    """Check parsed JSON against :func:`schema`; the message names the entry and the rule.

    The format and version are checked first, so that a file of another version says so.
    """
    if not isinstance(data, dict):
        refuse("the file must hold a JSON object")
    if "format" not in data:
        refuse(f"the file has no \"format\" entry: it is not a model file of PSL Triage ({FORMAT!r})")
    if data.get("format") != FORMAT:
        refuse(f"format is {shorten(data.get('format'))}, expected {FORMAT!r}")
    version = data.get("schema_version")
    if version not in READ_VERSIONS or isinstance(version, bool) or not isinstance(version, int):
        refuse(f"schema version {shorten(version)} is not supported (this version reads "
               f"{' and '.join(map(str, READ_VERSIONS))}); save the model again with a matching version of PSL Triage")
    data = _lightened(data)
    if _quick_check()(data):  # the validator's verdict, in a tenth of its time: it names no entry
        return
    # The first error is enough, and stops the validator before it walks the rest of the file.
    error = jsonschema.exceptions.best_match(itertools.islice(_validator().iter_errors(data), 1))
    if error is not None:
        refuse(_schema_message(error))


def _lightened(data):
    """``data`` with the metadata's free entries (the schema's ``value1`` and ``object1``:
    any text, number, list or object within its bounds) replaced by an empty value once a
    plain walk has found them within those bounds, else ``data`` itself.

    The schema's validator takes tens of microseconds a value (2.5 s for a 1 MB description,
    which made the first listing of a folder of such files take half a minute); the walk
    checks the same rules, no more leniently, in a fraction of it. A file that breaks a rule
    goes to the validator whole, which names the entry and the rule as before."""
    metadata = data.get("metadata")
    if not isinstance(metadata, dict):
        return data
    rules = _free_rules()
    light = dict(metadata)
    for key, value in metadata.items():
        if key in rules["objects"]:
            if not (isinstance(value, dict) and _free_object_ok(value, 2, rules)):
                return data
            light[key] = {}
        elif key not in rules["typed"]:
            if not _free_value_ok(value, 1, rules):
                return data
            light[key] = None
    return {**data, "metadata": light}


@functools.cache
def _free_rules():
    definitions, metadata = schema()["$defs"], schema()["$defs"]["metadata"]
    scalar, nested, key = definitions["scalar"], definitions["value1"], definitions["key"]
    objects = {name for name, rule in metadata["properties"].items() if rule == {"$ref": "#/$defs/object1"}}
    return {
        "objects": objects, "typed": set(metadata["properties"]) - objects,
        "text": scalar["maxLength"], "low": scalar["minimum"], "high": scalar["maximum"],
        "items": nested["maxItems"], "keys": nested["maxProperties"], "key_length": key["maxLength"],
        "depth": 4,  # value1 .. value4: value4 is a scalar
    }


def _free_value_ok(value, level, rules):
    """Whether ``value`` satisfies the schema's ``value<level>`` (``scalar`` at level 4)."""
    if value is None or isinstance(value, bool):
        return True
    if isinstance(value, (int, float)):
        return rules["low"] <= value <= rules["high"]
    if isinstance(value, str):
        return len(value) <= rules["text"]
    if level >= rules["depth"]:
        return False
    if isinstance(value, list):
        return len(value) <= rules["items"] and all(_free_value_ok(item, level + 1, rules) for item in value)
    return isinstance(value, dict) and _free_object_ok(value, level + 1, rules)


def _free_object_ok(value, level, rules):
    """An object of at most the allowed keys, each a valid key, each value ``value<level>``."""
    return len(value) <= rules["keys"] and all(
        isinstance(key, str) and len(key) <= rules["key_length"] and _key_pattern().search(key)
        and _free_value_ok(item, level, rules) for key, item in value.items())


def _where(path):
    where = "the file"
    for part in path:
        where = f"{where}[{part}]" if isinstance(part, int) else (part if where == "the file" else f"{where}.{part}")
    return where


def _schema_message(error):
    """One sentence for a schema violation, in the words of the old hand-written checks."""
    where, rule, value = _where(error.absolute_path), error.validator, error.instance
    if rule == "required":
        missing = sorted(set(error.validator_value) - set(value))
        return f"{where} lacks {missing}"
    if rule == "additionalProperties":
        extra = sorted(set(value) - set(error.schema.get("properties", {})))
        return f"{where} has unknown entries {[shorten(k) for k in extra[:10]]}"
    if "propertyNames" in error.relative_schema_path:
        rule_text = error.schema.get("description", "short text")
        return f"{where} has the key {shorten(value)}; keys must be {rule_text.removeprefix('a key ')}"
    if rule in ("enum", "const"):
        allowed = error.validator_value if rule == "enum" else [error.validator_value]
        return f"{where} is {shorten(value)}, expected one of {allowed}"
    if rule in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        return f"{where} is {shorten(value)}, outside the allowed range ({rule} {error.validator_value})"
    if rule in ("maxLength", "maxItems", "maxProperties"):
        return f"{where} is too long (at most {error.validator_value} {'characters' if rule == 'maxLength' else 'entries'})"
    if rule in ("minItems", "minProperties"):
        return f"{where} has too few entries (at least {error.validator_value})"
    description = error.schema.get("description")
    if description:
        return f"{where} must be {description}, got {shorten(value)}"
    if rule == "type":
        kinds = error.validator_value if isinstance(error.validator_value, list) else [error.validator_value]
        return f"{where} must be {' or '.join(_TYPE_WORDS.get(k, k) for k in kinds)}, got {shorten(value)}"
    return f"{where}: {shorten(error.message, 200)}"


_TYPE_WORDS = {
    "object": "an object", "array": "a list", "string": "text", "integer": "a whole number",
    "number": "a number", "boolean": "true or false", "null": "null",
}


def build(data, cls):
    """A fitted ``cls`` from schema-valid data, after the checks a schema cannot express."""
    from .recomputed import set_estimates  # here: the table readers need not load the kernels

    model = cls()
    score_set = _set_params(model, data["params"])
    try:
        saved_cost_ratio(data["metadata"])  # the list is used with it
    except ModelFileError as exc:
        refuse(str(exc))
    classes = data["classes"]
    if classes[0] == classes[1] or str(classes[0]) == str(classes[1]):  # numpy would merge them
        refuse("classes must list two distinct labels, negative first")
    n_features, names = _input_columns(data["input"])
    try:
        known = range(n_features) if names is None else names
        check_question_costs(model.question_costs, known)
        check_cost_groups(model.cost_groups, known)
        check_constraints(model.monotone, model.required, model.forbidden, known)
    except PSLError as exc:
        refuse(f"params are invalid: {exc}")
    literals, scores = _stages(data["stages"], names, n_features, score_set)
    check_look_alikes(names, classes, literals)
    check_constraints_kept(model, literals, scores)
    n_stages = len(literals)
    tables = calibration_tables(data["calibration"], scores)
    if len(data["criterion"]) != n_stages + 1:
        refuse("criterion must have one value per stage")
    _set_validation(model, data["validation"], n_stages)
    set_estimates(model, data["calibration"], data["schema_version"], tables)

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
    model.stage_criterion_ = np.array(data["criterion"], dtype=float)
    model.end_reason_ = data.get("end_reason")
    model.stop_statistics_ = check_stop_statistics(
        data.get("stop_statistics"), [t[0] for t in tables], scores, [t[2] + t[3] for t in tables],
    )
    model.metadata_ = data["metadata"]
    return model


def _set_params(model, params):
    # Files written before max_feature_uses / min_support / shrinkage existed hold lists that
    # use every feature once, searched over every threshold, with unshrunk probabilities.
    # The schema lists exactly the estimator's parameters (tests/core/test_model_file_hostile.py).
    # Files written before missing values could be learned hold lists that learned none.
    params = {
        "max_feature_uses": 1, "min_support": 1, "shrinkage": None, "missing": "error", "group_categories": False,
        "recommend_repeats": 1,
        **params,
    }
    for name, value in (("question_costs", "cost"), ("cost_groups", "group"), ("monotone", "direction")):
        if params.get(name) is not None:
            columns = [entry["column"] for entry in params[name]]
            if len(set(columns)) != len(columns):
                refuse(f"params.{name} gives a column's {value} twice")
            params[name] = {entry["column"]: entry[value] for entry in params[name]}
    try:
        model.set_params(**params)
        return model._check_params()
    except PSLError as exc:
        refuse(f"params are invalid: {exc}")


def _input_columns(spec):
    n_features, names = spec["n_features"], spec["feature_names"]
    if spec["kind"] == "dataframe":
        if names is None or len(names) != n_features:
            refuse("input.feature_names must list the n_features column names")
        if len(set(names)) != len(names):
            refuse("input.feature_names repeats a column name")
    elif names is not None:
        refuse("input.feature_names must be null for array input")
    return n_features, names


def _stages(stages, names, n_features, score_set):
    literals, scores, kinds = [], [], {}
    known = None if names is None else set(names)
    for k, stage in enumerate(stages, start=1):
        where = f"stage {k}"
        feature, kind, threshold, category = stage["feature"], stage["kind"], stage["threshold"], stage["category"]
        if known is not None:
            if feature not in known:
                refuse(f"{where} uses the unknown feature {shorten(feature)}")
        elif not (isinstance(feature, int) and feature < n_features):
            refuse(f"{where} uses feature {shorten(feature)}, not a column position below {n_features}")
        missing = stage.get("missing")
        asks_missing = kind == NUMERIC and threshold is None and missing is not None
        if (kind == NUMERIC) != (threshold is not None or asks_missing):
            refuse(f"{where}: a numeric feature needs a threshold (or a missing direction), other kinds none")
        if asks_missing:
            # "Is the value missing?": beyond every value on the side the missing answers sort to.
            threshold = np.inf if missing != stage["negated"] else -np.inf
        if kinds.setdefault(feature, kind) != kind:
            refuse(f"{where} asks {shorten(feature)} as {kind}, an earlier stage as {kinds[feature]}: "
                  "a column is asked one way")
        categories = stage.get("categories")
        if (kind == CATEGORY) != ((category is not None) != (categories is not None)):
            refuse(f"{where}: a category feature needs a text category or a list of categories, other kinds neither")
        if categories is not None and (not categories or len(set(categories)) != len(categories)):
            refuse(f"{where} groups the categories {shorten(categories)}; a grouping lists one or more "
                  "categories, each once")
        if stage["score"] not in score_set:
            refuse(f"{where} score {stage['score']} is not in the score set {list(score_set)}")
        learned = stage.get("missing_learned", True)
        if missing is None and not learned:
            refuse(f"{where}: missing_learned without a missing direction")
        if asks_missing and not learned:
            refuse(f"{where}: a question whether the value is missing needs missing values to learn from")
        literals.append(Literal(
            feature, kind, None if threshold is None else float(threshold), category, stage["negated"], missing,
            learned, None if categories is None else tuple(categories),
        ))
        scores.append(stage["score"])
    return literals, scores


def _set_validation(model, validation, n_stages):
    model.recommend_draws_ = None  # not recorded in the file
    if validation is None:
        model.validation_brier_ = model.validation_brier_se_ = model.recommended_stages_ = model.shrinkage_ = None
        model.interval_inflation_ = None
        return
    arrays = {}
    for key in ("brier", "brier_se"):
        if len(validation[key]) != n_stages + 1:
            refuse(f"validation {key} must have one value per stage")
        arrays[key] = np.array([np.nan if v is None else v for v in validation[key]], dtype=float)
    recommended = validation["recommended_stages"]
    if recommended > n_stages:
        refuse(f"validation recommends {recommended} stages, but the list has {n_stages}")
    model.validation_brier_, model.validation_brier_se_ = arrays["brier"], arrays["brier_se"]
    model.recommended_stages_ = recommended
    shrinkage = validation.get("shrinkage")
    if shrinkage is not None and len(shrinkage) != n_stages + 1:
        refuse("validation shrinkage must have one value per stage")
    model.shrinkage_ = None if shrinkage is None else np.array(shrinkage, dtype=float)
    inflation = validation.get("interval_inflation")
    if inflation is not None and len(inflation) != n_stages + 1:
        refuse("validation interval_inflation must have one value per stage")
    model.interval_inflation_ = None if inflation is None else np.array(inflation, dtype=float)
