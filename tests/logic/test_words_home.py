"""Every sentence the user reads comes from psl_triage/words/ (issue 27, "One home for words").

An AST walk over the app's code outside ``psl_triage/words/`` (``psl_triage``, ``ui``, ``pages``,
``app.py``) finds every string literal and f-string that holds prose: three words in a row, an
f-string's placeholders counting as words. Each one is a sentence, label or message composed
outside the words package, where names from files escape the one escape and the same idea gets a
second wording. The few that stay are listed in ``ALLOWED``, each with why.

Not prose for the user, so not looked at: docstrings and attribute docs, the server log's
lines (``logger.*`` / ``logging.*``), the programmer's errors (``ValueError``, ``TypeError``,
``RuntimeError``, ``KeyError``: a broken caller, never a user's input; the user's are
:class:`psl_core.errors.PSLError` and its subclasses), and the session-state keys' docs.
"""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WORD = r"[A-Za-z][A-Za-z'’-]*"
PROSE = re.compile(rf"\b{WORD}[,;:]? {WORD}[,;:]? {WORD}")
LOG_NAMES = re.compile(r"(?i)^_?(log|logger|logging)$")
PROGRAMMER_ERRORS = {"ValueError", "TypeError", "RuntimeError", "KeyError", "AssertionError", "NotImplementedError"}

ALLOWED = {
    # (path, a piece of the string): why it stays where it is
    ("psl_triage/judging/card.py", "font-family"): "the card's CSS (a list of font names), not words",
    ("psl_triage/data/demo.py", ""): (
        "the bundled demo table's own description (labels, units, categories, provenance): data "
        "about a dataset, like a file's names, shown through the words module's escapes"
    ),
    ("psl_triage/model_file/metadata.py", "class"): (
        "the class names of a list whose file names none: ModelMetadata's own default, and the "
        "words import ModelMetadata (words importing back would be a cycle)"
    ),
    ("pages/2_Triage.py", "triage with"): "a timing label for the server log (ui.timed), not shown",
    ("psl_triage/data/reading.py", "field larger than field limit"): (
        "the csv module's own error text, matched to recognise a header field too long to read"
    ),
}


PROGRAM_TEXT = {
    # modules whose strings are program text, not the app's prose: why
    "psl_triage/model_file/export/sql.py": "the SQL scorer's query, generated for the hospital's database",
    "psl_triage/model_file/export/scorer_template.py": (
        "the standalone Python scorer handed to the hospital's IT: it runs without the app, so its "
        "few messages (stop reasons as the specification names them, its self-check) live in it"
    ),
    "psl_triage/model_file/export/scorers.py": "the comment heading each generated scorer's source",
    "psl_triage/ward/audit.py": "the audit trail's SQLite statements",
    "psl_triage/ward/approval.py": "SQLite statements reading the audit trail",
}


def sources():
    for folder in ("psl_triage", "ui", "pages"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "words" not in path.relative_to(ROOT).parts[:2]:
                yield path
    yield ROOT / "app.py"


def _exempt_nodes(tree):
    """Docstrings, log lines, programmer errors and state keys' docs: not the user's prose."""
    exempt = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, (ast.Constant, ast.JoinedStr)):
            exempt.add(id(node.value))
        elif isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
            func = node.exc.func
            if isinstance(func, ast.Name) and func.id in PROGRAMMER_ERRORS:
                exempt.update(id(sub) for sub in ast.walk(node.exc))
        elif isinstance(node, ast.Call):
            func = node.func
            base = func.value if isinstance(func, ast.Attribute) else None
            if isinstance(base, ast.Name) and LOG_NAMES.match(base.id) or (
                isinstance(func, ast.Name) and func.id == "StateKey"
            ):
                exempt.update(id(sub) for sub in ast.walk(node))
    return exempt


def _text(node):
    """The string's text, an f-string's placeholders as "x"; None for anything else."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "x" for v in node.values)
    return None


def prose_outside_words():
    found = []
    for path in sources():
        relative = path.relative_to(ROOT).as_posix()
        if relative in PROGRAM_TEXT:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        exempt = _exempt_nodes(tree)
        parts = {id(v) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for v in node.values}
        for node in ast.walk(tree):
            text = _text(node)
            if text is None or id(node) in exempt or id(node) in parts or not PROSE.search(text):
                continue
            if any(relative == where and piece in text for where, piece in ALLOWED):
                continue
            found.append(f"{relative}:{node.lineno}: {text[:80]!r}")
    return sorted(found)


def test_no_sentence_is_composed_outside_the_words_package():
    assert prose_outside_words() == []


def test_the_walk_finds_a_sentence_composed_in_a_page(tmp_path, monkeypatch):
    """The guard can fail: a page that writes its own sentence is found, a docstring is not."""
    page = tmp_path / "pages" / "9_Probe.py"
    page.parent.mkdir()
    page.write_text(
        '"""A page whose docstring is prose."""\n'
        "import streamlit as st\n"
        "name = 'x'\n"
        "st.info(f'The column {name} is empty.')\n"
        "raise ValueError('a broken caller, not the user')\n",
        encoding="utf-8",
    )
    (tmp_path / "app.py").write_text("", encoding="utf-8")
    monkeypatch.setitem(globals(), "ROOT", tmp_path)
    assert prose_outside_words() == ["pages/9_Probe.py:4: 'The column x is empty.'"]


def test_each_module_of_program_text_still_exists():
    assert [path for path in PROGRAM_TEXT if not (ROOT / path).is_file()] == []


def test_each_allowed_string_still_exists():
    """An entry of ALLOWED whose string has gone is stale: remove it."""
    texts = {}
    for path in sources():
        relative = path.relative_to(ROOT).as_posix()
        texts.setdefault(relative, []).extend(
            text for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))) if (text := _text(node))
        )
    for where, piece in ALLOWED:
        assert any(piece in text for text in texts.get(where, [])), (where, piece)


def calls_into_the_words():
    """Every call ``<alias>.<name>(...)`` or ``<alias>.<NAME>.format(...)`` in the app's code
    whose alias names a words module: (path, call node, the module's object, its name)."""
    import importlib

    for path in sources():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        aliases = {
            alias.asname or alias.name: f"psl_triage.words.{alias.name}"
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module == "psl_triage.words"
            for alias in node.names
        }
        for node in ast.walk(tree):
            func = node.func if isinstance(node, ast.Call) else None
            if isinstance(func, ast.Attribute) and func.attr == "format":
                func = func.value
            if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in aliases:
                module = importlib.import_module(aliases[func.value.id])
                if not any(isinstance(a, ast.Starred) for a in node.args) and all(k.arg for k in node.keywords):
                    yield path.relative_to(ROOT), node, getattr(module, func.attr, None), func.attr


def test_every_template_is_filled_with_exactly_its_fields():
    """A words template filled with a missing or misspelt field raises KeyError instead of
    showing its message, on an error path the tests may never reach: every
    ``<words module>.TEMPLATE.format(...)`` call names exactly the template's fields."""
    import string

    wrong = []
    for path, node, template, name in calls_into_the_words():
        if isinstance(template, str) and not node.args:
            fields = {field for _, field, _, _ in string.Formatter().parse(template) if field}
            given = {k.arg for k in node.keywords}
            if fields != given:
                wrong.append(f"{path}:{node.lineno}: {name} {sorted(fields ^ given)}")
    assert wrong == []


def test_every_words_function_is_called_with_arguments_it_takes():
    """As above for the words' functions: a call with a missing or extra argument raises
    TypeError instead of showing the message (checked against each function's signature)."""
    import inspect

    wrong = []
    for path, node, function, name in calls_into_the_words():
        if inspect.isfunction(function):
            try:
                inspect.signature(function).bind(*node.args, **{k.arg: k.value for k in node.keywords})
            except TypeError as error:
                wrong.append(f"{path}:{node.lineno}: {name}: {error}")
    assert wrong == []
