"""The decision model in words: the outcome of a step, the page's headline, where the interval
lies against the threshold, why the list stopped, how it decides, and why a triage can stop
before its first question.

:mod:`psl_core.decision` returns the numbers and codes of each step
(:class:`~psl_core.decision.StepResult`); this module says what they mean. Class names
(``positive_label``, ``negative_label``) are returned as given: the pages escape them.
"""

import numpy as np

from psl_core.cost_ratio import cost_ratio_at
from psl_core.decision import (
    END_OF_LIST,
    NOT_WORTH_COST,
    RULE_IN,
    RULE_OUT,
    RULED,
    SETTLED,
    UNCERTAIN,
    UNLIKELY_TO_CHANGE,
)
from psl_core.stopping import DEFAULT_TOLERANCE
from psl_triage.words.common import cost_text, level_text, m_equals, number_text, one_in, percent


def totals_text(totals):
    """"3" for one total; "−2, 0 or 3" when unknown answers leave several."""
    words = [number_text(t) for t in totals]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def probability_text(step):
    """Calibrated probability of a step; a range when unknown answers leave several totals."""
    if step.probability_low == step.probability_high:
        return percent(step.probability_low)
    return f"{percent(step.probability_low)} to {percent(step.probability_high)}"


def interval_text(step):
    """The step's interval: "4.1% to 19.5%"."""
    return f"{percent(step.lower)} to {percent(step.upper)}"


OUTCOME_WORDS = {RULE_IN: "Ruled in", RULE_OUT: "Ruled out", UNCERTAIN: "Uncertain"}


def outcome_text(step, basis):
    """The outcome with the action taken, for the step table: "Ruled in", "Ruled out",
    "Uncertain: treated as positive" (risk-averse) or "Uncertain: estimate says negative"."""
    if step.outcome != UNCERTAIN:
        return OUTCOME_WORDS[step.outcome]
    if basis == "upper":
        return "Uncertain: treated as positive"
    return f"Uncertain: estimate says {step.action}"


def headline(step, basis, positive_label, negative_label):
    """The page's headline: "Ruled in: heart disease", "Uncertain: treated as heart disease
    until ruled out", ..."""
    label = {"positive": positive_label, "negative": negative_label}[step.action]
    if step.outcome != UNCERTAIN:
        return f"{OUTCOME_WORDS[step.outcome]}: {label}"
    if basis == "upper":
        return f"Uncertain: treated as {label} until ruled out"
    return f"Uncertain: the estimate points to {label}"


def interval_sentence(step, confidence):
    """Where the interval lies against the threshold, in one sentence."""
    where = f"The {level_text(confidence)} interval {interval_text(step)}"
    line = f"the decision threshold 1/(1+M) = {percent(step.threshold)}"
    if step.outcome == RULE_IN:
        return f"{where} lies entirely above {line}: ruled in."
    if step.outcome == RULE_OUT:
        return f"{where} lies entirely below {line}: ruled out."
    return f"{where} contains {line}: uncertain."


def change_text(step):
    """How many training patients like this one changed outcome: "3 of 120"."""
    return f"{round(step.change_share * step.change_rows)} of {step.change_rows}"


ALL_ANSWERED = "Every question of the list is answered."
"""Why a list stopped at its end."""


def stop_sentence(step, tolerance=DEFAULT_TOLERANCE, change_value=None, unit=""):
    """Why the list stopped, in one sentence; None when it goes on.

    ``change_value`` and ``unit``: the value of a changed outcome and the costs' unit, for
    a stop before a question not worth its cost.
    """
    if step.stop_reason == SETTLED:
        return "No answers to the remaining questions can change this outcome."
    if step.stop_reason == UNLIKELY_TO_CHANGE:
        who = "with these answers" if step.change_scope == "answers" else "with this outcome at this question"
        return (
            f"Fewer than {one_in(tolerance)} training patients {who} changed outcome with more questions "
            f"({change_text(step)})."
        )
    if step.stop_reason == RULED:
        return (
            "Ruled " + ("in" if step.outcome == RULE_IN else "out") + ": this list was saved before lists "
            "carried how often more questions change the outcome, so it stops as soon as a patient is ruled in or out."
        )
    if step.stop_reason == END_OF_LIST:
        return ALL_ANSWERED
    if step.stop_reason == NOT_WORTH_COST:
        who = "with these answers" if step.change_scope == "answers" else "with this outcome at this question"
        worth = "" if change_value is None else f", and a changed outcome is worth {cost_text(change_value, unit)}"
        return (
            f"The next question costs {cost_text(step.next_cost, unit)}, more than it is likely to gain: "
            f"{change_text(step)} training patients {who} changed outcome with more questions{worth}."
        )
    return None


def how_it_decides(threshold, confidence, tolerance, has_statistics):
    """The decision model and the stop rule for the "How this works" text (Markdown)."""
    line = f"1/(1+M) = {percent(threshold)}"
    look_ahead = (
        f"the patient is ruled in or out **and** fewer than {one_in(tolerance)} training patients with the "
        "same answers changed outcome when they answered the rest of the list (its recommended length)"
        if has_statistics else
        "the patient is ruled in or out (this list was saved before lists carried how often more questions "
        "change the outcome, so it cannot look ahead)"
    )
    return f"""
- The decision weighs a missed case M times as heavily as a false alarm, so the **decision
  threshold** is {line}. With the {level_text(confidence)} interval [l, u] the list
  **rules in** when l is above the threshold, **rules out** when u is below it, and is
  otherwise **uncertain**. An uncertain patient is treated as positive until ruled out
  (risk-averse, the default) or, deciding on the point estimate, as the probability says.
- The list **stops** when {look_ahead}; when **no answers to the remaining questions can
  change the outcome**; or when every question is answered (an uncertain outcome there
  means **refer or gather more evidence**). **Continue anyway** asks the next question; the
  list then stops again at its next stop.
"""


def prior_decision_text(step, cost_ratio, confidence, positive_label, negative_label):
    """Why a triage stops before its first question, and how to make the questions count.

    At stage 0 nothing about the patient is known: a stop there decides every patient the
    same way, from the base rate (the prior q(0, 0)) alone. The text says so with the
    numbers, and which M would leave the decision to the questions: for a patient ruled
    in, an M low enough that 1/(1+M) reaches the interval's lower end; for a
    patient ruled out, an M high enough that it falls below the upper end.

    Parameters
    ----------
    step : StepResult
        The step at stage 0.
    cost_ratio, confidence : float
    positive_label, negative_label : str

    Returns
    -------
    str or None
        Markdown; None unless the step is a stop at stage 0.
    """
    if step.stage != 0 or step.stop_reason in (None, END_OF_LIST, NOT_WORTH_COST):
        return None  # a stop on the first question's cost says why in its own sentence
    label = positive_label if step.action == "positive" else negative_label
    base = f"the base rate of {positive_label} is {percent(step.probability_high)} ({level_text(confidence)} interval {interval_text(step)})"
    line = f"the decision threshold 1/(1+M) = {percent(step.threshold)}"
    decides = f"at {m_equals(cost_ratio)} the list decides **{label}** for every patient without asking a question."
    if step.stop_reason == SETTLED or step.outcome == UNCERTAIN:
        return (
            f"Before any question, {base} and no answers to the list's questions could move it across "
            f"{line}: {decides} Change M in the settings above to let the questions decide, or "
            "press **Continue anyway** to answer them all the same."
        )
    if step.outcome == RULE_IN:
        # 1/(1+M) >= lower bound <=> M <= cost_ratio_at(lower), rounded down so that the M shown works
        limit = np.floor(cost_ratio_at(step.lower) * 100) / 100
        change = f"With M at most {limit:g} (set in the settings above) the base rate alone no longer decides"
        side = "above"
        if limit <= 0:
            change = "Only an M below 0.01 would leave the decision to the questions"
    else:
        # 1/(1+M) < upper bound <=> M > cost_ratio_at(upper), rounded up so that the M shown works
        side = "below"
        if step.upper > 0:
            limit = np.floor(cost_ratio_at(step.upper) * 100 + 1) / 100
            change = f"With M of {limit:g} or more (set in the settings above) the base rate alone no longer decides"
        else:
            change = "No M leaves the decision to the questions"
    return (
        f"Before any question, {base}: the whole interval lies {side} {line}, so {decides} "
        f"{change}; or press **Continue anyway** to answer the questions all the same."
    )
