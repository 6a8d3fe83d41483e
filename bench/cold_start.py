"""Cold start: the first fit in a fresh clone, without and with the kernels' warm step.

Run from the repository root with the project's python (about 2-3 minutes: numba
compiles the kernels three times):

    python bench/cold_start.py
    python bench/cold_start.py --skip-image       # only the clone scenarios

The committed state (HEAD) is cloned into a temporary folder (``git clone``), so that
nothing compiled in this checkout is reused. The clone gets a ``.venv`` that borrows this
python's packages (a ``.pth`` file; nothing is installed) and the stamp of ``make``'s
install step, so the Makefile's own warm rule runs as ``make run`` runs it. Each
measurement is a new process that imports psl_core and fits the default list on the demo
data (297 rows) twice; printed: import time, first fit, second fit (wall and CPU).

1. fresh clone, no warm step: the first fit compiles the kernels;
2. ``make .venv/.warmed-kernels`` (the step ``make run`` and ``make test`` run after the
   install), then the first fit loads the kernels from numba's cache;
3. ``make`` again does nothing; ``touch psl_core/kernels.py`` runs the step again, which
   finds the cache valid (numba checks the file's content, not its time);
4. the image's set-up without docker (no daemon here): ``NUMBA_CACHE_DIR`` in a folder of
   its own, ``NUMBA_CPU_NAME=generic``, the warm step and the fit run as uid 10001 (when
   this runs as root) on a code folder that uid cannot write, as in the Dockerfile.
"""

import argparse
import os
import resource
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
APP_UID = 10001

FIRST_FIT = r"""
import json, time
wall, cpu = time.perf_counter(), time.process_time()
from psl_core import ProbabilisticScoringList
from psl_triage.data import infer_column_types, prepare_training_data
from psl_triage.data.demo import load_demo
df, meta = load_demo()
types = infer_column_types(df, meta.columns)
data = prepare_training_data(df, types, meta.outcome, meta.positive_class, "drop", meta.columns)
times = {"import": [time.perf_counter() - wall, time.process_time() - cpu]}
for name in ("first fit", "second fit"):
    wall, cpu = time.perf_counter(), time.process_time()
    ProbabilisticScoringList().fit(data.X, data.y)
    times[name] = [time.perf_counter() - wall, time.process_time() - cpu]
print(json.dumps(times))
"""


def run(command, cwd, env, user=None):
    """Run a command (as ``user`` via setpriv when given); return ("wall (CPU)", stdout)."""
    if user is not None:
        command = ["setpriv", f"--reuid={user}", f"--regid={user}", "--clear-groups", *command]
    start, children = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - children.ru_utime - children.ru_stime
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stdout}\n{done.stderr}")
    return f"{seconds:.1f} s ({cpu:.1f} CPU)", done.stdout


def first_fit(clone, env, label, user=None):
    import json

    _, out = run([sys.executable, "-c", FIRST_FIT], clone, env, user)
    times = json.loads(out.strip().splitlines()[-1])
    parts = ", ".join(f"{name} {wall:.2f} s ({cpu:.2f} CPU)" for name, (wall, cpu) in times.items())
    print(f"  {label}: {parts}", flush=True)
    return times


def fresh_clone(parent, name):
    clone = Path(parent) / name
    subprocess.run(["git", "clone", "--quiet", str(REPO_ROOT), str(clone)], check=True)
    return clone


def borrow_venv(clone):
    """A .venv in the clone that uses this python's packages, marked as installed for make."""
    venv = clone / ".venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    purelib = Path(sysconfig.get_paths()["purelib"])
    site = next((venv / "lib").glob("python3*/site-packages"))
    (site / "borrowed.pth").write_text(f"{purelib}\n")
    (venv / ".installed-requirements").touch()
    (venv / ".installed-requirements-test").touch()


def clean_env(**extra):
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    env.pop("PYTHONPATH", None)
    env.update(extra)
    return env


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-image", action="store_true", help="skip scenario 4")
    args = parser.parse_args(argv)
    load = os.getloadavg()
    print(f"load average at start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores")
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO_ROOT, capture_output=True,
                          text=True).stdout.strip()
    print(f"cloning HEAD {head} of {REPO_ROOT}")
    parent = tempfile.mkdtemp(prefix="psl-cold-")
    try:
        env = clean_env()
        print("1. fresh clone, no warm step (numba compiles during the first fit)")
        first_fit(fresh_clone(parent, "plain"), env, "first process")

        print("2. fresh clone, then the Makefile's warm step")
        clone = fresh_clone(parent, "made")
        borrow_venv(clone)
        seconds, _ = run(["make", ".venv/.warmed-kernels"], clone, env)
        print(f"  make .venv/.warmed-kernels (compiles): {seconds}")
        first_fit(clone, env, "first process after it")

        print("3. make again, then after touching kernels.py")
        seconds, out = run(["make", ".venv/.warmed-kernels"], clone, env)
        print(f"  make again: {seconds}, {out.strip() or 'nothing printed'}")
        (clone / "psl_core" / "kernels.py").touch()
        seconds, out = run(["make", ".venv/.warmed-kernels"], clone, env)
        print(f"  after touch: {seconds}, ran the step again: {'psl_core.warmup' in out}")

        if not args.skip_image:
            print("4. the image's set-up (NUMBA_CACHE_DIR of its own, NUMBA_CPU_NAME=generic)")
            clone = fresh_clone(parent, "image")
            cache = Path(parent) / "numba-cache"
            cache.mkdir()
            user = None
            if os.geteuid() == 0 and shutil.which("setpriv"):
                user = APP_UID
                os.chmod(parent, 0o755)
                os.chown(cache, APP_UID, APP_UID)
                print(f"  warm step and fits as uid {APP_UID}; the code belongs to root")
            else:
                print("  not root: warm step and fits as this user")
            image_env = clean_env(NUMBA_CACHE_DIR=str(cache), NUMBA_CPU_NAME="generic",
                                  PYTHONDONTWRITEBYTECODE="1", HOME=str(cache))
            seconds, _ = run([sys.executable, "-m", "psl_core.warmup"], clone, image_env, user)
            print(f"  RUN python -m psl_core.warmup: {seconds}")
            first_fit(clone, image_env, "first process of a new container", user)
            first_fit(clone, image_env, "first process of another container", user)
    finally:
        shutil.rmtree(parent, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
