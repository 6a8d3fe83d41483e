"""The evidence sections the Evaluation and Validate pages share: decision curves, the
calibration hierarchy with the flexible curve, and subgroups (Streamlit layout only; the
numbers come from :mod:`psl_triage.judging.evidence`, the words from :mod:`psl_triage.words.evidence`,
the figures from :mod:`psl_triage.plots`).

Every figure's camera button saves it as SVG (``FIGURE_CONFIG``); every table has a CSV
download. Results are kept in ``st.session_state[<prefix>_evidence]`` per list, data and
choice, so a rerun for another widget does not redo a bootstrap.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

from psl_core.calibration_measures import flexible_calibration, observed_expected
from psl_core.cost_ratio import decision_threshold
from psl_core.decision_curve import DEFAULT_THRESHOLD_RANGE
from psl_core.subgroups import subgroup_measures
from psl_core.validation import stage_totals
from psl_triage.judging.evidence import (
    NUMERIC_BANDS,
    decision_curve_sentence,
    development_adequacy,
    group_labels,
    hierarchy_of,
    site_bedside_point,
    site_decision_curves,
    subgroup_display,
    subgroup_sentences,
    too_many_groups,
    validation_adequacy,
)
from psl_triage.plots import (
    calibration_curve_table,
    decision_curve_figure,
    flexible_calibration_figure,
    total_points_table,
)
from psl_triage.words import evidence as words
from ui import csv_download, shown_errors

FIGURE_CONFIG = {"toImageButtonOptions": {"format": "svg", "scale": 1}}
"""The plotly camera button saves an SVG (vector: for papers); PNG with the browser's own save."""


def kept(prefix: str, sources: tuple, key, compute):
    """``compute()``, kept in the page's session slot for these source objects and key.

    ``sources`` are the objects the result is computed from (a list, a result, a report),
    compared by identity: an object's id alone could be reused by a newer one.
    """
    slot = st.session_state.setdefault(f"{prefix}_evidence", {})
    entry = slot.get(key)
    if entry is None or len(entry[0]) != len(sources) or any(a is not b for a, b in zip(entry[0], sources)):
        if len(slot) > 16:
            slot.clear()
        slot[key] = entry = (sources, compute())
    return entry[1]


def threshold_range(prefix: str) -> tuple[float, float]:
    low, high = st.slider(
        words.THRESHOLD_RANGE, 1, 99,
        (round(100 * DEFAULT_THRESHOLD_RANGE[0]), round(100 * DEFAULT_THRESHOLD_RANGE[1])),
        key=f"{prefix}_threshold_range",
        help=words.THRESHOLD_RANGE_HELP,
    )
    return low / 100, high / 100


def decision_curve_section(prefix: str, curves: pd.DataFrame, cost_ratio: float, **figure_options) -> None:
    """The decision-curve figure, its sentence and its CSV."""
    threshold = decision_threshold(cost_ratio)
    figure, table = decision_curve_figure(curves, threshold, cost_ratio, **figure_options)
    st.plotly_chart(figure, key=f"{prefix}_decision_curve", config=FIGURE_CONFIG)
    sentence = decision_curve_sentence(curves, threshold, cost_ratio)
    if sentence:
        st.markdown(sentence)
    st.caption(words.DECISION_CURVE_NOTE)
    csv_download(table, "decision-curves", f"{prefix}_download_decision_curves")


def calibration_section(prefix: str, hierarchy: pd.DataFrame, curve: pd.DataFrame, points=None,
                        band_words: str = "") -> None:
    """The hierarchy table and the flexible calibration curve with its band."""
    left, right = st.columns([2, 3])
    with left:
        st.dataframe(hierarchy.round(3), hide_index=True, key=f"{prefix}_hierarchy")
        csv_download(hierarchy, "calibration-hierarchy", f"{prefix}_download_hierarchy")
    with right:
        figure, table = flexible_calibration_figure(curve, points)
        st.plotly_chart(figure, key=f"{prefix}_calibration_curve", config=FIGURE_CONFIG)
        csv_download(table, "calibration-curve", f"{prefix}_download_calibration_curve")
    st.caption(words.calibration_note(band_words))


@dataclass(frozen=True)
class Patients:
    """The patients a subgroup table is computed on (see :func:`subgroup_section`)."""

    frame: pd.DataFrame  # the columns a group may come from, one row per patient
    y: np.ndarray
    p: np.ndarray
    sources: tuple  # the objects y and p come from, for kept()
    key: object  # what else sets them (a stage)
    where: str  # which patients, in words (for the report)
    note: str = ""  # shown above the table


def subgroup_section(prefix: str, columns, patients, cost_ratio: float, owner=None) -> pd.DataFrame | None:
    """Choose a column (bands of a numeric one), then every measure per group.

    Parameters
    ----------
    columns : list of str
        The columns a group may be chosen from.
    patients : callable
        ``patients()`` returns :class:`Patients`; called only once a column is chosen (it
        may fit a list).
    owner
        The list the groups judge: the last table shown is kept in
        ``st.session_state[<prefix>_subgroup_report]`` with it, for the Card page's report.

    Returns
    -------
    The subgroup table shown (None when no column is chosen).
    """
    column = st.selectbox(words.GROUP_COLUMN, [str(c) for c in columns], index=None,
                          placeholder=words.GROUP_COLUMN_PLACEHOLDER, key=f"{prefix}_subgroup_column")
    if column is None:
        st.caption(words.GROUP_COLUMN_HINT)
        return None
    chosen = patients()
    if chosen.note:
        st.caption(chosen.note)
    frame = chosen.frame
    values = frame[frame.columns[[str(c) for c in frame.columns].index(column)]]
    bands = NUMERIC_BANDS
    if values.dtype.kind in "biuf" and values.nunique() > NUMERIC_BANDS:
        bands = st.number_input(words.GROUP_BANDS, 2, 6, NUMERIC_BANDS, key=f"{prefix}_subgroup_bands")
    labels = group_labels(values, int(bands))
    crowded = too_many_groups(labels, column)
    if crowded:
        st.info(crowded)
        return None
    table = kept(prefix, chosen.sources, ("subgroups", chosen.key, column, int(bands)),
                 lambda: subgroup_measures(chosen.y, chosen.p, labels, decision_threshold(cost_ratio)))
    for sentence in subgroup_sentences(table, column):
        st.markdown(f"- {sentence}")
    with st.container(key=f"{prefix}_subgroups"):
        st.dataframe(subgroup_display(table), hide_index=True)
    st.caption(words.subgroup_note(decision_threshold(cost_ratio)))
    csv_download(table.reset_index(), "subgroups", f"{prefix}_download_subgroups")
    st.session_state[f"{prefix}_subgroup_report"] = (owner, chosen.where, column, table)
    return table



def site_evidence(prefix: str, model, table, frame: pd.DataFrame, report, cost_ratio: float,
                  site_name: str = words.OTHER_SITE, caveat: str | None = None) -> None:
    """Sample size, calibration hierarchy, decision curves and subgroups of a list on a
    site's table (the Validate page), for the rows and stage of ``report``
    (:func:`psl_core.validation.validation_report`). What it shows is kept in
    ``st.session_state[<prefix>_site_report]`` for the Card page's report, with ``caveat``
    (plain text: the page's warning that the table looks like the list's training data)."""
    sources = (model, report)
    where = words.site_patients(site_name, len(report.y), report.stage)
    site = {"owner": model, "where": where, "caveat": caveat}
    totals, known = stage_totals(model, table.X, report.stage)
    rows = known[:, report.stage]

    st.subheader(words.SAMPLE_SIZE)
    size, precision, sentence = kept(prefix, sources, "size", lambda: validation_adequacy(report.y, report.p))
    st.markdown(sentence)
    site["sample_size"] = (sentence, precision)
    if len(precision):
        with st.container(key=f"{prefix}_sample_size"):
            st.dataframe(precision.round(3), hide_index=True)
        csv_download(precision, "validation-sample-size", f"{prefix}_download_sample_size")

    st.subheader(words.CALIBRATION)
    if report.y.min() == report.y.max():
        st.info(words.CALIBRATION_NEEDS_BOTH)
    elif np.ptp(report.p) == 0:
        ratio, low, high = observed_expected(report.y, report.p)
        st.info(words.one_risk(report.p[0], ratio, low, high))
    else:
        flexible = kept(prefix, sources, "flexible", lambda: flexible_calibration(report.y, report.p))
        points = total_points_table(totals[rows, report.stage], report.y, report.p)
        site["calibration"] = hierarchy_of(report.y, report.p, flexible)
        calibration_section(
            prefix, site["calibration"], calibration_curve_table(flexible), points,
            band_words=words.SITE_BAND.format(n_boot=flexible.n_boot),
        )

    st.subheader(words.UTILITY)
    shown_range = threshold_range(prefix)
    curves = kept(prefix, sources, ("curves", cost_ratio, shown_range),
                  lambda: site_decision_curves(report.y, report.p, decision_threshold(cost_ratio), shown_range))
    bedside, n_bedside = kept(prefix, sources, ("bedside", cost_ratio),
                              lambda: site_bedside_point(model, table.X, table.y, cost_ratio))
    curves = pd.concat([curves, bedside], ignore_index=True) if len(bedside) else curves
    decision_curve_section(prefix, curves, cost_ratio, title=words.SITE_CURVES_TITLE)
    site["utility"] = decision_curve_sentence(curves, decision_threshold(cost_ratio), cost_ratio)
    st.session_state[f"{prefix}_site_report"] = site
    st.caption(words.site_utility_note(n_bedside))

    st.subheader(words.SUBGROUPS)
    subgroup_section(prefix, frame.columns, lambda: Patients(frame.loc[table.X.index[rows]], report.y, report.p,
                                                             sources, report.stage, where), cost_ratio, owner=model)


def sample_size_section(prefix: str, prepared, max_feature_uses: int) -> None:
    """Riley's sample size criteria for developing a list on ``prepared`` (psl_triage.judging.evidence),
    with an anticipated C-statistic the user may give (widget keys ``<prefix>_*``)."""
    with shown_errors(words.CHECKING_SAMPLE_SIZE):
        size, table, sentences = development_adequacy(prepared, int(max_feature_uses), st.session_state.get(
            f"{prefix}_anticipated_c"))
        *details, verdict = sentences
        if size.minimum <= len(prepared.y):
            st.caption(verdict)
        else:
            st.warning(verdict, icon=":material/warning:")
        with st.expander(words.DEVELOPMENT_SIZE):
            for sentence in details:
                st.markdown(sentence)
            st.dataframe(table, hide_index=True, key=f"{prefix}_sample_size")
            st.number_input(
                words.ANTICIPATED_C, 0.51, 0.99, None, step=0.01, key=f"{prefix}_anticipated_c",
                placeholder=words.ANTICIPATED_C_PLACEHOLDER, help=words.ANTICIPATED_C_HELP,
            )
            csv_download(table, "sample-size", f"{prefix}_download_sample_size")
