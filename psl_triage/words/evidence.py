"""The words of the evidence sections the Evaluation and Validate pages share (ui/evidence.py):
decision curves, the calibration hierarchy with its flexible curve, subgroups, and a list
judged at another site.

A column's name comes from a file and is escaped here; everything returned is Markdown.
"""

from psl_triage.words.escape import md

THRESHOLD_RANGE = "Threshold probabilities shown (%)"
THRESHOLD_RANGE_HELP = (
    "Net benefit is drawn for clinicians who would act above any threshold in this range; "
    "1 % to 50 % by default (Vickers)."
)
DECISION_CURVE_NOTE = (
    "Net benefit = true positives / n − false positives / n × t/(1−t) (Vickers & Elkin 2006): "
    "a false alarm weighs t/(1−t) of a found case, so at t = 1/(1+M) it weighs 1/M, M's trade-off. "
    "The list acts on patients whose risk is above t; the star is the bedside stop rule as the "
    "Triage page uses it (ruled in, or uncertain and treated as positive), at M's threshold only."
)
GROUP_COLUMN = "Compare groups of patients by"
GROUP_COLUMN_PLACEHOLDER = "Choose a column (sex, age, site…)"
GROUP_COLUMN_HINT = "Choose a column to see every measure within its groups."
GROUP_BANDS = "Bands of equal size"
SAMPLE_SIZE = "Is this table large enough?"
CALIBRATION = "Calibration: mean, weak and moderate"
CALIBRATION_NEEDS_BOTH = "Calibration needs patients with and without the outcome at this stage."
UTILITY = "Clinical utility at this site"
SUBGROUPS = "Subgroups"
DEVELOPMENT_SIZE = "Is the table large enough? Riley's sample size criteria"
ANTICIPATED_C = "Anticipated C-statistic (AUC) of the list, if known from earlier work"
ANTICIPATED_C_PLACEHOLDER = "unknown: conservative R²"
ANTICIPATED_C_HELP = (
    "Riley et al. 2021 turn an anticipated C-statistic into the R² the criteria need; "
    "without it the criteria assume a Nagelkerke R² of 0.15."
)
OTHER_SITE = "the other site's table"
"""A site table's name when none is given."""
SITE_CURVES_TITLE = "Decision curves: net benefit at this site"
SITE_BAND = (
    "The band holds the whole curve with 95 % confidence ({n_boot} bootstrap resamples of the patients, "
    "sup-t); the points are the observed rate of every total with its Clopper–Pearson interval; ICI, E50, "
    "E90 and Emax have bootstrap intervals."
)


def calibration_note(band_words=""):
    """What the calibration hierarchy and the flexible curve measure; ``band_words`` say how
    the curve's band was made."""
    return (
        "Mean calibration (O/E), weak (intercept and slope) and moderate (the flexible curve: a "
        "logistic regression of the outcome on a restricted cubic spline of the list's log-odds; "
        "ICI, E50, E90 and Emax are the mean, median, 90th percentile and largest distance between "
        "the curve and the list's risks over the patients; Van Calster et al. 2016, Austin & "
        f"Steyerberg 2019). {band_words}"
    )


def subgroup_note(threshold, column):
    """How the subgroup table's intervals are made and when a group is named."""
    return (
        f"Intervals 95 %: O/E from its events, intercept and slope from the logistic fit (Wald), "
        f"C-statistic by Newcombe's formula, net benefit at 1/(1+M) = {threshold:.1%} "
        "from 200 bootstrap resamples of the group. A group is named when its O/E or slope interval "
        "leaves out 1, its intercept interval leaves out 0, or its net benefit lies wholly below the "
        f"better of treating all or none of {md(column)}'s group."
    )


def site_patients(site_name, n_patients, stage):
    """Which patients a site's evidence is on (plain text, for the report)."""
    return f"{site_name}: {n_patients} patients at {stage} questions"


def one_risk(risk, ratio, low, high):
    """A stage at which every patient has the same risk: only mean calibration applies."""
    return (
        f"At this stage every patient has the same risk, {risk:.1%}: only mean calibration "
        f"applies, O/E = {ratio:.2f} ({low:.2f} to {high:.2f}). Judge a later stage for the rest."
    )


def site_utility_note(n_bedside):
    """How the site's decision-curve bands are made, and what the star stands for."""
    return (
        "Bands: 95 % percentile intervals from 200 bootstrap resamples of this table's patients. "
        + (f"The star: the {n_bedside} patients here whose answers to the bedside questions are all known."
           if n_bedside else "No patient here answers every bedside question: the stop rule has no point.")
    )
