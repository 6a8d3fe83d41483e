"""The two packages keep their places: psl_core is the learner alone, psl_triage the app's
logic without Streamlit (docs/architecture.md)."""

import ast
import re
import shutil
import subprocess
import sys

import pytest

from psl_core.serialization import SCHEMA_FILE
from tests.paths import ROOT

UI_WORDS = re.compile(r"\b(page|pages|button|buttons|sidebar|widget|widgets|Continue anyway)\b", re.IGNORECASE)


def imported_packages(package):
    """Top-level names every module of a package imports (relative imports are its own)."""
    found = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        names = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names.add(node.module.split(".")[0])
        found[str(path.relative_to(ROOT))] = names
    return found


def test_the_library_imports_neither_the_app_nor_streamlit():
    for module, names in imported_packages("psl_core").items():
        assert not names & {"psl_triage", "streamlit", "ui", "plotly"}, module


def test_the_apps_package_imports_no_streamlit():
    for module, names in imported_packages("psl_triage").items():
        assert not names & {"streamlit", "ui"}, module


def test_the_library_speaks_no_user_interface_words():
    hits = [
        f"{path.name}:{number}: {line.strip()}"
        for path in sorted((ROOT / "psl_core").glob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if UI_WORDS.search(line)
    ]
    assert hits == []


def test_the_package_docstring_names_every_module():
    """``help(psl_core)`` is where someone who pip-installed the library starts."""
    import psl_core

    modules = {path.stem for path in (ROOT / "psl_core").glob("*.py") if path.stem != "__init__"}
    named = set(re.findall(r":mod:`~psl_core\.(\w+)`", psl_core.__doc__))
    assert modules - named == set(), "name the new module in psl_core/__init__.py's docstring"
    assert named - modules == set()


def test_the_public_names_of_each_module_exist_and_are_documented():
    """Every name in a psl_core module's ``__all__`` exists, and its functions and classes say
    what they do (``help(module)`` shows these names only)."""
    import importlib
    import inspect

    problems = []
    for path in sorted((ROOT / "psl_core").glob("*.py")):
        module = importlib.import_module(f"psl_core.{path.stem}" if path.stem != "__init__" else "psl_core")
        for name in getattr(module, "__all__", ()):
            value = getattr(module, name, None)
            if value is None:
                problems.append(f"{path.name}: {name} is in __all__ but not defined")
            elif (inspect.isfunction(value) or inspect.isclass(value)) and not inspect.getdoc(value):
                problems.append(f"{path.name}: {name} has no docstring")
    assert problems == []


def readme_snippet():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Using psl_core from Python", 1)[1]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


@pytest.mark.slow
def test_pip_install_gives_a_library_whose_readme_snippet_runs_anywhere(tmp_path):
    """``pip install .`` (here into a folder, without the pinned dependencies this venv
    already has) and the README's snippet run from a directory outside the repository."""
    source, target = tmp_path / "source", tmp_path / "site"
    # A copy of what the package is built from: building writes build/ next to its source.
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    for name in ("psl_core", "psl_triage"):
        shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
         "--disable-pip-version-check", "--target", str(target), str(source)],
        check=True, capture_output=True, cwd=tmp_path,
    )
    assert {"psl_core", "psl_triage"} <= {path.name for path in target.iterdir()}

    def packages(root):
        return {str(p.parent.relative_to(root)) for name in ("psl_core", "psl_triage") for p in (root / name).rglob("__init__.py")}

    assert packages(target) == packages(ROOT), "pyproject.toml leaves out a package"
    assert (target / "psl_core" / SCHEMA_FILE).is_file()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    run = subprocess.run(
        [sys.executable, "-c", readme_snippet() + "\nimport psl_core; print(psl_core.__file__)"],
        capture_output=True, text=True, cwd=elsewhere, env={"PYTHONPATH": str(target), "PATH": "/usr/bin:/bin"},
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip().endswith(str(target / "psl_core" / "__init__.py"))


def test_test_files_have_names_of_their_own():
    """pytest imports the test folders' files by their base name (no __init__.py): two files of
    one name in different folders stop the whole run at collection."""
    names = [path.name for path in (ROOT / "tests").rglob("test_*.py")]
    assert sorted({name for name in names if names.count(name) > 1}) == []


def test_no_script_draws_a_stray_string():
    """Streamlit's magic writes every bare expression of app.py and the pages: a string under an
    assignment, meant as its documentation, would show on every page."""
    stray = []
    for path in [ROOT / "app.py", *sorted((ROOT / "pages").glob("*.py"))]:
        body = ast.parse(path.read_text(encoding="utf-8")).body
        stray += [f"{path.name}:{node.lineno}" for node in body[1:]
                  if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)]
    assert stray == []


def test_importing_a_light_training_module_does_not_load_the_learner():
    """The training package re-exports nothing, so the costs, knowledge, too-good and run-queue
    modules load without scikit-learn's estimators and the compiled kernels (numba): a page or
    a test that needs only them starts in a fraction of the time."""
    modules = ["psl_triage.training", "psl_triage.training.costs", "psl_triage.training.knowledge",
               "psl_triage.training.too_good", "psl_triage.training.runs"]
    code = ";".join(f"import {name}" for name in modules) + ";import sys;print(sorted({'numba', 'psl_core.model'} & set(sys.modules)))"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"


# A metadata object's name: metadata, meta, metadata_, or one of them after a qualifier
# (trained_metadata); not any name that merely holds "meta" (metastases, metabolic_panel).
METADATA_NAME = re.compile(r"^(?:\w*_)?meta(?:data)?_?$")
MUTATORS = {"update", "setdefault", "pop", "popitem", "clear", "__setitem__"}


def _metadata_name(node) -> str | None:
    """The name a metadata object goes by (``metadata``, ``meta``, ``model.metadata_``,
    ``trained_metadata``), or None."""
    name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None
    return name if name and METADATA_NAME.search(name) else None


def metadata_dict_writes(paths):
    """Where the code writes into a metadata dict by hand: ``meta[key] = ...``, ``del meta[key]``,
    ``meta[key].update(...)``, ``meta.update(...)``/``setdefault``/``pop``, and a list's
    ``metadata_`` set from anything but :meth:`ModelMetadata.to_dict`."""
    found = []
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            where = f"{path.name}:{getattr(node, 'lineno', '?')}"
            targets = (node.targets if isinstance(node, (ast.Assign, ast.Delete)) else
                       [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else [])
            for target in targets:
                base = target
                while isinstance(base, ast.Subscript):
                    base = base.value
                if base is not target and _metadata_name(base):
                    found.append(where)
                if (isinstance(target, ast.Attribute) and target.attr == "metadata_" and not (
                        isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Attribute)
                        and node.value.func.attr == "to_dict")):
                    found.append(where)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MUTATORS:
                base = node.func.value
                while isinstance(base, ast.Subscript):
                    base = base.value
                if _metadata_name(base):
                    found.append(where)
    return found


def test_metadata_is_written_only_through_its_type(tmp_path):
    """One home for a model file's metadata: outside ``psl_triage/model_file`` no code builds
    it up or changes it as a dict; it makes a ``ModelMetadata`` (``dataclasses.replace``) and
    writes it with ``to_dict``."""
    paths = [path for folder in ("psl_triage", "ui", "pages") for path in sorted((ROOT / folder).rglob("*.py"))
             if "model_file" not in path.parts]
    assert metadata_dict_writes(paths + [ROOT / "app.py"]) == []
    planted = tmp_path / "planted.py"
    planted.write_text("metadata['source'] = 'trained'\nmeta.setdefault('performance', {})['x'] = 1\n"
                       "model.metadata_ = dict(meta)\nmodel.metadata_ = meta.to_dict()\n"
                       "trained_metadata.pop('name')\nmetastases['liver'] = 1\nmetabolic_panel.update(na=140)\n",
                       encoding="utf-8")
    assert sorted(metadata_dict_writes([planted])) == ["planted.py:1", "planted.py:2", "planted.py:3", "planted.py:5"]
