"""The Monitoring page's words: a list in service watched over time, and its model-report section."""

from __future__ import annotations

from psl_triage.words.escape import md

DATE_NOT_IN_TABLE = "The table has no column {column!r}: choose the date column again."
DATE_IS_OUTCOME = (
    "The date column {column!r} is also chosen as the outcome (or the follow-up time): choose different columns."
)
NO_DATES = (
    "No value of the column {column!r} reads as a date (2024-03-01, 01/03/2024) or a year (2024): choose the "
    "column that holds the date each patient was seen."
)

DAY_FIRST = (
    "Every date in {column!r} reads both day first and month first (01/03/2024): they are read day first "
    "(1 March). Upload ISO dates (2024-03-01) if they are month first."
)


def _horizon(horizon: float, unit: str) -> str:
    return f"{horizon:g}{' ' + unit if unit else ''}"


def censored_weighted(count: int, n: int, horizon: float, unit: str) -> str:
    """A note (plain text) on patients censored before a horizon list's horizon."""
    return (f"{count} of {n} patients were censored before the horizon ({_horizon(horizon, unit)}): their outcome "
            "by it is not known, so the others are weighted to stand in for them (below).")


WEIGHTED = (
    "**Censoring weighted.** A patient censored before the horizon has no known outcome by it, and the patients "
    "seen last have been followed for the shortest time: leaving them out would drop mostly patients without the "
    "event and make every rate too high. Each period's patients whose outcome is known are weighted by the inverse "
    "of the chance of staying in follow-up that long (Kaplan-Meier of the censoring among that period's patients): "
    "the outcome rate, O/E, calibration intercept and slope (robust intervals), Brier score, AUC and net benefit "
    "are the weighted ones; the CUSUM charts the patients whose outcome is known, each step times the patient's "
    "weight; the closed test counts each patient its weight (scaled to mean 1), an approximation. "
    "The answers and the stop rule's shares count every patient seen. The weights assume censoring unrelated to "
    "the outcome within a period."
)


CHOOSE_TIME = "Choose the column that holds each patient's follow-up time."
TIME_COLUMN = "Follow-up time"
TIME_PLACEHOLDER = "Choose the time column"


def left_out_without_date(count: int, column: str) -> str:
    """A note (plain text: the page escapes notes once) on rows left out for want of a date."""
    return f"{count} row{'s' if count != 1 else ''} without a date in {column!r} left out."


def unknown_period(period: str, periods: list) -> str:
    return f"The period must be one of {', '.join(periods)}, got {period!r}."


def no_patient_answers(stage: int) -> str:
    return (f"No patient has answers to the first {stage} questions (or missing ones the list learned a "
            "direction for): choose fewer questions, or map the missing columns.")


# ---------------------------------------------------------------------------- the page
TITLE = "Monitor"
INTRO = (
    "A list in use drifts as patients, prevalence and practice change. Upload the patients seen since the "
    "list went live, with the date each was seen and the outcome as it became known: the page follows its "
    "calibration period by period, charts a risk-adjusted CUSUM over the patients in date order, and names "
    "the smallest update the data support (keep, update the intercept, recalibrate or refit)."
)
NO_LIST = "Train a list (or load a saved one) first: monitoring watches a list in use."
LIST_LABEL = "List in use"
UPLOAD_WHAT = " of the patients seen since the list went live, one row per patient, with the date each was seen"
UPLOAD_FIRST = "Upload the patients seen since the list went live: a date column, the list's columns, the outcome."
TABLE_HEADER = "1. The patients seen since go-live"
MATCH_HEADER = "2. The list's columns in this table"
SETTINGS_HEADER = "3. Dates, outcome and periods"
DATE_COLUMN = "Date each patient was seen"
DATE_PLACEHOLDER = "Choose the date column"
CHOOSE_DATE = "Choose the column that holds the date (or year) each patient was seen."
OUTCOME_COLUMN = "Outcome column"
OUTCOME_PLACEHOLDER = "Choose the outcome column"
CHOOSE_OUTCOME = "Choose the column that holds the outcome as it became known."
POSITIVE_LABEL = "Values that mean the outcome happened"
CHOOSE_POSITIVE = "Choose the values of the outcome column that mean the outcome happened."
PERIOD_LABEL = "Period"
PERIOD_WORDS = {"month": "Month", "quarter": "Quarter", "year": "Year"}
TEST_FROM = "Closed test on the patients seen from"
PERIODS_HEADER = "4. Period by period"
CUSUM_HEADER = "5. Risk-adjusted CUSUM"
UPDATE_HEADER = "6. The smallest update the data support"
ANSWERS_HEADER = "7. Answers against training"
READING_TABLE = "reading the table"
CODING_TABLE = "coding the table"
MONITORING = "monitoring the list"
GO_RECALIBRATE = "Recalibrate on these patients (Validate)"
RECALIBRATION_NOTE = (
    "The app's recalibration (on the Validate page) re-estimates every total's risk on these patients, the "
    "questions and points kept: it makes the update the test names, and a refit of the risks per total."
)
NO_CLOSED_TEST = "The closed test needs patients with and without the outcome since that date."


def table_size(name: str, n_rows: int, n_columns: int) -> str:
    return f"{md(name)}: {n_rows:,} rows, {n_columns} columns."


def period_summary(n_periods: int, n_judged: int, min_outcomes: int, n_left_out: int) -> str:
    """What the period table holds, and which periods it does not judge."""
    text = f"{n_periods} period{'s' if n_periods != 1 else ''}, {n_judged} judged."
    if n_judged < n_periods:
        text += (f" A period with fewer than {min_outcomes} patients with the outcome, or without it, is too small "
                 "to judge: its patients are counted, its measures left empty.")
    if n_left_out:
        text += (f" {n_left_out:,} patient{'s' if n_left_out != 1 else ''} with an answer the list cannot score "
                 "(missing, and no direction learned for it) left out.")
    return text


CHART_MEANINGS = {"up": "higher risk than predicted", "down": "lower risk than predicted",
                  "flatter": "risks too extreme (calibration slope below 1)",
                  "steeper": "risks too timid (calibration slope above 1)"}
"""What each of the four calibration charts' signal says (psl_core.monitoring.CHARTS)."""
QUESTION_MEANINGS = {"weaker": "the answers up to question {k} separate risks less than the list says there "
                                "(calibration slope below 1 at question {k})",
                     "stronger": "the answers up to question {k} separate risks more than the list says there "
                                 "(calibration slope above 1 at question {k})",
                     "fewer": "question {k}'s condition met less often than in training (case mix)",
                     "more": "question {k}'s condition met more often than in training (case mix)"}
"""What a question chart's signal says (psl_core.monitoring.chart_names: "weaker 2"...)."""


def chart_meaning(name: str) -> str:
    """What a chart's signal says, for a chart name of psl_core.monitoring.chart_names."""
    if name in CHART_MEANINGS:
        return CHART_MEANINGS[name]
    kind, k = name.split(" ")
    return QUESTION_MEANINGS[kind].format(k=k)


def _signalled(signals: dict) -> list:
    return [(name, chart_meaning(name)) for name, date in signals.items() if date is not None]


def _limits(limits: dict) -> str:
    """The charts' limits in a few words: the odds charts' and the range of all."""
    values = list(limits.values())
    return (f"{limits['up']:.2f} and {limits['down']:.2f} for the odds, {min(values):.2f} to {max(values):.2f} "
            "over all the charts")


def cusum_sentence(signals: dict, false_alarm: float, n: int, cusum) -> str:
    """The charts' verdict: the date each first signalled, or that none did (``cusum``: the
    ratios and slopes the charts watch for, psl_core.monitoring.Cusum)."""
    up, down = cusum.odds_ratios
    flatter, steeper = cusum.slopes
    weaker, stronger = cusum.question_slopes
    fewer, more = cusum.case_mix_ratios
    n_questions = sum(name.startswith("more ") for name in signals)
    base = (f"Over {n:,} patients in date order, charts watch for the odds of the outcome multiplied by "
            f"{up:g} (the list under-estimates) or by {down:g} (it over-estimates), and for a calibration slope "
            f"of {flatter:g} (its risks too extreme) or {steeper:g} (too timid)")
    if n_questions > 1:
        base += (f"; at each earlier question (1 to {n_questions - 1}) for the slope of the list's risks there "
                 f"{weaker:.2g} or {stronger:.2g} (a question's effect weakened or strengthened)")
    if n_questions:
        base += (f"; per question (1 to {n_questions}) for its condition met at odds {more:g} or {fewer:.2g} "
                 "times those in training (the case mix moved)")
    base += (f". The limits ({_limits(cusum.limits)}) are set by simulation, the list's risks and answer shares "
             "drawn as its training could as well have given them, so that a list as good as its training, on "
             f"patients like its training ones, signals on any chart anywhere in these patients with probability "
             f"{false_alarm:.0%}: one joint limit, each chart measured against the spread of its own simulated "
             "peaks, each earlier question's risks drawn with their own estimation error, so that a chart of small "
             "steps is not held to the limit of one of large steps (the figure draws each chart as a share of its "
             "own limit)")
    base += " (Steiner et al. 2000)."
    said = [f"**signals {what} on {signals[name]:%Y-%m-%d}**" for name, what in _signalled(signals)]
    return base + (" The chart " + " and ".join(said) + "." if said else " No chart signals.")


MEASURED_DELAYS = {
    150: {"prevalence": (20, 20, 0.5, 0.8), "case mix": (20, 20, 2.4, 3.6), "effect": (5, 20, 10.6, 11.4)},
    600: {"prevalence": (9, 10, 0.2, 0.2), "case mix": (10, 10, 0.7, 1.2), "effect": (9, 10, 5.5, 10.8)},
}
"""The project's benchmark (section 16), per patients a month and shift: runs that signalled in the
year after it, runs, the median and largest delay in months."""
FALSE_ALARMS = {150: (4, 200, 0, 60), 600: (0, 10, 1, 30)}
"""Per patients a month: unchanged runs (24 months) that signalled, of how many; shifted runs that
signalled in their unchanged first year, of how many."""


def _delays(per_month: int) -> str:
    found = MEASURED_DELAYS[per_month]

    def said(kind):
        signalled, runs, median, most = found[kind]
        return f"{signalled} of {runs} runs, {median:g} months at the median, {most:g} at most"

    false, runs, before, shifted = FALSE_ALARMS[per_month]
    return (f"at {per_month} patients a month the outcome half as common again in {said('prevalence')}; a case mix "
            f"moved in {said('case mix')}; **one question's effect halved in {said('effect')}**; false signals in "
            f"{false} of {runs} unchanged runs and {before} of {shifted} first years")


def what_charts_see(per_month: float) -> str:
    """How fast the charts see each kind of shift, as measured, beside this table's volume."""
    measured = "; ".join(_delays(volume) for volume in MEASURED_DELAYS)
    return (f"How fast the charts see a shift within the year after it, measured on simulated patients (a list "
            f"from 10,000 patients; the project's benchmark, section 16): {measured}. These patients come at about "
            f"{per_month:,.0f} a month: a chart gathers its evidence patient by patient, and four times the patients "
            "a month cut the delays about fourfold. **A quiet chart does not show that no question's effect "
            "changed**: the charts see one predictor's effect halved in few runs; the closed test below, on the "
            "patients since a chosen date, judges it too.")


UPDATE_WORDS = {
    "keep": "keep the list as it is",
    "intercept": "update the intercept (every risk shifted on the log-odds scale)",
    "recalibrate": "recalibrate (intercept and slope: the risks re-estimated for the same questions)",
    "refit": "refit (every total's risk re-estimated, the questions and points kept)",
}


def closed_test_sentence(closed, since) -> str:
    start = "all the patients" if since is None else f"the patients seen from {since:%Y-%m-%d}"
    return (f"On {start} ({closed.n:,}, {closed.events:,} with the outcome), the closed testing procedure "
            f"(Vergouwe et al. 2017, each likelihood-ratio test at {closed.alpha:g}) says: "
            f"**{UPDATE_WORDS[closed.recommendation]}**.")


PERIOD_HEADS = {
    "period": "Period", "seen": "Patients seen", "patients": "Patients judged",
    "known": "Outcome known (by the horizon)", "events": "With the outcome",
    "rate": "Outcome rate", "expected": "Mean predicted", "judged": "Judged", "oe": "O/E", "oe_lower": "O/E low",
    "oe_upper": "O/E high", "intercept": "Intercept", "intercept_lower": "Intercept low",
    "intercept_upper": "Intercept high", "slope": "Slope", "slope_lower": "Slope low", "slope_upper": "Slope high",
    "brier": "Brier score", "auc": "AUC", "net_benefit": "Net benefit at 1/(1+M)",
    "followed": "Followed by the stop rule", "share_rule_in": "Ruled in", "share_rule_out": "Ruled out",
    "share_uncertain": "Uncertain",
}
TEST_HEADS = {"update": "Update against the refit", "statistic": "LR statistic", "df": "df", "p_value": "p",
              "significant": "Significant", "reached": "Reached"}
ANSWER_HEADS = {"period": "Period", "question": "Question", "patients": "Patients",
                "met": "Condition met", "not_recorded": "Not recorded", "met_training": "Condition met, training",
                "not_recorded_training": "Not recorded, training"}
STOP_HEADS = {"period": "Period", "stage": "Stopped after question", "share": "Share"}


def stop_column(stage: int) -> str:
    return f"Q{stage}" if stage else "Q0 (prior)"
CHART_HEADS = {"patient": "Patient", "date": "Date", "outcome": "Outcome", "risk": "Risk",
               "weight": "Censoring weight", "up": "Chart up",
               "down": "Chart down", "flatter": "Chart slope below 1", "steeper": "Chart slope above 1"}
QUESTION_CHART_HEADS = {"weaker": "Chart Q{k} weaker", "stronger": "Chart Q{k} stronger",
                        "fewer": "Chart Q{k} met less often", "more": "Chart Q{k} met more often"}


def chart_heads(columns) -> dict:
    """The chart table's heads: :data:`CHART_HEADS` and each question chart's."""
    questions = {}
    for name in columns:
        kind, _, k = str(name).partition(" ")
        if kind in QUESTION_CHART_HEADS and k:
            questions[name] = QUESTION_CHART_HEADS[kind].format(k=k)
    return CHART_HEADS | questions


def headed(table, heads: dict):
    """A table with its columns named for the reader (columns without a head dropped)."""
    return table[[c for c in heads if c in table.columns]].rename(columns=heads)


def questions_caption(conditions: list) -> str:
    return " · ".join(f"Q{k}: {md(text)}" for k, text in enumerate(conditions, start=1))


# ---------------------------------------------------------------------------- figures
OE_PANEL = "Observed / expected"
SLOPE_PANEL = "Calibration slope"
IDEAL = "ideal"
ESTIMATE = "estimate"
INTERVAL = "interval"
CHART_UP = "odds higher than predicted"
CHART_DOWN = "odds lower than predicted (drawn below 0)"
CHART_FLATTER = "slope below 1 at the question judged: risks too extreme"
CHART_STEEPER = "slope above 1 at the question judged: risks too timid (below 0)"
ODDS_PANEL = "Odds of the outcome (higher above 0, lower below)"
SLOPES_PANEL = "Calibration slope, at the question judged and each earlier one (below 1 above 0, above 1 below)"
CASE_MIX_PANEL = "Case mix: each question met more often (above 0) or less often (below)"


def question_trace(k: int, kind: str) -> str:
    """A question chart's trace name: "Q2 weaker"..."""
    return f"Q{k} {kind}"
LIMIT = "alarm limit"
SIGNAL = "signal"
PATIENT_ORDER = "Patients in the order seen"
CHART_HOVER = "patient %{x:,}, seen %{customdata|%Y-%m-%d}: %{y:.2f} of its limit<extra></extra>"
CHART_AXIS = "CUSUM as a share of its limit"
SHIFT_TITLE = "Condition met: this period minus training (percentage points)"
SHIFT_HOVER = "%{y}, %{x}: %{z:+.1f} points<extra></extra>"
QUESTION_AXIS = "Question"
PERIOD_AXIS = "Period"


def question_label(k: int) -> str:
    return f"Q{k}"
MONITORING_NOW = "Monitoring the list: simulating the CUSUM's alarm limit…"


# ---------------------------------------------------------------------------- the model report
REPORT_HEADING = "Monitoring in service"
NOT_MONITORED = "Not monitored in this session: the Monitor page watches the list over the patients seen since go-live."
REPORT_PERIOD_HEADS = {
    "period": "Period", "patients": "Patients", "known": "Outcome known", "events": "With the outcome", "oe": "O/E",
    "oe_lower": "O/E low",
    "oe_upper": "O/E high", "slope": "Slope", "slope_lower": "Slope low", "slope_upper": "Slope high",
    "brier": "Brier", "auc": "AUC", "net_benefit": "Net benefit",
}
REPORT_NOTE = ("Intervals 95 %: O/E from ln(O/E) ± 1.96 sqrt(1/O − 1/n), the slope by a Wald interval; periods too "
               "small to judge show –.")
REPORT_NOTE_WEIGHTED = (
    "The outcome is the event by the list's horizon, censoring weighted: patients censored before it weigh 0, the "
    "others the inverse of the Kaplan-Meier chance of staying in follow-up that long among their period's patients. "
    "Intervals 95 %: O/E from ln(O/E) ± 1.96 × its weighted standard error, the slope by a Wald interval with a "
    "robust (sandwich) variance; periods too small to judge show –."
)


def report_summary(monitoring) -> str:
    """The monitoring in plain text for the report: span, CUSUM verdict, closed test."""
    chart, periods = monitoring.chart, monitoring.periods
    start, end = chart["date"].iloc[0], chart["date"].iloc[-1]
    signals = [f"{what} on {monitoring.signals[name]:%Y-%m-%d}" for name, what in _signalled(monitoring.signals)]
    known = (f" (of {int(periods['patients'].sum()):,} judged, those whose outcome by the horizon is known, "
             "censoring weighted)" if monitoring.weighted else "")
    text = (f"{len(chart):,} patients{known} seen from {start:%Y-%m-%d} to {end:%Y-%m-%d}, in {len(periods)} "
            f"{monitoring.period}s ({int(periods['judged'].sum())} judged), at question {monitoring.stage}. "
            f"Risk-adjusted CUSUM (Steiner et al. 2000; limits {_limits(monitoring.cusum.limits)}, false-alarm probability "
            f"{monitoring.cusum.false_alarm:.0%}): " + ("signals " + " and ".join(signals) if signals else "no signal")
            + ".")
    closed = monitoring.closed
    if closed is not None:
        since = "" if monitoring.test_from is None else f" from {monitoring.test_from:%Y-%m-%d}"
        text += (f" Closed testing procedure (Vergouwe et al. 2017) on the patients{since}: "
                 f"{UPDATE_WORDS[closed.recommendation]}.")
    return text
