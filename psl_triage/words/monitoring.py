"""The Monitoring page's words: a list in service watched over time, and its model-report section."""

from __future__ import annotations

from psl_triage.words.escape import md

HORIZON_NOT_YET = (
    "This list gives the risk within a follow-up horizon; monitoring it over time needs the outcome by the "
    "horizon with censoring respected, which this page does not compute yet. Judge it at a site on the "
    "Validate page instead."
)
DATE_NOT_IN_TABLE = "The table has no column {column!r}: choose the date column again."
DATE_IS_OUTCOME = "The date column {column!r} is also chosen as the outcome: choose two different columns."
NO_DATES = (
    "No value of the column {column!r} reads as a date (2024-03-01, 01/03/2024) or a year (2024): choose the "
    "column that holds the date each patient was seen."
)


def left_out_without_date(count: int, column: str) -> str:
    return f"{count} row{'s' if count != 1 else ''} without a date in {md(column)} left out."


def unknown_period(period: str, periods: list) -> str:
    return f"The period must be one of {', '.join(periods)}, got {period!r}."


def no_patient_answers(stage: int) -> str:
    return (f"No patient has answers to the first {stage} questions (or missing ones the list learned a "
            "direction for): choose fewer questions, or map the missing columns.")
