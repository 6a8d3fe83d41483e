"""The triage record in plain text, for the patient's notes (:mod:`psl_triage.bedside.record` makes the
record; this module says it in words). The text is plain, not Markdown: names are kept as
written.
"""

from psl_triage.words.common import cost_text, level_text, m_equals
from psl_triage.words.decision import totals_text

UNKNOWN_ANSWER = "unknown"
"""The record's answer to a question left unknown."""
BASIS_WORDS = {"upper": "upper bound of the interval", "point": "point estimate"}
"""What the decisions were made on, per ``decision_basis``."""


def record_text(record):
    """The triage record as plain text."""
    lines = [
        f"PSL Triage record — model {record['model']['name']} (version {record['model']['version']})",
        "Settings: {m}, {level} interval, decisions on the {basis}, "
        "threshold 1/(1+M) = {decision_threshold:.1%}".format(
            m=m_equals(record["settings"]["cost_ratio_M"]), level=level_text(record["settings"]["confidence"]),
            basis=BASIS_WORDS[record["settings"]["decision_basis"]], **record["settings"]
        ),
        "",
    ]
    classes = record.get("classes")
    if classes:
        lines.insert(2, f"Outcome: positive = {classes['positive']}, negative = {classes['negative']}; "
                        "P is the probability of the positive class")
    if not record["answers"]:
        lines.append("No question answered: the result is the list's estimate before any question.")
    for i, item in enumerate(record["answers"], start=1):
        step = item["step"]
        p = _range_text(step["probability_low"], step["probability_high"])
        lines.append(
            f"{i}. {item['question']}: {item['answer']} → total {totals_text(step['totals'])}, "
            f"P = {p} [{step['lower']:.1%}, {step['upper']:.1%}], {item['decision']}"
        )
    result = record["result"]
    classes = record.get("classes") or {}
    action = result["action"]
    lines += [
        "",
        f"Result: {result['decision'].upper()} (action: treat as {action}, {classes.get(action, action)}; "
        f"stopped: {result['stop_reason'] or 'not yet'})",
        f"Probability {_range_text(*result['probability'])}, interval "
        f"[{result['interval'][0]:.1%}, {result['interval'][1]:.1%}]",
        result["explanation"],
    ]
    if result["why_stopped"]:
        lines.append(result["why_stopped"])
    costs = record.get("costs")
    if costs:
        lines.append(f"Questions asked cost {cost_text(costs['spent'], costs['unit'])}.")
    return "\n".join(lines)


def _range_text(low, high):
    return f"{low:.1%}" if low == high else f"{low:.1%}–{high:.1%}"
