"""The Calibration, Intervals and Evaluation pages in Streamlit's AppTest.

Each page gets the demo data as prepared by the landing page and a list trained by the Train
page's own function, as a real session would hold them, and must render its plots and
downloads without an exception or an error message; without a list or data it must say what
to do instead.
"""

import base64

import numpy as np
import plotly.io as pio
import pytest
from streamlit.testing.v1 import AppTest

from psl_triage.training.fit import train_list
from psl_triage.training.options import DEFAULT_SETUP, SETUPS, TrainingOptions
from tests.apptest import put_list
from tests.paths import ROOT
from tests.tables import dataset_session
from ui.state_keys import DATASET

PAGES = ROOT / "pages"
CALIBRATION, INTERVALS, EVALUATION = (
    str(PAGES / name) for name in ("3_Calibration.py", "4_Intervals.py", "5_Evaluation.py")
)


@pytest.fixture(scope="module")
def trained(demo_prepared):
    return train_list(demo_prepared, "Heart disease (UCI, Cleveland)", TrainingOptions(max_stages=6))


def open_page(page, prepared=None, trained=None):
    at = AppTest.from_file(page, default_timeout=90)
    if prepared is not None:
        DATASET.put(at.session_state, dataset_session(prepared))
    if trained is not None:
        put_list(at, *trained)
    at.run()
    assert not at.exception
    return at


def figures(at):
    return [pio.from_json(chart.proto.spec) for chart in at.get("plotly_chart")]


def values(array):
    """A trace array from the page's JSON: plotly sends numbers as base64 typed arrays."""
    if isinstance(array, dict) and "bdata" in array:
        return np.frombuffer(base64.b64decode(array["bdata"]), dtype=np.dtype(array["dtype"])).tolist()
    return list(array)


def trace_names(figure):
    return {t.name for t in figure.data}


def per_list(name, at):
    """The key of a page's widget that follows the list: ``name`` and the count of lists it
    has followed (ui.per_list_key)."""
    return f"{name}_v{at.session_state[f'{name}_version']}"


def cost_ratio_input(at, prefix):
    """The page's number input of M (ui.cost_ratio_input)."""
    return at.number_input(key=per_list(f"{prefix}_cost_ratio", at))


def stage_slider(at, prefix):
    """The page's stage slider (a new one for each list)."""
    return at.slider(key=per_list(f"{prefix}_stage", at))


def assert_clean(at):
    assert not at.exception
    assert not at.error, [e.value for e in at.error]


# ---------------------------------------------------------------------------- nothing to show yet
@pytest.mark.parametrize("page", [CALIBRATION, INTERVALS, EVALUATION])
def test_without_a_list_the_page_points_to_train(page, demo_prepared):
    at = open_page(page, prepared=demo_prepared)
    assert_clean(at)
    assert any("Train" in info.value for info in at.info)
    assert not at.get("plotly_chart")


@pytest.mark.parametrize("page", [CALIBRATION, EVALUATION])
def test_without_data_the_page_points_to_the_start_page(page, trained):
    at = open_page(page, trained=trained)
    assert_clean(at)
    assert any("start page" in info.value for info in at.info)
    assert not at.get("plotly_chart")


# ---------------------------------------------------------------------------- Calibration
def test_calibration_page_shows_its_four_plots_on_held_out_rows(demo_prepared, trained):
    at = open_page(CALIBRATION, demo_prepared, trained)
    assert_clean(at)
    assert "99 test rows the Train page held out" in at.caption[0].value
    calibration, reliability, flexible, brier, roc = figures(at)
    assert {"flexible calibration curve", "95% band of the curve",
            "observed rate per total (Clopper–Pearson 95%)"} <= trace_names(flexible)
    assert any("Measure" in d.value.columns and d.value["Measure"].str.startswith("ICI").any() for d in at.dataframe)
    shown = trace_names(calibration)
    # The classes as the Data page names them (the demo's "heart disease" / "no heart disease").
    assert {"isotonic calibration", "beta calibration", "heart disease cases", "no heart disease cases"} <= shown
    assert calibration.layout.yaxis.title.text == "P(heart disease) / outcome"
    assert "observed rate (95% interval)" in trace_names(reliability)
    assert {"calibration loss", "refinement loss"} <= trace_names(brier)
    assert {"ROC curve", "ROC convex hull"} <= trace_names(roc)
    # The held-out rows are plotted: 99 dots at the recommended stage.
    dots = sum(len(values(t.x)) for t in calibration.data if t.name in ("heart disease cases", "no heart disease cases"))
    assert dots == 99
    assert len(at.get("download_button")) == 6
    assert [m.label for m in at.metric] == ["Expected calibration error", "AUC (area under the ROC curve)"]


def test_calibration_page_follows_its_widgets(demo_prepared, trained):
    at = open_page(CALIBRATION, demo_prepared, trained)
    stage_slider(at, "calibration").set_value(2).run()
    at.radio(key="calibration_rows").set_value("train").run()
    at.slider(key="calibration_bins").set_value(4).run()
    assert_clean(at)
    calibration, reliability, *_ = figures(at)
    assert calibration.layout.title.text.startswith("Stage 2")
    dots = sum(len(values(t.x)) for t in calibration.data if t.name in ("heart disease cases", "no heart disease cases"))
    assert dots == 198
    assert "(4 bins)" in reliability.layout.title.text


@pytest.mark.parametrize("broken", [
    {"held_out": {"n_rows": 297, "test_rows": "not base64!"}},  # a garbled record of the held-out rows
    {"held_out": None},  # a file saved before the record, with a split that cannot be rebuilt
])
def test_a_bad_split_in_the_metadata_is_not_read_and_gives_no_traceback(demo_prepared, trained, broken):
    model, metadata = trained
    broken = {key: value for key, value in dict(
        metadata, training_options=dict(metadata["training_options"], test_fraction=0.999), **broken).items()
        if value is not None}
    at = open_page(CALIBRATION, demo_prepared, (model, broken))
    assert_clean(at)
    assert any("own test rows are not known" in caption.value for caption in at.caption)
    assert at.get("plotly_chart")


# ---------------------------------------------------------------------------- Intervals
def test_intervals_page_shows_one_stage_and_every_stage(trained):
    at = open_page(INTERVALS, trained=trained)
    assert_clean(at)
    single, grid = figures(at)
    assert single.layout.yaxis.title.text == "P(heart disease)"  # the class as the Data page names it
    model = trained[0]
    threshold = next(t for t in single.data if t.name == "decision threshold 1/(1+M)")
    assert values(threshold.y) == pytest.approx([1 / 11, 1 / 11])
    totals, lower, point, upper = model.stage_interval(model.recommended_stages_, 0.95)  # where it opens
    plotted = {
        x: y + e
        for t in single.data
        if t.error_y.array is not None
        for x, y, e in zip(values(t.x), values(t.y), values(t.error_y.array))
    }
    assert [plotted[t] for t in totals.tolist()] == pytest.approx(upper)
    assert len({t.yaxis for t in grid.data}) == model.n_stages_
    assert len(at.get("download_button")) == 2


@pytest.mark.parametrize("page", [CALIBRATION, INTERVALS])
def test_another_list_starts_the_stage_slider_afresh(page, demo_prepared, trained):
    """The walk: a list of another length (or a stage left on the last one) kept the previous
    list's stage; a list that becomes current starts where a first visit would."""
    import copy

    from psl_triage.words.calibration import STAGE

    def stage(at):
        return next(slider for slider in at.slider if slider.label == STAGE)

    model, metadata = trained
    other = copy.deepcopy(model)  # another list of the same length
    fresh = stage(open_page(page, demo_prepared, (other, metadata))).value
    at = open_page(page, demo_prepared, trained)
    moved = 1 if fresh != 1 else 2
    stage(at).set_value(moved).run()
    assert stage(at).value == moved
    put_list(at, other, metadata)  # trained or loaded on the Train page
    at.run()
    assert_clean(at)
    assert stage(at).value == fresh


def test_another_list_starts_the_evaluation_evidence_stage_afresh(demo_prepared, trained):
    """The evidence slider had one key for every list: a new list's run opened at the stage
    chosen for the previous list. It starts at the new list's recommended stage."""
    import copy

    from psl_triage.bedside.session import recommended_length

    model, metadata = trained
    at = open_page(EVALUATION, demo_prepared, trained)
    at.number_input(key="evaluation_splits").set_value(2)
    at.button(key="evaluation_run").click().run()
    fresh = recommended_length(model)
    moved = 1 if fresh != 1 else 2
    stage_slider(at, "evaluation_evidence").set_value(moved).run()
    assert_clean(at)
    assert stage_slider(at, "evaluation_evidence").value == moved
    put_list(at, copy.deepcopy(model), metadata)  # another list, trained or loaded on the Train page
    at.run()
    at.button(key="evaluation_run").click().run()
    assert_clean(at)
    assert stage_slider(at, "evaluation_evidence").value == fresh


def test_intervals_page_follows_m_confidence_and_stage(trained):
    at = open_page(INTERVALS, trained=trained)
    cost_ratio_input(at, "intervals").set_value(1.0).run()
    at.slider(key="intervals_confidence").set_value(0.5).run()
    stage_slider(at, "intervals").set_value(3).run()
    assert_clean(at)
    single, _ = figures(at)
    threshold = next(t for t in single.data if t.name == "decision threshold 1/(1+M)")
    assert values(threshold.y) == pytest.approx([0.5, 0.5])
    assert single.layout.title.text.startswith("Stage 3: 50%")
    assert "50.0%" in at.markdown[1].value
    table = at.dataframe[0].value
    assert set(table["stage"]) == {3}
    assert {"ruled in", "ruled out"} <= set(table["decision"])


# ---------------------------------------------------------------------------- Evaluation
def test_evaluation_page_runs_few_splits_and_shows_every_view(demo_prepared, trained):
    at = open_page(EVALUATION, demo_prepared, trained)
    assert_clean(at)
    assert at.number_input(key="evaluation_splits").value == 100
    assert any("Run the evaluation" in info.value for info in at.info)
    positive = trained[1]["dataset"]["positive_label"]
    assert any(f"the list decides {positive} when" in caption.value for caption in at.caption)
    at.number_input(key="evaluation_splits").set_value(5)
    cost_ratio_input(at, "evaluation").set_value(2.0)
    at.button(key="evaluation_run").click().run()
    assert_clean(at)
    result = at.session_state["evaluation_result"]["result"]
    assert result.settings["n_splits"] == 5 and result.settings["cost_ratio"] == 2.0
    charts = figures(at)
    assert len(charts) == 7  # four measures, three-way, decision curves, calibration curve
    for chart in charts[:4]:
        assert {"PSL", "LR (C = 1)", "LR (unregularized)"} <= trace_names(chart)
    assert "coverage (share decided)" in trace_names(charts[4])
    assert len(at.get("download_button")) == 6
    assert at.dataframe, "the stepwise rule lists the questions asked"

    at.radio(key="evaluation_rule").set_value("fixed stage").run()
    last = trained[0].n_stages_ - 1  # the list's own stages, never a longer refit's
    measures = result.measures
    measures.loc[measures.index.max() + 1] = {**measures.iloc[-1].to_dict(), "stage": last + 20}
    at.run()
    assert stage_slider(at, "evaluation").max == stage_slider(at, "evaluation_evidence").max == last
    stage_slider(at, "evaluation").set_value(2).run()
    assert_clean(at)
    three_way = figures(at)[4]
    coverage = next(t for t in three_way.data if t.name == "coverage (share decided)")
    rows = result.three_way
    expected = rows[(rows["rule"] == "fixed stage") & (rows["stage"] == 2) & (rows["measure"] == "coverage")]
    assert values(coverage.y) == pytest.approx(expected.groupby("confidence")["value"].mean().tolist())


def test_evaluation_results_belong_to_their_list(demo_prepared, trained):
    at = open_page(EVALUATION, demo_prepared, trained)
    at.number_input(key="evaluation_splits").set_value(2)
    at.button(key="evaluation_run").click().run()
    assert len(at.get("plotly_chart")) == 7
    other = train_list(demo_prepared, "demo", TrainingOptions(max_stages=2))
    put_list(at, *other)
    at.run()
    assert_clean(at)
    assert not at.get("plotly_chart")
    assert any("Run the evaluation" in info.value for info in at.info)


# ---------------------------------------------------------------------------- M across pages
def test_m_starts_at_the_lists_saved_m_and_a_typed_value_survives_page_switches(project_root, demo_prepared):
    """Intervals, Evaluation and Triage start M at the list's saved M; a value typed on a page
    is the list's M on every page (issue 39: one M per list), until another list comes, which
    starts at its own M."""
    first = train_list(demo_prepared, "demo", TrainingOptions(max_stages=3, cost_ratio=1.0))
    at = AppTest.from_file(str(project_root / "app.py"), default_timeout=90)
    DATASET.put(at.session_state, dataset_session(demo_prepared))
    put_list(at, *first)
    at.switch_page("pages/4_Intervals.py").run()
    assert_clean(at)
    assert cost_ratio_input(at, "intervals").value == 1.0
    assert "This list was saved with M = 1." in " ".join(c.value for c in at.caption)
    threshold = next(t for t in figures(at)[0].data if t.name == "decision threshold 1/(1+M)")
    assert values(threshold.y) == pytest.approx([0.5, 0.5])
    cost_ratio_input(at, "intervals").set_value(4.0).run()
    at.switch_page("pages/5_Evaluation.py").run()
    assert_clean(at)
    assert cost_ratio_input(at, "evaluation").value == 4.0
    at.switch_page("pages/2_Triage.py").run()
    assert_clean(at)
    assert cost_ratio_input(at, "triage").value == 4.0
    cost_ratio_input(at, "triage").set_value(2.0).run()
    at.switch_page("pages/4_Intervals.py").run()
    assert cost_ratio_input(at, "intervals").value == 2.0  # typed on Triage since
    at.switch_page("pages/2_Triage.py").run()
    assert cost_ratio_input(at, "triage").value == 2.0

    second = train_list(demo_prepared, "demo", TrainingOptions(max_stages=3, cost_ratio=5.0))
    put_list(at, *second)
    for page, prefix in (("2_Triage", "triage"), ("4_Intervals", "intervals"), ("5_Evaluation", "evaluation")):
        at.switch_page(f"pages/{page}.py").run()
        assert_clean(at)
        assert cost_ratio_input(at, prefix).value == 5.0, page


def test_evaluation_page_shows_decision_curves_calibration_and_subgroups(demo_prepared, trained):
    at = open_page(EVALUATION, demo_prepared, trained)
    at.number_input(key="evaluation_splits").set_value(4)
    cost_ratio_input(at, "evaluation").set_value(2.0)
    at.button(key="evaluation_run").click().run()
    assert_clean(at)
    result = at.session_state["evaluation_result"]["result"]
    curve_figure, calibration_figure = figures(at)[5:7]
    names = trace_names(curve_figure)
    assert {"the list", "LR (C = 1)", "Treat all", "Treat none", "bedside stop rule"} <= names
    assert "M = 2: threshold 1/(1+M) = 33.3%" in names
    stage = stage_slider(at, "evaluation_evidence").value
    rows = result.net_benefit
    expected = rows[(rows["stage"] == stage) & (rows["method"] == "PSL") & (rows["threshold"] == 0.2)]
    drawn = next(t for t in curve_figure.data if t.name == "the list")
    x = values(drawn.x)
    assert values(drawn.y)[x.index(0.2)] == pytest.approx(expected["value"].mean())
    assert max(x) <= 0.5  # the default range, 1 % to 50 %
    assert any("net benefit is" in m.value for m in at.markdown)
    assert {"flexible calibration curve", "95% band of the curve"} <= trace_names(calibration_figure)
    hierarchy = next(d.value for d in at.dataframe if "Measure" in d.value.columns)
    assert hierarchy["Measure"].str.startswith("O/E").any()

    at.slider(key="evaluation_threshold_range").set_value((5, 80)).run()
    assert_clean(at)
    assert max(values(next(t for t in figures(at)[5].data if t.name == "the list").x)) == pytest.approx(0.8)

    at.toggle(key="evaluation_every_stage").set_value(True).run()
    assert_clean(at)
    others = [trace.meta for trace in figures(at)[5].data if trace.name == "the list at other stages (hover: which)"]
    assert "the list at 1 question" in others and f"the list at {stage} questions" not in others

    at.selectbox(key="evaluation_subgroup_column").set_value("sex").run()
    assert_clean(at)
    table = next(d.value for d in at.dataframe if "Group" in d.value.columns)
    assert "All patients" in set(table["Group"]) and len(table) >= 3


def test_the_demo_list_says_where_m_matters_on_triage_train_and_evaluation(project_root, demo_prepared):
    """Issue 26, item 6: at the default M = 10 the demo list rules nobody out; each page says so
    with the range of M over which the list decides anything."""
    from psl_triage.words import shown

    demo = train_list(demo_prepared, "Heart disease (UCI, Cleveland)", TrainingOptions(**SETUPS[DEFAULT_SETUP]))
    pages = {
        "Triage": str(PAGES / "2_Triage.py"), "Evaluation": EVALUATION,
    }
    for name, page in pages.items():
        at = open_page(page, prepared=demo_prepared, trained=demo)
        said = " ".join(shown(element.value) for element in [*at.info, *at.caption])
        assert "Where M matters." in said, name
        # Since issue 37 the demo's intervals (after the search) rule nobody in: the range starts at 0.
        # Evaluation acts on the point risk, as its decision curves (issue 39): a range from above 0.
        start = "between" if name == "Evaluation" else "below"
        assert f"decides differently from the base rate alone only when M {'lies' if start == 'between' else 'is'} {start}" in said, name
        assert "it can rule nobody out" in said, name
        # The Evaluation page does not send its reader to itself, and states no timing.
        assert ("on the Evaluation page" in said) == (name == "Triage"), name
        assert ("further down this page" in said) == (name == "Evaluation"), name
        assert "seconds" not in said and "two-core" not in said, name
    train = AppTest.from_file(str(project_root / "app.py"), default_timeout=90)
    put_list(train, *demo)
    train.switch_page("pages/1_Train.py").run()
    said = " ".join(shown(element.value) for element in train.markdown)
    assert "**Where M matters.**" in said and "only when M is below" in said and "rule nobody out" in said


def test_calibration_page_opens_at_the_recommended_stage(demo_prepared, trained):
    """Issue 26, item 11: the stage the list is used at, not its last one."""
    model, _ = trained
    assert 0 < model.recommended_stages_ < len(model.literals_)
    at = open_page(CALIBRATION, demo_prepared, trained)
    assert stage_slider(at, "calibration").value == model.recommended_stages_
    calibration, *_ = figures(at)
    assert calibration.layout.title.text.startswith(f"Stage {model.recommended_stages_}")


def test_a_new_evaluation_run_is_not_shown_the_last_runs_curves(demo_prepared, trained):
    """The kept evidence is tied to its result object, not to an id a newer result may reuse."""
    at = open_page(EVALUATION, demo_prepared, trained)
    at.number_input(key="evaluation_splits").set_value(2)
    at.button(key="evaluation_run").click().run()
    first = at.session_state["evaluation_result"]["result"]
    at.number_input(key="evaluation_splits").set_value(3)
    at.button(key="evaluation_run").click().run()
    assert_clean(at)
    second = at.session_state["evaluation_result"]["result"]
    assert second is not first
    drawn = next(t for t in figures(at)[5].data if t.name == "the list")
    stage = stage_slider(at, "evaluation_evidence").value
    rows = second.net_benefit
    rows = rows[(rows["stage"] == stage) & (rows["method"] == "PSL") & (rows["threshold"] == 0.2)]
    assert values(drawn.y)[values(drawn.x).index(0.2)] == pytest.approx(rows["value"].mean())


def test_intervals_page_opens_at_the_recommended_stage_and_keeps_the_grid(demo_prepared, trained):
    """Like Triage and Calibration, the page starts where the list recommends stopping; moving the
    stage does not draw the every-stage figure again (hundreds of traces for a long list)."""
    model = trained[0]
    assert 0 < model.recommended_stages_ < len(model.literals_)
    at = open_page(INTERVALS, demo_prepared, trained)
    slider = stage_slider(at, "intervals")
    assert slider.value == model.recommended_stages_
    grid = figures(at)[1]
    slider.set_value(len(model.literals_)).run()
    assert_clean(at)
    assert f"Stage {len(model.literals_)}" in " ".join(h.value for h in at.header)
    assert figures(at)[1] == grid
    kept_grid = [entry for key, entry in at.session_state["intervals_evidence"].items() if key[0] == "grid"]
    assert len(kept_grid) == 1


def test_evaluation_page_says_how_long_a_run_takes_and_starts_with_fewer_splits_on_a_slow_list(demo_prepared, trained):
    """A wide table's list took 78 s to train: the paper's 100 splits would take most of an hour,
    and the page said nothing before Run. It now starts with fewer and says about how long."""
    at = AppTest.from_file(EVALUATION, default_timeout=90)
    DATASET.put(at.session_state, dataset_session(demo_prepared))
    put_list(at, *trained).fit_seconds = 78.0
    at.run()
    assert_clean(at)
    n_splits = at.number_input(key="evaluation_splits").value
    assert n_splits < 100
    assert any(c.value.startswith("About ") and f"for {n_splits} splits" in c.value for c in at.caption)
