"""The model store: a folder with one versioned JSON file per saved list.

The folder is ``models/`` under the working directory unless the environment variable
``PSL_MODEL_DIR`` names another. A model named "Chest pain triage" is saved as
``chest-pain-triage-v1.json``, the next save under the same name as ``...-v2.json``:
versions are never overwritten. A file is written to a temporary file in the same
folder, flushed to disk and then hard-linked to its final name, which fails instead of
overwriting if another session claimed that version first; the writer then takes the
next version. So a reader never sees a half-written file and two sessions saving at
the same moment both succeed.
"""

import json
import os
import re
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from psl_core.errors import ModelFileError, PSLError
from psl_core.model import ProbabilisticScoringList

ENV_VAR = "PSL_MODEL_DIR"
_FILE = re.compile(r"^(?P<slug>[a-z0-9][a-z0-9-]*)-v(?P<version>[0-9]+)\.json$")


def model_dir(directory=None):
    """The store folder: ``directory``, else ``$PSL_MODEL_DIR``, else ``./models``."""
    return Path(directory or os.environ.get(ENV_VAR) or Path.cwd() / "models")


def slugify(name):
    """File-name stem of a model name: lower-case letters, digits and dashes."""
    slug = re.sub(r"[^a-z0-9]+", "-", str(name).lower()).strip("-")
    if not slug:
        raise PSLError(f"model name {name!r} has no letters or digits: give it a name")
    return slug[:60]


@dataclass(frozen=True)
class StoredModel:
    """One file of the store."""

    path: Path
    name: str
    version: int
    created: str

    @property
    def label(self):
        return f"{self.name} (v{self.version}, {self.created[:16].replace('T', ' ')})"


def save_model(model, name, metadata=None, directory=None):
    """Save a fitted list under ``name`` as the next version; returns the StoredModel.

    ``metadata`` (JSON-ready dict) is stored with the model; ``name``, ``version`` and
    ``created`` are set here.
    """
    folder = model_dir(directory)
    folder.mkdir(parents=True, exist_ok=True)
    slug = slugify(name)
    created = datetime.now(UTC).isoformat(timespec="seconds")
    version = 1 + max((v for s, v, _ in _files(folder) if s == slug), default=0)
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=".saving-", suffix=".json")
    try:
        while True:
            meta = dict(metadata or {}, name=str(name), version=version, created=created)
            with os.fdopen(os.dup(handle), "w", encoding="utf-8") as stream:
                stream.seek(0)
                stream.truncate()
                stream.write(model.to_json(meta))
                stream.flush()
                os.fsync(stream.fileno())
            target = folder / f"{slug}-v{version}.json"
            try:
                os.link(temporary, target)
            except FileExistsError:
                version += 1
                continue
            return StoredModel(target, str(name), version, created)
    finally:
        os.close(handle)
        os.unlink(temporary)


def _files(folder):
    for path in folder.glob("*.json"):
        match = _FILE.match(path.name)
        if match:
            yield match["slug"], int(match["version"]), path


def list_models(directory=None):
    """Saved models, newest first, and the files that could not be read.

    Returns
    -------
    models : list of StoredModel
    problems : list of str
        One sentence per unreadable file (the store stays usable).
    """
    folder = model_dir(directory)
    if not folder.is_dir():
        return [], []
    models, problems = [], []
    for _, version, path in _files(folder):
        try:
            meta = json.loads(path.read_text(encoding="utf-8")).get("metadata", {})
            models.append(StoredModel(path, str(meta.get("name", path.stem)), version, str(meta.get("created", ""))))
        except (OSError, ValueError, AttributeError) as exc:
            problems.append(f"{path.name} could not be read ({type(exc).__name__}); it is skipped")
    models.sort(key=lambda m: (m.created, m.version), reverse=True)
    return models, problems


def load_model(path):
    """Load and validate a stored model file; raises ModelFileError if it is not one."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ModelFileError(f"the model file {Path(path).name} cannot be read: {exc}") from None
    return ProbabilisticScoringList.from_json(text)
