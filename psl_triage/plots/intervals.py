"""The probability of every reachable total with its interval against 1/(1+M) (the paper's Figure 5)."""

import math

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from psl_core.cost_ratio import DEFAULT_COST_RATIO, decision_threshold
from psl_core.decision import outcome_codes
from psl_triage.plots.style import (
    CONFIDENT_NEGATIVE,
    CONFIDENT_POSITIVE,
    MARGIN,
    NEUTRAL_COLOR,
    NO_TRAINING_CASE,
    STATUS_COLORS,
    THRESHOLD_NAME,
    UNCERTAIN,
    error_bars,
    stage_index,
)
from psl_triage.words import figures as words
from psl_triage.words.common import level_text, m_equals


def interval_table(model, stage, cost_ratio=DEFAULT_COST_RATIO, confidence=0.95):
    """Every reachable total of a stage with its interval and what it lets a clinician decide.

    ``decision`` is :data:`CONFIDENT_POSITIVE` when the whole interval lies above
    1 / (1 + M), :data:`CONFIDENT_NEGATIVE` when it lies below it (as
    :func:`psl_core.decision.triage_step` decides), else :data:`UNCERTAIN`;
    ``no_training_case`` marks totals that no training row had (their bounds come from
    the neighbouring totals).

    Returns
    -------
    pandas.DataFrame: stage, total, positives, negatives, lower, probability, upper,
    decision, no_training_case.
    """
    threshold = decision_threshold(cost_ratio)
    stage = stage_index(model, stage)
    totals, lower, point, upper = model.stage_interval(stage, confidence)
    positives = model.stage_positives_[stage]
    negatives = model.stage_negatives_[stage]
    decision = np.array([CONFIDENT_NEGATIVE, UNCERTAIN, CONFIDENT_POSITIVE])[outcome_codes(lower, upper, threshold) + 1]
    return pd.DataFrame(
        {
            "stage": stage,
            "total": totals,
            "positives": positives,
            "negatives": negatives,
            "lower": lower,
            "probability": point,
            "upper": upper,
            "decision": decision,
            "no_training_case": (positives + negatives) == 0,
        }
    )


def _interval_traces(table, in_legend):
    """Markers with error bars, one trace per decision; totals without training case hollow.

    ``in_legend`` (a set of trace names) holds the names already in the legend; a trace
    with points whose name is not yet there goes into the legend and its name into the set.
    """
    seen = ~table["no_training_case"]
    parts = [
        (status, table[seen & (table["decision"] == status)],
         {"color": color, "symbol": "circle", "size": 9}, color)
        for status, color in STATUS_COLORS.items()
    ]
    hollow = table[~seen]
    parts.append((NO_TRAINING_CASE, hollow,
                  {"color": hollow["decision"].map(STATUS_COLORS).tolist(), "symbol": "circle-open",
                   "size": 10, "line": {"width": 2}}, NEUTRAL_COLOR))
    traces = []
    for name, part, marker, bar_color in parts:
        showlegend = len(part) > 0 and name not in in_legend
        if showlegend:
            in_legend.add(name)
        traces.append(_interval_scatter(part, name, marker, bar_color, showlegend))
    return traces


def _interval_scatter(part, name, marker, bar_color, showlegend):
    # Plain arrays: plotly reads a pandas column through narwhals, a cost that adds up over
    # the hundreds of traces of a long list's grid.
    part = {column: part[column].to_numpy() for column in ("total", "probability", "lower", "upper",
                                                           "positives", "negatives")}
    return go.Scatter(
        x=part["total"], y=part["probability"], mode="markers", name=name, legendgroup=name,
        showlegend=showlegend, marker=marker,
        error_y=error_bars(part, "probability", bar_color),
        customdata=np.column_stack([part["lower"], part["upper"], part["positives"], part["negatives"]]),
        hovertemplate=(words.INTERVAL_HOVER + name + "</extra>"),
    )


def _threshold_trace(totals, threshold, showlegend):
    low, high = float(np.min(totals)) - 0.5, float(np.max(totals)) + 0.5
    return go.Scatter(x=[low, high], y=[threshold, threshold], mode="lines", name=THRESHOLD_NAME,
                      legendgroup=THRESHOLD_NAME, showlegend=showlegend,
                      line={"color": "#000000", "dash": "dash"}, hoverinfo="skip")


def interval_figure(model, stage, cost_ratio=DEFAULT_COST_RATIO, confidence=0.95, positive_label="positive"):
    """The paper's Figure 5: probability and interval of every reachable total.

    ``positive_label`` names the positive class on the y axis: "P(low birth weight)".

    Error bars are the interval of :meth:`psl_core.model.ProbabilisticScoringList.stage_interval`; the
    dashed line is the decision threshold 1/(1+M). Colour says whether the interval lies
    wholly above (ruled in), wholly below (ruled out) or
    across the line; hollow markers are totals no training row had.

    Returns
    -------
    figure, table (:func:`interval_table`)
    """
    table = interval_table(model, stage, cost_ratio, confidence)
    threshold = decision_threshold(cost_ratio)
    figure = go.Figure(_interval_traces(table, set()) + [_threshold_trace(table["total"], threshold, True)])
    figure.update_layout(
        title=words.STAGE_INTERVALS_TITLE.format(stage=table['stage'].iloc[0], level=level_text(confidence), m=m_equals(cost_ratio)),
        xaxis_title=words.TOTAL_SCORE, yaxis_title=words.probability_axis(positive_label), yaxis_range=[-0.02, 1.02], margin=MARGIN,
        legend={"orientation": "h", "y": -0.2},
    )
    return figure, table


def interval_grid_figure(model, cost_ratio=DEFAULT_COST_RATIO, confidence=0.95, columns=4):
    """:func:`interval_figure` for every stage as small multiples on one shared y axis.

    Returns
    -------
    figure, table (the :func:`interval_table` of every stage, stacked)
    """
    stages = list(range(model.n_stages_))
    rows = math.ceil(len(stages) / columns)
    threshold = decision_threshold(cost_ratio)
    figure = make_subplots(
        rows=rows, cols=columns, shared_yaxes="all", subplot_titles=[words.STAGE_TITLE.format(k=k) for k in stages],
        vertical_spacing=min(0.08, 0.3 / rows), horizontal_spacing=0.02,
    )
    tables, in_legend, traces, rows_of, columns_of = [], set(), [], [], []
    for k in stages:
        table = interval_table(model, k, cost_ratio, confidence)
        tables.append(table)
        row, col = divmod(k, columns)
        stage_traces = _interval_traces(table, in_legend) + [_threshold_trace(table["total"], threshold, k == 0)]
        traces += stage_traces
        rows_of += [row + 1] * len(stage_traces)
        columns_of += [col + 1] * len(stage_traces)
    figure.add_traces(traces, rows=rows_of, cols=columns_of)  # at once: one call per trace re-lays the grid
    figure.update_yaxes(range=[-0.02, 1.02])
    figure.update_layout(
        height=max(320, 220 * rows), margin=MARGIN, legend={"orientation": "h", "y": -0.05},
        title=words.EVERY_STAGE_INTERVALS_TITLE.format(level=level_text(confidence), m=m_equals(cost_ratio)),
    )
    return figure, pd.concat(tables, ignore_index=True)
