"""The words of the Train page's two editable tables, question costs and what clinicians know
already (:mod:`psl_triage.training.costs`, :mod:`psl_triage.training.knowledge`): their column headings, the
choices they offer, and what is wrong with an entry.

A column's readable name (``column``) is plain text here: the page shows these messages with
:func:`psl_triage.words.md`.
"""

COLUMN = "Data column"
COST = "Cost"
GROUP = "Measured with"
"""The table's column naming the test a feature comes from: features measured with the same
test are paid once (``cost_groups``)."""
DIRECTION = "Points with a higher value"
ASKED = "Asked"

DIRECTIONS = {"": "as the data say", "increasing": "never fewer", "decreasing": "never more"}
"""The direction choices (the value passed to ``monotone``, or "" for none) and their words."""
ASKS = {"": "when it helps", "first": "first", "never": "never"}
"""Whether the list asks a column when the search finds it useful, first (``required``, in
the table's order) or never (``forbidden``), and the words."""


# What is wrong with an entry (str.format templates; ``column`` is the column's readable name).
TEST_NAME_TOO_LONG = "The test {column} is measured with has a {length}-character name: use at most {most} (e.g. exercise test)."
COST_NOT_A_NUMBER = "The cost of {column} is {value!r}, not a number: type a number of 0 or more."
COST_OUT_OF_RANGE = "The cost of {column} is {value:g}: a cost is a finite number of 0 or more."
UNIT_TOO_LONG = "The cost unit is {length} characters long: use at most {most} (e.g. minutes)."
CHOICE_NOT_OFFERED = "The choice for {column} is not one the table offers: choose again."
CATEGORICAL_DIRECTION = (
    "{column} is categorical: its categories have no order, so its points cannot rise "
    "or fall with its value. Leave its direction 'as the data say', or give its categories "
    "their order on the Data page (Ordered categories)."
)
REQUIRED_WITHOUT_QUESTION = (
    "{column} is to be asked first, but no question about it leaves at least {min_support} "
    "training rows for each answer (or none in the direction chosen for it), so the list "
    "cannot start with it. Lower '{option}', or set {column} to be asked '{asked}'."
)
"""Training stopped: a column to be asked first (``required``) has no question the search may
ask; ``option`` is the label of ``min_support``, ``asked`` the choice "when it helps"."""


def constraints_said(monotone, required, forbidden):
    """What the user said a list must respect, as it was trained with it (the model's
    ``monotone``, ``required``, ``forbidden``): "Trained with what you know already: asked
    first: 'cp'; never asked: 'thal'; points with a higher value never fewer: 'age'." ("" with none)."""
    def names(columns):
        return ", ".join(repr(str(column)) for column in columns)

    parts = [f"asked first: {names(required)}"] if required else []
    parts += [f"never asked: {names(forbidden)}"] if forbidden else []
    for direction in ("increasing", "decreasing"):
        columns = [column for column, said in (monotone or {}).items() if said == direction]
        if columns:
            parts.append(f"{DIRECTION.lower()} {DIRECTIONS[direction]}: {names(columns)}")
    return f"Trained with what you know already: {'; '.join(parts)}." if parts else ""

