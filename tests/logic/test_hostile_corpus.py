"""The hostile corpus (tests/hostile_corpus.py) through the app's logic: upload -> train -> save
-> list -> load -> triage. Nothing raises anything but a refusal with a reason, nothing is
saved that does not list and load back, and the model folder lists only the good lists."""

import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from hostile_corpus import hostile_tables, through_the_app, write_model_folder  # noqa: E402

from psl_triage.model_file.store import list_models  # noqa: E402

EXPECTED = {
    "markdown-names.csv": "triaged",
    "greek-and-chinese.csv": "triaged",
    "utf32.csv": "triaged",
    "bidi-names.csv": "triaged",
    "quoted-decimal-comma.csv": "triaged",
    "look-alike-names.csv": "refused at upload",
    "code-names.csv": "refused at upload",
    "long-name.csv": "refused at upload",
    "wide-501.csv": "refused at upload",
    "control-cell.csv": "refused at upload",
    "look-alike-values.csv": "refused at upload",
    "quoted-repeat-header.csv": "refused at upload",
    "nul-bytes.csv": "refused at upload",
    "encrypted.xlsx": "refused at upload",
    "near-largest-float.csv": "triaged",
    "mixed-encodings.csv": "triaged",
    "percent-beside-fraction.csv": "triaged",
    "hidden-first-sheet.xlsx": "triaged",
    "formulas-without-values.xlsx": "triaged",
    "encodings-within-a-line.csv": "triaged",
    "utf16-bom-semicolon-decimal-comma.csv": "triaged",
    "semicolon-thousands-dots.csv": "triaged",
    "tsv-quoted-newlines.tsv": "triaged",
    "true-false-with-gaps.csv": "triaged",
    "utf16-cut-off.csv": "refused at upload",
    "merged-header.xlsx": "refused at upload",
    "chart-sheet-first.xlsx": "triaged",
    "only-a-chart-visible.xlsx": "refused at upload",
}


@pytest.mark.parametrize("name", list(hostile_tables()))
def test_each_hostile_table_is_refused_with_a_reason_or_saved_and_triaged(name, tmp_path):
    outcome = through_the_app(name, hostile_tables()[name], tmp_path)
    assert outcome == EXPECTED.get(name, outcome), outcome


def test_the_model_folder_lists_only_the_good_lists_and_a_reason_for_each_other_file(tmp_path):
    folder = tmp_path / "models"
    kinds = write_model_folder(folder)
    models, problems = list_models(folder)
    assert sorted(m.path.name for m in models) == sorted(n for n, kind in kinds.items() if kind == "good")
    skipped = [n for n, kind in kinds.items() if kind != "good"]
    assert len(problems) == len(skipped)
    for name in skipped:
        assert any(problem.startswith(name) for problem in problems), name


names = st.text(st.characters(codec="utf-8"), min_size=0, max_size=12)
cells = st.one_of(names, st.integers(-5, 5).map(str), st.floats(allow_nan=True).map(str), st.just(""))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(header=st.lists(names, min_size=2, max_size=4), data=st.data())
def test_random_tables_are_refused_with_a_reason_or_saved_and_triaged(tmp_path_factory, header, data):
    rng = np.random.default_rng(0)
    n = 60
    frame = pd.DataFrame({f"{i}": [data.draw(cells) for _ in range(3)] * (n // 3) for i in range(len(header) - 1)})
    frame["outcome"] = rng.integers(0, 2, n)
    frame.columns = [*header[:-1], header[-1] or "outcome"]
    folder = tmp_path_factory.mktemp("models")
    through_the_app("random.csv", frame.to_csv(index=False).encode("utf-8", "surrogatepass"), folder)
