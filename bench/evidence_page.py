"""What the evidence sections add to the Evaluation and Validate pages' time, on the demo.

Run from the repository root with the project's python:

    python bench/evidence_page.py            # 100 splits, median of 5 repeats

Evaluation: one :func:`psl_core.evaluation.monte_carlo_cv` run (100 splits, every core)
with its evidence; then the work a page render does with the result, timed against what
the page already did before the evidence (``band_summary`` of the measures and of the
three-way table): the decision curves of one stage, the calibration hierarchy and the
held-out curve. The page keeps these per result and stage, so a rerun for another widget
pays them once. Validate: the demo list judged on the Hungarian table at its judged stage;
the existing bootstrap report (:func:`psl_core.validation.validation_report`, 500
resamples) against the evidence (the sample size for validation, the flexible curve with
200 resamples, the decision curves with 200 resamples, subgroups by sex).
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

import pandas as pd

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

from psl_core.calibration_measures import flexible_calibration  # noqa: E402
from psl_core.evaluation import band_summary, monte_carlo_cv  # noqa: E402
from psl_core.subgroups import subgroup_measures  # noqa: E402
from psl_core.validation import recalibratable_stages, stage_totals, validation_report  # noqa: E402
from psl_triage.data.demo import load_demo  # noqa: E402
from psl_triage.judging.evidence import (  # noqa: E402
    group_labels,
    held_out_calibration_curve,
    held_out_decision_curves,
    held_out_hierarchy,
    site_decision_curves,
    validation_adequacy,
)
from psl_triage.judging.validation import match_columns, needed_columns, site_table  # noqa: E402
from psl_triage.training.fit import train_list  # noqa: E402
from psl_triage.training.options import TrainingOptions  # noqa: E402


def best_of(repeats, work):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--splits", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    from psl_triage.data import infer_column_types, prepare_training_data

    df, meta = load_demo()
    prepared = prepare_training_data(df, infer_column_types(df, meta.columns), meta.outcome, meta.positive_class,
                                     "drop", meta.columns)
    model, metadata = train_list(prepared, "demo", TrainingOptions())
    result = monte_carlo_cv(prepared.X, prepared.y, lambda: model.__class__(**model.get_params()),
                            n_splits=args.splits)
    stage = min(model.recommended_stages_ or 0, int(result.measures["stage"].max()))
    before = best_of(args.repeats, lambda: (band_summary(result.measures), band_summary(result.three_way)))
    evidence = best_of(args.repeats, lambda: (held_out_decision_curves(result, stage),
                                              held_out_hierarchy(result, stage),
                                              held_out_calibration_curve(result, stage)))
    print(f"Evaluation render, {args.splits} splits, stage {stage}: the page's summaries {1000 * before:.0f} ms, "
          f"the evidence {1000 * evidence:.0f} ms ({evidence / before:.2f}x); once per result and stage")

    frame = pd.read_csv(REPO_ROOT / "datasets" / "heart_hungarian.csv")
    frame["heart_disease"] = (frame["num"] > 0).astype(int)
    mapping = match_columns(needed_columns(model, metadata), frame.columns)
    table = site_table(model, metadata, frame, mapping, "heart_disease", [1])
    # The stage the page judges first: the recommended length, or the longest this table supports.
    judged = min(model.recommended_stages_ or model._stage(None), max(recalibratable_stages(model, table.X, table.y), 0))
    report = validation_report(model, table.X, table.y, judged)
    existing = best_of(args.repeats, lambda: validation_report(model, table.X, table.y, judged))
    _, known = stage_totals(model, table.X, judged)
    groups = group_labels(frame.loc[table.X.index[known[:, judged]], "sex"]).to_numpy()

    def site_evidence():
        validation_adequacy(report.y, report.p)
        flexible_calibration(report.y, report.p)
        site_decision_curves(report.y, report.p, 1 / 11)
        subgroup_measures(report.y, report.p, groups, 1 / 11)

    added = best_of(args.repeats, site_evidence)
    print(f"Validate at Hungary, stage {judged} ({len(report.y)} patients): the existing report "
          f"{1000 * existing:.0f} ms, the evidence {1000 * added:.0f} ms ({added / existing:.2f}x); once per "
          "list, table and stage")


if __name__ == "__main__":
    main()
