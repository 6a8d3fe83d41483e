"""A corpus of hostile inputs (issue 31): tables and model files of the kinds that once broke
the app (the model files written to a folder), and the upload -> train -> save -> list -> load
-> triage path they are fed through.

Used by tests/logic/test_hostile_corpus.py (every input through the app's logic, plus random
tables from Hypothesis) and tests/browser/test_hostile_corpus_memory.py (the real server's
memory on the whole corpus; ``bench/hostile_memory.py`` runs it and prints the figure).
"""

from __future__ import annotations

import functools
import gzip
import io
import json
import os
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

from psl_core import ProbabilisticScoringList, PSLError
from psl_core.decision import StageBands
from psl_core.survival import survival_outcome
from psl_core.validation import recalibrate
from psl_triage.bedside.questions import build_questions
from psl_triage.data import guess_outcome, guess_positive_class, infer_column_types, load_table, prepare_training_data
from psl_triage.model_file.store import list_models, load_model, save_model
from psl_triage.training.fit import train_list
from psl_triage.training.options import TrainingOptions
from psl_triage.training.tables import readable_columns
from psl_triage.words import md

HOST = "http://127.0.0.1:9"
MARKDOWN = f"![p]({HOST}/p.png) [l]({HOST}/l) <img src={HOST}/i.png> :red[x]"


# Cells a spreadsheet's import may read as formulas once it trims leading white space or folds
# full-width forms (issue 40, re-probe of item 3); every CSV the app writes neutralises them.
FORMULAS_IN_DISGUISE = ("\uff1d1+1", " =HYPERLINK(\"http://127.0.0.1:9\")", "\u00a0=1+1", "\u3000+cmd|' /C calc'!A0",
                        "\uff20SUM(1+1)", "\uff0d2+3", "\ufe661+1",
                        # Issue 40, fourth probe: behind characters that draw nothing (a byte-order
                        # mark opening the file is taken for the encoding's mark, then =1+1 runs).
                        "\ufeff=1+1", "\u200b=HYPERLINK(\"http://127.0.0.1:9\")", "\u2060\u00a0@SUM(1+1)",
                        "\u202e-2+3")


# Names a model file may hold that a direction control draws as another text (issue 40, fifth
# probe): an override reverses "lamron" into "normal", an isolate hides where a name ends. The
# file reads apart (the controls are no letters); every place that draws a name shows their code.
DIRECTION_SPOOFS = ("\u202elamron", "\u2067\u202eepyt niap\u2069", "a\u202db", "\u200fleft", "\u2066x\u2069")


# Values of PSL_FRAME_ANCESTORS (issue 40, re-probe of item 4) -> the origins allowed, or None
# when the server must refuse to start with the reason.
FRAME_ANCESTOR_SETTINGS = {
    "https://portal.example.org:8443": ("https://portal.example.org:8443",),
    "https://portal.example.org:99999": None, "https://portal.example.org:0": None, "http://intranet:65536": None,
    "https://*.example.org:443": None, "https://portal.example.org/": None, "HTTPS://PORTAL.EXAMPLE.ORG": None,
    "https://krankenhaus-m\u00fcnchen.example": None, "https://a.example\nX-Injected: 1": None,
    "https://a.example\u00a0https://b.example": ("https://a.example", "https://b.example"),
    # Issue 40, fourth probe: host names no browser takes as an origin's, and settings that are well.
    "https://portal..example.org": None, "https://portal.example.org.": None, "https://-portal.example.org": None,
    "https://portal.-x.example": None, f"https://{'a' * 64}.example": None, "'self'": None, "portal.example.org": None,
    "https://a.example,https://b.example/": None,
    "https://a.example,http://b.example:8080": ("https://a.example", "http://b.example:8080"),
    "\thttps://xn--mnchen-3ya.example\n": ("https://xn--mnchen-3ya.example",),
}


# Horizons of tests.tables.follow_up_table(seed=1) (in days) that leave a class at the horizon
# too small to learn from (issue 40, re-probe of item 6) -> what the Data page's refusal says.
HORIZONS_TOO_NEAR_AN_END = [
    (2936.0, r"only 1 patient is followed beyond 2936 days.*choose a horizon below 2702 days"),
    (2985.0, r"no patient is followed beyond 2985 days"),
    (5.0, r"only 2 patients have the event within 5 days.*choose a horizon of at least 37 days"),
    (0.0, r"no patient has the event within 0 days"),
    (-5.0, r"no patient has the event within -5 days"),
]


# Values of PSL_MAX_UPLOAD_MB (issue 40, re-probe of item 6) -> the limit taken, or None when the
# server must refuse to start with the reason.
UPLOAD_LIMIT_SETTINGS = {
    "3000000000": None, "9" * 30: None, "10001": None, "5.0": None, "1e3": None, "-0": None,
    "10000": 10_000, " 0050 ": 50, "\uff15\uff10": 50, "1_000": 1000,
}


def _csv(header, rows):
    return (",".join(header) + "\n" + "".join(",".join(map(str, row)) + "\n" for row in rows)).encode()


def _table(names, n=120, seed=0, values=None):
    """A CSV whose first column predicts the last (the outcome, 0/1), well but not alone so far
    ahead of the others that it is proposed out (held-out AUC about 0.8)."""
    rng = np.random.default_rng(seed)
    outcome = rng.integers(0, 2, n)
    columns = {names[0]: (outcome * 10 + rng.normal(50, 8, n)).round(1)}
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
        # Issue 40, item 6: files read right or refused with the reason.
        "nul-bytes.csv": _table(["age", "sex", "outcome"]).replace(b"\n5", b"\n\x005", 1),
        "encrypted.xlsx": ENCRYPTED_WORKBOOK,
        "mixed-encodings.csv": MIXED_ENCODINGS,
        "percent-beside-fraction.csv": _csv(["age", "saturation", "y"], [
            (40 + i % 30, f"{90 + i % 10}%" if i % 2 else f"0.9{i % 10}", int(i % 30 > 15)) for i in range(80)]),
        "hidden-first-sheet.xlsx": workbook(hidden_first=True),
        "formulas-without-values.xlsx": workbook(formulas=True),
        "near-largest-float.csv": _csv(["age", "lab", "y"], [(i, 1.7e308 + i * 1e306 if i % 3 == 0 else i % 7, i % 2)
                                                        for i in range(80)]),
        # Issue 40, re-probe: new inputs of item 6's classes.
        "encodings-within-a-line.csv": ENCODINGS_WITHIN_A_LINE,
        "utf16-bom-semicolon-decimal-comma.csv": ("city;weight;y\n" + "".join(
            f"{'Zürich' if i % 2 else 'Genève'};{60 + i % 20},{i % 10};{int(i % 20 > 9)}\n" for i in range(80))
        ).encode("utf-16"),
        "semicolon-thousands-dots.csv": ("count;weight;y\n" + "".join(
            f"{1 + i % 9}.{i % 1000:03d},{i % 10};{60 + i % 20},5;{int(i % 20 > 9)}\n" for i in range(80))).encode(),
        "tsv-quoted-newlines.tsv": ("age\tnote\ty\n" + "".join(
            f'{40 + i % 30}\t"seen\nin {"ward" if i % 2 else "clinic"}"\t{int(i % 30 > 15)}\n' for i in range(80))).encode(),
        "true-false-with-gaps.csv": _csv(["age", "smoker", "y"], [
            (40 + i % 30, "" if i % 7 == 0 else "TRUE" if i % 3 else "FALSE", int(i % 30 > 15)) for i in range(80)]),
        "utf16-cut-off.csv": _table(["age", "sex", "outcome"]).decode().encode("utf-16-le") + b"\n",
        "merged-header.xlsx": probe_workbook("merged header"),
        "chart-sheet-first.xlsx": probe_workbook("chart first"),
        "only-a-chart-visible.xlsx": probe_workbook("only a chart visible"),
        # Issue 40, fourth probe: an empty cover sheet; "missing" in the languages of other studies.
        "empty-cover-sheet.xlsx": probe_workbook("empty cover"),
        "stray-cell-at-xfd1048576.xlsx": probe_workbook("far cell"),
        "missing-in-other-languages.csv": _csv(["age", "lab", "y"], [
            (40 + i % 30, MISSING_ELSEWHERE[i % 8] if i % 3 == 0 else 100 + i % 17, int(i % 30 > 15)) for i in range(96)]),
        # Issue 40, fourth probe, inputs that held: refused with the reason or read right.
        "gzipped.csv": gzip.compress(_table(["age", "sex", "outcome"])),
        "zip-renamed.xlsx": _zipped("data.csv", _table(["age", "sex", "outcome"])),
        "sheet.ods": _zipped("content.xml", b"<office:document/>"),
        "binary-workbook.xlsb": _zipped("xl/workbook.bin", bytes(64)),
        "two-rows.csv": b"age,sex,y\n50,m,1\n61,f,0\n",
        "all-empty-column.csv": _csv(["age", "lab", "y"], [(40 + i % 30, "", int(i % 30 > 15)) for i in range(80)]),
        "spaces-only-column.csv": _csv(["age", "note", "y"], [(40 + i % 30, "   ", int(i % 30 > 15)) for i in range(80)]),
        "excel-serial-dates.csv": _csv(["admitted", "age", "y"], [(43000 + 7 * i, 40 + i % 30, int(i % 30 > 15))
                                                                   for i in range(80)]),
        "one-class.csv": _csv(["age", "sex", "y"], [(40 + i % 30, "mf"[i % 2], 1) for i in range(80)]),
        "wide-10000.csv": _csv([f"c{i}" for i in range(10_000)], [[i % 3] * 10_000 for i in range(4)]),
        "carriage-returns-only.csv": _table(["age", "sex", "outcome"]).replace(b"\n", b"\r"),
        "dates-two-formats.csv": _csv(["when", "age", "y"], [
            (f"2024-01-{1 + i % 28:02d}" if i % 2 else f"{1 + i % 28:02d}/01/2024", 40 + i % 30, int(i % 30 > 15))
            for i in range(80)]),
        # Issue 40, fifth probe: thousands grouped by a narrow no-break space, Excel's "sep=" line,
        # Chinese and Japanese encodings, an old Mac one, one header field of 1 MB.
        "narrow-space-thousands.csv": ("age,chol,y\n" + "".join(
            f"{40 + i % 30},{1 + i % 9}\u202f{i % 1000:03d},{int(i % 30 > 15)}\n" for i in range(80))).encode(),
        "excel-sep-line.csv": ("sep=;\r\nage;weight;y\r\n" + "".join(
            f"{40 + i % 30};{60 + i % 20},5;{int(i % 30 > 15)}\r\n" for i in range(80))).encode(),
        "gb18030.csv": ("年龄,性别,结果\n" + "".join(f"{40 + i % 30},{'男女'[i % 2]},{int(i % 30 > 15)}\n"
                                                  for i in range(80))).encode("gb18030"),
        "shift-jis.csv": ("年齢,性別,結果\n" + "".join(f"{40 + i % 30},{'男女'[i % 2]},{int(i % 30 > 15)}\n"
                                                  for i in range(80))).encode("shift_jis"),
        "mac-roman.csv": ("age,city,y\n" + "".join(f"{40 + i % 30},{['Zürich', 'Genève'][i % 2]},{int(i % 30 > 15)}\n"
                                                 for i in range(80))).encode("mac_roman"),
        "header-field-of-1-mb.csv": ("x" * 2**20 + ",y\n1,2\n3,4\n").encode(),
        "formula-error-values.xlsx": probe_workbook("error values"),
    }
    return tables


def _zipped(name, content):
    """A zip archive holding one file."""
    stream = io.BytesIO()
    with zipfile.ZipFile(stream, "w") as archive:
        archive.writestr(name, content)
    return stream.getvalue()


# "Missing", "not known" as studies in French, Portuguese, Spanish, Italian, Dutch, Japanese,
# Chinese and Russian write it in a column of numbers.
MISSING_ELSEWHERE = ("manquant", "não informado", "desconocido", "mancante", "onbekend", "欠測", "缺失", "нет данных")


# One line holds a cell written in UTF-8 and one in Windows-1252 (two cells pasted together).
ENCODINGS_WITHIN_A_LINE = b"city,home,age,y\n" + b"".join(
    "Zürich,".encode() + f"Genève,{40 + i % 30},{int(i % 30 > 15)}\n".encode("cp1252") for i in range(80))


def probe_workbook(kind):
    """Workbooks of the re-probe of issue 40: a header with merged cells ("merged header"), a
    chart sheet before the table ("chart first"), the table hidden behind a chart sheet ("only a
    chart visible"); merged cells below the header ("merged below"); an empty cover sheet before
    the table ("empty cover", issue 40's fourth probe); one stray cell in the sheet's last row and
    column ("far cell": a reader lays out 17 billion cells) or near the table ("near cell"); error
    values of formulas in the age column ("error values", the fifth probe)."""
    import openpyxl  # a test requirement, not the app's
    from openpyxl.chart import BarChart, Reference

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["Blood pressure", None, "y"] if kind == "merged header" else ["age", "ward", "y"])
    for i in range(80):
        sheet.append([40 + i % 40, "A" if i % 3 else None if kind == "merged below" else "B", int(i % 40 > 20)])
    if kind == "merged header":
        sheet.merge_cells("A1:B1")
    if kind == "merged below":
        sheet.merge_cells("B2:B3")
    if kind in ("far cell", "near cell"):
        sheet.cell(*((1_048_576, 16_384) if kind == "far cell" else (2_000, 200)), value="x")
    if kind == "error values":
        for row in range(2, 82, 9):
            sheet.cell(row, 1).value, sheet.cell(row, 1).data_type = "#DIV/0!", "e"
    if kind == "empty cover":
        book.create_sheet("cover", 0)
        book.active = 0
    if kind in ("chart first", "only a chart visible"):
        chart = BarChart()
        chart.add_data(Reference(sheet, min_col=1, min_row=1, max_row=81))
        book.create_chartsheet("chart", 0).add_chart(chart)
        book.active = 0
        if kind == "only a chart visible":
            sheet.sheet_state = "hidden"
    stream = io.BytesIO()
    book.save(stream)
    return stream.getvalue()


# A table pasted together from a UTF-8 export and a Windows one.
MIXED_ENCODINGS = (b"city,age,y\n" + b"".join(f"Z\u00fcrich,{40 + i % 30},{int(i % 30 > 15)}\n".encode("utf-8" if i % 2 else "cp1252")
                                                     for i in range(80)))


def workbook(hidden_first=False, formulas=False):
    """An .xlsx workbook of a table whose age predicts y: after a hidden and a very hidden
    sheet of notes, or with a column of formulas saved without their values (as openpyxl
    writes them)."""
    import openpyxl  # a test requirement, not the app's

    book = openpyxl.Workbook()
    sheet = book.active
    if hidden_first:
        sheet.title, sheet.sheet_state = "notes", "hidden"
        sheet.append(["written by the study nurse"])
        old = book.create_sheet("old")
        old.append(["q", "r"])
        old.sheet_state = "veryHidden"
        sheet = book.create_sheet("data")
    sheet.append(["age", "double age", "y"] if formulas else ["age", "y"])
    for i in range(80):
        age, y = 40 + i % 40, int(i % 40 > 20)
        sheet.append([age, f"=A{i + 2}*2", y] if formulas else [age, y])
    stream = io.BytesIO()
    book.save(stream)
    return stream.getvalue()


# The start of a workbook Excel encrypted with a password: an Office compound file (its magic
# number) whose directory names the stream "EncryptedPackage" (UTF-16), padded as a sector.
ENCRYPTED_WORKBOOK = (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(504) + "EncryptedPackage".encode("utf-16-le")
                      + bytes(480))


def _good_table():
    rng = np.random.default_rng(3)
    n = 300
    X = pd.DataFrame({"age": rng.integers(30, 80, n).astype(float), "smoker": rng.integers(0, 2, n)})
    y = ((X["age"] > 60) ^ (rng.random(n) < 0.2)).astype(int)
    return X, y


def _good_document():
    X, y = _good_table()
    model = ProbabilisticScoringList(min_support=5).fit(X, y)
    return json.loads(model.to_json({"name": "good", "version": 1}))


def risks_against_counts(document, stage):
    """JSON text of ``document`` whose ``stage`` says a low risk for its lower totals and a high one
    for the others, against their counts, the stage's mean kept at its rate (issue 40, re-probe:
    0.001 and 0.999 against 27 of 112 and 66 of 90): a mean within any tolerance, every total wrong."""
    copy = json.loads(json.dumps(document))
    entry = copy["calibration"][stage]
    positives, n = np.array(entry["positives"]), np.add(entry["positives"], entry["negatives"])
    middle = np.flatnonzero(n)[len(np.flatnonzero(n)) // 2]  # the first total of the upper half with cases
    low, high = n[:middle].sum(), n[middle:].sum()
    high_risk = 0.999
    low_risk = (positives.sum() - high_risk * high) / low
    if low_risk < 0.001:
        low_risk = 0.001
        high_risk = (positives.sum() - low_risk * low) / high
    entry["probabilities"] = [low_risk] * int(middle) + [high_risk] * (len(n) - int(middle))
    return json.dumps(copy)


def version_1(document):
    """``document`` as a file of version 1 (written before a file recorded what recomputes its
    probabilities): its version, without the weighted counts and earlier probabilities."""
    copy = json.loads(json.dumps(document))
    copy["schema_version"] = 1
    for entry in copy["calibration"]:
        for key in ("weighted_positives", "weighted_negatives", "prior"):
            entry.pop(key, None)
    return copy


@functools.cache
def honest_lists():
    """File name -> JSON text of legitimate lists whose probabilities are not the counts' plain
    rates (issue 40): shrunk toward the base rate, fitted with rounded sample weights (some 0),
    with a horizon's censoring weights, recalibrated at a site with unknown answers dropped (with
    and without weights), and a file of version 1 (loads with a notice). Each loads again."""
    X, y = _good_table()
    rng = np.random.default_rng(5)
    weight = np.round(rng.uniform(0, 3, len(y)), 1)
    time = np.where(y == 1, rng.uniform(0, 5, len(y)), rng.uniform(2, 10, len(y)))
    censored = rng.random(len(y)) < 0.3
    shrunk = ProbabilisticScoringList(min_support=5, recommend_folds=3).fit(X, y)
    site = X.assign(smoker=np.where(rng.random(len(y)) < 0.2, np.nan, X["smoker"]))
    lists = {
        "shrunk-v1.json": shrunk,
        "weighted-v1.json": ProbabilisticScoringList(min_support=5, recommend_folds=3).fit(X, y, sample_weight=weight),
        "horizon-v1.json": ProbabilisticScoringList(min_support=5, horizon=4.0, calibration="isotonic").fit(
            X, survival_outcome(np.where(censored, time / 2, time), (y == 1) & ~censored)),
        "recalibrated-v1.json": recalibrate(shrunk, site, y),
        "recalibrated-weighted-v1.json": recalibrate(shrunk, site, y, sample_weight=weight + 0.1),
    }
    files = {name: model.to_json({"name": name.removesuffix("-v1.json"), "version": 1}) for name, model in lists.items()}
    files["saved-by-version-1-v1.json"] = json.dumps(version_1(json.loads(files["weighted-v1.json"])))
    return files


def with_change(document, path, value):
    """JSON text of ``document`` with the value at ``path`` (keys and positions) replaced."""
    copy = json.loads(json.dumps(document))
    target = copy
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return json.dumps(copy)


def meaning_document():
    """A valid list (as JSON) that asks a category, a yes/no and a number, with stop
    statistics, a recommended length and a description the pages read (issue 40)."""
    rng = np.random.default_rng(3)
    n = 300
    X = pd.DataFrame({"age": rng.integers(30, 80, n).astype(float), "smoker": rng.integers(0, 2, n).astype(float),
                      "pain": pd.Categorical(rng.choice(["typical", "atypical", "nonanginal", "none"], n))})
    # Two of the four levels raise the risk: the list asks them as one grouping.
    y = (((X["age"] > 60) | (X["smoker"] == 1)) ^ (rng.random(n) < 0.15) | X["pain"].isin(["typical", "atypical"]))
    y = y.astype(int)
    model = ProbabilisticScoringList(recommend_folds=3, min_support=5, group_categories=True).fit(X, y)
    metadata = {
        "name": "meaning", "version": 1,
        "dataset": {"name": "synthetic", "n_rows": n, "n_rows_source": n, "n_positive": int(y.sum()),
                    "n_negative": int(n - y.sum()), "positive_label": "sick", "negative_label": "well"},
        "columns": {
            "age": {"label": "Age", "unit": "years", "kind": "numeric", "category_labels": {}},
            "smoker": {"label": "Smoker", "unit": "", "kind": "binary",
                       "category_labels": {"1": "smoker", "0": "non-smoker"}},
            "pain": {"label": "Chest pain", "unit": "", "kind": "categorical",
                     "category_labels": {"typical": "typical", "atypical": "atypical", "nonanginal": "non-anginal",
                                         "none": "none"}},
        },
    }
    return json.loads(model.to_json(metadata))


def _stop_counts_on_one_path(document):
    """Every patient of the stop statistics moved onto the path that answers yes to each
    question worth points: shapes and totals stay valid, the counts say nothing true."""
    copy = json.loads(json.dumps(document))
    scores = [stage["score"] for stage in copy["stages"]]
    path = np.concatenate([[0], np.cumsum([max(score, 0) for score in scores])]).tolist()
    n_rows = copy["stop_statistics"]["n_rows"]
    for transition in copy["stop_statistics"]["transitions"]:
        reference = transition["reference"]
        transition["stages"] = [[[path[k], path[reference], n_rows]] for k in range(reference)]
    return json.dumps(copy)


def _one_table_moved(document):
    copy = json.loads(json.dumps(document))
    transition = copy["stop_statistics"]["transitions"][0]
    table = transition["stages"][0]
    top = max(row[1] for row in table)
    transition["stages"][0] = [[table[0][0], top, sum(row[2] for row in table)]]
    return json.dumps(copy)


def meaningless_files(document):
    """File name -> (JSON text, what the refusal says) of model files whose shape is valid and
    whose list contradicts itself (issue 40, item 1): :mod:`psl_core.serialization` refuses them."""
    stages = document["stages"]
    age = [k for k, stage in enumerate(stages) if stage["feature"] == "age"][-1]
    grouping = next(k for k, stage in enumerate(stages) if stage.get("categories"))
    smoker = next(k for k, stage in enumerate(stages) if stage["feature"] == "smoker")
    both_ways = json.loads(json.dumps(document))
    both_ways["stages"][age].update(kind="category", threshold=None, category="60")
    return {
        "column-two-ways-v1.json": (json.dumps(both_ways), f"stage {age + 1} asks 'age' as category, an earlier stage as numeric"),
        "decimal-recommended-v1.json": (with_change(document, ["validation", "recommended_stages"], 3.0),
                                        "validation.recommended_stages must be a whole number"),
        "decimal-score-v1.json": (with_change(document, ["stages", 0, "score"], float(stages[0]["score"])),
                                  r"stages\[0\].score must be a whole number"),
        "decimal-columns-v1.json": (with_change(document, ["input", "n_features"], 3.0), "n_features must be a whole number"),
        "empty-grouping-v1.json": (with_change(document, ["stages", grouping, "categories"], []), "groups the categories"),
        "repeated-grouping-v1.json": (with_change(document, ["stages", grouping, "categories"], ["none", "none"]),
                                      "groups the categories"),
        "forbidden-asked-v1.json": (with_change(document, ["params", "forbidden"], [stages[0]["feature"]]),
                                    "params.forbidden names .* which the list asks at stage 1"),
        "required-not-first-v1.json": (with_change(document, ["params", "required"], ["age"]),
                                       "params.required names"),
        "monotone-against-v1.json": (with_change(document, ["params", "monotone"], [
            {"column": "smoker", "direction": "decreasing" if stages[smoker]["score"] > 0 else "increasing"}]),
            f"stage {smoker + 1} gives 'smoker' points against its monotone direction"),
        "stop-counts-on-one-path-v1.json": (_stop_counts_on_one_path(document), "disagree with the list's own counts"),
        "stop-table-moved-v1.json": (_one_table_moved(document), "give different totals at stage"),
        # Issue 40, re-probe: other encodings of the same lies.
        "score-true-v1.json": (with_change(document, ["stages", 0, "score"], True), "must be a whole number, got True"),
        "negated-as-zero-v1.json": (with_change(document, ["stages", 0, "negated"], 0), "must be true or false, got 0"),
        "score-as-text-v1.json": (with_change(document, ["stages", 0, "score"], str(stages[0]["score"])),
                                  "must be a whole number"),
        "recommended-true-v1.json": (with_change(document, ["validation", "recommended_stages"], True),
                                     "must be a whole number, got True"),
        "grouping-look-alike-v1.json": (with_change(document, ["stages", grouping, "categories"], ["none", "none "]),
                                        "look the same when shown"),
        "totals-unsorted-v1.json": (_totals_reversed(document), "lists totals .* but the scores reach"),
        "nan-criterion-v1.json": (json.dumps(document).replace('"criterion": [', '"criterion": [NaN, ', 1),
                                  "NaN is not allowed"),
        "repeated-key-v1.json": (json.dumps(document).replace('"negated": false', '"negated": false, "negated": true', 1),
                                 "repeated keys"),
        "negative-cv-brier-v1.json": (with_change(document, ["validation", "brier_se"], [-1.0] * len(stages + [0])),
                                      r"validation.brier_se\[0\] is -1.0, outside the allowed range \(minimum 0\)"),
        "huge-criterion-v1.json": (json.dumps(document).replace('"criterion": [', '"criterion": [' + "0.1," * 200_001, 1),
                                   "more than 200,000 values"),
        # Issue 40, fourth probe: a stage that counts ten times the patients (its rates kept, so
        # its probabilities still agree with them): intervals ten times too narrow.
        "stage-counts-tenfold-v1.json": (_counts_times(document, 1, 10), "stage 1 counts .* more than the 300 of stage 0"),
        "last-stage-counts-doubled-v1.json": (_counts_times(document, len(stages), 2),
                                              f"stage {len(stages)} counts .* more than the 300 of stage 0"),
        # Issue 40, fifth probe: risks against their own counts, each stage's mean kept.
        "risks-against-counts-v1.json": (risks_against_counts(document, len(stages) - 1),
                                         rf"stage {len(stages) - 1}, total -?\d+: the file gives the probability "
                                         r"[0-9.]+, but its counts \(\d+ positive, \d+ negative\) give"),
        "prior-in-a-version-1-file-v1.json": (
            json.dumps({**version_1(document), "calibration": [{**entry, "prior": entry["probabilities"]}
                                                               for entry in document["calibration"]]}),
            "prior, which belongs to model files of version 2"),
    }


def _counts_times(document, stage, factor):
    copy = json.loads(json.dumps(document))
    for key in ("positives", "negatives"):
        copy["calibration"][stage][key] = [count * factor for count in copy["calibration"][stage][key]]
    return json.dumps(copy)


def _totals_reversed(document):
    copy = json.loads(json.dumps(document))
    for key in ("totals", "probabilities", "positives", "negatives"):
        copy["calibration"][1][key].reverse()
    return json.dumps(copy)


def misleading_descriptions(document):
    """File name -> (JSON text, what the refusal says) of model files whose list is sound and
    whose description would mislead a reader (issue 40, item 1): the store refuses them."""
    labels = ["metadata", "columns", "pain", "category_labels"]
    return {
        "answers-all-yes-v1.json": (with_change(document, ["metadata", "columns", "smoker", "category_labels"],
                                                {"1": "yes", "0": "yes"}), "'yes' twice"),
        "answers-zero-width-v1.json": (with_change(document, labels, {"typical": "normal", "atypical": "norma\u200bl",
                                                                      "none": "none"}), "read alike"),
        "answers-trailing-space-v1.json": (with_change(document, labels, {"typical": "typical", "atypical": "typical ",
                                                                          "none": "none"}), "read alike"),
        "answer-invisible-v1.json": (with_change(document, labels, {"typical": "\u200b", "atypical": "atypical",
                                                                    "none": "none"}), "shows nothing to read"),
        "questions-same-label-v1.json": (with_change(document, ["metadata", "columns", "age", "label"], "Chest pain"),
                                         "questions include 'Chest pain' twice"),
        "classes-read-alike-v1.json": (with_change(document, ["metadata", "dataset", "negative_label"], "sick "),
                                       "two classes include 'sick' and 'sick '"),
        "negative-rows-v1.json": (with_change(document, ["metadata", "dataset", "n_rows"], -5), "n_rows is -5"),
        "positives-beyond-rows-v1.json": (with_change(document, ["metadata", "dataset", "n_positive"], 10**15),
                                          "more than its n_rows"),
        "decimal-rows-v1.json": (with_change(document, ["metadata", "dataset", "n_rows"], 300.5),
                                 "n_rows is 300.5; a count of patients is a whole number"),
        # Issue 40, re-probe: recorded facts no table or measurement can have.
        "auc-of-seven-v1.json": (with_change(document, ["metadata", "performance"], {"test": {"auc": [0.5, 7.0]}}),
                                 r"performance.test.auc records 7.0; that measure takes values from 0 to 1"),
        "negative-brier-v1.json": (with_change(document, ["metadata", "performance"], {"train": {"brier": [-1.0]}}),
                                   r"performance.train.brier records -1.0"),
        "fewer-rows-than-the-list-v1.json": (with_change(document, ["metadata", "dataset"], {"name": "s", "n_rows": 10}),
                                             "has 10 patients, but the list's own counts hold"),
        "range-out-of-order-v1.json": (with_change(document, ["metadata", "columns", "age", "training_range"],
                                                   {"min": 80.0, "median": 50.0, "max": 30.0}),
                                       "training range of 'age' has min = 80.0 above median = 50.0"),
        "answers-fullwidth-v1.json": (with_change(document, ["metadata", "columns", "smoker", "category_labels"],
                                                  {"1": "smoker", "0": "\uff53moker"}), "read alike"),
        "answers-cyrillic-v1.json": (with_change(document, labels, {"typical": "typical", "atypical": "typic\u0430l",
                                                                    "none": "none"}), "read alike"),
        "answer-only-spaces-v1.json": (with_change(document, labels, {"typical": "   ", "atypical": "atypical",
                                                                      "none": "none"}), "shows nothing to read"),
        # Issue 40, fourth probe: a description that contradicts how the list asks a column.
        "category-recorded-as-number-v1.json": (with_change(document, ["metadata", "columns", "pain", "kind"], "numeric"),
                                                "asks 'pain' as category, but the description records it as numeric"),
        "number-recorded-as-yes-no-v1.json": (with_change(document, ["metadata", "columns", "age", "kind"], "binary"),
                                              "asks 'age' as numeric, but the description records it as binary"),
        "yes-no-recorded-as-category-v1.json": (with_change(document, ["metadata", "columns", "smoker", "kind"],
                                                            "categorical"),
                                                "asks 'smoker' as binary, but the description records it as categorical"),
        "level-never-seen-v1.json": (_grouping_with(document, "nonanginal-typo"),
                                     "asks whether 'pain' is 'nonanginal-typo', which the column's recorded levels"),
        "levels-recorded-without-one-asked-v1.json": (
            with_change(document, labels, {"nonanginal": "non-anginal", "none": "none"}),
            "asks whether 'pain' is .*, which the column's recorded levels .* do not include"),
        # Issue 40, fifth probe: another list's description of its columns glued to this list.
        "another-lists-columns-v1.json": (
            with_change(document, ["metadata", "columns"], {f"x{i}": {"label": f"X{i}", "unit": "", "kind": "numeric",
                                                                       "category_labels": {}} for i in range(3)}),
            "describes none of these columns"),
    }


def _grouping_with(document, level):
    """``document`` whose grouping question also names ``level``."""
    copy = json.loads(json.dumps(document))
    grouping = next(stage for stage in copy["stages"] if stage.get("categories"))
    grouping["categories"].append(level)
    return json.dumps(copy)


def unusual_names(document):
    """File name -> (content, "good" or "file") of saved lists under names the store once left
    out without a word (issue 40, item 2): a name in decomposed Unicode (as a Mac writes
    ``café``), the name the Download button gives (no ``-vN``), an upper-case ``.JSON``, a
    240-digit version; and a file that is not a model file, named with the reason."""
    text = json.dumps(document)
    return {
        "cafe\u0301-v1.json": (with_change(document, ["metadata", "name"], "cafe\u0301"), "good"),
        "downloaded-list.json": (text, "good"),
        "UPPER-CASE-v1.JSON": (text, "good"),
        f"ward-v{'9' * 240}.json": (text, "good"),
        "notes.txt": ("not a model", "file"),
        # Issue 40, re-probe: one version written two ways, a version in full-width digits.
        "leading-zero-v01.json": (text, "good"),
        "leading-zero-v1.json": (text, "good"),
        "full-width-v\uff11.json": (text, "good"),
        "space-typed-after-v1.json ": (text, "good"),
        # Issue 40, fourth probe: a Windows device name, dots only, a tab, .json twice, version 0.
        "CON-v1.json": (text, "good"),
        "....json": (text, "good"),
        "tab\tin-name-v1.json": (text, "good"),
        "twice.json.json": (text, "good"),
        "version-zero-v0.json": (text, "good"),
    }


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
    meaning = meaning_document()
    files.update({name: text for name, (text, _) in meaningless_files(meaning).items()})
    good = honest_lists()
    files.update(good)
    files.update({name: text for name, (text, _) in misleading_descriptions(meaning).items()})
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8", errors="surrogatepass")
    kinds = {name: "file" for name in files}
    kinds["good-v1.json"] = "good"
    kinds["markdown-name-v1.json"] = "good"
    kinds.update(dict.fromkeys(good, "good"))
    for name, (text, kind) in unusual_names(document).items():
        (folder / name).write_text(text, encoding="utf-8")
        kinds[name] = kind
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
