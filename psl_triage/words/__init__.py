"""Every sentence, label, unit and number format the user reads: the one home for words.

Pages never compose a sentence and never interpolate a name that came from a file (a column,
a category, a class, a model, a dataset) into Markdown: they call a function here, which
escapes such names once (:func:`md`, :func:`plotly_text`) and returns text ready to render.
:mod:`psl_core` returns numbers and codes; what they mean in words is said here.

One module per page or topic (``data``, ``train``, ``triage``, ``evaluation``, ``validate``,
``card``, ``common`` for formats and words several pages share), so each can be read in one
sitting.
"""

from psl_triage.words.common import MINUS, level_text, m_equals, number_text, one_in, percent, points_text, signed
from psl_triage.words.escape import WORD_JOINER, label_md, md, plotly_text, shown, visible

__all__ = [
    "MINUS", "WORD_JOINER", "label_md", "level_text", "m_equals", "md", "number_text", "one_in", "percent",
    "plotly_text", "points_text", "shown", "signed", "visible",
]
