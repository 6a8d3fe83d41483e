"""The model file: its typed metadata, the store of saved lists and everything written from them.

Below every task group but :mod:`psl_triage.words`: the data, training, bedside and judging
groups read and write lists only through this package.
"""
