"""Cost-weighted decisions and stopping at the bedside (paper, Sec. 5.4; Ciucci).

A missed case (false negative) costs M, a false alarm (false positive) costs 1. For a
probability p the expected loss of deciding is ``min(1 - p, M p)``: deciding positive
costs (1 - p) in expectation, negative costs M p; so the decision is positive exactly
when p > 1 / (1 + M). The risk-averse variant uses the interval's upper bound u in
place of p (a possibly under-estimated risk is not allowed to send a patient home).

The clinician answers one feature at a time; :func:`triage_step` says after each answer
what the list knows and whether to stop:

- ``"confident"``: the whole interval lies on one side of 1 / (1 + M);
- ``"settled"``: whatever the answers to the remaining features, the decision would be
  the same at every later stage (checked over every total they can reach);
- ``"end of list"``: no feature is left and the interval still straddles the threshold;
  the outcome is then ``"uncertain"`` (refer or gather more evidence), the third option
  of a three-way decision.

An unknown answer is never guessed: the stage then covers both possible answers, its
interval runs from the lowest lower bound to the highest upper bound over them, and the
list goes on.
"""

from dataclasses import asdict, dataclass, field

import numpy as np

from .cost_ratio import DEFAULT_COST_RATIO, decision_threshold, expected_loss
from .errors import PSLError
from .intervals import check_confidence

POSITIVE = "positive"
NEGATIVE = "negative"
CONTINUE = "continue"
UNCERTAIN = "uncertain"
BASES = ("upper", "point")
def decide(p, cost_ratio):
    """"positive" where p > 1 / (1 + M), else "negative" (elementwise for arrays)."""
    positive = np.asarray(p, dtype=float) > decision_threshold(cost_ratio)
    if positive.ndim == 0:
        return POSITIVE if positive else NEGATIVE
    return np.where(positive, POSITIVE, NEGATIVE)


def possible_totals(scores, answers):
    """Totals consistent with the answers so far.

    Parameters
    ----------
    scores : sequence of int
        Points of stages 1..K.
    answers : sequence of {True, False, None}
        Whether each of the first k literals holds; None = unknown / not measured.

    Returns
    -------
    ndarray of int, sorted: one total, or several when some answers are unknown.
    """
    totals = {0}
    for score, answer in zip(scores, answers):
        if answer is None:
            totals |= {t + score for t in totals}
        elif answer:
            totals = {t + score for t in totals}
    return np.array(sorted(totals), dtype=np.int64)


@dataclass
class StepResult:
    """What the list says after the answers to stages 1..stage.

    ``probability_low``/``probability_high`` are equal unless an answer is unknown.
    ``decision`` is "positive", "negative", "continue" or "uncertain"; ``lean`` is the
    cost-weighted decision on the chosen basis (None when unknown answers leave it open);
    ``stop_reason`` is None, "confident", "settled" or "end of list".
    """

    stage: int
    totals: list
    probability_low: float
    probability_high: float
    lower: float
    upper: float
    threshold: float
    decision: str
    lean: str
    stop_reason: str
    expected_loss: float
    explanation: str = field(default="")

    def to_dict(self):
        return asdict(self)


def _basis_decision(values, threshold):
    """Common decision of several basis values, or None if they disagree."""
    above = np.asarray(values) > threshold
    if above.all():
        return POSITIVE
    if not above.any():
        return NEGATIVE
    return None


class StageBands:
    """Point estimates and simultaneous intervals of every stage of a fitted list, kept
    for one confidence level so a triage does not recompute them at every answer."""

    def __init__(self, model, confidence=0.95):
        self.confidence = check_confidence(confidence)
        self.scores = list(model.scores_)
        self.bands = [model.stage_interval(k, self.confidence) for k in range(model.n_stages_)]

    def at(self, stage, totals):
        """(point, lower, upper) arrays at the given totals of one stage."""
        reachable, lower, point, upper = self.bands[stage]
        index = np.searchsorted(reachable, totals)
        return point[index], lower[index], upper[index]


def triage_step(bands, answers, cost_ratio=DEFAULT_COST_RATIO, basis="upper", n_stages=None):
    """The state of a triage after some answers, and whether to stop.

    Parameters
    ----------
    bands : StageBands
        The list's stagewise estimates and intervals at the chosen confidence.
    answers : sequence of {True, False, None}
        Answers to stages 1..k (k = len(answers)); None = unknown.
    cost_ratio : float
        M, the cost of a missed case relative to a false alarm (paper default 10).
    basis : {"upper", "point"}
        Decide on the interval's upper bound (risk-averse, default) or the estimate.
    n_stages : int or None
        Length of the list to use (stages 1..n_stages); None = the whole list.

    Returns
    -------
    StepResult
    """
    if basis not in BASES:
        raise PSLError(f"basis must be one of {list(BASES)}, got {basis!r}")
    last = len(bands.scores) if n_stages is None else int(n_stages)
    if not 0 <= last <= len(bands.scores):
        raise PSLError(f"n_stages must lie in 0..{len(bands.scores)}, got {n_stages!r}")
    stage = len(answers)
    if stage > last:
        raise PSLError(f"{stage} answers given, but the list has only {last} stages")
    threshold = decision_threshold(cost_ratio)
    totals = possible_totals(bands.scores, answers)
    point, lower, upper = bands.at(stage, totals)
    low, high = float(lower.min()), float(upper.max())
    lean = _basis_decision(upper if basis == "upper" else point, threshold)
    stop_reason = None
    if low > threshold:
        decision, stop_reason = POSITIVE, "confident"
    elif high <= threshold:
        decision, stop_reason = NEGATIVE, "confident"
    elif stage < last and lean is not None and _settled(bands, totals, stage, last, lean, threshold, basis):
        decision, stop_reason = lean, "settled"
    elif stage == last:
        decision, stop_reason = UNCERTAIN, "end of list"
    else:
        decision = CONTINUE
    p_decide = float(upper.max() if basis == "upper" else point.max())
    result = StepResult(
        stage=stage,
        totals=totals.tolist(),
        probability_low=float(point.min()),
        probability_high=float(point.max()),
        lower=low,
        upper=high,
        threshold=threshold,
        decision=decision,
        lean=lean,
        stop_reason=stop_reason,
        expected_loss=float(expected_loss(p_decide, cost_ratio)),
    )
    result.explanation = explain(result, bands.confidence, basis)
    return result


def _settled(bands, totals, stage, last, lean, threshold, basis):
    """Whether every completion of the remaining stages keeps the decision ``lean``."""
    reachable = set(totals.tolist())
    for later in range(stage + 1, last + 1):
        score = bands.scores[later - 1]
        reachable |= {t + score for t in reachable}
        point, _, upper = bands.at(later, np.array(sorted(reachable)))
        if _basis_decision(upper if basis == "upper" else point, threshold) != lean:
            return False
    return True


def explain(step, confidence, basis):
    """One plain-words sentence on the decision and why the triage stopped or goes on."""
    level = f"{confidence:.0%}"
    where = f"the {level} interval {step.lower:.1%}–{step.upper:.1%}"
    line = f"1/(1+M) = {step.threshold:.1%}"
    if step.stop_reason == "confident":
        side = "above" if step.decision == POSITIVE else "at or below"
        return f"Confident {step.decision}: {where} lies entirely {side} the decision threshold {line}."
    if step.stop_reason == "settled":
        return (f"Settled {step.decision}: no answers to the remaining questions could change the "
                f"decision (made on the {'upper bound' if basis == 'upper' else 'estimate'}).")
    if step.stop_reason == "end of list":
        return (f"Uncertain: all questions answered and {where} still contains the decision "
                f"threshold {line}. Refer or gather more evidence.")
    return f"Continue: {where} contains the decision threshold {line}."


def answer_for(literal, value):
    """Whether a literal holds for one raw answer; None when the answer is unknown.

    ``value`` is a number for a numeric feature, True/False (or 1/0) for a binary one,
    a category for a categorical one, and None for "unknown / not measured".
    """
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return None
    return bool(literal.evaluate(np.array([value], dtype=object if literal.kind == "category" else float))[0])
