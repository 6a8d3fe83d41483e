"""The model store: a folder with one versioned JSON file per saved list.

The folder is ``models/`` under the working directory unless the environment variable
``PSL_MODEL_DIR`` names another. A model named "Chest pain triage" is saved as
``chest-pain-triage-v1.json``, the next save under the same name as ``...-v2.json``:
versions are never overwritten. A file is written to a temporary file in the same
folder, flushed to disk and then hard-linked to its final name, which fails instead of
overwriting if another session claimed that version first; the writer then takes the
next version. So a reader never sees a half-written file and two sessions saving at
the same moment both succeed. A temporary file left by a save that was killed midway
(``.saving-*.partial``, a name the store alone writes) is removed by the next listing once it
is a minute old.

The listing validates every file and skips a file that is not a valid model with a note; a
folder that cannot be read or written gets a message that names it and says what to do. Files
are read through one cached loader, :func:`open_model`, keyed by (path, size, modification
time): the listing and the pages that use a saved list read each version of a file once, and
its metadata is parsed once, into a :class:`~psl_triage.model_file.metadata.ModelMetadata`.
The listing keeps what it found of each file of the folder it listed last, and reads again only
the files new or changed since (a folder of 5,000 lists is read once, not at every listing).

Only regular files are read (:func:`read_model_file`): a device, a FIFO or a folder named
like a model file is skipped without opening it for reading, a link is followed only to a
file inside the model folder, and no more than :data:`MAX_FILE_BYTES` are read whatever the
file claims its size is.
"""

import dataclasses
import errno
import functools
import hashlib
import logging
import os
import re
import stat
import tempfile
import threading
import time
import unicodedata
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from psl_core.errors import ModelFileError, PSLError
from psl_core.model import ProbabilisticScoringList
from psl_core.names import UNREADABLE, clean_name, describe_character, look_alike_key, unreadable_character
from psl_core.serialization import MAX_FILE_CHARS
from psl_triage.model_file.meaning import check_description
from psl_triage.model_file.metadata import ModelMetadata
from psl_triage.words import store as words
from psl_triage.words import visible
from psl_triage.words.common import FILE_OF_COPY

ENV_VAR = "PSL_MODEL_DIR"
ORPHAN_AGE_S = 60
"""A temporary file of a save older than this (seconds) belongs to a save that died."""
LISTED_FOLDERS = 8
"""Folders whose last listing is kept (:func:`list_models` reads only what changed since): one
in service, a few more in tests and benchmarks."""
_LISTINGS: dict[str, dict] = {}  # folder -> {path: ((version, size, modified), entry)}, last listed last
_LISTING_LOCK = threading.Lock()
OPEN_CACHE_SIZE = 64
"""Loaded lists kept by :func:`open_model` (the listing keeps a line per file version besides)."""
SLUG_CHARS = 60
"""Most characters of a file name's stem (before "-vN.json")."""
NAME_CHARS_SHOWN = 100
"""Most characters of a list's name in the listing (a 300-character name is cut in its middle)."""
MAX_VERSION_DIGITS = 15
"""Most digits of a version in a file name: more (a 240-digit "-v999...") are part of the name,
so one odd file neither blocks the saves of its name nor shows a number no one can read."""
_FILE = re.compile(rf"^(?P<stem>.+?)(?:-v(?P<version>[0-9]{{1,{MAX_VERSION_DIGITS}}}))?\.json$", re.IGNORECASE | re.DOTALL)
_TEMPORARY_PREFIX, _TEMPORARY_SUFFIX = ".saving-", ".partial"
"""A save's temporary file: ``.saving-`` and eight random characters, then ``.partial``, never a
name that ends in .json, so a user's own file is never taken for one and removed."""
MAX_FILE_BYTES = 4 * MAX_FILE_CHARS  # UTF-8: at most 4 bytes a character
"""Most bytes read of one model file."""
# Opening a FIFO for reading waits for a writer unless non-blocking; no flag on Windows.
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
logger = logging.getLogger("psl_triage")


class StoreError(PSLError):
    """The model folder cannot be used (missing, not a folder, not readable or not writable)."""


def model_dir(directory=None):
    """The store folder: ``directory``, else ``$PSL_MODEL_DIR``, else ``./models``."""
    return Path(directory or os.environ.get(ENV_VAR) or Path.cwd() / "models")


def slugify(name):
    """File-name stem of a model name: its letters and digits, in any script, in lower case,
    with dashes between words ("Chest pain" -> "chest-pain", "Πόνος στο στήθος" ->
    "πόνος-στο-στήθος")."""
    slug = _slug(str(name))
    if not slug:
        raise PSLError(words.NAMELESS_MODEL.format(name=name))
    return slug


def _slug(text):
    """The slug of a name or of a file's stem: one form for names that read the same (NFC and
    NFKC, case, invisible characters, punctuation), so ``café`` written decomposed, as a Mac
    does, or ``Chest-Pain`` are the same name as the app's ``café``, ``chest-pain``. A slug longer
    than :data:`SLUG_CHARS` keeps its start and a digest of the whole: two long names that differ
    only near their ends are two names, not versions of one."""
    slug = re.sub(r"[\W_]+", "-", unicodedata.normalize("NFKC", clean_name(text)).lower()).strip("-")
    if len(slug) <= SLUG_CHARS:
        return slug
    digest = hashlib.sha256(slug.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return f"{slug[:SLUG_CHARS - len(digest) - 1].rstrip('-')}-{digest}"


@dataclass(frozen=True)
class StoredModel:
    """One file of the store."""

    path: Path
    name: str
    version: int | None  # from the file name, else from the file's metadata; None if neither says
    created: str
    file_shown: bool = False  # another file of the listing has the same label: say which file this is

    @property
    def label(self):
        name = _shortened(" ".join(visible(self.name).split()), NAME_CHARS_SHOWN)  # one line, as md gives it
        created = visible(self.created[:16].replace("T", " "))
        if self.version is None:
            return words.STORED_LABEL_UNVERSIONED.format(name=name, file=shown_name(self.path.name), created=created)
        label = words.STORED_LABEL.format(name=name, version=self.version, created=created)
        return FILE_OF_COPY.format(label=label, file=_shortened(shown_name(self.path.name))) if self.file_shown else label


def _shortened(name, limit=60):
    """``name``, its middle left out when longer than ``limit`` characters (a 240-digit version)."""
    return name if len(name) <= limit else f"{name[:limit // 2 - 1]}…{name[-(limit // 2 - 1):]}"


def shown_name(name):
    """A file name as it can be shown: a character that cannot be (a byte of a name that is not
    UTF-8, a control character) as its code, invisible ones too (:func:`visible`)."""
    return visible(UNREADABLE.sub(lambda match: f"⟨U+{ord(match.group()):04X}⟩", name))


@dataclass(frozen=True)
class OpenedModel:
    """A saved list read from its file: the model and its parsed metadata."""

    model: ProbabilisticScoringList
    metadata: ModelMetadata


def save_model(model, name, metadata=None, directory=None):
    """Save a fitted list under ``name`` as the next version; returns the StoredModel.

    ``metadata`` (a :class:`~psl_triage.model_file.metadata.ModelMetadata`, or a JSON-ready dict) is
    written with the model, here and nowhere else (:meth:`ModelMetadata.to_dict`);
    ``name``, ``version`` and ``created`` are set here (``metadata.saved_as(stored)`` gives
    the saved metadata); the name is kept without invisible or direction-control
    characters (:func:`psl_core.names.clean_name`). The file is loaded back (:func:`load_model`) before it gets its
    name: a list whose file would not load again is not saved (StoreError), so whoever shows
    "Saved" after this returns shows it only for a file the listing will offer.
    """
    folder = model_dir(directory)
    slug = slugify(name)
    name = clean_name(str(name))  # NFC, without invisible or direction-control characters
    character = unreadable_character(name)
    if character is not None:  # the list is sound: only the name must change, before anything is written
        raise PSLError(words.UNREADABLE_MODEL_NAME.format(name=shown_name(name), character=describe_character(character)))
    created = datetime.now(UTC).isoformat(timespec="seconds")
    metadata = ModelMetadata.coerce(metadata)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        version = 1 + max((v or 0 for s, v, _ in _files(folder) if s == slug), default=0)
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=_TEMPORARY_PREFIX, suffix=_TEMPORARY_SUFFIX)
    except OSError as exc:
        raise StoreError(words.NOT_SAVED_FOLDER.format(folder=folder, problem=words.folder_problem(exc), env_var=ENV_VAR)) from None
    try:
        while True:
            meta = dataclasses.replace(metadata, name=str(name), version=version, created=created)
            _write(handle, model.to_json(meta.to_dict()), folder)
            _check_loads_back(temporary, name)
            target = folder / f"{slug}-v{version}.json"
            try:
                os.link(temporary, target)
            except FileExistsError:
                version += 1
                continue
            except OSError as exc:
                raise StoreError(words.NOT_SAVED_FOLDER.format(
                    folder=folder, problem=words.folder_problem(exc), env_var=ENV_VAR)) from None
            return StoredModel(target, str(name), version, created)
    finally:
        os.close(handle)
        os.unlink(temporary)


def _write(handle, text, folder):
    """Write ``text`` to the open temporary file and flush it to disk; StoreError if the disk
    refuses (full, over quota, read-only, failing)."""
    try:
        with os.fdopen(os.dup(handle), "w", encoding="utf-8") as stream:
            stream.seek(0)
            stream.truncate()
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
    except OSError as exc:
        if exc.errno in (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)):
            problem = words.DISK_FULL
        else:
            problem = words.NOT_WRITTEN.format(reason=words.os_reason(exc))
        raise StoreError(words.NOT_SAVED_DISK.format(folder=folder, problem=problem)) from None


def _check_loads_back(path, name):
    """Load the file just written, as the listing and Triage will; StoreError if it does not."""
    try:
        load_model(path)
    except PSLError as exc:
        raise StoreError(words.NOT_SAVED_NOT_LOADING.format(name=name, exc=exc)) from None


def _files(folder):
    """(slug, version or None, path) of every model file of ``folder``: a name ending in .json
    (any case), with or without "-vN" (a downloaded file has none), in any Unicode form."""
    for path in folder.iterdir():
        match = _model_name(path.name)
        if match:
            yield _slug(match["stem"]), None if match["version"] is None else int(match["version"]), path


def _model_name(name):
    if name.startswith(_TEMPORARY_PREFIX):
        return None
    # "-v１" (full-width) is version 1, and "x.json " (a space typed after it) a model file, as a reader sees them
    return _FILE.match(unicodedata.normalize("NFKC", name).strip())


def _not_listed(folder):
    """Sentences naming every file of ``folder`` the store does not read as a model file (its
    name does not end in .json); hidden files (.DS_Store) and the saves under way excepted."""
    return [words.NOT_A_MODEL_FILE_NAME.format(name=shown_name(path.name)) for path in sorted(folder.iterdir())
            if not path.name.startswith(".") and not _model_name(path.name)]



def remove_orphans(folder, min_age_s=ORPHAN_AGE_S):
    """Delete the temporary files of saves that died (older than ``min_age_s`` seconds).

    Returns the number removed; a file that cannot be removed (read-only folder) stays.
    """
    removed = 0
    now = time.time()
    for path in folder.glob(f"{_TEMPORARY_PREFIX}*{_TEMPORARY_SUFFIX}"):
        try:
            if now - path.stat().st_mtime >= min_age_s:
                path.unlink()
                removed += 1
        except OSError:
            continue
    return removed


def list_models(directory=None):
    """Saved models, newest first, and the files that could not be used. Never raises.

    Every file is validated (:func:`load_model`); one that is not a valid model file is
    skipped with a note. Orphaned temporary files of killed saves are removed
    (:func:`remove_orphans`).

    Returns
    -------
    models : list of StoredModel
    problems : list of str
        One sentence per file skipped, or on the folder itself (the store stays usable).
    """
    folder = model_dir(directory)
    try:
        if not folder.exists():
            return [], []
        if not folder.is_dir():
            return [], [words.FOLDER_IS_FILE.format(folder=folder)]
        remove_orphans(folder)
        entries = sorted(_files(folder), key=lambda entry: entry[2].name)
        not_listed = _not_listed(folder)
    except OSError as exc:
        return [], [words.FOLDER_UNREADABLE.format(folder=folder, reason=words.os_reason(exc))]
    models, problems = [], not_listed
    for entry in _listed_entries(folder, entries):
        (models if isinstance(entry, StoredModel) else problems).append(entry)
    models.sort(key=lambda m: (m.created, m.version or 0), reverse=True)
    return _told_apart(models), problems


def _told_apart(models):
    """``models``, those whose labels read alike (a copy, a link, "-v01" beside "-v1", a version
    in full-width digits) labelled with their file names, so no two entries read the same."""
    labels = Counter(look_alike_key(model.label) for model in models)
    return [dataclasses.replace(model, file_shown=True) if labels[look_alike_key(model.label)] > 1 else model
            for model in models]


def _listed_entries(folder, entries):
    """The listing's entry (:func:`_stored_model`) of each file of ``entries``, read only when the
    file is new or changed (size, modification time) since the folder's last listing.

    What a listing found is kept per folder for exactly the files the folder holds (a file gone is
    forgotten): a fixed number of entries for all folders made a folder of more files than it
    push out each file before its next listing, and every listing read them all again."""
    key = str(folder.resolve())
    with _LISTING_LOCK:
        known = _LISTINGS.get(key, {})
    found, listed = {}, []
    for _, version, path in entries:
        try:
            info = path.stat()
            stamp = (version, info.st_size, info.st_mtime_ns)
            kept = known.get(path)
            entry = kept[1] if kept is not None and kept[0] == stamp else _stored_model(path, *stamp)
            found[path] = (stamp, entry)
        except OSError as exc:
            entry = words.FILE_UNREADABLE_SKIPPED.format(name=shown_name(path.name), reason=words.os_reason(exc))
        listed.append(entry)
    with _LISTING_LOCK:
        _LISTINGS.pop(key, None)
        _LISTINGS[key] = found
        while len(_LISTINGS) > LISTED_FOLDERS:
            _LISTINGS.pop(next(iter(_LISTINGS)))
    return listed


def _stored_model(path, version, size, modified_ns):
    """The StoredModel of a valid file, else the sentence that says why it is skipped."""
    if size > MAX_FILE_BYTES:
        return words.file_too_large_skipped(shown_name(path.name), size)
    try:
        meta = _opened(path, size, modified_ns).metadata
    except PSLError as exc:
        return words.FILE_SKIPPED.format(name=shown_name(path.name), exc=exc)
    except Exception as exc:  # noqa: BLE001 - one bad file must never break the listing for everyone
        logger.exception("unexpected error while reading %s", path)
        return words.FILE_SKIPPED_UNREADABLE.format(name=shown_name(path.name), error=type(exc).__name__)
    return StoredModel(path, meta.name or shown_name(path.stem), meta.version if version is None else version, meta.created or "")


def open_model(path):
    """The saved list at ``path`` with its parsed metadata (an :class:`OpenedModel`).

    The one cached loader of saved lists: kept per (path, size, modification time), so a file
    replaced under the same name is read again. Raises ModelFileError (OSError when the file
    is gone).
    """
    info = Path(path).stat()
    return _opened(Path(path), info.st_size, info.st_mtime_ns)


@functools.lru_cache(maxsize=OPEN_CACHE_SIZE)
def _opened(path, size, modified_ns):
    return _read(path)


def load_model(path):
    """Load and validate a stored model file, its list and what its description says of the
    list (:func:`~psl_triage.model_file.meaning.check_description`); raises ModelFileError if
    it is not a valid model file."""
    return _read(path).model


def _read(path):
    # The metadata is parsed once, by the check (a large description takes a while to copy).
    model = ProbabilisticScoringList.from_json(read_model_file(path))
    return OpenedModel(model, check_description(model))


def read_model_file(path):
    """The bytes of the model file ``path``, read safely; raises ModelFileError.

    Only a regular file is read; a link is followed only to a file inside the folder that
    holds ``path``; at most :data:`MAX_FILE_BYTES` are read (a file that holds more is refused),
    whatever its size said when it was listed.
    """
    path = Path(path)
    try:
        target = path.resolve(strict=True)
        if not target.is_relative_to(path.parent.resolve()):
            raise ModelFileError(words.LINK_OUTSIDE_FOLDER.format(name=shown_name(path.name)))
        handle = os.open(target, _OPEN_FLAGS)
    except OSError as exc:
        raise ModelFileError(words.FILE_UNREADABLE.format(name=shown_name(path.name), reason=words.os_reason(exc))) from None
    except RuntimeError:  # Path.resolve before Python 3.13: a cycle of links
        raise ModelFileError(words.LINK_CYCLE.format(name=shown_name(path.name))) from None
    try:
        mode = os.fstat(handle).st_mode
        if not stat.S_ISREG(mode):
            raise ModelFileError(words.NOT_A_REGULAR_FILE.format(name=shown_name(path.name), kind=words.kind_of_file(mode)))
        data = _read_at_most(handle, MAX_FILE_BYTES)
    except OSError as exc:
        raise ModelFileError(words.FILE_UNREADABLE.format(name=shown_name(path.name), reason=words.os_reason(exc))) from None
    finally:
        os.close(handle)
    if data is None:
        raise ModelFileError(words.file_too_large(shown_name(path.name), MAX_FILE_BYTES))
    return data


def _read_at_most(handle, limit):
    """The bytes of the open file ``handle``, or None once it yields more than ``limit``."""
    chunks, n_read = [], 0
    while chunk := os.read(handle, min(2**20, limit + 1 - n_read)):
        chunks.append(chunk)
        n_read += len(chunk)
        if n_read > limit:
            return None
    return b"".join(chunks)
