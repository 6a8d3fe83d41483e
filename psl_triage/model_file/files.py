"""Reading and naming model files on the Train page: the name a list is saved under, the
file name of a download, an uploaded file read into a validated list.
"""

from __future__ import annotations

from psl_core.errors import ModelFileError, PSLError
from psl_core.model import ProbabilisticScoringList
from psl_triage.model_file.meaning import check_description
from psl_triage.model_file.store import slugify


def download_file_name(name):
    """File name of a downloaded model: the model name's slug, "psl-model" without one."""
    try:
        return f"{slugify(name)}.json"
    except PSLError:
        return "psl-model.json"


def read_model_upload(data, filename):
    """A validated list from an uploaded model file's bytes.

    Raises
    ------
    ModelFileError
        The file is not UTF-8 text or not a valid model file; the message names the file.
    """
    try:
        model = ProbabilisticScoringList.from_json(bytes(data))
        check_description(model)
        return model
    except ModelFileError as exc:
        raise ModelFileError(f"{filename}: {exc}") from None
