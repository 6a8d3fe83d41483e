"""The audit trail for whoever reviews it: filtered, as CSV and as FHIR R4 AuditEvent resources.

CSV (the Audit page, through the app's one CSV writer): one row per entry, every column of the
record (:func:`entries_table`), formulas neutralised (:func:`psl_triage.model_file.csv_export.csv_bytes`).

FHIR: a ``collection`` Bundle of AuditEvent resources (R4 4.0.1), each validated against the
R4 models of ``fhir.resources``. ``type`` is DICOM's "User Authentication" for a sign-in,
"Export" for an export and "Application Activity" otherwise, with the app's action as
``subtype``; ``outcome`` "0" (success) for a step done, "4" (minor failure) for one refused,
with the reason as ``outcomeDesc``; the agent is the user (``who.display``) in the role of the
entry, at the network address the request came from; the entity is the list (its name, its
file's SHA-256 as identifier, its version and the entry's place in the hash chain as details).
"""

import pandas as pd
from fhir.resources.bundle import Bundle

from psl_triage.ward.audit import COLUMNS, DONE

DICOM = "http://dicom.nema.org/resources/ontology/DCM"
ACTION_SYSTEM = "urn:psl-triage:audit-action"
LIST_SYSTEM = "urn:psl-triage:list"
"""System of a list's identifier in an AuditEvent: the value is the model file's SHA-256."""
_TYPES = {"sign_in": ("110114", "User Authentication"), "export": ("110106", "Export")}
_ACTIVITY = ("110100", "Application Activity")
_CRUD = {"save": "C", "recalibrate": "C", "delete": "D", "sign_in": "E", "export": "E"}


def filtered(entries, user="", action="", text="", since=None, until=None):
    """The entries of ``user`` (exact), ``action``, whose list name or file contains ``text``
    (any case), recorded on or after the date ``since`` and on or before ``until``."""
    text = text.casefold()
    return [entry for entry in entries
            if (not user or entry.user == user) and (not action or entry.action == action)
            and (not text or text in f"{entry.model or ''} {entry.file or ''}".casefold())
            and (since is None or entry.at[:10] >= since.isoformat())
            and (until is None or entry.at[:10] <= until.isoformat())]


def entries_table(entries):
    """The entries as a table, one row each, the record's columns."""
    return pd.DataFrame([[getattr(entry, column) for column in COLUMNS] for entry in entries], columns=list(COLUMNS))


def audit_event(entry):
    """The FHIR R4 AuditEvent of one entry (a JSON-ready dict)."""
    code, display = _TYPES.get(entry.action, _ACTIVITY)
    event = {
        "resourceType": "AuditEvent", "id": f"psl-audit-{entry.seq}",
        "type": {"system": DICOM, "code": code, "display": display},
        "subtype": [{"system": ACTION_SYSTEM, "code": entry.action}],
        "action": _CRUD.get(entry.action, "U"), "recorded": entry.at,
        "outcome": "0" if entry.outcome == DONE else "4",
        "agent": [{"type": {"text": entry.role}, "who": {"display": entry.user}, "requestor": True}],
        "source": {"observer": {"display": "PSL Triage"}},
    }
    if entry.outcome != DONE and entry.detail:
        event["outcomeDesc"] = entry.detail
    if entry.source:
        event["agent"][0]["network"] = {"address": entry.source, "type": "2"}
    details = [("version", entry.version), ("file", entry.file), ("detail", entry.detail if entry.outcome == DONE else None),
               ("previous-hash", entry.previous), ("hash", entry.hash)]
    entity = {"detail": [{"type": kind, "valueString": str(value)} for kind, value in details if value is not None]}
    if entry.model is not None or entry.sha256 is not None:
        entity["what"] = {"display": entry.model or entry.file or ""}
        if entry.sha256:
            entity["what"]["identifier"] = {"system": LIST_SYSTEM, "value": entry.sha256}
    event["entity"] = [entity]
    return event


def audit_bundle(entries):
    """The entries as a FHIR R4 ``collection`` Bundle of AuditEvents (a JSON-ready dict),
    validated against the R4 models (pydantic's ValidationError names what is wrong)."""
    bundle = {"resourceType": "Bundle", "type": "collection",
              "entry": [{"resource": audit_event(entry)} for entry in entries]}
    Bundle.parse_obj(bundle)
    return bundle
