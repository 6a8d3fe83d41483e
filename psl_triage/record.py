"""The record of one triage for the patient's notes: a JSON-ready dict and its plain text.

It uses the words of the Triage page (:mod:`psl_triage.questions`): the outcome (ruled in,
ruled out, uncertain), the action taken, and why the list stopped.
"""

import json

from psl_triage.words.decision import interval_sentence, outcome_text, stop_sentence

from .costs import cost_text

BASIS_WORDS = {"upper": "upper bound of the interval", "point": "point estimate"}


def triage_record(model_name, model_version, questions, raw_answers, steps, cost_ratio, confidence, basis,
                  tolerance, class_labels=("positive", "negative"), costs=None):
    """The record of one triage, for the patient's notes (JSON-ready dict).

    Parameters
    ----------
    model_name, model_version : str
    questions : list of str
        The condition of each answered stage, in words.
    raw_answers : list
        What the clinician entered per stage (None = unknown).
    steps : list of StepResult
        One per stage from 0 to the last answered.
    cost_ratio, confidence : float
    basis : {"upper", "point"}
    tolerance : float
        The stop rule's share of changed outcomes.
    class_labels : (str, str)
        The names of the positive and the negative class, as the user named them on the
        Data page (``metadata["dataset"]``); the record says which the action treats the
        patient as.
    costs : dict or None
        For a list with question costs: ``{"unit": str, "change_value": V, "spent": float}``,
        the value of a changed outcome the stop used and what the questions asked cost.
    """
    final = steps[-1]
    costs = costs or {}
    record = {
        "model": {"name": model_name, "version": model_version},
        "classes": {"positive": class_labels[0], "negative": class_labels[1]},
        "settings": {"cost_ratio_M": cost_ratio, "confidence": confidence, "decision_basis": basis,
                     "decision_threshold": final.threshold, "stop_tolerance": tolerance},
        "answers": [
            {"question": q, "answer": "unknown" if a is None else a, "decision": outcome_text(s, basis),
             "step": s.to_dict()}
            for q, a, s in zip(questions, raw_answers, steps[1:])
        ],
        "prior": steps[0].to_dict(),
        "result": {
            "outcome": final.outcome,
            "decision": outcome_text(final, basis),
            "action": final.action,
            "stop_reason": final.stop_reason,
            "why_stopped": stop_sentence(final, tolerance, costs.get("change_value"), costs.get("unit", "")),
            "stage": final.stage,
            "total_scores": final.totals,
            "probability": [final.probability_low, final.probability_high],
            "interval": [final.lower, final.upper],
            "explanation": interval_sentence(final, confidence),
        },
    }
    if costs:
        record["costs"] = dict(costs)
    return record


def record_json(record):
    """The triage record as indented JSON text (names kept as written, not as escapes)."""
    return json.dumps(record, indent=2, ensure_ascii=False)


def record_text(record):
    """The triage record as plain text."""
    lines = [
        f"PSL Triage record — model {record['model']['name']} (version {record['model']['version']})",
        "Settings: M = {cost_ratio_M:g}, {confidence:.0%} interval, decisions on the {basis}, "
        "threshold 1/(1+M) = {decision_threshold:.1%}".format(
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
            f"{i}. {item['question']}: {item['answer']} → total {_totals_text(step['totals'])}, "
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


def _totals_text(totals):
    return str(totals[0]) if len(totals) == 1 else "{" + ", ".join(map(str, totals)) + "}"
