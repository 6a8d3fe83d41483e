"""External validation of a list of the risk within a horizon tau (follow-up data).

The Validate page's path for a list learned with ``ProbabilisticScoringList(horizon=tau)``:

1. :func:`follow_up_defaults`: the site's time column (the list's own time column's name
   when the table has it) and its event column with the values that mean "the event
   happened" (chosen like an outcome's positive values).
2. :func:`horizon_site`: the site's table coded for the list
   (:func:`psl_triage.judging.validation.site_table`, the event as its outcome) with each row's
   follow-up time; a time column that is not numbers or has negative times, or an event
   column with other than two values, is refused with a message naming it.
3. :func:`horizon_report`: the measures at tau on the rows that answer the stage's
   questions, censoring respected, each from :mod:`psl_core.survival` (the censoring
   distribution estimated on the same rows, never the training rows: another site's
   follow-up runs by its own schedule, :func:`psl_core.survival.held_out_targets`; the
   report says when the two differ): Brier score (IPCW), time-dependent AUC,
   observed / expected, predicted against Kaplan-Meier observed risk per total and per
   tenth of predicted risk, net benefit at 1 / (1 + M) and the decision curve at tau.
4. :func:`recalibration_part`: the weighted yes/no problem at tau
   (:func:`psl_core.survival.training_weights`) that
   :func:`psl_triage.judging.validation.save_recalibrated` recalibrates the totals' risks on.

Competing events are out of scope (:data:`psl_triage.words.lists.COMPETING_EVENTS`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from psl_core import survival
from psl_core.decision_curve import DEFAULT_THRESHOLD_RANGE, THRESHOLD_GRID, TREAT_ALL, TREAT_NONE
from psl_core.errors import DataError
from psl_core.evaluation import PSL
from psl_core.validation import stage_risks, stage_rows
from psl_triage.data import count_classes, value_label
from psl_triage.judging.evidence import in_range, with_interventions_avoided
from psl_triage.judging.horizon import calibration_tables
from psl_triage.judging.validation import SiteTable, outcome_defaults, site_table
from psl_triage.model_file.metadata import FollowUpRecord, ModelMetadata, list_horizon
from psl_triage.words import site as said
from psl_triage.words.validate import other_values_censored


@dataclass(frozen=True)
class HorizonSite:
    """The site's table coded for a horizon list.

    Attributes
    ----------
    table : SiteTable
        The list's columns (``X``) and the event as 0/1 (``y``) of the rows with a time.
    outcome : structured ndarray of shape (n,)
        (event, time) of the same rows (:func:`psl_core.survival.survival_outcome`).
    horizon : float
    unit : str
    uncensored_trained : float or None
        The training rows' chance of staying uncensored to the horizon, as the list's file
        records it (None in a file saved before it did).
    """

    table: SiteTable
    outcome: np.ndarray
    horizon: float
    unit: str = ""
    uncensored_trained: float | None = None


def follow_up_defaults(metadata, frame):
    """The time column, event column and event values to start with on a site's table.

    Returns
    -------
    time : str or None
        The list's time column when the table has a column of that name.
    event : str or None
    positive : list
        As :func:`psl_triage.judging.validation.outcome_defaults` (the saved event column's name and
        the values that meant "event" at training).
    """
    time = (ModelMetadata.coerce(metadata).follow_up or FollowUpRecord()).time
    columns = [str(c) for c in frame.columns]
    event, positive = outcome_defaults(metadata, frame)
    return (str(time) if time is not None and str(time) in columns else None), event, positive


def _times(frame, time):
    """The time column as numbers (NaN where empty); DataError for text or negative times."""
    if time not in frame.columns:
        raise DataError(said.TIME_NOT_IN_TABLE.format(time=time))
    raw = frame[time]
    present = raw.notna() & (raw.astype(str).str.strip() != "")
    times = pd.to_numeric(raw.where(present), errors="coerce").astype(float)
    bad = present & ~np.isfinite(times)
    if bad.any():
        examples = ", ".join(sorted({str(v) for v in raw[bad]})[:3])
        raise DataError(said.TIMES_NOT_NUMBERS.format(count=int(bad.sum()), time=time, examples=examples))
    if (times < 0).any():
        raise DataError(said.NEGATIVE_TIMES.format(time=time, count=int((times < 0).sum())))
    return times.where(present)


def _check_event(frame, event, positive, notes):
    """DataError unless the event column holds two values (event, censored), or more with the
    event values chosen: the others then count as censored (as on the Data page), with a note."""
    values = [value for value, _ in count_classes(frame[event])] if event in frame.columns else []
    chosen = {value_label(v) for v in positive or ()}
    if len(values) > 2 and chosen:
        notes.append(other_values_censored(event, [v for v in values if value_label(v) in chosen],
                                           [v for v in values if value_label(v) not in chosen]))
        return
    if event in frame.columns and len(values) != 2:
        raise DataError(said.event_not_two_values(event, values))


def horizon_site(model, metadata, frame, mapping, time, event, positive, value_maps=None):
    """The site's table coded for a horizon list, with its follow-up (see :class:`HorizonSite`).

    Rows without an event value or a time are left out, with a note.

    Raises
    ------
    DataError
        The time column missing, not numbers or negative; the event column not two-valued or
        without a chosen event value; what :func:`psl_triage.judging.validation.site_table` refuses.
    """
    if time is None:
        raise DataError(said.CHOOSE_TIME_COLUMN)
    if time == event:
        raise DataError(said.TIME_IS_EVENT.format(time=time))
    times = _times(frame, time)
    event_notes = []
    _check_event(frame, event, positive, event_notes)
    table = site_table(model, metadata, frame, mapping, event, positive, value_maps)
    times = times.reindex(table.X.index)
    known = times.notna().to_numpy()
    notes = event_notes + list(table.notes)
    if not known.all():
        notes.append(said.left_out_without_time(int((~known).sum()), time))
    if not known.any():
        raise DataError(said.NO_TIMES.format(time=time))
    kept = SiteTable(table.X.loc[known], table.y[known], notes, table.mapping)
    horizon = list_horizon(model, metadata)
    _check_reach(times[known], time, horizon.horizon, horizon.unit)
    return HorizonSite(kept, survival.survival_outcome(times[known].to_numpy(float), kept.y), horizon.horizon,
                       horizon.unit, horizon.uncensored_at_horizon)


def _check_reach(times, time, horizon, unit):
    """DataError when no patient is followed beyond the horizon: nothing is known at it, and
    most often the site's times are in another unit than the list's."""
    if not (times > horizon).any():
        raise DataError(said.horizon_out_of_reach(horizon, unit, time, times.max()))


CENSORING_GAP = 0.05
"""How far (in G(tau), the chance of staying uncensored to the horizon) a site's censoring may
be from the training rows' before the report says that they differ: five in a hundred patients
followed to the horizon here that were not in training, or the reverse."""


BOOTSTRAP_RESAMPLES = 200
"""Resamples of the site's patients behind the intervals and bands at the horizon."""


@dataclass(frozen=True)
class HorizonReport:
    """One stage of a horizon list judged at a site (:func:`horizon_report`).

    Attributes
    ----------
    stage, n_rows, n_missing : int
        The stage; rows that answer its questions (a missing answer going where the list
        learned it goes); rows left out for a missing answer the list learned no direction for.
    n_not_measured : int
        Rows used with a missing answer (:func:`psl_core.validation.stage_rows`).
    uncensored, uncensored_trained : float, float or None
        The chance of staying uncensored to tau (Kaplan-Meier, G(tau)) of these rows, whose
        censoring weights the measures use, and of the training rows (None when the list's
        file does not record it); :attr:`censoring_differs` compares them.
    undirected : tuple of str
        The columns whose missing answers left the ``n_missing`` rows out.
    counts : dict
        :func:`psl_core.survival.horizon_summary` of the rows: n, events (by tau),
        censored (before tau), beyond (followed past tau).
    brier, auc, observed_expected : float
        At tau, censoring weighted.
    observed, mean_predicted : float
        Kaplan-Meier risk by tau of the rows; their mean predicted risk.
    totals, deciles : pandas.DataFrame
        group, patients, predicted, observed (Kaplan-Meier) per total and per tenth of
        predicted risk (numbered from 1).
    threshold, net_benefit : float
        1 / (1 + M) and the list's net benefit there.
    curves : pandas.DataFrame
        method (the list, treat all, treat none), threshold, mean, lower, upper (95 %
        percentile bands from :data:`BOOTSTRAP_RESAMPLES` resamples of the site's patients),
        the decision curve at tau in the default threshold range and at 1 / (1 + M).
    intervals : dict
        measure -> (lower, upper): 95 % percentile bootstrap intervals of brier, auc and
        observed_expected (:func:`psl_core.survival.bootstrap_at_horizon`).
    """

    stage: int
    n_rows: int
    n_missing: int
    counts: dict
    brier: float
    auc: float
    observed_expected: float
    observed: float
    mean_predicted: float
    totals: pd.DataFrame
    deciles: pd.DataFrame
    threshold: float
    net_benefit: float
    curves: pd.DataFrame
    n_not_measured: int = 0
    undirected: tuple = ()
    uncensored: float = float("nan")
    uncensored_trained: float | None = None
    intervals: dict = field(default_factory=dict)

    @property
    def censoring_differs(self):
        """Whether the site's censoring by tau differs from the training rows' by more than
        :data:`CENSORING_GAP`: weights from the training rows would then misweigh the site's
        patients (the measures never use them; the page says the site's own are used)."""
        return self.uncensored_trained is not None and abs(self.uncensored - self.uncensored_trained) > CENSORING_GAP


def horizon_report(model, site, stage, threshold):
    """The measures at tau of one stage of the list on the site's rows (see the module docstring).

    Raises
    ------
    DataError
        No row answers the stage's questions; no event among those rows; every one of them
        censored before tau.
    """
    judged = stage_rows(model, site.table.X, stage)
    rows, risk = judged.rows, judged.p
    if not rows.any():
        raise DataError(said.no_complete_answers(stage))
    y, tau = site.outcome[rows], site.horizon
    totals, deciles = calibration_tables(y, risk, tau, judged.totals)
    targets = survival.held_out_targets(y, y, tau)
    curves, boot = site_horizon_curves(y, risk, tau, threshold)
    return HorizonReport(
        stage=int(stage), n_rows=int(rows.sum()), n_missing=int((~rows).sum()), counts=survival.horizon_summary(y, tau),
        **targets.measures(risk, float(threshold)), observed=survival.kaplan_meier_risk(y, tau),
        mean_predicted=float(np.mean(risk)), totals=totals, deciles=deciles, threshold=float(threshold), curves=curves,
        n_not_measured=judged.n_not_measured, undirected=judged.undirected,
        uncensored=survival.uncensored_at_horizon(y, tau), uncensored_trained=site.uncensored_trained,
        intervals={measure: boot[measure] for measure in survival.MEASURES},
    )


def site_horizon_curves(y, risk, tau, threshold):
    """The decision curves at tau on a site's patients (outcome ``y``, risks ``risk``): the list,
    treat all and treat none with 95 % bands from the patients resampled (their own censoring
    weights each time), in the default threshold range and at ``threshold``; and the bootstrap
    (:func:`psl_core.survival.bootstrap_at_horizon`, whose other intervals the report uses)."""
    targets = survival.held_out_targets(y, y, tau)
    grid = np.union1d(THRESHOLD_GRID, [threshold])
    boot = survival.bootstrap_at_horizon(y, risk, tau, grid, n_boot=BOOTSTRAP_RESAMPLES)
    zeros = np.zeros(len(grid))
    curves = {PSL: (targets.net_benefit(risk, grid), *boot["curve"]),
              TREAT_ALL: (targets.net_benefit(np.ones(len(y)), grid), *boot["all"]), TREAT_NONE: (zeros, zeros, zeros)}
    curves = pd.concat([pd.DataFrame({"method": method, "threshold": grid, "mean": mean, "lower": lower,
                                      "upper": upper}) for method, (mean, lower, upper) in curves.items()],
                       ignore_index=True)
    return with_interventions_avoided(in_range(curves, DEFAULT_THRESHOLD_RANGE, threshold)), boot


def horizon_stages(model, site):
    """The measures at tau at every stage with patients who answer its questions and have an
    event among them (NaN otherwise).

    Returns
    -------
    pandas.DataFrame indexed by stage: patients, censored (before tau), brier, auc,
    observed_expected.
    """
    rows_of = []
    for stage in range(model.n_stages_):
        rows, risk = stage_risks(model, site.table.X, stage)
        y = site.outcome[rows]
        known = rows.any() and y["event"].any() and (y["time"] > site.horizon).any()
        measures = (survival.held_out_targets(y, y, site.horizon).measures(risk) if known
                    else survival.unmeasured())
        censored = survival.horizon_summary(y, site.horizon)["censored"]
        rows_of.append({"stage": stage, "patients": int(rows.sum()), "censored": censored, **measures})
    return pd.DataFrame(rows_of).set_index("stage")


def recalibration_part(site):
    """The rows that count at tau as a SiteTable (outcome: the event by tau) and their
    stabilised censoring weights (:func:`psl_core.survival.training_weights`): what a horizon
    list is recalibrated on, as it was trained."""
    outcome, weight = survival.training_weights(site.outcome, site.horizon)
    kept = weight > 0
    table = site.table
    return SiteTable(table.X.loc[kept], outcome[kept], list(table.notes), table.mapping), weight[kept]
