"""The quick schema check (issue 40, item 2: the first listing of a folder of 5,000 saved lists
took 165 s, 80 % of it in the schema's validator) never accepts a file the validator refuses,
and accepts the lists the app saves, so the validator runs only for a file that breaks a rule."""

import json

import pytest

from psl_core import quick_schema, serialization
from tests.hostile_corpus import honest_lists, meaning_document

# What a hand-edited file puts where a value was: each type, out-of-range numbers, a whole number
# written as a decimal, long and code-like text, empty and odd containers.
REPLACEMENTS = [None, True, False, 0, -1, 1.5, 4.0, -3.0, 2**53, -1e300, 1e300, "", "x", "x" * 5000,
                "__proto__", [], [1], [None], ["a", 1], {}, {"__proto__": 1}, {"a": [1, {"b": "c"}]}]


def _documents():
    yield meaning_document()
    yield from (json.loads(text) for text in honest_lists().values())


def _paths(value, path=()):
    """The path (keys and positions) of every value of ``value``, containers included."""
    yield path
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        yield from _paths(item, (*path, key))


_REMOVED = object()


def _at(document, path):
    for key in path:
        document = document[key]
    return document


def _replaced(document, path, replacement):
    """A copy of ``document`` with the value at ``path`` replaced (removed: ``_REMOVED``)."""
    copy = json.loads(json.dumps(document))
    target = _at(copy, path[:-1])
    if replacement is _REMOVED:
        del target[path[-1]]
    else:
        target[path[-1]] = replacement
    return copy


def _validator_accepts(data):
    return next(serialization._validator().iter_errors(data), None) is None


def _quick_accepts(data):
    return serialization._quick_check()(data)


@pytest.mark.parametrize("document", list(_documents()), ids=["meaning", *honest_lists()])
def test_the_lists_the_app_saves_pass_the_quick_check(document):
    light = serialization._lightened(document)
    assert _validator_accepts(light) and _quick_accepts(light)


def test_the_quick_check_never_accepts_a_value_the_validator_refuses():
    """Every value of a saved list (each number, text, list and object, down to the stop
    statistics' counts) replaced by each of REPLACEMENTS, every object given an unknown entry
    and every entry removed: what the quick check accepts, the validator accepts."""
    document = meaning_document()
    refused = accepted = 0
    for path in list(_paths(document))[1:]:
        variants = [_replaced(document, path, value) for value in REPLACEMENTS]
        if isinstance(path[-1], str):  # an entry of an object: also without it
            variants.append(_replaced(document, path, _REMOVED))
        if isinstance(_at(document, path), dict):
            variants.append(_replaced(document, (*path, "zz unknown entry"), 1))
        for variant in variants:
            light = serialization._lightened(variant)
            if _quick_accepts(light):
                accepted += 1
                assert _validator_accepts(light), f"the quick check accepted a change at {path}"
            else:
                refused += 1
    assert refused > 1000 and accepted > 100  # both answers were given many times


def test_a_keyword_the_quick_check_does_not_know_stops_it():
    """A keyword added to the schema later must not be skipped silently."""
    with pytest.raises(ValueError, match="uniqueItems"):
        quick_schema.compiled({"type": "array", "uniqueItems": True})


@pytest.mark.parametrize(("rule", "value", "expected"), [
    ({"type": "integer"}, 4.0, False),  # a whole number written as a decimal (issue 40, item 1)
    ({"type": "integer"}, True, False),
    ({"type": "number"}, False, False),
    ({"enum": [1, 2]}, True, False),  # true is not 1 in JSON Schema
    ({"enum": [1, 2]}, 2.0, True),
    ({"const": "a"}, "a", True),
    ({"oneOf": [{"type": "number"}, {"type": "integer"}]}, 3, False),  # both match: not exactly one
    ({"type": "string", "pattern": "^[a-z]+$"}, "ab1", False),
    ({"type": "object", "propertyNames": {"maxLength": 2}}, {"abc": 1}, False),
    ({"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": False}, {"b": 1}, False),
])
def test_the_quick_check_follows_json_schema_s_rules(rule, value, expected):
    assert quick_schema.compiled(rule)(value) is expected
