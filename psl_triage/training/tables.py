"""A fitted list laid out for a reader: the list as the paper's Table 1 (:func:`list_table`)
and the stagewise measures recorded in its metadata (:func:`performance_long`,
:func:`performance_table`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from psl_core.recommend import base_rate_stages
from psl_triage.bedside.questions import condition, missing_note
from psl_triage.model_file.metadata import ModelMetadata
from psl_triage.words import train as words
from psl_triage.words.common import cost_text, percent
from psl_triage.words.train import MEASURES

DEFAULT_CONFIDENCE = 0.95

def readable_columns(metadata):
    """The ``"columns"`` entry of model metadata, keeping only well-formed entries.

    A loaded file's metadata is free JSON; a malformed entry only costs its readable name.
    """
    return ModelMetadata.coerce(metadata).readable_columns()


def total_label(total):
    """Column name of a total: "-3", "0", "+2"."""
    return f"{total:+d}" if total else "0"


def list_table(model, columns=None, intervals=False, confidence=DEFAULT_CONFIDENCE):
    """The list laid out as the paper's Table 1.

    One row per stage 0..K: the stage, the feature's condition in words, its points, and
    per total T (one column per total reachable at some stage, named by
    :func:`total_label`) the probability q(k, T) as a percentage, empty where T is not
    reachable at stage k.

    Parameters
    ----------
    model : fitted ProbabilisticScoringList
    columns : dict or None
        Readable names per column (see :func:`readable_columns`).
    intervals : bool
        Add the confidence interval of the stage to each cell: "34% (21–49%)".
    confidence : float

    Returns
    -------
    pandas.DataFrame with columns "Stage", "Feature", "Points", for a list with question
    costs "Cost" (of asking the stage's question, :mod:`psl_core.costs`), for a list with a
    recommended length "Brier score (cross-validated)" and "Recommended stop" (★ on the recommended
    stage), for a list with stages whose risks are pulled all the way to the base rate
    (:func:`psl_core.recommend.base_rate_stages`) a column that marks them, and one per total.
    """
    all_totals = np.unique(np.concatenate(model.stage_totals_)).tolist()
    costs, held = model.stage_costs_, base_rate_stages(getattr(model, "shrinkage_", None))
    rows = []
    for k in range(model.n_stages_):
        row = {
            words.STAGE_COLUMN: k,
            words.FEATURE_COLUMN: stage_condition(model, k, columns) if k else words.PRIOR_ROW,
            words.POINTS_COLUMN: f"{model.scores_[k - 1]:+d}" if k else "",
        }
        if costs.any():
            row[words.COST_COLUMN] = cost_text(costs[k - 1]) if k else ""
        if model.recommended_stages_ is not None:
            held_out = model.validation_brier_[k]
            row[words.CV_BRIER_COLUMN] = f"{held_out:.3f}" if np.isfinite(held_out) else words.NOT_REACHED
            row[words.RECOMMENDED_COLUMN] = "★" if k == model.recommended_stages_ else ""
        if held:
            row[words.BASE_RATE_COLUMN] = words.HELD_AT_BASE_RATE if k in held else ""
        totals, lower, point, upper = model.stage_interval(k, confidence)
        cells = {}
        for t, lo, p, hi in zip(totals.tolist(), lower, point, upper):
            cell = percent(p, 0)
            if intervals:
                cell += f" ({percent(lo, 0).removesuffix('%')}–{percent(hi, 0)})"
            cells[t] = cell
        row.update({total_label(t): cells.get(t, "") for t in all_totals})
        rows.append(row)
    return pd.DataFrame(rows)


def stage_condition(model, stage, columns=None):
    """A stage's condition with where a missing answer goes, for the list's table and the
    card: "Cholesterol > 240 (missing: counts as no)"."""
    literal = model.literals_[stage - 1]
    note = missing_note(literal)
    return condition(literal, (columns or {}).get(str(literal.column))) + (f" ({note})" if note else "")


def performance_long(metadata):
    """Stagewise measures recorded in model metadata, one row per (data, stage, measure).

    Returns
    -------
    pandas.DataFrame with columns "data" ("train" or "test"), "stage", "measure" (the
    readable name from :data:`MEASURES`) and "value"; empty when nothing was recorded.
    """
    performance = ModelMetadata.coerce(metadata).performance
    rows = []
    if isinstance(performance, dict):
        for data in ("train", "test"):
            part = performance.get(data)
            if not isinstance(part, dict):
                continue
            for key, measure in MEASURES.items():
                values = part.get(key)
                if isinstance(values, list):
                    rows.extend(
                        {"data": data, "stage": stage, "measure": measure, "value": float(value)}
                        for stage, value in enumerate(values)
                        if isinstance(value, (int, float)) and not isinstance(value, bool)
                    )
    return pd.DataFrame(rows, columns=["data", "stage", "measure", "value"])


def performance_table(long):
    """:func:`performance_long` as one row per stage, a column per measure and data.

    Columns are named like "Brier score (test)", measures in the order of :data:`MEASURES`,
    train before test.
    """
    if long.empty:
        return pd.DataFrame({words.STAGE_COLUMN: []})
    wide = long.pivot_table(index="stage", columns=["measure", "data"], values="value", sort=False)
    order = [
        (measure, data)
        for measure in MEASURES.values()
        for data in ("train", "test")
        if (measure, data) in wide.columns
    ]
    wide = wide[order]
    wide.columns = [words.MEASURE_ON.format(measure=measure, data=data) for measure, data in order]
    return wide.rename_axis(words.STAGE_COLUMN).reset_index()
