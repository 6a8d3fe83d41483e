"""A corpus of hostile inputs (issue 31): tables and model files of the kinds that once broke
the app, written to a folder, and the upload -> train -> save -> list -> load -> triage path
they are fed through.

Used by tests/logic/test_hostile_corpus.py (every input through the app's logic, plus random
tables from Hypothesis) and tests/browser/test_hostile_corpus_memory.py (the real server's
memory on the whole corpus; ``bench/hostile_memory.py`` runs it and prints the figure).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import numpy as np
import pandas as pd

from psl_core import ProbabilisticScoringList, PSLError
from psl_core.decision import StageBands
from psl_triage.data import guess_outcome, guess_positive_class, infer_column_types, load_table, prepare_training_data
from psl_triage.questions import build_questions
from psl_triage.store import list_models, load_model, save_model
from psl_triage.training import TrainingOptions, readable_columns, train_list
from psl_triage.words import md

HOST = "http://127.0.0.1:9"
MARKDOWN = f"![p]({HOST}/p.png) [l]({HOST}/l) <img src={HOST}/i.png> :red[x]"


def _csv(header, rows):
    return (",".join(header) + "\n" + "".join(",".join(map(str, row)) + "\n" for row in rows)).encode()


def _table(names, n=120, seed=0, values=None):
    """A CSV whose first column predicts the last (the outcome, 0/1)."""
    rng = np.random.default_rng(seed)
    outcome = rng.integers(0, 2, n)
    columns = {names[0]: (outcome * 20 + rng.normal(50, 8, n)).round(1)}
    for name in names[1:-1]:
        columns[name] = rng.choice(values or ["a", "b", "c"], n)
    columns[names[-1]] = outcome
    return pd.DataFrame(columns).to_csv(index=False).encode()


def hostile_tables() -> dict[str, bytes]:
    """File name -> content of each hostile table."""
    rows = [(i, i % 2, i % 3) for i in range(60)]
    tables = {
        "markdown-names.csv": _table([f"age {MARKDOWN}", f"pain {MARKDOWN}", f"died {MARKDOWN}"],
                                     values=[f"typical {MARKDOWN}", "none", "atypical"]),
        f"{MARKDOWN}.csv": _table(["age", "sex", "outcome"]),
        "look-alike-names.csv": _csv(["m", "m\u200b", "y"], rows),
        "full-width-names.csv": _csv(["age", "\uff41\uff47\uff45", "y"], rows),
        "bidi-names.csv": _table(["\u202eega", "sex\u200b", "outcome"]),
        "look-alike-values.csv": _table(["age", "sex", "outcome"], values=["male", "m\u0430le"]),
        "code-names.csv": _csv(["age", "__proto__", "y"], rows),
        "yaml-names.csv": _csv(["age", "!!python/object", "y"], rows),
        "long-name.csv": _csv(["age", "n" * 1001, "y"], rows),
        "long-category.csv": _table(["age", "note", "outcome"], values=["x" * 1001, "short"]),
        "control-cell.csv": _csv(["age", "sex", "y"], [(i, "m\x1b[31m" if i == 3 else "f", i % 2) for i in range(200)]),
        "utf32.csv": _table(["age", "sex", "outcome"]).decode().encode("utf-32"),
        "utf16-lone-surrogate.csv": "age,sex\n1,\ud800\n".encode("utf-16", "surrogatepass"),
        "quoted-decimal-comma.csv": ("weight,y\n" + "".join(f'"{60 + i % 20},{i % 10}",{i % 2}\n'
                                                          for i in range(80))).encode(),
        "quoted-repeat-header.csv": b'a, "a",y\n' + b"1,2,0\n3,4,1\n" * 30,
        "wide-501.csv": _csv([f"c{i}" for i in range(501)], [[i % 2] * 501 for i in range(5)]),
        "greek-and-chinese.csv": _table(["ηλικία", "性别", "έκβαση"], values=["男", "女"]),
        "dates.csv": _csv(["when", "age", "y"], [(f"2020-01-{1 + i % 28:02d}", i, i % 2) for i in range(60)]),
        "infinite.csv": _csv(["age", "lab", "y"], [(i, "inf" if i % 7 == 0 else i * 1.5, i % 2) for i in range(60)]),
        "huge-numbers.csv": _csv(["age", "lab", "y"], [(i, "9" * 400, i % 2) for i in range(60)]),
        "complex-text.csv": _csv(["age", "z", "y"], [(i, f"{i}+{i}j", i % 2) for i in range(60)]),
        "binary-garbage.csv": bytes(range(256)) * 40,
        "one-column.csv": b"y\n0\n1\n" * 30,
        "header-only.csv": b"age,y\n",
        "empty.csv": b"",
    }
    return tables


def write_tables(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for index, (name, data) in enumerate(hostile_tables().items()):
        # File names with Markdown keep their text in the upload name, not in the file system.
        path = folder / f"{index:02d}-{re.sub(r'[^A-Za-z0-9.-]+', '_', name)[:60]}"
        path.write_bytes(data)
        paths.append(path)
    return paths


def _good_document():
    rng = np.random.default_rng(3)
    n = 300
    X = pd.DataFrame({"age": rng.integers(30, 80, n).astype(float), "smoker": rng.integers(0, 2, n)})
    y = ((X["age"] > 60) ^ (rng.random(n) < 0.2)).astype(int)
    model = ProbabilisticScoringList(min_support=5).fit(X, y)
    return json.loads(model.to_json({"name": "good", "version": 1}))


def with_change(document, path, value):
    """JSON text of ``document`` with the value at ``path`` (keys and positions) replaced."""
    copy = json.loads(json.dumps(document))
    target = copy
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return json.dumps(copy)


def write_model_folder(folder: Path) -> dict[str, str]:
    """A model folder of one good list and hostile files; returns file name -> kind."""
    folder.mkdir(parents=True, exist_ok=True)
    document = _good_document()
    (folder / "good-v1.json").write_text(json.dumps(document), encoding="utf-8")
    contradicting = json.loads(json.dumps(document))
    contradicting["calibration"][-1]["probabilities"] = [0.999] * len(contradicting["calibration"][-1]["totals"])
    files = {
        "surrogate-name-v1.json": with_change(document, ["metadata", "name"], "\ud800"),
        "many-keys-v1.json": with_change(document, ["metadata", "blob"],
                                      {f"k{i}": {f"j{j}": j for j in range(7)} for i in range(7000)}),
        "look-alike-classes-v1.json": with_change(document, ["classes"], ["well", "w\u0435ll"]),
        "contradicting-v1.json": json.dumps(contradicting),
        "deep-v1.json": "[" * 100_000 + "]" * 100_000,
        "code-key-v1.json": with_change(document, ["metadata", "__proto__"], {"polluted": True}),
        "markdown-name-v1.json": with_change(document, ["metadata", "name"], MARKDOWN),
        "not-json-v1.json": "{ not json",
    }
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8", errors="surrogatepass")
    kinds = {name: "file" for name in files}
    kinds["good-v1.json"] = "good"
    kinds["markdown-name-v1.json"] = "good"
    if hasattr(os, "mkfifo"):
        os.mkfifo(folder / "fifo-v1.json")
        (folder / "zero-v1.json").symlink_to("/dev/zero")
        outside = folder.parent / "outside-v1.json"
        outside.write_text(json.dumps(document), encoding="utf-8")
        (folder / "outside-v1.json").symlink_to(outside)
        (folder / "dir-v1.json").mkdir()
        with open(folder / "sparse-v1.json", "wb") as stream:  # 100 MB that occupy no disk
            stream.truncate(100 * 2**20)
        kinds.update(dict.fromkeys(["fifo-v1.json", "zero-v1.json", "outside-v1.json", "dir-v1.json",
                                    "sparse-v1.json"], "special"))
    return kinds


# ----------------------------------------------------------------------- the path
def through_the_app(name: str, data: bytes, folder: Path) -> str:
    """Feed one upload through upload -> train -> save -> list -> load -> triage.

    Returns where it stopped: "refused at upload", "refused at preparation", "not saved" (a
    save refused with a reason) or "triaged". Raises on anything else: an exception that is not
    a PSLError, or a save that does not list and load back.
    """
    try:
        loaded = load_table(data, name, max_bytes=50 * 2**20)
    except PSLError:
        return "refused at upload"
    df = loaded.frame
    for text in [*map(str, df.columns), *loaded.notes]:
        assert "](" not in md(text).replace("\\]\\(", ""), text  # every name escapes to text
    types = infer_column_types(df)
    outcome = guess_outcome(df, types) or next(
        (column for column in df.columns if df[column].nunique() == 2), None)
    if outcome is None:
        return "refused at preparation"
    positive = guess_positive_class(df[outcome])
    try:
        prepared = prepare_training_data(df, types, outcome, positive, "drop")
        model, metadata = train_list(prepared, name, TrainingOptions(max_stages=3))
    except PSLError:
        return "refused at preparation"
    try:
        stored = save_model(model, name, metadata, folder)
    except PSLError:
        return "not saved"
    models, _ = list_models(folder)
    assert stored.path in [entry.path for entry in models], f"{stored.path.name} saved but not listed"
    loaded_model = load_model(stored.path)
    questions = build_questions(loaded_model, readable_columns(loaded_model.metadata_))
    bands = StageBands(loaded_model, 0.95)
    assert len(questions) == len(loaded_model.literals_) and bands is not None
    return "triaged"
