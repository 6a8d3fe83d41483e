"""A shared ward: who may do what, the approval of a list before clinical use, the audit trail.

Off unless the app is configured to sign users in (an ``[auth]`` section in Streamlit's
secrets): then every page and every action that writes asks :mod:`~psl_triage.ward.access`
whether the signed-in user's role allows it. Without it there is one local user with every
role, and the app behaves as it always has.

- :mod:`~psl_triage.ward.access`: the roles, the one table of what each may do, the user;
- :mod:`~psl_triage.ward.settings`: whether sign-in is on, the role claim and its values;
- :mod:`~psl_triage.ward.audit`: the append-only, hash-chained record beside the store;
- :mod:`~psl_triage.ward.approval`: a saved list's approval state (draft, proposed, approved,
  sent back, withdrawn, archived), read from the record; saving, proposing, approving,
  withdrawing and archiving a list, each checked and recorded in one step;
- :mod:`~psl_triage.ward.audit_export`: the record as CSV and as FHIR R4 AuditEvent resources.

Streamlit-free; it uses the store and the words, never the task groups.
"""
