"""Every plotly figure of the app, one module per topic; all are importable from here.

The figures for judging a list are pure functions of a model and data (or of the tables of
:mod:`psl_core.evaluation`) and return ``(figure, table)``: a plotly Figure whose traces
have names a reader (and a test) can find, and the numbers behind it as a DataFrame, for a
CSV download.

- :mod:`~psl_triage.plots.calibration`: :func:`calibration_figure` ((total score, outcome)
  pairs with isotonic and beta calibration of one stage, the paper's Figure 1);
  :func:`reliability_figure`, :func:`brier_figure`, :func:`roc_figure` (calibration and
  ranking of the stage's probabilities on labelled, typically held-out, data);
  :func:`horizon_calibration_figure`, a horizon list's risk against the Kaplan-Meier risk by
  the horizon (a figure only: its tables are :func:`psl_triage.judging.horizon.horizon_calibration`'s).
- :mod:`~psl_triage.plots.intervals`: :func:`interval_figure`, :func:`interval_grid_figure`:
  the probability of every reachable total with its interval against the
  decision threshold 1/(1+M) (the paper's Figure 5), for one stage or all of them.
- :mod:`~psl_triage.plots.evaluation`: :func:`stagewise_figure`, :func:`three_way_figure`:
  the Monte Carlo evaluation (the paper's Figures 3, 4, 6, 8) and the decide-or-abstain
  trade-off.
- :mod:`~psl_triage.plots.evidence`: :func:`decision_curve_figure`,
  :func:`flexible_calibration_figure`: the evidence a researcher reports
  (:mod:`psl_triage.judging.evidence`): net benefit against the threshold probability with M's
  threshold marked, and the flexible calibration curve with its band.
- :mod:`~psl_triage.plots.bedside`: :func:`triage_figure`, the Triage page's probability and
  interval over the questions answered so far (a figure only).
- :mod:`~psl_triage.plots.performance`: :func:`performance_figure`, the Train page's measures
  by stage on the training and test rows (a figure only).
- :mod:`~psl_triage.plots.monitoring`: :func:`~psl_triage.plots.monitoring.drift_figure`,
  :func:`~psl_triage.plots.monitoring.cusum_figure`,
  :func:`~psl_triage.plots.monitoring.answer_shift_figure`: the Monitor page's O/E and slope over
  time, the risk-adjusted CUSUM and the answers' shift (figures only; imported from their module).

Text from a file (labels, class names) reaches a figure through
:func:`psl_triage.words.plotly_text`.
"""

from psl_triage.plots.bedside import triage_figure
from psl_triage.plots.calibration import (
    brier_figure,
    calibration_figure,
    horizon_calibration_figure,
    reliability_figure,
    roc_figure,
)
from psl_triage.plots.evaluation import stagewise_figure, three_way_figure
from psl_triage.plots.evidence import (
    OTHER_STAGES,
    calibration_curve_table,
    decision_curve_figure,
    flexible_calibration_figure,
    total_points_table,
)
from psl_triage.plots.intervals import interval_figure, interval_grid_figure, interval_table
from psl_triage.plots.performance import MEASURE_SCALES, performance_figure
from psl_triage.plots.style import (
    CONFIDENT_NEGATIVE,
    CONFIDENT_POSITIVE,
    METHOD_COLORS,
    NO_TRAINING_CASE,
    STATUS_COLORS,
    THRESHOLD_NAME,
    UNCERTAIN,
)

__all__ = [
    "CONFIDENT_NEGATIVE", "CONFIDENT_POSITIVE", "MEASURE_SCALES", "METHOD_COLORS", "NO_TRAINING_CASE",
    "OTHER_STAGES", "STATUS_COLORS", "THRESHOLD_NAME", "UNCERTAIN", "brier_figure", "calibration_curve_table",
    "calibration_figure", "decision_curve_figure", "flexible_calibration_figure",
    "horizon_calibration_figure", "interval_figure", "interval_grid_figure", "interval_table", "performance_figure", "reliability_figure",
    "roc_figure", "stagewise_figure", "three_way_figure", "total_points_table", "triage_figure",
]
