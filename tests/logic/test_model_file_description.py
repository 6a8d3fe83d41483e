"""A model file whose description would mislead a reader is refused where the app reads it
(issue 40, item 1): answers or questions that read alike, an answer that shows nothing,
classes that read alike, counts no table can have. The store's loader, its listing and the
Train page's upload say why; the untouched file loads."""

import json
import re

import pytest

from psl_core import ModelFileError
from psl_triage.model_file.files import read_model_upload
from psl_triage.model_file.store import list_models, load_model
from tests.hostile_corpus import meaning_document, meaningless_files, misleading_descriptions

DOCUMENT = meaning_document()


@pytest.mark.parametrize("name", list(misleading_descriptions(DOCUMENT)))
def test_a_misleading_description_is_refused_by_the_store_and_the_upload(name, tmp_path):
    text, reason = misleading_descriptions(DOCUMENT)[name]
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ModelFileError, match=reason):
        load_model(path)
    with pytest.raises(ModelFileError, match=f"{name}: .*{reason}"):
        read_model_upload(text.encode(), name)
    models, problems = list_models(tmp_path)
    assert models == [] and len(problems) == 1 and problems[0].startswith(name)


def test_the_untouched_description_loads(tmp_path):
    path = tmp_path / "meaning-v1.json"
    path.write_text(json.dumps(DOCUMENT), encoding="utf-8")
    assert load_model(path).literals_
    models, problems = list_models(tmp_path)
    assert [m.path for m in models] == [path] and problems == []


def test_every_meaningless_list_is_skipped_by_the_listing_with_its_reason(tmp_path):
    files = meaningless_files(DOCUMENT)
    for name, (text, _) in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    models, problems = list_models(tmp_path)
    assert models == []
    for name, (_, reason) in files.items():
        assert any(problem.startswith(name) and re.search(reason, problem) for problem in problems), name
