"""The words of preparing a table for training: why a column is typed as it is, the outcome's
guess and classes, missing values, and what is wrong with a column or the outcome.

The messages and notes of :mod:`psl_triage.data.columns`, :mod:`psl_triage.data.outcome`,
:mod:`psl_triage.data.missing`, :mod:`psl_triage.data.prepare` and
:mod:`psl_triage.data.values`. Names from the table are plain text here; the page shows
these sentences with :func:`psl_triage.words.md`.
"""

from psl_triage.words.common import counted, plural, readable_number

# --- why a column is typed as it is (psl_triage.data.columns) ---------------------------------------
DATES_NOT_USED = "dates and times are not used"
ALL_MISSING = "all values are missing"
ONE_VALUE = "the same value in every row"
FEW_FILLED = "filled in for only {n} of {rows} rows: too few to learn from"
UNSTORABLE_VALUE_REASON = "the value {unstorable!r} cannot be kept in a saved list ({storable_rule})"
TWO_VALUES = "two values: {first} and {second}"
TEXT_AS_CATEGORY = "text with {distinct} values that repeat across rows: a category, the rarest pooled as {pooled_category!r}"
TEXT_ALL_DIFFERENT = "text with {distinct} different values (an identifier or free text?)"
TEXT_CATEGORIES = "text with {distinct} categories"
ROW_COUNTER = "row counter"
RUNNING_NUMBER = f"a running number (a {ROW_COUNTER}), not a measurement"
IDENTIFIER_NAMED = "named like an identifier"
NAMED_LIKE_IDENTIFIER = IDENTIFIER_NAMED + ", with {distinct} different values in {n_values} rows"
EVERY_ROW_DIFFERENT = "a different text in every row"
DIFFERENT_TEXT_EVERY_ROW = f"{EVERY_ROW_DIFFERENT}: an identifier or free text"
KEPT_AS_CHOSEN = "; kept, as you chose"
TYPED_AS_CHOSEN = "{kind}, as you chose (detected: {inferred}, {reason})"


def numbers_from_to(low, high):
    """A numeric column's reason: "numbers from 8.786 to 64.41"."""
    return f"numbers from {readable_number(low)} to {readable_number(high)}"


# --- the outcome: its guess, classes and leaks (psl_triage.data.outcome) ----------------------------
OUTCOME_NAME_EXACTLY = "it has two values and its name, {name!r}, is an outcome word"
OUTCOME_NAME_CONTAINS = "it has two values and its name contains {value!r}, an outcome word"
NAME_CONTAINS_OUTCOME_WORD = "its name contains {value!r}, an outcome word"
LAST_BINARY_COLUMN = "it is the last column with two values; no such column is named like an outcome (outcome, target, class, diagnosis, death, event, ...)"
NO_OUTCOME_LIKE_COLUMN = "no column has two values or an outcome-like name"
VALUES_ENCODE_OUTCOME = "looks like it encodes the outcome: its values alone tell {positive} from {negative} ({errors} of {n_rows} rows otherwise)"
SAME_CLASS_NAMES = "Both classes are named {names!r}; give the positive and the negative class different names."
OUTCOME_ALL_MISSING = "The outcome column {name} has no values (all missing). Choose another outcome."
OUTCOME_ONE_VALUE = "The outcome column {name} has only one value, {value!r}; a model needs rows of two classes. Choose another outcome."
OUTCOME_TOO_MANY_VALUES = "The outcome column {name} has {n_classes} different values; it looks like a measurement, not a class. Choose a column with two classes, or add one to your file (e.g. 1 if the value is above a cut-off, else 0)."
POSITIVE_CLASS_ASSUMED = "No positive class was given; used {guessed!r}."
EVERY_VALUE_POSITIVE = "Every value of the outcome column {name} was picked as positive; leave at least one value as the negative class."


def threshold_encodes_outcome(cut, best, above, below, errors, n_y):
    """Why a numeric column looks like the outcome: one cut separates the classes (``best`` rows on the wrong side)."""
    return f"looks like it encodes the outcome: above {cut} {'every' if best == 0 else 'almost every'} row is {above}, below it {below} ({errors} of {n_y} rows on the other side)"


def pick_positive_class(name, n_classes, items):
    """An outcome of more than two values, before the positive class is chosen (``items`` as text)."""
    return f"The outcome column {name} has {n_classes} values ({', '.join(items)}); pick the positive class. All other values will count as negative."


def positive_class_absent(text, name, by_text):
    """A positive class that is none of the outcome's values."""
    return f"The positive class {text!r} does not occur in the outcome column {name}, whose values are {', '.join(map(repr, by_text))}."


def outcome_classes_note(name, n_classes, texts, n_texts, negatives, others):
    """The note on which of the outcome's values count as positive."""
    return f"The outcome {name} has {n_classes} values: {', '.join(texts)} {'counts' if n_texts == 1 else 'count'} as positive, {', '.join(negatives)} as {others}."


# --- missing values (psl_triage.data.missing) -----------------------------------------------------
BAD_COLUMN_TYPE = "Column {name!r} has type {kind!r}; choose one of {kinds}."
LEARN_NO_MISSING = "No missing values in the columns in use; {kept} of {n_rows} rows are kept."
LEARN_KEEPS_MISSING = "Keeps {listed}: the list learns whether a missing answer counts as yes or no for each question; {kept} of {n_rows} rows are kept."
DROP_NO_MISSING = "No missing values in the columns in use; all {n_rows} rows are kept."
MEDIAN = "the median"
MOST_FREQUENT_VALUE = "the most frequent value"
IMPUTE_FILLS_IN = "Will fill in {fills}; {kept} of {n_rows} rows are kept."
"""``fills``: the columns' :func:`fill_in_columns`, joined by "; "."""
IMPUTE_NO_MISSING = "No missing values to fill in; {kept} of {n_rows} rows are kept."
BAD_MISSING_HANDLING = "Missing-value handling must be 'learn', 'drop' or 'impute', got {handling!r}."
NO_ROWS_LEFT = "No rows are left after dropping rows with missing values. Choose to fill in missing values instead, or set sparse columns to 'ignore'."
LEFT_OUT_EMPTY = "Left out {name!r}: no value in the rows used."
NOT_FILLED_IN = "Did not fill in {name!r}: {empty:.0%} of its values are missing, too many to fill in with one value; the list learns where a missing answer goes."
LEFT_OUT_CONSTANT = "Left out {name!r}: it has the same value in every row used."
NO_FEATURE_COLUMNS = "No feature columns to learn from: mark at least one column (other than the outcome) as numeric, binary or categorical."


def missing_in_columns(count, name):
    """One column's missing values, in the sentence on keeping them."""
    return f"{plural(count, 'missing value')} in {name!r}"


def dropped_without_time(count, time):
    """The note on rows dropped for want of a follow-up time in the column ``time``."""
    return f"{counted(count, 'row', 'was', 'were')} dropped: no follow-up time in {time!r}."


def and_more(listed, n_columns):
    """The columns a sentence names (``listed``, the largest first when there are more) out of
    ``n_columns`` with missing values: "3 in 'a'; 2 in 'b'" or "...; and 147 more columns (see
    the table above)"."""
    more = n_columns - len(listed)
    return "; ".join(listed) + (f"; and {plural(more, 'more column')} (the table above lists them all)" if more else "")


def rows_without_outcome(no_outcome):
    """Said after a handling's sentence when rows lack the outcome."""
    return f" {plural(no_outcome, 'row')} without an outcome will be dropped."


def drop_missing_rows(dropped, share, kept, n_rows):
    """What dropping rows with a missing value will drop (``share`` already in percent): rows
    with an outcome, as the result counts them; ``kept`` also leaves out the rows without one."""
    return f"{plural(dropped, 'row')} ({share}) {'has' if dropped == 1 else 'have'} a missing value and will be dropped; {kept} of {n_rows} rows remain."


def fill_in_columns(missing, name, how):
    """One column's missing values and how they are filled in."""
    return f"{plural(missing, 'missing value')} in {name!r} with {how}"


def dropped_without_outcome(count, outcome):
    """The note on rows dropped for want of the outcome."""
    return f"Dropped {plural(count, 'row')} without a value for the outcome {outcome!r}."


def filled_in(count, name, kind, fill_value):
    """The note on a column's missing values, filled in."""
    return f"Filled in {plural(count, 'missing value')} of {name!r} with the {'median' if kind == 'numeric' else 'most frequent value'}, {fill_value}."


def dropped_missing_rows(n_dropped, share):
    """The note on rows dropped for a missing value (``share`` already in percent)."""
    return f"Dropped {plural(n_dropped, 'row')} ({share}) with a missing value."


# --- preparing the training data (psl_triage.data.prepare) -----------------------------------------
NOT_ONE = "not {one}"
"""The name of a binary column's other value when only one is named."""
POSSIBLE_LEAK = "{name!r} {reason}. If it is derived from the outcome or recorded after it, set it to 'ignore'."
TIME_IS_EVENT_COLUMN = "Choose a follow-up time column other than the event column {outcome!r}."
OUTCOME_NOT_IN_TABLE = "The outcome column {outcome!r} is not in the table."
TOO_FEW_ROWS = "Too few rows to learn from: {n_positive} positive ({positive_label}) and {n_negative} negative ({negative_label}); at least {min_rows_per_class} of each are needed."
LEFT_OUT_ALL_MISSING = "Left out {label}: all values are missing."
DATES_NOT_NUMERIC = "Column {label} holds dates or times, which cannot be numeric here. Set it to 'ignore', or add a number computed from it (e.g. age in years)."
NO_NUMBERS = "Column {label} has no numbers (e.g. {example!r}); make it categorical, binary or 'ignore'. If its numbers are written another way (72,5 or 1.234), choose the decimal mark and thousands separator the file uses."
UNSTORABLE_VALUE = "Column {label} holds the value {unstorable!r}, which cannot be kept in a saved list ({storable_rule}). Set the column to 'ignore', or change the value in your file."
TOO_MANY_CATEGORIES = "Column {label} has {n_distinct} categories; a scoring list can use at most {max_categories}. Group rare values in your file, or set the column to 'ignore'."
RARE_CATEGORIES_POOLED = "{label} has {n_values} values: the {n_kept} most frequent are kept, the other {pooled} ({n_pooled_rows} rows) pooled as {pooled_category!r}."


def not_numbers_counted_missing(count, label, count_again, examples):
    """The note on a numeric column's texts that are not numbers."""
    return f"{plural(count, 'value')} in {label} {'is' if count_again == 1 else 'are'} not a number (e.g. {examples}) and counted as missing."


def counted_as_missing(infinite, label):
    """The note on a column's infinite values, counted as missing."""
    return f"{plural(infinite, 'infinite value')} in {label} counted as missing."


def not_binary(label, n_distinct, distinct):
    """A binary column with more than two values (``distinct`` the first five, as text)."""
    return f"Column {label} has {n_distinct} different values ({', '.join(distinct)}{', ...' if n_distinct > 5 else ''}); a binary column needs exactly two. Make it categorical or numeric."


def duplicate_column_names(duplicates):
    """Column names that occur twice, when preparing the data."""
    return f"Duplicate column names: {', '.join(duplicates)}. Every column needs a unique name."


# --- values a saved list keeps (psl_triage.data.values) --------------------------------------------
STORABLE_RULE = "a saved list keeps names and values of at most 1,000 characters that do not start with __, py/ or !!"


def passed_over(reason, name, value, n_rows, min_rows):
    """The outcome guess's ``reason`` when a column named more like an outcome was passed over
    for want of rows: ``value`` the class it lacks rows of (None: the values other than its
    most common one; "" when no value has ``min_rows``), ``n_rows`` that class's rows."""
    if value == "" and n_rows == 0:
        lacking = "it has fewer than two values"
    elif value is None:
        lacking = f"only {plural(n_rows, 'row')} are not its most common value"
    elif value == "":
        lacking = f"none of its values has more than {plural(n_rows, 'row')}"
    else:
        lacking = f"only {plural(n_rows, 'row')} {'is' if n_rows == 1 else 'are'} {value!r}"
    return f"{reason}; {name!r} was passed over: {lacking}, and a list needs at least {min_rows} of each class"


def order_leaves_out(label, unplaced):
    """An ordered column's order lacks some of its categories (the table changed under it)."""
    listed = ", ".join(repr(level) for level in unplaced[:5])
    return (f"The order of column {label} leaves out its {plural(len(unplaced), 'category', 'categories')} "
            f"{listed}. Open 'Ordered categories' on the Data page and place every category, or "
            "declare the column unordered.")


def horizon_class_too_small(horizon, unit, n_events, n_beyond, min_rows, event_time, follow_time):
    """A horizon that leaves a class of the risk within it smaller than ``min_rows``, with the
    times that work: the ``min_rows``-th event's time, the ``min_rows``-th longest follow-up."""
    unit = f" {unit}" if unit else ""
    if n_events < min_rows:
        small = f"{_patients(n_events)} the event within {horizon:g}{unit}"
        change = (f"fewer than {min_rows} patients have the event at all" if event_time is None else
                  f"choose a horizon of at least {event_time:g}{unit}, by which {min_rows} patients have had the event")
    else:
        small = f"{_patients(n_beyond, 'is', 'are')} followed beyond {horizon:g}{unit}"
        change = (f"fewer than {min_rows} patients are followed at all" if follow_time is None else
                  f"choose a horizon below {follow_time:g}{unit}, beyond which {min_rows} patients are followed")
    return (f"With this horizon {small}, too few to learn the risk from (at least {min_rows} of each class are "
            f"needed). To learn the risk within a horizon, {change}.")


def _patients(count, one="has", many="have"):
    """"no patient has", "only 1 patient has", "only 4 patients have"."""
    if not count:
        return f"no patient {one}"
    return f"only {count} patient {one}" if count == 1 else f"only {count} patients {many}"
