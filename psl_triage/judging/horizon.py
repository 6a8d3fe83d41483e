"""A horizon list judged on the rows the Train page held out: calibration at the horizon and the
comparison with a Cox model and a naive rate over repeated splits, censoring respected.

The follow-up pair itself (which columns, which horizon) is found in
:mod:`psl_triage.data.follow_up`; this module only evaluates a list trained on one.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.base import clone

from psl_core.cost_ratio import decision_threshold
from psl_core.decision_curve import DEFAULT_THRESHOLD_RANGE, THRESHOLD_GRID, TREAT_ALL, TREAT_NONE
from psl_core.evaluation import PSL, band_summary
from psl_core.metrics import stage_measures
from psl_core.survival import (
    MEASURES,
    bootstrap_at_horizon,
    held_out_targets,
    horizon_splits,
    km_calibration,
    survival_outcome,
)
from psl_triage.judging.evidence import in_range, with_interventions_avoided
from psl_triage.model_file.metadata import list_horizon
from psl_triage.training.held_out import recorded_split
from psl_triage.words import lists as words


def horizon_span(model, metadata) -> str:
    """A horizon list's horizon with the unit its metadata saved: "1825 days" (:func:`words.within`)."""
    horizon = list_horizon(model, metadata)
    return words.within(horizon.horizon, horizon.unit)


def horizon_page_note(model, page: str, metadata=None) -> str | None:
    """Why a page that judges a list on yes/no outcomes stops for a list of the risk within a
    horizon (None for a yes/no list): its measures do not weigh censoring yet."""
    horizon = list_horizon(model, metadata)
    return None if horizon is None else words.horizon_page_note(words.within(horizon.horizon, horizon.unit), page)


def horizon_calibration(model, metadata, prepared, stage=None) -> dict | None:
    """Calibration at the horizon of one stage (default: the last) on the rows the Train page
    held out: per total and per decile of predicted risk, the mean predicted risk against the
    Kaplan-Meier risk observed by the horizon; O/E, Brier score and AUC at the horizon
    (censoring weights from the training rows). None when the list is not a horizon list
    trained on these data with a test set (its held-out rows are then unknown).

    The Brier score is the Train page's test Brier at that stage: the same rows (those not
    censored before the horizon) and censoring weights, the weighted mean normalised by the
    weights' sum (:func:`psl_core.metrics.stage_measures`). Graf's estimator
    (:meth:`psl_core.survival.HorizonTargets.brier`, the Validate and Evaluation pages')
    divides by all test patients instead, censored ones included, and differs by the ratio
    of the two (blood_storage at 24 months: 0.118 against 0.126).

    Returns
    -------
    dict with ``totals`` and ``deciles`` (DataFrames: group, patients, predicted, observed),
    ``observed_expected``, ``brier``, ``auc``, ``n_test``, ``stage`` and ``intervals``
    (measure -> 95 % percentile bootstrap interval over the test rows, the training rows'
    censoring weights kept: :func:`psl_core.survival.bootstrap_at_horizon`).
    """
    span = list_horizon(model, metadata)
    follow_up = getattr(prepared, "follow_up", None)
    split = recorded_split(model, metadata, prepared)
    if span is None or follow_up is None or follow_up.horizon != span.horizon or split is None:
        return None
    horizon, (train, test) = span.horizon, split
    stage = model.n_stages_ - 1 if stage is None else min(int(stage), model.n_stages_ - 1)
    time, event = prepared.time, prepared.y
    y_train, y_test = survival_outcome(time[train], event[train]), survival_outcome(time[test], event[test])
    X_test = prepared.X.iloc[test]
    risk = model.predict_proba(X_test, stage=stage)[:, 1]
    totals, deciles = calibration_tables(y_test, risk, horizon, model.total_scores(X_test, stage=stage))
    targets = held_out_targets(y_train, y_test, horizon)
    measures = targets.measures(risk)
    # Train's Brier at a stage (weights' sum in the denominator), not the Graf form of .measures.
    kept = np.flatnonzero(targets.weight > 0)
    measures["brier"] = stage_measures(targets.outcome[kept], risk[kept], risk[kept], weight=targets.weight[kept])[1]
    intervals = bootstrap_at_horizon(y_test, risk, horizon, y_train=y_train, brier=_train_brier)
    return {"totals": totals, "deciles": deciles, **measures, "n_test": len(test), "stage": stage,
            "intervals": {measure: intervals[measure] for measure in MEASURES}}


def _train_brier(targets, risk):
    """The Train page's test Brier score of ``risk`` (weights' sum in the denominator)."""
    kept = np.flatnonzero(targets.weight > 0)
    return stage_measures(targets.outcome[kept], risk[kept], risk[kept], weight=targets.weight[kept])[1]


def calibration_tables(y, risk, horizon, totals) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Mean predicted risk against the Kaplan-Meier risk observed by the horizon
    (:func:`psl_core.survival.km_calibration`), per total and per tenth of predicted risk
    (numbered from 1): two DataFrames with columns group, patients, predicted, observed."""
    def table(groups):
        return pd.DataFrame(km_calibration(y, risk, horizon, groups)).rename(columns={"n": "patients"})

    deciles = table(None)
    deciles["group"] = deciles["group"] + 1
    return table(totals), deciles


def horizon_comparison(model, prepared, n_splits: int, cost_ratio: float, seed: int = 0, stage=None):
    """The list's settings on held-out splits against a Cox model on all features and the
    naive yes/no list (:func:`psl_core.survival.horizon_splits`), both lists at ``stage``
    (the one the user chose, as for a yes/no list; None: the whole list).

    Returns
    -------
    table : pandas.DataFrame
        One row per model, the mean (standard deviation) over the splits of each measure at
        the horizon; net benefit at the threshold 1 / (1 + M). The Cox model's over the splits
        it could be fitted on (:func:`psl_core.survival.cox_risk`), its label saying on how
        many it could not.
    curves : pandas.DataFrame
        The decision curves at the horizon (:func:`horizon_decision_curves`).
    """
    threshold = decision_threshold(cost_ratio)
    grid = np.union1d(THRESHOLD_GRID, [threshold])
    results = horizon_splits(
        prepared.X, survival_outcome(prepared.time, prepared.y), list_horizon(model).horizon,
        lambda: clone(model).set_params(recommend_folds=None), n_splits=n_splits, random_state=seed,
        threshold=threshold, thresholds=grid, stage=stage,
    )
    fitted = results["cox_fitted"]
    labels = {**words.HORIZON_MODELS, "cox": words.cox_model_label(int(np.sum(~fitted)), len(fitted))}
    table = pd.DataFrame([
        {"model": label, **{title: words.mean_sd(results[f"{key}_{measure}"]) for measure, title in words.HORIZON_MEASURES.items()}}
        for key, label in labels.items()
    ])
    return table, horizon_decision_curves(results, grid, threshold)


def horizon_decision_curves(results, grid, threshold) -> pd.DataFrame:
    """Decision curves at the horizon over the splits, as the Evaluation page draws a yes/no
    list's (:func:`psl_triage.judging.evidence.held_out_decision_curves`): method (the list as
    ``psl_core.evaluation.PSL``, the Cox model and the naive list by their
    :data:`psl_triage.words.lists.HORIZON_MODELS` names, treat all, treat none), threshold, mean, lower, upper, n and
    net interventions avoided per 100 patients, in the default threshold range and at
    1 / (1 + M)."""
    curves = {PSL: results["list_decision_curve"], words.HORIZON_MODELS["cox"]: results["cox_decision_curve"],
              words.HORIZON_MODELS["naive"]: results["naive_decision_curve"], TREAT_ALL: results["all_decision_curve"]}
    curves[TREAT_NONE] = np.zeros_like(curves[TREAT_ALL])
    tidy = pd.concat([
        pd.DataFrame({"method": method, "split": np.repeat(np.arange(len(values)), len(grid)),
                      "threshold": np.tile(grid, len(values)), "value": np.ravel(values)})
        for method, values in curves.items()
    ], ignore_index=True)
    return with_interventions_avoided(in_range(band_summary(tidy), DEFAULT_THRESHOLD_RANGE, threshold))
