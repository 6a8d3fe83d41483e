"""The SQL scorer of a specification: one query that runs unchanged in SQLite and PostgreSQL.

The query reads the answers from a table the hospital fills, one row per patient and question
column answered::

    psl_answers(patient_id, item TEXT, number_value DOUBLE PRECISION, text_value TEXT, not_measured INTEGER)

``item`` is the list's column name; a numeric or yes/no answer goes in ``number_value`` (yes = 1,
no = 0), a category in ``text_value``; ``not_measured = 1`` when the test was not done; a patient
without a row for a column, or with both values NULL, has that answer unknown (every patient needs
one row at least). It returns one row per patient: ``patient_id, stop, stop_reason, totals`` (the
possible totals, comma-separated), ``risk_low, risk_high, lower_bound, upper_bound, outcome,
action``, as the specification's test cases hold them (``stop_reason`` :data:`OUTSIDE` when the
answers reach a total the specification's stages do not hold: its points were changed).

Only what both dialects share is used: ``WITH RECURSIVE``, ``VALUES``, ``CASE``, ``CAST``, ``||``,
``SUBSTR``, ``LENGTH`` and the aggregates MIN, MAX, SUM. Every probability, cut-off and cost is
written as an integer divided by powers of two (``CAST(m AS DOUBLE PRECISION) / CAST(2^e AS DOUBLE
PRECISION)``), exact in binary, as a decimal literal is not in every engine's parser (SQLite 3.40
reads about 1 in 20,000 shortest decimals one bit off).
"""

import json
import math

from .specification import verify

DOUBLE = "DOUBLE PRECISION"
_NULL_INTEGER = "CAST(NULL AS INTEGER)"
_NULL_DOUBLE = f"CAST(NULL AS {DOUBLE})"
_LARGEST_STEP = 62  # 2**62 is a BIGINT in both dialects
OUTSIDE = "total outside the specification"
"""The stop reason of a patient whose answers reach a total no stage of the specification holds: the
points and the stages disagree (a changed specification), and the row says so instead of scoring."""


def exact_number(value):
    """SQL for the double ``value`` exactly: an integer over powers of two."""
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"a specification's number must be finite, got {value!r}")
    if value == int(value) and abs(value) < 2**53:
        return f"CAST({int(value)} AS {DOUBLE})"
    mantissa, exponent = math.frexp(value)
    numerator, power = int(mantissa * 2**53), 53 - exponent
    while numerator % 2 == 0 and power > 0:
        numerator, power = numerator // 2, power - 1
    text = f"CAST({numerator} AS {DOUBLE})"
    while power > 0:
        step = min(power, _LARGEST_STEP)
        text, power = f"({text} / CAST({2**step} AS {DOUBLE}))", power - step
    return text


def text_literal(value):
    """A SQL string literal ('' doubles a quote; backslashes are plain in both dialects' standard strings)."""
    return "'" + str(value).replace("'", "''") + "'"


def _optional(value, null, render):
    return null if value is None else render(value)


def _holds_expression(question):
    """The 0/1 (NULL: unknown) of one question's condition for the answer row ``a``."""
    condition = question["condition"]
    not_measured = _optional(question["not_measured"], _NULL_INTEGER, lambda held: str(int(held)))
    field = "a.text_value" if condition["op"] in ("in", "not in") else "a.number_value"
    if condition["op"] == "any value":
        test = "1 = 1" if condition["holds"] else "1 = 0"
    elif condition["op"] in ("in", "not in"):
        listed = ", ".join(text_literal(value) for value in condition["values"])
        test = f"{field} {'IN' if condition['op'] == 'in' else 'NOT IN'} ({listed})"
    else:
        test = f"{field} {condition['op']} {exact_number(condition['threshold'])}"
    return (f"CASE WHEN a.not_measured = 1 THEN {not_measured} WHEN {field} IS NULL THEN NULL "
            f"WHEN {test} THEN 1 ELSE 0 END")


def _holds(questions):
    if not questions:
        return f"SELECT patient_id, 1, 0, {_NULL_INTEGER} FROM patients WHERE 1 = 0"
    return "\n  UNION ALL\n  ".join(
        f"SELECT p.patient_id, {q['stage']}, {int(q['points'])}, {_holds_expression(q)}\n"
        f"  FROM patients p LEFT JOIN psl_answers a ON a.patient_id = p.patient_id AND a.item = {text_literal(q['column'])}"
        for q in questions
    )


def _stage_rows(stages):
    rows = []
    for stage in stages:
        change = stage["change"]
        for i, total in enumerate(stage["totals"]):
            counts = [0, 0, 0, 0] if change is None else [change["patients"][i], *(c[i] for c in change["changed"])]
            settled = _optional(stage["settled"][i], _NULL_INTEGER, str)
            numbers = ", ".join(exact_number(stage[key][i]) for key in ("risk", "lower", "upper"))
            rows.append(f"({stage['stage']}, {total}, {numbers}, {settled}, {', '.join(map(str, counts))})")
    return ",\n    ".join(rows)


def _rule_rows(stages):
    rows = []
    for stage in stages:
        change = stage["change"]
        pooled = [0] * 6 if change is None else [*change["pooled_patients"], *change["pooled_changed"]]
        cost = _optional(stage["next_cost"], _NULL_DOUBLE, exact_number)
        rows.append(f"({stage['stage']}, {0 if change is None else 1}, {', '.join(map(str, pooled))}, {cost})")
    return ",\n    ".join(rows)


def _by_code(prefix):
    return (f"CASE d.code WHEN -1 THEN {prefix}_out WHEN 0 THEN {prefix}_uncertain ELSE {prefix}_in END")


def _totals_text(stages):
    """A patient's possible totals at a stage as "t1,t2,...," (in order): a flat aggregate per total
    any stage reaches. The query joins nothing after its summary per patient and stage: a
    recursive string aggregation and a join back to each patient's stop made PostgreSQL 15 nest
    loops over every patient (77 s for 300 patients of a 22-question list)."""
    every = sorted({total for stage in stages for total in stage["totals"]})
    return " || ".join(f"CASE WHEN MAX(CASE WHEN s.total = {t} THEN 1 ELSE 0 END) = 1 THEN '{t},' ELSE '' END"
                       for t in every)


def _reasons(spec):
    """The CASE of the stop rule (settings fixed by the specification)."""
    settings, last = spec["settings"], len(spec["questions"])
    cases = [f"WHEN x.outside_totals > 0 THEN {text_literal(OUTSIDE)}",
             f"WHEN x.stage < {last} AND x.open_totals = 0 AND x.settled_min = x.code AND x.settled_max = x.code "
             "THEN 'settled'"]
    if not spec["stop_rule"]["statistics"]:
        cases.append("WHEN x.code <> 0 THEN 'ruled in or out'")
    cases += [
        f"WHEN x.code <> 0 AND x.change_share IS NOT NULL AND x.change_share < {exact_number(settings['tolerance'])} "
        "THEN 'unlikely to change'",
        f"WHEN x.stage = {last} THEN 'end of list'",
    ]
    if settings["change_value"] is not None:
        cases.append(f"WHEN x.change_share IS NOT NULL AND x.next_cost > 0 AND x.change_share * "
                     f"{exact_number(settings['change_value'])} < x.next_cost THEN 'not worth its cost'")
    return "CASE " + "\n      ".join(cases) + " ELSE NULL END"


_QUERY = """WITH RECURSIVE
  patients(patient_id) AS (SELECT DISTINCT patient_id FROM psl_answers),
  answer_holds(patient_id, stage, points, held) AS (
  {holds}
  ),
  branches(taken) AS (VALUES (0), (1)),
  states(patient_id, stage, total) AS (
    SELECT patient_id, 0, 0 FROM patients
    UNION
    SELECT s.patient_id, s.stage + 1, s.total + b.taken * h.points
    FROM states s
    JOIN answer_holds h ON h.patient_id = s.patient_id AND h.stage = s.stage + 1
    JOIN branches b ON h.held IS NULL OR h.held = b.taken
    WHERE s.stage < {last}
  ),
  stage_table(stage, total, risk, low_bound, high_bound, settled, patients, changed_out, changed_uncertain, changed_in) AS (
    VALUES
    {stage_rows}
  ),
  stage_rules(stage, has_change, pooled_out, pooled_uncertain, pooled_in, pooled_changed_out, pooled_changed_uncertain,
              pooled_changed_in, next_cost) AS (
    VALUES
    {rule_rows}
  ),
  summary AS (
    SELECT s.patient_id, s.stage, MIN(t.risk) AS risk_low, MAX(t.risk) AS risk_high,
      MIN(t.low_bound) AS low_bound, MAX(t.high_bound) AS high_bound,
      SUM(CASE WHEN t.settled IS NULL THEN 1 ELSE 0 END) AS open_totals,
      SUM(CASE WHEN t.total IS NULL THEN 1 ELSE 0 END) AS outside_totals,
      MIN(t.settled) AS settled_min, MAX(t.settled) AS settled_max, SUM(t.patients) AS patients,
      SUM(t.changed_out) AS changed_out, SUM(t.changed_uncertain) AS changed_uncertain, SUM(t.changed_in) AS changed_in,
      {totals_text} AS totals
    FROM states s LEFT JOIN stage_table t ON t.stage = s.stage AND t.total = s.total
    GROUP BY s.patient_id, s.stage
  ),
  decided AS (
    SELECT m.*, CASE WHEN m.low_bound > {threshold} THEN 1 WHEN m.high_bound < {threshold} THEN -1 ELSE 0 END AS code
    FROM summary m
  ),
  shared AS (
    SELECT d.*, r.next_cost,
      CASE WHEN r.has_change = 0 THEN NULL
        WHEN d.patients >= {min_rows}
          THEN CAST({changed} AS {double}) / CAST(d.patients AS {double})
        WHEN {pooled} >= 1
          THEN CAST({pooled_changed} AS {double}) / CAST({pooled} AS {double})
        ELSE NULL END AS change_share
    FROM decided d JOIN stage_rules r ON r.stage = d.stage
  ),
  reasons AS (
    SELECT x.*, {reasons} AS stop_reason
    FROM shared x
  ),
  stopped AS (
    SELECT r.*, MIN(CASE WHEN r.stop_reason IS NOT NULL THEN r.stage END) OVER (PARTITION BY r.patient_id) AS stop
    FROM reasons r
  )
SELECT f.patient_id, f.stage AS stop, f.stop_reason, CASE WHEN LENGTH(f.totals) > 0 THEN SUBSTR(f.totals, 1, LENGTH(f.totals) - 1) ELSE '' END AS totals, f.risk_low, f.risk_high,
  f.low_bound AS lower_bound, f.high_bound AS upper_bound,
  CASE f.code WHEN 1 THEN 'rule in' WHEN -1 THEN 'rule out' ELSE 'uncertain' END AS outcome,
  CASE WHEN f.code = 1 THEN 'positive' WHEN f.code = -1 THEN 'negative' ELSE {uncertain_action} END AS action
FROM stopped f
WHERE f.stage = f.stop
ORDER BY f.patient_id;
"""
"""The query with its parts left open (str.format fields); :func:`sql_scorer` fills them."""


def sql_scorer(spec):
    """The SQL query of a specification (text; see the module docstring for its input and output)."""
    verify(spec)
    settings, identity = spec["settings"], spec["list"]
    threshold = exact_number(settings["threshold"])
    uncertain_action = "'positive'" if settings["basis"] == "upper" else (
        f"CASE WHEN f.risk_high > {threshold} THEN 'positive' ELSE 'negative' END")
    header = (f"-- Generated from the specification of {json.dumps(identity['name'])} version "
              f"{json.dumps(identity['version'])}\n-- model file SHA-256 {identity['model_sha256']}, "
              f"specification checksum {spec['checksum']}.\n"
              "-- Input: psl_answers(patient_id, item, number_value, text_value, not_measured); "
              "one row per patient and column.\n")
    return header + _QUERY.format(
        holds=_holds(spec["questions"]), last=len(spec["questions"]), stage_rows=_stage_rows(spec["stages"]),
        rule_rows=_rule_rows(spec["stages"]), threshold=threshold, min_rows=int(spec["stop_rule"]["min_rows"]),
        changed=_by_code("d.changed"), double=DOUBLE, pooled=_by_code("r.pooled"),
        pooled_changed=_by_code("r.pooled_changed"), reasons=_reasons(spec), uncertain_action=uncertain_action,
        totals_text=_totals_text(spec["stages"]),
    )
