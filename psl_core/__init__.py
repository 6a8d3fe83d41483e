"""psl_core: probabilistic scoring lists (Hanselle, Heid, Fürnkranz, Hüllermeier).

The library behind PSL Triage. It learns, applies, explains and serializes
probabilistic scoring lists with scikit-learn conventions, and holds the pure logic of
the app (decisions, stopping, data preparation, figures). It never imports Streamlit.

Modules follow the paper's sections: :mod:`~psl_core.binarization` (4.3),
:mod:`~psl_core.calibration` (4.2), :mod:`~psl_core.intervals` (4.4),
:mod:`~psl_core.search` (4.1), :mod:`~psl_core.model` (Def. 3: learning; its parameters in
:mod:`~psl_core.parameters`, its inputs read by :mod:`~psl_core.inputs`, its length chosen by
:mod:`~psl_core.recommend`), :mod:`~psl_core.prediction` (applying a fitted list),
:mod:`~psl_core.decision` and :mod:`~psl_core.stopping` (5.4: the bedside decision and when
to stop), :mod:`~psl_core.serialization` (model files).
"""

from .errors import DataError, ModelFileError, PSLError
from .model import ProbabilisticScoringList
from .parameters import PAPER_SETUP

__version__ = "0.1.0"
__all__ = ["ProbabilisticScoringList", "PAPER_SETUP", "PSLError", "DataError", "ModelFileError", "__version__"]
