"""The bedside's figure: probability and interval over the questions answered so far."""

import numpy as np
import plotly.graph_objects as go

from psl_triage.words import figures as words
from psl_triage.words import plotly_text
from psl_triage.words.common import level_text, percent


def _interval_traces(steps, level):
    """The interval's upper edge and its lower edge filled up to it, one point per stage."""
    x = [step.stage for step in steps]
    # The interval's ends are ticks as well as the edges of a band, so a single stage shows it too.
    ends = {"symbol": "line-ew", "size": 22, "line": {"width": 2, "color": "rgba(31, 119, 180, 0.6)"}}
    return [
        go.Scatter(
            x=x, y=[step.upper for step in steps], mode="lines+markers", line={"width": 0}, marker=ends,
            showlegend=False, hoverinfo="skip", name=words.UPPER_BOUND,
        ),
        go.Scatter(
            x=x, y=[step.lower for step in steps], mode="lines+markers", line={"width": 0}, marker=ends,
            fill="tonexty", fillcolor="rgba(31, 119, 180, 0.2)", name=level,
            customdata=np.column_stack([[s.lower for s in steps], [s.upper for s in steps]]),
            hovertemplate=words.BEDSIDE_INTERVAL_HOVER,
        ),
    ]


def _probability_trace(steps):
    """The probability: a marker per stage, a vertical segment where unknown answers leave a range."""
    segment_x, segment_y = [], []
    for step in steps:
        segment_x += [step.stage, step.stage, None]
        segment_y += [step.probability_low, step.probability_high, None]
    return go.Scatter(
        x=segment_x, y=segment_y, mode="lines+markers", name=words.PROBABILITY,
        line={"color": "rgb(31, 119, 180)", "width": 4}, marker={"size": 10},
        hovertemplate=words.PROBABILITY_HOVER,
    )


def triage_figure(steps, threshold, confidence=None, stage_labels=None):
    """Probability and interval over the stages answered so far.

    Parameters
    ----------
    steps : list of StepResult
        Stages 0..k in order.
    threshold : float
        The decision threshold 1 / (1 + M), drawn as a horizontal line.
    confidence : float or None
        Level of the intervals, for the legend.
    stage_labels : list of str or None
        Tick label of each step (defaults to "Start", "Q1", "Q2", ...).

    Returns
    -------
    plotly.graph_objects.Figure
        Traces: the interval's upper edge, its lower edge (filled up to the upper one),
        and the calibrated probability: one marker per stage, a vertical segment from
        the lowest to the highest estimate where unknown answers leave a range
        (``None`` separates the stages).
    """
    x = [step.stage for step in steps]
    labels = stage_labels or [words.START] + [words.QUESTION_TICK.format(k=k) for k in x[1:]]
    level = words.LEVEL_INTERVAL.format(level=level_text(confidence)) if confidence is not None else words.INTERVAL
    figure = go.Figure([*_interval_traces(steps, level), _probability_trace(steps)])
    # The label sits on an opaque box at the right, above the traces, so the interval band
    # (which often covers the left end at the base rate) never hides it.
    figure.add_hline(
        y=threshold, line={"color": "rgb(214, 39, 40)", "dash": "dash"}, layer="above",
        annotation_text=words.THRESHOLD_ANNOTATION.format(threshold=percent(threshold)),
        annotation_position="top right", annotation_bgcolor="rgba(255, 255, 255, 0.9)",
        annotation_font_color="rgb(214, 39, 40)",
    )
    figure.update_layout(
        height=340, margin={"l": 10, "r": 10, "t": 30, "b": 10},
        legend={"orientation": "h", "y": 1.12, "x": 0},
        yaxis={"title": words.PROBABILITY, "range": [0, 1], "tickformat": ".0%"},
        xaxis={"title": words.QUESTIONS_ANSWERED, "tickmode": "array", "tickvals": x,
               "ticktext": [plotly_text(label) for label in labels]},  # labels may quote the data
    )
    return figure
