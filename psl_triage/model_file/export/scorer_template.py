"""Scorer of a probabilistic scoring list, generated from its specification (standard library only).

Usage
-----
    python scorer.py < patients.json    # a JSON list of patients' answers -> a JSON list of results
    python scorer.py --check            # reproduce the specification's test cases; exit 1 on a difference

A patient's answers are a JSON object keyed by the list's column names: a number for a numeric or
yes/no question (yes = 1, no = 0), a text for a category, ``null`` (or no entry) when the answer is
unknown, and ``{"not_measured": true}`` when the test was not done. A result holds the stage the list
stops at, why, the possible totals, the risk (lowest and highest estimate over the totals), its
interval, the three-way outcome and the action, exactly as the specification's test cases do.
"""

import json
import math
import sys

SPECIFICATION = json.loads("{}")
"""The list's specification (its JSON text is written here when the scorer is generated)."""


def holds(question, answer):
    """Whether the question's condition holds for one answer: True, False or None (unknown)."""
    if isinstance(answer, dict) and answer.get("not_measured") is True:
        return question["not_measured"]
    if answer is None or (isinstance(answer, float) and math.isnan(answer)):
        return None
    condition = question["condition"]
    op = condition["op"]
    if op == "any value":
        return condition["holds"]
    if op in ("in", "not in"):
        return (str(answer) in condition["values"]) == (op == "in")
    value = float(answer)
    return value > condition["threshold"] if op == ">" else value <= condition["threshold"]


def possible_totals(questions, answered):
    """The totals the answers to the first stages allow (several when some are unknown)."""
    totals = {0}
    for question, hold in zip(questions, answered):
        if hold is None:
            totals |= {total + question["points"] for total in totals}
        elif hold:
            totals = {total + question["points"] for total in totals}
    return sorted(totals)


def change_share(stage, places, code, min_rows):
    """Share of training patients like this one whose outcome changes by the reference stage."""
    change = stage["change"]
    if change is None:
        return None
    patients = sum(change["patients"][i] for i in places)
    if patients >= min_rows:
        return sum(change["changed"][code + 1][i] for i in places) / patients
    pooled = change["pooled_patients"][code + 1]
    return change["pooled_changed"][code + 1] / pooled if pooled >= 1 else None


def stop_reason(spec, stage, places, code, share):
    """Why the list stops at this stage, or None to ask on."""
    settings, last = spec["settings"], len(spec["questions"])
    if stage["stage"] < last and all(stage["settled"][i] == code for i in places):
        return "settled"
    if code != 0 and not spec["stop_rule"]["statistics"]:
        return "ruled in or out"
    if code != 0 and share is not None and share < settings["tolerance"]:
        return "unlikely to change"
    if stage["stage"] == last:
        return "end of list"
    cost, value = stage["next_cost"], settings["change_value"]
    if share is not None and value is not None and cost is not None and cost > 0 and share * value < cost:
        return "not worth its cost"
    return None


def state(spec, k, answered):
    """Where the triage stands after the answers to stages 1..k."""
    settings, stage = spec["settings"], spec["stages"][k]
    totals = possible_totals(spec["questions"], answered)
    places = [stage["totals"].index(total) for total in totals]
    risks = [stage["risk"][i] for i in places]
    lower = min(stage["lower"][i] for i in places)
    upper = max(stage["upper"][i] for i in places)
    threshold = settings["threshold"]
    code = 1 if lower > threshold else -1 if upper < threshold else 0
    share = change_share(stage, places, code, spec["stop_rule"]["min_rows"])
    if code == 0:
        act = "positive" if settings["basis"] == "upper" or max(risks) > threshold else "negative"
    else:
        act = "positive" if code == 1 else "negative"
    return {
        "stop": k, "stop_reason": stop_reason(spec, stage, places, code, share), "totals": totals,
        "risk_low": min(risks), "risk_high": max(risks), "lower": lower, "upper": upper,
        "outcome": ("rule out", "uncertain", "rule in")[code + 1], "action": act,
    }


def score(answers, spec=SPECIFICATION):
    """The result of one patient's answers (a dict keyed by column name)."""
    answered = []
    for k in range(len(spec["questions"]) + 1):
        if k:
            question = spec["questions"][k - 1]
            answered.append(holds(question, answers.get(question["column"])))
        result = state(spec, k, answered)
        if result["stop_reason"] is not None:
            return result
    raise ValueError("the specification's last stage has no stop: it is not a valid specification")


def check(spec=SPECIFICATION):
    """The test cases whose result differs from the expected one (an empty list when none does)."""
    return [case for case in spec["test_cases"] if _result(case["answers"], spec) != case["expected"]]


def _result(answers, spec):
    try:
        return score(answers, spec)
    except ValueError:  # a total the stages do not hold: the specification and its cases disagree
        return None


def main(arguments):
    if arguments == ["--check"]:
        failed = check()
        print(f"{len(SPECIFICATION['test_cases']) - len(failed)} passed, {len(failed)} failed")
        return 1 if failed else 0
    patients = json.load(sys.stdin)
    if not isinstance(patients, list) or not all(isinstance(p, dict) for p in patients):
        print("The input must be a JSON list of patients, each an object of answers by column name.",
              file=sys.stderr)
        return 2
    json.dump([score(patient) for patient in patients], sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
