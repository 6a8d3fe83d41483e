"""What the cost ratio M does to a list, in words: the M at which it decides anything.

At the paper's M = 10 a list is often one-sided: every training patient gets the base rate's
action, whatever the answers, and the list can rule nobody out. The Train, Triage and
Evaluation pages say so with :func:`m_range_text`, from the numbers of
:func:`psl_core.decision.decision_range`: the range of M over which the list changes a
decision for its training patients, what it does at the chosen M, and whether it can rule
anyone in or out there. The figure of M's consequences is the decision curve (net benefit at
each threshold 1/(1+M)) of the Evaluation page.
"""

import math

from psl_core.cost_ratio import check_cost_ratio, decision_threshold
from psl_core.decision import decision_range
from psl_triage.words import md
from psl_triage.words.common import first_questions, m_equals


def m_text(value):
    """An M as a reader writes it: 3.4, 0.29, 150."""
    if math.isinf(value):
        return "∞"
    return f"{value:.0f}" if value >= 100 else f"{value:.2g}"


def _range_words(changes):
    low, high = changes
    if low <= 0 and math.isinf(high):
        return "at every M"
    if low <= 0:
        return f"only when M is below {m_text(high)}"
    if math.isinf(high):
        return f"only when M is above {m_text(low)}"
    return f"only when M lies between {m_text(low)} and {m_text(high)}"


def m_range_text(model, cost_ratio, positive_label="positive", negative_label="negative", confidence=0.95,
                 basis="upper", stage=None, curves_here=False):
    """Where M matters for this list, and what it does at ``cost_ratio`` (Markdown).

    Parameters
    ----------
    model : fitted ProbabilisticScoringList
    cost_ratio : float
        The M in use.
    positive_label, negative_label : str
        The classes' names (escaped here).
    confidence : float
    basis : {"upper", "point"}
    stage : int or None
        The length used; default the recommended length, else the whole list.
    curves_here : bool
        Whether the reader is on the Evaluation page, whose decision curves lie further down.

    Returns
    -------
    text : str
    one_sided : bool
        Whether at this M the list changes no decision or cannot rule anyone out or in
        (the pages then show the text as a notice, not a caption).
    """
    cost_ratio = check_cost_ratio(cost_ratio)
    found = decision_range(model, stage, confidence, basis)
    share = found.changed_share(cost_ratio)
    out, into = found.can_rule_out(cost_ratio), found.can_rule_in(cost_ratio)
    sentences = [
        _range_sentence(found),
        _effect_sentence(found, cost_ratio, basis, positive_label, negative_label),
        *_ruling_sentences(found, cost_ratio),
        "Choose M from what a missed case and a false alarm cost where the list is used; the decision "
        + ("curves further down this page (after a run) show" if curves_here else
           "curves on the Evaluation page show")
        + " what each M gains.",
    ]
    return " ".join(sentences), share == 0 or not (out and into)


def _range_sentence(found):
    """For which M the list decides a training patient differently from the base rate."""
    length = (
        "before any question" if found.stage == 0 else
        f"within {first_questions(found.stage, 'its')}"
    )
    if found.changes is None:
        return (f"At no M does the list, {length}, decide any training patient differently from the base rate "
                "alone: its questions move no patient across a decision threshold.")
    return (f"For its training patients the list, {length}, decides differently from the base rate alone "
            f"{_range_words(found.changes)}.")


def _effect_sentence(found, cost_ratio, basis, positive_label, negative_label):
    """What the list does at ``cost_ratio``: the share of decisions it changes, or none."""
    threshold = decision_threshold(cost_ratio)
    share = found.changed_share(cost_ratio)
    within = found.changes is not None and found.changes[0] <= cost_ratio <= found.changes[1]
    if share == 0 and not within:
        positive = found.prior_value >= threshold if basis == "upper" else found.prior_value > threshold
        return (f"At {m_equals(cost_ratio)} (threshold {threshold:.1%}) it changes no training patient's decision: "
                f"every one is treated as **{md(positive_label if positive else negative_label)}**, as the base "
                "rate alone would treat them.")
    if share == 0:
        return (f"At {m_equals(cost_ratio)} (threshold {threshold:.1%}) only earlier questions change a decision; "
                f"after question {found.stage} every training patient is back to the base rate's.")
    return (f"At {m_equals(cost_ratio)} (threshold {threshold:.1%}) it changes the decision for {share:.0%} of "
            f"the training patients after question {found.stage}.")


def _ruling_sentences(found, cost_ratio):
    """Whom the list cannot rule in or out at ``cost_ratio`` and at which M it could (none or one)."""
    out, into = found.can_rule_out(cost_ratio), found.can_rule_in(cost_ratio)
    if out and into:
        return []
    missing = "in or out" if not (out or into) else "out" if not out else "in"
    could = []
    if not out and found.rule_out_below is not None:
        could.append(f"out for M below {m_text(found.rule_out_below)}")
    if not into and found.rule_in_above is not None:
        could.append(f"in for M above {m_text(found.rule_in_above)}")
    return [f"At this M it can rule nobody {missing}" + (f" (it can rule patients {' and '.join(could)})." if could else ".")]


def where_m_matters(model, cost_ratio, *args, **kwargs):
    """:func:`m_range_text` under its heading, "**Where M matters.**", as every page shows it;
    (text, one_sided)."""
    text, one_sided = m_range_text(model, cost_ratio, *args, **kwargs)
    return f"**Where M matters.** {text}", one_sided
