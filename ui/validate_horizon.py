"""The Validate page for a list of the risk within a horizon (Streamlit): the site's time and
event columns, the measures at the horizon with censoring respected, and the recalibration
with censoring weights.

Kept out of ``pages/`` because Streamlit turns every file there into a page. The logic is
:mod:`psl_triage.judging.validation_horizon`; every sentence is :mod:`psl_triage.words.validate`'s.
"""

from __future__ import annotations

import streamlit as st

from psl_core.cost_ratio import decision_threshold
from psl_core.validation import recalibratable_stages, stage_totals
from psl_triage.data import count_classes
from psl_triage.judging import validation_horizon as horizon
from psl_triage.judging.evidence import decision_curve_sentence
from psl_triage.judging.horizon import horizon_span
from psl_triage.judging.validation import looks_like_training, positive_defaults, unit_checks
from psl_triage.model_file.metadata import ModelMetadata
from psl_triage.plots import decision_curve_figure
from psl_triage.words import md
from psl_triage.words import validate as words
from psl_triage.words.lists import COMPETING_EVENTS
from ui import csv_download, shown_errors
from ui.validate import chosen_column, chosen_values, recalibration, start_at_defaults


def horizon_validation(model, metadata: ModelMetadata, frame, matched, maps, site_name: str, site_bytes: bytes) -> None:
    """Sections 2 (time and event) to 4 of the Validate page for a horizon list (``site_bytes``:
    the uploaded file, to know a new table from the last one)."""
    when = horizon_span(model, metadata)
    st.markdown(words.horizon_intro(when))
    site = _follow_up_site(model, metadata, frame, matched, maps, site_bytes)

    st.header(words.REPORT_HEADER)
    stage = _horizon_report(model, metadata, site, when)

    st.header(words.RECALIBRATE_HEADER)
    st.caption(words.HORIZON_RECALIBRATE)
    part, weight = horizon.recalibration_part(site)
    recalibration(model, metadata, part, site_name, stage, recalibratable_stages(model, part.X, part.y), weight)


def _follow_up_site(model, metadata: ModelMetadata, frame, matched, maps, site_bytes: bytes):
    """Section 2: the site's time and event columns and event values chosen; the site's table
    at the horizon (the page stops when it cannot be read), with its notes and warnings."""
    columns = [str(c) for c in frame.columns]
    time_default, event_default, positive_default = horizon.follow_up_defaults(metadata, frame)
    start_at_defaults(model, site_bytes, {"validate_time": time_default, "validate_outcome": event_default,
                                          "validate_positive": positive_default if event_default else None})
    left, right = st.columns(2)
    time = chosen_column(words.TIME_LABEL, columns, time_default, "validate_time", words.CHOOSE_TIME, words.CHOOSE_TIME,
                         left)
    event = chosen_column(words.EVENT_COLUMN, columns, event_default, "validate_outcome", words.CHOOSE_EVENT,
                          words.CHOOSE_EVENT, right)
    values = [value for value, _ in count_classes(frame[event])]
    positive = chosen_values(words.event_values_label(event), values, positive_defaults(metadata, frame[event]))
    site = None
    with shown_errors(words.READING_FOLLOW_UP):
        site = horizon.horizon_site(model, metadata, frame, matched, time, event, positive, maps)
    if site is None:
        st.stop()
    for note in site.table.notes:
        st.caption(md(note))
    if same := looks_like_training(metadata, site.table):
        st.warning(same, icon=":material/warning:")
    for warning in unit_checks(metadata, site.table):
        st.warning(md(warning))
    return site


def _horizon_report(model, metadata: ModelMetadata, site, when) -> int:
    """Section 3: the list judged at the horizon at a chosen stage (the page stops when it cannot
    be); that stage."""
    answered = stage_totals(model, site.table.X)[1].sum(axis=0)
    usable = [k for k in range(model.n_stages_) if answered[k] > 0]
    recommended = getattr(model, "recommended_stages_", None)
    start = usable[-1] if recommended is None or recommended not in usable else recommended
    stage = st.selectbox(words.STAGE_LABEL, usable, index=usable.index(start),
                         format_func=lambda k: words.stage_option(k, int(answered[k])), key="validate_stage")
    report = None
    with shown_errors(words.JUDGING_AT_HORIZON):
        report = horizon.horizon_report(model, site, stage, decision_threshold(metadata.cost_ratio))
    if report is None:
        st.stop()
    for sentence in words.horizon_sentences(report, when, COMPETING_EVENTS):
        st.markdown(f"- {sentence}")
    st.table(words.horizon_measures_table(report))
    left, right = st.columns(2)
    config = {"predicted": st.column_config.NumberColumn(format="%.3f"),
              "observed": st.column_config.NumberColumn(format="%.3f")}
    left.dataframe(report.totals.rename(columns={"group": words.HORIZON_TOTAL}), hide_index=True, column_config=config,
                   key="validate_horizon_totals")
    right.dataframe(report.deciles.rename(columns={"group": words.HORIZON_TENTH}), hide_index=True,
                    column_config=config, key="validate_horizon_deciles")
    csv_download(report.totals, "risk-at-horizon-by-total", "validate_download_horizon_totals")
    with st.expander(words.EVERY_STAGE):
        stages = horizon.horizon_stages(model, site)
        st.dataframe(stages, key="validate_horizon_stages")
        csv_download(stages.reset_index(), "validation-at-horizon-by-stage", "validate_download_horizon_stages")
    figure, _ = decision_curve_figure(report.curves, report.threshold, metadata.cost_ratio, words.HORIZON_CURVES_TITLE)
    st.plotly_chart(figure, key="validate_horizon_curve")
    if sentence := decision_curve_sentence(report.curves, report.threshold, metadata.cost_ratio):
        st.markdown(sentence)  # the verdict every page with decision curves says, from the same numbers
    return stage
