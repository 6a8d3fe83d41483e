"""numba's on-disk cache stays right when the kernels are split over two modules."""

import ast
import hashlib
import re
from pathlib import Path

from psl_core import kernels

ROOT = Path(__file__).resolve().parents[2]
KERNEL_MODULES = {"psl_core/calibration_kernels.py", "psl_core/kernels.py"}


def test_the_search_kernels_record_the_calibration_kernels_they_were_compiled_against():
    source = (ROOT / "psl_core" / "calibration_kernels.py").read_bytes()
    assert hashlib.sha256(source).hexdigest() == kernels.CALIBRATION_KERNELS_SHA256, (
        "psl_core/calibration_kernels.py changed: set CALIBRATION_KERNELS_SHA256 in psl_core/kernels.py to "
        f"{hashlib.sha256(source).hexdigest()!r}, so numba compiles the search's kernels (its callers) again"
    )


def _uses_numba(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return any(
        isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("numba") for node in ast.walk(tree)
    ) or any(isinstance(node, ast.Import) and any(a.name.startswith("numba") for a in node.names) for node in ast.walk(tree))


def test_every_kernel_module_is_listed_where_the_cache_is_rebuilt():
    with_numba = {str(path.relative_to(ROOT)) for path in (ROOT / "psl_core").glob("*.py") if _uses_numba(path)}
    assert with_numba == KERNEL_MODULES
    listed = re.search(r"^KERNEL_MODULES := (.*)$", (ROOT / "Makefile").read_text(), re.M).group(1).split()
    assert set(listed) == KERNEL_MODULES
