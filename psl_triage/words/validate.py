"""The Validate page's words: the report on another site's table, in sentences and a table.

Numbers and codes come from :func:`psl_core.validation.validation_report`; nothing here reads a
name from a file.
"""

import math

import pandas as pd

from psl_core.validation import MEASURE_LABELS, MEASURES


def _fmt(value, digits=3):
    return "–" if value is None or not math.isfinite(value) else f"{value:.{digits}f}"


def measures_table(report):
    """The report's measures for display: measure, estimate, interval and perfect value.

    Returns
    -------
    pandas.DataFrame with columns Measure, Estimate, "<level> % interval", "Perfect"
    """
    level = f"{100 * report.confidence:g} % interval"
    rows = []
    for measure in MEASURES:
        row = report.measures.loc[measure]
        rows.append({
            "Measure": MEASURE_LABELS[measure],
            "Estimate": _fmt(row["estimate"]),
            level: f"{_fmt(row['lower'])} to {_fmt(row['upper'])}",
            "Perfect": "" if math.isnan(row["ideal"]) else f"{row['ideal']:g}",
        })
    return pd.DataFrame(rows)


def slope_words(slope):
    """A calibration slope in a few words: "calibration slope 1.05", or why there is none."""
    if math.isnan(slope):
        return "no calibration slope (one risk for everybody)"
    if math.isinf(slope):
        return "no finite calibration slope (its risks separate the outcomes completely here)"
    return f"calibration slope {slope:.2f}"


def report_sentences(report):
    """Plain sentences reading the report: who was judged, calibration, discrimination."""
    m = report.measures["estimate"]
    stage_words = (
        "the prior (no question)" if report.stage == 0 else
        "stage 1 (the first question)" if report.stage == 1 else
        f"stage {report.stage} (the first {report.stage} questions)"
    )
    sentences = [
        f"Judged at {stage_words} on {report.n_rows} patients with every answer known "
        f"({report.n_positive} positive, {100 * report.observed_rate:.1f} %)"
        + (f"; {report.n_missing} patients with a missing answer are left out." if report.n_missing else "."),
        f"The list predicts {100 * report.mean_predicted:.1f} % on average against {100 * report.observed_rate:.1f} % observed: "
        + ("it under-estimates the risk here." if m["observed_minus_expected"] > 0.02 else
           "it over-estimates the risk here." if m["observed_minus_expected"] < -0.02 else "about right on average."),
    ]
    slope = m["slope"]
    if report.n_positive in (0, report.n_rows):
        sentences.append(
            "All these patients have the same outcome: calibration slope and AUC need patients with "
            "and without it."
        )
        return sentences
    if math.isfinite(slope):
        low, high = report.measures.loc["slope", ["lower", "upper"]]
        verdict = (
            "its risks are too extreme here (too high for the high, too low for the low)" if high < 1 else
            "its risks are not spread enough here" if low > 1 else
            "consistent with a slope of 1 (the interval holds it)"
        )
        sentences.append(f"Calibration slope {slope:.2f}: {verdict}.")
    elif math.isinf(slope):
        sentences.append(
            "No calibration slope: here the list's risks separate the outcomes completely (every patient "
            "with a lower risk has one outcome, every patient with a higher risk the other), so the slope "
            "is infinite. Too few patients, or too few different risks, to judge it."
        )
    else:
        sentences.append("No calibration slope: the list gives everybody the same risk at this stage.")
    if math.isfinite(m["auc"]):
        sentences.append(f"AUC {m['auc']:.2f}: a random positive patient gets a higher risk than a random negative one "
                         f"{100 * m['auc']:.0f} % of the time.")
    return sentences
