"""The words of the printed card and the model report (:mod:`psl_triage.judging.card`), as HTML
fragments: every name from a file (a table, a list, a class, a date) is escaped here with
:func:`psl_triage.words.escape.html_escaped` (HTML's escape, and direction controls shown as
their code), once.
"""

from psl_triage.words.common import INTERVAL_PROMISE, m_equals, noun, percent, plural, share_of
from psl_triage.words.escape import html_escaped
from psl_triage.words.lists import base_rate_reason

NOT_RECORDED = "Not recorded in this model file."
NO_VALIDATION = "None recorded: the list has not been checked on another population in this app."
NO_QUESTION = "None: the prior risk."
NO_CARD_QUESTION = "No question: every patient gets the prior risk."
NO_ROLES = "None recorded in this model file."
NO_PERFORMANCE = "No performance recorded in this model file."
SITE_CALIBRATION = "Calibration there:"


def html_text(value, default=""):
    """``value`` from a file as escaped HTML text; ``default`` (escaped) when it is not a
    string or number, or is empty."""
    return html_escaped(str(value)) if isinstance(value, (str, int, float)) and str(value) != "" else html_escaped(default)


def subtitle(version, created, approval=None):
    """The line under the title: "version 2 · saved 2026-01-02"; ``version`` None for a list
    not saved in the store; ``approval``: who saved and approved it, on a shared ward
    (:func:`psl_triage.words.ward.trained_and_approved`)."""
    parts = [f"version {html_text(version)}" if version is not None else "not saved in the store"]
    if created:
        parts.append(f"saved {html_text(created[:10])}")
    if approval:
        parts.append(html_text(approval))
    return " · ".join(parts)


def recalibrated_at(origin):
    """" Probabilities re-estimated on <table> (<n> patients, <date>)." of a recalibrated list
    ("" for another)."""
    table = (origin or {}).get("table")
    if not isinstance(table, dict):
        return ""
    return (f" Probabilities re-estimated on {html_text(table.get('name'))} "
            f"({html_text(table.get('n_rows'))} patients, {html_text(str(origin.get('date', ''))[:10])}).")


def learned_from(dataset_name, rows):
    """Where the card's list was learned: "Learned from heart.csv: 297 patients." (``rows``:
    :func:`psl_triage.words.lists.training_rows`)."""
    return f"Learned from {html_text(dataset_name, 'an unnamed table')}" + (f": {html_escaped(rows)}" if rows else "") + "."


def participants(dataset):
    """TRIPOD 5: how many patients, how many with the outcome, and the preparation's notes
    (``dataset``: a :class:`~psl_triage.model_file.metadata.DatasetRecord`)."""
    text = NOT_RECORDED
    if dataset.n_rows and dataset.n_positive is not None and dataset.n_censored is not None:
        text = (
            f"{dataset.n_rows} patients after preparation ({html_text(dataset.n_rows_source, '?')} in the source table); "
            f"at the horizon {dataset.n_positive} with the outcome, {html_text(dataset.n_negative, '?')} followed "
            f"beyond it without it and {dataset.n_censored} censored before it."
        )
    elif dataset.n_rows and dataset.n_positive is not None:
        text = (
            f"{dataset.n_rows} patients after preparation ({html_text(dataset.n_rows_source, '?')} in the source table); "
            f"{dataset.n_positive} with the outcome ({share_of(dataset.n_positive, dataset.n_rows, 1)})."
        )
    if dataset.notes:
        text += "<ul>" + "".join(f"<li>{html_text(note)}</li>" for note in dataset.notes) + "</ul>"
    return text


def recalibration(origin):
    """The recalibration a file records (``metadata.origin``), or :data:`NO_VALIDATION`."""
    if not origin:
        return NO_VALIDATION
    source = origin.get("recalibrated_from") if isinstance(origin.get("recalibrated_from"), dict) else {}
    table = origin.get("table") if isinstance(origin.get("table"), dict) else {}
    return (
        f"Recalibrated on {html_text(table.get('name'), 'another table')} ({html_text(table.get('n_rows'), '?')} patients) "
        f"on {html_text(str(origin.get('date', ''))[:10])}, from {html_text(source.get('name'), 'a list')} version "
        f"{html_text(source.get('version'), '?')}: same questions and points, probabilities re-estimated there."
    )


def intended_use(positive_label, cost_ratio, threshold):
    """The report's intended use: the outcome, one question at a time, and M with its threshold."""
    return (f"Risk of {html_escaped(positive_label)} for patients like the participants above, one question "
            f"at a time, to rule the outcome in or out. {m_equals(cost_ratio)}: a missed case counts as much as "
            f"{cost_ratio:g} {noun(cost_ratio, 'false alarm')}, so the list decides positive above "
            f"1/(1+M) = {percent(threshold)}.")


CALIBRATION_WORDS = {"isotonic": "isotonic", "beta": "beta", "sigmoid": "sigmoid (logistic)"}
LOSS_WORDS = {
    "entropy": "the expected entropy of the estimates on the training rows",
    "soft_rank": "the soft rank loss (pairs put in the wrong order)",
    "cv_brier": "the Brier score on cross-validation folds",
    "cv_log_loss": "the log loss on cross-validation folds",
    "nested_cv_brier": "the Brier score on nested cross-validation folds (thresholds validated too)",
    "nested_cv_log_loss": "the log loss on nested cross-validation folds (thresholds validated too)",
}
CORRECTION_WORDS = {"bonferroni": "Bonferroni", "sidak": "Šidák"}
"""The report's words for the estimator's codes (an unknown code is shown as it is, escaped)."""


def development(n_questions, calibration, loss, score_set, interval_correction, stage, recommended):
    """TRIPOD 10: how the list was learned and the stage reported (``recommended``: whether it
    is the length the internal cross-validation recommends)."""

    def said(names, code):
        return html_escaped(names.get(code, str(code)))

    return (
        f"Probabilistic scoring list (Hanselle et al.): {plural(n_questions, 'question')} learned greedily, "
        f"{said(CALIBRATION_WORDS, calibration)} calibration, each question chosen by "
        f"{said(LOSS_WORDS, loss)}, score set {html_escaped(', '.join(f'{s:+d}' for s in score_set))}, "
        f"intervals per total (level shared among a stage's totals by {said(CORRECTION_WORDS, interval_correction)}); reported at {plural(stage, 'question')}"
        + (" (the length the internal cross-validation recommends)." if recommended else ".")
    )


def held_at_base_rate(stage, base_rate):
    """The card's and report's note on a stage whose risk stays at the base rate (HTML)."""
    first = "the first question" if stage == 1 else f"the first {stage} questions"
    return html_escaped(f"The risk after {first} is held at the base rate: {base_rate_reason(base_rate)}.")


def shrinkage(factor):
    """The uniform shrinkage a stage's probabilities got."""
    return (
        f" Probabilities at this stage pulled toward the base rate by the factor {factor:.2f}, the calibration slope "
        "of the internal cross-validation's held-out estimates (uniform shrinkage); their intervals still hold the "
        "risk of the patients with each total."
    )


def too_good(reasons, questions):
    """The too-good-to-be-true warning a list was trained with."""
    return (
        " <strong>Too good to be true:</strong> " + html_escaped(" ".join(reasons))
        + f" Questions suspected: {html_escaped(', '.join(questions))}. The warning was shown at training."
    )


def not_computed(page):
    """A report item this session has not computed: where to compute it."""
    return f"Not computed in this session: run the {page} page for this list, then download the report again."


CALIBRATION_PAGE = "Evaluation (or Validate)"
UTILITY_PAGE = "Evaluation"
SUBGROUPS_PAGE = "Evaluation or Validate page, choose a column under Subgroups on the"
HORIZON_SUBGROUPS = (
    "Not measured for a list of the risk within a horizon: a subgroup's observed risk at the horizon "
    "needs censoring weights of its own, which the Evaluation and Validate pages do not compute per "
    "subgroup. To compare groups, validate the list on each group's table alone on the Validate page, "
    "where censoring is respected."
)


def on_source(source):
    """The calibration table's lead-in: "On <where>:"."""
    return f"On {html_escaped(source)}:"


def utility(sentence, source):
    """The decision-curve sentence with its method and where it was computed."""
    return f"{html_escaped(sentence)} (Decision curve analysis, Vickers &amp; Elkin 2006, on {html_escaped(source)}.)"


def subgroup_heading(column, where, named, judged):
    """The lead-in of one column's subgroup table: the groups that differ, or why none is named."""
    return (
        f"<p>By {html_escaped(str(column))}, on {html_escaped(where)}"
        + (": differs in " + ", ".join(html_escaped(str(g)) for g in named) if named
           else ": no group differs beyond its interval" if judged else ": no group is large enough to judge")
        + ".</p>"
    )


def judged_at(where):
    """The site judged in this session."""
    return f"<p>Judged in this session on {html_escaped(where)}.</p>"


def paragraph(text):
    """A sentence computed elsewhere (Markdown bold dropped) as an escaped paragraph."""
    return f"<p>{html_escaped(text.replace('**', ''))}</p>"


def outcome(dataset, positive_label, follow_up=""):
    """TRIPOD 6: the outcome, its column and the names of its classes (``dataset``: a
    :class:`~psl_triage.model_file.metadata.DatasetRecord`; ``follow_up``: the horizon's escaped sentence
    of a list of follow-up data)."""
    return (f"{html_text(dataset.outcome_label or dataset.outcome, 'not recorded')} "
            f"(column {html_text(dataset.outcome, '?')}); positive: {html_escaped(positive_label)}, "
            f"negative: {html_text(dataset.negative_label, '?')}." + follow_up)


def sample_sizes(n_train, n_test):
    """TRIPOD 8's counts: "trained on 198 patients, tested on 99 patients."."""
    sizes = [f"{words} {n} patients" for n, words in ((n_train, "trained on"), (n_test, "tested on"))
             if isinstance(n, int)]
    return (", ".join(sizes) or "not recorded") + "."


ITEMS = {
    "source": "Source of data", "participants": "Participants", "outcome": "Outcome", "sample_size": "Sample size",
    "justification": "Sample size justification", "development": "Model development", "questions": "Questions",
    "intended_use": "Intended use", "validation": "Validation at other sites",
    "calibration": "Calibration (mean, weak, moderate)", "utility": "Clinical utility",
    "subgroups": "Subgroup performance",
}
"""The report's TRIPOD items, in the order it lists them."""


# ---------------------------------------------------------------------------- the card
def length_note(stage, n_questions, recommended):
    """" · the first 3 of its 6 questions (the recommended length)" when the card is shorter
    than the list, else ""."""
    if stage >= n_questions:
        return ""
    if stage == 0:
        return f" · none of its {n_questions} questions{' (the recommended length: none beat the base rate)' if recommended else ''}"
    first = "the first" if stage == 1 else f"the first {stage}"
    return f" · {first} of its {n_questions} questions{' (the recommended length)' if recommended else ''}"


def card_intro(positive_label):
    """How to use the card."""
    return (f"Risk of <b>{html_escaped(positive_label)}</b>. Ask the questions in order and add the points of every\n"
            "answer that is <i>yes</i>; the total gives the risk.")


def risk_after(stage):
    """The heading of the card's risk table."""
    return f"Risk after {stage} {noun(stage, 'question')}"


def threshold_box(cost_ratio, threshold):
    """The card's box on M, its threshold and the three decisions."""
    return (f"<b>Decision threshold:</b> {m_equals(cost_ratio)} (a missed case costs as much as {cost_ratio:g} false\n"
            f"{noun(cost_ratio, 'alarm')}), threshold 1/(1+M) = {percent(threshold)}. <i>Rule in</i>: the whole interval\n"
            "lies above it; <i>rule out</i>: below it; <i>uncertain</i>: ask the next question, or treat as positive when\n"
            f"the list ends. {html_escaped(INTERVAL_PROMISE)}")


def card_footnote(population, starred):
    """The card's small print: where the list was learned (:func:`learned_from`), the star's
    meaning when a total carries one (``starred``) and a caution."""
    star = " * No training patient had this total: its interval comes from the neighbouring totals." if starred else ""
    return (f"{population}{star}\n"
            "A list is only as good as the population it was learned from; check it on your patients first\n"
            "(Validate).")


# ---------------------------------------------------------------------------- performance
CV_WHERE = "internal cross-validation of the training rows"
NO_INTERVAL = "–"


def rows_where(part, n):
    """Which rows a measure is on: "test rows (n = 99)"."""
    return f"{part} rows" + (f" (n = {n})" if isinstance(n, int) else "")


def auc_interval(low, high):
    """An AUC's Hanley–McNeil interval."""
    return f"{low:.3f} to {high:.3f} (Hanley–McNeil)"


def cv_interval(value, se):
    """The internal cross-validation's interval: mean ± 1.96 standard errors over the folds."""
    return f"{value - 1.96 * se:.3f} to {value + 1.96 * se:.3f} (± 1.96 SE over the folds)"


# ---------------------------------------------------------------------------- headings
YES = "yes"
NEVER_ASKED = "never (as set on Train)"
"""In the predictors' "In the list" column: a column the list was told never to ask."""
"""A column the list asks about, or one put back, in the report's tables."""
QUESTIONS = "Questions"
PREDICTORS = "Predictors offered to the learner"
LEFT_OUT = "Columns proposed out of the list"
LEFT_OUT_NOTE = (
    "Identifiers, dates and times, possible leaks and columns with nothing to learn from, as the app proposed them\n"
    'from the data; "put back": the researcher used the column after all.'
)
AUC_NOTE = (
    "AUC intervals by Hanley and McNeil (1982) from the numbers of patients with and without the\n"
    "outcome (the test part is stratified, so its class sizes follow the outcome rate); the internal\n"
    "cross-validation's interval is its mean ± 1.96 standard errors over the folds."
)
QUESTION_HEADS = ("#", "Question", "Points")
PREDICTOR_HEADS = ("Predictor", "Column", "Type", "Unit", "In the list")
LEFT_OUT_HEADS = ("Column", "Role", "Evidence", "Put back")
PERFORMANCE_HEADS = ("Measure", "Value", "95 % interval", "On")


def risk_heads(confidence):
    """The card's risk table's headings."""
    return ("Total", "Risk", f"{100 * confidence:g} % interval", "Decision")


def cost_head(unit):
    """The card's cost column heading, with the unit (escaped) when there is one."""
    return f"Cost{f' ({html_escaped(unit)})' if unit else ''}"


def header_cells(heads):
    """Table headings as ``<th>`` cells."""
    return "".join(f"<th>{head}</th>" for head in heads)


def performance_at(stage):
    """The report's performance heading."""
    return f"Performance at {stage} {noun(stage, 'question')}"


# Fixed lines with their blanks: the page fills them with str.format (names escaped there).
CARD_TITLE = "{name}: card"
REPORT_TITLE = "{name}: model report"
CARD_META = "{subtitle} · probabilistic scoring list{length} · card printed {date}"
"""The card's line under its title: version, kind of list, length and the day printed."""
REPORT_META = "{subtitle} · items of the TRIPOD statement (Collins et al. 2015) that the app records ·\nreport printed {date}"
"""The report's line under its title."""
