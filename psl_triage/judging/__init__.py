"""Judging a list: the evidence a researcher reports, validation at another site (yes/no and
horizon), monitoring in service, the printed card and the model report."""
