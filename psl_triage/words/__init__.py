"""Every sentence, label, unit and number format the user reads: the one home for words.

Pages never compose a sentence and never interpolate a name that came from a file (a column,
a category, a class, a model, a dataset) into Markdown: they call a function here, which
escapes such names once (:func:`md`, :func:`plotly_text`) and returns text ready to render.
:mod:`psl_core` returns numbers and codes; what they mean in words is said here.

One module per page or topic, so each can be read in one sitting:

- pages: ``data``, ``train``, ``triage``, ``calibration`` (also Intervals), ``evaluation``,
  ``validate``, ``card``, ``monitoring`` (the Monitor page and the report's section on it);
- the app package's messages and notes, one module per job it serves: ``reading`` (what is wrong
  with a file, how it was read), ``preparing`` (column types, the outcome, missing values,
  preparing training data), ``roles`` (the evidence for a column's role: identifier, time,
  possible leak), ``known_at_triage`` (whether each question is known before the outcome, as
  the researcher confirms it), ``site`` (what is wrong with another site's table, its codes and units),
  ``store`` (the model folder: a list not saved, a file skipped or unreadable), ``settings``
  (what is wrong with a training setting or the split it asks for), ``figures`` (every plotly
  figure's titles, axes, trace names and hover templates), ``export`` (the specification, the
  scorers and the FHIR RiskAssessment for the hospital's systems), ``ward`` (roles, approval, the
  audit trail, sign-in);
- topics several pages share: ``common`` (number formats: a probability's ``percent``, a share's
  ``share``; M, an interval's level, the helpers in ``ui``, the pages' names), ``decision`` (the
  decision model: outcomes, why the list stopped), ``trade_off`` (where M matters), ``evidence``
  (decision curves, calibration, subgroups), ``sample_size`` (Riley's criteria), ``editors``
  (the Train page's tables of costs and prior knowledge), ``lists`` (held-out rows, a list too
  good to be true, a follow-up horizon), ``questions`` (the bedside questions and their
  answers), ``record`` (a triage's record in plain text for the notes), ``report`` (the printed
  card's and the model report's sentences, HTML with names escaped);
- ``escape``: names from files as text (:func:`md`, :func:`label_md`, :func:`plotly_text`).

The escapes and the common formats are importable from here (``from psl_triage.words import
md, percent``); a page imports its own module (``from psl_triage.words import triage as words``).
"""

from psl_triage.words.common import MINUS, level_text, m_equals, number_text, one_in, percent, points_text, signed
from psl_triage.words.escape import WORD_JOINER, label_md, md, plotly_text, shown, visible

__all__ = [
    "MINUS", "WORD_JOINER", "label_md", "level_text", "m_equals", "md", "number_text", "one_in", "percent",
    "plotly_text", "points_text", "shown", "signed", "visible",
]
