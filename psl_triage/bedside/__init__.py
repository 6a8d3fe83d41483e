"""The bedside: one triage of one patient, its questions in words, its record, the default length."""
