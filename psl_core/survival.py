"""Time-to-event outcomes: the risk of an event within a horizon tau, censoring respected.

Follow-up data give each patient a time and whether the event happened then (``event``
True) or the patient was censored (still event-free at last contact, ``event`` False).
"Event within tau" is then known for every patient except those censored before tau.
Inverse-probability-of-censoring weighting (IPCW) turns the question into a weighted binary
one (Graf et al. 1999; the weights of scikit-survival's ``brier_score``):

- an event at t <= tau: outcome 1, weight 1 / G(t);
- follow-up beyond tau (event or not): outcome 0, weight 1 / G(tau);
- censored at t <= tau: weight 0 (the patient drops out; the others stand in for them),

where G is the Kaplan-Meier estimate of the censoring distribution (censoring treated as
the event, events at a tied time leaving the risk set first). With censoring independent
of the outcome given the list's answers, the weighted rate of a group of patients is the
cumulative incidence by tau of that group, and the weighted Brier score is the Brier score
at tau. The learner (``ProbabilisticScoringList(horizon=tau)``) searches, calibrates and
validates on these weights (stabilised: scaled to mean 1, :func:`training_weights`), so
its criterion is the paper's made censoring-aware and the risk per total is a weighted
cumulative incidence, monotone in the total as any list's.
Its intervals are Clopper-Pearson intervals of each total's effective counts
(:func:`psl_core.calibration.effective_counts`). Competing events are out of scope: a
death from another cause must be coded as censoring, which IPCW treats as uninformative.

The outcome ``y`` is a structured array as scikit-survival's (``Surv.from_arrays``): a
boolean field (event) then a float field (time); :func:`survival_outcome` builds one.

The evaluation at tau (:class:`HorizonTargets`: the weighted problem of the patients judged,
computed once by :func:`held_out_targets`, and its Brier score, time-dependent AUC, O/E and
net benefit; :func:`km_calibration`) follows scikit-survival's definitions, which
``tests/core/test_survival.py`` checks them against; :func:`cox_risk` is the reference
model, a Cox proportional-hazards model on all features.
"""

import numbers
from dataclasses import dataclass

import numpy as np

from .decision_curve import check_thresholds
from .errors import DataError
from .metrics import auc

__all__ = [
    "SURVIVAL_DTYPE", "survival_outcome", "read_survival", "check_horizon", "censoring_curve", "censoring_at",
    "ipcw_targets", "training_weights", "horizon_summary", "HorizonTargets", "held_out_targets", "ipcw_brier",
    "uncensored_at_horizon", "is_horizon_list",
    "time_dependent_auc", "observed_expected", "net_benefit", "kaplan_meier_risk", "km_calibration",
    "design_matrix", "cox_risk", "horizon_splits", "MEASURES", "unmeasured", "bootstrap_at_horizon"
]

SURVIVAL_DTYPE = np.dtype([("event", bool), ("time", float)])
MEASURES = ("brier", "auc", "observed_expected")
"""The measures at the horizon, each a method of :class:`HorizonTargets` (:meth:`HorizonTargets.measures`
adds ``net_benefit`` with a threshold)."""



def is_horizon_list(model) -> bool:
    """Whether ``model`` (a fitted list, or None) predicts the risk of an event within a horizon
    (fitted with ``horizon``) rather than a yes/no outcome: the one place this is asked."""
    return getattr(model, "horizon", None) is not None

def survival_outcome(time, event):
    """A structured outcome array (event, time) from a time and an event indicator.

    Parameters
    ----------
    time : array-like of shape (n,)
        Follow-up times (>= 0, finite), in any one unit.
    event : array-like of shape (n,)
        True / 1 where the event happened at ``time``, False / 0 where the patient was
        censored then.
    """
    time = np.asarray(time, dtype=float)
    event = np.asarray(event)
    if time.ndim != 1 or event.shape != time.shape:
        raise DataError(
            f"time and event must hold one value per patient: shapes {time.shape} and {event.shape}"
        )
    if event.dtype != bool:
        values = set(np.unique(event[~_isnan(event)]).tolist())
        if _isnan(event).any() or not values <= {0, 1}:
            raise DataError("the event column must hold 0/1 or true/false for every row (1 = the event happened)")
        event = event.astype(bool)
    y = np.empty(len(time), dtype=SURVIVAL_DTYPE)
    y["event"], y["time"] = event, time
    return read_survival(y)


def _isnan(values):
    return np.asarray([v is None or (isinstance(v, float) and np.isnan(v)) for v in values.tolist()], dtype=bool)


def read_survival(y):
    """Check a structured outcome and return it as (event, time) field array.

    Raises DataError naming what is wrong: not a structured array of a boolean and a
    numeric field, missing or negative times, no event at all.
    """
    names = getattr(getattr(y, "dtype", None), "names", None)
    if names is None or len(names) != 2:
        raise DataError(
            "a time-to-event outcome must be a structured array of (event, time), as "
            "psl_core.survival.survival_outcome(time, event) builds"
        )
    event = np.asarray(y[names[0]])
    time = np.asarray(y[names[1]], dtype=float)
    if event.dtype != bool:
        raise DataError(f"the first field of the outcome ({names[0]!r}) must be boolean: True where the event happened")
    if not np.all(np.isfinite(time)):
        raise DataError("the follow-up times have missing or infinite values: drop those rows or fill in the time")
    if np.any(time < 0):
        raise DataError("the follow-up times must be >= 0; a negative time is a data error")
    if not event.any():
        raise DataError("no patient has the event: a risk within a horizon needs events")
    out = np.empty(len(time), dtype=SURVIVAL_DTYPE)
    out["event"], out["time"] = event, time
    return out


def check_horizon(horizon):
    """The horizon as a float > 0 (PSLError-compatible DataError otherwise)."""
    if isinstance(horizon, bool) or not isinstance(horizon, numbers.Real) or not 0 < horizon < np.inf:
        raise DataError(f"horizon must be a finite number > 0 (in the unit of the follow-up times), got {horizon!r}")
    return float(horizon)


def _risk_table(y):
    """Distinct follow-up times in order, patients leaving at each, events at each, and
    patients at risk just before each (the counts of a Kaplan-Meier estimate)."""
    y = read_survival(y)
    times, inverse = np.unique(y["time"], return_inverse=True)
    at_time = np.bincount(inverse, minlength=len(times))
    events = np.bincount(inverse, weights=y["event"], minlength=len(times))
    at_risk = len(y) - np.concatenate(([0], np.cumsum(at_time)[:-1]))
    return times, at_time, events, at_risk


def censoring_curve(y):
    """Kaplan-Meier estimate of the censoring survival G (censoring as the event).

    At a time with events and censorings the events leave the risk set first (as in
    scikit-survival's ``CensoringDistributionEstimator``).

    Returns
    -------
    times, probabilities : ndarrays
        G(t) = probabilities[i] for times[i] <= t < times[i + 1]; G = 1 before times[0].
    """
    times, at_time, events, at_risk = _risk_table(y)
    censored = at_time - events
    exposed = at_risk - events
    ratio = np.divide(censored, exposed, out=np.zeros(len(times)), where=censored > 0)
    return times, np.cumprod(1.0 - ratio)


def uncensored_at_horizon(y, horizon):
    """G(horizon) of the patients ``y``: the Kaplan-Meier chance of staying in follow-up
    (not censored) to the horizon, the censoring that their weights undo."""
    return float(censoring_at(censoring_curve(read_survival(y)), [check_horizon(horizon)])[0])


def censoring_at(curve, t):
    """G(t) of a :func:`censoring_curve` at the times ``t``."""
    times, probabilities = curve
    index = np.searchsorted(times, np.asarray(t, dtype=float), side="right") - 1
    return np.where(index >= 0, probabilities[np.maximum(index, 0)], 1.0)


def ipcw_targets(y, horizon, curve=None):
    """The weighted binary problem of "event within ``horizon``" (see the module docstring).

    Parameters
    ----------
    y : structured outcome array
    horizon : float
    curve : censoring curve or None
        G from other patients (the training ones, as for held-out evaluation); None
        estimates it from ``y``.

    Returns
    -------
    outcome : ndarray of int, shape (n,)
        1 for an event by the horizon, else 0.
    weight : ndarray of float, shape (n,)
        0 for a patient censored before the horizon.
    """
    y = read_survival(y)
    horizon = check_horizon(horizon)
    curve = censoring_curve(y) if curve is None else curve
    case = y["event"] & (y["time"] <= horizon)
    control = y["time"] > horizon
    g_time = censoring_at(curve, y["time"])
    g_horizon = float(censoring_at(curve, [horizon])[0])
    if g_horizon <= 0 or np.any(g_time[case] <= 0):
        raise DataError(
            f"every patient is censored before the horizon {horizon:g}: choose a horizon within "
            "the follow-up"
        )
    weight = np.zeros(len(y))
    weight[case] = 1.0 / g_time[case]
    weight[control] = 1.0 / g_horizon
    return case.astype(np.int64), weight


def training_weights(y, horizon):
    """The weighted yes/no problem a list learns from: :func:`ipcw_targets` with stabilised
    weights, scaled to mean 1 over the patients who take part (those not censored before the
    horizon).

    Raw inverse-probability weights sum to about the number of all patients, censored ones
    included: as counts they claim the information of patients whose outcome by the horizon
    nobody saw, and the learner's pseudo-cases (``prior_strength``, counted in rows) then pull
    rare totals less than they would on a yes/no table of the same observed rows. Scaled to
    mean 1 they count the observed patients; the risks (weighted rates) and the criteria
    (weighted means) are unchanged by the scale. ``bench/survival_gap.py`` measures the
    difference (held-out Brier at the horizon over 20 splits, figures in ``bench/README.md``).
    """
    outcome, weight = ipcw_targets(y, horizon)
    return outcome, weight / weight[weight > 0].mean()


def horizon_summary(y, horizon):
    """Counts a user needs to choose a horizon: events by it, censored before it, followed beyond it."""
    y = read_survival(y)
    before = y["time"] <= horizon
    return {
        "n": len(y),
        "events": int(np.sum(y["event"] & before)),
        "censored": int(np.sum(~y["event"] & before)),
        "beyond": int(np.sum(~before)),
    }


@dataclass(frozen=True)
class HorizonTargets:
    """The weighted yes/no problem at the horizon of the patients a list is judged on: what
    every measure at tau is computed from (:func:`held_out_targets`, once per split).

    Attributes
    ----------
    outcome : ndarray of int, shape (n,)
        1 for an event by the horizon, else 0 (:func:`ipcw_targets`).
    weight : ndarray of float, shape (n,)
        Censoring weights, 0 for a patient censored before the horizon.

    Each measure takes ``risk``, array-like of shape (n,): the predicted probability of the
    event by the horizon, one per patient.
    """

    outcome: np.ndarray
    weight: np.ndarray

    def brier(self, risk):
        """Brier score at the horizon, censoring weighted (scikit-survival's ``brier_score``)."""
        return float(np.sum(self.weight * (_risks(risk, self.outcome) - self.outcome) ** 2) / len(self.outcome))

    def auc(self, risk):
        """Cumulative/dynamic AUC at the horizon: cases (event by it, weighted 1 / G(t)) against
        controls (still followed beyond it), ties count one half (scikit-survival's
        ``cumulative_dynamic_auc``); NaN without a case or without a control."""
        kept = self.weight > 0
        if self.outcome[kept].all() or not self.outcome[kept].any():
            return float("nan")
        return auc(self.outcome[kept], _risks(risk, self.outcome)[kept], sample_weight=self.weight[kept])

    def observed_expected(self, risk):
        """O/E at the horizon: the IPCW observed rate over the mean predicted risk."""
        return float((self.weight @ self.outcome / len(self.outcome)) / np.mean(_risks(risk, self.outcome)))

    def net_benefit(self, risk, threshold):
        """Net benefit at the horizon of treating patients with risk > ``threshold``: IPCW true
        positives minus false positives x t / (1 - t), per patient (the decision curve at tau).

        ``threshold`` is a number (returns a float) or an array of thresholds in (0, 1) (returns
        an array: the decision curve). Treating everyone is ``risk`` = 1.
        """
        t = np.asarray(threshold, dtype=float)
        grid = check_thresholds(threshold)
        treated = _risks(risk, self.outcome)[:, None] > grid[None, :]
        true_positive = (self.weight * self.outcome) @ treated
        false_positive = (self.weight * (1 - self.outcome)) @ treated
        values = (true_positive - false_positive * grid / (1 - grid)) / len(self.outcome)
        return float(values[0]) if t.ndim == 0 else values

    def measures(self, risk, threshold=None):
        """``brier``, ``auc`` and ``observed_expected`` of the risks, and with a ``threshold``
        ``net_benefit`` there (a float, or an array for an array of thresholds)."""
        values = {measure: getattr(self, measure)(risk) for measure in MEASURES}
        if threshold is not None:
            values["net_benefit"] = self.net_benefit(risk, threshold)
        return values


def bootstrap_at_horizon(y, risk, horizon, thresholds=None, y_train=None, n_boot=200, seed=0, confidence=0.95,
                         brier=None):
    """Percentile bootstrap intervals of the measures at the horizon and of the decision curve.

    Patients are resampled with their risks; the censoring weights come from ``y_train`` when
    given (fixed, as for held-out rows of one table), else from each resample (a site's own).

    Parameters
    ----------
    y : structured outcome array of shape (n,)
    risk : array-like of shape (n,)
        Predicted risks of the event by the horizon.
    horizon : float
    thresholds : array of float in (0, 1), shape (m,), or None
        Where to band the decision curves of the risks and of treating everyone.
    y_train : structured outcome array or None
    n_boot : int
    seed : int
    confidence : float in (0, 1)
    brier : callable or None
        ``brier(targets, risk)``, the Brier score as the caller states it (default
        :meth:`HorizonTargets.brier`).

    Returns
    -------
    dict
        ``{measure: (lower, upper)}`` for each of :data:`MEASURES`, and with ``thresholds``
        ``"curve"`` and ``"all"``: (lower, upper) arrays of shape (m,). NaN where no resample
        gave a value.
    """
    y, risk = read_survival(y), np.asarray(risk, dtype=float)
    rng = np.random.default_rng(seed)
    draws = {measure: [] for measure in MEASURES}
    curves = {"curve": [], "all": []}
    for _ in range(n_boot):
        rows = rng.integers(0, len(y), len(y))
        sample = y[rows]
        targets = held_out_targets(sample if y_train is None else y_train, sample, horizon)
        for measure in MEASURES:
            value = brier(targets, risk[rows]) if measure == "brier" and brier is not None else getattr(targets, measure)(risk[rows])
            draws[measure].append(value)
        if thresholds is not None:
            curves["curve"].append(targets.net_benefit(risk[rows], np.asarray(thresholds, dtype=float)))
            curves["all"].append(targets.net_benefit(np.ones(len(rows)), np.asarray(thresholds, dtype=float)))
    alpha = (1 - confidence) / 2

    def band(values):
        values = np.asarray(values, dtype=float)
        if np.isnan(values).all(axis=0).any():
            return np.full(values.shape[1:], np.nan), np.full(values.shape[1:], np.nan)
        return np.nanquantile(values, alpha, axis=0), np.nanquantile(values, 1 - alpha, axis=0)

    found = {measure: tuple(float(v) for v in band(values)) for measure, values in draws.items()}
    if thresholds is not None:
        found.update({name: band(values) for name, values in curves.items()})
    return found


def _risks(risk, outcome):
    """Predicted risks as floats, one per patient (DataError otherwise)."""
    risk = np.asarray(risk, dtype=float)
    if risk.shape != outcome.shape:
        raise DataError(f"risk must hold one predicted risk per patient: {len(outcome)} patients, risk of shape {risk.shape}")
    return risk


def held_out_targets(y_train, y_test, horizon):
    """:class:`HorizonTargets` of the patients ``y_test``, the censoring distribution G
    estimated on ``y_train`` (the same array for judging on the rows that estimate it).

    Which rows G comes from: the test rows of the training table's own split keep the
    training rows' G (``y_train``, scikit-survival's convention for ``brier_score``). A
    random split draws both parts from one follow-up, so G is the same censoring, and
    estimated on the larger part it is less noisy; a test patient's weight then does not
    depend on the other test patients. Patients of another site are judged with their own G
    (``held_out_targets(y_site, y_site, horizon)``): their follow-up ran by another schedule
    and to another date (from one trial to the next, G at the horizon went from 0.956 to
    0.672; weights from the training G then summed to 0.74 n, and the Brier score and O/E
    came out 0.0999 and 0.932 against 0.1121 and 0.985 with the site's own, issue 37).
    """
    return HorizonTargets(*ipcw_targets(y_test, horizon, censoring_curve(y_train)))


def ipcw_brier(y_train, y_test, risk, horizon):
    """Brier score at the horizon of predicted risks (probability of the event by it),
    censoring weighted by G from ``y_train`` (:meth:`HorizonTargets.brier`)."""
    return held_out_targets(y_train, y_test, horizon).brier(risk)


def time_dependent_auc(y_train, y_test, risk, horizon):
    """Cumulative/dynamic AUC at the horizon, G from ``y_train`` (:meth:`HorizonTargets.auc`)."""
    return held_out_targets(y_train, y_test, horizon).auc(risk)


def observed_expected(y_train, y_test, risk, horizon):
    """O/E at the horizon, G from ``y_train`` (:meth:`HorizonTargets.observed_expected`)."""
    return held_out_targets(y_train, y_test, horizon).observed_expected(risk)


def net_benefit(y_train, y_test, risk, horizon, threshold):
    """Net benefit at the horizon, G from ``y_train`` (:meth:`HorizonTargets.net_benefit`)."""
    return held_out_targets(y_train, y_test, horizon).net_benefit(risk, threshold)


def kaplan_meier_risk(y, horizon):
    """1 - S(horizon) of the Kaplan-Meier estimate: the observed risk by the horizon."""
    times, _, events, at_risk = _risk_table(y)
    keep = times <= horizon
    return float(1.0 - np.prod(1.0 - events[keep] / at_risk[keep]))


def km_calibration(y, risk, horizon, groups=None):
    """Predicted against Kaplan-Meier observed risk by the horizon, per group.

    Parameters
    ----------
    y : structured outcome array
    risk : ndarray of shape (n,)
    groups : ndarray of shape (n,) or None
        Group of each patient (a list's total); None: deciles of the predicted risk.

    Returns
    -------
    list of dict
        One per group with a patient: ``group``, ``n``, ``predicted`` (mean risk),
        ``observed`` (Kaplan-Meier risk of the group).
    """
    y = read_survival(y)
    risk = np.asarray(risk, dtype=float)
    if groups is None:
        ranks = np.argsort(np.argsort(risk, kind="stable"), kind="stable")
        groups = ranks * 10 // len(risk)
    rows = []
    for g in np.unique(groups):
        member = groups == g
        observed = kaplan_meier_risk(y[member], horizon) if y["event"][member].any() else 0.0
        rows.append({"group": g.item(), "n": int(member.sum()), "predicted": float(risk[member].mean()),
                     "observed": observed})
    return rows


def design_matrix(X_train, X_test):
    """All features as numbers for a reference model: a DataFrame's text and categorical
    columns one-hot (one level dropped), missing numbers filled with the training median."""
    if not hasattr(X_train, "columns"):
        return np.asarray(X_train, dtype=float), np.asarray(X_test, dtype=float)
    import pandas as pd

    both = pd.concat([X_train, X_test], keys=["train", "test"])
    numeric = both.select_dtypes("number").astype(float)
    numeric = numeric.fillna(numeric.loc["train"].median()).fillna(0.0)
    other = both.drop(columns=numeric.columns)
    coded = pd.get_dummies(other.astype("string"), drop_first=True, dtype=float) if other.shape[1] else None
    frame = numeric if coded is None else pd.concat([numeric, coded], axis=1)
    return frame.loc["train"].to_numpy(float), frame.loc["test"].to_numpy(float)


RIDGE_STEP = 100.0
"""The factor by which :func:`cox_risk` raises the ridge penalty after a failed fit."""
MAX_RIDGE = 100.0
"""The largest ridge penalty :func:`cox_risk` tries (on standardized features)."""


def cox_risk(X_train, y_train, X_test, horizon, alpha=1e-4):
    """Risk by the horizon from a Cox proportional-hazards model on all features
    (:func:`design_matrix`): the reference, as logistic regression is for a yes/no outcome.

    scikit-survival's ``CoxPHSurvivalAnalysis`` (Breslow baseline, a small ridge ``alpha``
    for separable data); features are standardized on the training rows. With few events and
    rare 0/1 columns the partial likelihood may have no finite maximum: Newton's steps then
    overflow or fail ("search direction contains NaN or infinite values"). The fit is then
    repeated with a ridge penalty :data:`RIDGE_STEP` times larger, up to :data:`MAX_RIDGE`
    (1e-4, 1e-2, 1, 100 from the default), and the first fit that neither fails nor
    overflows is used. A DataError when none does.
    """
    X_train, X_test = design_matrix(X_train, X_test)
    mean, scale = X_train.mean(axis=0), X_train.std(axis=0)
    scale[scale == 0] = 1.0
    model = _ridged_cox((X_train - mean) / scale, read_survival(y_train), alpha)
    with np.errstate(over="ignore"):  # a test patient far out: exp(risk score) is inf, the risk 1
        curves = model.predict_survival_function((X_test - mean) / scale)
        return np.array([1.0 - fn(min(horizon, fn.x[-1])) for fn in curves])


def _ridged_cox(X, y, alpha):
    """The Cox model of :func:`cox_risk` with the smallest ridge penalty in alpha,
    alpha * RIDGE_STEP, ... (<= MAX_RIDGE) whose fit neither fails nor overflows."""
    from sksurv.linear_model import CoxPHSurvivalAnalysis

    while True:
        try:
            with np.errstate(over="raise", invalid="raise", divide="raise"):
                return CoxPHSurvivalAnalysis(alpha=alpha, ties="breslow").fit(X, y)
        except (ValueError, FloatingPointError, np.linalg.LinAlgError) as exc:
            if alpha * RIDGE_STEP > MAX_RIDGE:
                raise DataError(
                    f"the Cox model could not be fitted, not even with a ridge penalty of {alpha:g} ({exc})"
                ) from exc
            alpha *= RIDGE_STEP


def horizon_splits(
    X, y, horizon, make_list, n_splits=20, test_size=1 / 3, random_state=0, threshold=None, thresholds=None,
    stage=None,
):
    """Monte Carlo evaluation at the horizon on held-out splits: the list, the Cox model on
    all features and the naive yes/no list ("event during follow-up", same settings).

    Parameters
    ----------
    X : DataFrame or array of shape (n, p)
    y : structured outcome array
    horizon : float
    make_list : callable
        ``make_list()`` returns an unfitted ``ProbabilisticScoringList`` (its ``horizon``
        is set here).
    threshold : float in (0, 1) or None
        Risk threshold of the net benefit (None: none).
    thresholds : array of float in (0, 1), shape (m,), or None
        Thresholds of the decision curves at the horizon (None: none).
    stage : int or None
        The stage at which the list and the naive list are judged (a split's list shorter
        than that at its last one); None: each at its last stage.

    Returns
    -------
    dict of ndarray of shape (n_splits,)
        ``{model}_{measure}`` for model in list, cox, naive and measure in :data:`MEASURES`
        (brier, auc, observed_expected at the horizon) and, with a threshold, net_benefit; with
        ``thresholds`` also ``{model}_decision_curve`` of shape (n_splits, m) for those
        models and ``all`` (treat everyone). ``cox_fitted`` (bool) says on which splits the
        Cox model could be fitted (:func:`cox_risk`); on the others its measures and curve are NaN.
    """
    from sklearn.model_selection import ShuffleSplit
    from sklearn.utils import _safe_indexing

    y = read_survival(y)
    results = {}
    splitter = ShuffleSplit(n_splits=n_splits, test_size=test_size, random_state=random_state)
    for train, test in splitter.split(np.zeros(len(y))):
        X_train, X_test = _safe_indexing(X, train), _safe_indexing(X, test)
        psl = make_list().set_params(horizon=horizon).fit(X_train, y[train])
        naive = make_list().set_params(horizon=None, recommend_folds=None).fit(
            X_train, y[train]["event"].astype(int))
        try:
            cox, fitted = cox_risk(X_train, y[train], X_test, horizon), True
        except DataError:  # not fitted on this split: its measures are NaN, the others count
            cox, fitted = np.full(len(test), np.nan), False
        results.setdefault("cox_fitted", []).append(fitted)
        risks = {"list": _risk_at(psl, X_test, stage), "cox": cox, "naive": _risk_at(naive, X_test, stage)}
        targets = held_out_targets(y[train], y[test], horizon)
        for name, risk in risks.items():
            for measure, value in _measures_or_nan(targets, risk, threshold).items():
                results.setdefault(f"{name}_{measure}", []).append(value)
        if thresholds is not None:
            for name, risk in {**risks, "all": np.ones(len(test))}.items():
                curve = np.full(len(thresholds), np.nan) if np.isnan(risk).all() else targets.net_benefit(
                    risk, np.asarray(thresholds, dtype=float))
                results.setdefault(f"{name}_decision_curve", []).append(curve)
    return {key: np.array(values) for key, values in results.items()}


def _risk_at(model, X, stage):
    """A fitted list's risks at ``stage`` (its last one when shorter, or when None)."""
    if stage is None:
        return model.predict_proba(X)[:, 1]
    return model.predict_proba(X, stage=min(int(stage), model.n_stages_ - 1))[:, 1]


def _measures_or_nan(targets, risk, threshold):
    """``targets.measures(risk, threshold)``; every measure NaN when ``risk`` is NaN (a model
    not fitted on the split)."""
    if not np.isnan(risk).all():
        return targets.measures(risk, threshold)
    return unmeasured(threshold)


def unmeasured(threshold=None):
    """:meth:`HorizonTargets.measures` where there is nothing to measure: every measure NaN."""
    return dict.fromkeys(MEASURES + (() if threshold is None else ("net_benefit",)), np.nan)
