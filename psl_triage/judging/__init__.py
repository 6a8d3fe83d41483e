"""Judging a list: the evidence a researcher reports, validation at another site (yes/no and
horizon), monitoring in service, the printed card and the model report.

:mod:`.evidence` (what a researcher reports: calibration, decision curves, subgroups, sample
size), :mod:`.validation` and :mod:`.validation_horizon` (a list on another site's table),
:mod:`.horizon` (a horizon list on its held-out rows), :mod:`.monitoring` (a list in service
watched over dated patients: per period, a risk-adjusted CUSUM, the closed test of updates),
:mod:`.card` (the card and the report).
"""
