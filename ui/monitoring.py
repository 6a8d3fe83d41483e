"""The Monitor page's larger widgets (Streamlit): the date and outcome choices, the monitoring
kept across reruns, its sections, and the one click to the recalibration on Validate.

The logic is :mod:`psl_triage.judging.monitoring`; the figures :mod:`psl_triage.plots.monitoring`;
every sentence :mod:`psl_triage.words.monitoring`'s.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from psl_core.closed_test import INTERCEPT, RECALIBRATE, REFIT
from psl_core.monitoring import Baseline, cusum_limit
from psl_core.survival import is_horizon_list
from psl_triage.data import count_classes
from psl_triage.judging.monitoring import MIN_OUTCOMES, PERIODS, date_columns, monitor
from psl_triage.judging.validation import positive_defaults
from psl_triage.judging.validation_horizon import follow_up_defaults
from psl_triage.plots.monitoring import answer_shift_figure, cusum_figure, drift_figure
from psl_triage.training.tables import stage_condition
from psl_triage.words import monitoring as words
from ui import csv_download, index_of

KEPT = "monitor_result"
"""Session key: (list, inputs' key, Monitoring) of the last monitoring, kept across reruns."""
UPDATES_OFFERED = (INTERCEPT, RECALIBRATE, REFIT)
"""The closed test's recommendations that the app's recalibration carries out (every total's risk
re-estimated covers an intercept or slope update)."""
VALIDATE_TABLE = "validate_table"
"""The Validate page's kept upload (ui.kept_upload), where the recalibration link puts the patients."""


def monitoring_of(model):
    """The Monitor page's last result for this list in this session, or None."""
    kept = st.session_state.get(KEPT)
    return kept[2] if kept is not None and kept[0] is model else None


def _stop_unless(value, hint: str):
    if value is None:
        st.info(hint)
        st.stop()
    return value


def settings(model, metadata, frame):
    """The date column, outcome (a horizon list's event) column, its positive values, a horizon
    list's time column and the period, chosen in a row.

    Returns
    -------
    (date, outcome, positive, time or None, period); stops the page while one is missing.
    """
    columns = [str(c) for c in frame.columns]
    dates = date_columns(frame)
    time_default, outcome_default, _ = follow_up_defaults(metadata, frame)
    horizon = is_horizon_list(model)
    boxes = st.columns(4 if horizon else 3)
    date = boxes[0].selectbox(words.DATE_COLUMN, columns, index=index_of(columns, dates[0] if dates else None, None),
                              placeholder=words.DATE_PLACEHOLDER, key="monitor_date")
    outcome = boxes[1].selectbox(words.OUTCOME_COLUMN, columns, index=index_of(columns, outcome_default, None),
                                 placeholder=words.OUTCOME_PLACEHOLDER, key="monitor_outcome")
    time = boxes[2].selectbox(words.TIME_COLUMN, columns, index=index_of(columns, time_default, None),
                              placeholder=words.TIME_PLACEHOLDER, key="monitor_time") if horizon else None
    period = boxes[-1].radio(words.PERIOD_LABEL, list(PERIODS), format_func=words.PERIOD_WORDS.get,
                             horizontal=True, key="monitor_period")
    _stop_unless(date, words.CHOOSE_DATE)
    _stop_unless(outcome, words.CHOOSE_OUTCOME)
    if horizon:
        _stop_unless(time, words.CHOOSE_TIME)
    values = [value for value, _ in count_classes(frame[outcome])]
    positive = st.multiselect(words.POSITIVE_LABEL, values,
                              default=[v for v in positive_defaults(metadata, frame[outcome]) if v in values],
                              key=f"monitor_positive_{outcome}")
    if not positive:
        st.info(words.CHOOSE_POSITIVE)
        st.stop()
    return date, outcome, positive, time, period


@st.cache_data(show_spinner=False, max_entries=8)
def _limit(risks, answers, shares, n_training, groups, risk_draws, stage_risks, stage_groups, stage_draws, false_alarm,
           n_simulations, seed, weight):
    baseline = Baseline(answers, shares, n_training, groups, risk_draws, stage_risks, stage_groups, stage_draws)
    return cusum_limit(risks, false_alarm, n_simulations, seed=seed, baseline=baseline, weight=weight)


def cached_limit(risks, baseline, false_alarm, n_simulations, seed, weight=None):
    """The CUSUM's simulated limit, kept per sequence of risks, answers, censoring weights and
    settings: the same list on the same patients (another test date, a new session or page visit;
    another period too, but for a horizon list, whose weights are per period) is not simulated
    again."""
    return _limit(risks, baseline.answers, baseline.shares, baseline.n_training, baseline.groups,
                  baseline.risk_draws, baseline.stage_risks, baseline.stage_groups, baseline.stage_draws, false_alarm,
                  n_simulations, seed, weight)


def kept_monitoring(model, metadata, monitored, period, test_from):
    """:func:`~psl_triage.judging.monitoring.monitor` of these inputs, kept until one changes; a
    new period or test date reuses the CUSUM's simulated limit (the same patients and risks)."""
    table = monitored.table
    patients = (monitored.date_column, table.fingerprint, int(pd.util.hash_pandas_object(monitored.dates).sum()),
                None if monitored.follow_up is None else (hash(monitored.follow_up.tobytes()), period))
    kept = st.session_state.get(KEPT)
    same_list = kept is not None and kept[0] is model
    if same_list and kept[1] == (patients, period, str(test_from)):
        return kept[2]
    limit = kept[2].cusum.limits if same_list and kept[1][0] == patients else cached_limit
    result = monitor(model, monitored, period, metadata=metadata, test_from=test_from, limit=limit)
    st.session_state[KEPT] = (model, (patients, period, str(test_from)), result)
    return result


def periods_section(result):
    """The period table, the O/E and slope figure and where the stop rule stopped."""
    table = result.periods
    if result.weighted:
        st.markdown(words.WEIGHTED)
    st.caption(words.period_summary(len(table), int(table["judged"].sum()), MIN_OUTCOMES, result.n_left_out))
    shown = words.headed(table, words.PERIOD_HEADS)
    st.dataframe(shown, key="monitor_periods", hide_index=True)
    csv_download(shown, "monitoring-periods", "monitor_download_periods")
    st.plotly_chart(drift_figure(table), key="monitor_drift")
    stops = result.stops.pivot(index="period", columns="stage", values="share").reindex(table["period"])
    st.dataframe(stops.rename(columns=words.stop_column).rename_axis(words.PERIOD_HEADS["period"]), key="monitor_stops")
    csv_download(words.headed(result.stops, words.STOP_HEADS), "monitoring-stops", "monitor_download_stops")


def cusum_section(result):
    """The CUSUM's verdict, its figure and every patient's chart values."""
    cusum = result.cusum
    st.markdown(words.cusum_sentence(result.signals, cusum.false_alarm, len(result.chart), cusum))
    st.caption(words.what_charts_see(result.per_month))
    st.plotly_chart(cusum_figure(result.chart, cusum.limits, cusum.first_signal), key="monitor_cusum")
    csv_download(words.headed(result.chart, words.chart_heads(result.chart.columns)), "monitoring-cusum",
                 "monitor_download_cusum")


def update_section(result, frame, name, dates):
    """The closed test's recommendation and statistics; when it says recalibrate, the patients
    it judged handed to the Validate page's recalibration in one click."""
    closed = result.closed
    if closed is None:
        st.info(words.NO_CLOSED_TEST)
        return
    st.markdown(words.closed_test_sentence(closed, result.test_from))
    tests = words.headed(closed.tests, words.TEST_HEADS)
    st.dataframe(tests, key="monitor_tests", hide_index=True)
    csv_download(tests, "monitoring-closed-test", "monitor_download_tests")
    if closed.recommendation not in UPDATES_OFFERED:
        return
    st.caption(words.RECALIBRATION_NOTE)
    if st.button(words.GO_RECALIBRATE, key="monitor_recalibrate", type="primary"):
        since = frame.loc[dates.index[dates >= result.test_from]] if result.test_from is not None else frame
        # the user's own rows back to the app, not to a spreadsheet: written as read
        st.session_state[VALIDATE_TABLE] = (f"{name.rsplit('.', 1)[0]}-monitored.csv",
                                            since.to_csv(index=False).encode())
        st.switch_page("pages/6_Validate.py")


def answers_section(model, metadata, result):
    """Per question, the share meeting its condition against training, and not recorded."""
    readable = metadata.readable_columns()
    st.caption(words.questions_caption([stage_condition(model, k, readable)
                                        for k in range(1, len(model.literals_) + 1)]))
    st.plotly_chart(answer_shift_figure(result.answers), key="monitor_answers")
    shown = words.headed(result.answers, words.ANSWER_HEADS)
    st.dataframe(shown, key="monitor_answer_table", hide_index=True)
    csv_download(shown, "monitoring-answers", "monitor_download_answers")
