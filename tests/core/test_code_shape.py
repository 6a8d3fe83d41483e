"""The code keeps the shape issue 27 judges it by: page files that lay out (at most 200
lines), functions a reader takes in at once (at most 80 lines, outside the compiled numba
kernels, whose loops stay together for speed) and modules read in one sitting (at most 700
lines)."""

import ast

import pytest

from tests.paths import ROOT

MAX_PAGE_LINES = 200
MAX_FUNCTION_LINES = 80
MAX_MODULE_LINES = 700
KERNEL_DECORATORS = {"njit", "kernel", "jit"}
"""Decorators that compile a function with numba (psl_core/kernels.py, calibration_kernels.py)."""

SOURCES = sorted(
    path
    for folder in ("psl_core", "psl_triage", "ui", "pages", "bench")
    for path in (ROOT / folder).rglob("*.py")
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
    body = "\n".join(f"    x{i} = {i}" for i in range(81))
    source = f"def long():\n{body}\n\n@njit(cache=True)\ndef loop():\n{body}\n\ndef short():\n    return 1\n"
    assert long_functions(source, MAX_FUNCTION_LINES) == [("long", 82)]


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: str(path.relative_to(ROOT)))
def test_functions_and_modules_are_short_enough(path):
    source = path.read_text(encoding="utf-8")
    assert long_functions(source, MAX_FUNCTION_LINES) == []
    assert len(source.splitlines()) <= MAX_MODULE_LINES


def test_page_files_lay_out_in_few_lines():
    pages = sorted((ROOT / "pages").glob("*.py"))
    assert pages
    assert {page.name: n for page in pages if (n := len(page.read_text(encoding="utf-8").splitlines())) > MAX_PAGE_LINES} == {}
