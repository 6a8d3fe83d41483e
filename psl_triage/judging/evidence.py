"""The evidence a researcher reports, as tables and sentences for the pages and the report.

Numbers come from psl_core (:mod:`psl_core.decision_curve`,
:mod:`psl_core.calibration_measures`, :mod:`psl_core.sample_size`,
:mod:`psl_core.subgroups`); here they get their tables and the choices the app makes for the
researcher, and their words from :mod:`psl_triage.words.evidence` and
:mod:`psl_triage.words.sample_size`:

- what the search's *candidate parameters* are (:func:`candidate_parameters`) for Riley's
  development criteria on the Train page, and whether the table meets them;
- whether a validation table is large enough for precise O/E, slope and C-statistic;
- the held-out decision curves of the Monte Carlo evaluation, and a site's decision curves
  with a bootstrap band;
- subgroups from a column (bands of a numeric one) and the sentence naming the group that
  differs.
"""

import numpy as np
import pandas as pd

from psl_core.calibration_measures import HIERARCHY, intercept_and_slope, observed_expected
from psl_core.cost_ratio import decision_threshold
from psl_core.costs import default_change_value
from psl_core.decision import StageBands, stop_stages
from psl_core.decision_curve import (
    DEFAULT_THRESHOLD_RANGE,
    THRESHOLD_GRID,
    TREAT_ALL,
    TREAT_NONE,
    interventions_avoided,
    net_benefit_of_actions,
    net_benefit_unchecked,
    treat_all_net_benefit,
)
from psl_core.evaluation import PSL, STEPWISE, STEPWISE_COSTED, band_summary
from psl_core.metrics import auc_from_counts, count_scores
from psl_core.sample_size import (
    c_statistic_se,
    development_sample_size,
    validation_sample_size,
)
from psl_core.stopping import DEFAULT_TOLERANCE
from psl_core.subgroups import ALL_PATIENTS, differing_groups, judged_groups
from psl_core.validation import stage_totals
from psl_triage.bedside.session import recommended_length
from psl_triage.data import BINARY, CATEGORICAL, NUMERIC
from psl_triage.model_file.metadata import ModelMetadata
from psl_triage.words import evidence as words
from psl_triage.words import sample_size as sizes

NUMERIC_BANDS = 3
"""Bands a numeric column is cut into for subgroups (its tertiles) by default."""
MAX_GROUPS = 12
"""Most groups compared at once: more are unreadable, and at 95 % one in twenty differs by chance."""


# ---------------------------------------------------------------------------- sample size
def candidate_parameters(prepared, max_feature_uses=2):
    """Candidate predictor parameters the list's search considers, and how they are counted.

    A binary column is one parameter (its points); a categorical one is one per category
    but one (as dummy coding would be); a numeric column is two per use the search allows
    (``max_feature_uses``): a cut point searched on the data costs a degree of freedom of
    its own beside the points (Royston & Sauerbrei: data-dependent cut points overfit like
    extra parameters). Stages are not counted: a list of K questions spends at most the
    parameters of the questions it asks, all of which are candidates here.

    Returns
    -------
    total : int
    counts : dict kind -> (columns, parameters)
    """
    kinds = [(info.kind, prepared.X[name].nunique(dropna=True)) for name, info in prepared.columns.items()]
    return parameter_counts(kinds, max_feature_uses)


def metadata_kinds(metadata):
    """(kind, number of categories) of every column recorded in a model file's metadata."""
    columns = ModelMetadata.coerce(metadata).columns or {}
    return [(info.kind, len(info.category_labels or {})) for info in columns.values()]


def parameter_counts(kinds, max_feature_uses=2):
    """:func:`candidate_parameters` from (kind, number of categories) per column."""
    counts = {BINARY: [0, 0], CATEGORICAL: [0, 0], NUMERIC: [0, 0]}
    for kind, n_categories in kinds:
        kind = kind if kind in counts else NUMERIC
        if kind == BINARY:
            spent = 1
        elif kind == CATEGORICAL:
            spent = max(1, int(n_categories) - 1)
        else:
            spent = 2 * max(1, int(max_feature_uses or 1))
        counts[kind][0] += 1
        counts[kind][1] += spent
    total = sum(p for _, p in counts.values())
    return max(total, 1), {k: tuple(v) for k, v in counts.items() if v[0]}


def development_adequacy(prepared, max_feature_uses=2, c_statistic=None):
    """Riley's development criteria for the prepared table.

    Returns
    -------
    size : psl_core.sample_size.DevelopmentSampleSize
    table : pandas.DataFrame (Criterion, Rows needed, Events needed, Rows here, Met)
    sentences : list of str (Markdown; no names from files)
    """
    return counted_adequacy(len(prepared.y), int(prepared.y.sum()),
                            candidate_parameters(prepared, max_feature_uses), max_feature_uses, c_statistic)


def counted_adequacy(n, events, counted, max_feature_uses=2, c_statistic=None):
    """:func:`development_adequacy` from the counts: rows, events and
    :func:`candidate_parameters`' (total, counts)."""
    prevalence = min(max(events / n, 1 / (n + 1)), n / (n + 1))
    size = development_sample_size(counted[0], prevalence, c_statistic=c_statistic)
    met = size.met(n)
    table = pd.DataFrame({
        sizes.CRITERION: [sizes.DEVELOPMENT_WORDS[c] for c in size.criteria],
        sizes.ROWS_NEEDED: list(size.criteria.values()),
        sizes.EVENTS_NEEDED: [int(np.ceil(v * prevalence)) for v in size.criteria.values()],
        sizes.ROWS_HERE: n,
        sizes.MET: [sizes.met_word(met[c]) for c in size.criteria],
    })
    sentences = sizes.development_sentences(n, events, prevalence, counted, max_feature_uses, c_statistic, size)
    return size, table, sentences


def validation_adequacy(y, p):
    """Whether a site's table estimates O/E, slope and C-statistic as precisely as Riley asks.

    The criteria use the table's own prevalence, the list's C-statistic on it and the
    distribution of its log-odds there (``pmvalsampsize``'s inputs); the table also shows
    the widths of the intervals it actually gives.

    Returns
    -------
    size : psl_core.sample_size.ValidationSampleSize or None (one outcome only, or one risk)
    table : pandas.DataFrame
    sentence : str
    """
    y = np.asarray(y)
    p = np.asarray(p, dtype=float)
    n = len(y)
    if y.min() == y.max() or np.ptp(p) == 0:
        return None, pd.DataFrame(), sizes.VALIDATION_NEEDS_BOTH
    _, positives, negatives, _ = count_scores(y, p)
    measured = auc_from_counts(positives, negatives)
    c = min(max(measured, 0.51), 0.99)  # the criteria need 0.5 < C < 1
    lp = np.log(np.clip(p, 1e-3, 1 - 1e-3) / (1 - np.clip(p, 1e-3, 1 - 1e-3)))
    size = validation_sample_size(y.mean(), c, lp)
    ratio, low, high = observed_expected(y, p)
    weak = intercept_and_slope(y, p)
    achieved = {
        "observed_expected": high - low if np.isfinite(low) else np.nan,
        "slope": weak["slope"][2] - weak["slope"][1] if np.isfinite(weak["slope"][1]) else np.nan,
        "c_statistic": 2 * 1.96 * c_statistic_se(c, y.mean(), n),
    }
    met = size.met(n)
    table = pd.DataFrame({
        sizes.MEASURE: [sizes.VALIDATION_WORDS[c_] for c_ in size.criteria],
        sizes.TARGET_WIDTH: [size.widths[c_] for c_ in size.criteria],
        sizes.WIDTH_HERE: [achieved[c_] for c_ in size.criteria],
        sizes.ROWS_NEEDED: list(size.criteria.values()),
        sizes.ROWS_HERE: n,
        sizes.MET: [sizes.met_word(met[c_]) for c_ in size.criteria],
    })
    sentence = sizes.validation_sentence(n, size, measured, c)
    return size, table, sentence


# ---------------------------------------------------------------------------- decision curves
def in_range(table, threshold_range, threshold):
    """Rows of a decision-curve table inside the range, plus those at M's threshold."""
    low, high = threshold_range
    t = table["threshold"]
    return table[((t >= low - 1e-12) & (t <= high + 1e-12)) | np.isclose(t, threshold)].reset_index(drop=True)


def held_out_decision_curves(result, stage, threshold_range=DEFAULT_THRESHOLD_RANGE, every_stage=False):
    """Decision curves of one stage over the Monte Carlo splits, mean and 95 % band.

    Parameters
    ----------
    result : psl_core.evaluation.CVResult
    stage : int
    threshold_range : (low, high)
    every_stage : bool
        Also the list's mean curve at every other stage (method :func:`psl_triage.words.evidence.stage_method`).

    Returns
    -------
    curves : pandas.DataFrame
        method, threshold, mean, lower, upper, n (splits): the list and both baselines at
        ``stage``, treat all, treat none, and the bedside stop rule's point at 1/(1+M);
        ``interventions_avoided`` (net interventions avoided per 100 patients, against
        treating all; NaN for treat all and treat none).
    """
    threshold = decision_threshold(result.settings["cost_ratio"])
    table = result.net_benefit
    keep = (table["stage"] == stage).fillna(False) | table["stage"].isna()
    summary = band_summary(table[keep].drop(columns="stage"))
    summary = in_range(summary, threshold_range, threshold)
    grid = np.union1d(THRESHOLD_GRID, [threshold])
    none = pd.DataFrame({"method": TREAT_NONE, "threshold": grid, "mean": 0.0, "sd": 0.0,
                         "n": result.settings["n_splits"], "lower": 0.0, "upper": 0.0})
    parts = [summary, in_range(none, threshold_range, threshold)]
    if every_stage:
        others = table[(table["method"] == PSL) & table["stage"].notna() & (table["stage"] != stage)]
        others = band_summary(others.drop(columns="method")).sort_values(["stage", "threshold"])
        others = others.assign(method=others["stage"].astype(int).map(words.stage_method)).drop(columns="stage")
        parts.append(in_range(others, threshold_range, threshold))
    return with_interventions_avoided(pd.concat(parts, ignore_index=True))


def with_interventions_avoided(summary):
    """A decision-curve summary with net interventions avoided per 100 patients against
    treating all (NaN for treat all and treat none), without its ``sd`` column."""
    everyone = summary[summary["method"] == TREAT_ALL].set_index("threshold")["mean"]
    reference = everyone.reindex(summary["threshold"]).to_numpy()
    avoided = interventions_avoided(summary["mean"].to_numpy(), reference, summary["threshold"].to_numpy())
    summary = summary.assign(interventions_avoided=np.where(summary["method"].isin([TREAT_ALL, TREAT_NONE]), np.nan,
                                                            avoided))
    return summary.drop(columns="sd", errors="ignore")


def site_decision_curves(y, p, threshold, threshold_range=DEFAULT_THRESHOLD_RANGE, n_boot=200, seed=0,
                         confidence=0.95):
    """Decision curves of the list on a site's table, with percentile bootstrap bands.

    Returns
    -------
    pandas.DataFrame as :func:`held_out_decision_curves` (``n`` = bootstrap resamples).
    """
    y = np.asarray(y, dtype=np.int64)
    p = np.asarray(p, dtype=float)
    grid = np.union1d(THRESHOLD_GRID, [threshold])
    rng = np.random.default_rng(seed)
    rows = rng.integers(0, len(y), (n_boot, len(y)))
    tail = 100 * (1 - confidence) / 2
    parts = []
    for method, values, draws in (
        (PSL, net_benefit_unchecked(y, p, grid), np.array([net_benefit_unchecked(y[r], p[r], grid) for r in rows])),
        (TREAT_ALL, treat_all_net_benefit(y.mean(), grid),
         np.array([treat_all_net_benefit(y[r].mean(), grid) for r in rows])),
        (TREAT_NONE, np.zeros(len(grid)), np.zeros((1, len(grid)))),
    ):
        low, high = np.percentile(draws, [tail, 100 - tail], axis=0)
        parts.append(pd.DataFrame({"method": method, "threshold": grid, "mean": values, "n": n_boot,
                                   "lower": low, "upper": high}))
    summary = in_range(pd.concat(parts, ignore_index=True), threshold_range, threshold)
    everyone = summary[summary["method"] == TREAT_ALL].set_index("threshold")["mean"]
    avoided = interventions_avoided(summary["mean"].to_numpy(), everyone.reindex(summary["threshold"]).to_numpy(),
                                    summary["threshold"].to_numpy())
    summary["interventions_avoided"] = np.where(summary["method"] == PSL, avoided, np.nan)
    return summary


def site_bedside_point(model, X, y, cost_ratio, n_boot=200, seed=0, confidence=0.95):
    """The bedside stop rule's net benefit at 1/(1+M) on a site's table, with a bootstrap interval.

    The rule as Triage uses it by default (:func:`psl_core.decision.stop_stages`: the
    recommended questions, the default tolerance, for a list with question costs the
    default value of a changed outcome), on the patients whose answers up to that length
    are all known; ruled in, or uncertain (risk-averse), is acted on. A list with costs
    also gets the point less the mean cost asked over that value (a harm term).

    Returns
    -------
    rows : pandas.DataFrame
        As :func:`site_decision_curves` (methods :data:`STEPWISE`, :data:`STEPWISE_COSTED`);
        empty when no patient has those answers.
    n : int
        Patients it is computed on.
    """

    length = recommended_length(model)
    totals, known = stage_totals(model, X, length)
    rows = known[:, length]
    if not rows.any():
        return pd.DataFrame(columns=["method", "threshold", "mean", "n", "lower", "upper"]), 0
    y = np.asarray(y, dtype=np.int64)[rows]
    costs = np.asarray(model.stage_costs_[:length], dtype=float)
    change_value = default_change_value(costs)
    stop, codes = stop_stages(StageBands(model, confidence), totals[rows], cost_ratio, length,
                              DEFAULT_TOLERANCE, change_value)
    threshold = decision_threshold(cost_ratio)
    acted = codes >= 0
    asked = np.concatenate([[0.0], np.cumsum(costs)])[stop]
    harm = asked / change_value if change_value else None
    rng = np.random.default_rng(seed)
    draws = rng.integers(0, len(y), (n_boot, len(y)))
    tail = 100 * (1 - confidence) / 2
    found = []
    for method, per_patient in ((STEPWISE, 0.0), (STEPWISE_COSTED, harm)):
        if per_patient is None:
            continue
        per_patient = np.broadcast_to(per_patient, y.shape)
        value = net_benefit_of_actions(y, acted, threshold) - per_patient.mean()
        boot = [net_benefit_of_actions(y[r], acted[r], threshold) - per_patient[r].mean() for r in draws]
        low, high = np.percentile(boot, [tail, 100 - tail])
        found.append({"method": method, "threshold": threshold, "mean": value, "n": n_boot,
                      "lower": low, "upper": high, "interventions_avoided": np.nan})
    return pd.DataFrame(found), int(rows.sum())


BEATS, ABOVE, EQUALS, NOT_ABOVE, BELOW = "beats", "above", "equals", "not above", "below"
"""Where the list's net benefit at 1/(1+M) stands against the better of treating everyone and
no one (:func:`net_benefit_verdict`): its interval above it; its mean above it, the interval
reaching it; the same to the 3 decimals shown (the list acts as that default); its mean below,
the interval reaching it; its interval wholly below."""
SAME_NET_BENEFIT = 5e-4
"""Net benefits closer than this read the same: the pages show three decimals."""


def net_benefit_verdict(mean, lower, upper, everyone) -> tuple[str, str]:
    """(verdict, the better default: :data:`TREAT_ALL` or :data:`TREAT_NONE`) of a list's net
    benefit ``mean`` with its interval [``lower``, ``upper``] against treating everyone
    (``everyone``, NaN when unknown) and treating no one (0): the one rule every page's
    sentence on net benefit reads (:func:`decision_curve_sentence`)."""
    best, default = (everyone, TREAT_ALL) if np.isfinite(everyone) and everyone > 0 else (0.0, TREAT_NONE)
    if abs(mean - best) < SAME_NET_BENEFIT:
        return EQUALS, default
    if lower > best:
        return BEATS, default
    if mean > best:
        return ABOVE, default
    return (BELOW if upper < best else NOT_ABOVE), default


def decision_curve_sentence(curves, threshold, cost_ratio):
    """One sentence on the list's net benefit at M's threshold against the defaults, the same on
    every page that shows decision curves (Evaluation and Validate, yes/no and at a horizon) and
    in the report: the verdict of :func:`net_benefit_verdict`; "" when the curves have no row of
    the list at the threshold."""
    at = curves[np.isclose(curves["threshold"], threshold)].set_index("method")
    if PSL not in at.index:
        return ""
    everyone = float(at.loc[TREAT_ALL, "mean"]) if TREAT_ALL in at.index else np.nan
    row = at.loc[PSL]
    verdict = net_benefit_verdict(row["mean"], row["lower"], row["upper"], everyone)
    stop_rule = [(method == STEPWISE_COSTED, at.loc[method, "mean"])
                 for method in (STEPWISE, STEPWISE_COSTED) if method in at.index]
    return words.decision_curve_sentence(row, everyone, verdict, cost_ratio, threshold, stop_rule)


# ---------------------------------------------------------------------------- calibration
def hierarchy_table(numbers):
    """The calibration hierarchy as a table: Measure, Estimate, Lower, Upper (95 %)."""
    return pd.DataFrame({
        words.MEASURE: [words.HIERARCHY_WORDS[m] for m in HIERARCHY if m in numbers],
        words.ESTIMATE: [numbers[m][0] for m in HIERARCHY if m in numbers],
        words.LOWER: [numbers[m][1] for m in HIERARCHY if m in numbers],
        words.UPPER: [numbers[m][2] for m in HIERARCHY if m in numbers],
    })


def hierarchy_of(y, p, flexible):
    """The calibration hierarchy of risks ``p`` on outcomes ``y`` as a table
    (:func:`hierarchy_table`): observed / expected, the calibration intercept and slope, and the
    flexible curve's numbers from ``flexible``, the
    :func:`~psl_core.calibration_measures.flexible_calibration` of the same ``y`` and ``p``
    (fitted once by the caller, whose page keeps it)."""
    return hierarchy_table({"observed_expected": observed_expected(y, p), **intercept_and_slope(y, p),
                            **flexible.summary})


def held_out_hierarchy(result, stage):
    """The hierarchy of one stage over the Monte Carlo splits: mean with its 95 % band."""
    table = result.calibration
    summary = band_summary(table[(table["stage"] == stage) & (table["method"] == PSL)].drop(columns="stage"))
    numbers = {row["measure"]: (row["mean"], row["lower"], row["upper"]) for _, row in summary.iterrows()}
    return hierarchy_table(numbers)


def held_out_calibration_curve(result, stage, confidence=0.95):
    """The list's held-out calibration curve of one stage: mean over splits and the
    spread of 95 % of the splits' curves, at risks that at least half of the splits reach."""
    curves = result.calibration_curves
    part = curves[curves["stage"] == stage]
    tail = (1 - confidence) / 2
    grouped = part.groupby("risk")["observed"]
    table = pd.DataFrame({
        "observed": grouped.mean(), "lower": grouped.quantile(tail), "upper": grouped.quantile(1 - tail),
        "splits": grouped.count(),
    }).reset_index()
    return table[table["splits"] >= max(1, result.settings["n_splits"] / 2)].reset_index(drop=True)


# ---------------------------------------------------------------------------- subgroups
def group_labels(values, bands=NUMERIC_BANDS):
    """Each patient's subgroup label from a column: its values, or bands of a numeric one.

    A numeric column with more than ``bands`` distinct values is cut at its quantiles
    ("< 54", "54 to < 61", "≥ 61"); a missing value makes the group "missing".

    Returns
    -------
    pandas.Series of str, same index as ``values``; for bands a categorical one whose
    categories run from the lowest band to the highest, then "missing"
    """
    values = pd.Series(values)
    numeric = pd.to_numeric(values, errors="coerce") if values.dtype.kind in "biuf" else None
    if numeric is not None and numeric.nunique() > bands:
        cuts = np.unique(np.quantile(numeric.dropna(), np.linspace(0, 1, bands + 1)[1:-1]))
        names = words.band_labels(cuts)
        labels = [words.MISSING_GROUP if np.isnan(value) else names[int(np.searchsorted(cuts, value, side="right"))]
                  for value in numeric]
        order = pd.CategoricalDtype([*names, words.MISSING_GROUP], ordered=True)
        return pd.Series(labels, index=values.index, dtype=order)
    return values.astype(object).where(values.notna(), words.MISSING_GROUP).astype(str)


def subgroup_display(table):
    """:func:`psl_core.subgroups.subgroup_measures` as a table to read: intervals as text,
    "too small to judge" where a group is."""
    rows = []
    for group, row in table.iterrows():
        record = {words.GROUP: group, words.PATIENTS: int(row["n"]), words.EVENTS: int(row["events"])}
        for measure, word in words.SUBGROUP_WORDS.items():
            record[word] = (words.TOO_SMALL if row["too_small"]
                            else words.interval_text(row[measure], row[f"{measure}_lower"], row[f"{measure}_upper"],
                                           3 if measure == "net_benefit" else 2))
        rows.append(record)
    return pd.DataFrame(rows)


def too_many_groups(labels, column):
    """A sentence when a column makes more than :data:`MAX_GROUPS` groups (else None)."""
    count = pd.Series(labels).nunique()
    if count <= MAX_GROUPS:
        return None
    return words.too_many_groups(column, count, MAX_GROUPS)


def subgroup_sentences(table, column):
    """Sentences naming the groups that differ, and those too small (Markdown, escaped)."""
    small = [str(g) for g, row in table.drop(index=ALL_PATIENTS).iterrows() if row["too_small"]]
    return words.subgroup_sentences(column, differing_groups(table), small, judged_groups(table), len(table) - 1)


# ---------------------------------------------------------------------------- report
def report_evidence(stage, evaluation=None, subgroup_reports=(), site=None, horizon=None):
    """The evidence the model report carries beside the sample size, from this session.

    Parameters
    ----------
    stage : int
        The length reported on.
    evaluation : psl_core.evaluation.CVResult or None
        A Monte Carlo evaluation of this list's settings.
    subgroup_reports : iterable of (where, column, table)
        Subgroup tables (:func:`psl_core.subgroups.subgroup_measures`) computed for this
        list, with where they come from.
    site : dict or None
        What the Validate page showed for this list at another site: "where", and
        optionally "caveat" (the page's warning that the table looks like the list's own
        training data, plain text), "sample_size" (sentence, table), "calibration" (table),
        "utility" (sentence).
    horizon : dict or None
        The Evaluation page's comparison of a horizon list (``state_keys.EVALUATION_HORIZON``:
        "table", "curves", "cost_ratio", "n_splits", "stage"): its measures at the horizon (O/E among
        them) as the calibration item, its decision curve at 1/(1+M) as the utility item.

    Returns
    -------
    dict with optional entries "calibration" (table, source), "utility" (sentence,
    source), "subgroups" (list of (where, column, display table, named groups, whether any
    group was large enough to judge)) and
    "site" (``site`` as given).
    """
    found = {}
    if evaluation is not None and evaluation.calibration is not None:
        last = int(evaluation.measures["stage"].max())
        at = min(stage, last)
        source = words.held_out_source(evaluation.settings["n_splits"], evaluation.settings["test_size"], at)
        found["calibration"] = (held_out_hierarchy(evaluation, at), source)
        curves = held_out_decision_curves(evaluation, at)
        threshold = decision_threshold(evaluation.settings["cost_ratio"])
        found["utility"] = (decision_curve_sentence(curves, threshold, evaluation.settings["cost_ratio"]), source)
    if horizon is not None and "calibration" not in found:
        source = words.horizon_source(horizon["n_splits"], horizon.get("stage"))
        found["calibration"] = (horizon["table"], source)
        m = horizon["cost_ratio"]
        found["utility"] = (decision_curve_sentence(horizon["curves"], decision_threshold(m), m), source)
    reports = [(where, column, subgroup_display(table), differing_groups(table), bool(judged_groups(table)))
               for where, column, table in subgroup_reports]
    if reports:
        found["subgroups"] = reports
    if site:
        found["site"] = site
    return found
