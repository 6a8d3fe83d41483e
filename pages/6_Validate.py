"""Validate: a list on another site's table, and recalibration there.

The page reads widgets, calls :mod:`psl_triage.validation` and :mod:`psl_core.validation`,
and renders: choose the list (the Train page's or any saved one; the page names it), upload
a second labelled table (kept when the user opens another page), match the columns the list asks about (by
name; the user maps the rest), choose the outcome and its positive values, read the report
(calibration-in-the-large, calibration slope, Brier score and AUC with bootstrap intervals,
the reliability plot, every stage's figures) and, if asked, recalibrate the list at this
site and save it as a new version in the model store.

Session state read: ``"trained_model"`` and ``"trained_metadata"`` (Train). Written: the
widget keys ``"validate_model_choice"`` (with ``"validate_seen_trained"``, ui.list_picker),
``"validate_upload"``, ``"validate_table"`` (the upload's name and bytes, ui.kept_upload), ``"validate_map_<column>"``, ``"validate_value_<column>_<i>"``, ``"validate_bands_<column>"`` and
``"validate_rest_missing_<column>"`` (a column coded otherwise than in the list: what each
value here means in the list's coding, or numbers sorted into the list's bands), ``"validate_outcome"``,
``"validate_positive"``, ``"validate_stage"``, ``"validate_keep"``, ``"validate_name"``,
``"validate_recalibrate"``, ``"validate_use"``, ``"validate_download_*"``; the evidence
sections (evidence_ui.site_evidence): ``"validate_threshold_range"``,
``"validate_subgroup_column"``, ``"validate_subgroup_bands"``, ``"validate_evidence"``,
``"validate_subgroup_report"`` and ``"validate_site_report"`` (for the Card page's report);
``"validate_saved"`` (dict: the list it came from, the recalibrated list, its metadata, the
saved file's message);
and, when the user chooses to use the recalibrated list, ``"trained_model"``,
``"trained_metadata"`` and ``"train_origin"`` (Train's contract).
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from evidence_ui import site_evidence
from psl_core.validation import (
    MIN_RECALIBRATION_ROWS,
    recalibratable_stages,
    stagewise_validation,
    validation_report,
)
from psl_triage.data import count_classes, load_table
from psl_triage.follow_up import horizon_page_note
from psl_triage.modelcard import list_identity
from psl_triage.plots import reliability_figure
from psl_triage.training import default_model_name
from psl_triage.validation import (
    MISSING,
    NOT_AVAILABLE,
    band_map,
    coding_mismatches,
    looks_like_training,
    match_columns,
    measures_table,
    needed_columns,
    outcome_defaults,
    positive_defaults,
    report_sentences,
    save_recalibrated,
    site_table,
    slope_words,
    unit_checks,
)
from psl_triage.words import label_md, md
from ui import csv_download, kept_upload, list_picker, shown_errors, table_uploader

ss = st.session_state
MAX_MAPPED_VALUES = 40  # a column with more values at the site is recoded before upload


@st.cache_data(show_spinner=False, max_entries=4)
def read_upload(data: bytes, name: str, limit_mb: int):
    return load_table(data, name, max_bytes=limit_mb * 1024 * 1024)


def judged(model, table, stage):
    """validation_report of this list, table and stage, kept until one of them changes: its
    bootstrap takes seconds on a large table, and the page reruns on every widget change."""
    key = (stage, int(pd.util.hash_pandas_object(table.X).sum()), hash(table.y.tobytes()))
    kept = ss.get("validate_report")
    if kept is None or kept[0] is not model or kept[1] != key:
        ss.validate_report = (model, key, validation_report(model, table.X, table.y, stage))
    return ss.validate_report[2]


st.set_page_config(page_title="Validate · PSL Triage", page_icon="🩺", layout="wide")
st.title("Validate at another site")
st.markdown(
    "A list learned at one hospital may not fit another: a different case mix, other habits of "
    "measuring. Upload a labelled table from the other site to see how a list does "
    "there, and, if its risks are off, re-estimate them from that table: the questions and "
    "points stay, the probabilities become the new site's."
)

model, metadata, _, _ = list_picker(
    "validate",
    "There is no list to validate yet. Train one (or load a model file) on the **Train** page, "
    "or save one there; every saved list can be chosen here.",
    "List to validate",
)
st.markdown(f"Validating {list_identity(metadata)}")
if (note := horizon_page_note(model, "Validate")) is not None:
    st.info(note)
    st.stop()

st.header("1. The other site's table")
uploaded, limit_mb = table_uploader(
    " with the same questions and the outcome, one row per patient", "validate_upload"
)
site = kept_upload(uploaded, "validate_table")
if site is None:
    st.info("Upload a table to validate the list on.")
    st.stop()
site_name, site_bytes = site
if uploaded is None:
    st.caption(f"Using {md(site_name)}, uploaded earlier in this session; upload another table to replace it.")
loaded = None
with shown_errors("reading the table"):
    loaded = read_upload(site_bytes, site_name, limit_mb)
if loaded is None:
    st.stop()
frame = loaded.frame
st.caption(f"{md(site_name)}: {len(frame)} rows, {len(frame.columns)} columns.")
for note in loaded.notes:
    st.caption(md(note))

st.header("2. Match the columns")
needed = needed_columns(model, metadata)
matched = match_columns(needed, frame.columns)
choices = [NOT_AVAILABLE] + [str(c) for c in frame.columns]
unmatched = [need for need in needed if matched[need.name] is NOT_AVAILABLE]
if unmatched:
    st.markdown(
        "These columns of the list have no column of the same name here. Choose the column that "
        "holds each, or *not recorded at this site* (its answers then count as missing)."
    )
    for need in unmatched:
        matched[need.name] = st.selectbox(
            f"{label_md(need.label)} (column {label_md(repr(need.name))} at training; question {need.first_stage})",
            choices,
            format_func=lambda c: "not recorded at this site" if c is NOT_AVAILABLE else c,
            key=f"validate_map_{need.name}",
        )
else:
    st.success(f"All {len(needed)} columns the list asks about were found by name.")

value_maps = {}
mismatches = coding_mismatches(model, metadata, frame, matched)
for mismatch in mismatches:
    name = mismatch.need.name
    with st.container(border=True, key=f"validate_coding_{name}"):
        verdict = st.empty()
        value_map, shown_values = {}, mismatch.site_values[:MAX_MAPPED_VALUES]
        bands = band_map(mismatch)
        if bands is not None and st.checkbox(
            f"Sort the numbers here into the list's bands "
            f"({', '.join(label_md(mismatch.training_labels.get(v, v)) for v in mismatch.training_values)})",
            key=f"validate_bands_{name}",
        ):
            value_map, shown_values = dict(bands), []
        columns = st.columns(min(len(shown_values), 4) or 1)
        for index, value in enumerate(shown_values):
            label = f"{label_md(value)} here is"
            with columns[index % len(columns)]:
                if mismatch.need.kind == "numeric":
                    number = st.number_input(label, value=None, key=f"validate_value_{name}_{index}",
                                             placeholder="a number")
                    if number is not None:
                        value_map[value] = float(number)
                else:
                    options = mismatch.training_values
                    chosen = st.selectbox(
                        label, options, index=options.index(value) if value in options else None,
                        format_func=lambda v, labels=mismatch.training_labels: v if labels.get(v, v) == v else f"{v} ({labels[v]})",
                        placeholder="choose the list's value", key=f"validate_value_{name}_{index}",
                    )
                    if chosen is not None:
                        value_map[value] = chosen
        if st.checkbox("Count the values left without a mapping as missing", key=f"validate_rest_missing_{name}"):
            value_map.update({value: MISSING for value in mismatch.site_values if value not in value_map})
        value_maps[name] = value_map
        left = coding_mismatches(model, metadata, frame, {name: matched[name]}, {name: value_map})
        if left:
            verdict.error(left[0].message(metadata), icon=":material/error:")
        else:
            verdict.success(f"The values of {md(mismatch.source)} are mapped to the list's coding.")
if any(coding_mismatches(model, metadata, frame, matched, value_maps)):
    st.stop()
outcome_default, _ = outcome_defaults(metadata, frame)
outcome = st.selectbox(
    "Outcome column",
    [str(c) for c in frame.columns],
    index=None if outcome_default is None else [str(c) for c in frame.columns].index(outcome_default),
    placeholder="Choose the column holding the outcome",
    key="validate_outcome",
)
if outcome is None:
    st.info("Choose the outcome column.")
    st.stop()
values = [value for value, _ in count_classes(frame[outcome])]
defaults = [v for v in positive_defaults(metadata, frame[outcome]) if v in values]
positive = st.multiselect(
    f"Values of {label_md(outcome)} that count as positive "
    f"({label_md(metadata.positive_label)})",
    values,
    default=defaults,
    key="validate_positive",
)

table = None
with shown_errors("coding the table"):
    table = site_table(model, metadata, frame, matched, outcome, positive, value_maps)
if table is None:
    st.stop()
for note in table.notes:
    st.caption(md(note))
same = looks_like_training(metadata, table)
if same:
    st.warning(same, icon=":material/warning:")
for warning in unit_checks(metadata, table):
    st.warning(md(warning))

st.header("3. How the list does here")
stages = stagewise_validation(model, table.X, table.y)
usable = [int(k) for k in stages.index if stages.loc[k, "n_rows"] > 0]
supported = recalibratable_stages(model, table.X, table.y)
recommended = getattr(model, "recommended_stages_", None)
start = max(supported, 0) if recommended is None else min(recommended, max(supported, 0))
stage = st.selectbox(
    "Judge the list after this many questions",
    usable,
    index=usable.index(start) if start in usable else 0,
    format_func=lambda k: f"{k} ({int(stages.loc[k, 'n_rows'])} patients with every answer known)",
    key="validate_stage",
)
report = None
with shown_errors("judging the list"):
    report = judged(model, table, stage)
if report is None:
    st.stop()
for sentence in report_sentences(report):
    st.markdown(f"- {sentence}")
st.table(measures_table(report))
st.caption(
    f"Intervals: {report.n_boot} bootstrap resamples of the patients (seed 0). Calibration-in-the-large "
    "is the intercept of a logistic fit with the list's log-odds as offset (0 is perfect; above 0 the "
    "list predicts too low); the slope is that of the list's log-odds (1 is perfect)."
)
figure, reliability = reliability_figure(report.y, report.p)
st.plotly_chart(figure, key="validate_reliability")
csv_download(reliability, "reliability-at-new-site", "validate_download_reliability")
with st.expander("Every stage"):
    st.dataframe(stages, key="validate_stages")
    csv_download(stages.reset_index(), "validation-by-stage", "validate_download_stages")
with shown_errors("judging the evidence at this site"):
    site_evidence("validate", model, table, frame, report, metadata.cost_ratio, site_name)

st.header("4. Recalibrate at this site")
st.markdown(
    "Keeps the questions, their order and their points, and re-estimates every stage's "
    "probabilities and intervals from this table (each stage from the patients who answer its "
    "questions), with the list's own calibration. The original file is not changed: the result "
    "is saved as a new version with its origin recorded."
)
if supported < 0:
    st.info(
        f"This table cannot recalibrate even the first stage: it needs {MIN_RECALIBRATION_ROWS} "
        "patients with both outcomes among them."
    )
else:
    if supported < len(model.literals_):
        st.caption(
            ("No question has" if supported == 0 else "Only the first question has" if supported == 1 else
             f"Only the first {supported} questions have")
            + f" at least {MIN_RECALIBRATION_ROWS} patients with every answer known and both outcomes here; "
            "a recalibrated list keeps at most that many."
        )
    keep = st.number_input(
        "Questions to keep", min_value=0, max_value=supported, value=supported, step=1, key="validate_keep",
    )
    name = st.text_input("Model name", value=default_model_name(metadata), key="validate_name")
    if st.button("Recalibrate at this site and save as a new version", key="validate_recalibrate", type="primary"):
        with shown_errors("recalibrating the list"):
            new, new_metadata, stored = save_recalibrated(
                model, metadata, table, site_name, int(keep), name,
            )
            after = stagewise_validation(new, table.X, table.y).loc[min(stage, int(keep))]
            ss.validate_saved = {
                "from": model, "model": new, "metadata": new_metadata, "after": after,
                "message": f"Saved as {stored.path.name} (version {stored.version}) in {stored.path.parent}.",
            }
    saved = ss.get("validate_saved")
    if saved and saved.get("from") is model:
        st.success(md(saved["message"]))
        after = saved["after"]
        st.markdown(
            f"On this same table (so optimistic: the probabilities were fitted to it), after "
            f"{after.name} question{'' if after.name == 1 else 's'} the recalibrated list has calibration-in-the-large "
            f"{after['citl']:.2f} and {slope_words(after['slope'])}. "
            "Judge it on other patients of this site."
        )
        st.download_button(
            "Download the recalibrated model file (JSON)",
            data=saved["model"].to_json(saved["metadata"]),
            file_name=saved["message"].split(" ")[2],
            mime="application/json",
            on_click="ignore",
            key="validate_download_model",
        )
        if st.button("Use the recalibrated list in this session", key="validate_use"):
            ss.trained_model, ss.trained_metadata = saved["model"], saved["metadata"]
            ss.train_origin = f"Recalibrated at another site ({site_name}); {saved['message']}"
            ss.validate_saved = None
            st.rerun()
