"""The Calibration page's words: every sentence, label and heading it shows (Markdown)."""

from __future__ import annotations

from psl_core.metrics import MEASURE_LABELS
from psl_triage.words.common import CONFIDENCE_LEVEL, INTERVAL_PROMISE, plural
from psl_triage.words.escape import md
from psl_triage.words.evidence import interval_text

DATA_PURPOSE = "judge the list on"
"""What the page needs prepared data for (completes :data:`psl_triage.words.common.NO_DATA`)."""
INTRO = (
    "Can the list's probabilities be taken at face value? If the list says 30 %, about 30 in "
    "100 such patients should have the outcome. Judge it on rows it never saw: the held-out "
    "test rows."
)
ROWS = {"test": "Held-out test rows", "train": "Training rows"}
ROWS_LABEL = "Rows"
STAGE = "Stage (number of features asked)"
SPLITTING = "splitting the data into training and test rows"
MEASURE_FORMAT = "%.3f"  # a measure or risk in a table column (printf, as st.column_config takes it)
# Column names of the follow-up tables (plain text: st.dataframe headers).
HORIZON_TOTAL, HORIZON_TENTH = "total", "tenth"

OUTCOME_BY_TOTAL = "Outcome by total score"
DRAWING_CALIBRATION = "drawing the calibration plot"
RELIABILITY = "Reliability"
RELIABILITY_TEXT = (
    "Patients grouped by their predicted probability: the observed share with the outcome "
    "against the mean prediction. On the diagonal the list is calibrated; the expected "
    "calibration error (ECE) is the average distance, weighted by group size."
)
DRAWING_RELIABILITY = "drawing the reliability diagram"
BINS = "Groups (bins of equal width)"
ECE = "Expected calibration error"
HIERARCHY = "Calibration hierarchy: mean, weak and moderate"
HIERARCHY_TEXT = (
    "O/E (observed over expected events), the calibration intercept and slope with their 95 % "
    "intervals, and a flexible calibration curve with a band that holds the whole true curve "
    "with 95 % confidence, beside the observed rate of every total with its Clopper–Pearson interval."
)
FITTING_FLEXIBLE = "fitting the flexible calibration curve"
NO_CURVE = "These rows have one outcome only, or one risk for everyone at this stage: there is no curve to fit."
BRIER = "Brier score: calibration and refinement"
BRIER_TEXT = (
    "The Brier score (mean squared difference between probability and outcome; lower is "
    "better) of every stage, split exactly into **calibration loss** (the probabilities differ "
    "from the observed rates of their groups) and **refinement loss** (the groups mix patients "
    "with and without the outcome: only more or better features lower it). "
    "*Refinement after monotone recalibration* is the Brier score the stage would reach if its "
    "probabilities were recalibrated on these rows without changing their order."
)
SPLITTING_BRIER = "splitting the Brier score"
BRIER_COLUMNS = {
    "stage": "Stage", "brier": MEASURE_LABELS["brier"], "calibration_loss": "Calibration loss",
    "refinement_loss": "Refinement loss", "hull_refinement_loss": "Refinement after monotone recalibration",
}
ROC = "ROC curve"
ROC_TEXT = (
    "How well the stage ranks patients with the outcome above those without: each point is a "
    "cut-off on the probability. The convex hull joins the best cut-offs; the share of patients "
    "with the outcome on each of its segments is the isotonic calibration of those probabilities."
)
DRAWING_ROC = "drawing the ROC curve"
AUC = "AUC (area under the ROC curve)"
HULL_COLUMNS = {
    "score_high": "Highest probability", "score_low": "Lowest probability", "positives": "With outcome",
    "negatives": "Without outcome", "rate": "Share with outcome", "slope": "Slope",
}


def measure_text(value: float) -> str:
    """A measure as the page shows it (ECE, AUC): three decimals."""
    return f"{value:.3f}"


def horizon_summary(when: str, at_horizon: dict) -> str:
    """What the page shows for a list of the risk within a horizon (``when``: "1825 days",
    :func:`psl_triage.judging.horizon.horizon_span`), with its measures."""
    return (
        f"Risk within {md(when)} on the {at_horizon['n_test']} test rows the Train page "
        f"held out, after {plural(at_horizon['stage'], 'feature')}: the mean predicted risk against the Kaplan-Meier risk observed by the horizon, per total "
        "and per tenth of predicted risk (censoring respected; the Brier score is the Train page's test Brier "
        "of that stage). "
        f"Observed / expected {_with_interval(at_horizon, 'observed_expected', 2)}, Brier score "
        f"{_with_interval(at_horizon, 'brier', 3)}, AUC {_with_interval(at_horizon, 'auc', 3)} at the horizon "
        "(95 % intervals from 200 bootstrap resamples of the test rows)."
    )


def _with_interval(at_horizon, measure, digits):
    """A measure with its bootstrap interval: "0.95 (0.81 to 1.10)"."""
    low, high = at_horizon.get("intervals", {}).get(measure, (float("nan"), float("nan")))
    return interval_text(at_horizon[measure], low, high, digits)


def outcome_by_total(rows: str, stage: int) -> str:
    """What the paper's Figure 1 shows for these rows (a key of :data:`ROWS`) at ``stage``."""
    return (
        f"Each dot is a patient of the {ROWS[rows].lower()} at their total score after "
        f"{plural(stage, 'feature')}, at the top if they had the outcome, at the bottom if not (spread out a little "
        "so they do not overlap). The lines are calibrations fitted to these dots: the paper's "
        "isotonic (a staircase that never goes down) and beta (a smooth curve), and the sigmoid "
        "(a logistic curve in the total, the recommended setup's); the diamonds are the list's own "
        "probabilities."
    )


def band_words(n_boot: int) -> str:
    """How the flexible curve's band was made."""
    return (f"The band: {n_boot} bootstrap resamples of these rows (sup-t); ICI, E50, E90 "
            "and Emax have bootstrap intervals.")


# The Intervals page (pages/4_Intervals.py).
INTERVALS_INTRO = (
    "Every probability of the list is estimated from the training patients with that total "
    "score, so it comes with an interval: narrow where many patients had the total, wide where "
    "few did. The list can decide for a patient only when the whole interval lies on one side "
    "of the decision threshold. " + INTERVAL_PROMISE
)
INTERVALS_M_HELP = (
    "With M = 10 (the paper's choice) missing a patient with the outcome is ten times as "
    "bad as a needless referral, so the list refers from a probability of 1/11 = 9 % on."
)
INTERVALS_CONFIDENCE = CONFIDENCE_LEVEL
INTERVALS_CONFIDENCE_HELP = INTERVAL_PROMISE
DRAWING_INTERVALS = "drawing the intervals"
EVERY_STAGE = "Every stage"
EVERY_STAGE_TEXT = (
    "The same for every stage on one scale. Each feature splits the patients into more "
    "totals with fewer patients each, so the intervals widen as the list grows."
)
DRAWING_EVERY_STAGE = "drawing the intervals of every stage"


def interval_colours(threshold: float) -> str:
    """The threshold 1/(1+M) and what the colours of the interval plots mean."""
    return (
        f"Decision threshold 1/(1+M) = **{threshold:.1%}**. "
        ":orange[Orange]: the whole interval lies above it, **ruled in**. "
        ":blue[Blue]: the whole interval lies below it, **ruled out**. Grey: the interval contains it, "
        "**uncertain** (ask the next question). Hollow: no training patient had this total; its "
        "interval is borrowed from the neighbouring totals."
    )


def stage_heading(stage: int) -> str:
    return f"Stage {stage}"
