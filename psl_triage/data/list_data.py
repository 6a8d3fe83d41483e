"""Whether the loaded table is the one the current list was trained on.

Evaluation and Calibration judge the current list on the Data page's prepared data; a list
trained on another table (another outcome, with or without follow-up, other columns) cannot
be judged there. :func:`data_mismatch` says why, as a code; the words are
:func:`psl_triage.words.lists.not_this_table`. The Train page shows the list with its own
measures, which are the table's only when the rows are the very ones it learned from
(:func:`list_table_mismatch`, the data's fingerprint too).
"""

from __future__ import annotations

from psl_core.survival import is_horizon_list
from psl_triage.data import value_label
from psl_triage.model_file.metadata import ModelMetadata

REASONS = ("follow_up", "no_follow_up", "outcome", "columns", "data")


def data_mismatch(model, metadata, prepared) -> str | None:
    """Why ``prepared`` is not the table ``model`` was trained on, or None when it may be.

    Returns
    -------
    str or None
        ``"follow_up"``: the list predicts a risk within a horizon and the data have no
        follow-up time; ``"no_follow_up"``: a yes/no list and follow-up data; ``"outcome"``:
        the data's outcome column or positive class is not the list's (as its metadata
        records them); ``"columns"``: a column the list asks about is not in the data.
    """
    record = ModelMetadata.coerce(metadata).trained_on
    follow_up = getattr(prepared, "follow_up", None) is not None and getattr(prepared, "time", None) is not None
    if is_horizon_list(model):
        if not follow_up:
            return "follow_up"
    elif follow_up:
        return "no_follow_up"
    if record.outcome is not None and record.outcome != prepared.outcome:
        return "outcome"
    if record.positive_class and prepared.positive_class and (
            _classes(record.positive_class) != _classes(prepared.positive_class)):
        return "outcome"
    if any(column not in prepared.X.columns for column in model.features_):
        return "columns"
    return None


def list_table_mismatch(model, metadata, prepared) -> str | None:
    """Why the list's own measures are not those of ``prepared``, or None when they are: a code
    of :func:`data_mismatch`, or ``"data"`` when the list records the fingerprint of the rows
    it learned from (:attr:`psl_triage.data.PreparedData.fingerprint`) and these rows have
    another (the same columns, other patients or values). A list without a fingerprint (saved
    before lists recorded one) is judged by its columns and outcome alone."""
    reason = data_mismatch(model, metadata, prepared)
    recorded = ModelMetadata.coerce(metadata).trained_on.fingerprint
    if reason is None and recorded is not None and recorded != prepared.fingerprint:
        return "data"
    return reason


def _classes(values) -> set:
    """Raw outcome values as compared: by their canonical text (:func:`psl_triage.data.value_label`),
    the data package's one rule, so 1, 1.0, True and "1" are one class whichever way the table
    or the model file's JSON wrote it, as when the Data page reads a table."""
    return {value_label(value) for value in values}
