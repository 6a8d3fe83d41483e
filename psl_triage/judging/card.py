"""A list on paper: a one-page printable card and a model report (TRIPOD items), as HTML.

Both are self-contained HTML pages (inline CSS, no script, no external resource) that a
browser shows and prints; every text that comes from a user (model and dataset names,
column labels, units, category names) goes through
:func:`psl_triage.words.escape.html_escaped` (direction controls shown as their code); the report's
sentences are :mod:`psl_triage.words.report`'s and :mod:`psl_triage.words.sample_size`'s.

- :func:`card_html`: the questions with their points, the risk of every total at the chosen
  stage with its interval and the decision it allows at M, the decision
  threshold 1/(1+M), the list's name, version and date. Laid out for one A4 or Letter page
  (print CSS: 12 mm margins, a compact type size that shrinks for long lists).
- :func:`report_html`: the items of the TRIPOD statement (Collins et al. 2015) the app knows:
  source of data, participants, outcome, predictors, sample size, model development,
  performance with intervals, intended use and M, and any recalibration at another site.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime

import numpy as np

from psl_core.cost_ratio import check_cost_ratio, decision_threshold
from psl_core.decision import RULE_IN, RULE_OUT, UNCERTAIN
from psl_core.metrics import MEASURE_LABELS
from psl_core.recommend import base_rate_stages
from psl_core.survival import is_horizon_list
from psl_triage.bedside.session import recommended_length
from psl_triage.data.roles import recorded_roles
from psl_triage.judging.evidence import counted_adequacy, metadata_kinds, parameter_counts
from psl_triage.model_file.metadata import ModelMetadata, list_horizon
from psl_triage.model_file.writer import training_rows_text
from psl_triage.plots import CONFIDENT_NEGATIVE, CONFIDENT_POSITIVE, interval_table
from psl_triage.training.known_at_triage import timing_status
from psl_triage.training.tables import stage_condition, total_label
from psl_triage.training.too_good import recorded_warning
from psl_triage.words import known_at_triage as timing_words
from psl_triage.words import monitoring as watched
from psl_triage.words import report, sample_size
from psl_triage.words.common import cost_text, percent
from psl_triage.words.editors import constraints_said
from psl_triage.words.escape import html_escaped
from psl_triage.words.lists import follow_up_outcome

DEFAULT_CONFIDENCE = 0.95
_DECISION_WORDS = {CONFIDENT_POSITIVE: RULE_IN, CONFIDENT_NEGATIVE: RULE_OUT}

_CSS = """
@page { margin: 12mm; }
* { box-sizing: border-box; }
body { font-family: "DejaVu Sans", Arial, Helvetica, sans-serif; color: #111; margin: 0 auto;
       max-width: 186mm; font-size: var(--size, 10pt); line-height: 1.25; }
h1 { font-size: 1.5em; margin: 0 0 0.2em; }
h2 { font-size: 1.1em; margin: 0.8em 0 0.3em; border-bottom: 1px solid #999; }
p { margin: 0.25em 0; }
.meta { color: #444; font-size: 0.9em; }
.columns { display: flex; gap: 6mm; align-items: flex-start; }
.columns > div { flex: 1 1 0; min-width: 0; }
table { border-collapse: collapse; width: 100%; }
th, td { border: 1px solid #bbb; padding: 0.15em 0.35em; text-align: left; vertical-align: top; }
th { background: #eee; }
td.num { text-align: right; white-space: nowrap; }
tr.in td { background: #fde0d0; }
tr.out td { background: #d6e6f5; }
.box { border: 1px solid #777; padding: 0.4em 0.6em; margin-top: 0.6em; }
.small { font-size: 0.85em; color: #333; }
@media print { body { max-width: none; } a { color: inherit; text-decoration: none; } }
"""


def _page(title, body, size_pt=10.0):
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<title>{html_escaped(title)}</title><style>{_CSS}body {{ --size: {size_pt:g}pt; }}</style>"
        f"</head><body>\n{body}\n</body></html>\n"
    )


def _settings(model, metadata, stage, cost_ratio):
    """(ModelMetadata, stage, M) with the defaults filled in and checked."""
    metadata = ModelMetadata.coerce(metadata)
    stage = recommended_length(model) if stage is None else model._stage(stage)
    cost_ratio = metadata.cost_ratio if cost_ratio is None else check_cost_ratio(cost_ratio)
    return metadata, stage, cost_ratio


def _heading(metadata, approval=None):
    return metadata.default_name, report.subtitle(metadata.version if metadata.is_saved else None, metadata.created, approval)


def _question_rows(model, stage, metadata):
    """The card's question rows: number, question, points and, when any question has one, its cost."""
    columns = metadata.readable_columns()
    costs = model.stage_costs_[:stage]
    cost_cells = [f"<td class=\"num\">{html_escaped(cost_text(c))}</td>" if costs.any() else "" for c in costs]
    return "".join(
        f"<tr><td class=\"num\">{k}</td><td>{html_escaped(stage_condition(model, k, columns))}</td>"
        f"<td class=\"num\">{model.scores_[k - 1]:+d}</td>{cost_cells[k - 1]}</tr>"
        for k in range(1, stage + 1)
    ) or f"<tr><td colspan=\"3\">{report.NO_CARD_QUESTION}</td></tr>"


def _risk_rows(table):
    """The card's risk rows of an :func:`interval_table`: total, risk, interval and decision."""
    return "".join(
        f"<tr class=\"{ {CONFIDENT_POSITIVE: 'in', CONFIDENT_NEGATIVE: 'out'}.get(row.decision, '') }\">"
        f"<td class=\"num\">{total_label(int(row.total))}</td><td class=\"num\">{html_escaped(percent(row.probability, 0))}</td>"
        f"<td class=\"num\">{html_escaped(percent(row.lower, 0))} – {html_escaped(percent(row.upper, 0))}</td>"
        f"<td>{_DECISION_WORDS.get(row.decision, UNCERTAIN)}{' *' if row.no_training_case else ''}</td></tr>"
        for row in table.itertuples()
    )


def _card_footnote(model, metadata, table):
    """Who the list learned from, the totals no training patient reached, its constraints and timing."""
    rows = training_rows_text(metadata)
    population = report.learned_from(metadata.trained_on.name, rows) + report.recalibrated_at(metadata.origin)
    return " ".join((
        report.card_footnote(population, bool(table["no_training_case"].any())), _constraints(model), _timing(model, metadata),
    ))


def card_html(model, metadata, stage=None, cost_ratio=None, confidence=DEFAULT_CONFIDENCE, approval=None):
    """The printable one-page card of a list.

    Parameters
    ----------
    model : fitted ProbabilisticScoringList
    metadata : ModelMetadata or dict
        Its model-file metadata (name, version, created, dataset, columns, decision).
    stage : int or None
        How many questions the card holds; default :func:`~psl_triage.bedside.session.recommended_length`.
    cost_ratio : float or None
        M; default the list's saved M (:func:`psl_core.cost_ratio.saved_cost_ratio`).
    confidence : float
        Level of the intervals.
    approval : str or None
        Who saved and who approved the list, on a shared ward (under the title).

    Returns
    -------
    str
        A complete HTML page.
    """
    metadata, stage, cost_ratio = _settings(model, metadata, stage, cost_ratio)
    threshold = decision_threshold(cost_ratio)
    name, subtitle = _heading(metadata, approval)
    table = interval_table(model, stage, cost_ratio, confidence)
    has_costs = bool(model.stage_costs_[:stage].any())
    cost_header = f"<th>{report.cost_head(metadata.cost_unit or '')}</th>" if has_costs else ""
    n_rows = stage + len(table)
    length_note = report.length_note(stage, len(model.literals_), stage == getattr(model, "recommended_stages_", None))
    size = 10.0 if n_rows <= 40 else max(6.5, 10.0 * 40 / n_rows)
    held = _held_at_base_rate(model, stage)
    held_note = f'<p class="small">{held}</p>' if held else ""
    body = f"""
<h1>{html_escaped(name)}</h1>
<p class="meta">{report.CARD_META.format(subtitle=subtitle, length=length_note, date=datetime.now(UTC).date().isoformat())}</p>
<p>{report.card_intro(metadata.positive_label)}</p>
{_too_good_box(metadata)}
<div class="columns">
<div><h2>{report.QUESTIONS}</h2>
<table><tr>{report.header_cells(report.QUESTION_HEADS)}{cost_header}</tr>{_question_rows(model, stage, metadata)}</table></div>
<div><h2>{report.risk_after(stage)}</h2>
<table><tr>{report.header_cells(report.risk_heads(confidence))}</tr>{_risk_rows(table)}</table></div>
</div>
<div class="box">{report.threshold_box(cost_ratio, threshold)}</div>
{held_note}
<p class="small">{_card_footnote(model, metadata, table)}</p>
"""
    return _page(report.CARD_TITLE.format(name=name), body, size)


# ---------------------------------------------------------------------------- the report
def _auc_interval(auc, n_positive, n_negative):
    """Hanley–McNeil (1982) 95 % interval of an AUC from its value and class sizes."""
    if not (n_positive and n_negative) or not math.isfinite(auc):
        return math.nan, math.nan
    q1, q2 = auc / (2 - auc), 2 * auc * auc / (1 + auc)
    variance = (auc * (1 - auc) + (n_positive - 1) * (q1 - auc * auc) + (n_negative - 1) * (q2 - auc * auc)) / (
        n_positive * n_negative
    )
    half = 1.96 * math.sqrt(max(variance, 0.0))
    return max(0.0, auc - half), min(1.0, auc + half)


def _performance_rows(model, metadata, stage):
    """Rows (measure, value, interval, where) of the report's performance section."""
    performance, options = metadata.performance or {}, metadata.training_options or {}
    dataset = metadata.trained_on
    rate = dataset.n_positive / dataset.n_rows if dataset.n_positive is not None and dataset.n_rows else None
    rows = []
    for part, size_key in (("test", "n_test"), ("train", "n_train")):
        values = performance.get(part)
        if not isinstance(values, dict):
            continue
        n = options.get(size_key)
        where = report.rows_where(part, n)
        for measure, label in ((code, MEASURE_LABELS[code]) for code in ("brier", "auc")):
            series = values.get(measure)
            if not isinstance(series, list) or stage >= len(series) or not isinstance(series[stage], (int, float)):
                continue
            value = float(series[stage])
            interval = report.NO_INTERVAL
            if measure == "auc" and isinstance(n, int) and rate is not None:
                n_positive = round(n * rate)
                low, high = _auc_interval(value, n_positive, n - n_positive)
                if math.isfinite(low):
                    interval = report.auc_interval(low, high)
            rows.append((label, f"{value:.3f}", interval, where))
    brier = getattr(model, "validation_brier_", None)
    if brier is not None and stage < len(brier) and np.isfinite(brier[stage]):
        se = model.validation_brier_se_[stage]
        interval = report.cv_interval(brier[stage], se) if np.isfinite(se) else report.NO_INTERVAL
        rows.append((MEASURE_LABELS["brier"], f"{brier[stage]:.3f}", interval, report.CV_WHERE))
    return rows


def _frame_html(frame, digits=3):
    """A small DataFrame as an HTML table, every cell escaped."""
    head = "".join(f"<th>{html_escaped(str(c))}</th>" for c in frame.columns)

    def cell(value):
        if isinstance(value, (float, np.floating)):
            return f'<td class="num">{"–" if not np.isfinite(value) else f"{value:.{digits}f}"}</td>'
        return f"<td>{html_escaped(str(value))}</td>"

    rows = "".join("<tr>" + "".join(cell(v) for v in row) + "</tr>" for row in frame.itertuples(index=False))
    return f"<table><tr>{head}</tr>{rows}</table>"


def _sample_size_text(model, metadata):
    """TRIPOD 8: the sample size and its justification by Riley's criteria."""
    dataset = metadata.trained_on
    n_rows, n_positive = dataset.n_rows, dataset.n_positive
    if n_rows is None or n_positive is None or not 0 < n_positive < n_rows:
        return report.NOT_RECORDED
    uses = int(getattr(model, "max_feature_uses", 1) or 1)
    size, _, _ = counted_adequacy(n_rows, n_positive, parameter_counts(metadata_kinds(metadata), uses), uses)
    return sample_size.report_justification(size, uses, n_rows)


def _evidence_items(evidence, horizon_list=False):
    """(calibration, utility, subgroups) of the report: what this session computed, else a hint
    (for a horizon list's subgroups, which no page measures, why not)."""
    calibration = report.not_computed(report.CALIBRATION_PAGE)
    if "calibration" in evidence:
        table, source = evidence["calibration"]
        calibration = report.on_source(source) + _frame_html(table)
    utility = report.not_computed(report.UTILITY_PAGE)
    if "utility" in evidence:
        utility = report.utility(*evidence["utility"])
    subgroups = report.HORIZON_SUBGROUPS if horizon_list else report.not_computed(report.SUBGROUPS_PAGE)
    if evidence.get("subgroups"):
        subgroups = "".join(report.subgroup_heading(column, where, named, judged) + _frame_html(display)
                            for where, column, display, named, judged in evidence["subgroups"])
    return calibration, utility, subgroups


def _predictors(model, metadata, stage):
    """Rows of the predictors offered to the learner, and whether the list asks about each (or
    was told never to)."""
    used = {str(literal.column) for literal in model.literals_[:stage]}
    never = {str(column) for column in getattr(model, "forbidden", None) or ()}
    return "".join(
        f"<tr><td>{report.html_text(info.label, str(column))}</td>"
        f"<td>{report.html_text(column)}</td><td>{report.html_text(info.kind)}</td>"
        f"<td>{report.html_text(info.unit)}</td>"
        f"<td>{report.YES if str(column) in used else report.NEVER_ASKED if str(column) in never else ''}</td></tr>"
        for column, info in (metadata.columns or {}).items()
    ) or f"<tr><td colspan=\"5\">{report.NOT_RECORDED}</td></tr>"


def _constraints(model):
    """What the user said the list must respect (asked first, never, directions), escaped; "" without."""
    said = constraints_said(getattr(model, "monotone", None), getattr(model, "required", None),
                            getattr(model, "forbidden", None))
    return html_escaped(said)


def _timing(model, metadata):
    """Whether the researcher confirmed each question is known at triage (:func:`timing_status`),
    escaped; "" for a list that asks nothing."""
    status = timing_status(model, metadata)
    return html_escaped(timing_words.report_said(status.state, status.later, status.unanswered, status.asked))


def _held_at_base_rate(model, stage):
    """The note on a stage whose risk stays at the base rate (:func:`base_rate_stages`, the rule
    of the Train page's table and of Triage), or ""."""
    if stage not in base_rate_stages(getattr(model, "shrinkage_", None)):
        return ""
    return report.held_at_base_rate(stage, percent(model.stage_probabilities_[0][0]))


def _too_good_box(metadata):
    """The too-good-to-be-true warning a list was trained with, boxed on its card ("" without)."""
    warning = recorded_warning(metadata)
    return "" if warning is None else f'<div class="box">{report.too_good(warning.reasons, warning.questions).strip()}</div>'


def _development(model, metadata, stage):
    """TRIPOD 10: how the list was learned, its shrinkage and any too-good-to-be-true warning."""
    development = report.development(len(model.literals_), model.calibration, model.loss, model.score_set,
                                     model.interval_correction, stage,
                                     stage == getattr(model, "recommended_stages_", None))
    factors = getattr(model, "shrinkage_", None)
    if held := _held_at_base_rate(model, stage):
        development += " " + held
    elif factors is not None and stage < len(factors):
        development += report.shrinkage(factors[stage])
    if said := _constraints(model):
        development += " " + said
    warning = recorded_warning(metadata)
    if warning is not None:
        development += report.too_good(warning.reasons, warning.questions)
    return development


def _follow_up(model, metadata):
    """The horizon, time column and censoring of a list of follow-up data ("" for a yes/no list)."""
    horizon = list_horizon(model, metadata)
    if horizon is None:
        return ""
    return " " + html_escaped(follow_up_outcome(horizon.time or "?", horizon.horizon, horizon.unit))


def _left_out(metadata):
    """Rows of the columns proposed out of the list, with the evidence and whether put back."""
    return "".join(
        f"<tr><td>{report.html_text(column)}</td><td>{html_escaped(role)}</td><td>{report.html_text(evidence)}</td><td>{report.YES if kept else ''}</td></tr>"
        for column, role, evidence, kept in recorded_roles(metadata)
    ) or f"<tr><td colspan=\"4\">{report.NO_ROLES}</td></tr>"


def _performance(model, metadata, stage):
    """The report's performance table with its AUC footnote, or a sentence when the file
    records no performance (then no footnote on a table not shown)."""
    rows = "".join(
        f"<tr><td>{label}</td><td class=\"num\">{value}</td><td>{html_escaped(interval)}</td><td>{html_escaped(where)}</td></tr>"
        for label, value, interval, where in _performance_rows(model, metadata, stage)
    )
    if not rows:
        return f"<p>{report.NO_PERFORMANCE}</p>"
    return (f"<table><tr>{report.header_cells(report.PERFORMANCE_HEADS)}</tr>{rows}</table>\n"
            f"<p class=\"small\">{report.AUC_NOTE}</p>")


def _validation(origin, site):
    """TRIPOD+AI external validation: the recalibration the file records and the site judged in
    this session (``evidence["site"]``)."""
    validation = report.recalibration(origin)
    if not site:
        return validation
    validation = (validation if origin else "") + report.judged_at(site["where"])
    if site.get("caveat"):  # the Validate page's warning, in its words
        validation += report.paragraph(site["caveat"])
    if "sample_size" in site:
        sentence, precision = site["sample_size"]
        validation += report.paragraph(sentence) + (_frame_html(precision) if len(precision) else "")
    if "calibration" in site:
        validation += f"<p>{report.SITE_CALIBRATION}</p>" + _frame_html(site["calibration"])
    if site.get("utility"):
        validation += report.paragraph(site["utility"])
    return validation


def _monitoring(monitoring):
    """The list watched in service (the Monitor page's result in this session): the chart's and
    the closed test's verdicts and the measures per period, or a sentence when not monitored."""
    if monitoring is None:
        return f"<p>{watched.NOT_MONITORED}</p>"
    periods = monitoring.periods
    text = watched.report_summary(monitoring)
    return (f"<p>{html_escaped(text)}</p>" + _frame_html(watched.headed(periods, watched.REPORT_PERIOD_HEADS))
            + f"<p class=\"small\">{html_escaped(watched.REPORT_NOTE_WEIGHTED if monitoring.weighted else watched.REPORT_NOTE)}"
            "</p>")


def _items(model, metadata, stage, cost_ratio, evidence):
    """The rows of the report's table of TRIPOD items."""
    dataset, options = metadata.trained_on, metadata.training_options or {}
    calibration, utility, subgroups = _evidence_items(evidence, is_horizon_list(model))
    readable = metadata.readable_columns()
    questions = "".join(
        f"<li>{html_escaped(stage_condition(model, k, readable))}: {model.scores_[k - 1]:+d}</li>" for k in range(1, stage + 1)
    )
    items = {
        "source": report.html_text(dataset.name, report.NOT_RECORDED),
        "participants": report.participants(dataset),
        "outcome": report.outcome(dataset, metadata.positive_label, _follow_up(model, metadata)),
        "sample_size": report.sample_sizes(options.get("n_train"), options.get("n_test")),
        "justification": _sample_size_text(model, metadata),
        "development": _development(model, metadata, stage),
        "questions": f"<ol>{questions}</ol>" if questions else report.NO_QUESTION,
        "intended_use": report.intended_use(metadata.positive_label, cost_ratio, decision_threshold(cost_ratio)),
        "validation": _validation(metadata.origin, evidence.get("site")),
        "calibration": calibration,
        "utility": utility,
        "subgroups": subgroups,
    }
    return "\n".join(f"<tr><th>{label}</th><td>{items[key]}</td></tr>" for key, label in report.ITEMS.items())


def report_html(model, metadata, stage=None, cost_ratio=None, evidence=None, approval=None):
    """The model report: the TRIPOD items the app knows about a list, as a complete HTML page.

    ``model``, ``metadata``, ``stage`` (the length reported on), ``cost_ratio`` and ``approval``
    with their defaults as in :func:`card_html`; ``evidence``, when there is any, is
    :func:`psl_triage.judging.evidence.report_evidence`: the calibration hierarchy, clinical utility
    and subgroups computed in this session (TRIPOD+AI items), with ``"monitoring"``: the list
    watched in service (:class:`psl_triage.judging.monitoring.Monitoring`), when the Monitor page ran.
    """
    metadata, stage, cost_ratio = _settings(model, metadata, stage, cost_ratio)
    name, subtitle = _heading(metadata, approval)
    body = f"""
<h1>{html_escaped(report.REPORT_TITLE.format(name=name))}</h1>
<p class="meta">{report.REPORT_META.format(subtitle=subtitle, date=datetime.now(UTC).date().isoformat())}</p>
<table>
{_items(model, metadata, stage, cost_ratio, evidence or {})}
</table>
<h2>{report.PREDICTORS}</h2>
<table><tr>{report.header_cells(report.PREDICTOR_HEADS)}</tr>{_predictors(model, metadata, stage)}</table>
<p>{_timing(model, metadata)}</p>
<h2>{report.LEFT_OUT}</h2>
<p class="small">{report.LEFT_OUT_NOTE}</p>
<table><tr>{report.header_cells(report.LEFT_OUT_HEADS)}</tr>{_left_out(metadata)}</table>
<h2>{report.performance_at(stage)}</h2>
{_performance(model, metadata, stage)}
<h2>{watched.REPORT_HEADING}</h2>
{_monitoring((evidence or {}).get("monitoring"))}
"""
    return _page(report.REPORT_TITLE.format(name=name), body)
