"""The words of the evidence sections the Evaluation and Validate pages share (ui/evidence.py):
decision curves, the calibration hierarchy with its flexible curve, subgroups, and a list
judged at another site.

A column's name comes from a file and is escaped here; everything returned is Markdown.
"""

import numpy as np

from psl_core.decision_curve import TREAT_ALL, TREAT_NONE
from psl_core.metrics import MEASURE_LABELS
from psl_core.subgroups import MIN_GROUP_EVENTS, MIN_GROUP_ROWS
from psl_triage.words.common import m_equals, noun, plural
from psl_triage.words.escape import md
from psl_triage.words.questions import NOT_MEASURED_ANSWER

HIERARCHY_WORDS = {
    "observed_expected": "O/E: observed over expected events (ideal 1)",
    "intercept": "Calibration intercept (ideal 0)",
    "slope": f"{MEASURE_LABELS['slope']} (ideal 1)",
    "ici": "ICI: mean distance of the calibration curve from the diagonal",
    "e50": "E50: its median",
    "e90": "E90: its 90th percentile",
    "emax": "Emax: its largest",
}
"""The calibration hierarchy's measures (:data:`psl_core.calibration_measures.HIERARCHY`), per code."""
SUBGROUP_WORDS = {
    "observed_expected": "O/E",
    "intercept": "calibration intercept",
    "slope": MEASURE_LABELS["slope"].lower(),
    "ici": "ICI",
    "c_statistic": "C-statistic",
    "net_benefit": "net benefit",
}
"""The measures compared within subgroups (:mod:`psl_core.subgroups`), per code, as a table's
headings and inside a sentence."""
MEASURE, ESTIMATE, LOWER, UPPER = "Measure", "Estimate", "Lower", "Upper"
"""The calibration hierarchy table's headings."""
GROUP, PATIENTS, EVENTS = "Group", "Patients", "Events"
"""The subgroup table's first headings (the measures follow)."""
NOT_DEFINED = "not defined"
TOO_SMALL = "too small to judge"
MISSING_GROUP = "missing"
"""The subgroup of the patients whose value is missing."""

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

# What the page was doing when an unexpected error stopped it (ui.shown_errors).
CHECKING_SAMPLE_SIZE = "checking the sample size"


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


def subgroup_note(threshold):
    """How the subgroup table's intervals are made and when a group is named."""
    return (
        f"Intervals 95 %: O/E from its events, intercept and slope from the logistic fit (Wald), "
        f"C-statistic by Newcombe's formula, net benefit at 1/(1+M) = {threshold:.1%} "
        "from 200 bootstrap resamples of the group. A group is named when its O/E or slope interval "
        "leaves out 1, its intercept interval leaves out 0, or its net benefit lies wholly below the "
        "better of treating all or none of the group's patients."
    )


def site_patients(site_name, n_patients, stage):
    """Which patients a site's evidence is on (plain text, for the report)."""
    return f"{site_name}: {n_patients} patients at {plural(stage, 'question')}"


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
        + (f"The star: the {n_bedside} patients here with an answer to every bedside question (a missing "
           f"value counts as {NOT_MEASURED_ANSWER} where the list learned where that answer goes)."
           if n_bedside else "No patient here answers every bedside question: the stop rule has no point.")
    )


def interval_text(estimate, low, high, digits=2):
    """An estimate with its interval: "0.91 (0.80 to 1.04)"; the estimate alone when the
    interval is not finite, "not defined" when the estimate is not."""
    if not np.isfinite(estimate):
        return NOT_DEFINED
    if not (np.isfinite(low) and np.isfinite(high)):
        return f"{estimate:.{digits}f}"
    return f"{estimate:.{digits}f} ({low:.{digits}f} to {high:.{digits}f})"


def stage_method(stage):
    """The method name of the list's curve at another stage than the one chosen."""
    return f"the list at {stage} {noun(stage, 'question')}"


def group_name(column, group):
    """A group as the sentences name it (Markdown, escaped): "age ≥ 25" or "age 20 to < 25" for
    a band of a numeric column, "race = 2" for a value."""
    band = group.startswith(("< ", "≥ ")) or " to < " in group
    return f"{md(column)} {md(group)}" if band else f"{md(column)} = {md(group)}"


def band_labels(cuts):
    """The labels of the bands a numeric column is cut into at ``cuts``: "< 54", "54 to < 61", "≥ 61"."""
    return ([f"< {cuts[0]:g}"] + [f"{cuts[i - 1]:g} to < {cuts[i]:g}" for i in range(1, len(cuts))]
            + [f"≥ {cuts[-1]:g}"])


def _avoided_words(avoided):
    """The net reduction in unnecessary interventions against treating all, said the right way
    round: a negative one is more interventions, not "avoiding −3.7"."""
    if not np.isfinite(avoided):
        return ""
    if round(avoided, 1) > 0:
        return f", avoiding {avoided:.1f} unnecessary interventions per 100 patients against treating all"
    if round(avoided, 1) < 0:
        return (f", the equivalent of {-avoided:.1f} more unnecessary interventions per 100 patients "
                "than treating all")
    return ", with as many unnecessary interventions as treating all"


_VERDICTS = {
    "beats": "beats treating everyone and treating no one, its interval above both",
    "above": "is above treating everyone and treating no one, but its interval reaches {default}",
    "equals": "equals {default} at this threshold: it decides as that default would",
    "not above": "does not beat {default}, its interval reaching it",
    "below": "falls below {default}, its interval wholly below",
}
_DEFAULTS = {TREAT_ALL: "treating everyone", TREAT_NONE: "treating no one"}


def decision_curve_sentence(at_list, everyone, verdict, cost_ratio, threshold, stop_rule):
    """One sentence on the list's net benefit at M's threshold against the defaults.

    ``at_list``: the list's row at the threshold (mean, lower, upper, interventions_avoided);
    ``everyone``: treating everyone's net benefit; ``verdict``: (where the list stands, the
    better default) by :func:`psl_triage.judging.evidence.net_benefit_verdict`; ``stop_rule``:
    (costs counted, net benefit) of each bedside stop rule.
    """
    standing, default = verdict
    sentence = (
        f"At {m_equals(cost_ratio)} (threshold 1/(1+M) = {threshold:.1%}) the list's net benefit is "
        f"{at_list['mean']:.3f} true positives per patient ({at_list['lower']:.3f} to {at_list['upper']:.3f}); "
        f"treating everyone gives {everyone:.3f}, treating no one 0: the list "
        + _VERDICTS[standing].format(default=_DEFAULTS[default])
    )
    sentence += _avoided_words(at_list.get("interventions_avoided", np.nan))
    for costed, net_benefit in stop_rule:
        sentence += f". The bedside stop rule{' (question costs counted)' if costed else ''}: {net_benefit:.3f}"
    return sentence + "."


def too_many_groups(column, count, most):
    """A column that makes more groups than subgroups can compare (Markdown, escaped)."""
    return (f"{md(column)} has {count} different values: subgroups need a column with at most {most} "
            "(sex, a site, a category), or a numeric one, which is cut into bands.")


def subgroup_sentences(column, named, small, judged, n_groups):
    """Sentences naming the groups that differ (``named``: group -> measure codes), those too
    small to judge, and how to read them (Markdown, escaped)."""
    sentences = []
    for group, measures in named.items():
        words = ", ".join(SUBGROUP_WORDS[m] for m in measures)
        sentences.append(
            f"In the group **{group_name(column, group)}** the list's {words} differ{'s' if len(measures) == 1 else ''} "
            "beyond its interval: check the list there before using it for these patients."
        )
    if small:
        sentences.append(
            f"Too small to judge (fewer than {MIN_GROUP_ROWS} patients or fewer than {MIN_GROUP_EVENTS} "
            "of either outcome): "
            f"{', '.join(group_name(column, g) for g in small)}."
        )
    if not judged:
        sentences.append(f"No group of {md(column)} is large enough to judge: none is compared.")
    elif not named:
        sentences.append(f"No group of {md(column)} differs beyond its interval.")
    elif n_groups >= 5:
        sentences.append(f"With {n_groups} groups, one may differ by chance alone (1 in 20 at 95 %): "
                         "confirm a named group on other patients.")
    return sentences


def horizon_source(n_splits, stage=None):
    """Where a horizon list's report evidence comes from (plain text): the Evaluation page's
    comparison (``stage``: the lists' stage, None for the whole list)."""
    return (f"held-out patients of {n_splits} random splits (2/3 train, 1/3 test) at the horizon, censoring "
            "weighted, mean (standard deviation) over the splits, next to a Cox model and the yes/no list"
            + ("" if stage is None else f", at {plural(stage, 'question')}"))


def held_out_source(n_splits, test_size, stage):
    """Where the report's held-out evidence comes from (plain text)."""
    return (f"held-out patients of {n_splits} Monte Carlo splits (test fraction "
            f"{test_size:.2f}), mean and 95 % interval over the splits, at {plural(stage, 'question')}")
