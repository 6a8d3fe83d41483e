"""The bedside: one triage of one patient, its questions in words, its record, the default length.

:mod:`.session` (:class:`~psl_triage.bedside.session.TriageSession`: answers, stage, stops,
undo; the Triage page's state, and the default length), :mod:`.questions` (a list's questions as
the form asks them), :mod:`.record` (the triage record), :mod:`.export` (built from the bedside
itself: a list's specification with its test cases, and the FHIR RiskAssessment of a triage).
"""
