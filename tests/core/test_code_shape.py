"""The code keeps the shape issue 38 judges it by: page files that lay out (at most 150
lines), functions a reader takes in at once (at most 60 lines, outside the compiled numba
kernels, whose loops stay together for speed) and modules read in one sitting (at most 700
lines)."""

import ast

import pytest

from tests.paths import ROOT

MAX_PAGE_LINES = 150
MAX_FUNCTION_LINES = 60
MAX_MODULE_LINES = 700
KERNEL_DECORATORS = {"njit", "kernel", "jit"}
"""Decorators that compile a function with numba (psl_core/kernels.py, calibration_kernels.py)."""

SOURCES = sorted(
    path
    for folder in ("psl_core", "psl_triage", "ui", "pages", "bench")
    for path in (ROOT / folder).rglob("*.py")
    if not any(part.startswith(".") for part in path.relative_to(ROOT).parts)  # bench/.venv-peers
) + [ROOT / "app.py"]


def _decorator_name(node):
    target = node.func if isinstance(node, ast.Call) else node
    return target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", None)


def long_functions(source: str, limit: int):
    """(name, lines) of every function longer than ``limit`` lines that numba does not compile."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            if KERNEL_DECORATORS & {_decorator_name(d) for d in node.decorator_list}:
                continue
            lines = node.end_lineno - node.lineno + 1
            if lines > limit:
                found.append((node.name, lines))
    return found


def test_long_functions_are_found_and_kernels_are_not():
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_FUNCTION_LINES))  # one line over, with the def
    at_limit = "\n".join(f"    x{i} = {i}" for i in range(MAX_FUNCTION_LINES - 1))
    source = f"def long():\n{body}\n\n@njit(cache=True)\ndef loop():\n{body}\n\ndef just_fits():\n{at_limit}\n"
    assert long_functions(source, MAX_FUNCTION_LINES) == [("long", MAX_FUNCTION_LINES + 1)]


def test_a_planted_long_function_page_and_module_fail_the_checks(tmp_path):
    """The checks below, run on planted files, fail on each (a test that cannot fail proves nothing)."""
    lines = "\n".join(f"    x{i} = {i}" for i in range(MAX_FUNCTION_LINES))
    with pytest.raises(AssertionError):
        check_source(f"def planted():\n{lines}\n")
    with pytest.raises(AssertionError):
        check_source("\n".join(f"x{i} = {i}" for i in range(MAX_MODULE_LINES + 1)))
    pages = tmp_path / "pages"
    pages.mkdir()
    (pages / "9_Planted.py").write_text("\n".join(f"x{i} = {i}" for i in range(MAX_PAGE_LINES + 1)), encoding="utf-8")
    assert long_pages(tmp_path) == {"9_Planted.py": MAX_PAGE_LINES + 1}
    check_source(f"def fits():\n{lines[:lines.rindex(chr(10))]}\n")


def check_source(source: str) -> None:
    """No function over :data:`MAX_FUNCTION_LINES` (numba kernels aside), no module over :data:`MAX_MODULE_LINES`."""
    assert long_functions(source, MAX_FUNCTION_LINES) == []
    assert len(source.splitlines()) <= MAX_MODULE_LINES


def long_pages(root) -> dict:
    """{file name: lines} of the page files under ``root``/pages longer than :data:`MAX_PAGE_LINES`."""
    pages = sorted((root / "pages").glob("*.py"))
    assert pages
    return {page.name: n for page in pages if (n := len(page.read_text(encoding="utf-8").splitlines())) > MAX_PAGE_LINES}


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: str(path.relative_to(ROOT)))
def test_functions_and_modules_are_short_enough(path):
    check_source(path.read_text(encoding="utf-8"))


def test_page_files_lay_out_in_few_lines():
    assert long_pages(ROOT) == {}
