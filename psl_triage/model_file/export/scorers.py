"""Scorers generated from a specification: Python (standard library only) and JavaScript (no
dependencies).

Each is its template (``scorer_template.py``, ``scorer_template.js`` beside this module: the
scoring logic once per language, which reads every number from the specification) with the
verified specification written in as JSON text, test cases included, so that the scorer can
check itself (``python scorer.py --check``; ``PSLScorer.checkTestCases(...)`` in JavaScript).
"""

import json
from pathlib import Path

from .specification import dumps, verify

_HERE = Path(__file__).parent
PYTHON_TEMPLATE = _HERE / "scorer_template.py"
JAVASCRIPT_TEMPLATE = _HERE / "scorer_template.js"
_PYTHON_SLOT = 'SPECIFICATION = json.loads("{}")'
_JAVASCRIPT_SLOT = 'const SPECIFICATION = JSON.parse("{}");'


def _header(spec, comment):
    """Comment lines naming the list, its model file and the specification (ASCII only: a name's
    line breaks or separators are escaped, so they cannot end the comment)."""
    identity = spec["list"]
    lines = [
        f"Generated from the specification of {json.dumps(identity['name'])} version {json.dumps(identity['version'])}",
        f"model file SHA-256 {identity['model_sha256']}, specification checksum {spec['checksum']}.",
    ]
    return "".join(f"{comment} {line}\n" for line in lines)


def _fill(template, slot, replacement):
    text = template.read_text(encoding="utf-8")
    if text.count(slot) != 1:
        raise RuntimeError(f"the scorer template {template.name} must hold its slot once")
    return text.replace(slot, replacement)


def python_scorer(spec):
    """The Python scorer of a specification (module text; runs with the standard library alone)."""
    verify(spec)
    text = _fill(PYTHON_TEMPLATE, _PYTHON_SLOT, f"SPECIFICATION = json.loads({dumps(spec)!r})")
    return _header(spec, "#") + text


def javascript_scorer(spec):
    """The JavaScript scorer of a specification (script text; no dependencies)."""
    verify(spec)
    literal = json.dumps(json.dumps(spec, ensure_ascii=False, allow_nan=False), ensure_ascii=True)
    return _header(spec, "//") + _fill(JAVASCRIPT_TEMPLATE, _JAVASCRIPT_SLOT, f"const SPECIFICATION = JSON.parse({literal});")
