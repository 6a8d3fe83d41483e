"""Figures for judging a list: calibration, ROC, intervals and the Monte Carlo evaluation.

Every builder is a pure function of a model and data (or of the tables of
:mod:`psl_core.evaluation`) and returns ``(figure, table)``: a plotly Figure whose traces
have names a reader (and a test) can find, and the numbers behind it as a DataFrame, for a
CSV download.

- :func:`calibration_figure`: (total score, outcome) pairs with isotonic and beta
  calibration of one stage (the paper's Figure 1).
- :func:`reliability_figure`, :func:`brier_figure`, :func:`roc_figure`: calibration and
  ranking of the stage's probabilities on labelled (typically held-out) data.
- :func:`interval_figure`, :func:`interval_grid_figure`: the probability of every
  reachable total with its simultaneous interval against the decision threshold 1/(1+M)
  (the paper's Figure 5), for one stage or all of them.
- :func:`stagewise_figure`, :func:`three_way_figure`: the Monte Carlo evaluation
  (the paper's Figures 3, 4, 6, 8) and the decide-or-abstain trade-off.
- :func:`decision_curve_figure`, :func:`flexible_calibration_figure`: the evidence a
  researcher reports (:mod:`psl_triage.evidence`): net benefit against the threshold
  probability with M's threshold marked, and the flexible calibration curve with its band.
"""

import math

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from psl_core.calibration import beta_probabilities, calibrate_stage, calibrated_probabilities
from psl_core.cost_ratio import DEFAULT_COST_RATIO, decision_threshold
from psl_core.decision import RULE_IN, RULE_OUT, outcome_codes
from psl_core.decision import UNCERTAIN as UNCERTAIN_OUTCOME
from psl_core.decision_curve import TREAT_ALL, TREAT_NONE
from psl_core.evaluation import (
    LR_REGULARIZED,
    LR_UNREGULARIZED,
    MEASURE_LABELS,
    METHODS,
    PSL,
    STEPWISE,
    STEPWISE_COSTED,
    expected_calibration_error,
    reliability_table,
    roc_table,
    stagewise_brier_decomposition,
)
from psl_core.intervals import clopper_pearson
from psl_triage.questions import OUTCOME_WORDS

# The outcomes as figures and tables write them: the bedside's words (questions.OUTCOME_WORDS).
CONFIDENT_POSITIVE = OUTCOME_WORDS[RULE_IN].lower()
CONFIDENT_NEGATIVE = OUTCOME_WORDS[RULE_OUT].lower()
UNCERTAIN = OUTCOME_WORDS[UNCERTAIN_OUTCOME].lower()
NO_TRAINING_CASE = "no training case"
# Okabe–Ito colours: distinguishable with the common colour-vision deficiencies.
POSITIVE_COLOR, NEGATIVE_COLOR, NEUTRAL_COLOR = "#D55E00", "#0072B2", "#7F7F7F"
STATUS_COLORS = {CONFIDENT_POSITIVE: POSITIVE_COLOR, CONFIDENT_NEGATIVE: NEGATIVE_COLOR, UNCERTAIN: NEUTRAL_COLOR}
METHOD_COLORS = {PSL: POSITIVE_COLOR, LR_REGULARIZED: NEGATIVE_COLOR, LR_UNREGULARIZED: "#009E73"}
THRESHOLD_NAME = "decision threshold 1/(1+M)"
_MARGIN = {"l": 10, "r": 10, "t": 50, "b": 10}


def _stage_index(model, stage):
    """The stage number, None meaning the last one (invalid stages fail in the model)."""
    return model.n_stages_ - 1 if stage is None else stage


def _outcome(model, y):
    return (np.asarray(y) == model.classes_[1]).astype(np.int64)


# ---------------------------------------------------------------------------- calibration
def calibration_table(model, X, y, stage):
    """Counts and isotonic, beta and sigmoid calibration of one stage's totals on (X, y).

    The three calibrations are fitted here to the counts of the given rows, whatever the
    list's own calibration method, so the curves describe the data shown;
    ``list_estimate`` is the list's own q(k, T) from its training data (equal to the curve
    of its method when (X, y) are its training rows and it has no pseudo-counts).

    Returns
    -------
    pandas.DataFrame, one row per reachable total: total, positives, negatives, isotonic,
    beta, sigmoid, list_estimate.
    """
    stage = _stage_index(model, stage)
    totals = model.total_scores(X, stage)
    reachable = model.stage_totals_[stage]
    isotonic, positives, negatives = calibrate_stage(totals, _outcome(model, y), reachable, "isotonic")
    beta, _ = beta_probabilities(reachable, positives, negatives, reachable[0], reachable[-1])
    sigmoid = calibrated_probabilities(reachable, positives, negatives, "sigmoid")
    return pd.DataFrame(
        {
            "total": reachable,
            "positives": positives,
            "negatives": negatives,
            "isotonic": isotonic,
            "beta": beta,
            "sigmoid": sigmoid,
            "list_estimate": model.stage_probabilities_[stage],
        }
    )


def calibration_figure(model, X, y, stage, jitter=0.15, seed=0, class_names=("positive", "negative")):
    """The paper's Figure 1: outcome against total score, with the calibration curves.

    ``class_names`` (positive, negative) name the two kinds of points and the y axis.

    Each row is a point at (total + horizontal jitter, outcome 0/1 + a little vertical
    jitter), coloured by outcome; the isotonic (step), beta (smooth in tau) and sigmoid
    (logistic in the total) calibration of the stage's counts on these rows are drawn over
    the reachable totals, with the
    list's own estimates as markers. The jitter is seeded: the same call draws the same
    figure.

    Returns
    -------
    figure, table (:func:`calibration_table`)
    """
    stage = _stage_index(model, stage)
    table = calibration_table(model, X, y, stage)
    totals = model.total_scores(X, stage)
    outcome = _outcome(model, y)
    rng = np.random.default_rng(seed)
    x = totals + rng.uniform(-jitter, jitter, len(totals))
    # Points spread inwards from 0 and 1, so none is drawn outside the probability axis.
    inward = rng.uniform(0, 0.06, len(totals))
    y_jitter = np.where(outcome == 1, 1.0 - inward, inward)
    figure = go.Figure()
    positive, negative = class_names
    for value, name, color in ((1, f"{positive} cases", POSITIVE_COLOR), (0, f"{negative} cases", NEGATIVE_COLOR)):
        mask = outcome == value
        figure.add_trace(
            go.Scatter(
                x=x[mask], y=y_jitter[mask], mode="markers", name=name,
                marker={"color": color, "size": 6, "opacity": 0.45},
                customdata=totals[mask], hovertemplate="total %{customdata}<extra>" + name + "</extra>",
            )
        )
    figure.add_trace(
        go.Scatter(x=table["total"], y=table["isotonic"], mode="lines+markers", name="isotonic calibration",
                   line={"shape": "hv", "color": "#000000"})
    )
    figure.add_trace(
        go.Scatter(x=table["total"], y=table["beta"], mode="lines", name="beta calibration",
                   line={"color": "#CC79A7", "dash": "dash"})
    )
    figure.add_trace(
        go.Scatter(x=table["total"], y=table["sigmoid"], mode="lines", name="sigmoid calibration",
                   line={"color": "#009E73", "dash": "dot"})
    )
    figure.add_trace(
        go.Scatter(x=table["total"], y=table["list_estimate"], mode="markers", name="the list's estimate",
                   marker={"symbol": "diamond-open", "size": 10, "color": "#000000"})
    )
    figure.update_layout(
        title=f"Stage {stage}: outcome and calibrated probability by total score",
        xaxis_title="Total score", yaxis_title=f"P({positive}) / outcome", yaxis_range=[-0.04, 1.04],
        margin=_MARGIN, legend={"orientation": "h", "y": -0.2},
    )
    return figure, table


def reliability_figure(y, p, n_bins=10, confidence=0.95):
    """Reliability diagram: observed rate against mean predicted probability per bin.

    Marker area follows the number of rows in the bin; each observed rate carries its
    Clopper–Pearson interval at ``confidence`` (per bin), so a bin of few rows is seen to
    say little; the title gives the expected calibration error
    (:func:`psl_core.evaluation.expected_calibration_error`).

    Returns
    -------
    figure, table (:func:`psl_core.evaluation.reliability_table` with the interval's
    ``lower`` and ``upper``)
    """
    table = reliability_table(y, p, n_bins)
    positives = np.round(table["observed_rate"] * table["n"]).to_numpy()
    table["lower"], table["upper"] = clopper_pearson(positives, table["n"].to_numpy() - positives, 1 - confidence)
    ece = expected_calibration_error(table)
    sizes = 8 + 24 * np.sqrt(table["n"] / table["n"].max())
    figure = go.Figure()
    figure.add_trace(go.Scatter(x=[0, 1], y=[0, 1], mode="lines", name="perfect calibration",
                                line={"color": NEUTRAL_COLOR, "dash": "dot"}))
    figure.add_trace(
        go.Scatter(
            x=table["mean_predicted"], y=table["observed_rate"], mode="lines+markers",
            name=f"observed rate ({confidence:.0%} interval)",
            marker={"size": sizes, "color": POSITIVE_COLOR}, customdata=table[["n", "lower", "upper"]],
            error_y={"type": "data", "symmetric": False, "array": table["upper"] - table["observed_rate"],
                     "arrayminus": table["observed_rate"] - table["lower"], "color": POSITIVE_COLOR},
            hovertemplate="predicted %{x:.2f}, observed %{y:.2f} (%{customdata[1]:.2f} to %{customdata[2]:.2f}; "
                          "%{customdata[0]} rows)<extra></extra>",
        )
    )
    figure.update_layout(
        title=f"Reliability ({n_bins} bins): expected calibration error {ece:.3f}",
        xaxis_title="Mean predicted probability", yaxis_title="Observed rate of positives",
        xaxis_range=[-0.02, 1.02], yaxis_range=[-0.02, 1.02], margin=_MARGIN,
    )
    return figure, table


def brier_figure(model, X, y):
    """Stacked bars per stage: calibration loss + refinement loss = Brier score.

    Returns
    -------
    figure, table (:func:`psl_core.evaluation.stagewise_brier_decomposition`, stage as a column)
    """
    table = stagewise_brier_decomposition(model, X, y).reset_index()
    figure = go.Figure()
    figure.add_trace(go.Bar(x=table["stage"], y=table["refinement_loss"], name="refinement loss",
                            marker_color=NEGATIVE_COLOR))
    figure.add_trace(go.Bar(x=table["stage"], y=table["calibration_loss"], name="calibration loss",
                            marker_color=POSITIVE_COLOR))
    figure.add_trace(go.Scatter(x=table["stage"], y=table["brier"], mode="markers", name="Brier score",
                                marker={"symbol": "line-ew-open", "size": 14, "color": "#000000"}))
    figure.update_layout(barmode="stack", title="Brier score = calibration loss + refinement loss",
                         xaxis_title="Stage", yaxis_title="Squared error", margin=_MARGIN)
    return figure, table


def roc_figure(y, p):
    """The ROC curve of the probabilities and its convex hull.

    Returns
    -------
    figure, table (:func:`psl_core.evaluation.roc_table`)
    """
    table = roc_table(y, p)
    hull = table[table["on_hull"]]
    figure = go.Figure()
    figure.add_trace(go.Scatter(x=[0, 1], y=[0, 1], mode="lines", name="chance",
                                line={"color": NEUTRAL_COLOR, "dash": "dot"}))
    figure.add_trace(go.Scatter(x=table["fpr"], y=table["tpr"], mode="lines+markers", name="ROC curve",
                                line={"color": NEGATIVE_COLOR}))
    figure.add_trace(go.Scatter(x=hull["fpr"], y=hull["tpr"], mode="lines", name="ROC convex hull",
                                line={"color": POSITIVE_COLOR, "dash": "dash"}))
    figure.update_layout(title="ROC curve and its convex hull", xaxis_title="False positive rate",
                         yaxis_title="True positive rate", xaxis_range=[0, 1], yaxis_range=[0, 1.02],
                         margin=_MARGIN)
    return figure, table


# ---------------------------------------------------------------------------- intervals
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
    stage = _stage_index(model, stage)
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
    return go.Scatter(
        x=part["total"], y=part["probability"], mode="markers", name=name, legendgroup=name,
        showlegend=showlegend, marker=marker,
        error_y={"type": "data", "symmetric": False, "array": part["upper"] - part["probability"],
                 "arrayminus": part["probability"] - part["lower"], "color": bar_color},
        customdata=np.column_stack([part["lower"], part["upper"], part["positives"], part["negatives"]]),
        hovertemplate=("total %{x}: %{y:.1%} [%{customdata[0]:.1%}, %{customdata[1]:.1%}], "
                       "%{customdata[2]} positive / %{customdata[3]} negative training rows"
                       "<extra>" + name + "</extra>"),
    )


def _threshold_trace(totals, threshold, showlegend):
    low, high = float(np.min(totals)) - 0.5, float(np.max(totals)) + 0.5
    return go.Scatter(x=[low, high], y=[threshold, threshold], mode="lines", name=THRESHOLD_NAME,
                      legendgroup=THRESHOLD_NAME, showlegend=showlegend,
                      line={"color": "#000000", "dash": "dash"}, hoverinfo="skip")


def interval_figure(model, stage, cost_ratio=DEFAULT_COST_RATIO, confidence=0.95, positive_label="positive"):
    """The paper's Figure 5: probability and simultaneous interval of every reachable total.

    ``positive_label`` names the positive class on the y axis: "P(low birth weight)".

    Error bars are the interval of :meth:`ProbabilisticScoringList.stage_interval`; the
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
        title=f"Stage {table['stage'].iloc[0]}: {confidence:.0%} simultaneous intervals, M = {cost_ratio:g}",
        xaxis_title="Total score", yaxis_title=f"P({positive_label})", yaxis_range=[-0.02, 1.02], margin=_MARGIN,
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
        rows=rows, cols=columns, shared_yaxes="all", subplot_titles=[f"Stage {k}" for k in stages],
        vertical_spacing=min(0.08, 0.3 / rows), horizontal_spacing=0.02,
    )
    tables, in_legend = [], set()
    for k in stages:
        table = interval_table(model, k, cost_ratio, confidence)
        tables.append(table)
        row, col = divmod(k, columns)
        for trace in _interval_traces(table, in_legend) + [_threshold_trace(table["total"], threshold, k == 0)]:
            figure.add_trace(trace, row=row + 1, col=col + 1)
    figure.update_yaxes(range=[-0.02, 1.02])
    figure.update_layout(
        height=max(320, 220 * rows), margin=_MARGIN, legend={"orientation": "h", "y": -0.05},
        title=f"Every stage: {confidence:.0%} simultaneous intervals against 1/(1+M), M = {cost_ratio:g}",
    )
    return figure, pd.concat(tables, ignore_index=True)


# ---------------------------------------------------------------------------- evaluation
def _band_traces(part, x, name, color, showlegend=True):
    """A mean line and its 95 % band (a filled polygon) from band_summary rows."""
    part = part.sort_values(x)
    band = go.Scatter(
        x=np.concatenate([part[x], part[x][::-1]]), y=np.concatenate([part["upper"], part["lower"][::-1]]),
        mode="lines", fill="toself", fillcolor=color, opacity=0.2, line={"width": 0}, name=f"{name}: 95% band",
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
        :func:`psl_core.evaluation.band_summary` of :attr:`CVResult.measures`.
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
            figure.add_traces(_band_traces(part, "stage", method, METHOD_COLORS[method]))
    figure.update_layout(title=MEASURE_LABELS[measure], xaxis_title="Stage", yaxis_title=None,
                         margin=_MARGIN, legend={"orientation": "h", "y": -0.25})
    return figure, table


def three_way_figure(summary, rule, stage):
    """Decide or abstain: coverage, accuracy and loss on the decided, by confidence level.

    Parameters
    ----------
    summary : pandas.DataFrame
        :func:`psl_core.evaluation.band_summary` of :attr:`CVResult.three_way`.
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
        "Share decided and accuracy on the decided", "Mean loss on the decided"])
    for measure, name, color, col in (
        ("coverage", "coverage (share decided)", NEUTRAL_COLOR, 1),
        ("accuracy", "accuracy on the decided", NEGATIVE_COLOR, 1),
        ("expected_loss", "loss on the decided", POSITIVE_COLOR, 2),
    ):
        for trace in _band_traces(table[table["measure"] == measure], "confidence", name, color):
            figure.add_trace(trace, row=1, col=col)
    figure.update_xaxes(title_text="Confidence level of the intervals")
    figure.update_yaxes(range=[0, 1.02], row=1, col=1)
    figure.update_layout(margin=_MARGIN, legend={"orientation": "h", "y": -0.25})
    return figure, table


# ---------------------------------------------------------------------------- evidence
OTHER_STAGES = "the list at other stages (hover: which)"
DECISION_CURVE_COLORS = {PSL: POSITIVE_COLOR, LR_REGULARIZED: NEGATIVE_COLOR, LR_UNREGULARIZED: "#009E73",
                         TREAT_ALL: "#000000", TREAT_NONE: NEUTRAL_COLOR}


def decision_curve_figure(curves, threshold, cost_ratio, title="Decision curves: net benefit on held-out patients"):
    """Net benefit against the threshold probability: the list, the baselines, treat all and
    treat none with their bands, M's threshold as a vertical line and the bedside stop
    rule as a point of its own.

    Parameters
    ----------
    curves : pandas.DataFrame
        :func:`psl_triage.evidence.held_out_decision_curves` or ``site_decision_curves``.
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
        name = "the list" if method == PSL else method
        if method == TREAT_NONE:
            figure.add_trace(go.Scatter(x=part["threshold"], y=part["mean"], mode="lines", name=name,
                                        line={"color": color, "dash": "dot"}))
            continue
        band, mean = _band_traces(part, "threshold", name, color)
        mean.mode = "lines"
        figure.add_traces([band, mean])
    others = [m for m in curves["method"].unique() if m not in DECISION_CURVE_COLORS and m not in (STEPWISE, STEPWISE_COSTED)]
    for index, method in enumerate(others):  # the list at other stages: one legend entry for all
        part = curves[curves["method"] == method].sort_values("threshold")
        figure.add_trace(go.Scatter(
            x=part["threshold"], y=part["mean"], mode="lines", name=OTHER_STAGES, legendgroup=OTHER_STAGES,
            showlegend=index == 0, meta=method,
            line={"color": POSITIVE_COLOR, "width": 1}, opacity=0.35,
            hovertemplate=f"{method}: %{{y:.3f}} at %{{x:.0%}}<extra></extra>",
        ))
    low = curves[curves["method"] == TREAT_NONE]["threshold"]
    for method, symbol in ((STEPWISE, "star"), (STEPWISE_COSTED, "star-open")):
        point = curves[curves["method"] == method]
        if len(point):
            figure.add_trace(go.Scatter(
                x=point["threshold"], y=point["mean"], mode="markers", name=method,
                marker={"symbol": symbol, "size": 16, "color": POSITIVE_COLOR},
                error_y={"type": "data", "symmetric": False, "array": point["upper"] - point["mean"],
                         "arrayminus": point["mean"] - point["lower"]},
            ))
    values = curves[curves["method"] != TREAT_ALL][["lower", "upper"]].to_numpy()
    top = float(np.nanmax(values)) if values.size else 1.0
    bottom = -0.1 * max(top, 0.05)
    figure.add_trace(go.Scatter(x=[threshold, threshold], y=[bottom, top * 1.05], mode="lines",
                                name=f"M = {cost_ratio:g}: threshold 1/(1+M) = {threshold:.1%}",
                                line={"color": NEUTRAL_COLOR, "dash": "dash"}))
    figure.update_layout(
        title=title,
        xaxis_title="Threshold probability (acting on patients above it)",
        yaxis_title="Net benefit (true positives per patient)",
        yaxis_range=[bottom, top * 1.05], xaxis_tickformat=".0%",
        xaxis_range=[float(low.min()) if len(low) else 0, float(low.max()) if len(low) else 1],
        margin=_MARGIN, legend={"orientation": "h", "y": -0.3},
    )
    return figure, curves


def flexible_calibration_figure(curve, points=None, title="Calibration curve with its 95% band"):
    """The flexible calibration curve, its band, the diagonal and the per-total points.

    Parameters
    ----------
    curve : pandas.DataFrame
        risk, observed, lower, upper (:func:`calibration_curve_table` or
        :func:`psl_triage.evidence.held_out_calibration_curve`).
    points : pandas.DataFrame or None
        total, mean_predicted, observed_rate, lower, upper, n: the observed rate of every
        total with its Clopper–Pearson interval (:func:`total_points_table`).

    Returns
    -------
    figure, table (``curve``)
    """
    figure = go.Figure()
    figure.add_trace(go.Scatter(x=[0, 1], y=[0, 1], mode="lines", name="perfect calibration",
                                line={"color": NEUTRAL_COLOR, "dash": "dot"}))
    part = curve.assign(mean=curve["observed"])
    band, mean = _band_traces(part, "risk", "flexible calibration curve", NEGATIVE_COLOR)
    band.showlegend, band.name = True, "95% band of the curve"
    mean.mode = "lines"
    figure.add_traces([band, mean])
    if points is not None and len(points):
        figure.add_trace(go.Scatter(
            x=points["mean_predicted"], y=points["observed_rate"], mode="markers",
            name="observed rate per total (Clopper–Pearson 95%)",
            marker={"color": POSITIVE_COLOR, "size": 8 + 16 * np.sqrt(points["n"] / points["n"].max())},
            error_y={"type": "data", "symmetric": False, "array": points["upper"] - points["observed_rate"],
                     "arrayminus": points["observed_rate"] - points["lower"]},
            customdata=np.column_stack([points["total"], points["n"]]),
            hovertemplate="total %{customdata[0]}: predicted %{x:.2f}, observed %{y:.2f} "
                          "(%{customdata[1]} patients)<extra></extra>",
        ))
    figure.update_layout(title=title, xaxis_title="Predicted probability", yaxis_title="Observed rate",
                         xaxis_range=[-0.02, 1.02], yaxis_range=[-0.02, 1.02], margin=_MARGIN,
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
