"""The Evaluation page's larger parts (Streamlit): the run of the repeated splits with its
progress bar, the comparison of a horizon list with a Cox model, the three-way view and the
held-out patients of the subgroups.

Kept out of ``pages/`` because Streamlit turns every file there into a page. The numbers are
:func:`psl_core.evaluation.monte_carlo_cv`'s; every sentence is :mod:`psl_triage.words.evaluation`'s.
"""

from __future__ import annotations

import time

import joblib
import streamlit as st
from sklearn.base import clone

from psl_core.cost_ratio import decision_threshold
from psl_core.costs import default_change_value
from psl_core.evaluation import FIXED_STAGE, STEPWISE, band_summary, monte_carlo_cv
from psl_core.stopping import DEFAULT_TOLERANCE
from psl_triage.bedside.session import recommended_length
from psl_triage.judging.evidence import decision_curve_sentence
from psl_triage.judging.horizon import horizon_comparison, horizon_span
from psl_triage.plots import decision_curve_figure, three_way_figure
from psl_triage.training.held_out import held_out_rows
from psl_triage.training.runs import default_splits, evaluation_seconds, horizon_seconds, inner_fits, one_run_at_a_time
from psl_triage.words import evaluation as words
from psl_triage.words.common import queued
from ui import cost_ratio_input, csv_download, shown_errors, stage_slider, trained_metadata, training_session
from ui.evidence import Patients, kept
from ui.state_keys import EVALUATION_HORIZON, EVALUATION_RESULT

ss = st.session_state


def bedside_change_value(model):
    """The Triage page's starting value of a changed outcome for this list (None without costs)."""
    return default_change_value(model.stage_costs_[: recommended_length(model)])


def splits_input(model, container) -> int:
    """The number of splits (``"evaluation_splits"``): it starts at the paper's 100 unless the
    list's training time says they would take long (:func:`psl_triage.training.runs.default_splits`)."""
    start = default_splits(training_session().fit_seconds, inner_fits(model))
    return int(container.number_input(words.SPLITS, 2, 1000, start, step=10, key="evaluation_splits",
                                      persist_state="session", help=words.SPLITS_HELP))


def run_estimate(model, n_splits: int, horizon: bool = False) -> None:
    """Before a run: about how long it takes, when the list was trained in this session (a
    horizon list's comparison with Cox when ``horizon``: one split after another)."""
    fit_seconds = training_session().fit_seconds
    if fit_seconds is None:
        return
    if horizon:
        seconds = horizon_seconds(fit_seconds, inner_fits(model), n_splits)
        st.caption(words.run_estimate(seconds, n_splits, None, fit_seconds))
    else:
        workers = joblib.cpu_count()
        seconds = evaluation_seconds(fit_seconds, inner_fits(model), n_splits, workers)
        st.caption(words.run_estimate(seconds, n_splits, workers, fit_seconds))


def run(model, prepared, n_splits: int, test_size: float, cost_ratio: float, confidence: float) -> None:
    """Run the repeated splits with a progress bar; the result goes to ``"evaluation_result"``."""
    bar = st.progress(0.0, text=words.STARTING_WORKERS)
    start = time.perf_counter()

    def progress(done: int, total: int) -> None:
        # Splits run in parallel (every core) and report as each one finishes; the time left
        # goes by the pace so far.
        this_run.progress(done, total)  # for the sessions waiting for this run
        left = (time.perf_counter() - start) / done * (total - done) if done else None
        bar.progress(done / total, text=words.splits_done(done, total, left))

    def waiting(running, waited: float) -> None:
        bar.progress(0.0, text=queued("evaluation", running, waited))

    def make_model():
        # The list's internal cross-validation recommends where to stop and how far to pull the
        # probabilities toward the base rate; every stage is measured here, so skipping it is
        # faster (bench/README.md has the timings), and the splits' lists keep their probabilities as learned.
        return clone(model).set_params(recommend_folds=None)

    # joblib's worker pool is the process's: one evaluation at a time; the time said is the run's own
    with one_run_at_a_time("evaluation", waiting) as this_run:
        start = time.perf_counter()
        result = monte_carlo_cv(
            prepared.X, prepared.y, make_model, n_splits=n_splits, test_size=test_size,
            cost_ratio=cost_ratio, confidence=confidence, progress=progress,
            bedside_stages=model.recommended_stages_, change_value=bedside_change_value(model),
        )
    bar.progress(1.0, text=words.RUN_DONE.format(n_splits=n_splits, seconds=time.perf_counter() - start))
    EVALUATION_RESULT.put(ss, {"model": model, "prepared": prepared, "result": result})


def horizon_section(model, prepared) -> None:
    """A horizon list's settings against a Cox model and the naive list (``"evaluation_horizon"``)."""
    st.markdown(words.horizon_intro(horizon_span(model, trained_metadata())))
    with st.form("evaluation_horizon_form"):
        columns = st.columns(3)
        n_splits = columns[0].number_input(words.RANDOM_SPLITS, 2, 200, 20, step=5, key="evaluation_horizon_splits")
        cost_ratio = cost_ratio_input("evaluation", model, trained_metadata(), container=columns[1])
        stage = stage_slider("evaluation_horizon", model, words.HORIZON_STAGE, container=columns[2])
        submitted = st.form_submit_button(words.RUN_COMPARISON, type="primary", key="evaluation_horizon_run")
    run_estimate(model, int(n_splits), horizon=True)
    if submitted:
        with shown_errors(words.COMPARING_WITH_COX), st.spinner(words.FITTING_SPLITS):
            table, curves = horizon_comparison(model, prepared, int(n_splits), float(cost_ratio), stage=stage)
            EVALUATION_HORIZON.put(ss, {"model": model, "prepared": prepared, "table": table, "curves": curves,
                                        "cost_ratio": float(cost_ratio), "n_splits": int(n_splits),
                                        "stage": stage})
    stored = EVALUATION_HORIZON.get(ss)
    if stored is not None and stored["model"] is model and stored["prepared"] is prepared:
        st.dataframe(stored["table"], hide_index=True, key="evaluation_horizon_table")
        m = stored["cost_ratio"]
        figure, _ = decision_curve_figure(stored["curves"], decision_threshold(m), m, words.HORIZON_CURVES_TITLE)
        st.plotly_chart(figure, key="evaluation_horizon_curves")
        if sentence := decision_curve_sentence(stored["curves"], decision_threshold(m), m):
            st.markdown(sentence)  # the verdict of every page with decision curves, from the same numbers


def last_stage(result, model) -> int:
    """The last stage the views offer: the list's own last one, never a longer refit's."""
    return min(int(result.measures["stage"].max()), model.n_stages_ - 1)


def three_way_section(result, model) -> None:
    """Decide or refer: the patients decided at each confidence level, by the bedside rule or at a stage."""
    settings = result.settings
    st.markdown(words.three_way(DEFAULT_TOLERANCE, settings.get("change_value"), trained_metadata().cost_unit or ""))
    with shown_errors(words.DRAWING_THREE_WAY):
        three_way = band_summary(result.three_way)
        rule = st.radio(words.RULE_LABEL, list(words.RULES), format_func=words.RULES.get, key="evaluation_rule",
                        persist_state="session")
        stage = None
        if rule == FIXED_STAGE:
            stage = stage_slider("evaluation", model, words.STAGE_LABEL, last=last_stage(result, model), start=3)
        figure, table = three_way_figure(three_way, rule, stage)
        st.plotly_chart(figure, key="evaluation_three_way")
        if rule == STEPWISE:
            questions = table[table["measure"] == "questions"][["confidence", "mean"]]
            if (questions["mean"] == 0).all():
                st.info(words.no_question_asked(settings["cost_ratio"]))
            st.dataframe(
                questions.rename(columns=words.QUESTIONS_ASKED_COLUMNS),
                hide_index=True, key="evaluation_questions",
            )
        csv_download(three_way, "three_way", "evaluation_download_three_way")


def held_out_patients(model, prepared, evidence_stage: int, raw):
    """A function giving the held-out rows of one split (the Calibration page's) at the
    evidence stage, with the raw table's columns when ``raw`` holds every prepared row."""

    def patients() -> Patients:
        held = kept("evaluation", (model, prepared), "held_out",
                    lambda: held_out_rows(model, trained_metadata(), prepared))
        stage = min(evidence_stage, held.model.n_stages_ - 1)
        return Patients(
            raw.loc[held.X_test.index] if raw is not None else held.X_test, held.y_test,
            held.model.stagewise_intervals(held.X_test)[:, stage, 1], (held,), stage,
            words.held_out_patients(len(held.y_test), stage), held.description,
        )

    return patients
