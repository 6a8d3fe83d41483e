"""The specification of a list for the hospital's systems: its format, checksum and verification.

A specification is versioned JSON (``"format": "psl-triage-specification"``, ``"format_version"``)
with the published schema ``specification-schema-v1.json`` beside this module. It carries the
SHA-256 of the model file it was made from (``list.model_sha256``) and its own checksum
(``"checksum"``: the SHA-256 of its canonical JSON without that entry: keys sorted, no spaces,
UTF-8), so that a changed point, cut-off or risk is seen before anything scores a patient with it.

What the entries mean (the schema says their shapes):

- ``settings``: M (``cost_ratio``), the decision threshold 1/(1+M) (``threshold``), the
  interval's ``confidence``, the decision ``basis`` (``"upper"``: decide on the interval's upper
  bound; ``"point"``: on the estimate), the stop rule's ``tolerance`` and ``change_value`` (V,
  for a list with question costs; null otherwise), and ``length``, the questions asked.
- ``questions``: stage, column, kind, points, the condition (``{"op": ">", "threshold": t}``,
  ``{"op": "<=", ...}``, ``{"op": "in" | "not in", "values": [...]}`` on the answer as text, or
  ``{"op": "any value", "holds": b}`` for a question that only asks whether the value was
  measured), ``not_measured`` (what "not measured" counts as: true, false, or null = unknown), the
  column's ordered ``levels`` (null unless ordered) and the condition in words.
- ``stages``: for stage 0 (no answer) to ``length``: every reachable total with its risk and its
  interval (``lower``, ``upper``), its three-way ``outcome`` code (1 rule in: lower > threshold;
  -1 rule out: upper < threshold; 0 uncertain), ``settled`` (the outcome every later total
  reachable from it shares, null when they differ), the stop statistics of ``change`` (training
  patients per total and of them those whose outcome at the ``reference`` stage differs from
  rule out / uncertain / rule in, and the same pooled over the stage; null without a reference)
  and the cost of the next question (``next_cost``; null without costs).
- ``decision`` and ``stop_rule``: the rule in words and the stop rule's inputs.
- ``test_cases``: answers and the expected result (``stop``, ``stop_reason``, ``totals``,
  ``risk_low``, ``risk_high``, ``lower``, ``upper``, ``outcome``, ``action``); every path of
  answers when ``test_cases_complete``, else a sample stratified by where and how the list stops.
"""

import hashlib
import json
from functools import cache
from pathlib import Path

import jsonschema

from psl_core.errors import PSLError
from psl_triage.words import export as words

FORMAT = "psl-triage-specification"
FORMAT_VERSION = 1
SCHEMA_PATH = Path(__file__).with_name(f"specification-schema-v{FORMAT_VERSION}.json")


class SpecificationError(PSLError):
    """A specification that is not valid, or whose checksum does not match its content."""


def canonical_bytes(spec):
    """The canonical JSON of ``spec`` without its ``"checksum"`` entry (what the checksum covers)."""
    content = {key: value for key, value in spec.items() if key != "checksum"}
    return json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode()


def checksum(spec):
    """SHA-256 (hex) of the specification's canonical JSON without its checksum."""
    return hashlib.sha256(canonical_bytes(spec)).hexdigest()


def sealed(spec):
    """``spec`` with its checksum set."""
    return {**{key: value for key, value in spec.items() if key != "checksum"}, "checksum": checksum(spec)}


def dumps(spec):
    """The specification as JSON text (indented, UTF-8 characters kept)."""
    return json.dumps(spec, indent=1, ensure_ascii=False, allow_nan=False)


@cache
def schema():
    """The published JSON Schema of the specification."""
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


def verify(spec):
    """Check a specification's shape against its schema and its checksum against its content.

    Returns ``spec``; raises :class:`SpecificationError` naming the first problem.
    """
    if not isinstance(spec, dict):
        raise SpecificationError(words.NOT_A_SPECIFICATION.format(kind=type(spec).__name__))
    if spec.get("format") != FORMAT or spec.get("format_version") != FORMAT_VERSION:
        raise SpecificationError(words.WRONG_FORMAT.format(
            found=f"{spec.get('format')!r} {spec.get('format_version')!r}", expected=f"{FORMAT!r} {FORMAT_VERSION}"))
    error = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(schema()).iter_errors(spec))
    if error is not None:
        where = "/".join(str(part) for part in error.absolute_path) or "(top)"
        raise SpecificationError(words.INVALID_SPECIFICATION.format(where=where, problem=error.message[:300]))
    if spec["checksum"] != checksum(spec):
        raise SpecificationError(words.CHECKSUM_MISMATCH)
    last = len(spec["questions"])
    if spec["settings"]["length"] != last or len(spec["stages"]) != last + 1:
        raise SpecificationError(words.STAGES_MISMATCH.format(questions=last, stages=len(spec["stages"])))
    return spec
