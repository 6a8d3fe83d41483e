"""A horizon list's horizon has one home, the list's own parameter, read through one accessor
(:func:`psl_triage.model_file.metadata.list_horizon`); files that also copied it into their
metadata's follow-up still load and read the same."""

from __future__ import annotations

import re

from psl_core.model import ProbabilisticScoringList
from psl_triage.model_file.metadata import FollowUpRecord, ListHorizon, ModelMetadata, list_horizon
from tests.paths import ROOT

OLD_FOLLOW_UP = {"time": "rfstime", "horizon": 1000, "unit": "days", "uncensored_at_horizon": 0.8}
"""A follow-up entry as files saved before this record dropped the horizon hold it."""


def test_the_horizon_comes_from_the_list_and_the_rest_from_its_metadata():
    model = ProbabilisticScoringList(horizon=1000.0)
    metadata = {"follow_up": {"time": "rfstime", "unit": "days", "uncensored_at_horizon": 0.8}}
    assert list_horizon(model, metadata) == ListHorizon(1000.0, "days", "rfstime", 0.8)
    model.metadata_ = metadata  # a loaded list carries its own metadata
    assert list_horizon(model) == ListHorizon(1000.0, "days", "rfstime", 0.8)
    assert list_horizon(model, ModelMetadata()) == ListHorizon(1000.0)  # a file without follow-up
    assert list_horizon(ProbabilisticScoringList(), metadata) is None  # a yes/no list


def test_an_old_file_with_the_horizon_copied_loads_and_keeps_it():
    old = {"dataset": {"positive_label": "recurrence", "negative_label": "no recurrence"}, "follow_up": OLD_FOLLOW_UP}
    typed = ModelMetadata.from_dict(old)
    assert typed.to_dict() == old  # the file's entry written back as it was
    assert typed.follow_up == FollowUpRecord(time="rfstime", saved_horizon=1000.0, unit="days", uncensored_at_horizon=0.8)
    assert typed.class_names == ("recurrence within 1000 days", "no recurrence within 1000 days")
    # The list's parameter is the horizon, even where a hand-edited copy disagrees.
    assert list_horizon(ProbabilisticScoringList(horizon=365.0), typed).horizon == 365.0


SECOND_HOME = re.compile(r"""getattr\([^)]*["']horizon["']|\[\s*["']horizon["']\s*\]|\.get\(\s*["']horizon["']|"""
                         r"""\b(model|loaded|new|self\.model|session\.model)\.horizon\b""")


def horizon_reads(paths):
    """Lines that read a list's horizon other than through :func:`list_horizon`."""
    return [f"{path.name}:{number}" for path in paths
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
            if SECOND_HOME.search(line)]


def test_no_second_reader_of_the_horizon(tmp_path):
    home = ROOT / "psl_triage" / "model_file" / "metadata.py"
    paths = [path for folder in ("psl_triage", "ui", "pages") for path in sorted((ROOT / folder).rglob("*.py"))
             if path != home]
    assert horizon_reads(paths + [ROOT / "app.py"]) == []
    planted = tmp_path / "planted.py"
    planted.write_text('tau = model.horizon\nunit = follow_up.get("horizon")\nh = getattr(model, "horizon", None)\n'
                       'tau = record["horizon"]\ntau = list_horizon(model).horizon\n', encoding="utf-8")
    assert horizon_reads([planted]) == ["planted.py:1", "planted.py:2", "planted.py:3", "planted.py:4"]
