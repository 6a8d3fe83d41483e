"""Number formats and the words several pages share.

Percentages, signed numbers and points with a true minus sign, "1 in 20" for a share, and the
names of M and of an interval's level, as every page writes them. Nothing here reads a name
from a file, so nothing here needs escaping.
"""

import math

from psl_core.binarization import plain_number
from psl_core.cost_ratio import decision_threshold

MINUS = "\u2212"
"""The minus sign (U+2212) of every negative number shown: wider than a hyphen, read as minus."""


def duration(seconds):
    """A run's length as a person says it: "40 s", "3 min", "1 h 5 min"."""
    if seconds < 90:
        return f"{max(1, round(seconds))} s"
    minutes = round(seconds / 60)
    return f"{minutes} min" if minutes < 60 else f"{minutes // 60} h {minutes % 60} min"


RUN_NAMES = {"training": "training of a list", "evaluation": "evaluation"}
"""What runs in another session, as the queue message names it (psl_triage.training.runs)."""


def queued(mine, running, waited_s):
    """The progress bar's text while this session's run (``mine``: "training" or "evaluation")
    waits for another session's (``running``, a :class:`psl_triage.training.runs.Run`, or None when it
    just ended): what runs, where it stands, how long this one has waited."""
    if running is None:
        where = ""
    else:
        steps = "stage" if running.what == "training" else "split"
        done = f"{running.done} of {running.total} {noun(running.total, steps)} done, " if running.total else ""
        where = f" ({done}running for {duration(running.running_s)})"
    what = RUN_NAMES.get(getattr(running, "what", None), "run")
    return (f"Waiting: another session's {what} is in progress{where}. The server runs one at a time; your "
            f"{'training' if mine == 'training' else 'evaluation'} starts as soon as it ends (waited {duration(waited_s)}).")


def points_text(points):
    """"+2 points", "−1 point" (with a true minus sign)."""
    unit = "point" if abs(points) == 1 else "points"
    return f"{signed(points)} {unit}"


def noun(count, word, many=None):
    """The noun for ``count`` of it: "answer" for 1, "answers" otherwise (``many`` for an
    irregular plural)."""
    return word if count == 1 else (many or word + "s")


def plural(count, word, many=None):
    """A count with its noun: "1 answer", "4 answers", "0 answers"."""
    return f"{count} {noun(count, word, many)}"


def counted(count, word, one_verb, many_verb, many=None):
    """A count with its noun and a verb that agrees: "1 row was", "3 rows were"."""
    return f"{plural(count, word, many)} {one_verb if count == 1 else many_verb}"


def first_questions(count, whose="the"):
    """"the first question", "the first 3 questions" (never "the first 1 question");
    ``whose="its"`` for "its first question"."""
    return f"{whose} first question" if count == 1 else f"{whose} first {count} questions"


def signed(value):
    """An integer with its sign: "+2", "−2", "0"."""
    return f"+{value}" if value > 0 else (f"{MINUS}{-value}" if value < 0 else "0")


def number_text(value):
    """An integer with a true minus sign and no plus: "3", "−2"."""
    return f"{MINUS}{-value}" if value < 0 else str(value)


def readable_number(value):
    """A measured value as a reader takes it in: at least 4 significant digits and the whole
    integer part, never in scientific notation ("8.786", "64.41", "152513", "0.0001235")."""
    value = float(value)
    if not math.isfinite(value) or value == 0:
        return f"{value:g}"
    return plain_number(value, max(4, int(math.floor(math.log10(abs(value)))) + 1))


def percent(p, decimals=1):
    """A probability in percent: "12.3%" (or "12%" with ``decimals=0``); a probability
    strictly between 0 and 1 never rounds to a false 0 % or 100 % ("<0.1%", ">99.9%")."""
    step = 10.0 ** -decimals
    if 0 < 100 * p < step / 2:
        return f"<{step:g}%"
    if 100 - step / 2 < 100 * p < 100:
        return f">{100 - step:g}%"
    return f"{100 * p:.{decimals}f}%"


def share(fraction, decimals=0):
    """A share of rows or patients: "12 %" (or "12.3 %" with ``decimals=1``), a space before
    the sign; a probability is :func:`percent`."""
    return f"{100 * fraction:.{decimals}f} %"


def share_of(part, whole, decimals=0):
    """``part`` of ``whole`` as a :func:`share`; "0 %" of nothing."""
    return share(part / whole if whole else 0.0, decimals)


def one_in(tolerance):
    """A share in words: "1 in 20" for 5 %, "1 in 10" for 10 %; "2%" when not a whole "1 in n"."""
    if tolerance > 0 and abs(1 / tolerance - round(1 / tolerance)) < 1e-9:
        return f"1 in {round(1 / tolerance)}"
    return f"{tolerance:.0%}"


def m_equals(cost_ratio):
    """The cost ratio as the pages name it: "M = 10", "M = 2.5" (a bound of a range of M is
    :func:`psl_triage.words.trade_off.m_text`)."""
    return f"M = {cost_ratio:g}"


def level_text(confidence):
    """An interval's confidence level: "95%"."""
    return f"{confidence:.0%}"


INTERVAL_PROMISE = (
    "At its confidence level, each total's interval holds the risk of patients like the training ones "
    "with that total, allowing for the questions having been chosen on those same patients."
)
"""What a list's interval promises, in the words of psl_core/intervals.py: every page that states
it (Train's table, Triage, Intervals, the card and the report) says this sentence."""


# --- the words of the helpers every page uses (ui) ---------------------------------------------
APP_NAME = "PSL Triage"
PAGE_NAMES = {
    "data": "Data", "train": "Train", "triage": "Triage", "calibration": "Calibration",
    "intervals": "Intervals", "evaluation": "Evaluation", "validate": "Validate", "card": "Card",
    "monitor": "Monitor", "approval": "Approval", "audit": "Audit",
}
"""The pages as the navigation and their titles name them, by page."""


def page_title(page):
    """The browser tab's title of a page: "Train · PSL Triage"."""
    return f"{PAGE_NAMES[page]} · {APP_NAME}"


CSV_DOWNLOAD_LABEL = "Download the numbers (CSV)"
GO_TO_TRAIN = ("Go to Train", "Open **Train** in the sidebar.")
"""A link to the Train page: its label, and the text shown where the page cannot link."""
LIST_PICKER_LABEL = "Scoring list"
JUST_TRAINED = "just trained"
"""The Train page's list in the list picker when it has no name yet."""
JUST_TRAINED_NAME = "List just trained"
NOT_SAVED = "not saved"
FILE_OF_COPY = "{label}, file {file}"
"""A saved list in the picker when another file has the same label (a copy or a link)."""
GO_TO_DATA = ("Go to the start page", "Open the start page (**Data**) in the sidebar.")
CHOOSE_OUTCOME = "Choose the outcome column."
CONFIDENCE_LEVEL = "Confidence level of the intervals"
"""The confidence of the intervals drawn, as a widget or an axis names it."""


def unexpected_error(doing, error_name):
    """What the page says about an error nobody foresaw (its traceback goes to the server log)."""
    return (
        f"Something unexpected went wrong while {doing} ({error_name}). Nothing was "
        "changed; try again, and if it happens again, tell whoever maintains the app (the "
        "details are in the server log)."
    )


STAGE_HELP = "Starts at the length the internal cross-validation recommends, if the list has one."
"""The help of a stage slider that starts at the recommended stage (ui.stage_slider)."""
NO_LIST = "There is no list yet. Train one (or load a model file) on the **Train** page{reason}."
"""A page that needs a list, before there is one; ``reason`` completes the sentence."""
NO_DATA = "There are no data to {purpose}. Load and prepare a table on the start page."
"""A page that needs prepared data, before there are any."""
SAVED_M_OUTSIDE = " That is outside {low:g} to {high:g}: M starts at the nearest end."
"""Said after the saved M's note when the saved M is outside the input's range."""
UPLOAD_LABEL = "CSV, TSV or Excel (.xlsx) file{what} (up to {limit_mb} MB)"
"""The label of a table's uploader; ``what`` completes "file"."""
UNUSABLE_MODEL = "This saved model cannot be used: {message}. Choose another one."
"""A saved model file that cannot be used (``message``, already escaped, says why)."""


def list_option_label(name, version):
    """The list picker's option for the list on the Train page (``name`` already made visible)."""
    saved = f"v{version}" if version is not None else NOT_SAVED
    return f"The list on the Train page: {name} ({saved})"


SHOW = "Show {noun}"
"""The label of a page choice of columns ("Show columns in use")."""


def columns_shown(first, per_page, total):
    """A page of columns in the page choice: "31–60 of 412"."""
    return f"{first + 1}–{min(first + per_page, total)} of {total}"


# --- M, the cost of a missed case relative to a false alarm ------------------------------------
COST_RATIO_LABEL = "M: cost of a missed case relative to a false alarm"
"""What M is, in words (the label of its input)."""


def decision_text(metadata):
    """One sentence on the trade-off a list was saved with, for where the list is described
    (``metadata``: its :class:`~psl_triage.model_file.metadata.ModelMetadata`)."""
    cost_ratio = metadata.cost_ratio
    rule = (
        f"a missed case counts as much as {cost_ratio:g} {noun(cost_ratio, 'false alarm')}, "
        f"so the list decides positive above 1/(1+M) = {decision_threshold(cost_ratio):.1%}"
    )
    if metadata.saved_cost_ratio is None:
        return (
            f"Saved before lists carried their M: the list is used with the paper's M = {cost_ratio:g} "
            f"({rule}) until M is changed."
        )
    return f"Saved with M = {cost_ratio:g}: {rule}. The list is used with this M until M is changed."


def saved_cost_ratio_note(metadata):
    """The short form of :func:`decision_text`, next to an input of M (typed metadata too)."""
    cost_ratio = metadata.cost_ratio
    if metadata.saved_cost_ratio is None:
        return f"This list was saved before lists carried their M; M starts at the paper's {cost_ratio:g}."
    return f"This list was saved with M = {cost_ratio:g}."


def cost_text(value: float, unit: str = "") -> str:
    """A cost as a reader writes it: "20 minutes", "2.5" without a unit."""
    number = f"{value:,.4g}" if value < 1e6 else f"{value:.3g}"
    return f"{number} {unit}".strip()
