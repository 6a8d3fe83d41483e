"""The evidence measures within groups of patients (sex, age bands, a site), with intervals.

A list well calibrated overall may not be for one group. :func:`subgroup_measures` gives,
per group: its size and events, O/E, the calibration intercept and slope (Wald
intervals, :mod:`psl_core.calibration_measures`), the ICI of its flexible calibration
curve (no interval), the C-statistic (Newcombe's standard
error, :func:`psl_core.sample_size.c_statistic_se`) and the net benefit at the decision
threshold (percentile bootstrap interval). A group with fewer than ``min_rows`` rows or
fewer than ``min_events`` patients of either outcome is marked too small and carries no
numbers. :func:`differing_groups` names the groups whose calibration or net benefit
differs beyond their interval: O/E or slope interval excluding 1, intercept interval
excluding 0, or a net-benefit interval wholly below the better of treating all and treating
none in that group (the list does harm there; groups' net benefits differ with their
prevalence, so they are not compared with the whole table's).
"""

import numpy as np
import pandas as pd
from scipy.stats import norm

from .calibration_measures import calibration_errors, intercept_and_slope, observed_expected
from .decision_curve import check_thresholds, net_benefit_unchecked, treat_all_net_benefit
from .errors import DataError
from .intervals import check_confidence
from .metrics import auc_from_counts, checked_probabilities, count_scores, labels01
from .sample_size import c_statistic_se

__all__ = [
    "MIN_GROUP_ROWS", "MIN_GROUP_EVENTS", "ALL_PATIENTS", "SUBGROUP_MEASURES", "group_measures",
    "subgroup_measures", "differing_groups", "judged_groups"
]

MIN_GROUP_ROWS = 30
MIN_GROUP_EVENTS = 5
ALL_PATIENTS = "All patients"
SUBGROUP_MEASURES = ("observed_expected", "intercept", "slope", "ici", "c_statistic", "net_benefit")


def _c_statistic(y, p, z):
    _, positives, negatives, _ = count_scores(y, p)
    c = auc_from_counts(positives, negatives)
    if not 0 < c < 1:
        return c, np.nan, np.nan
    se = c_statistic_se(c, y.mean(), len(y))
    return c, max(0.0, c - z * se), min(1.0, c + z * se)


def _net_benefit_interval(y, p, threshold, confidence, n_boot, rng):
    t = np.array([threshold])
    estimate = float(net_benefit_unchecked(y, p, t)[0])
    draws = [float(net_benefit_unchecked(y[rows], p[rows], t)[0]) for rows in rng.integers(0, len(y), (n_boot, len(y)))]
    tail = 100 * (1 - confidence) / 2
    low, high = np.percentile(draws, [tail, 100 - tail])
    return estimate, float(low), float(high)


def group_measures(y, p, threshold, confidence=0.95, n_boot=200, seed=0):
    """The measures of :data:`SUBGROUP_MEASURES` on one set of patients.

    Returns
    -------
    dict measure -> (estimate, lower, upper)
    """
    y = labels01(y)
    p = checked_probabilities(p, len(y))
    confidence = check_confidence(confidence)
    threshold = float(check_thresholds(threshold)[0])
    z = norm.ppf(0.5 + confidence / 2)
    weak = intercept_and_slope(y, p, confidence)
    ici = float(calibration_errors(y, p)[0])
    return {
        "observed_expected": observed_expected(y, p, confidence),
        "intercept": weak["intercept"],
        "slope": weak["slope"],
        "ici": (ici, np.nan, np.nan),  # no interval here: it would cost a bootstrap of spline fits per group
        "c_statistic": _c_statistic(y, p, z),
        "net_benefit": _net_benefit_interval(y, p, threshold, confidence, n_boot, np.random.default_rng(seed)),
    }


def subgroup_measures(y, p, groups, threshold, confidence=0.95, n_boot=200, seed=0,
                      min_rows=MIN_GROUP_ROWS, min_events=MIN_GROUP_EVENTS):
    """The measures within every group, and in the whole table.

    Parameters
    ----------
    y : array-like of 0/1, shape (n,)
    p : array-like of float in [0, 1], shape (n,)
    groups : array-like of shape (n,)
        Each patient's group label (missing values make a group of their own only if they
        are given a label; NaN rows are left out). A categorical Series keeps its categories'
        order (bands of a numeric column from low to high), any other is sorted by label.
    threshold : float in (0, 1)
        The decision threshold 1 / (1 + M) for the net benefit.
    confidence, n_boot, seed
    min_rows, min_events : int
        Smallest group judged, and the fewest patients of each outcome it must have.

    Returns
    -------
    pandas.DataFrame, one row per group (in order, see ``groups``) then ``"All patients"`` (index
    ``group``): n, events, too_small (bool), default_net_benefit (the better of treating
    all and none), and per measure ``<measure>``,
    ``<measure>_lower``, ``<measure>_upper`` (NaN for a group too small).
    """
    y = labels01(y)
    p = checked_probabilities(p, len(y))
    if isinstance(getattr(groups, "dtype", None), pd.CategoricalDtype):
        groups = pd.Series(groups).reset_index(drop=True)
    else:
        groups = pd.Series(np.asarray(groups, dtype=object))
    if len(groups) != len(y):
        raise DataError(f"groups must have one label per patient: {len(y)} patients, {len(groups)} labels")
    rows = []
    for label, index in groups.dropna().groupby(groups.dropna(), sort=True, observed=True).groups.items():
        rows.append((str(label), np.asarray(index)))
    rows.append((ALL_PATIENTS, np.arange(len(y))))
    table = []
    for label, index in rows:
        y_g, p_g = y[index], p[index]
        events = int(y_g.sum())
        too_small = len(y_g) < min_rows or min(events, len(y_g) - events) < min_events
        record = {"group": label, "n": len(y_g), "events": events, "too_small": too_small,
                  "default_net_benefit": max(0.0, float(treat_all_net_benefit(y_g.mean(), threshold)[0]))}
        values = {} if too_small else group_measures(y_g, p_g, threshold, confidence, n_boot, seed)
        for measure in SUBGROUP_MEASURES:
            estimate, low, high = values.get(measure, (np.nan, np.nan, np.nan))
            record.update({measure: estimate, f"{measure}_lower": low, f"{measure}_upper": high})
        table.append(record)
    return pd.DataFrame(table).set_index("group")


_IDEAL = {"observed_expected": 1.0, "intercept": 0.0, "slope": 1.0}


def differing_groups(table):
    """Groups whose calibration or net benefit differs beyond their interval.

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`subgroup_measures`.

    Returns
    -------
    dict group -> list of the measures that differ (:data:`SUBGROUP_MEASURES` names):
    a calibration measure whose interval excludes its ideal value, or ``net_benefit``
    when the group's interval lies below its ``default_net_benefit``. Groups too small
    and the whole table are not listed.
    """
    result = {}
    for group, row in table.drop(index=ALL_PATIENTS).iterrows():
        if row["too_small"]:
            continue
        differ = [m for m, ideal in _IDEAL.items()
                  if not (row[f"{m}_lower"] <= ideal <= row[f"{m}_upper"])
                  and np.isfinite(row[f"{m}_lower"])]
        if row["net_benefit_upper"] < row["default_net_benefit"]:
            differ.append("net_benefit")
        if differ:
            result[group] = differ
    return result


def judged_groups(table):
    """Groups of a :func:`subgroup_measures` table large enough to be judged (not the whole
    table): with none, "no group differs" would claim a comparison that was not made."""
    groups = table.drop(index=ALL_PATIENTS)
    return list(groups.index[~groups["too_small"].astype(bool)])
