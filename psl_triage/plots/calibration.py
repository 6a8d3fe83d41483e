"""Calibration and ranking of one stage: the paper's Figure 1, reliability, Brier, ROC."""

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from psl_core.calibration import beta_probabilities, calibrate_stage, calibrated_probabilities
from psl_core.evaluation import (
    expected_calibration_error,
    reliability_table,
    roc_table,
    stagewise_brier_decomposition,
)
from psl_core.intervals import clopper_pearson
from psl_core.metrics import MEASURE_LABELS
from psl_triage.plots.style import (
    MARGIN,
    NEGATIVE_COLOR,
    NEUTRAL_COLOR,
    POSITIVE_COLOR,
    error_bars,
    outcome_of,
    stage_index,
)
from psl_triage.words import figures as words
from psl_triage.words.common import level_text


def _calibration_table(model, totals, outcome, stage):
    """Counts and isotonic, beta and sigmoid calibration of one stage's ``totals`` against
    ``outcome`` (0/1), one row per reachable total: total, positives, negatives, isotonic,
    beta, sigmoid, list_estimate.

    The three calibrations are fitted here to the counts of the given rows, whatever the
    list's own calibration method, so the curves describe the data shown;
    ``list_estimate`` is the list's own q(k, T) from its training data (equal to the curve
    of its method when the rows are its training rows and it has no pseudo-counts).
    """
    reachable = model.stage_totals_[stage]
    isotonic, positives, negatives, _ = calibrate_stage(totals, outcome, reachable, "isotonic")
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
    figure, table
        The table: one row per reachable total with its counts, the three calibrations and
        the list's own estimate (:func:`_calibration_table`).
    """
    stage = stage_index(model, stage)
    totals = model.total_scores(X, stage)
    outcome = outcome_of(model, y)
    table = _calibration_table(model, totals, outcome, stage)
    rng = np.random.default_rng(seed)
    x = totals + rng.uniform(-jitter, jitter, len(totals))
    # Points spread inwards from 0 and 1, so none is drawn outside the probability axis.
    inward = rng.uniform(0, 0.06, len(totals))
    y_jitter = np.where(outcome == 1, 1.0 - inward, inward)
    figure = go.Figure()
    positive, negative = class_names
    for value, name, color in ((1, words.cases(positive), POSITIVE_COLOR), (0, words.cases(negative), NEGATIVE_COLOR)):
        mask = outcome == value
        figure.add_trace(
            go.Scatter(
                x=x[mask], y=y_jitter[mask], mode="markers", name=name,
                marker={"color": color, "size": 6, "opacity": 0.45},
                customdata=totals[mask], hovertemplate=words.TOTAL_HOVER + name + "</extra>",
            )
        )
    figure.add_trace(
        go.Scatter(x=table["total"], y=table["isotonic"], mode="lines+markers", name=words.ISOTONIC_CALIBRATION,
                   line={"shape": "hv", "color": "#000000"})
    )
    figure.add_trace(
        go.Scatter(x=table["total"], y=table["beta"], mode="lines", name=words.BETA_CALIBRATION,
                   line={"color": "#CC79A7", "dash": "dash"})
    )
    figure.add_trace(
        go.Scatter(x=table["total"], y=table["sigmoid"], mode="lines", name=words.SIGMOID_CALIBRATION,
                   line={"color": "#009E73", "dash": "dot"})
    )
    figure.add_trace(
        go.Scatter(x=table["total"], y=table["list_estimate"], mode="markers", name=words.LIST_ESTIMATE,
                   marker={"symbol": "diamond-open", "size": 10, "color": "#000000"})
    )
    figure.update_layout(
        title=words.CALIBRATION_TITLE.format(stage=stage),
        xaxis_title=words.TOTAL_SCORE, yaxis_title=words.probability_axis(positive, outcome=True), yaxis_range=[-0.04, 1.04],
        margin=MARGIN, legend={"orientation": "h", "y": -0.2},
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
    figure.add_trace(go.Scatter(x=[0, 1], y=[0, 1], mode="lines", name=words.PERFECT_CALIBRATION,
                                line={"color": NEUTRAL_COLOR, "dash": "dot"}))
    figure.add_trace(
        go.Scatter(
            x=table["mean_predicted"], y=table["observed_rate"], mode="lines+markers",
            name=words.OBSERVED_RATE_INTERVAL.format(level=level_text(confidence)),
            marker={"size": sizes, "color": POSITIVE_COLOR}, customdata=table[["n", "lower", "upper"]],
            error_y=error_bars(table, "observed_rate", POSITIVE_COLOR),
            hovertemplate=words.RELIABILITY_HOVER,
        )
    )
    figure.update_layout(
        title=words.RELIABILITY_TITLE.format(n_bins=n_bins, ece=ece),
        xaxis_title=words.MEAN_PREDICTED_PROBABILITY, yaxis_title=words.OBSERVED_RATE_OF_POSITIVES,
        xaxis_range=[-0.02, 1.02], yaxis_range=[-0.02, 1.02], margin=MARGIN,
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
    figure.add_trace(go.Bar(x=table["stage"], y=table["refinement_loss"], name=words.REFINEMENT_LOSS,
                            marker_color=NEGATIVE_COLOR))
    figure.add_trace(go.Bar(x=table["stage"], y=table["calibration_loss"], name=words.CALIBRATION_LOSS,
                            marker_color=POSITIVE_COLOR))
    figure.add_trace(go.Scatter(x=table["stage"], y=table["brier"], mode="markers", name=MEASURE_LABELS["brier"],
                                marker={"symbol": "line-ew-open", "size": 14, "color": "#000000"}))
    figure.update_layout(barmode="stack", title=words.BRIER_SPLIT_TITLE,
                         xaxis_title=words.STAGE, yaxis_title=words.SQUARED_ERROR, margin=MARGIN)
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
    figure.add_trace(go.Scatter(x=table["fpr"], y=table["tpr"], mode="lines+markers", name=words.ROC_CURVE,
                                line={"color": NEGATIVE_COLOR}))
    figure.add_trace(go.Scatter(x=hull["fpr"], y=hull["tpr"], mode="lines", name=words.ROC_CONVEX_HULL,
                                line={"color": POSITIVE_COLOR, "dash": "dash"}))
    figure.update_layout(title=words.ROC_TITLE, xaxis_title=words.FALSE_POSITIVE_RATE,
                         yaxis_title=words.TRUE_POSITIVE_RATE, xaxis_range=[0, 1], yaxis_range=[0, 1.02],
                         margin=MARGIN)
    return figure, table


def horizon_calibration_figure(totals, deciles):
    """Calibration at a horizon: the Kaplan-Meier risk observed by it against the mean
    predicted risk, per total (markers sized by the patients) and per tenth of predicted risk (small)
    (:func:`psl_triage.judging.horizon.horizon_calibration`'s tables), beside the diagonal.

    Returns
    -------
    plotly Figure
    """
    figure = go.Figure()
    figure.add_trace(go.Scatter(x=[0, 1], y=[0, 1], mode="lines", name=words.PERFECT_CALIBRATION,
                                line={"color": NEUTRAL_COLOR, "dash": "dot"}))
    for table, name, color, size in ((deciles, words.HORIZON_BY_TENTH, NEUTRAL_COLOR, 7),
                                     (totals, words.HORIZON_BY_TOTAL, POSITIVE_COLOR,
                                      8 + 24 * np.sqrt(totals["patients"] / max(int(totals["patients"].max()), 1)))):
        figure.add_trace(go.Scatter(
            x=table["predicted"], y=table["observed"], mode="markers", name=name,
            customdata=table[["group", "patients"]], marker={"size": size, "color": color, "opacity": 0.8},
            hovertemplate=words.HORIZON_HOVER,
        ))
    figure.update_layout(
        title=words.HORIZON_CALIBRATION_TITLE, xaxis_title=words.MEAN_PREDICTED_RISK,
        yaxis_title=words.OBSERVED_RISK_KM, xaxis_range=[-0.02, 1.02], yaxis_range=[-0.02, 1.02], margin=MARGIN,
    )
    return figure
