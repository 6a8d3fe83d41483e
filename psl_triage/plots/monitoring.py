"""The Monitoring page's figures: calibration over time, the risk-adjusted CUSUM, answer shifts.

Figures only: their tables are :class:`psl_triage.judging.monitoring.Monitoring`'s (the page
downloads them whole). Trace names are :mod:`psl_triage.words.monitoring`'s, so a test can find them.
"""

import numpy as np
import plotly.graph_objects as go
from plotly.colors import qualitative
from plotly.subplots import make_subplots

from psl_triage.plots.style import MARGIN, NEGATIVE_COLOR, POSITIVE_COLOR
from psl_triage.words import monitoring as words

MAX_CHART_POINTS = 1500
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


def _chart_traces(figure, chart, limits, first_signal, row, charts):
    """One panel's charts: (name, sign, colour, label, dash) each, as a share of its own limit, with a
    mark where it first signals."""
    patients = chart["patient"].to_numpy()
    for name, sign, color, label, dash in charts:
        if name not in chart:
            continue
        x, y = _thinned(patients, chart[name].to_numpy() / limits[name])
        figure.add_trace(go.Scattergl(x=x, y=sign * y, mode="lines", name=label, line={"color": color, "dash": dash},
                                      customdata=chart["date"].to_numpy()[x - 1], hovertemplate=words.CHART_HOVER),
                         row=row, col=1)
        if first_signal.get(name) is not None:
            index = first_signal[name]
            figure.add_trace(go.Scatter(x=[patients[index]], y=[sign * chart[name].iloc[index] / limits[name]],
                                        mode="markers",
                                        name=words.SIGNAL, marker={"symbol": "x", "size": 12, "color": color},
                                        showlegend=False), row=row, col=1)


def cusum_figure(chart, limits, first_signal):
    """The charts over the patients in the order seen (dates in the hover: many patients
    may share a date, a year column gives them all one), each drawn as a share of its own limit
    (``limits``: chart -> limit, psl_core.monitoring.cusum_limit), so that every chart signals where it
    crosses 1 (a dashed line on each side), one panel per kind of chart, with a mark where each
    first signals (``first_signal``: chart -> the patient's index, or None): the odds (up above 0,
    down below), the calibration slopes (below 1 above 0, above 1 below: the stage judged solid,
    each earlier question's in its colour), and with answers the case mix (each question met more
    often above 0, less often below)."""
    n_questions = sum(str(name).startswith("more ") for name in chart.columns)
    kinds = ["odds", "slope"] + (["case mix"] if n_questions else [])
    titles = {"odds": words.ODDS_PANEL, "slope": words.SLOPES_PANEL, "case mix": words.CASE_MIX_PANEL}
    figure = make_subplots(rows=len(kinds), cols=1, shared_xaxes=True, subplot_titles=[titles[k] for k in kinds],
                           vertical_spacing=0.1)
    _chart_traces(figure, chart, limits, first_signal, 1, (("up", 1, POSITIVE_COLOR, words.CHART_UP, "solid"),
                                                           ("down", -1, NEGATIVE_COLOR, words.CHART_DOWN, "solid")))
    colors = qualitative.Plotly
    _chart_traces(figure, chart, limits, first_signal, 2,
                  [("flatter", 1, POSITIVE_COLOR, words.CHART_FLATTER, "solid"),
                   ("steeper", -1, NEGATIVE_COLOR, words.CHART_STEEPER, "solid")]
                  + [(f"{kind} {k}", sign, colors[(k - 1) % len(colors)], words.question_trace(k, kind), "dot")
                     for k in range(1, n_questions) for kind, sign in (("weaker", 1), ("stronger", -1))])
    if n_questions:
        _chart_traces(figure, chart, limits, first_signal, 3, [
            (f"{kind} {k}", sign, colors[(k - 1) % len(colors)], words.question_trace(k, kind), dash)
            for k in range(1, n_questions + 1) for kind, sign, dash in (("more", 1, "solid"), ("fewer", -1, "dot"))])
    for row in range(1, len(kinds) + 1):
        for sign in (1, -1):
            figure.add_hline(y=sign, line_dash="dash", line_color="black", row=row, col=1)
    figure.add_trace(go.Scatter(x=[None], y=[None], mode="lines", name=words.LIMIT,
                                line={"dash": "dash", "color": "black"}))
    figure.update_layout(height=300 * len(kinds), margin=MARGIN, legend={"orientation": "h", "y": -0.08})
    figure.update_xaxes(title_text=words.PATIENT_ORDER, row=len(kinds), col=1)
    figure.update_yaxes(title_text=words.CHART_AXIS)
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
