"""A model folder with bad files, dead saves and bad permissions: the store keeps working."""

import errno
import json
import os
import threading
import time
from pathlib import Path

import pytest

from psl_core.errors import ModelFileError
from psl_triage.model_file import store
from psl_triage.model_file.store import StoreError, list_models, load_model, remove_orphans, save_model

# One of each kind of bad file the store may meet (name -> content).
BAD_FILES = {
    "deep-v1.json": "[" * 100_000 + "]" * 100_000,
    "not-json-v1.json": "{ not json",
    "empty-v1.json": "",
    "binary-v1.json": b"\xff\xfe\x00\x01garbage",
    "array-v1.json": "[1, 2, 3]",
    "huge-count-v1.json": None,  # filled from a good file below
    "dataset-list-v1.json": None,
    "columns-text-v1.json": None,
    "long-digits-v1.json": None,
    "surrogate-name-v1.json": None,
}


def fill_bad_folder(folder, model):
    """Writes every file of BAD_FILES into ``folder``; returns the good model's file name."""
    good = save_model(model, "good", {"dataset": {"positive_label": "sick"}}, folder)
    document = json.loads(good.path.read_text(encoding="utf-8"))
    variants = {
        "huge-count-v1.json": ("calibration", 0, "positives", 0, 2**63),
        "dataset-list-v1.json": ("metadata", "dataset", ["a", "list"]),
        "columns-text-v1.json": ("metadata", "columns", "text"),
        "long-digits-v1.json": ("metadata", "n", "BIG"),
        "surrogate-name-v1.json": ("metadata", "name", "\ud800"),  # written as the escape \ud800
    }
    for name, content in BAD_FILES.items():
        if content is None:
            copy = json.loads(json.dumps(document))
            *path, key, value = variants[name]
            target = copy
            for part in path:
                target = target[part]
            target[key] = value
            content = json.dumps(copy).replace('"BIG"', "9" * 5000)
        (folder / name).write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    return good.path.name


def test_a_folder_of_bad_files_lists_the_good_model_and_notes_the_rest(tmp_path, small_list):
    fill_bad_folder(tmp_path, small_list)
    models, problems = list_models(tmp_path)
    assert [m.name for m in models] == ["good"]
    assert len(problems) == len(BAD_FILES)
    for name in BAD_FILES:
        assert any(problem.startswith(name) and "skipped" in problem for problem in problems), name


def test_a_file_is_validated_once_per_version(tmp_path, small_list, monkeypatch):
    save_model(small_list, "good", None, tmp_path)
    list_models(tmp_path)
    calls = []
    monkeypatch.setattr(store, "load_model", lambda path: calls.append(path))
    list_models(tmp_path)
    assert calls == []


def test_orphaned_temporary_files_are_removed_once_a_minute_old(tmp_path, small_list):
    save_model(small_list, "good", None, tmp_path)
    old, fresh = tmp_path / ".saving-dead.partial", tmp_path / ".saving-busy.partial"
    old.write_text("{half")
    fresh.write_text("{half")
    an_hour_ago = time.time() - 3600
    os.utime(old, (an_hour_ago, an_hour_ago))
    models, problems = list_models(tmp_path)
    assert [m.name for m in models] == ["good"] and not problems
    assert not old.exists() and fresh.exists()  # a save may still be writing the fresh one
    assert remove_orphans(tmp_path, min_age_s=0) == 1 and not fresh.exists()


def test_a_users_own_file_named_like_a_save_under_way_is_never_removed(tmp_path, small_list):
    """A sixth re-probe's file: a list of the user's named ".saving-my-precious.json", an hour
    old, was deleted without a word by the first listing (taken for a dead save's leftover)."""
    own = tmp_path / ".saving-my-precious.json"
    own.write_text(save_model(small_list, "good", None, tmp_path).path.read_text())
    an_hour_ago = time.time() - 3600
    os.utime(own, (an_hour_ago, an_hour_ago))
    list_models(tmp_path)
    assert own.exists() and remove_orphans(tmp_path, min_age_s=0) == 0 and own.exists()


def test_a_folder_that_cannot_be_created_gets_a_specific_message(tmp_path, small_list):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    with pytest.raises(StoreError, match="does not exist and cannot be created.*PSL_MODEL_DIR"):
        save_model(small_list, "good", None, blocker / "models")
    models, problems = list_models(blocker)
    assert models == [] and "is a file, not a folder" in problems[0]


def test_a_read_only_folder_gets_a_specific_message(tmp_path, small_list, monkeypatch):
    def refuse(**_):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(store.tempfile, "mkstemp", refuse)
    with pytest.raises(StoreError, match=f"model folder {tmp_path} is not writable.*download the model file"):
        save_model(small_list, "good", None, tmp_path)


def test_a_missing_folder_lists_nothing_without_a_problem(tmp_path):
    assert list_models(tmp_path / "not-yet") == ([], [])


def _listing_in_a_thread(folder):
    """list_models(folder), run where a hang cannot stop the test run: None if it does not return."""
    result = []
    worker = threading.Thread(target=lambda: result.append(list_models(folder)), daemon=True)
    worker.start()
    worker.join(timeout=60)
    return result[0] if result else None


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs and /dev/zero are POSIX")
def test_special_files_in_the_folder_are_skipped_without_reading_them(tmp_path, small_list):
    save_model(small_list, "good", None, tmp_path)
    (tmp_path / "z-v1.json").symlink_to("/dev/zero")
    os.mkfifo(tmp_path / "f-v1.json")
    (tmp_path / "d-v1.json").mkdir()
    listing = _listing_in_a_thread(tmp_path)
    assert listing is not None, "the listing hangs on a special file"
    models, problems = listing
    assert [m.name for m in models] == ["good"]
    assert any(p.startswith("z-v1.json") and "outside the model folder" in p for p in problems), problems
    assert any(p.startswith("f-v1.json") and "FIFO" in p for p in problems), problems
    assert any(p.startswith("d-v1.json") and "folder" in p for p in problems), problems
    with pytest.raises(ModelFileError, match="zero is a device, not a model file"):
        load_model("/dev/zero")  # a device in its own folder


def test_a_link_out_of_the_folder_is_not_followed_a_link_inside_is(tmp_path, small_list):
    outside, folder = tmp_path / "elsewhere", tmp_path / "models"
    outside.mkdir()
    elsewhere = save_model(small_list, "secret", None, outside)
    inside = save_model(small_list, "good", None, folder)
    (folder / "secret-v1.json").symlink_to(elsewhere.path)
    (folder / "alias-v1.json").symlink_to(inside.path.name)
    models, problems = list_models(folder)
    assert sorted(m.path.name for m in models) == ["alias-v1.json", "good-v1.json"]
    assert len(problems) == 1 and problems[0].startswith("secret-v1.json") and "outside the model folder" in problems[0]


def test_reading_stops_at_the_byte_limit_whatever_the_size_said(tmp_path):
    with open("/dev/zero", "rb") as stream:
        assert store._read_at_most(stream.fileno(), 1000) is None  # stops after 1001 bytes
    small = tmp_path / "small-v1.json"
    small.write_bytes(b"x" * 1000)
    handle = os.open(small, os.O_RDONLY)
    try:
        assert store._read_at_most(handle, 1000) == b"x" * 1000
    finally:
        os.close(handle)


def test_a_file_that_grew_past_the_limit_after_listing_is_refused(tmp_path, monkeypatch):
    big = tmp_path / "big-v1.json"
    big.write_bytes(b" " * 5000)
    monkeypatch.setattr(store, "MAX_FILE_BYTES", 4000)
    with pytest.raises(ModelFileError, match="more than"):
        load_model(big)


@pytest.mark.parametrize(
    "metadata",
    [
        {"columns": {"__proto__": {"label": "x"}}},
        {"columns": {"py/object": {"label": "x"}}},
        {"dataset": {"!!python/object": 1}},
        {"columns": {"a": {"label": "x" * 1001}}},
    ],
)
def test_a_save_that_would_not_load_back_is_refused_and_leaves_no_file(tmp_path, small_list, metadata):
    with pytest.raises(StoreError, match="was not saved: its model file would not load again"):
        save_model(small_list, "lost work", metadata, tmp_path)
    assert list(tmp_path.iterdir()) == []
    assert list_models(tmp_path) == ([], [])


def test_a_save_is_loaded_back_before_it_gets_its_name(tmp_path, small_list, monkeypatch):
    loaded = []
    real = store.load_model
    monkeypatch.setattr(store, "load_model", lambda path: loaded.append(Path(path).name) or real(path))
    stored = save_model(small_list, "good", None, tmp_path)
    assert len(loaded) == 1 and loaded[0].startswith(".saving-")  # the file before it is named
    assert stored.path.exists()


@pytest.mark.parametrize(("name", "stem"), [("Πόνος στο στήθος", "πόνος-στο-στήθος"), ("胸痛分诊", "胸痛分诊"),
                                           ("  Sepsis: ICU / v2 ", "sepsis-icu-v2")])
def test_model_names_in_any_script_are_saved_and_listed(tmp_path, small_list, name, stem):
    stored = save_model(small_list, name, None, tmp_path)
    assert stored.path.name == f"{stem}-v1.json"
    models, problems = list_models(tmp_path)
    assert [m.name for m in models] == [name.strip()] and not problems  # kept as clean_name gives it


def test_a_full_disk_is_named_as_such_and_leaves_no_file(tmp_path, small_list, monkeypatch):
    def full(*_):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(store.os, "fsync", full)
    with pytest.raises(StoreError, match=f"model folder {tmp_path}: the disk that holds it is full.*download"):
        save_model(small_list, "good", None, tmp_path)
    assert list(tmp_path.iterdir()) == []
