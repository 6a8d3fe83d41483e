"""The Validate page's words: the report on another site's table, in sentences and a table,
and the page's own sentences.

Numbers and codes come from :func:`psl_core.validation.validation_report`. Names from the
site's table or the model file (columns, values, the table's name) are escaped here.
"""

import math

import pandas as pd

from psl_core.evaluation import PSL
from psl_core.validation import MEASURE_LABELS, MEASURES
from psl_triage.words.common import first_questions, noun, share, share_of
from psl_triage.words.escape import label_md, md
from psl_triage.words.lists import UNNAMED_LIST
from psl_triage.words.questions import NOT_MEASURED_ANSWER

# What the page was doing when an unexpected error stopped it (ui.shown_errors).
READING_TABLE = "reading the table"
CODING_TABLE = "coding the table"
JUDGING_LIST = "judging the list"
JUDGING_EVIDENCE = "judging the evidence at this site"
READING_FOLLOW_UP = "reading the follow-up"
JUDGING_AT_HORIZON = "judging the list at the horizon"
RECALIBRATING = "recalibrating the list"
A_NUMBER = "a number"
"""The placeholder of the number a site's value stands for."""


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


def mean_calibration_words(report):
    """Whether the list's average risk is off here, read with the interval of observed − expected:
    a difference whose interval holds 0 is within chance, not a sign of under- or over-estimation."""
    difference = report.measures.loc["observed_minus_expected", "estimate"]
    low, high = report.measures.loc["observed_minus_expected", ["lower", "upper"]]
    if abs(difference) <= 0.02:
        return "about right on average."
    way = "under" if difference > 0 else "over"
    if low <= 0 <= high:
        return (f"a difference within chance (the {100 * report.confidence:g} % interval of observed − expected, "
                f"{_fmt(low)} to {_fmt(high)}, includes 0), so no sign that it {way}-estimates the risk here.")
    return f"it {way}-estimates the risk here."


def report_sentences(report):
    """Plain sentences reading the report: who was judged, calibration, discrimination."""
    m = report.measures["estimate"]
    stage_words = (
        "the prior (no question)" if report.stage == 0 else
        f"stage {report.stage} ({first_questions(report.stage)})"
    )
    sentences = [
        f"Judged at {stage_words} on {report.n_rows} patients "
        f"({report.n_positive} positive, {share(report.observed_rate, 1)})." + missing_answers_said(report),
        f"The list predicts {share(report.mean_predicted, 1)} on average against {share(report.observed_rate, 1)} observed: "
        + mean_calibration_words(report),
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
                         f"{share(m['auc'])} of the time.")
    return sentences


# ------------------------------------------------------------------ the page's sentences
TITLE = "Validate at another site"
LIST_LABEL = "List to validate"
TABLE_HEADER = "1. The other site's table"
MATCH_HEADER = "2. Match the columns"
OUTCOME_COLUMN = "Outcome column"
OUTCOME_PLACEHOLDER = "Choose the column holding the outcome"
REPORT_HEADER = "3. How the list does here"
STAGE_LABEL = "Judge the list after this many questions"
EVERY_STAGE = "Every stage"
RECALIBRATE_HEADER = "4. Recalibrate at this site"
VALUE_PLACEHOLDER = "choose the list's value"
REST_MISSING = "Count the values left without a mapping as missing"
KEEP = "Questions to keep"
MODEL_NAME = "Model name"
RECALIBRATE = "Recalibrate at this site and save as a new version"
DOWNLOAD_RECALIBRATED = "Download the recalibrated model file (JSON)"
USE_RECALIBRATED = "Use the recalibrated list in this session"
INTRO = (
    "A list learned at one hospital may not fit another: a different case mix, other habits of "
    "measuring. Upload a labelled table from the other site to see how a list does "
    "there, and, if its risks are off, re-estimate them from that table: the questions and "
    "points stay, the probabilities become the new site's."
)
NO_LIST = (
    "There is no list to validate yet. Train one (or load a model file) on the **Train** page, "
    "or save one there; every saved list can be chosen here."
)
UPLOAD_WHAT = " with the same questions and the outcome, one row per patient"
UPLOAD_FIRST = "Upload a table to validate the list on."
UNMATCHED = (
    "These columns of the list have no column of the same name here. Choose the column that "
    "holds each, or *not recorded at this site* (its answers then count as missing)."
)
NOT_RECORDED = "not recorded at this site"
ALL_FOUND = "All {n_columns} columns the list asks about were found by name."
REPORT_CAPTION = (
    "Intervals: {n_boot} bootstrap resamples of the patients (seed 0). Calibration-in-the-large "
    "is the intercept of a logistic fit with the list's log-odds as offset (0 is perfect; above 0 the "
    "list predicts too low); the slope is that of the list's log-odds (1 is perfect)."
)
CANNOT_RECALIBRATE = (
    "This table cannot recalibrate even the first stage: it needs {min_rows} "
    "patients with both outcomes among them."
)
RECALIBRATE_INTRO = (
    "Keeps the questions, their order and their points, and re-estimates every stage's "
    "probabilities and intervals from this table (each stage from the patients who answer its "
    f"questions, a missing answer counting as {NOT_MEASURED_ANSWER} where the list learned where it goes), with the list's own calibration. The original file is not changed: the result "
    "is saved as a new version with its origin recorded."
)


def validating(identity):
    """"Validating <the list's identity>" (``identity``: :func:`psl_triage.model_file.writer.list_identity`, escaped)."""
    unnamed = f"**{UNNAMED_LIST}**"
    return f"Validating {identity.replace(unnamed, unnamed.lower(), 1)}"


def earlier_upload(name):
    """The caption of a site table kept from an earlier upload."""
    return f"Using {md(name)}, uploaded earlier in this session; upload another table to replace it."


def table_size(name, n_rows, n_columns):
    """"site.csv: 294 rows, 14 columns." (the name escaped)."""
    return f"{md(name)}: {n_rows} rows, {n_columns} columns."


def map_column_label(need):
    """The select box label of a column of the list without a match here."""
    return f"{label_md(need.label)} (column {label_md(repr(need.name))} at training; question {need.first_stage})"


def bands_label(mismatch):
    """The checkbox that sorts a numeric column into the list's category bands."""
    return ("Sort the numbers here into the list's bands "
            f"({', '.join(label_md(mismatch.training_labels.get(v, v)) for v in mismatch.training_values)})")


def value_here_label(value):
    """The label of the input of what a value here means in the list's coding."""
    return f"{label_md(value)} here is"


def coding_option(value, labels):
    """A value of the list's coding in a select box (plain text): "2 (grade 2)"."""
    return value if labels.get(value, value) == value else f"{value} ({labels[value]})"


def values_mapped(source):
    """A column whose every value here is mapped to the list's coding."""
    return f"The values of {md(source)} are mapped to the list's coding."


def positive_values_label(outcome, positive_label):
    """The label of the outcome's positive values, naming the list's positive class."""
    return f"Values of {label_md(outcome)} that count as positive ({label_md(positive_label)})"


def stage_option(stage, n_rows):
    """A stage to judge the list at, with the patients who answer all its questions."""
    return f"{stage} ({n_rows} patients with every answer known or {NOT_MEASURED_ANSWER})"


def kept_questions(supported, min_rows):
    """Why a recalibrated list keeps only the first ``supported`` questions."""
    return (("No question has" if supported == 0 else "Only the first question has" if supported == 1 else
             f"Only the first {supported} questions have")
            + f" at least {min_rows} patients with every answer known or {NOT_MEASURED_ANSWER} and both outcomes here; "
            "a recalibrated list keeps at most that many.")


def after_recalibration(after):
    """How the recalibrated list does on the table it was fitted to (``after``: a row of
    :func:`psl_core.validation.stagewise_validation`)."""
    return (f"On this same table (so optimistic: the probabilities were fitted to it), after "
            f"{after.name} {noun(after.name, 'question')} the recalibrated list has calibration-in-the-large "
            f"{after['citl']:.2f} and {slope_words(after['slope'])}. "
            "Judge it on other patients of this site.")


def recalibrated_origin(site_name, message):
    """The Train page's origin line of a recalibrated list used in the session (plain text)."""
    return f"Recalibrated at another site ({site_name}); {message}"


# ------------------------------------------------------------------ a list of the risk within a horizon
def other_values_censored(event, events, others):
    """A site note (plain text, escaped where shown): an event column of more than two values
    with its event values chosen; the others count as censored, as on the Data page."""
    return (
        f"The event column {str(event)!r} has {len(events) + len(others)} values: "
        f"{', '.join(map(str, events))} {'counts' if len(events) == 1 else 'count'} as the event, "
        f"{', '.join(map(str, others))} as censored (competing events are not modelled)."
    )


def horizon_intro(when):
    """What validating a horizon list needs and measures (``when``: "1000 days", words.lists.within)."""
    return (
        f"This list predicts the risk of the event within {md(when)} (follow-up data). Choose the "
        "site's follow-up time and event columns: the list is judged at that horizon, censoring "
        "respected (patients censored before it drop out and the patients followed like them are "
        "weighted up to stand in for them)."
    )


TIME_LABEL = "Follow-up time column (in the list's time unit)"
EVENT_COLUMN = "Event column"
CHOOSE_TIME = "Choose the column holding the follow-up time (time to the event, or to last contact)."
CHOOSE_EVENT = "Choose the event column (the event happened, or the patient was censored)."


def event_values_label(event):
    """The label of the event column's values that mean the event happened."""
    return f"Values of {label_md(event)} that mean the event happened"


def missing_answers_said(report):
    """How the report judged the patients with a missing answer (a yes/no or a horizon
    report), as sentences following the one on the patients judged ("" without any), one per
    kind of column (:func:`psl_core.validation.stage_totals`): on a question whose column had
    missing training values, a missing answer is "not recorded" and counts as yes or no as the
    list learned, as that answer does at the bedside; on one whose column had none, the list
    learned nothing for it (the bedside offers only "unknown" there and shows the range over
    both answers, where a prediction would take the more common training answer), so those
    patients are left out, with the columns."""
    said = ""
    if report.n_not_measured:
        said += (f" {report.n_not_measured} of them {'has' if report.n_not_measured == 1 else 'have'} a missing "
                 "answer to a question whose column had missing values in training: it counts as "
                 f"\"{NOT_MEASURED_ANSWER}\", yes or no as the list learned, as that answer does at the bedside.")
    if report.n_missing:
        columns = ", ".join(md(repr(str(column))) for column in report.undirected)
        said += (f" {report.n_missing} {noun(report.n_missing, 'patient')} with a missing answer to {columns} "
                 f"{'is' if report.n_missing == 1 else 'are'} left out: no value was missing there in training, so "
                 "the list learned no direction for a missing answer. At the bedside it stays unknown and the list "
                 "shows the range over both answers; a single prediction would take the more common training "
                 "answer, a guess. Fill those values in to judge these patients.")
    return said


def horizon_sentences(report, when, competing_note):
    """Plain sentences reading a :class:`psl_triage.judging.validation_horizon.HorizonReport`."""
    counts = report.counts
    censored = counts["censored"]
    sentences = [
        f"Judged at stage {report.stage} on {report.n_rows} patients"
        f": {counts['events']} had the event within {md(when)}, {counts['beyond']} were followed beyond it and "
        f"{censored} {'was' if censored == 1 else 'were'} censored before it "
        f"({share_of(censored, counts['n'])}): their outcome at {md(when)} is unknown, so they count "
        "through censoring weights." + missing_answers_said(report),
        f"The list predicts {share(report.mean_predicted, 1)} on average against {share(report.observed, 1)} "
        f"observed (Kaplan-Meier) within {md(when)}: observed / expected {_fmt(report.observed_expected, 2)}.",
        f"Brier score at the horizon {_fmt(report.brier)}; AUC at the horizon {_fmt(report.auc, 2)}"
        " (a patient with the event by the horizon against one still free of it beyond).",
        censoring_said(report, when),
        competing_note,
    ]
    return [sentence for sentence in sentences if sentence]


def censoring_said(report, when):
    """What the report says when the site's censoring by the horizon is not the training rows'
    (:attr:`psl_triage.judging.validation_horizon.HorizonReport.censoring_differs`), else ""."""
    if not report.censoring_differs:
        return ""
    return (f"Follow-up here differs from the training table's: {share(report.uncensored, 0)} of these patients "
            f"would stay in follow-up (uncensored) to {md(when)}, against {share(report.uncensored_trained, 0)} "
            "in training. The censoring weights above come from this site's own patients, so the measures "
            "are not skewed by the training table's follow-up.")


def horizon_measures_table(report):
    """The measures at the horizon for display: measure, estimate, 95 % interval (bootstrap of
    the site's patients), perfect value."""
    curves = report.curves
    at = curves[(curves["method"] == PSL) & (curves["threshold"] == report.threshold)]
    net = (float(at["lower"].iloc[0]), float(at["upper"].iloc[0])) if len(at) else (float("nan"), float("nan"))
    rows = [
        ("Observed / expected at the horizon", report.observed_expected, "1", "observed_expected"),
        ("Brier score at the horizon (censoring weighted)", report.brier, "0", "brier"),
        ("AUC at the horizon (time-dependent)", report.auc, "1", "auc"),
        (f"Net benefit at the threshold {report.threshold:.1%}", report.net_benefit, "", None),
    ]
    nan = (float("nan"), float("nan"))
    return pd.DataFrame([
        {"Measure": name, "Estimate": _fmt(value),
         "95 % interval": "{} to {}".format(*map(_fmt, report.intervals.get(key, nan) if key else net)),
         "Perfect": ideal}
        for name, value, ideal, key in rows
    ])


HORIZON_TOTAL = "Total"
HORIZON_TENTH = "Tenth of predicted risk"
HORIZON_CURVES_TITLE = "Decision curve at the horizon: net benefit at this site"
HORIZON_RECALIBRATE = (
    "The risks within the horizon are re-estimated from the patients who count at it, each "
    "weighted by the inverse probability of being still followed then (censoring weights), as "
    "the list was trained."
)
