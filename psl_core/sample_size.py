"""Is the table large enough? Riley's criteria for developing and for validating a model.

**Development** (Riley et al. 2019, Stat Med 38:1276; BMJ 2020;368:m441; the ``pmsampsize``
package, binary outcome). For P candidate predictor parameters, an outcome prevalence φ
and an anticipated Cox–Snell R², R²_CS, the table needs at least

1. ``shrinkage``: n = P / ((S - 1) ln(1 - R²_CS / S)) with S = 0.9, so that the
   expected uniform shrinkage of the fitted model is at most 10 %;
2. ``optimism``: the same with S = R²_CS / (R²_CS + δ max R²_CS), δ = 0.05, so that the
   apparent and adjusted Nagelkerke R² differ by at most 0.05, where
   max R²_CS = 1 - (φ^φ (1 - φ)^(1 - φ))²;
3. ``overall risk``: n = (1.96 / 0.05)² φ (1 - φ), so that the overall risk is estimated
   within ±0.05;

and the minimum is the largest of the three (each rounded up, as ``pmsampsize`` does).
Without an anticipated R², Riley et al. (2020) suggest the conservative value whose
Nagelkerke R² (R²_CS / max R²_CS) is 0.15; an anticipated C-statistic gives R²_CS by
the approximation of Riley, Van Calster & Collins (2021) (events' and non-events' log-odds
normal with equal variance), computed here by quadrature rather than simulation.

**Validation** (Riley et al. 2021, Stat Med 40:4230; ``pmvalsampsize``): the rows needed
for a 95 % interval of the target width for O/E (default width 0.2, at O/E = 1), the
calibration slope (0.2, at slope 1, from the distribution of the model's log-odds) and the
C-statistic (0.1, Newcombe's standard error).
"""

import math
from dataclasses import dataclass

import numpy as np
from scipy.optimize import brentq
from scipy.special import expit
from scipy.stats import norm

from .errors import PSLError
from .intervals import check_confidence

__all__ = [
    "DEFAULT_SHRINKAGE", "DEFAULT_OPTIMISM", "DEFAULT_MARGIN", "DEFAULT_NAGELKERKE", "DEVELOPMENT_CRITERIA",
    "VALIDATION_CRITERIA", "VALIDATION_WIDTHS", "max_cox_snell", "cox_snell_from_c_statistic",
    "DevelopmentSampleSize", "development_sample_size", "c_statistic_se", "ValidationSampleSize",
    "validation_sample_size"
]

DEFAULT_SHRINKAGE = 0.9
DEFAULT_OPTIMISM = 0.05
DEFAULT_MARGIN = 0.05
DEFAULT_NAGELKERKE = 0.15
DEVELOPMENT_CRITERIA = ("shrinkage", "optimism", "overall risk")
VALIDATION_CRITERIA = ("observed_expected", "slope", "c_statistic")
VALIDATION_WIDTHS = {"observed_expected": 0.2, "slope": 0.2, "c_statistic": 0.1}
_Z = 1.96  # the packages' and papers' 95 %


def max_cox_snell(prevalence):
    """The largest Cox–Snell R² a model of a binary outcome with this prevalence can reach."""
    phi = check_confidence(prevalence, "prevalence")
    log_null = phi * math.log(phi) + (1 - phi) * math.log(1 - phi)
    return 1 - math.exp(2 * log_null)


def cox_snell_from_c_statistic(c_statistic, prevalence, nodes=200):
    """Cox–Snell R² of a calibrated model with this C-statistic and prevalence.

    Events' log-odds N(μ, 1), non-events' N(0, 1), μ = √2 Φ⁻¹(C) (so that the C-statistic is
    C); the calibration model ``logit P(y=1) = a + b LP`` is fitted to this population
    (Gauss–Hermite quadrature, Newton's method) and R²_CS = 1 - exp(-2 (ℓ - ℓ₀)) per patient.
    """
    c = check_confidence(c_statistic, "c_statistic")
    phi = check_confidence(prevalence, "prevalence")
    if c <= 0.5:
        raise PSLError(f"c_statistic must be above 0.5 for a model that separates at all, got {c!r}")
    mu = math.sqrt(2) * norm.ppf(c)
    x, w = np.polynomial.hermite_e.hermegauss(nodes)
    w = w / w.sum()
    lp = np.concatenate([x, x + mu])
    y = np.concatenate([np.zeros(nodes), np.ones(nodes)])
    weights = np.concatenate([(1 - phi) * w, phi * w])
    design = np.column_stack([np.ones_like(lp), lp])
    beta = np.array([math.log(phi / (1 - phi)), 0.0])
    for _ in range(100):
        q = expit(design @ beta)
        gradient = design.T @ (weights * (y - q))
        hessian = (design * (weights * q * (1 - q))[:, None]).T @ design
        step = np.linalg.solve(hessian, gradient)
        beta += step
        if np.max(np.abs(step)) < 1e-12:
            break
    eta = design @ beta
    log_model = -np.sum(weights * np.logaddexp(0.0, np.where(y == 1, -eta, eta)))
    log_null = phi * math.log(phi) + (1 - phi) * math.log(1 - phi)
    return 1 - math.exp(-2 * (log_model - log_null))


@dataclass(frozen=True)
class DevelopmentSampleSize:
    """Riley's minimum sample size for developing a model (:func:`development_sample_size`).

    Attributes
    ----------
    criteria : dict
        Criterion name (:data:`DEVELOPMENT_CRITERIA`) -> minimum rows (int).
    shrinkage : dict
        Criterion name -> the shrinkage factor it assumes (``overall risk``: the larger of
        the other two, as ``pmsampsize`` reports).
    minimum : int
        The largest of the criteria.
    parameters : int
    prevalence, cox_snell, max_cox_snell : float
    events : float
        Events expected at the minimum size (minimum x prevalence).
    events_per_parameter : float
    """

    criteria: dict
    shrinkage: dict
    minimum: int
    parameters: int
    prevalence: float
    cox_snell: float
    max_cox_snell: float
    events: float
    events_per_parameter: float

    def met(self, n_rows):
        """Criterion name -> whether a table of ``n_rows`` rows meets it."""
        return {name: n_rows >= value for name, value in self.criteria.items()}


def development_sample_size(parameters, prevalence, cox_snell=None, c_statistic=None,
                            shrinkage=DEFAULT_SHRINKAGE, optimism=DEFAULT_OPTIMISM, margin=DEFAULT_MARGIN):
    """Minimum rows to develop a model with ``parameters`` candidate parameters (Riley et al.).

    Parameters
    ----------
    parameters : int >= 1
        Candidate predictor parameters (degrees of freedom the search may spend).
    prevalence : float in (0, 1)
    cox_snell : float in (0, max R²_CS) or None
        The anticipated Cox–Snell R². None: from ``c_statistic``, else the value with
        Nagelkerke R² 0.15 (Riley et al. 2020's conservative default).
    c_statistic : float in (0.5, 1) or None
    shrinkage, optimism, margin : float
        Target shrinkage factor (0.9), largest optimism in Nagelkerke R² (0.05), margin of
        error of the overall risk (0.05).

    Returns
    -------
    DevelopmentSampleSize
    """
    if isinstance(parameters, bool) or not isinstance(parameters, (int, np.integer)) or parameters < 1:
        raise PSLError(f"parameters must be an integer >= 1, got {parameters!r}")
    phi = check_confidence(prevalence, "prevalence")
    largest = max_cox_snell(phi)
    if cox_snell is None:
        cox_snell = (cox_snell_from_c_statistic(c_statistic, phi) if c_statistic is not None
                     else DEFAULT_NAGELKERKE * largest)
    r2 = check_confidence(cox_snell, "cox_snell")
    if r2 >= largest:
        raise PSLError(f"cox_snell must be below the largest possible R² {largest:.3f} at prevalence {phi:g}")
    shrinkage = check_confidence(shrinkage, "shrinkage")
    if shrinkage <= r2:
        raise PSLError(f"shrinkage ({shrinkage:g}) must exceed the anticipated R² ({r2:g})")

    def rows_for(factor):
        return math.ceil(parameters / ((factor - 1) * math.log(1 - r2 / factor)))

    small_optimism = r2 / (r2 + check_confidence(optimism, "optimism") * largest)
    criteria = {
        "shrinkage": rows_for(shrinkage),
        "optimism": rows_for(small_optimism),
        "overall risk": math.ceil((_Z / check_confidence(margin, "margin")) ** 2 * phi * (1 - phi)),
    }
    minimum = max(criteria.values())
    return DevelopmentSampleSize(
        criteria=criteria,
        shrinkage={"shrinkage": shrinkage, "optimism": small_optimism,
                   "overall risk": max(shrinkage, small_optimism)},
        minimum=minimum,
        parameters=int(parameters),
        prevalence=phi,
        cox_snell=r2,
        max_cox_snell=largest,
        events=minimum * phi,
        events_per_parameter=minimum * phi / parameters,
    )


# ---------------------------------------------------------------------------- validation
def _oe_rows(prevalence, width):
    se = math.asinh(width / 2) / _Z  # exp(z se) - exp(-z se) = width at O/E = 1
    return math.ceil((1 - prevalence) / (prevalence * se**2))


def _slope_rows(log_odds, width):
    q = expit(log_odds)
    weight = q * (1 - q)
    i00, i01, i11 = weight.mean(), (weight * log_odds).mean(), (weight * log_odds**2).mean()
    se = width / (2 * _Z)
    return math.ceil(i00 / (se**2 * (i00 * i11 - i01**2)))


def c_statistic_se(c_statistic, prevalence, n):
    """Newcombe's (2006) standard error of a C-statistic from n patients at this prevalence."""
    c, half = c_statistic, n / 2 - 1
    variance = c * (1 - c) * (1 + half * (1 - c) / (2 - c) + half * c / (1 + c))
    return math.sqrt(variance / (n * n * prevalence * (1 - prevalence)))


def _c_rows(c_statistic, prevalence, width):
    def excess(n):
        return 2 * _Z * c_statistic_se(c_statistic, prevalence, n) - width

    if excess(2) <= 0:
        return 2
    high = 4
    while excess(high) > 0:
        high *= 2
    return math.ceil(brentq(excess, 2, high, xtol=1e-9))


@dataclass(frozen=True)
class ValidationSampleSize:
    """Rows needed to validate a model precisely (:func:`validation_sample_size`).

    Attributes
    ----------
    criteria : dict
        :data:`VALIDATION_CRITERIA` name -> minimum rows.
    widths : dict
        The target interval widths.
    minimum : int
    prevalence, c_statistic : float
    """

    criteria: dict
    widths: dict
    minimum: int
    prevalence: float
    c_statistic: float

    met = DevelopmentSampleSize.met  # the same test of its criteria


def validation_sample_size(prevalence, c_statistic, log_odds, widths=None):
    """Minimum rows for precise O/E, calibration slope and C-statistic (Riley et al. 2021).

    Parameters
    ----------
    prevalence : float in (0, 1)
    c_statistic : float in (0.5, 1)
    log_odds : array-like of float
        The model's log-odds in the population to be validated (``pmvalsampsize``'s LP
        distribution: a large sample of it, or the validation table's own).
    widths : dict or None
        Target 95 % interval widths, by criterion; missing ones take
        :data:`VALIDATION_WIDTHS`.

    Returns
    -------
    ValidationSampleSize
    """
    phi = check_confidence(prevalence, "prevalence")
    c = check_confidence(c_statistic, "c_statistic")
    widths = {**VALIDATION_WIDTHS, **(widths or {})}
    log_odds = np.asarray(log_odds, dtype=float)
    if log_odds.ndim != 1 or len(log_odds) < 2 or not np.all(np.isfinite(log_odds)) or np.ptp(log_odds) == 0:
        raise PSLError("log_odds must hold at least two different finite values")
    criteria = {
        "observed_expected": _oe_rows(phi, widths["observed_expected"]),
        "slope": _slope_rows(log_odds, widths["slope"]),
        "c_statistic": _c_rows(c, phi, widths["c_statistic"]),
    }
    return ValidationSampleSize(criteria=criteria, widths=widths, minimum=max(criteria.values()),
                                prevalence=phi, c_statistic=c)
