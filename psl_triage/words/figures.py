"""The words of every plotly figure (:mod:`psl_triage.plots`): titles, axis titles, trace
names, hover templates and annotations.

Names from files reach these templates already escaped with :func:`psl_triage.words.plotly_text`
(the figure functions escape them once); plotly's own hover placeholders (``%{y:.1%}``) are
written ``%{{...}}`` in the templates that :meth:`str.format` fills.
"""

from psl_triage.words.common import CONFIDENCE_LEVEL
from psl_triage.words.escape import plotly_text

STAGE = "Stage"
PROBABILITY = "Probability"
ROWS = "Rows"
START = "Start"
QUESTION_TICK = "Q{k}"
"""The bedside chart's tick of the k-th question ("Q1"), after :data:`START`."""
INTERVAL = "Interval"
TOTAL_HOVER = "total %{customdata}<extra>"
ISOTONIC_CALIBRATION = "isotonic calibration"
BETA_CALIBRATION = "beta calibration"
SIGMOID_CALIBRATION = "sigmoid calibration"
LIST_ESTIMATE = "the list's estimate"
CALIBRATION_TITLE = "Stage {stage}: outcome and calibrated probability by total score"
TOTAL_SCORE = "Total score"
PERFECT_CALIBRATION = "perfect calibration"
RELIABILITY_HOVER = "predicted %{x:.2f}, observed %{y:.2f} (%{customdata[1]:.2f} to %{customdata[2]:.2f}; %{customdata[0]} rows)<extra></extra>"
RELIABILITY_TITLE = "Reliability ({n_bins} bins): expected calibration error {ece:.3f}"
MEAN_PREDICTED_PROBABILITY = "Mean predicted probability"
OBSERVED_RATE_OF_POSITIVES = "Observed rate of positives"
HORIZON_CALIBRATION_TITLE = "Risk by the horizon: observed (Kaplan-Meier) against predicted"
HORIZON_BY_TOTAL, HORIZON_BY_TENTH = "per total", "per tenth of predicted risk"
MEAN_PREDICTED_RISK, OBSERVED_RISK_KM = "Mean predicted risk", "Observed risk (Kaplan-Meier)"
HORIZON_HOVER = "group %{customdata[0]}: predicted %{x:.3f}, observed %{y:.3f} (%{customdata[1]} patients)<extra></extra>"
REFINEMENT_LOSS = "refinement loss"
CALIBRATION_LOSS = "calibration loss"
BRIER_SPLIT_TITLE = "Brier score = calibration loss + refinement loss"
SQUARED_ERROR = "Squared error"
ROC_CURVE = "ROC curve"
ROC_CONVEX_HULL = "ROC convex hull"
ROC_TITLE = "ROC curve and its convex hull"
FALSE_POSITIVE_RATE = "False positive rate"
TRUE_POSITIVE_RATE = "True positive rate"
BAND = "{name}: 95% band"
SHARE_DECIDED_PANEL = "Share decided and accuracy on the decided"
MEAN_LOSS_PANEL = "Mean loss on the decided"
COVERAGE = "coverage (share decided)"
ACCURACY_ON_DECIDED = "accuracy on the decided"
LOSS_ON_DECIDED = "loss on the decided"
CONFIDENCE_LEVEL_AXIS = CONFIDENCE_LEVEL
OTHER_STAGES = "the list at other stages (hover: which)"
DECISION_CURVES_TITLE = "Decision curves: net benefit on held-out patients"
THE_LIST = "the list"
NET_BENEFIT_HOVER = "{method}: %{{y:.3f}} at %{{x:.0%}}<extra></extra>"
THRESHOLD_AXIS = "Threshold probability (acting on patients above it)"
NET_BENEFIT_AXIS = "Net benefit (true positives per patient)"
FLEXIBLE_CALIBRATION_TITLE = "Calibration curve with its 95% band"
FLEXIBLE_CALIBRATION_CURVE = "flexible calibration curve"
CURVE_BAND = "95% band of the curve"
OBSERVED_RATE_PER_TOTAL = "observed rate per total (Clopper–Pearson 95%)"
OBSERVED_RATE_HOVER = "total %{customdata[0]}: predicted %{x:.2f}, observed %{y:.2f} (%{customdata[1]} patients)<extra></extra>"
PREDICTED_PROBABILITY = "Predicted probability"
OBSERVED_RATE = "Observed rate"
INTERVAL_HOVER = "total %{x}: %{y:.1%} [%{customdata[0]:.1%}, %{customdata[1]:.1%}], %{customdata[2]} positive / %{customdata[3]} negative training rows<extra>"
STAGE_TITLE = "Stage {k}"
UPPER_BOUND = "upper bound"
BEDSIDE_INTERVAL_HOVER = "interval %{customdata[0]:.1%} to %{customdata[1]:.1%}<extra></extra>"
PROBABILITY_HOVER = "probability %{y:.1%}<extra></extra>"
QUESTIONS_ANSWERED = "Questions answered"
BASE_RATE = "base rate"
NO_TRAINING_CASE = "no training case"
THRESHOLD_NAME = "decision threshold 1/(1+M)"
OBSERVED_RATE_INTERVAL = "observed rate ({level} interval)"
THRESHOLD_LINE = "{m}: threshold 1/(1+M) = {threshold:.1%}"
"""The decision curves' line at the threshold (``m``: :func:`~psl_triage.words.common.m_equals`)."""
STAGE_INTERVALS_TITLE = "Stage {stage}: {level} intervals per total, {m}"
EVERY_STAGE_INTERVALS_TITLE = "Every stage: {level} intervals per total against 1/(1+M), {m}"
LEVEL_INTERVAL = "{level} interval"
"""The bedside chart's band (``level``: :func:`~psl_triage.words.common.level_text`)."""
THRESHOLD_ANNOTATION = "decision threshold 1/(1+M) = {threshold}"


def cases(label):
    """The points of one class in the calibration figure: "heart disease cases" (``label``, a
    class name from the file, escaped here)."""
    return f"{plotly_text(label)} cases"


def probability_axis(positive, outcome=False):
    """The probability axis: "P(heart disease)", or "P(heart disease) / outcome" where the
    outcomes are drawn too (``positive``, a class name from the file, escaped here)."""
    return f"P({plotly_text(positive)})" + (" / outcome" if outcome else "")
