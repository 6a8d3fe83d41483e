"""A quick yes/no check of parsed JSON against the model file's JSON Schema.

The schema's validator (``jsonschema``) walks a file value by value through its general
machinery: 17 to 30 ms for a list saved by the app, 80 % of its reading time, and 165 s for the
first listing of a folder of 5,000 saved lists, which the app waited for.
:func:`compiled` turns the schema, once, into plain nested functions that answer only whether a
value is valid, some ten times faster. It never accepts more than the schema does: it reads the
keywords the schema uses, by the rules of JSON Schema 2020-12 as the validator applies them
(``"integer"`` a whole number written as one, as
:func:`psl_core.serialization.check_schema` redefines it), is stricter where a rule would take
long to follow (an ``enum`` or ``const`` of an object or an array), and refuses to compile a
schema holding any other keyword, so a keyword added to the schema later fails every test that
reads a file instead of being skipped. A value it does not accept goes to the validator, which
has the last word and names the entry and the rule.
"""

import math
import re

_ANNOTATIONS = frozenset({"description", "title", "$schema", "$id", "$comment", "examples", "default"})


def _is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


_TYPES = {
    "integer": lambda value: isinstance(value, int) and not isinstance(value, bool),
    "number": _is_number,
    "string": lambda value: isinstance(value, str),
    "boolean": lambda value: isinstance(value, bool),
    "null": lambda value: value is None,
    "object": lambda value: isinstance(value, dict),
    "array": lambda value: isinstance(value, list),
}


def _kind(value):
    """The JSON type of a scalar for ``enum`` and ``const`` (true is not 1; 1 is 1.0), else None."""
    if value is None or isinstance(value, (bool, str)):
        return type(value)
    return float if _is_number(value) and math.isfinite(value) else None


def _same(value, expected):
    kind = _kind(value)
    return kind is not None and kind is _kind(expected) and value == expected


def compiled(node):
    """A function of one parsed JSON value that is True only if ``node`` (a schema with its
    references inlined) accepts it. Raises ValueError for a keyword it does not know."""
    if node is True or node is False:
        return lambda value: node
    keys = set(node) - _ANNOTATIONS
    if node.get("type") in ("number", "integer") and keys <= {"type", "minimum", "maximum"}:
        # most values of a file: one call instead of three
        kind, low, high = _TYPES[node["type"]], node.get("minimum", -math.inf), node.get("maximum", math.inf)
        return lambda value: kind(value) and low <= value <= high
    checks = [_keyword(key, node[key], node) for key in keys]
    checks = [check for check in checks if check is not None]
    if len(checks) == 1:
        return checks[0]

    def check_all(value):
        for check in checks:
            if not check(value):
                return False
        return True
    return check_all


def _keyword(key, rule, node):
    """The check of one keyword of ``node``, or None where another keyword's check covers it."""
    if key in _SIMPLE:
        return _SIMPLE[key](rule)
    if key == "properties":
        return _properties(rule, node.get("additionalProperties", True))
    if key == "additionalProperties":
        return None if "properties" in node else _properties({}, rule)
    if key in ("anyOf", "oneOf"):
        options = [compiled(option) for option in rule]
        if key == "anyOf":
            return lambda value: any(option(value) for option in options)
        return lambda value: sum(1 for option in options if option(value)) == 1
    raise ValueError(f"the quick schema check does not know the keyword {key!r}")


def _properties(properties, additional):
    named = {name: compiled(rule) for name, rule in properties.items()}
    other = compiled(additional)

    def check(value):
        if not isinstance(value, dict):
            return True
        for name, item in value.items():
            rule = named.get(name, other)
            if not rule(item):
                return False
        return True
    return check


def _type(rule):
    kinds = [_TYPES[name] for name in ([rule] if isinstance(rule, str) else rule)]
    if len(kinds) == 1:
        return kinds[0]
    return lambda value: any(kind(value) for kind in kinds)


def _items(rule):
    if not isinstance(rule, (dict, bool)):
        raise ValueError("the quick schema check reads 'items' as one schema (JSON Schema 2020-12)")
    item = compiled(rule)
    return lambda value: not isinstance(value, list) or all(map(item, value))


def _within(test):
    return lambda bound: lambda value: not _is_number(value) or test(value, bound)


def _of(kind, test):
    return lambda bound: lambda value: not isinstance(value, kind) or test(value, bound)


def _pattern(rule):
    search = re.compile(rule).search
    return lambda value: not isinstance(value, str) or search(value) is not None


def _names(rule):
    name = compiled(rule)
    return lambda value: not isinstance(value, dict) or all(map(name, value))


_SIMPLE = {
    "type": _type,
    "items": _items,
    "minimum": _within(lambda value, bound: value >= bound),
    "maximum": _within(lambda value, bound: value <= bound),
    "exclusiveMinimum": _within(lambda value, bound: value > bound),
    "exclusiveMaximum": _within(lambda value, bound: value < bound),
    "minItems": _of(list, lambda value, bound: len(value) >= bound),
    "maxItems": _of(list, lambda value, bound: len(value) <= bound),
    "minLength": _of(str, lambda value, bound: len(value) >= bound),
    "maxLength": _of(str, lambda value, bound: len(value) <= bound),
    "minProperties": _of(dict, lambda value, bound: len(value) >= bound),
    "maxProperties": _of(dict, lambda value, bound: len(value) <= bound),
    "required": _of(dict, lambda value, names: all(name in value for name in names)),
    "pattern": _pattern,
    "propertyNames": _names,
    "enum": lambda options: lambda value: any(_same(value, option) for option in options),
    "const": lambda expected: lambda value: _same(value, expected),
}
