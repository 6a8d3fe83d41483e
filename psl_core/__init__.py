"""psl_core: probabilistic scoring lists (Hanselle, Heid, Fürnkranz, Hüllermeier).

The library behind PSL Triage: it learns, applies, judges and serializes probabilistic
scoring lists with scikit-learn conventions, returns numbers and codes (no sentences for a
user interface) and never imports Streamlit. Start with :class:`ProbabilisticScoringList`
(``help(psl_core.ProbabilisticScoringList)``); bad input raises a :class:`PSLError` (a
``ValueError``) that says what to change.

The learner, module by module in the paper's order:

- :mod:`~psl_core.model`: the estimator (Def. 3); its parameters declared in
  :mod:`~psl_core.parameters`, its inputs read by :mod:`~psl_core.inputs`, its constraints
  checked by :mod:`~psl_core.constraints`, its length chosen by :mod:`~psl_core.recommend`;
- :mod:`~psl_core.search` (4.1, 4.5) with its :mod:`~psl_core.candidates`, where it ends
  (:mod:`~psl_core.chance`) and the
  compiled :mod:`~psl_core.kernels`,
  :mod:`~psl_core.binarization` (4.3), :mod:`~psl_core.calibration` (4.2) with
  :mod:`~psl_core.calibration_kernels`, :mod:`~psl_core.intervals` (4.4);
- :mod:`~psl_core.prediction`: applying a fitted list, stage by stage;
- :mod:`~psl_core.cost_ratio`, :mod:`~psl_core.decision`, :mod:`~psl_core.stopping` and
  :mod:`~psl_core.costs` (5.4): M and its threshold, the bedside decision, when to stop
  asking, what questions cost;
- :mod:`~psl_core.serialization`: the versioned JSON model file (``model-schema-v2.json``),
  checked against its schema by :mod:`~psl_core.quick_schema` first.
- :mod:`~psl_core.file_checks`: what the parts of a model file must agree on beyond their shapes;
  :mod:`~psl_core.recomputed`: its probabilities recomputed from its counts on load.

Judging a list (Sec. 5 and beyond): :mod:`~psl_core.metrics` (the paper's stagewise
measures), :mod:`~psl_core.evaluation` (Monte Carlo cross-validation),
:mod:`~psl_core.calibration_measures` and :mod:`~psl_core.reliability` (calibration),
:mod:`~psl_core.decision_curve` (net benefit), :mod:`~psl_core.subgroups`,
:mod:`~psl_core.sample_size` (Riley's criteria), :mod:`~psl_core.validation` (another site:
validation and recalibration; :mod:`~psl_core.logistic`, the logistic fit its slope and the
baselines share), :mod:`~psl_core.monitoring` and :mod:`~psl_core.closed_test` (a list in
service: the risk-adjusted CUSUM, the closed test of updates) and :mod:`~psl_core.survival` (follow-up data: the risk within
a horizon, censoring respected). Besides: :mod:`~psl_core.names` (names read from files),
:mod:`~psl_core.errors` and :mod:`~psl_core.warmup` (``python -m psl_core.warmup`` compiles
the kernels ahead of the first fit).
"""

from importlib import import_module

from .errors import DataError, ModelFileError, PSLError

__version__ = "0.1.0"
__all__ = ["ProbabilisticScoringList", "PAPER_SETUP", "PSLError", "DataError", "ModelFileError", "__version__"]

_LAZY = {"ProbabilisticScoringList": "model", "PAPER_SETUP": "parameters"}
"""Names imported on first use, by module: importing a light module (``psl_core.errors``,
``psl_core.binarization``...) then does not load scikit-learn, scipy.stats and numba."""


def __getattr__(name):
    if name in _LAZY:
        value = globals()[name] = getattr(import_module(f".{_LAZY[name]}", __name__), name)
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted({*globals(), *_LAZY})
