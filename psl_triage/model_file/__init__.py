"""The model file: its typed metadata, the store of saved lists and everything written from them.

:mod:`.metadata` (:class:`ModelMetadata`, a file's metadata typed), :mod:`.writer` (the
metadata a training run fills in), :mod:`.store` (the model folder and its cached loader),
:mod:`.files` (file names, an uploaded file read into a validated list), :mod:`.answers`,
:mod:`.meaning` and :mod:`.csv_export` (what a list's questions mean, written out).

Below every task group but :mod:`psl_triage.words`: the data, training, bedside and judging
groups read and write lists only through this package.
"""
