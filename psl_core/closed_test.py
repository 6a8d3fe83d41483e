"""Which update does a list in service need? The closed testing procedure, numbers only.

Its table for the researcher is :mod:`psl_triage.judging.monitoring`'s; the sequential charts of the
same list are :mod:`psl_core.monitoring`'s.

:func:`closed_test`: the closed testing procedure of Vergouwe, Nieboer, Oostenbrink et al.
(2017), "A closed testing procedure to select an appropriate method for updating prediction
models", *Statistics in Medicine* 36(28):4529-4539. Four nested logistic models of the
outcome on the list's log-odds lp (:func:`psl_core.validation.log_odds`) and its questions:
*keep* (logit P = lp, no parameter), *intercept* (a + lp), *recalibrate* (a + b lp) and
*refit* (every total's risk re-estimated: one parameter per total the patients reach, the
list's questions and points kept). Vergouwe et al.'s revision re-estimates a logistic
model's coefficients; a list's parameters, once its questions and points are chosen, are its
risks per total (a refit of the answers' weights would always beat a list of integer points
on enough patients, drift or not). The refit's likelihood is in closed form (each total's
observed rate) and the four models are nested, lp being a function of the total.
Likelihood-ratio tests, each against the refit: refit against keep; if significant,
refit against intercept; if significant, refit against recalibrate; the first test that is
not significant names the update (the least extensive update the data do not reject), and
all three significant name the refit. The family-wise type I error stays at alpha.
"""

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.special import expit
from scipy.stats import chi2

from .errors import PSLError
from .logistic import fit_logistic
from .metrics import checked_probabilities, labels01
from .validation import calibration_intercept, log_odds

__all__ = ["KEEP", "INTERCEPT", "RECALIBRATE", "REFIT", "UPDATES", "ClosedTest", "closed_test", "log_likelihood"]

KEEP, INTERCEPT, RECALIBRATE, REFIT = "keep", "intercept", "recalibrate", "refit"
UPDATES = (KEEP, INTERCEPT, RECALIBRATE, REFIT)
"""Vergouwe et al.'s updates, least extensive first."""
_TOL = 1e-14


def log_likelihood(y, eta, weight=1.0):
    """Bernoulli log-likelihood of 0/1 outcomes y at log-odds eta (rows counted ``weight`` times)."""
    return float(np.sum(weight * (y * eta - np.logaddexp(0.0, eta))))


def _grouped(y, lp, totals, weight):
    """Per distinct (total, outcome): its log-odds and how many patients it stands for (their
    weights' sum): the fits run on these rows, weighted (a list has few totals)."""
    rows = (pd.DataFrame({"total": totals, "y": y, "lp": lp, "count": weight})
            .groupby(["total", "y", "lp"], sort=False)["count"].sum().reset_index())
    return rows["total"].to_numpy(), rows["y"].to_numpy(float), rows["lp"].to_numpy(float), rows["count"].to_numpy(float)


def _intercept(y, p, weight):
    """The calibration intercept (:func:`psl_core.validation.calibration_intercept`), each patient
    counted ``weight`` times: Newton's method on the offset model's concave log-likelihood."""
    if np.all(weight == 1.0):
        return calibration_intercept(y, p)
    lp, used = log_odds(p), weight > 0
    if y[used].min() == y[used].max():
        return -np.inf if y[used][0] == 0 else np.inf
    a = 0.0
    for _ in range(100):
        q = expit(a + lp)
        step = np.sum(weight * (y - q)) / max(np.sum(weight * q * (1 - q)), 1e-12)
        a += step
        if abs(step) < 1e-12:
            break
    return float(a)


def _saturated(totals, y, weight):
    """The log-likelihood of every total's observed rate (0 log 0 = 0)."""
    frame = pd.DataFrame({"total": totals, "events": y * weight, "n": weight}).groupby("total").sum()
    events, n = frame["events"].to_numpy(), frame["n"].to_numpy()
    rate = events / n
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(events > 0, events * np.log(rate), 0.0) + np.where(n > events, (n - events) * np.log1p(-rate),
                                                                            0.0)
    return float(terms.sum()), len(frame)


def _binomial_ll(events, n, eta):
    """Binomial log-likelihood (without the binomial coefficients) of ``events`` of ``n`` at log-odds eta."""
    return float(np.sum(events * eta - n * np.logaddexp(0.0, eta)))


def _rates_ll(events, n):
    """The log-likelihood of each group's own observed rate (0 log 0 = 0)."""
    rate = np.divide(events, n, out=np.zeros_like(events), where=n > 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(events > 0, events * np.log(rate), 0.0) + np.where(n > events, (n - events) * np.log1p(-rate), 0)
    return float(terms.sum())


def _shared_fit(o, m, e, n, slope_free, start):
    """Fisher scoring of logit(training rate_j) = theta_j, logit(monitored rate_j) = a + b theta_j
    (b = 1 unless ``slope_free``) on o events of m monitored and e of n training patients per total.

    Returns
    -------
    log_likelihood : float
    a, b : float
    """
    J = len(o)
    params = np.array(start, dtype=float)

    def parts(x):
        theta, a, b = x[:J], x[J], (x[J + 1] if slope_free else 1.0)
        return theta, a + b * theta, b

    def ll(x):
        theta, eta, _ = parts(x)
        return _binomial_ll(e, n, theta) + _binomial_ll(o, m, eta)

    current = ll(params)
    for _ in range(200):
        theta, eta, b = parts(params)
        jac_m = np.zeros((J, len(params)))
        jac_m[:, :J] = np.diag(np.full(J, b))
        jac_m[:, J] = 1.0
        if slope_free:
            jac_m[:, J + 1] = theta
        w_t, w_m = n * expit(theta) * (1 - expit(theta)), m * expit(eta) * (1 - expit(eta))
        score = np.concatenate([e - n * expit(theta), np.zeros(len(params) - J)]) + jac_m.T @ (o - m * expit(eta))
        info = jac_m.T @ (w_m[:, None] * jac_m)
        info[:J, :J] += np.diag(w_t)
        step = np.linalg.lstsq(info, score, rcond=None)[0]
        for _ in range(30):
            trial = ll(params + step)
            if trial >= current - 1e-12:
                break
            step = step / 2
        params, gained, current = params + step, trial - current, trial
        if abs(gained) < _TOL * max(1.0, abs(current)) and np.max(np.abs(step)) < 1e-9:
            break
    return current, float(params[J]), float(params[J + 1]) if slope_free else 1.0


def _as_exact(y, p, totals, weight, _training=None):
    """The four models' log-likelihoods with the list's risks taken as exact, and the
    recalibration's intercept and slope (see :func:`closed_test`)."""
    a = _intercept(y, p, weight)
    totals, y, lp, weight = _grouped(y, log_odds(p), totals, weight)
    a_slope, b_slope = fit_logistic(lp[:, None], y, C=np.inf, max_iter=200, tol=_TOL, sample_weight=weight)
    refit, n_totals = _saturated(totals, y, weight)
    likelihoods = {
        KEEP: log_likelihood(y, lp, weight), INTERCEPT: log_likelihood(y, a + lp, weight),
        RECALIBRATE: log_likelihood(y, a_slope + b_slope * lp, weight), REFIT: refit,
    }
    return likelihoods, (a, a_slope, b_slope), n_totals


def _with_training(y, p, totals, weight, training):
    """The four models' log-likelihoods on the monitored patients and the list's training
    counts together, and the recalibration's intercept and slope (see :func:`closed_test`)."""
    frame = (pd.DataFrame({"total": totals, "y": y * weight, "w": weight, "p": p}).groupby("total")
             .agg(o=("y", "sum"), m=("w", "sum"), q=("p", "first")))
    counts = pd.Series(np.asarray(training[1], dtype=float), index=np.asarray(training[0]))
    o, m, q = frame["o"].to_numpy(float), frame["m"].to_numpy(float), np.clip(frame["q"].to_numpy(float), 1e-6, 1 - 1e-6)
    n = counts.reindex(frame.index).fillna(0.0).to_numpy()
    e = n * q
    theta = log_odds(q)
    keep = _rates_ll(o + e, m + n)
    a = _intercept(y, p, weight)
    intercept = _shared_fit(o, m, e, n, False, np.concatenate([theta, [a]]))[0]
    recalibrate, a_slope, b_slope = _shared_fit(o, m, e, n, True, np.concatenate([theta, [a, 1.0]]))
    refit = _rates_ll(o, m) + _rates_ll(e, n)
    likelihoods = {KEEP: keep, INTERCEPT: intercept, RECALIBRATE: recalibrate, REFIT: refit}
    return likelihoods, (a, a_slope, b_slope), len(frame)


@dataclass(frozen=True)
class ClosedTest:
    """The closed testing procedure on one set of patients (:func:`closed_test`).

    Attributes
    ----------
    recommendation : str
        One of :data:`UPDATES`.
    models : pandas.DataFrame
        Indexed by update: parameters (estimated), log_likelihood, and the intercept and
        slope of the recalibration models (NaN where not estimated).
    tests : pandas.DataFrame
        One row per likelihood-ratio test: update (the model tested against the refit),
        statistic (2 x the difference of log-likelihoods), df, p_value, significant; the
        tests not reached are listed with reached False.
    n, events : int
    alpha : float
    """

    recommendation: str
    models: pd.DataFrame
    tests: pd.DataFrame
    n: int
    events: int
    alpha: float


def closed_test(y, p, totals, alpha=0.05, training=None, weight=None):
    """Vergouwe et al.'s closed testing procedure (see the module docstring).

    Parameters
    ----------
    y : array-like of 0/1, shape (n,)
    p : array-like of float in [0, 1], shape (n,)
        The list's risks (clipped to [0.001, 0.999] before taking log-odds).
    totals : array-like of int, shape (n,)
        Each patient's total at the stage judged: patients with the same total have the same
        risk, and the refit re-estimates each total's.
    alpha : float in (0, 1)
        The family-wise type I error.
    training : (totals, counts) or None
        The list's own training patients per total at this stage (each total's count, the
        list's prior pseudo-counts added): the list's risks are then estimates, not exact. Each
        total's risk q_j counts as n_j q_j outcomes of n_j training patients, and every model is
        fitted to those and the monitored patients together: *keep* one log-odds theta_j per
        total shared by both; *intercept* theta_j in training, a + theta_j now; *recalibrate*
        a + b theta_j now; *refit* each set its own rate. The df are unchanged (J, J - 1, J - 2
        against the refit, J the totals the monitored patients reach), and as every n_j grows
        the statistics become those without training. Without it (None) the list's risks are
        taken as exact: a list trained on few patients then looks drifted when it is only
        imprecise. A stage whose totals the list pooled (a monotone calibration) had more
        training patients behind each risk than n_j: the test is then the more lenient.
    weight : array-like of float >= 0, shape (n,), or None
        Each patient counted this many times (None: once): an outcome by a horizon's censoring
        weights scaled to mean 1 over the patients whose outcome is known, so that the fits count
        the patients seen; the weighted statistics against the same chi-square distributions are
        an approximation (inverse-probability weights widen the true spread).

    Returns
    -------
    ClosedTest

    Raises
    ------
    DataError
        y not 0/1, p not probabilities, shapes that disagree.
    PSLError
        alpha outside (0, 1).
    """
    y = labels01(y).astype(float)
    p = checked_probabilities(p, len(y))
    totals = np.asarray(totals).reshape(len(y))
    if not 0 < alpha < 1:
        raise PSLError(f"alpha must lie strictly between 0 and 1, got {alpha!r}")
    weight = _counted(weight, len(y))
    used = weight > 0
    y, p, totals, weight = y[used], p[used], totals[used], weight[used]
    fitted = _with_training if training is not None else _as_exact
    likelihoods, (a, a_slope, b_slope), n_totals = fitted(y, p, totals, weight, training)
    parameters = {KEEP: 0, INTERCEPT: 1, RECALIBRATE: min(2, n_totals), REFIT: n_totals}
    models = pd.DataFrame({
        "parameters": parameters, "log_likelihood": likelihoods,
        "intercept": {KEEP: 0.0, INTERCEPT: a, RECALIBRATE: a_slope, REFIT: np.nan},
        "slope": {KEEP: 1.0, INTERCEPT: 1.0, RECALIBRATE: b_slope, REFIT: np.nan},
    }).rename_axis("update")
    tests, recommendation = _tested(likelihoods, parameters, alpha)
    return ClosedTest(recommendation, models, tests, len(y), int(y.sum()), float(alpha))


def _counted(weight, n):
    """The patients' weights as n finite floats >= 0 (ones for None)."""
    weight = np.ones(n) if weight is None else np.asarray(weight, dtype=float).reshape(-1)
    if len(weight) != n or not np.all(np.isfinite(weight) & (weight >= 0)):
        raise PSLError(f"weight must hold one finite number >= 0 per patient ({n}), got {len(weight)} values")
    return weight


def _tested(likelihoods, parameters, alpha):
    """The likelihood-ratio tests against the refit, in order, and the update they name."""
    rows, recommendation = [], None
    for update in (KEEP, INTERCEPT, RECALIBRATE):
        df = parameters[REFIT] - parameters[update]
        statistic = max(2 * (likelihoods[REFIT] - likelihoods[update]), 0.0)
        p_value = float(chi2.sf(statistic, df)) if df > 0 else 1.0
        reached = recommendation is None
        rows.append({"update": update, "statistic": statistic, "df": int(df), "p_value": p_value,
                     "significant": p_value < alpha, "reached": reached})
        if reached and not p_value < alpha:
            recommendation = update
    return pd.DataFrame(rows), recommendation or REFIT
