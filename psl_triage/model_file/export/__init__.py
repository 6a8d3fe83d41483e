"""Export of a list for the hospital's own systems: its specification, scorers generated from it
and a FHIR R4 RiskAssessment (issue 42, item 2). Nothing here sends anything anywhere.

- :mod:`.specification`: the specification's format (versioned JSON, its schema
  ``specification-schema-v1.json``), its checksum and :func:`~.specification.verify`;
- :mod:`.scorers`: a Python (standard library) and a JavaScript (no dependencies) scorer, and
  :mod:`.sql`: one SQL query for SQLite and PostgreSQL, each generated from a specification and
  reproducing its test cases;
- :mod:`.fhir`: the FHIR R4 RiskAssessment of one triaged patient, validated against the R4
  models of ``fhir.resources``.

The specification itself is built from a list and the bedside's settings by
:func:`psl_triage.bedside.export.specification` (it reads the bedside's questions and triage,
which sit above this package).
"""

from .fhir import risk_assessment
from .scorers import javascript_scorer, python_scorer
from .specification import (
    FORMAT,
    FORMAT_VERSION,
    SpecificationError,
    checksum,
    dumps,
    sealed,
    verify,
)
from .sql import sql_scorer

__all__ = [
    "FORMAT", "FORMAT_VERSION", "SpecificationError", "checksum", "dumps", "sealed", "verify",
    "python_scorer", "javascript_scorer", "sql_scorer", "risk_assessment",
]
