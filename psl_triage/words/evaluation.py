"""The Evaluation page's words: what the repeated splits measure, the three-way view and the
evidence sections' introductions.

The class name and the cost unit come from the model file: they are escaped here.
"""

from psl_core.evaluation import FIXED_STAGE, STEPWISE
from psl_triage.words.common import CONFIDENCE_LEVEL, cost_text, duration, level_text, m_equals, noun, one_in, plural
from psl_triage.words.escape import md

# The page's title, headings and widget labels.
TITLE = "Evaluation"
NEEDS_LIST = ": its settings are what this page evaluates"
DATA_PURPOSE = "evaluate on"
RUN_DONE = "Done: {n_splits} splits in {seconds:.1f} s"
RUN_COMPARISON = "Run the comparison"
RANDOM_SPLITS = "Random splits"
RULE_LABEL = "Rule"
STAGE_LABEL = "Stage"
QUESTIONS_ASKED_COLUMNS = {"confidence": "Confidence level", "mean": "Questions asked (mean)"}
"""The headers of the table of questions asked by the bedside rule, by column."""
FITTING_SPLITS = "Fitting on every split…"
SPLITS = "Random splits"
SPLITS_HELP = "The paper uses 100."
TEST_FRACTION = "Test fraction"
TEST_FRACTION_HELP = "The paper holds out 1/3."
CONFIDENCE = CONFIDENCE_LEVEL
RUN = "Run the evaluation"
STAGEWISE_HEADER = "Stage by stage, against logistic regression"
DOWNLOAD_SPLITS = "Download every split (CSV)"
THREE_WAY_HEADER = "Decide or refer: the three-way view"
UTILITY_HEADER = "Clinical utility: decision curves"
EVIDENCE_STAGE = "Questions asked (stage) for the curves and the calibration below"
HORIZON_STAGE = "Questions asked (stage) of the lists compared; each split's list stops at its last if shorter"
EVERY_STAGE = "Also the list's curve at every other stage (thin lines)"
CALIBRATION_HEADER = "Calibration on held-out patients"
SUBGROUPS_HEADER = "Subgroups"

INTRO = (
    "One train/test split can be lucky. Here the data are split at random many times; each "
    "time a list with the current list's settings is learned on the training part and judged "
    "on the test part, next to logistic regression on the same yes/no features "
    "(regularized with C = 1, and without penalty). The lines are means over the splits, the "
    "shaded bands their 95 % confidence intervals. Each split's list skips the internal "
    "cross-validation (it only chooses the recommended length and how far to pull the "
    "probabilities toward the base rate), so its probabilities are as learned."
)
RULES = {
    STEPWISE: "Bedside: the Triage page's stop rule",
    FIXED_STAGE: "Every patient is asked the first questions up to a stage",
}
"""The three-way view's rules, in words."""
STARTING_WORKERS = "Starting the workers…"


def splits_done(done, total, seconds_left=None):
    """The progress bar's text as the splits finish: "1 of 100 splits done, about 3 min left"."""
    left = "" if seconds_left is None or done == total else f", about {duration(seconds_left)} left"
    return f"{done} of {total} {noun(total, 'split')} done{left}"


def run_estimate(seconds, n_splits, workers, fit_seconds):
    """Before a run: how long it should take, judged by the list's training time (``workers``:
    the cores the splits share; None for splits run one after another)."""
    where = f"on {workers} {noun(workers, 'core')}" if workers else "one after another"
    paper = "; the paper uses 100" if workers else ""
    return (
        f"About {duration(seconds)} for {n_splits} {noun(n_splits, 'split')} {where}, judged by the "
        f"{duration(fit_seconds)} the list took to train (fewer splits finish sooner{paper})."
    )


RUN_FIRST = "Press **Run the evaluation**. The splits run in parallel on every core."
"""No timing here: how long the splits take is measured in bench/README.md."""
BETTER = (
    "Lower is better for expected entropy (how uncertain the estimates are), the Brier score "
    "and the expected loss; higher is better for the AUC (ranking)."
)
DECISION_CURVES = (
    "Is deciding with the list better than treating everyone or no one? Net benefit counts the "
    "patients correctly acted on, less the false alarms weighted by the threshold's odds, on "
    "each split's test patients; the bands are 95 % intervals of the mean over the splits."
)
CALIBRATION_BANDS = (
    "Here every number is the mean over the splits with its 95 % interval; the band "
    "holds 95 % of the splits' curves, drawn where at least half of the splits have patients."
)
SUBGROUPS = (
    "The same measures within groups of patients, on the held-out patients of one split "
    "(the Calibration page's): a list calibrated overall may not be for every group."
)


HORIZON_CURVES_TITLE = "Decision curves at the horizon: net benefit on held-out patients, censoring weighted"

# What the page was doing when an unexpected error stopped it (ui.shown_errors).
READING_M = "reading M"
RUNNING = "running the evaluation"
SUMMARIZING_SPLITS = "summarizing the splits"
DRAWING_CURVES = "drawing the decision curves"
SUMMARIZING_CALIBRATION = "summarizing the held-out calibration"
JUDGING_SUBGROUPS = "judging the subgroups"
COMPARING_WITH_COX = "comparing the list with the Cox model"
DRAWING_THREE_WAY = "drawing the three-way view"


def horizon_intro(when):
    """What the page compares for a list of the risk within ``when`` ("1825 days",
    :func:`psl_triage.judging.horizon.horizon_span`; follow-up data)."""
    return (
        f"This list predicts the risk of the event within {md(when)} (follow-up data). On random "
        "splits (2/3 train, 1/3 test) its settings are compared at the horizon, censoring respected, with a "
        "Cox model on all features and with the same list trained on \"event during follow-up\": mean "
        "(standard deviation) over the splits, and the decision curves at the horizon (net benefit with "
        "censoring weights, mean and 95 % band over the splits)."
    )


def expected_loss(positive_label):
    """How the list and logistic regression decide for the expected loss."""
    return (
        f"Expected loss: the list decides {md(positive_label)} when the upper end of its interval is above "
        "1/(1+M) (risk-averse), logistic regression when its probability is; a missed case costs M, "
        "a false alarm 1."
    )


def run_settings(settings):
    """"100 splits, test fraction 0.33, M = 10, 95% intervals." of a run's settings."""
    return (
        f"{settings['n_splits']} splits, test fraction {settings['test_size']:.2f}, "
        f"{m_equals(settings['cost_ratio'])}, {level_text(settings['confidence'])} intervals."
    )


def three_way(tolerance, change_value=None, unit=""):
    """The three-way view explained; with question costs (``change_value``, the value of a
    changed outcome, in ``unit``) the bedside rule's cost stop too."""
    text = (
        "A patient is *decided* when the list rules them in (the interval lies wholly above 1/(1+M)) "
        "or out (wholly below it); otherwise the outcome is uncertain: ask more, or refer. A higher "
        "confidence level means wider intervals: fewer patients decided, but those more reliably. "
        "Coverage is the share of test patients decided; accuracy and loss are over the decided ones. "
        "The bedside rule is the Triage page's with its default settings: the recommended questions, "
        f"stopping when ruled in or out and fewer than {one_in(tolerance)} training patients "
        "with the same answers changed outcome with more questions, when no answer can change the "
        "outcome, or at the end."
    )
    if change_value is None:
        return text
    return text + (
        " This list has question costs: the rule also stops before a question that costs more than "
        f"{cost_text(change_value, md(unit))} (the value of a changed "
        "outcome) times the share of training patients like the patient whose outcome still changed."
    )


def no_question_asked(cost_ratio):
    """Why the bedside rule asks nothing at any confidence level."""
    return (
        "At every confidence level the list stops before its first question: no answer "
        f"changes the outcome at {m_equals(cost_ratio)}, so at the bedside every "
        "patient gets the same outcome. A larger or smaller M, or the fixed-stage rule, "
        "shows what the questions add."
    )


def held_out_patients(n_patients, stage):
    return f"{n_patients} held-out patients at {plural(stage, 'question')}"
