"""A list in service, watched over time: the Monitoring page's numbers, without Streamlit.

The patients seen since the list went live come as a table with a date column, the list's
columns and the outcome as it became known. The steps, each a function the page calls:

1. :func:`date_columns` and :func:`read_dates`: which columns hold dates (or years), read as
   dates; :func:`monitored_table` codes the table for the list as a validation at a site does
   (:func:`psl_triage.judging.validation.site_table`: the columns matched, values mapped, a missing
   answer going where the list learned it goes) and puts the patients in date order.
2. :func:`monitor`: per period (month, quarter or year) the patients, outcome rate, O/E with
   its interval, calibration intercept and slope with Wald intervals
   (:mod:`psl_core.calibration_measures`), Brier score and AUC (:mod:`psl_core.metrics`), net
   benefit at 1/(1+M) (:mod:`psl_core.decision_curve`), the shares ruled in / out / uncertain
   and stopped at each question by the bedside stop rule (:func:`psl_core.decision.stop_stages`),
   and per question the answers against training; a period with fewer than
   :data:`MIN_OUTCOMES` patients with the outcome, or without it, is counted but not judged.
   Over the patients in date order the risk-adjusted CUSUM (Steiner et al. 2000,
   :func:`psl_core.monitoring.risk_adjusted_cusum`) with the date it signals, and on the
   patients since a chosen date the closed testing procedure (Vergouwe et al. 2017,
   :func:`psl_core.closed_test.closed_test`), the list's risks judged as the estimates they are
   (:func:`training_counts`: the training patients behind each total's risk).

A horizon list (time, event) is watched on its outcome by the horizon tau, censoring respected
(:func:`censoring_weights`): a patient censored before tau has no known outcome by it and weight
0; the others are weighted by the inverse of the chance of staying in follow-up that long, the
Kaplan-Meier estimate of censoring among the patients of the same period
(:func:`psl_core.survival.ipcw_targets`, the weights Validate and training use): the patients
seen last are followed for the shortest time, and pooled weights would under-weigh them. The
period's O/E, calibration intercept and slope (robust intervals,
:func:`psl_core.calibration_measures.weighted_calibration`), Brier score, AUC and net benefit
(:class:`psl_core.survival.HorizonTargets`) are the weighted ones, the CUSUM runs over the
patients whose outcome is known, each step times the patient's weight, and the closed test
counts each patient its weight scaled to mean 1.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from psl_core.calibration import calibrated_probabilities
from psl_core.calibration_measures import intercept_and_slope, observed_expected, weighted_calibration
from psl_core.closed_test import ClosedTest, closed_test
from psl_core.cost_ratio import decision_threshold
from psl_core.costs import default_change_value
from psl_core.decision import OUTCOMES, StageBands, stop_stages
from psl_core.decision_curve import net_benefit
from psl_core.errors import DataError
from psl_core.metrics import auc
from psl_core.monitoring import Baseline, Cusum, risk_adjusted_cusum
from psl_core.stopping import DEFAULT_TOLERANCE
from psl_core.survival import HorizonTargets, ipcw_targets, is_horizon_list
from psl_core.validation import stage_answers, stage_probabilities
from psl_triage.bedside.session import recommended_length
from psl_triage.judging.validation import SiteTable, site_table
from psl_triage.judging.validation_horizon import horizon_site
from psl_triage.model_file.metadata import ModelMetadata
from psl_triage.words import monitoring as said

PERIODS = {"month": "M", "quarter": "Q", "year": "Y"}
"""The periods a researcher can choose, with their pandas period codes."""
MIN_OUTCOMES = 10
"""A period is judged when at least this many of its patients have the outcome and this many
do not: fewer give an O/E interval wider than a factor of two and a slope without meaning."""
YEARS = (1800, 2200)
"""A column of whole numbers in this range is read as calendar years."""
RISK_DRAWS = 200
"""Bootstrap draws of the list's risks behind the CUSUM's limit (:func:`risk_draws`): the limit's
1,000 simulated runs take them in turn."""
DAYS_A_MONTH = 365.25 / 12
DATE_SHARE = 0.9
"""A column is offered as the date when this share of its values or more read as dates."""
DATE_FORMATS = ("ISO8601", "%d/%m/%Y", "%m/%d/%Y", "%d.%m.%Y", "%d-%m-%Y", "%Y/%m/%d", "%d/%m/%y", "%d %b %Y",
                "%b %Y", "%Y-%m")
"""The text formats of dates tried in order (day before month where both read every value)."""


# ---------------------------------------------------------------------------- dates
def _text_formats(text, present):
    """The first of :data:`DATE_FORMATS` that reads the most of the present values, and whether
    another format reads them all as well (a day-first and a month-first reading of 01/03/2024)."""
    sample = text[present].head(2000)
    counts = {form: int(pd.to_datetime(sample, format=form, errors="coerce").notna().sum()) for form in DATE_FORMATS}
    best = max(counts, key=counts.get)
    rivals = [form for form in DATE_FORMATS if form != best and counts[form] == counts[best] == len(sample)]
    return (best if counts[best] else None), bool(rivals)


def read_dates(series):
    """The column as dates (NaT where empty or unreadable), and whether their format was
    ambiguous: whole numbers in :data:`YEARS` as 1 January of that year, text in the first of
    :data:`DATE_FORMATS` that reads the most values (day first before month first), else as
    pandas guesses each value.

    Returns
    -------
    dates : pandas.Series of datetime64
    ambiguous : bool
    """
    present = series.notna() & (series.astype(str).str.strip() != "")
    if pd.api.types.is_datetime64_any_dtype(series):
        return pd.to_datetime(series), False
    numbers = pd.to_numeric(series.where(present), errors="coerce")
    if present.any() and numbers[present].notna().all():
        years = numbers[present]
        if ((years % 1 == 0) & years.between(*YEARS)).all():
            return pd.to_datetime(numbers.astype("Int64").astype(str).where(present), format="%Y", errors="coerce"), False
        return pd.Series(pd.NaT, index=series.index, dtype="datetime64[ns]"), False
    text = series.where(present).astype(str).str.strip()
    form, ambiguous = _text_formats(text, present)
    if form is None:
        return pd.to_datetime(text, format="mixed", errors="coerce").where(present), False
    return pd.to_datetime(text, format=form, errors="coerce").where(present), ambiguous


def date_columns(frame, sample=500):
    """The columns whose values (of the first ``sample`` rows with one) read as dates or years
    in :data:`DATE_SHARE` of rows or more, names suggesting a date first."""
    found = []
    for column in frame.columns:
        values = frame[column].dropna().head(sample)
        if len(values) and read_dates(values)[0].notna().mean() >= DATE_SHARE:
            found.append(str(column))
    return sorted(found, key=lambda name: not any(word in name.lower() for word in ("date", "year", "time")))


@dataclass(frozen=True)
class MonitoredTable:
    """The patients seen since go-live, coded for the list, in date order.

    Attributes
    ----------
    table : SiteTable
        The list's columns and the outcome (0/1) of the rows with a date and an outcome; of a
        horizon list, the event by its horizon (0 also where censored before it).
    dates : pandas.Series of datetime64, aligned with ``table.X``
    date_column : str
    follow_up : structured ndarray (event, time) or None
        A horizon list's follow-up of the same rows (:func:`psl_core.survival.survival_outcome`).
    horizon : float or None
    """

    table: SiteTable
    dates: pd.Series
    date_column: str
    follow_up: np.ndarray | None = None
    horizon: float | None = None


def monitored_table(model, metadata, frame, mapping, outcome, positive, date_column, value_maps=None, time=None):
    """The table coded for the list (:func:`psl_triage.judging.validation.site_table`) with each row's
    date, rows without a date left out with a note, in date order (:func:`date_order`).

    A horizon list's outcome is the event by its horizon tau: ``outcome`` and ``positive`` name
    the event column and its event values, ``time`` the follow-up time (as Validate reads them,
    :func:`psl_triage.judging.validation_horizon.horizon_site`). A patient censored before tau
    has no known outcome by it: kept (its answers count), with a note, and weighted 0 by
    :func:`censoring_weights`.

    Raises
    ------
    DataError
        The date column missing, or no value of it a date; a horizon list without a time
        column; what :func:`~psl_triage.judging.validation.site_table` refuses.
    """
    if date_column not in frame.columns:
        raise DataError(said.DATE_NOT_IN_TABLE.format(column=date_column))
    if date_column in (outcome, time):
        raise DataError(said.DATE_IS_OUTCOME.format(column=date_column))
    dates, ambiguous = read_dates(frame[date_column])
    if dates.isna().all():
        raise DataError(said.NO_DATES.format(column=date_column))
    dated = frame.loc[dates.notna()]
    follow_up = horizon = None
    if not is_horizon_list(model):
        table = site_table(model, metadata, dated, mapping, outcome, positive, value_maps)
    else:
        site = horizon_site(model, metadata, dated, mapping, time, outcome, positive, value_maps)
        table, follow_up, horizon = _by_horizon(site), site.outcome, site.horizon
    notes = list(table.notes)
    if dates.isna().any():
        notes.insert(0, said.left_out_without_date(int(dates.isna().sum()), date_column))
    if ambiguous:
        notes.insert(0, said.DAY_FIRST.format(column=date_column))
    dates = dates.reindex(table.X.index)
    order = date_order(dates.to_numpy())
    ordered = SiteTable(table.X.iloc[order], table.y[order], notes, table.mapping)
    return MonitoredTable(ordered, dates.iloc[order], str(date_column), None if follow_up is None else follow_up[order],
                          horizon)


def date_order(dates, seed=0):
    """The patients in date order, those of one date in a shuffled order (a permutation of seed
    ``seed``): a year column gives a year's patients one date, and a file sorted by age, say, would
    otherwise show a drift within the year that is only the file's order."""
    shuffled = np.random.default_rng(seed).permutation(len(dates))
    return shuffled[np.argsort(np.asarray(dates)[shuffled], kind="stable")]


def _by_horizon(site):
    """A horizon site's patients, the outcome the event by tau, and a note on those censored
    before it (see :func:`monitored_table`)."""
    event, time = site.outcome["event"].astype(bool), site.outcome["time"]
    by_horizon = event & (time <= site.horizon)
    censored = int((~(by_horizon | (time > site.horizon))).sum())
    notes = list(site.table.notes) + ([said.censored_weighted(censored, len(time), site.horizon, site.unit)]
                                      if censored else [])
    return SiteTable(site.table.X, by_horizon.astype(np.int64), notes, site.table.mapping)


def censoring_weights(follow_up, horizon, labels):
    """Each patient's inverse-probability-of-censoring weight for the outcome by ``horizon``
    (:func:`psl_core.survival.ipcw_targets`), the censoring's Kaplan-Meier estimate taken among the
    patients of the same period (``labels``): 0 where censored before the horizon, 1 / G(t) for an
    event at t <= horizon, 1 / G(horizon) for a patient followed beyond it. A period without any
    event by the end of its follow-up weighs its patients followed beyond the horizon n / (their
    number), the Kaplan-Meier estimate without events; a period none of whose patients is followed
    to the horizon weighs every patient 0 (nothing is known there)."""
    weight = np.zeros(len(follow_up))
    for label in dict.fromkeys(labels):
        here = np.flatnonzero(labels == label)
        part = follow_up[here]
        beyond = part["time"] > horizon
        if not part["event"].any():
            weight[here] = np.where(beyond, len(part) / max(beyond.sum(), 1), 0.0)
            continue
        try:
            weight[here] = ipcw_targets(part, horizon)[1]
        except DataError:  # every patient of the period censored before the horizon
            weight[here] = 0.0
    return weight


# ---------------------------------------------------------------------------- measures
def period_measures(y, p, threshold, confidence=0.95, weight=None):
    """The measures of one period's patients (see the module docstring); NaN where not judged.
    ``weight``: a horizon list's censoring weights (:func:`censoring_weights`), which every measure
    then uses, the patients with weight 0 (outcome unknown) counted in ``patients`` only; "known":
    the others; "rate": the weighted rate by the horizon, the cumulative incidence.

    Returns
    -------
    dict
    """
    y = np.asarray(y, dtype=np.int64)
    known = np.ones(len(y), dtype=bool) if weight is None else np.asarray(weight) > 0
    events = int(y[known].sum())
    found = {"patients": len(y), **({} if weight is None else {"known": int(known.sum())}), "events": events,
             "rate": (y.mean() if weight is None else float(weight @ y) / len(y)) if known.any() else np.nan,
             "expected": float(np.mean(p)) if len(y) else np.nan,
             "judged": min(events, int(known.sum()) - events) >= MIN_OUTCOMES}
    names = ("oe", "oe_lower", "oe_upper", "intercept", "intercept_lower", "intercept_upper",
             "slope", "slope_lower", "slope_upper", "brier", "auc", "net_benefit")
    if not found["judged"]:
        return found | dict.fromkeys(names, np.nan)
    if weight is None:
        weak = intercept_and_slope(y, p, confidence)
        values = (*observed_expected(y, p, confidence), *weak["intercept"], *weak["slope"],
                  float(np.mean((p - y) ** 2)), auc(y, p), float(net_benefit(y, p, [threshold])[0]))
    else:
        weak, targets = weighted_calibration(y, p, weight, confidence), HorizonTargets(y, np.asarray(weight, float))
        values = (*weak["observed_expected"], *weak["intercept"], *weak["slope"], targets.brier(p), targets.auc(p),
                  targets.net_benefit(p, threshold))
    return found | {name: float(value) for name, value in zip(names, values)}


def training_answers(model, metadata, length):
    """Per question: the share of training patients whose answer met its condition (a missing
    answer taking the learned direction, as the totals count it) and the share not recorded: from
    the training values the file records of a numeric column, 0 for a column the list knows had
    no missing training value, NaN where the file does not say (the first: :func:`training_shares`).
    """
    metadata = ModelMetadata.coerce(metadata)
    shares = training_shares(model, length)
    n_rows = metadata.trained_on.n_rows
    rows = []
    for k in range(1, length + 1):
        literal = model.literals_[k - 1]
        recorded = (metadata.column(str(literal.column)).training_range or {}).get("n")
        not_recorded = 1 - recorded / n_rows if recorded is not None and n_rows else np.nan
        if np.isnan(not_recorded) and literal.missing is not None and not literal.missing_learned:
            not_recorded = 0.0  # the column had no missing training value (Literal.missing_learned)
        rows.append({"question": k, "met": shares[k - 1], "not_recorded": not_recorded})
    return pd.DataFrame(rows).set_index("question")


def training_counts(model, stage):
    """The list's reachable totals at ``stage`` and the training patients behind each one's risk,
    its prior's pseudo-counts added (``prior_strength``): the closed test's measure of the list's
    own estimation error (:func:`psl_core.closed_test.closed_test`)."""
    counts = np.asarray(model.stage_positives_[stage], float) + np.asarray(model.stage_negatives_[stage], float)
    return np.asarray(model.stage_totals_[stage]), counts + float(getattr(model, "prior_strength", 0.0) or 0.0)


def training_shares(model, length):
    """Per question 1..``length``: the share of training patients whose answer met its condition
    (a missing answer taking the learned direction), exact from the list's counts per total: the
    mean total moves from stage k-1 to stage k by the question's points times that share."""
    means = [np.sum(totals * (positives + negatives)) / max(np.sum(positives + negatives), 1)
             for totals, positives, negatives in zip(model.stage_totals_, model.stage_positives_,
                                                     model.stage_negatives_)]
    return np.array([(means[k] - means[k - 1]) / model.scores_[k - 1] for k in range(1, length + 1)])


def stage_calibration(model, stage, positives, negatives):
    """The risk per reachable total at ``stage`` that the list's calibration gives these counts per
    total (its method; its prior's pseudo-counts toward their overall rate): the list's own risks
    from its own counts."""
    positives, negatives = np.asarray(positives, dtype=float), np.asarray(negatives, dtype=float)
    rate = positives.sum() / max(positives.sum() + negatives.sum(), 1.0)
    shrink = np.array([float(getattr(model, "prior_strength", 0.0) or 0.0), rate])
    return calibrated_probabilities(np.asarray(model.stage_totals_[stage]), positives, negatives, model.calibration,
                                    shrink=shrink)


def risk_draws(model, stage, n_draws=RISK_DRAWS, seed=0):
    """Risks per reachable total at ``stage`` that the list's training could as well have given it,
    shape (n_draws, J): a bootstrap of its calibration (the training patients resampled within each
    total, Efron & Tibshirani 1993, ch. 6). Each draw gives every total's n_j training patients
    Binomial(n_j, r_j) outcomes, r_j their observed rate, and calibrates them as the list did
    (:func:`stage_calibration`): the draws scatter about the list's risks as its estimate would
    about the truth, and a calibration that pools totals varies less than each total's own rate."""
    positives, negatives = (np.asarray(counts[stage], dtype=float) for counts in (model.stage_positives_,
                                                                                 model.stage_negatives_))
    n = (positives + negatives).astype(np.int64)
    rate = np.divide(positives, n, out=np.zeros(len(n)), where=n > 0)
    drawn = np.random.default_rng(seed).binomial(n, rate, size=(n_draws, len(n)))
    return np.array([stage_calibration(model, stage, row, n - row) for row in drawn])


def list_baseline(model, answers, totals, stage, seed=0):
    """What the charts compare the monitored patients with (:class:`psl_core.monitoring.Baseline`):
    their answers to questions 1..``stage`` and totals at stages 0..``stage`` (shape (n, stage + 1)),
    the training shares meeting each question (:func:`training_shares`) from the list's training
    patients, the risks its training could as well have given (:func:`risk_draws`), and each
    patient's total and risk at the earlier stages with those stages' own bootstrap draws."""
    n_training = float(np.sum(model.stage_positives_[0]) + np.sum(model.stage_negatives_[0]))
    earlier = np.column_stack([stage_probabilities(model, totals[:, k], k) for k in range(1, stage)] or
                              [np.zeros((len(totals), 0))])
    groups, stage_groups = (np.column_stack([np.searchsorted(np.asarray(model.stage_totals_[k]), totals[:, k])
                                             for k in stages] or [np.zeros((len(totals), 0), dtype=int)])
                            for stages in ([stage], range(1, stage)))
    return Baseline(np.asarray(answers, dtype=float), training_shares(model, stage), n_training, groups[:, 0],
                    risk_draws(model, stage, seed=seed), earlier, stage_groups,
                    tuple(risk_draws(model, k, seed=seed + k) for k in range(1, stage)))


def _answer_rows(hits, missing, labels, training):
    """Per period and question: the share meeting its condition (as scored) and not recorded,
    beside training's."""
    k = hits.shape[1]
    shares = [pd.DataFrame(values, columns=range(1, k + 1)).groupby(labels, sort=False).mean()
              .rename_axis("period").rename_axis("question", axis=1).stack().rename(name)
              for values, name in ((hits, "met"), (missing, "not_recorded"))]
    table = pd.concat(shares, axis=1).reset_index()
    table["patients"] = table["period"].map(pd.Series(labels).value_counts())
    table["met_training"] = table["question"].map(training["met"])
    table["not_recorded_training"] = table["question"].map(training["not_recorded"])
    return table[["period", "question", "patients", "met", "not_recorded", "met_training", "not_recorded_training"]]


def _bedside(model, totals, known, length, cost_ratio, confidence):
    """Each patient's stage and outcome code under the bedside stop rule (-1 and -2 where an
    answer up to ``length`` is unknown: the rule is not simulated for them)."""
    rows = known[:, length]
    stop, codes = np.full(len(totals), -1), np.full(len(totals), -2)
    if rows.any():
        costs = np.asarray(model.stage_costs_[:length], dtype=float)
        stop[rows], codes[rows] = stop_stages(StageBands(model, confidence), totals[rows, : length + 1], cost_ratio, length,
                                              DEFAULT_TOLERANCE, default_change_value(costs))
    return stop, codes


def _period_rows(periods, dates, y, judged, risk, stop, codes, threshold, confidence, length, weight=None):
    """The per-period table and the shares stopped at each stage (see :class:`Monitoring`);
    ``weight``: every patient's censoring weight (a horizon list) or None."""
    p_all = np.full(len(y), np.nan)
    p_all[judged] = risk
    rows, stops = [], []
    for label, here in periods.items():
        used, followed = here & judged, here & (codes > -2)
        shares = {f"share_{name.replace(' ', '_')}": (codes[followed] == code).mean() if followed.any() else np.nan
                  for code, name in zip((1, -1, 0), (OUTCOMES[2], OUTCOMES[0], OUTCOMES[1]))}
        rows.append({"period": label, "start": dates[here].min(), "seen": int(here.sum()),
                     **period_measures(y[used], p_all[used], threshold, confidence, _part(weight, used)),
                     "followed": int(followed.sum()), **shares})
        stops += [{"period": label, "stage": k, "share": (stop[followed] == k).mean() if followed.any() else np.nan}
                  for k in range(length + 1)]
    return pd.DataFrame(rows), pd.DataFrame(stops)


@dataclass(frozen=True)
class Monitoring:
    """A list watched over time (:func:`monitor`).

    Attributes
    ----------
    stage, length : int
        The stage the measures judge; the bedside length the stop rule simulates.
    period : str
        A key of :data:`PERIODS`.
    threshold : float
        1 / (1 + M).
    periods : pandas.DataFrame
        One row per period (label, start): :func:`period_measures` and the shares ruled in,
        out, uncertain (of the patients the stop rule could follow: ``followed``).
    stops : pandas.DataFrame
        period, stage (0..length), share: where the bedside stop rule stopped.
    answers : pandas.DataFrame
        :func:`_answer_rows`.
    chart : pandas.DataFrame
        patient (1..n in date order), date, outcome, risk, (a horizon list: weight, its censoring
        weight; only the patients whose outcome by the horizon is known are charted), then every
        CUSUM chart's path (:func:`psl_core.monitoring.chart_names`).
    cusum : Cusum
    signals : dict
        Chart ("up", "down", "flatter", "steeper") -> the date it first exceeds the limit, or None.
    closed : ClosedTest or None
        On the patients from ``test_from``; None without both outcomes among them.
    test_from : pandas.Timestamp or None
    n_judged, n_left_out : int
        Patients whose answers up to ``stage`` are known (or have a learned direction); the others.
    weighted : bool
        A horizon list's outcome by its horizon, censoring weighted (the module docstring).
    """

    stage: int
    length: int
    period: str
    threshold: float
    periods: pd.DataFrame
    stops: pd.DataFrame
    answers: pd.DataFrame
    chart: pd.DataFrame
    cusum: Cusum
    signals: dict
    closed: ClosedTest | None
    test_from: pd.Timestamp | None
    n_judged: int
    n_left_out: int
    weighted: bool = False

    @property
    def per_month(self):
        """The charted patients per month over the days from the first to the last (at least one
        month): the volume the charts' measured delays scale with."""
        dates = self.chart["date"]
        days = (dates.iloc[-1] - dates.iloc[0]).days + 1 if len(dates) else 0
        return len(dates) / max(days / DAYS_A_MONTH, 1.0)


def _monitor_settings(model, period, stage, cost_ratio, metadata):
    """(metadata, M, threshold, bedside length, stage judged) of a :func:`monitor` with its
    defaults filled in; a DataError for an unknown period."""
    if period not in PERIODS:
        raise DataError(said.unknown_period(period, list(PERIODS)))
    metadata = ModelMetadata.coerce(metadata)
    cost_ratio = metadata.cost_ratio if cost_ratio is None else float(cost_ratio)
    threshold = decision_threshold(cost_ratio)
    length = recommended_length(model)
    return metadata, cost_ratio, threshold, length, length if stage is None else model._stage(stage)


def _answers_and_totals(model, X, stage):
    """Every patient's answers to the whole list (condition met, answer missing), the totals after
    each stage, whether they are known there and whether at ``stage`` (the patients judged); a
    DataError when no patient answers the first ``stage`` questions."""
    hits, answered, missing = stage_answers(model, X, len(model.literals_))
    totals = np.cumsum(np.column_stack([np.zeros(len(X), dtype=np.int64), hits * np.asarray(model.scores_)]), axis=1)
    known = np.logical_and.accumulate(np.column_stack([np.ones(len(X), dtype=bool), answered]), axis=1)
    if not known[:, stage].any():
        raise DataError(said.no_patient_answers(stage))
    return hits, missing, totals, known, known[:, stage]


def _part(values, rows):
    """``values[rows]``, None staying None."""
    return None if values is None else values[rows]


def _closed(model, stage, y, p, totals, weight, dates, test_from, alpha):
    """The closed test on the charted patients seen from ``test_from`` (all for None), each counted
    its censoring weight scaled to mean 1 (a horizon list); None without both outcomes among them."""
    tested = np.ones(len(y), dtype=bool) if test_from is None else (dates >= test_from).to_numpy()
    if not (tested.any() and 0 < y[tested].sum() < tested.sum()):
        return None
    counted = None if weight is None else weight[tested] / weight[tested].mean()
    return closed_test(y[tested], p[tested], totals[tested], alpha, training_counts(model, stage), counted)


def monitor(model, monitored, period="month", stage=None, cost_ratio=None, metadata=None, test_from=None,
            confidence=0.95, false_alarm=0.01, alpha=0.05, n_simulations=1000, seed=0, limit=None):
    """The list watched over the monitored patients (see the module docstring).

    Parameters
    ----------
    model : fitted ProbabilisticScoringList
    monitored : MonitoredTable
    period : str
        A key of :data:`PERIODS`.
    stage : int or None
        The stage the measures judge; default the bedside length (:func:`psl_triage.bedside.session.recommended_length`).
    cost_ratio : float
        M (the list's saved M by default, from ``metadata``).
    metadata : ModelMetadata, dict or None
    test_from : date-like or None
        The closed test uses the patients seen on or after it (default: all).
    confidence, false_alarm, alpha, n_simulations, seed
        The intervals' level; the CUSUM's false-alarm probability and simulations
        (:func:`psl_core.monitoring.risk_adjusted_cusum`); the closed test's alpha.
    limit : (float, float or None), callable or None
        The CUSUM's limits (:func:`psl_core.monitoring.cusum_limit`) of an earlier monitoring of the
        same patients, stage and settings (and period, for a horizon list); or a function (risks,
        baseline, false_alarm, n_simulations, seed, weight) -> limit of the charted patients in date
        order (a cache of :func:`psl_core.monitoring.cusum_limit`); None simulates it.

    Returns
    -------
    Monitoring

    Raises
    ------
    DataError
        An unknown period; no patient answers the stage's questions.
    """
    metadata, cost_ratio, threshold, length, stage = _monitor_settings(model, period, stage, cost_ratio, metadata)
    X, y, dates = monitored.table.X, monitored.table.y, monitored.dates
    hits, missing, totals, known, judged = _answers_and_totals(model, X, stage)
    risk = stage_probabilities(model, totals[judged, stage], stage)
    labels = dates.dt.to_period(PERIODS[period]).astype(str).to_numpy()
    periods = {label: labels == label for label in dict.fromkeys(labels)}
    stop, codes = _bedside(model, totals, known, length, cost_ratio, confidence)
    weight = None if monitored.follow_up is None else censoring_weights(monitored.follow_up, monitored.horizon, labels)
    table, stops = _period_rows(periods, dates, y, judged, risk, stop, codes, threshold, confidence, length, weight)
    answers = _answer_rows(hits, missing, labels, training_answers(model, metadata, len(model.literals_)))
    charted = judged if weight is None else judged & (weight > 0)
    order_y, order_p, order_dates, order_w = y[charted], risk[charted[judged]], dates[charted], _part(weight, charted)
    baseline = list_baseline(model, hits[charted, :stage], totals[charted, : stage + 1], stage, seed)
    if callable(limit):
        limit = limit(order_p, baseline, false_alarm, n_simulations, seed, order_w)
    cusum = risk_adjusted_cusum(order_y, order_p, false_alarm, n_simulations, seed=seed, limit=limit, baseline=baseline,
                                weight=order_w)
    chart = pd.DataFrame({"patient": np.arange(1, len(order_y) + 1), "date": order_dates.to_numpy(),
                          "outcome": order_y, "risk": order_p, **({} if order_w is None else {"weight": order_w}),
                          **cusum.paths})
    signals = {name: None if index is None else order_dates.iloc[index] for name, index in cusum.first_signal.items()}
    test_from = None if test_from is None else pd.Timestamp(test_from)
    closed = _closed(model, stage, order_y, order_p, totals[charted, stage], order_w, order_dates, test_from, alpha)
    return Monitoring(stage, length, period, threshold, table, stops, answers, chart,
                      cusum, signals, closed, test_from, int(judged.sum()), int((~judged).sum()), weight is not None)
