"""Evaluation: how good is a list learned this way, against logistic regression?

The paper's evaluation on the prepared data: many random stratified train/test splits; on
each, a list with the current list's settings is learned on the training part and every
stage is measured on the test part (expected entropy, Brier score, AUC, expected loss),
next to logistic regressions on the same features. The page shows the stagewise mean over
the splits with a 95 % confidence band (the paper's Figures 3, 4, 6, 8) and the three-way
view: how many test patients the list decides at each confidence level, and how well; then
the evidence a researcher reports: decision curves of a chosen stage (the list, the
baselines, treat all and none, M's threshold, the bedside stop rule's point), the held-out
calibration hierarchy and curve, and subgroups of the held-out rows (evidence_ui,
psl_triage.evidence). All numbers come from :func:`psl_core.evaluation.monte_carlo_cv`;
this page reads widgets, runs it with a progress bar when asked, and renders, with a CSV
download behind every plot.

Session state read: ``"trained_model"`` (Train: its settings are evaluated),
``"trained_metadata"`` (its saved M) and ``"prepared"`` (landing page). Written: ``"evaluation_result"`` (dict: the model and data
it belongs to, ``"result"``: CVResult), and the widget keys ``"evaluation_splits"``,
``"evaluation_test_size"``, ``"evaluation_cost_ratio_v<N>"`` (M, starting at the list's saved
M; a new list gets a new N: ui.cost_ratio_input, with ``"evaluation_cost_ratio_list"`` and
``"evaluation_cost_ratio_version"``), ``"evaluation_confidence"``, ``"evaluation_run"``,
``"evaluation_rule"``, ``"evaluation_stage"`` and ``"evaluation_download_*"``; the evidence
sections (evidence_ui): ``"evaluation_evidence_stage"``, ``"evaluation_threshold_range"``,
``"evaluation_every_stage"``, ``"evaluation_subgroup_column"``, ``"evaluation_subgroup_bands"``,
``"evaluation_evidence"`` (results kept per result, list and choice) and
``"evaluation_subgroup_report"`` (the last subgroup table, for the Card page's report).
For a list of the risk within a horizon (follow-up data) the page compares the list's settings
with a Cox model on all features and the naive yes/no list at the horizon instead
(psl_triage.follow_up.horizon_comparison; ``"evaluation_horizon"`` keeps the table).
"""

from __future__ import annotations

import time

import streamlit as st
from sklearn.base import clone

from evidence_ui import (
    Patients,
    calibration_section,
    decision_curve_section,
    kept,
    subgroup_section,
    threshold_range,
)
from psl_core.costs import default_change_value
from psl_core.evaluation import (
    FIXED_STAGE,
    MEASURE_LABELS,
    MEASURES,
    STEPWISE,
    band_summary,
    monte_carlo_cv,
)
from psl_core.stopping import DEFAULT_TOLERANCE
from psl_triage.card import card_stage
from psl_triage.costs import cost_text, cost_unit
from psl_triage.evidence import (
    held_out_calibration_curve,
    held_out_decision_curves,
    held_out_hierarchy,
)
from psl_triage.follow_up import horizon_comparison, horizon_page_note
from psl_triage.held_out import held_out_rows
from psl_triage.plots import stagewise_figure, three_way_figure
from psl_triage.questions import one_in
from psl_triage.runs import one_run_at_a_time
from psl_triage.trade_off import m_range_text
from psl_triage.words import md
from ui import class_names, cost_ratio_input, csv_download, required_data, required_list, shown_errors, trained_metadata

RULES = {
    STEPWISE: "Bedside: the Triage page's stop rule",
    FIXED_STAGE: "Every patient is asked the first questions up to a stage",
}

ss = st.session_state


def bedside_change_value(model):
    """The Triage page's starting value of a changed outcome for this list (None without costs)."""
    return default_change_value(model.stage_costs_[: card_stage(model)])


def run(model, prepared, n_splits: int, test_size: float, cost_ratio: float, confidence: float) -> None:
    bar = st.progress(0.0, text="Starting the workers…")

    def progress(done: int, total: int) -> None:
        # Splits run in parallel (every core) and report as each one finishes.
        bar.progress(done / total, text=f"{done} of {total} splits done")

    def make_model():
        # The list's internal cross-validation recommends where to stop and how far to pull the
        # probabilities toward the base rate; every stage is measured here, so skipping it is
        # several times faster, and the splits' lists keep their probabilities as learned.
        return clone(model).set_params(recommend_folds=None)

    start = time.perf_counter()
    with one_run_at_a_time():  # joblib's worker pool is the process's: one evaluation at a time
        result = monte_carlo_cv(
            prepared.X, prepared.y, make_model, n_splits=n_splits, test_size=test_size,
            cost_ratio=cost_ratio, confidence=confidence, progress=progress,
            bedside_stages=model.recommended_stages_, change_value=bedside_change_value(model),
        )
    bar.progress(1.0, text=f"Done: {n_splits} splits in {time.perf_counter() - start:.1f} s")
    ss.evaluation_result = {"model": model, "prepared": prepared, "result": result}


st.set_page_config(page_title="Evaluation · PSL Triage", page_icon="🩺", layout="wide")
st.title("Evaluation")
st.markdown(
    "One train/test split can be lucky. Here the data are split at random many times; each "
    "time a list with the current list's settings is learned on the training part and judged "
    "on the test part, next to logistic regression on the same yes/no features "
    "(regularized with C = 1, and without penalty). The lines are means over the splits, the "
    "shaded bands their 95 % confidence intervals. Each split's list skips the internal "
    "cross-validation (it only chooses the recommended length and how far to pull the "
    "probabilities toward the base rate), so its probabilities are as learned."
)

model = required_list(": its settings are what this page evaluates")
prepared = required_data("evaluate on")
if horizon_page_note(model, "Evaluation") is not None:
    st.markdown(
        f"This list predicts the risk of the event within {model.horizon:g} (follow-up data). On random "
        "splits (2/3 train, 1/3 test) its settings are compared at the horizon, censoring respected, with a "
        "Cox model on all features and with the same list trained on \"event during follow-up\": mean "
        "(standard deviation) over the splits."
    )
    with st.form("evaluation_horizon_form"):
        columns = st.columns(2)
        n_splits = columns[0].number_input("Random splits", 2, 200, 20, step=5, key="evaluation_horizon_splits")
        cost_ratio = cost_ratio_input("evaluation", model, trained_metadata(), container=columns[1])
        submitted = st.form_submit_button("Run the comparison", type="primary", key="evaluation_horizon_run")
    if submitted:
        with shown_errors("comparing the list with the Cox model"), st.spinner("Fitting on every split…"):
            table = horizon_comparison(model, prepared, int(n_splits), float(cost_ratio))
            ss.evaluation_horizon = {"model": model, "prepared": prepared, "table": table}
    stored = ss.get("evaluation_horizon")
    if stored is not None and stored["model"] is model and stored["prepared"] is prepared:
        st.dataframe(stored["table"], hide_index=True, key="evaluation_horizon_table")
    st.stop()

with st.form("evaluation_form"):
    columns = st.columns(4)
    n_splits = columns[0].number_input("Random splits", 2, 1000, 100, step=10, key="evaluation_splits",
                                       persist_state="session", help="The paper uses 100.")
    test_size = columns[1].number_input("Test fraction", 0.1, 0.5, 1 / 3, step=0.05, format="%.2f",
                                        key="evaluation_test_size", persist_state="session",
                                        help="The paper holds out 1/3.")
    cost_ratio = cost_ratio_input("evaluation", model, trained_metadata(), container=columns[2])
    confidence = columns[3].number_input("Confidence level of the intervals", 0.5, 0.99, 0.95, step=0.01,
                                         key="evaluation_confidence", persist_state="session")
    submitted = st.form_submit_button("Run the evaluation", type="primary", key="evaluation_run")
st.caption(
    f"Expected loss: the list decides {md(class_names()[0])} when the upper end of its interval is above "
    "1/(1+M) (risk-averse), logistic regression when its probability is; a missed case costs M, "
    "a false alarm 1."
)
with shown_errors("reading M"):
    where_m, one_sided = m_range_text(
        model, float(cost_ratio), *trained_metadata().class_names, float(confidence),
    )
    (st.info if one_sided else st.caption)(f"**Where M matters.** {where_m}")
if submitted:
    with shown_errors("running the evaluation"):
        run(model, prepared, int(n_splits), float(test_size), float(cost_ratio), float(confidence))

stored = ss.get("evaluation_result")
if stored is None or stored["model"] is not model or stored["prepared"] is not prepared:
    st.info("Press **Run the evaluation**. The splits run in parallel on every core: on the demo "
            "data, 100 splits take a few seconds on an idle two-core machine.")
    st.stop()
result = stored["result"]
settings = result.settings
st.caption(
    f"{settings['n_splits']} splits, test fraction {settings['test_size']:.2f}, "
    f"M = {settings['cost_ratio']:g}, {settings['confidence']:.0%} intervals."
)

st.header("Stage by stage, against logistic regression")
with shown_errors("summarizing the splits"):
    summary = band_summary(result.measures)
    grid = st.columns(2)
    for index, measure in enumerate(MEASURES):
        with grid[index % 2]:
            figure, _ = stagewise_figure(summary, measure)
            st.plotly_chart(figure, key=f"evaluation_{measure}")
    st.markdown(
        "Lower is better for expected entropy (how uncertain the estimates are), the Brier score "
        "and the expected loss; higher is better for the AUC (ranking)."
    )
    left, right = st.columns(2)
    with left:
        csv_download(summary.assign(measure_name=summary["measure"].map(MEASURE_LABELS)),
                     "evaluation_summary", "summary")
    with right:
        st.download_button(
            "Download every split (CSV)", result.measures.to_csv(index=False).encode(),
            file_name="evaluation_splits.csv", mime="text/csv", key="evaluation_download_splits",
        )

st.header("Decide or refer: the three-way view")
st.markdown(
    "A patient is *decided* when the list rules them in (the interval lies wholly above 1/(1+M)) "
    "or out (wholly below it); otherwise the outcome is uncertain: ask more, or refer. A higher "
    "confidence level means wider intervals: fewer patients decided, but those more reliably. "
    "Coverage is the share of test patients decided; accuracy and loss are over the decided ones. "
    "The bedside rule is the Triage page's with its default settings: the recommended questions, "
    f"stopping when ruled in or out and fewer than {one_in(DEFAULT_TOLERANCE)} training patients "
    "with the same answers changed outcome with more questions, when no answer can change the "
    "outcome, or at the end."
    + (
        " This list has question costs: the rule also stops before a question that costs more than "
        f"{cost_text(settings['change_value'], md(cost_unit(ss.get('trained_metadata'))))} (the value of a changed "
        "outcome) times the share of training patients like the patient whose outcome still changed."
        if settings.get("change_value") is not None else ""
    )
)
with shown_errors("drawing the three-way view"):
    three_way = band_summary(result.three_way)
    rule = st.radio("Rule", list(RULES), format_func=RULES.get, key="evaluation_rule", persist_state="session")
    stage = None
    if rule == FIXED_STAGE:
        last = int(result.measures["stage"].max())
        stage = st.slider("Stage", 0, max(last, 1), min(last, 3), key="evaluation_stage",
                          persist_state="session")
    figure, table = three_way_figure(three_way, rule, stage)
    st.plotly_chart(figure, key="evaluation_three_way")
    if rule == STEPWISE:
        questions = table[table["measure"] == "questions"][["confidence", "mean"]]
        if (questions["mean"] == 0).all():
            st.info(
                "At every confidence level the list stops before its first question: no answer "
                f"changes the outcome at M = {settings['cost_ratio']:g}, so at the bedside every "
                "patient gets the same outcome. A larger or smaller M, or the fixed-stage rule, "
                "shows what the questions add."
            )
        st.dataframe(
            questions.rename(columns={"confidence": "Confidence level", "mean": "Questions asked (mean)"}),
            hide_index=True, key="evaluation_questions",
        )
    csv_download(three_way, "three_way", "evaluation_download_three_way")

st.header("Clinical utility: decision curves")
st.markdown(
    "Is deciding with the list better than treating everyone or no one? Net benefit counts the "
    "patients correctly acted on, less the false alarms weighted by the threshold's odds, on "
    "each split's test patients; the bands are 95 % intervals of the mean over the splits."
)
with shown_errors("drawing the decision curves"):
    last = int(result.measures["stage"].max())
    evidence_stage = st.slider("Questions asked (stage) for the curves and the calibration below", 0,
                               max(last, 1), min(card_stage(model), last), key="evaluation_evidence_stage")
    shown_range = threshold_range("evaluation")
    every_stage = st.toggle("Also the list's curve at every other stage (thin lines)", key="evaluation_every_stage")
    curves = kept("evaluation", (result,), ("curves", evidence_stage, shown_range, every_stage),
                  lambda: held_out_decision_curves(result, evidence_stage, shown_range, every_stage))
    decision_curve_section("evaluation", curves, settings["cost_ratio"])

st.header("Calibration on held-out patients")
with shown_errors("summarizing the held-out calibration"):
    hierarchy = kept("evaluation", (result,), ("hierarchy", evidence_stage),
                     lambda: held_out_hierarchy(result, evidence_stage))
    curve = kept("evaluation", (result,), ("curve", evidence_stage),
                 lambda: held_out_calibration_curve(result, evidence_stage))
    calibration_section(
        "evaluation", hierarchy, curve,
        band_words="Here every number is the mean over the splits with its 95 % interval; the band "
                   "holds 95 % of the splits' curves, drawn where at least half of the splits have patients.",
    )

st.header("Subgroups")
st.markdown(
    "The same measures within groups of patients, on the held-out patients of one split "
    "(the Calibration page's): a list calibrated overall may not be for every group."
)
raw = ss.get("raw_df")
usable_raw = raw is not None and prepared.X.index.isin(raw.index).all()


def held_out_patients() -> Patients:
    """The held-out rows of one split (the Calibration page's) at the evidence stage."""
    held = kept("evaluation", (model, prepared), "held_out",
                lambda: held_out_rows(model, trained_metadata(), prepared.X, prepared.y))
    stage = min(evidence_stage, held.model.n_stages_ - 1)
    return Patients(
        raw.loc[held.X_test.index] if usable_raw else held.X_test, held.y_test,
        held.model.stagewise_intervals(held.X_test)[:, stage, 1], (held,), stage,
        f"{len(held.y_test)} held-out patients at {stage} questions", held.description,
    )


with shown_errors("judging the subgroups"):
    subgroup_section("evaluation", raw.columns if usable_raw else prepared.X.columns, held_out_patients,
                     settings["cost_ratio"], owner=model)
