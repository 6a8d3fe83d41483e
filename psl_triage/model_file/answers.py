"""The answers a list offers to one of its questions, as the model file names them.

The bedside questions (:mod:`psl_triage.bedside.questions`) offer them and the reader of a model
file (:mod:`psl_triage.model_file.meaning`) checks that no two of them read alike: one
home for both.
"""

from psl_core.binarization import BINARY, CATEGORY
from psl_triage.words import questions as words

OTHER = "__psl_other_category__"
"""Raw answer "none of the listed categories" of a categorical question without labels."""


def answer_options(literal, labels, all_literals, levels=()):
    """The answers to the question of ``literal`` as (raw value, text), without "unknown".

    ``labels``: the column's readable names of its values (text -> text); ``all_literals``: the
    list's literals, whose categories of the same column are offered too; ``levels``: an
    ordered column's levels in their order. A numeric question offers none (a number is typed).
    """
    if literal.kind == BINARY:
        return ((1.0, labels.get("1", words.YES)), (0.0, labels.get("0", words.NO)))
    if literal.kind != CATEGORY:
        return ()
    # An ordered column's levels in their order; then every category the metadata names, then
    # any the list uses that it does not name.
    categories = list(dict.fromkeys([*levels, *labels]))
    for other in all_literals:
        if other.column != literal.column:
            continue
        for category in (other.category,) if other.categories is None else other.categories:
            if category not in categories:
                categories.append(category)
    options = [(category, labels.get(category, category)) for category in categories]
    if not labels:
        options.append((OTHER, words.OTHER_CATEGORY))
    return tuple(options)
