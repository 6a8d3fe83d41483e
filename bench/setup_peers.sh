#!/usr/bin/env bash
# Creates bench/.venv-peers with the peer learners used by bench/compare.py:
#   scikit-psl 0.7.2 (the PSL reference implementation; needs numpy<2 and pandas<3)
#   fasterrisk       (latest that installs)
# fasterrisk 0.1.10 pins pandas==1.5.2 and scikit-learn==1.2.0, which conflict with
# scikit-psl's pandas>=2.2.3 and scikit-learn>=1.5.2. Its code runs on the newer versions,
# so it is installed with --no-deps next to the modules it imports (matplotlib, pillow,
# requests), keeping scikit-psl's resolved numpy/pandas/scikit-learn.
# Idempotent: re-running skips what is already installed. Run from anywhere.
set -euo pipefail

BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
VENV="$BENCH_DIR/.venv-peers"
PY="${PYTHON:-python3}"

if [ ! -x "$VENV/bin/python" ]; then
    echo "creating $VENV"
    "$PY" -m venv "$VENV"
    "$VENV/bin/python" -m pip install --quiet --upgrade pip
fi

if "$VENV/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('scikit-psl') != '0.7.2')" 2>/dev/null; then
    echo "scikit-psl 0.7.2 already installed"
else
    "$VENV/bin/python" -m pip install --quiet "scikit-psl==0.7.2" "numpy<2" "pandas<3"
fi

if "$VENV/bin/python" -c "import fasterrisk" 2>/dev/null; then
    echo "fasterrisk already installed"
else
    "$VENV/bin/python" -m pip install --quiet "matplotlib" "pillow" "requests" "numpy<2" "pandas<3"
    "$VENV/bin/python" -m pip install --quiet --no-deps fasterrisk
fi

"$VENV/bin/python" - <<'PY'
import importlib.metadata as m
for name in ("scikit-psl", "fasterrisk", "numpy", "pandas", "scikit-learn", "scipy"):
    try:
        print(f"{name}=={m.version(name)}")
    except m.PackageNotFoundError:
        print(f"{name}: not installed")
PY
