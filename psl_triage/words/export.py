"""Words of the export for the hospital's systems: the specification, the scorers and the FHIR
RiskAssessment (psl_triage.model_file.export, psl_triage.bedside.export, the Card and Triage pages)."""

from psl_triage.words.common import level_text, m_equals

NOT_A_SPECIFICATION = "A specification is a JSON object; this is a {kind}. Export the specification again from the Card page."
WRONG_FORMAT = ("This is not a specification this version reads (format {found}; expected {expected}). "
                "Export the specification again from the Card page.")
INVALID_SPECIFICATION = ("The specification is not valid at {where}: {problem}. Export it again from the Card page; "
                         "do not edit it by hand.")
CHECKSUM_MISMATCH = ("The specification's checksum does not match its content: it was changed after it was exported. "
                     "Export it again from the Card page; do not edit points, cut-offs or risks by hand.")
STAGES_MISMATCH = ("The specification has {questions} questions but {stages} stages (there must be one more stage "
                   "than questions). Export it again from the Card page.")

FHIR_SUBJECT = "The patient triaged (name the patient in the record system)"


def fhir_method(name, version):
    """The RiskAssessment's method in words: the list and its version."""
    return f"Probabilistic scoring list {name}, version {version}"


def fhir_questions_answered(n):
    return f"{n} question answered" if n == 1 else f"{n} questions answered"

UNKNOWN_ANSWER = "unknown"

ANSWER_ENCODING = {
    "number": "A numeric or yes/no question's answer: a number (yes = 1, no = 0).",
    "text": "A category question's answer: the category as text, compared exactly.",
    "unknown": "null, or no entry for the column: the value exists but is not at hand; the list follows both answers.",
    "not measured": '{"not_measured": true}: the test was not done; it counts as the question\'s not_measured '
                    "(true: the condition holds; false: it does not; null: unknown).",
    "column asked again": "A column asked at several stages is answered once; every stage on it reads that answer.",
}

DECISION_RULE = {
    "totals": "A patient's total is the sum of the points of the conditions that hold; with unknown answers, every "
              "total the unknown answers allow.",
    "risk": "risk_low and risk_high: the lowest and the highest risk over those totals at the stage.",
    "interval": "lower: the lowest lower bound, upper: the highest upper bound over those totals.",
    "threshold": "threshold = 1/(1+M), M the cost of a missed case relative to a false alarm.",
    "rule in": "lower > threshold.",
    "rule out": "upper < threshold.",
    "uncertain": "otherwise; the action is positive on the upper basis, and on the point basis positive when "
                 "risk_high > threshold.",
}

STOP_RULE = (
    "Before the first question and after each answer, in this order: stop as settled when every total these answers "
    "can still reach at later stages has this outcome (each total's settled equals the outcome code); for a list "
    "without stop statistics, stop as ruled in or out when the outcome is rule in or rule out; stop as unlikely to "
    "change when the outcome is rule in or rule out and the change share is below the tolerance; stop at the end of "
    "the list after the last question; for a list with costs and a value of a changed outcome V, stop as not worth "
    "its cost when change share x V is below the next question's cost. The change share: of the training patients "
    "with these totals (patients), those whose outcome at the reference stage differs (changed, by the current "
    "outcome: rule out, uncertain, rule in); when fewer than min_rows, the same pooled over the stage; none without "
    "a reference or without pooled patients."
)


def fhir_settings(cost_ratio, confidence, basis):
    """The decision settings of a RiskAssessment, in words."""
    on = "the interval's upper bound" if basis == "upper" else "the estimate"
    return f"Decided with {m_equals(cost_ratio)} (threshold 1/(1+M)), {level_text(confidence)} intervals, on {on}."

EXPORT_TITLE = "Export for the hospital's systems"
EXPORT_INTRO = (
    "The list as its questions, cut-offs, points, risks with their intervals, decision and stop rule, with test "
    "cases, in a checksummed specification (JSON), and three scorers generated from it that reproduce the test cases "
    "exactly: Python (standard library only), JavaScript (no dependencies) and one SQL query that runs in SQLite and "
    "PostgreSQL. It uses the questions and M chosen above. Nothing is sent anywhere."
)
PREPARE_EXPORT = "Prepare the export"
BUILDING_EXPORT = "building the export"
BUILDING_EXPORT_SPINNER = "Working out every path of answers and its result…"
EXPORT_LABELS = {"specification": "Specification", "python": "Python scorer", "javascript": "JavaScript scorer",
                 "sql": "SQL scorer"}
BUILDING_FHIR = "building the FHIR RiskAssessment"
DOWNLOAD_FHIR = "FHIR RiskAssessment"
FHIR_HELP = ("This triage as a FHIR R4 RiskAssessment for the record system: the answers, the risk with its interval, "
             "the list and its version. It is downloaded to this computer; nothing is sent.")


def export_ready(spec):
    """What the export holds, in one sentence."""
    cases = len(spec["test_cases"])
    how = "every path of answers" if spec["test_cases_complete"] else "a sample stratified by where and how the list stops"
    return (f"{len(spec['questions'])} questions, {cases} test case{'s' if cases != 1 else ''} ({how}); "
            f"specification checksum {spec['checksum'][:12]}…, model file SHA-256 {spec['list']['model_sha256'][:12]}….")
