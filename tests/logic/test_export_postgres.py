"""The export's SQL query in a real PostgreSQL server, unchanged (issue 42, item 2).

A throwaway cluster is started on a Unix socket in a temporary folder (no TCP port) with the
machine's PostgreSQL (``initdb`` under /usr/lib/postgresql/*/bin); without one the test is skipped:
the query is then still parsed by PostgreSQL's own parser in tests/logic/test_export.py.
"""

from __future__ import annotations

import csv
import glob
import io
import json
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from psl_triage.bedside.export import specification
from psl_triage.model_file.export import sealed, sql_scorer
from psl_triage.model_file.export.sql import OUTSIDE
from tests.export_checks import answer_rows
from tests.export_lists import export_corpus

BINARIES = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))


def _as_postgres():
    """The command prefix that runs a server program: as the "postgres" user when we are root
    (PostgreSQL refuses to run as root), else as ourselves; None when neither can."""
    if os.geteuid() != 0:
        return []
    try:
        pwd.getpwnam("postgres")
    except KeyError:
        return None
    return ["runuser", "-u", "postgres", "--"] if shutil.which("runuser") else None


@pytest.fixture(scope="module")
def psql():
    prefix = _as_postgres()
    if not BINARIES or prefix is None:
        pytest.skip("no PostgreSQL server programs on this machine")
    bin_dir = Path(BINARIES[-1]).parent
    folder = Path(tempfile.mkdtemp(prefix="psl-export-postgres-"))  # pytest's own folder is the runner's alone
    if prefix:
        shutil.chown(folder, "postgres")
    data = folder / "data"
    run = lambda *args, **kw: subprocess.run([*prefix, *map(str, args)], capture_output=True, text=True, timeout=120, **kw)  # noqa: E731
    assert run(bin_dir / "initdb", "-D", data, "-A", "trust", "-U", "postgres").returncode == 0
    started = run(bin_dir / "pg_ctl", "-D", data, "-o", f"-k {folder} -h ''", "-l", folder / "log", "-w", "start")
    assert started.returncode == 0, started.stderr

    def query(script):
        done = run(bin_dir / "psql", "-h", folder, "-U", "postgres", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-f", "-",
                   input=script)
        assert done.returncode == 0, done.stderr
        return done.stdout

    yield query
    run(bin_dir / "pg_ctl", "-D", data, "-m", "immediate", "stop")
    shutil.rmtree(folder, ignore_errors=True)


def _literal(value):
    if value is None:
        return "NULL"
    if isinstance(value, str):
        return "'" + value.replace("'", "''") + "'"
    return repr(value) if isinstance(value, int) else f"CAST('{float(value)!r}' AS DOUBLE PRECISION)"


@pytest.mark.slow
@pytest.mark.parametrize("name", list(export_corpus()))
def test_the_sql_scorer_reproduces_every_test_case_in_postgresql(psql, name):
    spec = specification(*export_corpus()[name])
    rows = ", ".join("(" + ", ".join(_literal(v) for v in row) + ")" for row in answer_rows(
        [case["answers"] for case in spec["test_cases"]]))
    out = psql("CREATE TEMP TABLE psl_answers(patient_id INTEGER, item TEXT, number_value DOUBLE PRECISION, "
               f"text_value TEXT, not_measured INTEGER);\nINSERT INTO psl_answers VALUES {rows};\n"
               "\\pset format csv\n\\pset tuples_only on\n" + sql_scorer(spec))
    found = list(csv.reader(io.StringIO(out)))
    assert len(found) == len(spec["test_cases"])
    for patient, stop, reason, totals, risk_low, risk_high, lower, upper, outcome, action in found:
        got = {"stop": int(stop), "stop_reason": reason, "totals": [int(t) for t in totals.split(",") if t],
               "risk_low": float(risk_low), "risk_high": float(risk_high), "lower": float(lower), "upper": float(upper),
               "outcome": outcome, "action": action}
        assert got == spec["test_cases"][int(patient)]["expected"]


def test_a_total_outside_the_specification_is_named_not_scored(psql):
    """A changed point (re-sealed) reaches a total no stage holds: the row says so."""
    spec = json.loads(json.dumps(specification(*export_corpus()["ordered levels"])))
    spec["questions"][-1]["points"] -= 1  # the last question's total now reaches one below the stage's lowest
    patients = [{"Sleep": None, "Age": None}]
    rows = ", ".join("(" + ", ".join(_literal(v) for v in row) + ")" for row in answer_rows(patients))
    out = psql("CREATE TEMP TABLE psl_answers(patient_id INTEGER, item TEXT, number_value DOUBLE PRECISION, "
               f"text_value TEXT, not_measured INTEGER);\nINSERT INTO psl_answers VALUES {rows};\n"
               "\\pset format csv\n\\pset tuples_only on\n" + sql_scorer(sealed(spec)))
    assert [row[2] for row in csv.reader(io.StringIO(out))] == [OUTSIDE]
