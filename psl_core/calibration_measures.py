"""The calibration hierarchy of a model's probabilities on labelled data, with intervals.

Van Calster et al. (2016, 2019) and Austin & Steyerberg (2019):

- *mean* calibration: observed / expected events, O/E, with the interval of
  ln(O/E) ± z sqrt(1/O - 1/n) (Riley et al. 2021);
- *weak* calibration: the calibration intercept a of ``logit P(y=1) = a + logit p`` (the
  prediction as offset) and the calibration slope b of ``logit P(y=1) = a' + b logit p``,
  each with a Wald interval from the logistic fit's information matrix
  (:func:`psl_core.validation.calibration_intercept`, :func:`~psl_core.validation.calibration_slope`);
- *moderate* calibration: a flexible calibration curve, the logistic regression of y on a
  restricted cubic spline of logit p (Harrell's knots at quantiles), with a simultaneous
  bootstrap band (sup-t: the band holds the whole curve at the stated confidence, not each
  point alone), and its summary numbers: ICI (the mean absolute difference between the
  curve and p over the patients), E50, E90 (median, 90th percentile) and Emax.

Probabilities are clipped to [0.001, 0.999] before taking log-odds, as in
:mod:`psl_core.validation` (a list may say 0 or 1).
"""

from dataclasses import dataclass

import numpy as np
from scipy.special import expit, logit
from scipy.stats import norm

from .errors import DataError
from .intervals import check_confidence
from .logistic import fit_logistic
from .metrics import checked_probabilities, labels01
from .validation import calibration_intercept, calibration_slope, log_odds

__all__ = [
    "HIERARCHY", "HIERARCHY_IDEAL", "GRID_POINTS", "observed_expected", "intercept_and_slope",
    "weighted_calibration", "spline_knots",
    "spline_basis", "FlexibleCalibration", "flexible_calibration", "calibration_errors", "calibration_hierarchy",
    "RISK_GRID", "held_out_calibration"
]

HIERARCHY = ("observed_expected", "intercept", "slope", "ici", "e50", "e90", "emax")
HIERARCHY_IDEAL = {"observed_expected": 1.0, "intercept": 0.0, "slope": 1.0,
                   "ici": 0.0, "e50": 0.0, "e90": 0.0, "emax": 0.0}
_KNOT_QUANTILES = {3: (0.10, 0.50, 0.90), 4: (0.05, 0.35, 0.65, 0.95)}  # Harrell (2015), Table 2.3
GRID_POINTS = 50


def observed_expected(y, p, confidence=0.95):
    """O/E: observed events over the sum of the predicted probabilities, with its interval.

    Returns
    -------
    (estimate, lower, upper) : floats; NaN bounds without events or without non-events.
    """
    y = labels01(y)
    p = checked_probabilities(p, len(y))
    observed, expected = float(y.sum()), float(p.sum())
    ratio = observed / expected if expected > 0 else np.nan
    if observed == 0 or observed == len(y) or not np.isfinite(ratio):
        return ratio, np.nan, np.nan
    half = norm.ppf(0.5 + check_confidence(confidence) / 2) * np.sqrt(1 / observed - 1 / len(y))
    return ratio, float(ratio * np.exp(-half)), float(ratio * np.exp(half))


def intercept_and_slope(y, p, confidence=0.95):
    """Calibration intercept and slope with Wald intervals.

    Returns
    -------
    dict with "intercept" and "slope", each (estimate, lower, upper); the bounds are NaN
    where the estimate is not finite (one outcome only, separated outcomes, no spread in p).
    """
    y = labels01(y)
    p = checked_probabilities(p, len(y))
    z = norm.ppf(0.5 + check_confidence(confidence) / 2)
    lp = log_odds(p)
    result = {}
    a = calibration_intercept(y, p)
    if np.isfinite(a):
        q = expit(a + lp)
        se = 1 / np.sqrt(np.sum(q * (1 - q)))
        result["intercept"] = (a, a - z * se, a + z * se)
    else:
        result["intercept"] = (a, np.nan, np.nan)
    b = calibration_slope(y, p)
    if np.isfinite(b):
        a_slope, b_fit = fit_logistic(lp[:, None], y, C=np.inf, max_iter=100, tol=1e-14)
        q = expit(a_slope + b_fit * lp)
        design = np.column_stack([np.ones(len(lp)), lp])
        covariance = np.linalg.inv((design * (q * (1 - q))[:, None]).T @ design)
        se = np.sqrt(covariance[1, 1])
        result["slope"] = (float(b_fit), b_fit - z * se, b_fit + z * se)
    else:
        result["slope"] = (b, np.nan, np.nan)
    return result


def _sandwich_fit(design, offset, y, weight):
    """The weighted logistic fit of y on ``design`` with ``offset`` (Newton), and its robust
    (sandwich) covariance A^-1 B A^-1, A = X' diag(w q (1 - q)) X, B = X' diag(w^2 (y - q)^2) X:
    the variance of an estimating equation whose weights are not frequencies (Huber 1967)."""
    beta = np.zeros(design.shape[1])
    for _ in range(100):
        q = expit(offset + design @ beta)
        info = (design * (weight * q * (1 - q))[:, None]).T @ design
        step = np.linalg.lstsq(info, design.T @ (weight * (y - q)), rcond=None)[0]
        beta += step
        if np.max(np.abs(step)) < 1e-10:
            break
    q = expit(offset + design @ beta)
    bread = np.linalg.pinv((design * (weight * q * (1 - q))[:, None]).T @ design)
    scores = design * (weight * (y - q))[:, None]
    return beta, bread @ (scores.T @ scores) @ bread


def weighted_calibration(y, p, weight, confidence=0.95):
    """O/E, calibration intercept and slope of patients counted with weights that are not
    frequencies (inverse-probability-of-censoring weights, :func:`psl_core.survival.ipcw_targets`:
    0 for a patient whose outcome is not known), each with a Wald interval from a robust variance.

    O/E is sum(w y) / sum(p) over every patient (the weights stand in for the unknown outcomes),
    its interval ln(O/E) +- z sqrt(sum_i (w_i y_i - O / n)^2) / O: with every weight 1 this is
    :func:`observed_expected`'s sqrt(1/O - 1/n). The intercept and slope are the weighted
    logistic fits of :func:`intercept_and_slope` with a sandwich variance.

    Returns
    -------
    dict with "observed_expected", "intercept" and "slope", each (estimate, lower, upper); NaN
    where it cannot be estimated (no event or no non-event among the weighted patients).
    """
    y = labels01(y).astype(float)
    p = checked_probabilities(p, len(y))
    weight = np.asarray(weight, dtype=float).reshape(len(y))
    z = norm.ppf(0.5 + check_confidence(confidence) / 2)
    used = weight > 0
    nan = (np.nan, np.nan, np.nan)
    if not used.any() or y[used].min() == y[used].max():
        return {"observed_expected": nan, "intercept": nan, "slope": nan}
    observed = float(weight @ y)
    ratio = observed / float(p.sum())
    half = z * np.sqrt(np.sum((weight * y - observed / len(y)) ** 2)) / observed
    y, lp, weight = y[used], log_odds(p[used]), weight[used]
    result = {"observed_expected": (ratio, ratio * np.exp(-half), ratio * np.exp(half))}
    (a,), covariance = _sandwich_fit(np.ones((len(y), 1)), lp, y, weight)
    se = np.sqrt(covariance[0, 0])
    result["intercept"] = (float(a), a - z * se, a + z * se)
    if np.ptp(lp) == 0:
        result["slope"] = nan
        return result
    (_, b), covariance = _sandwich_fit(np.column_stack([np.ones(len(y)), lp]), 0.0, y, weight)
    se = np.sqrt(covariance[1, 1])
    result["slope"] = (float(b), b - z * se, b + z * se)
    return result


# ---------------------------------------------------------------------------- flexible curve
def spline_knots(lp, n_knots=4):
    """Knots of a restricted cubic spline of the log-odds ``lp``: Harrell's quantiles.

    Fewer knots when lp takes few distinct values (a list's probabilities take one value
    per total): at most one knot per distinct value. Fewer than 3 knots: a line.
    """
    distinct = np.unique(lp)
    n_knots = min(n_knots, len(distinct))
    while n_knots >= 3:
        knots = np.unique(np.quantile(lp, _KNOT_QUANTILES[n_knots]))
        if len(knots) < n_knots:  # ties in the rows: place the knots among the distinct values
            knots = np.unique(np.quantile(distinct, _KNOT_QUANTILES[n_knots]))
        if len(knots) == n_knots:
            return knots
        n_knots -= 1
    return np.array([])


def spline_basis(lp, knots):
    """Design of a restricted cubic spline (linear beyond the outer knots): lp and k - 2 terms."""
    lp = np.asarray(lp, dtype=float)
    columns = [lp]
    if len(knots) >= 3:
        t = knots
        scale = (t[-1] - t[0]) ** 2
        last, before = t[-1], t[-2]

        def cube(x):
            return np.maximum(x, 0.0) ** 3

        for t_j in t[:-2]:
            columns.append((
                cube(lp - t_j)
                - cube(lp - before) * (last - t_j) / (last - before)
                + cube(lp - last) * (before - t_j) / (last - before)
            ) / scale)
    return np.column_stack(columns)


@dataclass(frozen=True)
class FlexibleCalibration:
    """A flexible calibration curve with its simultaneous band and summary numbers.

    Attributes
    ----------
    risk : ndarray of shape (m,)
        Predicted probabilities where the curve is drawn (within the data's range).
    observed, lower, upper : ndarrays of shape (m,)
        The curve (estimated P(y = 1 | p)) and its band.
    summary : dict
        "ici", "e50", "e90", "emax", each (estimate, lower, upper): bootstrap percentile
        intervals.
    knots : ndarray
        The spline's knots on the log-odds scale (empty: a straight line on log-odds).
    n_boot : int
    confidence : float
    """

    risk: np.ndarray
    observed: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    summary: dict
    knots: np.ndarray
    n_boot: int
    confidence: float


def _curve_fit(basis, y):
    return fit_logistic(basis, y, C=np.inf, max_iter=50, tol=1e-12)


def _errors(coefficients, basis_rows, p):
    """|curve(p_i) - p_i| of every patient."""
    return np.abs(expit(coefficients[0] + basis_rows @ coefficients[1:]) - p)


def _summary(errors):
    return np.array([errors.mean(), np.median(errors), np.quantile(errors, 0.9), errors.max()])


def flexible_calibration(y, p, n_boot=200, confidence=0.95, seed=0, grid_points=GRID_POINTS):
    """The flexible calibration curve of probabilities p on outcomes y, with a bootstrap band.

    Parameters
    ----------
    y : array-like of 0/1, shape (n,)
    p : array-like of float in [0, 1], shape (n,)
    n_boot : int >= 20
        Bootstrap resamples (rows drawn with replacement, the knots kept).
    confidence : float in (0, 1)
    seed : int
    grid_points : int
        Points of the curve, evenly spaced in log-odds between the lowest and highest p.

    Returns
    -------
    FlexibleCalibration

    Raises
    ------
    DataError
        y holds a single class (no curve can be fitted).
    """
    y = labels01(y)
    p = checked_probabilities(p, len(y))
    confidence = check_confidence(confidence)
    if y.min() == y.max():
        raise DataError("a calibration curve needs patients with and without the outcome")
    lp = log_odds(p)
    knots = spline_knots(lp)
    basis = spline_basis(lp, knots)
    grid_lp = np.linspace(lp.min(), lp.max(), grid_points)
    grid_basis = spline_basis(grid_lp, knots)
    estimate = _curve_fit(basis, y)
    curve = estimate[0] + grid_basis @ estimate[1:]
    rng = np.random.default_rng(seed)
    curves = np.empty((n_boot, grid_points))
    summaries = np.empty((n_boot, 4))
    for b, rows in enumerate(rng.integers(0, len(y), (n_boot, len(y)))):
        w = _curve_fit(basis[rows], y[rows])
        curves[b] = w[0] + grid_basis @ w[1:]
        summaries[b] = _summary(_errors(w, basis[rows], p[rows]))
    # Sup-t band on the log-odds scale: the whole curve lies inside with the stated confidence.
    spread = np.maximum(curves.std(axis=0, ddof=1), 1e-12)
    critical = np.quantile(np.max(np.abs(curves - curve) / spread, axis=1), confidence)
    tail = 100 * (1 - confidence) / 2
    bounds = np.percentile(summaries, [tail, 100 - tail], axis=0)
    point = _summary(_errors(estimate, basis, p))
    return FlexibleCalibration(
        risk=expit(grid_lp),
        observed=expit(curve),
        lower=expit(curve - critical * spread),
        upper=expit(curve + critical * spread),
        summary={name: (float(point[i]), float(bounds[0, i]), float(bounds[1, i]))
                 for i, name in enumerate(("ici", "e50", "e90", "emax"))},
        knots=knots,
        n_boot=n_boot,
        confidence=confidence,
    )


def calibration_errors(y, p):
    """ICI, E50, E90 and Emax of p against its flexible calibration curve (no band).

    Returns
    -------
    ndarray of 4 floats (NaN when y holds one class)
    """
    y = labels01(y)
    p = checked_probabilities(p, len(y))
    if y.min() == y.max():
        return np.full(4, np.nan)
    lp = log_odds(p)
    basis = spline_basis(lp, spline_knots(lp))
    return _summary(_errors(_curve_fit(basis, y), basis, p))


def calibration_hierarchy(y, p, confidence=0.95):
    """Every number of the hierarchy without the curve's bootstrap: for per-split tables.

    Returns
    -------
    dict measure (:data:`HIERARCHY`) -> (estimate, lower, upper); the flexible-curve
    numbers have NaN bounds here (their intervals need :func:`flexible_calibration`).
    """
    y = labels01(y)
    p = checked_probabilities(p, len(y))
    weak = intercept_and_slope(y, p, confidence)
    errors = calibration_errors(y, p)
    return {
        "observed_expected": observed_expected(y, p, confidence),
        "intercept": weak["intercept"],
        "slope": weak["slope"],
        **{name: (float(errors[i]), np.nan, np.nan) for i, name in enumerate(("ici", "e50", "e90", "emax"))},
    }


RISK_GRID = expit(np.linspace(logit(0.005), logit(0.995), GRID_POINTS))
"""Where held-out calibration curves of different splits are drawn, to be averaged."""


def held_out_calibration(y, p, risk=RISK_GRID):
    """The hierarchy's estimates and the flexible curve at fixed risks, without intervals.

    For the Monte Carlo splits (:func:`psl_core.evaluation.monte_carlo_cv`): cheap (one
    fit per measure), and the curves of different splits share their x values.

    Returns
    -------
    estimates : ndarray of shape (len(HIERARCHY),)
        NaN where a measure does not exist (one outcome only; no spread in p for the slope
        and the curve).
    curve : ndarray of shape (len(risk),)
        The curve at ``risk``; NaN outside the range of p.
    """
    y = np.asarray(y)
    p = np.asarray(p, dtype=float)
    estimates = np.full(len(HIERARCHY), np.nan)
    curve = np.full(len(risk), np.nan)
    if y.min() == y.max():
        return estimates, curve
    expected = p.sum()
    estimates[0] = y.sum() / expected if expected > 0 else np.nan
    estimates[1] = calibration_intercept(y, p)
    lp = log_odds(p)
    if np.ptp(lp) == 0:
        errors = np.abs(y.mean() - p)
        estimates[3:] = _summary(errors)
        return estimates, curve
    estimates[2] = calibration_slope(y, p)
    knots = spline_knots(lp)
    basis = spline_basis(lp, knots)
    w = _curve_fit(basis, y)
    estimates[3:] = _summary(_errors(w, basis, p))
    risk_lp = logit(risk)
    inside = (risk_lp >= lp.min()) & (risk_lp <= lp.max())
    curve[inside] = expit(w[0] + spline_basis(risk_lp[inside], knots) @ w[1:])
    return estimates, curve
