"""The description saved with a model: training population, columns, performance, decision.

It fills the ``metadata`` entry of a model file, from which the triage page phrases its
questions and a reader learns where the list comes from (a model card). The ``"decision"``
entry holds the trade-off the list is meant to be used with: ``{"cost_ratio": M}``, the cost
of a missed case relative to a false alarm (decision threshold 1/(1+M)); the pages start
with it. Files saved before lists carried their M have no such entry and are used with
:data:`~psl_core.cost_ratio.DEFAULT_COST_RATIO` (see :mod:`psl_core.cost_ratio`).
"""

import dataclasses

import numpy as np

from psl_core.binarization import BINARY, NUMERIC
from psl_core.cost_ratio import DEFAULT_COST_RATIO, check_cost_ratio
from psl_core.metrics import stagewise_metrics
from psl_triage.model_file.metadata import ModelMetadata
from psl_triage.words import lists as words

RANGE_QUANTILES = {"min": 0.0, "q05": 0.05, "q25": 0.25, "median": 0.5, "q75": 0.75, "q95": 0.95, "max": 1.0}
"""Quantiles of a numeric column recorded at training (``"training_range"``): another
site's table is checked against them for a change of unit (:mod:`psl_triage.judging.validation`)."""


def columns_metadata(columns, X=None):
    """JSON-ready readable names of columns, and what the training values looked like.

    Parameters
    ----------
    columns : dict of str to ColumnInfo-like
        Objects with ``label``, ``unit``, ``kind`` and ``category_labels`` attributes
        (see :class:`psl_triage.data.ColumnInfo`), and optionally ``one_value``.
    X : pandas.DataFrame or None
        The training columns. When given, a numeric column also records
        ``"training_range"``: its :data:`RANGE_QUANTILES` and the number of values.

    Returns
    -------
    dict of str to dict
        ``{column: {"label", "unit", "kind", "category_labels"[, "levels"][, "one_value"][,
        "training_range"]}}``; ``"levels"`` an ordered column's categories in order,
        ``"one_value"`` the raw value a binary column maps to 1.
    """
    described = {}
    for name, info in columns.items():
        entry = {
            "label": info.label,
            "unit": info.unit,
            "kind": info.kind,
            "category_labels": {str(k): str(v) for k, v in info.category_labels.items()},
        }
        if getattr(info, "levels", None):
            entry["levels"] = [str(level) for level in info.levels]
        one = getattr(info, "one_value", None)
        if info.kind == BINARY and isinstance(one, (bool, int, float, str)):
            entry["one_value"] = one
        if X is not None and info.kind == NUMERIC and name in X.columns:
            values = X[name].to_numpy(dtype=float)
            values = values[np.isfinite(values)]
            if len(values):
                quantiles = np.quantile(values, list(RANGE_QUANTILES.values()))
                entry["training_range"] = dict(
                    zip(RANGE_QUANTILES, (float(q) for q in quantiles)), n=int(len(values)),
                )
        described[str(name)] = entry
    return described


def model_metadata(prepared, data_name, train=None, test=None, cost_ratio=DEFAULT_COST_RATIO, **entries) -> ModelMetadata:
    """Metadata of a list trained on prepared data.

    Parameters
    ----------
    prepared : psl_triage.data.PreparedData
    data_name : str
    train, test : tuple (model, X, y) or (model, X, y, sample_weight), or None
        When given, stagewise measures on the training and test rows are recorded (with
        the censoring weights of a time-to-event list, the measures at its horizon).
    cost_ratio : float > 0
        M, the cost of a missed case relative to a false alarm: saved as
        ``"decision": {"cost_ratio": M}`` and used for the recorded expected loss.
    **entries
        Further typed entries, by their :class:`ModelMetadata` field names (``source``,
        ``training_options``, ``column_roles``, ``follow_up``...); a None leaves one out.

    Returns
    -------
    ModelMetadata
        Written once more only as the model file's JSON (:meth:`ModelMetadata.to_dict`).
    """
    cost_ratio = check_cost_ratio(cost_ratio)
    meta = {
        "dataset": {
            "name": data_name,
            "n_rows": int(prepared.n_rows_after),
            "n_rows_source": int(prepared.n_rows_before),
            "n_positive": prepared.n_positive,
            "n_negative": prepared.n_negative,
            **({"n_censored": prepared.n_censored} if prepared.horizon_counts is not None else {}),
            "outcome": str(prepared.outcome),
            "outcome_label": prepared.outcome_label,
            "positive_label": prepared.positive_label,
            "negative_label": prepared.negative_label,
            "positive_class": [v for v in prepared.positive_class if isinstance(v, (bool, int, float, str))],
            "notes": list(prepared.notes),
            "fingerprint": prepared.fingerprint,
        },
        "columns": columns_metadata(prepared.columns, prepared.X),
        "decision": {"cost_ratio": cost_ratio},
    }
    for key, part in (("train", train), ("test", test)):
        if part is not None:
            model, X, y, *weight = part  # a time-to-event list's rows carry censoring weights
            table = stagewise_metrics(model, X, y, cost_ratio=cost_ratio, sample_weight=weight[0] if weight else None)
            meta.setdefault("performance", {})[key] = {
                column: [float(v) for v in table[column]] for column in table.columns
            }
    return dataclasses.replace(ModelMetadata.from_dict(meta), **entries)


def training_rows_text(metadata):
    """How many patients the list learned from, in words (plain text), or None when unknown.

    "198 of its 297 patients (99 held out to test the list)" when rows were held out
    (``training_options``), else "297 patients".
    """
    metadata = ModelMetadata.coerce(metadata)
    options = metadata.training_options or {}
    n_rows = metadata.trained_on.n_rows
    n_train, n_test = (whole_number(options.get(key)) for key in ("n_train", "n_test"))
    return words.training_rows(n_train, n_test, n_rows)


def whole_number(value):
    """``value`` when it is a whole number from a file (an int, not a bool), else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def list_identity(metadata):
    """Which list this is, in one Markdown sentence: name, version, what it was trained on
    and, for a recalibrated list, where (names from the file escaped).

    For example "**Heart** (version 2, saved 2026-01-02 10:00), trained on heart.csv,
    198 of its 297 patients (99 held out to test the list); recalibrated at site-b.csv
    (412 patients)."
    """
    metadata = ModelMetadata.coerce(metadata)
    origin = metadata.origin or {}
    table = origin.get("table") if isinstance(origin.get("table"), dict) else {}
    recalibrated_at = table["name"] if isinstance(table.get("name"), str) and table["name"] else None
    return words.list_identity(
        metadata.name, metadata.version if metadata.is_saved else None, metadata.created or "",
        metadata.trained_on.name, training_rows_text(metadata) if metadata.trained_on.name else None,
        recalibrated_at, whole_number(table.get("n_rows")),
    )
