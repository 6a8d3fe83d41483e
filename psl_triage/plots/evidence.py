"""What a researcher reports: decision curves, the flexible calibration curve, totals' rates."""

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from psl_core.decision_curve import TREAT_ALL, TREAT_NONE
from psl_core.evaluation import (
    LR_REGULARIZED,
    LR_UNREGULARIZED,
    PSL,
    STEPWISE,
    STEPWISE_COSTED,
)
from psl_core.intervals import clopper_pearson
from psl_triage.plots.evaluation import band_traces
from psl_triage.plots.style import (
    MARGIN,
    METHOD_COLORS,
    NEGATIVE_COLOR,
    NEUTRAL_COLOR,
    POSITIVE_COLOR,
    error_bars,
)
from psl_triage.words import figures as words
from psl_triage.words.common import m_equals
from psl_triage.words.lists import HORIZON_MODELS

OTHER_STAGES = words.OTHER_STAGES
DECISION_CURVE_COLORS = {**METHOD_COLORS,
                         HORIZON_MODELS["cox"]: METHOD_COLORS[LR_REGULARIZED],
                         HORIZON_MODELS["naive"]: METHOD_COLORS[LR_UNREGULARIZED],
                         TREAT_ALL: "#000000", TREAT_NONE: NEUTRAL_COLOR}


def _other_stage_traces(curves):
    """The list at its other stages: a faint line each, one legend entry for all."""
    others = [m for m in curves["method"].unique() if m not in DECISION_CURVE_COLORS and m not in (STEPWISE, STEPWISE_COSTED)]
    traces = []
    for index, method in enumerate(others):
        part = curves[curves["method"] == method].sort_values("threshold")
        traces.append(go.Scatter(
            x=part["threshold"], y=part["mean"], mode="lines", name=OTHER_STAGES, legendgroup=OTHER_STAGES,
            showlegend=index == 0, meta=method,
            line={"color": POSITIVE_COLOR, "width": 1}, opacity=0.35,
            hovertemplate=words.NET_BENEFIT_HOVER.format(method=method),
        ))
    return traces


def _stop_rule_points(curves):
    """The bedside stop rule (and its costed variant) as a star with error bars, where present."""
    traces = []
    for method, symbol in ((STEPWISE, "star"), (STEPWISE_COSTED, "star-open")):
        point = curves[curves["method"] == method]
        if len(point):
            traces.append(go.Scatter(
                x=point["threshold"], y=point["mean"], mode="markers", name=method,
                marker={"symbol": symbol, "size": 16, "color": POSITIVE_COLOR},
                error_y=error_bars(point, "mean"),
            ))
    return traces


def decision_curve_figure(curves, threshold, cost_ratio, title=words.DECISION_CURVES_TITLE):
    """Net benefit against the threshold probability: the list, the baselines, treat all and
    treat none with their bands, M's threshold as a vertical line and the bedside stop
    rule as a point of its own.

    Parameters
    ----------
    curves : pandas.DataFrame
        :func:`psl_triage.judging.evidence.held_out_decision_curves` or ``site_decision_curves``.
    threshold, cost_ratio : float
        1/(1+M) and M.

    Returns
    -------
    figure, table (``curves``)
    """
    figure = go.Figure()
    for method, color in DECISION_CURVE_COLORS.items():
        part = curves[curves["method"] == method]
        if not len(part):
            continue
        name = words.THE_LIST if method == PSL else method
        if method == TREAT_NONE:
            figure.add_trace(go.Scatter(x=part["threshold"], y=part["mean"], mode="lines", name=name,
                                        line={"color": color, "dash": "dot"}))
            continue
        band, mean = band_traces(part, "threshold", name, color)
        mean.mode = "lines"
        figure.add_traces([band, mean])
    figure.add_traces(_other_stage_traces(curves) + _stop_rule_points(curves))
    low = curves[curves["method"] == TREAT_NONE]["threshold"]
    values = curves[curves["method"] != TREAT_ALL][["lower", "upper"]].to_numpy()
    top = float(np.nanmax(values)) if values.size else 1.0
    bottom = -0.1 * max(top, 0.05)
    figure.add_trace(go.Scatter(x=[threshold, threshold], y=[bottom, top * 1.05], mode="lines",
                                name=words.THRESHOLD_LINE.format(m=m_equals(cost_ratio), threshold=threshold),
                                line={"color": NEUTRAL_COLOR, "dash": "dash"}))
    figure.update_layout(
        title=title,
        xaxis_title=words.THRESHOLD_AXIS,
        yaxis_title=words.NET_BENEFIT_AXIS,
        yaxis_range=[bottom, top * 1.05], xaxis_tickformat=".0%",
        xaxis_range=[float(low.min()) if len(low) else 0, float(low.max()) if len(low) else 1],
        margin=MARGIN, legend={"orientation": "h", "y": -0.3},
    )
    return figure, curves


def flexible_calibration_figure(curve, points=None, title=words.FLEXIBLE_CALIBRATION_TITLE):
    """The flexible calibration curve, its band, the diagonal and the per-total points.

    Parameters
    ----------
    curve : pandas.DataFrame
        risk, observed, lower, upper (:func:`calibration_curve_table` or
        :func:`psl_triage.judging.evidence.held_out_calibration_curve`).
    points : pandas.DataFrame or None
        total, mean_predicted, observed_rate, lower, upper, n: the observed rate of every
        total with its Clopper–Pearson interval (:func:`total_points_table`).

    Returns
    -------
    figure, table (``curve``)
    """
    figure = go.Figure()
    figure.add_trace(go.Scatter(x=[0, 1], y=[0, 1], mode="lines", name=words.PERFECT_CALIBRATION,
                                line={"color": NEUTRAL_COLOR, "dash": "dot"}))
    part = curve.assign(mean=curve["observed"])
    band, mean = band_traces(part, "risk", words.FLEXIBLE_CALIBRATION_CURVE, NEGATIVE_COLOR)
    band.showlegend, band.name = True, words.CURVE_BAND
    mean.mode = "lines"
    figure.add_traces([band, mean])
    if points is not None and len(points):
        figure.add_trace(go.Scatter(
            x=points["mean_predicted"], y=points["observed_rate"], mode="markers",
            name=words.OBSERVED_RATE_PER_TOTAL,
            marker={"color": POSITIVE_COLOR, "size": 8 + 16 * np.sqrt(points["n"] / points["n"].max())},
            error_y=error_bars(points, "observed_rate"),
            customdata=np.column_stack([points["total"], points["n"]]),
            hovertemplate=words.OBSERVED_RATE_HOVER,
        ))
    figure.update_layout(title=title, xaxis_title=words.PREDICTED_PROBABILITY, yaxis_title=words.OBSERVED_RATE,
                         xaxis_range=[-0.02, 1.02], yaxis_range=[-0.02, 1.02], margin=MARGIN,
                         legend={"orientation": "h", "y": -0.3})
    return figure, curve


def calibration_curve_table(flexible):
    """A :class:`psl_core.calibration_measures.FlexibleCalibration` as a table to draw."""
    return pd.DataFrame({"risk": flexible.risk, "observed": flexible.observed,
                         "lower": flexible.lower, "upper": flexible.upper})


def total_points_table(totals, y, p, confidence=0.95):
    """Observed rate per total with its (unadjusted) Clopper–Pearson interval.

    Parameters
    ----------
    totals, y, p : arrays of shape (n,)
        Each patient's total, outcome (0/1) and the list's probability.
    """
    frame = pd.DataFrame({"total": totals, "y": y, "p": p})
    grouped = frame.groupby("total")
    table = pd.DataFrame({"n": grouped["y"].size(), "positives": grouped["y"].sum(),
                          "mean_predicted": grouped["p"].mean()}).reset_index()
    table["observed_rate"] = table["positives"] / table["n"]
    lower, upper = clopper_pearson(table["positives"].to_numpy(), (table["n"] - table["positives"]).to_numpy(),
                                   1 - confidence)
    table["lower"], table["upper"] = lower, upper
    return table
