"""The words of the model folder (:mod:`psl_triage.model_file.store`): why a list was not saved, and why
a saved file is skipped or cannot be read. File and folder names are plain text here; the
pages show these sentences with :func:`psl_triage.words.md`.
"""

import stat


def os_reason(exc):
    """An OSError's own words, or its type's name when it has none."""
    return exc.strerror or type(exc).__name__


def file_too_large_skipped(name, size):
    """A saved file over the size limit, skipped in the listing (``size`` in bytes)."""
    return f"{name} is {size / 2**20:.0f} MB, too large for a model file; it is skipped"


def file_too_large(name, max_file_bytes):
    """A model file holding more than the limit (``max_file_bytes``)."""
    return f"the model file {name} holds more than {max_file_bytes // 2**20} MB, too large for a model file"


def folder_problem(exc):
    """What is wrong with a folder, from the OSError of using it."""
    if isinstance(exc, PermissionError):
        return "is not writable (or not readable) by the app"
    if isinstance(exc, (FileNotFoundError, NotADirectoryError, FileExistsError)):
        return "does not exist and cannot be created (a file may stand in its way)"
    return f"cannot be used ({os_reason(exc)})"


def kind_of_file(mode):
    """What a file that is not a regular file is, in words: "a folder", "a named pipe (FIFO)"."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


STORED_LABEL = "{name} (v{version}, {created})"
"""A saved list in the picker: its name, version and time saved."""
UNREADABLE_MODEL_NAME = ("The model name '{name}' holds {character}, which cannot be shown and which a model file "
                        "cannot hold. Change the name and save again.")
NAMELESS_MODEL = "model name {name!r} has no letters or digits: give it a name"
NOT_SAVED_FOLDER = "The list cannot be saved: the model folder {folder} {problem}. Ask whoever runs the app to make it a writable folder, or to point {env_var} at one. Meanwhile, download the model file instead."
DISK_FULL = "the disk that holds it is full (or the app's quota on it is used up)"
NOT_WRITTEN = "it could not be written ({reason})"
NOT_SAVED_DISK = "The list was not saved in the model folder {folder}: {problem}. Ask whoever runs the app to free space; meanwhile, download the model file instead."
NOT_SAVED_NOT_LOADING = "The list {name!r} was not saved: its model file would not load again ({exc}). Rename what the message names (in your table or the model name) and train again."
FOLDER_IS_FILE = "The model folder {folder} is a file, not a folder; no saved list can be shown"
FOLDER_UNREADABLE = "The model folder {folder} cannot be read ({reason}); ask whoever runs the app to check its permissions"
FILE_UNREADABLE_SKIPPED = "{name} cannot be read ({reason}); it is skipped"
FILE_SKIPPED = "{name} is skipped: {exc}"
FILE_SKIPPED_UNREADABLE = "{name} is skipped: it could not be read ({error})"
LINK_OUTSIDE_FOLDER = "the model file {name} is a link to a file outside the model folder; links out of the folder are not followed: copy the file into the folder"
FILE_UNREADABLE = "the model file {name} cannot be read ({reason})"
LINK_CYCLE = "the model file {name} cannot be read (a link in a cycle of links)"
NOT_A_REGULAR_FILE = "{name} is {kind}, not a model file; it is not read"
DESCRIPTION_CONTRADICTS = "not a valid model file: {problem}; the file was edited or is damaged"
CLASS_NAMES = "the outcome's two classes"
QUESTION_NAMES = "the list's questions"


def answers_of(question):
    """The answers to one question, named by the question's label."""
    return f"the answers to {question!r}"


def nothing_to_read(what, text):
    """A name of ``what`` that shows no character."""
    return f"{what} include {text!r}, which shows nothing to read"


def read_alike(what, first, second):
    """Two names of ``what`` a reader cannot tell apart."""
    if first == second:
        return f"{what} include {first!r} twice"
    return f"{what} include {first!r} and {second!r}, which read alike"


def _first_names(columns):
    return ", ".join(repr(name) for name in columns[:5]) + (", ..." if len(columns) > 5 else "")


def asked_not_described(asked, described):
    """A description of columns none of which the list asks (another list's, glued on)."""
    return (f"the list asks {_first_names(asked)}, but its description describes none of these columns (it "
            f"describes {_first_names(described)}): the description is another list's, or the file was edited")


def asked_against_kind(column, asked, kind):
    """A column the list asks one way that the description records as another kind."""
    return f"the list asks {column!r} as {asked}, but the description records it as {kind}"


def unseen_categories(column, unseen, known):
    """A question on levels the column's recorded levels do not include."""
    return (f"the list asks whether {column!r} is {', '.join(map(repr, unseen[:3]))}, which the column's "
            f"recorded levels ({', '.join(map(repr, known[:6]))}{', ...' if len(known) > 6 else ''}) do not include: "
            "no patient of the training table could answer yes")


def count_not_whole(key, value):
    """A count of the training table that is not a whole number >= 0."""
    return f"dataset.{key} is {value!r}; a count of patients is a whole number, 0 or more"


def more_rows_than_source(n_rows, n_source):
    """More rows kept for training than the source table had."""
    return f"dataset.n_rows is {n_rows}, more than the {n_source} rows of the source table (n_rows_source)"


def fewer_rows_than_list(n_rows, counted):
    """A training table smaller than the patients the list's own counts hold."""
    return (f"the table it records has {n_rows} patients, but the list's own counts hold {counted}: the list "
            "was not estimated on that table")


def measure_out_of_range(part, measure, value, low, high):
    """A recorded performance measure outside the values it can take."""
    bound = f"from {low:g} to {high:g}" if high != float("inf") else f"{low:g} or more"
    return f"performance.{part}.{measure} records {value!r}; that measure takes values {bound}"


def range_out_of_order(column, first, low, second, high):
    """Quantiles of a column's training range out of order."""
    return (f"the training range of {column!r} has {first} = {low!r} above {second} = {high!r}; "
            "its quantiles run from the smallest to the largest")


def parts_beyond_rows(parts, n_rows):
    """Patients per outcome that add up to more than the table's rows."""
    listed = ", ".join(f"{key} = {value}" for key, value in parts.items())
    return f"dataset records {listed}: more than its n_rows = {n_rows} patients"
STORED_LABEL_UNVERSIONED = "{name} ({file}, {created})"
NOT_A_MODEL_FILE_NAME = "{name} is not read: a model file's name ends in .json"


RISKS_NOT_CHECKED = (
    "This list was saved by an earlier version of PSL Triage (model file version 1), which did not record "
    "everything its risks were computed from, so they could not be checked against the patient counts they "
    "were estimated from. To have them checked, open it on Train and save it again: a list learned without "
    "row weights is then saved in the current format and checked on every load. A list learned with weights "
    "or a horizon, or recalibrated at a site, cannot be checked that way: train it again on its table (or "
    "recalibrate it on Validate) and save the new list."
)
"""A list read from a model file of version 1 (``probabilities_checked_`` False), on every page that opens it."""
