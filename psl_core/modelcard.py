"""The description saved with a model: training population, columns, performance.

It fills the ``metadata`` entry of a model file, from which the triage page phrases its
questions and a reader learns where the list comes from (a model card).
"""

from .metrics import stagewise_metrics


def columns_metadata(columns):
    """JSON-ready readable names of columns.

    Parameters
    ----------
    columns : dict of str to ColumnInfo-like
        Objects with ``label``, ``unit``, ``kind`` and ``category_labels`` attributes
        (see :class:`psl_core.data.ColumnInfo`).

    Returns
    -------
    dict of str to dict
        ``{column: {"label", "unit", "kind", "category_labels"}}``.
    """
    return {
        str(name): {
            "label": info.label,
            "unit": info.unit,
            "kind": info.kind,
            "category_labels": {str(k): str(v) for k, v in info.category_labels.items()},
        }
        for name, info in columns.items()
    }


def model_metadata(prepared, data_name, train=None, test=None, cost_ratio=10.0, extra=None):
    """Metadata of a list trained on prepared data.

    Parameters
    ----------
    prepared : psl_core.data.PreparedData
    data_name : str
    train, test : tuple (model, X, y) or None
        When given, stagewise measures on the training and test rows are recorded.
    cost_ratio : float
    extra : dict or None
        Further JSON-ready entries (training options, recommended stages, ...).

    Returns
    -------
    dict
    """
    meta = {
        "dataset": {
            "name": data_name,
            "n_rows": int(prepared.n_rows_after),
            "n_rows_source": int(prepared.n_rows_before),
            "n_positive": prepared.n_positive,
            "n_negative": prepared.n_negative,
            "outcome": str(prepared.outcome),
            "outcome_label": prepared.outcome_label,
            "positive_label": prepared.positive_label,
            "negative_label": prepared.negative_label,
            "notes": list(prepared.notes),
        },
        "columns": columns_metadata(prepared.columns),
    }
    for key, part in (("train", train), ("test", test)):
        if part is not None:
            table = stagewise_metrics(*part, cost_ratio=cost_ratio)
            meta.setdefault("performance", {})[key] = {
                column: [float(v) for v in table[column]] for column in table.columns
            }
    meta.update(extra or {})
    return meta
