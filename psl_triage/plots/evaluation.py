"""The Monte Carlo evaluation (the paper's Figures 3, 4, 6, 8) and the decide-or-abstain trade-off."""

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from psl_core.evaluation import (
    MEASURE_LABELS,
    METHODS,
    STEPWISE,
)
from psl_triage.plots.style import MARGIN, METHOD_COLORS, NEGATIVE_COLOR, NEUTRAL_COLOR, POSITIVE_COLOR
from psl_triage.words import figures as words


def band_traces(part, x, name, color, showlegend=True):
    """A mean line and its 95 % band (a filled polygon) from band_summary rows."""
    part = part.sort_values(x)
    band = go.Scatter(
        x=np.concatenate([part[x], part[x][::-1]]), y=np.concatenate([part["upper"], part["lower"][::-1]]),
        mode="lines", fill="toself", fillcolor=color, opacity=0.2, line={"width": 0}, name=words.BAND.format(name=name),
        legendgroup=name, showlegend=False, hoverinfo="skip",
    )
    mean = go.Scatter(x=part[x], y=part["mean"], mode="lines+markers", name=name, legendgroup=name,
                      showlegend=showlegend, line={"color": color})
    return [band, mean]


def stagewise_figure(summary, measure):
    """Stagewise mean of one measure over the splits, with 95 % bands, per method.

    Parameters
    ----------
    summary : pandas.DataFrame
        :func:`psl_core.evaluation.band_summary` of :attr:`psl_core.evaluation.CVResult.measures`.
    measure : one of :data:`psl_core.evaluation.MEASURES`

    Returns
    -------
    figure, table (the rows of ``summary`` for this measure)
    """
    table = summary[summary["measure"] == measure].reset_index(drop=True)
    figure = go.Figure()
    for method in METHODS:
        part = table[table["method"] == method]
        if len(part):
            figure.add_traces(band_traces(part, "stage", method, METHOD_COLORS[method]))
    figure.update_layout(title=MEASURE_LABELS[measure], xaxis_title=words.STAGE, yaxis_title=None,
                         margin=MARGIN, legend={"orientation": "h", "y": -0.25})
    return figure, table


def three_way_figure(summary, rule, stage):
    """Decide or abstain: coverage, accuracy and loss on the decided, by confidence level.

    Parameters
    ----------
    summary : pandas.DataFrame
        :func:`psl_core.evaluation.band_summary` of :attr:`psl_core.evaluation.CVResult.three_way`.
    rule : {"fixed stage", "bedside stop rule"}
    stage : int
        For the fixed rule, the stage every patient goes to; ignored for the stepwise rule.

    Returns
    -------
    figure, table (the rows of ``summary`` drawn)
    """
    table = summary[summary["rule"] == rule]
    if rule != STEPWISE:
        table = table[table["stage"] == stage]
    table = table.reset_index(drop=True)
    figure = make_subplots(rows=1, cols=2, subplot_titles=[
        words.SHARE_DECIDED_PANEL, words.MEAN_LOSS_PANEL])
    for measure, name, color, col in (
        ("coverage", words.COVERAGE, NEUTRAL_COLOR, 1),
        ("accuracy", words.ACCURACY_ON_DECIDED, NEGATIVE_COLOR, 1),
        ("expected_loss", words.LOSS_ON_DECIDED, POSITIVE_COLOR, 2),
    ):
        for trace in band_traces(table[table["measure"] == measure], "confidence", name, color):
            figure.add_trace(trace, row=1, col=col)
    figure.update_xaxes(title_text=words.CONFIDENCE_LEVEL_AXIS)
    figure.update_yaxes(range=[0, 1.02], row=1, col=1)
    figure.update_layout(margin=MARGIN, legend={"orientation": "h", "y": -0.25})
    return figure, table
