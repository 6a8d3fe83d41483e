"""The Card page's words (the card and the report themselves are :mod:`psl_triage.judging.card`'s HTML,
which escapes every name there)."""

TITLE = "Card and model report"
LIST_LABEL = "List to print"
INTRO = (
    "The list on one printed page for the ward: the questions with their points, the risk of "
    "every total with its interval and the decision it allows at your M. Download it and print "
    "it from the browser (or save it as PDF there); it fits one A4 or Letter page. The model "
    "report gathers what an ethics board or a reader of a paper asks about the list: where the "
    "data came from, who, which outcome, which predictors, how many patients, how well it did."
)
NO_LIST = (
    "There is no list to print yet. Train one (or load a model file) on the **Train** page, or "
    "save one there; every saved list can be chosen here."
)
DOWNLOAD_CARD = "Download the card (HTML, prints on one page)"
DOWNLOAD_REPORT = "Download the model report (HTML)"

# What the page was doing when an unexpected error stopped it (ui.shown_errors).
BUILDING_CARD = "building the card"


def questions_on_card(n_questions):
    """The label of the number of questions the card holds."""
    return f"Questions on the card (the list has {n_questions})"
