"""The figures (psl_triage.plots): the plotted data must equal values computed independently
here from the model and the data, and every figure must carry the named traces a reader
uses."""

import numpy as np
import pandas as pd
import pytest
from plotly.graph_objects import Figure

from psl_core import PAPER_SETUP, ProbabilisticScoringList
from psl_core.calibration import beta_probabilities
from psl_core.errors import PSLError
from psl_core.evaluation import (
    FIXED_STAGE,
    MEASURES,
    METHODS,
    STEPWISE,
    band_summary,
    brier_decomposition,
    monte_carlo_cv,
)
from psl_triage.plots import (
    CONFIDENT_NEGATIVE,
    CONFIDENT_POSITIVE,
    NO_TRAINING_CASE,
    THRESHOLD_NAME,
    UNCERTAIN,
    brier_figure,
    calibration_figure,
    interval_figure,
    interval_grid_figure,
    reliability_figure,
    roc_figure,
    stagewise_figure,
    three_way_figure,
)

STAGES = 7


@pytest.fixture(scope="module")
def model(demo_prepared):
    # The paper's isotonic list without pseudo-counts: its estimates are the isotonic curve.
    return ProbabilisticScoringList(**PAPER_SETUP, max_stages=STAGES).fit(demo_prepared.X, demo_prepared.y)


def trace(figure, name):
    matches = [t for t in figure.data if t.name == name]
    assert len(matches) == 1, f"expected one trace named {name!r}, found {[t.name for t in figure.data]}"
    return matches[0]


def names(figure):
    return [t.name for t in figure.data]


# ---------------------------------------------------------------------------- calibration
def counts_by_hand(model, X, y, stage):
    totals = model.total_scores(X, stage)
    reachable = model.stage_totals_[stage]
    positives = np.array([np.sum((totals == t) & (y == 1)) for t in reachable])
    negatives = np.array([np.sum((totals == t) & (y == 0)) for t in reachable])
    return totals, reachable, positives, negatives


@pytest.mark.parametrize("stage", [0, 1, 3, STAGES])
def test_calibration_figure_on_training_rows_shows_the_lists_calibration(demo_prepared, model, stage):
    figure, table = calibration_figure(model, demo_prepared.X, demo_prepared.y, stage)
    assert isinstance(figure, Figure)
    totals, reachable, positives, negatives = counts_by_hand(model, demo_prepared.X, demo_prepared.y, stage)
    assert table["total"].tolist() == reachable.tolist()
    assert table["positives"].tolist() == positives.tolist()
    assert table["negatives"].tolist() == negatives.tolist()
    # An isotonic list calibrated on these rows: its own estimates are the isotonic curve.
    assert table["isotonic"].to_numpy() == pytest.approx(model.stage_probabilities_[stage])
    assert list(trace(figure, "isotonic calibration").y) == pytest.approx(model.stage_probabilities_[stage])
    assert list(trace(figure, "the list's estimate").y) == pytest.approx(model.stage_probabilities_[stage])
    # One jittered point per row, near its total, at its outcome.
    shown_positive, shown_negative = trace(figure, "positive cases"), trace(figure, "negative cases")
    y = demo_prepared.y
    assert len(shown_positive.x) == y.sum() and len(shown_negative.x) == len(y) - y.sum()
    assert np.abs(np.asarray(shown_positive.x) - totals[y == 1]).max() <= 0.15
    assert np.all((np.asarray(shown_positive.y) > 0.9) & (np.asarray(shown_positive.y) <= 1))
    assert np.all((np.asarray(shown_negative.y) >= 0) & (np.asarray(shown_negative.y) < 0.1))


@pytest.mark.parametrize("method", ["beta", "sigmoid"])
def test_smooth_curves_are_the_lists_own_calibration_on_its_training_rows(demo_prepared, method):
    smooth_list = ProbabilisticScoringList(max_stages=4, calibration=method, prior_strength=0.0).fit(
        demo_prepared.X, demo_prepared.y
    )
    for stage in range(smooth_list.n_stages_):
        figure, table = calibration_figure(smooth_list, demo_prepared.X, demo_prepared.y, stage)
        expected = smooth_list.stage_probabilities_[stage]
        assert list(trace(figure, f"{method} calibration").y) == pytest.approx(expected, abs=1e-9)
        assert table[method].to_numpy() == pytest.approx(expected, abs=1e-9)
        assert table["list_estimate"].to_numpy() == pytest.approx(expected)


def test_calibration_curves_on_other_rows_are_fitted_to_those_rows(demo_prepared, model):
    X, y = demo_prepared.X.iloc[::3], demo_prepared.y[::3]
    figure, table = calibration_figure(model, X, y, 3)
    _, reachable, positives, negatives = counts_by_hand(model, X, y, 3)
    beta, _ = beta_probabilities(reachable, positives, negatives, reachable[0], reachable[-1])
    assert table["beta"].to_numpy() == pytest.approx(beta)
    seen = positives + negatives > 0
    curve = table["isotonic"].to_numpy()
    assert np.all(np.diff(curve) >= 0)
    # Pool adjacent violators: every pooled block's value is its rate of positives.
    for value in np.unique(curve[seen]):
        block = seen & np.isclose(curve, value)
        assert positives[block].sum() / (positives[block] + negatives[block]).sum() == pytest.approx(value)
    # The same call draws the same figure (seeded jitter).
    again, _ = calibration_figure(model, X, y, 3)
    assert list(again.data[0].x) == list(figure.data[0].x)


def test_bad_stage_is_a_psl_error(demo_prepared, model):
    with pytest.raises(PSLError, match="stage"):
        calibration_figure(model, demo_prepared.X, demo_prepared.y, STAGES + 1)
    with pytest.raises(PSLError, match="stage"):
        interval_figure(model, -1)


# ---------------------------------------------------------------------------- reliability, Brier, ROC
def test_reliability_figure_plots_the_bins_by_hand(demo_prepared, model):
    p = model.predict_proba(demo_prepared.X.iloc[1::2], stage=3)[:, 1]
    y = demo_prepared.y[1::2]
    figure, table = reliability_figure(y, p, n_bins=5)
    bins = np.minimum((p * 5).astype(int), 4)
    used = np.unique(bins)
    observed = [y[bins == b].mean() for b in used]
    predicted = [p[bins == b].mean() for b in used]
    assert list(trace(figure, "observed rate (95% interval)").x) == pytest.approx(predicted)
    assert list(trace(figure, "observed rate (95% interval)").y) == pytest.approx(observed)
    ece = sum(np.mean(bins == b) * abs(o - q) for b, o, q in zip(used, observed, predicted))
    assert f"{ece:.3f}" in figure.layout.title.text
    assert "perfect calibration" in names(figure)
    assert len(table) == len(used)


def test_brier_figure_stacks_to_the_brier_score(demo_prepared, model):
    X, y = demo_prepared.X.iloc[::2], demo_prepared.y[::2]
    figure, table = brier_figure(model, X, y)
    assert figure.layout.barmode == "stack"
    calibration = np.asarray(trace(figure, "calibration loss").y)
    refinement = np.asarray(trace(figure, "refinement loss").y)
    for k in range(model.n_stages_):
        p = model.predict_proba(X, stage=k)[:, 1]
        assert calibration[k] + refinement[k] == pytest.approx(np.mean((p - y) ** 2), abs=1e-12)
        hull = brier_decomposition(y, p)["hull_refinement_loss"]
        assert table.loc[k, "hull_refinement_loss"] == pytest.approx(hull)
    assert list(trace(figure, "Brier score").y) == pytest.approx(table["brier"].tolist())


def test_roc_figure_hull_is_convex(demo_prepared, model):
    X, y = demo_prepared.X.iloc[1::2], demo_prepared.y[1::2]
    p = model.predict_proba(X, stage=STAGES)[:, 1]
    figure, table = roc_figure(y, p)
    hull = trace(figure, "ROC convex hull")
    x, h = np.asarray(hull.x), np.asarray(hull.y)
    with np.errstate(divide="ignore"):  # a vertical first segment has slope inf
        slopes = np.diff(h) / np.diff(x)
    assert np.all(np.diff(slopes) < 0)
    curve = trace(figure, "ROC curve")
    assert np.all(np.asarray(curve.y) <= np.interp(curve.x, x, h) + 1e-12)
    assert len(curve.x) == len(np.unique(p)) + 1


# ---------------------------------------------------------------------------- intervals
def first_stage_with_empty_total(model):
    for k in range(model.n_stages_):
        if np.any(model.stage_positives_[k] + model.stage_negatives_[k] == 0):
            return k
    raise AssertionError("the demo list should have a total without training case")


def plotted_points(figure):
    """total -> (trace name, y, error plus, error minus, marker symbol) over the interval traces."""
    points = {}
    for t in figure.data:
        if t.name == THRESHOLD_NAME:
            continue
        for i, x in enumerate(t.x):
            assert x not in points, f"total {x} plotted twice"
            points[x] = (t.name, t.y[i], t.error_y.array[i], t.error_y.arrayminus[i], t.marker.symbol)
    return points


@pytest.mark.parametrize("cost_ratio, confidence", [(10.0, 0.95), (1.0, 0.8), (3.0, 0.5)])
def test_error_bars_are_the_stage_intervals(model, cost_ratio, confidence):
    for stage in range(model.n_stages_):
        figure, table = interval_figure(model, stage, cost_ratio, confidence)
        totals, lower, point, upper = model.stage_interval(stage, confidence)
        threshold = 1 / (1 + cost_ratio)
        assert list(trace(figure, THRESHOLD_NAME).y) == pytest.approx([threshold, threshold])
        points = plotted_points(figure)
        assert sorted(points) == totals.tolist()
        counts = model.stage_positives_[stage] + model.stage_negatives_[stage]
        for t, lo, q, hi, n in zip(totals.tolist(), lower, point, upper, counts):
            name, y, plus, minus, symbol = points[t]
            assert y == pytest.approx(q) and y + plus == pytest.approx(hi) and y - minus == pytest.approx(lo)
            if n == 0:
                assert name == NO_TRAINING_CASE and symbol == "circle-open"
            else:
                expected = (
                    CONFIDENT_POSITIVE if lo > threshold else CONFIDENT_NEGATIVE if hi < threshold else UNCERTAIN
                )
                assert name == expected and symbol == "circle"
        assert table["upper"].to_numpy() == pytest.approx(upper)
        assert table["no_training_case"].tolist() == (counts == 0).tolist()


def test_no_training_case_totals_are_hollow_and_coloured_by_decision(model):
    stage = first_stage_with_empty_total(model)
    figure, table = interval_figure(model, stage, 10.0, 0.95)
    hollow = trace(figure, NO_TRAINING_CASE)
    empty = table[table["no_training_case"]]
    assert list(hollow.x) == empty["total"].tolist()
    assert hollow.showlegend
    colours = {CONFIDENT_POSITIVE: "#D55E00", CONFIDENT_NEGATIVE: "#0072B2", UNCERTAIN: "#7F7F7F"}
    assert list(hollow.marker.color) == [colours[d] for d in empty["decision"]]


def test_all_three_decisions_appear_in_the_legend(model):
    # M = 2 at 50 %: the demo list has totals on both sides of 1/3 and across it.
    figure, table = interval_figure(model, STAGES, 2.0, 0.5)
    assert set(table["decision"]) == {CONFIDENT_POSITIVE, CONFIDENT_NEGATIVE, UNCERTAIN}
    shown = {t.name for t in figure.data if t.showlegend is not False and len(t.x)}
    assert {CONFIDENT_POSITIVE, CONFIDENT_NEGATIVE, UNCERTAIN, THRESHOLD_NAME} <= shown


def test_interval_grid_has_a_panel_per_stage_on_one_y_axis(model):
    figure, table = interval_grid_figure(model, 10.0, 0.95)
    panels = {}
    for t in figure.data:
        panels.setdefault(t.yaxis or "y", []).append(t)
    assert len(panels) == model.n_stages_
    layout = figure.layout
    y_axes = [name for name in layout if name.startswith("yaxis")]
    assert len(y_axes) >= model.n_stages_
    # Plotly shares an axis by "matches": every y axis but one matches that one.
    free = [name for name in y_axes if layout[name].matches is None]
    assert len(free) == 1
    reference = free[0].replace("axis", "")
    assert all(layout[name].matches == reference for name in y_axes if name != free[0])
    assert sorted(table["stage"].unique()) == list(range(model.n_stages_))
    # Each panel's error bars are that stage's intervals.
    for k, (_axis, traces) in enumerate(sorted(panels.items(), key=lambda item: int(item[0][1:] or 1))):
        totals, lower, point, upper = model.stage_interval(k, 0.95)
        plotted = {}
        for t in traces:
            if t.name != THRESHOLD_NAME:
                plotted.update({x: (y + e) for x, y, e in zip(t.x, t.y, t.error_y.array)})
        assert [plotted[t] for t in totals.tolist()] == pytest.approx(upper)
    # Every kind of point has one legend entry.
    legend = [t.name for t in figure.data if t.showlegend]
    assert len(legend) == len(set(legend))
    assert NO_TRAINING_CASE in legend and THRESHOLD_NAME in legend


# ---------------------------------------------------------------------------- evaluation figures
@pytest.fixture(scope="module")
def cv(demo_prepared):
    return monte_carlo_cv(demo_prepared.X, demo_prepared.y, lambda: ProbabilisticScoringList(max_stages=4),
                          n_splits=4, cost_ratio=2.0, confidences=(0.5, 0.9))


@pytest.mark.parametrize("measure", MEASURES)
def test_stagewise_figure_draws_means_and_bands(cv, measure):
    summary = band_summary(cv.measures)
    figure, table = stagewise_figure(summary, measure)
    for method in METHODS:
        rows = table[table["method"] == method].sort_values("stage")
        values = cv.measures[(cv.measures["method"] == method) & (cv.measures["measure"] == measure)]
        means = values.groupby("stage")["value"].mean()
        sds = values.groupby("stage")["value"].std()
        assert list(trace(figure, method).y) == pytest.approx(means.tolist())
        band = np.asarray(trace(figure, f"{method}: 95% band").y)
        upper = band[: len(rows)]
        assert upper == pytest.approx((means + 1.96 * sds / np.sqrt(4)).to_numpy())


@pytest.mark.parametrize("rule, stage", [(STEPWISE, None), (FIXED_STAGE, 2)])
def test_three_way_figure(cv, rule, stage):
    summary = band_summary(cv.three_way)
    figure, table = three_way_figure(summary, rule, stage)
    assert {"coverage (share decided)", "accuracy on the decided", "loss on the decided"} <= set(names(figure))
    rows = cv.three_way[(cv.three_way["rule"] == rule) & (cv.three_way["measure"] == "coverage")]
    if stage is not None:
        rows = rows[rows["stage"] == stage]
    expected = rows.groupby("confidence")["value"].mean()
    coverage = trace(figure, "coverage (share decided)")
    assert list(coverage.x) == pytest.approx(expected.index.tolist())
    assert list(coverage.y) == pytest.approx(expected.tolist())
    assert isinstance(table, pd.DataFrame) and set(table["rule"]) == {rule}


def test_reliability_bins_carry_their_intervals(demo_prepared, model):
    """Issue 26, item 11: each bin's observed rate with its Clopper-Pearson interval."""
    from scipy.stats import beta

    p = model.predict_proba(demo_prepared.X, stage=3)[:, 1]
    y = demo_prepared.y
    figure, table = reliability_figure(y, p, n_bins=5)
    observed = trace(figure, "observed rate (95% interval)")
    assert observed.error_y.type == "data" and observed.error_y.symmetric is False
    for row, up, down in zip(table.itertuples(), observed.error_y.array, observed.error_y.arrayminus):
        k = round(row.observed_rate * row.n)
        low = beta.ppf(0.025, k, row.n - k + 1) if k else 0.0
        high = beta.ppf(0.975, k + 1, row.n - k) if k < row.n else 1.0
        assert (row.lower, row.upper) == pytest.approx((low, high))
        assert (row.observed_rate - down, row.observed_rate + up) == pytest.approx((low, high))


def test_the_triage_threshold_label_stands_above_the_band():
    """Issue 26, item 11: the threshold's label is drawn on an opaque box at the right, where
    the interval band of the first stages does not cover it."""
    from psl_core.decision import StepResult
    from psl_triage.plots import triage_figure

    step = StepResult(**{name: 0 for name in StepResult.__dataclass_fields__} | {
        "stage": 0, "lower": 0.3, "upper": 0.7, "probability_low": 0.5, "probability_high": 0.5,
    })
    figure = triage_figure([step], 0.5)
    (label,) = [a for a in figure.layout.annotations if a.text.startswith("decision threshold")]
    assert label.bgcolor and "255, 255, 255" in label.bgcolor and label.xanchor == "right"
    assert figure.layout.shapes[0].layer == "above"


def test_class_names_from_a_file_reach_a_figure_escaped(demo_prepared, model):
    """A class name is a name from a file: plotly reads <a href>, <b> and entities in trace
    names and axis titles, so the calibration and interval figures show it escaped (it
    reached them raw: a link in the legend and on the y axis)."""
    hostile = '<a href="http://example.org/x">yes</a>'
    calibration, _ = calibration_figure(model, demo_prepared.X, demo_prepared.y, 2, class_names=(hostile, "<b>no</b>"))
    interval, _ = interval_figure(model, 2, positive_label=hostile)
    texts = [trace.name or "" for trace in calibration.data]
    texts += [calibration.layout.yaxis.title.text, interval.layout.yaxis.title.text]
    assert not [text for text in texts if "<a" in text or "<b>" in text]
    assert "&#60;a href" in calibration.layout.yaxis.title.text and "&#60;a href" in interval.layout.yaxis.title.text


def test_the_interval_plot_s_colours_are_named_as_drawn():
    """The Intervals page said "Red: ruled in" under orange dots (a new user's walk): the
    words name the hues the plots draw (Okabe-Ito vermillion reads orange, blue blue)."""
    from psl_triage.plots.style import NEGATIVE_COLOR, POSITIVE_COLOR
    from psl_triage.words.calibration import interval_colours

    hue = {"#D55E00": "orange", "#0072B2": "blue"}
    said = interval_colours(0.1)
    assert f":{hue[POSITIVE_COLOR]}[" in said and f":{hue[NEGATIVE_COLOR]}[" in said
    assert ":red[" not in said
