"""numba's on-disk cache stays right when the kernels are split over two modules."""

import ast
import hashlib
import json
import re
import shutil
import subprocess
import sys

import pytest
from numba.core.dispatcher import Dispatcher

from psl_core import kernels
from tests.paths import ROOT

KERNEL_MODULES = {"psl_core/calibration_kernels.py", "psl_core/kernels.py", "psl_core/monitoring.py"}

# One kernel of kernels.py that calls a calibration kernel (_sigmoid_fit), on two folds of
# four totals; prints the criterion it computes.
_CALL_THE_SIGMOID_KERNEL = """
import json
import numpy as np
from copy_of_core import kernels
fold_pos = np.array([[1.0, 0.0, 2.0, 1.0], [0.0, 1.0, 1.0, 3.0]])
fold_neg = np.array([[3.0, 2.0, 1.0, 0.0], [2.0, 2.0, 0.0, 1.0]])
work = np.zeros(4)
loss = kernels._sigmoid_held_out(
    fold_pos, fold_neg, fold_pos.sum(axis=0), fold_neg.sum(axis=0), 0, 3, np.array([0.0, 0.5]),
    np.array([np.nan, np.nan]), kernels.CV_BRIER, work.copy(), work.copy(), work.copy(),
)
print(json.dumps(loss))
"""


def test_the_search_kernels_key_their_cache_by_the_calibration_kernels_source():
    source = (ROOT / "psl_core" / "calibration_kernels.py").read_bytes()
    assert hashlib.sha256(source).hexdigest() == kernels.CALIBRATION_KERNELS_SHA256
    dispatchers = [value for value in vars(kernels).values() if isinstance(value, Dispatcher)]
    own = [d for d in dispatchers if d.py_func.__module__ == kernels.__name__]
    assert len(own) >= 15
    assert all(isinstance(d._cache, kernels._KernelCache) for d in own), "compile kernels.py's kernels with @kernel"
    cache = kernels._label_value._cache
    key = cache._index_key((), kernels._label_value.targetctx.codegen())
    assert key[-1] == kernels.CALIBRATION_KERNELS_SHA256


def test_the_kernels_import_and_run_with_numba_turned_off():
    code = "from psl_core import kernels; print(kernels._entropy_bits(0.5), kernels._label_value.__module__)"
    completed = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=600, check=False,
        env={"PATH": "/usr/bin:/bin", "NUMBA_DISABLE_JIT": "1"},
    )
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.split() == ["1.0", "psl_core.kernels"]


def _run_copy(package_parent, cache_dir):
    completed = subprocess.run(
        [sys.executable, "-c", _CALL_THE_SIGMOID_KERNEL], cwd=package_parent, capture_output=True, text=True,
        env={"PATH": "/usr/bin:/bin", "NUMBA_CACHE_DIR": str(cache_dir)}, timeout=600, check=False,
    )
    assert completed.returncode == 0, completed.stderr
    return json.loads(completed.stdout)


@pytest.mark.slow
def test_an_edit_of_the_calibration_kernels_compiles_the_search_kernels_again(tmp_path):
    """A cached search kernel that calls a calibration kernel, which then changes: the next
    process computes with the new calibration, as a process with an empty cache does."""
    package = tmp_path / "copy_of_core"
    package.mkdir()
    (package / "__init__.py").write_text("")
    for name in ("kernels.py", "calibration_kernels.py"):
        shutil.copy(ROOT / "psl_core" / name, package / name)
    cache = tmp_path / "cache"
    before = _run_copy(tmp_path, cache)
    assert _run_copy(tmp_path, cache) == before and any(cache.rglob("*.nbi"))
    calibration = package / "calibration_kernels.py"
    text = calibration.read_text()
    start = "    total, constant = _constant_fit(pos, neg)\n"
    assert text.count(start) >= 1
    # The sigmoid fit now ignores its counts: a flat 50 % risk.
    calibration.write_text(text.replace(start, "    if pos.shape[0] > 0:\n        return 0.0, 0.0\n" + start, 1))
    after = _run_copy(tmp_path, cache)
    assert after != pytest.approx(before)
    assert after == pytest.approx(_run_copy(tmp_path, tmp_path / "empty_cache"))


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


def test_the_search_kernels_release_the_gil_and_key_their_cache_by_their_options():
    """The internal cross-validation searches its folds in threads: a kernel holding the GIL would
    run them one after another. numba's own cache key leaves the options out, so a kernel cached
    before with other options must not be loaded as it was."""
    for dispatcher in (kernels._search_feature, kernels._code_buckets):
        assert dispatcher.targetoptions.get("nogil") is True
    key = kernels._search_feature._cache._index_key((), kernels._search_feature.targetctx.codegen())
    assert tuple(sorted(kernels.KERNEL_OPTIONS.items())) in key
