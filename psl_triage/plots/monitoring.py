"""The Monitoring page's figures: calibration over time, the risk-adjusted CUSUM, answer shifts.

Figures only: their tables are :class:`psl_triage.judging.monitoring.Monitoring`'s (the page
downloads them whole). Trace names are :mod:`psl_triage.words.monitoring`'s, so a test can find them.
"""

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from psl_triage.plots.style import MARGIN, NEGATIVE_COLOR, POSITIVE_COLOR
from psl_triage.words import monitoring as words

MAX_CHART_POINTS = 4000
"""A chart over more patients is drawn through each bin's highest point (the downloaded table
keeps every patient): a browser draws 100,000 points slowly, and the peaks are what matter."""


def drift_figure(periods):
    """O/E and the calibration slope per judged period with their intervals, the ideal (1) dotted."""
    judged = periods[periods["judged"]]
    figure = make_subplots(rows=1, cols=2, subplot_titles=(words.OE_PANEL, words.SLOPE_PANEL), horizontal_spacing=0.08)
    for column, name in ((1, "oe"), (2, "slope")):
        x = judged["start"]
        figure.add_trace(go.Scatter(
            x=list(x) + list(x[::-1]), y=list(judged[f"{name}_upper"]) + list(judged[f"{name}_lower"][::-1]),
            fill="toself", fillcolor="rgba(0,114,178,0.18)", line={"width": 0}, hoverinfo="skip", mode="lines",
            name=f"{words.INTERVAL} ({name})", showlegend=False), row=1, col=column)
        figure.add_trace(go.Scatter(x=x, y=judged[name], mode="lines+markers", name=f"{words.ESTIMATE} ({name})",
                                    text=judged["period"], line={"color": NEGATIVE_COLOR}, showlegend=False),
                         row=1, col=column)
        figure.add_hline(y=1.0, line_dash="dot", line_color="grey", row=1, col=column)
    figure.update_layout(height=330, margin=MARGIN)
    return figure


def _thinned(x, y, limit=MAX_CHART_POINTS):
    """x and y through each bin's highest y when there are more than ``limit`` points."""
    if len(y) <= limit:
        return x, y
    size = int(np.ceil(len(y) / limit))
    n_bins = int(np.ceil(len(y) / size))
    padded = np.full(n_bins * size, -np.inf)
    padded[: len(y)] = y
    index = np.minimum(np.argmax(padded.reshape(n_bins, size), axis=1) + np.arange(n_bins) * size, len(y) - 1)
    return x[index], y[index]


def cusum_figure(chart, limit, first_signal):
    """The charts over the patients in the order seen (dates in the hover: many patients
    may share a date, a year column gives them all one): up and flatter above 0, down and
    steeper drawn below it (the slope charts dotted), the
    limit on each side and a mark where each first signals (``first_signal``: chart -> the
    patient's index, or None)."""
    figure = go.Figure()
    patients = chart["patient"].to_numpy()
    for name, sign, color, label, dash in (("up", 1, POSITIVE_COLOR, words.CHART_UP, "solid"),
                                           ("down", -1, NEGATIVE_COLOR, words.CHART_DOWN, "solid"),
                                           ("flatter", 1, POSITIVE_COLOR, words.CHART_FLATTER, "dot"),
                                           ("steeper", -1, NEGATIVE_COLOR, words.CHART_STEEPER, "dot")):
        if name not in chart:
            continue
        x, y = _thinned(patients, chart[name].to_numpy())
        figure.add_trace(go.Scattergl(x=x, y=sign * y, mode="lines", name=label, line={"color": color, "dash": dash},
                                      customdata=chart["date"].to_numpy()[x - 1], hovertemplate=words.CHART_HOVER))
        if first_signal.get(name) is not None:
            index = first_signal[name]
            figure.add_trace(go.Scatter(x=[patients[index]], y=[sign * chart[name].iloc[index]], mode="markers",
                                        name=words.SIGNAL, marker={"symbol": "x", "size": 12, "color": color},
                                        showlegend=False))
    for sign in (1, -1):
        figure.add_hline(y=sign * limit, line_dash="dash", line_color="black")
    figure.add_trace(go.Scatter(x=[None], y=[None], mode="lines", name=words.LIMIT,
                                line={"dash": "dash", "color": "black"}))
    figure.update_layout(height=330, margin=MARGIN, xaxis_title=words.PATIENT_ORDER, yaxis_title=words.CHART_AXIS,
                         legend={"orientation": "h", "y": -0.25})
    return figure


def answer_shift_figure(answers):
    """A heat map per question and period: the share meeting the question's condition there less
    the share at training, in percentage points (red: more often than at training)."""
    wide = answers.assign(shift=100 * (answers["met"] - answers["met_training"])).pivot(
        index="question", columns="period", values="shift")
    reach = float(np.nanmax(np.abs(wide.to_numpy()))) if wide.size else 1.0
    figure = go.Figure(go.Heatmap(
        z=wide.to_numpy(), x=list(wide.columns), y=[words.question_label(k) for k in wide.index],
        colorscale="RdBu_r", zmid=0, zmin=-max(reach, 1.0), zmax=max(reach, 1.0), name=words.SHIFT_TITLE,
        hovertemplate=words.SHIFT_HOVER))
    figure.update_layout(height=max(260, 22 * len(wide) + 120), margin=MARGIN, title=words.SHIFT_TITLE,
                         xaxis_title=words.PERIOD_AXIS, yaxis={"title": words.QUESTION_AXIS, "autorange": "reversed"})
    return figure
