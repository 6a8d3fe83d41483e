"""How long the list should be: the internal cross-validation of ``recommend_folds``.

Each fold refits the list on the other folds and scores every stage of it on its own
rows by the Brier score; the recommended length has the lowest mean held-out score among
the stages every fold's list reached. With few rows of the rarer class the folds are drawn
more than once (``recommend_repeats``, :func:`n_draws`) and every draw's folds are averaged:
on a dozen events one draw's recommended length is a lottery. The same held-out estimates give each stage's
calibration slope, by which ``shrinkage="cv"`` pulls the probabilities toward the base
rate (:func:`shrinkage_factors`). :func:`stratified_folds` also splits the rows of the
cross-validated criteria (:mod:`psl_core.search`).
"""

import math
import warnings

import joblib
import numpy as np
import pandas as pd
from sklearn.base import clone
from sklearn.isotonic import isotonic_regression
from sklearn.model_selection import StratifiedKFold
from sklearn.utils import _safe_indexing

from .errors import DataError, SmallDataWarning
from .search import first_minimum

RARER_CLASS_TARGET = 100
"""``recommend_repeats="auto"`` draws the folds until the held-out rows, over all draws,
hold about this many rows of the rarer class (:func:`n_draws`)."""

MAX_DRAWS = 5
"""The most draws ``recommend_repeats="auto"`` makes (5 draws of 5 folds: 25 refits)."""


def n_draws(y01, repeats):
    """How many times the internal folds are drawn.

    Parameters
    ----------
    y01 : ndarray of 0/1, shape (n,)
    repeats : int >= 1 or "auto"
        The estimator's ``recommend_repeats``. ``"auto"``: ceil(:data:`RARER_CLASS_TARGET` /
        rows of the rarer class), between 1 and :data:`MAX_DRAWS`. One draw holds each row out
        once, so its held-out Brier score rests on the rarer class's rows; with 11 of them
        (MGUS, ``bench/README.md`` section 14) re-drawing the folds moved the recommended
        list's test Brier score by up to 2.9 standard errors, and averaging draws steadies it.

    Returns
    -------
    int
    """
    if repeats != "auto":
        return int(repeats)
    rarest = max(int(np.bincount(y01, minlength=2).min()), 1)
    return int(min(MAX_DRAWS, max(1, math.ceil(RARER_CLASS_TARGET / rarest))))


def held_out_scores(estimator, X, y01, columns, weight=None, draws=1):
    """Refit a fitted list's setup on each internal fold and score its stages held out.

    Parameters
    ----------
    estimator : fitted ProbabilisticScoringList
        Its ``recommend_folds``, ``random_state`` and length set the folds and the refits.
    X : DataFrame or array of shape (n, n_features)
    y01 : ndarray of 0/1, shape (n,)
    columns : list of Column
        X as read (their values sort the rows before the seeded split).
    weight : ndarray of shape (n,) or None
    draws : int >= 1, default=1
        How many times the folds are drawn (:func:`n_draws`); draw r is seeded
        ``random_state + r``.

    Returns
    -------
    scores : ndarray of shape (n_draws * n_folds, n_stages)
        Held-out Brier score of each fold's list at each stage, NaN beyond its end; the
        folds of draw r are rows r * n_folds to (r + 1) * n_folds - 1.
    slope : ndarray of shape (n_draws * n_folds, 3, n_stages)
        Per fold and stage, over its held-out rows if its list reached the stage: the sums
        of (p - base)(y - base) and (p - base)^2, and the number of rows
        (:func:`shrinkage_factors` adds them up).
    spread : ndarray of shape (2, n_stages)
        Per stage, over the (fold, total) cells with training and held-out rows: the sums
        that :func:`interval_inflation` divides (:func:`fold_spread`).
    """
    n_stages = estimator.n_stages_
    # Rows are taken by index: a DataFrame as it is (its names and kinds), anything else that
    # fit read as a 2-D array (an array-like without indexing of its own) as that array.
    X = X if hasattr(X, "iloc") else np.asarray(X)
    keys = [c.values for c in columns]
    seed = estimator.random_state
    fold_draws = [
        stratified_folds(y01, estimator.recommend_folds, None if seed is None else seed + draw, keys)
        for draw in range(draws)
    ]
    n_folds = int(fold_draws[0].max()) + 1
    inner = clone(estimator).set_params(recommend_folds=None, max_stages=n_stages - 1, horizon=None)

    def held_out(job):
        draw, fold = divmod(job, n_folds)
        return _held_out_fold(inner, X, y01, weight, fold_draws[draw] != fold)

    # The folds' searches run in threads: the compiled search releases the GIL
    # (psl_core.kernels.kernel). Their results are summed in fold order, as one after another.
    n_jobs = n_folds * draws
    fitted = joblib.Parallel(n_jobs=min(n_jobs, joblib.cpu_count()), backend="threading")(
        joblib.delayed(held_out)(job) for job in range(n_jobs)
    )
    return _sum_folds(fitted, y01, weight, n_stages)


def _held_out_fold(inner, X, y01, weight, in_training):
    """Fit ``inner`` on the rows ``in_training`` and read its stages on the others: (test rows,
    stages, probabilities per row and stage, (positives, negatives, cell per row) per stage)."""
    train, test = np.flatnonzero(in_training), np.flatnonzero(~in_training)
    model = clone(inner).fit(
        _safe_indexing(X, train), y01[train], sample_weight=None if weight is None else weight[train],
    )
    totals = model.stagewise_totals(_safe_indexing(X, test))
    cells = [np.searchsorted(model.stage_totals_[k], totals[:, k]) for k in range(model.n_stages_)]
    p = np.column_stack([model.stage_probabilities_[k][index] for k, index in enumerate(cells)])
    return test, model.n_stages_, p, [
        (model.stage_positives_[k], model.stage_negatives_[k], index) for k, index in enumerate(cells)
    ]


def _sum_folds(fitted, y01, weight, n_stages):
    """The held-out Brier scores, slope sums per fold and spread sums of :func:`held_out_scores`,
    from every fold's :func:`_held_out_fold` in fold order."""
    scores = np.full((len(fitted), n_stages), np.nan)
    slope = np.zeros((len(fitted), 3, n_stages))
    spread = np.zeros((2, n_stages))
    for fold, (test, fold_stages, p, counts) in enumerate(fitted):
        w = np.ones(len(test)) if weight is None else weight[test]
        reached = min(fold_stages, n_stages)
        for k in range(1, reached):
            spread[:, k] += fold_spread(*counts[k], y01[test], w)
        scores[fold, :reached] = np.average((p[:, :reached] - y01[test, None]) ** 2, axis=0, weights=w)
        gap = p[:, :reached] - p[:, :1]  # held-out estimates around the fold's base rate
        surprise = y01[test] - p[:, 0]  # held-out outcomes around the fold's base rate
        slope[fold, 0, :reached] = (w * gap.T) @ surprise
        slope[fold, 1, :reached] = w @ gap**2
        slope[fold, 2, :reached] = w.sum()
    return scores, slope, spread


def recommended_stage(scores, draws=1):
    """Mean held-out Brier score per stage, its standard error, and the recommended stage.

    A fold's list may end before the list's last stage: a stage is scored by the folds
    whose list reached it (NaN when none did, no standard error with fewer than two). Only
    a stage every fold's list reached is recommended: the mean of fewer folds is the luck
    of those folds (a stage reached by one fold has no standard error at all).

    Parameters
    ----------
    scores : ndarray of shape (n_draws * n_folds, n_stages)
        From :func:`held_out_scores`.
    draws : int, default=1
        How many draws of the folds ``scores`` holds. The draws hold out the same rows, so
        the standard error is that of one draw's folds: the spread over all folds divided
        by the square root of the folds per draw (reached / draws), not of all of them.
    """
    n_folds, n_stages = scores.shape
    reached = np.sum(~np.isnan(scores), axis=0)
    mean = np.divide(np.nansum(scores, axis=0), reached, out=np.full(n_stages, np.nan), where=reached > 0)
    squares = np.nansum((scores - mean) ** 2, axis=0)
    variance = np.divide(squares, reached - 1.0, out=np.full(n_stages, np.nan), where=reached > 1)
    se = np.sqrt(variance * draws / np.maximum(reached, 1))
    return mean, se, first_minimum(np.where(reached == n_folds, mean, np.inf))


def shrinkage_factors(slope, scores, draws=1):
    """Each stage's held-out calibration slope (``shrinkage``).

    For stage k the slope of y - base on p - base through the origin over the held-out
    rows is b = covariance / variance and s_k = clip(b, 0, 1): the uniform shrinkage
    factor of a prediction model fitted on few patients (van Houwelingen and le Cessie).
    Until issue 37 the factor was b less one standard error, which shrank too far: held-out
    calibration slopes at the recommended stage had medians of 1.07 to 1.39 on ten tables
    (``bench/interval_coverage.py slopes``, ``bench/README.md``). A stage without held-out
    spread takes the factor of the stage before it; stage 0 is 1.

    The recommended stage is the one whose held-out estimates scored best, so the rows that
    chose it also measure its slope, and a stage chosen for its luck on them shows a slope
    steeper than new patients see: on a table whose held-out score falls slowly over many
    stages (Benefits at 500 rows) the factor exceeded the slope the list showed on new
    patients by 0.15 on average, and their calibration slope at the recommended stage had a
    median of 0.82. Cross-fitted (:func:`selected_slope`: each fold's rows judged at the
    stage the other folds of its draw would recommend) the slope errs the other way, by as
    much on tables with a clear best length (HMDA -0.17): the other folds' choice, made on
    fewer rows, is on average a worse stage than the one recommended. The factor at the
    recommended stage is the mean of the two, as Efron's .632 estimator weighs an optimistic
    and a pessimistic estimate of a prediction error; measured by
    ``bench/interval_coverage.py slopes`` (``bench/README.md``, section 17). Corrections
    for one bias at a time (fold size; the length's choice, after Tibshirani and Tibshirani,
    Ann. Appl. Stat. 2009; nested folds, after Harrell's bootstrap optimism; the one-SE
    length) move the other table the wrong way (``bench/shrinkage_rules.py``, section 17).

    A factor of 0 (:func:`base_rate_stages`) is the estimate working as meant, not a fault:
    the fold lists' scores of that length did not rank held-out patients at all (b <= 0),
    so the stage promises nothing a new patient would see. Each stage is judged on its own,
    so a stage may be held at the base rate between stages that are not: the fold lists'
    k-th questions differ from fold to fold, and one that helps on the fold's training rows
    can point the wrong way on its held-out ones.

    Parameters
    ----------
    slope, scores : ndarrays
        From :func:`held_out_scores`.
    draws : int, default=1
        How many draws of the folds they hold.

    Returns
    -------
    ndarray of shape (n_stages,)
    """
    covariance, variance, rows = slope.sum(axis=0)
    factors = np.ones(len(variance))
    for k in range(1, len(variance)):
        if variance[k] > 0 and rows[k] > draws:
            factors[k] = np.clip(covariance[k] / variance[k], 0.0, 1.0)
        else:
            factors[k] = factors[k - 1]
    chosen = recommended_stage(scores, draws)[2]
    selected = selected_slope(slope, scores, draws)
    if chosen > 0 and selected is not None and variance[chosen] > 0:
        factors[chosen] = np.clip((covariance[chosen] / variance[chosen] + selected) / 2, 0.0, 1.0)
    return factors


def shrunk_probabilities(stage_probabilities, factors):
    """Each stage's probabilities pulled toward the base rate by its factor (``shrinkage``):
    q'(k, T) = q(0) + s_k (q(k, T) - q(0)), with q(0) the stage-0 probability (s_0 = 1)."""
    base = stage_probabilities[0][0]
    return [base + s * (q - base) for s, q in zip(factors, stage_probabilities)]


def selected_slope(slope, scores, draws=1):
    """The held-out calibration slope at the recommended stage, cross-fitted over the folds.

    Each fold's held-out rows give their covariance and variance at the stage with the
    lowest mean held-out score over the other folds of the same draw (rows disjoint from
    its own, so the choice of that stage owes nothing to its rows), among the stages
    every fold's list reached. None when those stages give no held-out spread (all at
    the base rate).
    """
    n_jobs, n_stages = scores.shape
    n_folds = n_jobs // draws
    every = np.sum(~np.isnan(scores), axis=0) == n_jobs
    covariance = variance = 0.0
    for fold in range(n_jobs):
        draw = fold // n_folds
        others = [j for j in range(draw * n_folds, (draw + 1) * n_folds) if j != fold]
        stage = first_minimum(np.where(every, np.nan_to_num(scores[others]).mean(axis=0), np.inf))
        covariance += slope[fold, 0, stage]
        variance += slope[fold, 1, stage]
    return covariance / variance if variance > 0 else None


def fold_spread(positives, negatives, index, y01, weight):
    """How far one fold list's training rates per total lie from its held-out rates.

    For each total with training and held-out rows: the training rate r (the rate the
    list's interval is counted from), the held-out rate o, and the binomial variances
    v_in and v_out of the two at their pooled rate. Without a search that chose the
    questions on the training rows, (r - o)^2 / (v_in + v_out) averages 1; the search's
    optimism (totals that look extreme on the rows that chose them) makes it larger.

    Parameters
    ----------
    positives, negatives : ndarray of shape (m,)
        The fold list's training counts per reachable total of one stage.
    index : ndarray of int, shape (n_held_out,)
        Each held-out row's total, as a position in the stage's reachable totals.
    y01, weight : ndarrays of shape (n_held_out,)

    Returns
    -------
    ndarray of shape (2,)
        Over the totals: the sum of ((r - o)^2 - v_out) / (v_in + v_out) and the sum of
        v_in / (v_in + v_out) (:func:`interval_inflation` divides them).
    """
    cells = len(positives)
    held_positives = np.bincount(index, weight * y01, minlength=cells)
    held = np.bincount(index, weight, minlength=cells)
    trained = positives + negatives
    both = (trained > 0) & (held > 0)
    pos, n, hpos, m = positives[both], trained[both], held_positives[both], held[both]
    pooled = (pos + hpos + 0.5) / (n + m + 1.0)
    v_in, v_out = pooled * (1 - pooled) / n, pooled * (1 - pooled) / m
    gap = pos / n - hpos / m
    return np.array([np.sum((gap**2 - v_out) / (v_in + v_out)), np.sum(v_in / (v_in + v_out))])


def interval_inflation(excess, share):
    """Each stage's variance inflation of its training counts (``interval_inflation_``).

    From the sums of :func:`fold_spread` over the folds: the squared distance between a fold
    list's training rate per total and the rate of its held-out rows with that total, less
    the held-out rows' own noise, in units of the binomial variance of the training rate
    (excess_k / share_k). It is 1 when the search's choice of questions left the training
    rates as honest as counts fixed in advance, and 2 when they stray from new patients'
    rates as far as counts from half as many rows. One stage's ratio rests on a few dozen
    totals and is noisy; the search's optimism only accumulates as questions are added, so
    phi_k is the non-decreasing fit of the ratios over stages 1..K (weighted by share_k,
    pool adjacent violators), at least 1; stage 0 (no question chosen) is 1.
    """
    phi = np.ones(len(share))
    observed = np.flatnonzero(share[1:] > 0) + 1
    if len(observed):
        fitted = isotonic_regression(excess[observed] / share[observed], sample_weight=share[observed])
        # A stage without cells (no fold list reached it) takes the value of the stage before it.
        phi[1:] = np.maximum(1.0, np.interp(np.arange(1, len(share)), observed, fitted, left=1.0))
    return phi


def base_rate_stages(factors):
    """The stages (1..K) whose probabilities :func:`shrinkage_factors` pulled all the way to
    the base rate (factor 0: whatever the answers, the risk there is the base rate); empty
    without shrinkage (``factors`` None)."""
    return [] if factors is None else [k for k in range(1, len(factors)) if factors[k] <= 0]


def stratified_folds(y01, n_folds, random_state, keys=None):
    """Fold number of each row, stratified by class; fewer folds if a class is rare.

    Parameters
    ----------
    y01 : ndarray of 0/1, shape (n,)
    n_folds : int >= 2
    random_state : int or None
    keys : list of ndarray of shape (n,), optional
        The rows' content (e.g. the input columns). The rows are then sorted by
        (keys, y) before the seeded split, so the folds follow the rows' content and
        not their order: a fit does not change when the rows are shuffled.

    Returns
    -------
    ndarray of int, shape (n,)
    """
    rarest = int(np.bincount(y01, minlength=2).min())
    if rarest < 2:
        raise DataError(
            f"cross-validation needs at least 2 rows of each class, but one class has {rarest}: "
            "learn from more rows, or without cross-validation (loss='entropy', recommend_folds=None)"
        )
    n_folds = max(2, min(n_folds, rarest))
    order = np.arange(len(y01))
    if keys is not None:
        # Numbers sort as they are (the order of their ranks, without a sort per column to
        # rank them); text is ranked first.
        codes = [values if values.dtype.kind in "biuf" else np.unique(values, return_inverse=True)[1]
                 for values in keys]
        order = np.lexsort([y01] + codes)
    folds = np.empty(len(y01), dtype=np.int64)
    splitter = StratifiedKFold(n_folds, shuffle=True, random_state=random_state)
    for fold, (_, held_out) in enumerate(splitter.split(np.zeros(len(y01)), y01[order])):
        folds[order[held_out]] = fold
    return folds


def folds_possible(keys, y01, needs, label):
    """Whether the internal cross-validations can hold out rows of each class; warns when not,
    or when they get fewer folds than asked.

    A class needs rows with two different contents (features and label) to have one in two
    folds: copies of one row are one patient's evidence (a weight of 3 is three copies,
    scikit-learn's convention), and a copy left in the training part makes the held-out one
    not held out. With fewer, a cross-validated search cannot judge a question and
    ``recommend_folds`` cannot judge a length: the list then asks no question (with a
    cross-validated ``loss``) and recommends none (a :class:`SmallDataWarning`), instead of
    refusing to fit. With fewer rows of a class than folds, :func:`stratified_folds` draws
    as many folds as there are rows of it (a warning says so).

    Parameters
    ----------
    keys : list of ndarray of shape (n,)
        The rows' content (the input columns).
    y01 : ndarray of 0/1, shape (n,)
    needs : list of (str, int)
        The internal cross-validations asked for: (setting, folds).
    label : callable
        ``label(c)``: class c (0 or 1) as the user gave it.

    Returns
    -------
    bool
    """
    if not needs:
        return True
    counts = np.bincount(y01, minlength=2)
    rarer = int(np.argmin(counts))
    rows = y01 == rarer
    distinct = len(pd.DataFrame({i: values[rows] for i, values in enumerate(keys)}).drop_duplicates())
    settings = " and ".join(f"{name}={value}" for name, value in needs)
    if distinct < 2:
        warnings.warn(SmallDataWarning(
            f"y has {int(counts[rarer])} row(s) of class {label(rarer)!r} and {distinct} distinct one(s): too few "
            f"to hold any out, so the internal cross-validation ({settings}) cannot run; the list asks no "
            "question if its loss is cross-validated and recommends no length. Add rows of that class, or use "
            "a loss without internal folds (e.g. loss='entropy')"
        ), stacklevel=3)
        return False
    asked = max(value for _, value in needs)
    if counts[rarer] < asked:
        warnings.warn(SmallDataWarning(
            f"y has {int(counts[rarer])} rows of class {label(rarer)!r}: the internal cross-validation "
            f"({settings}) uses {max(2, int(counts[rarer]))} folds, one per row of that class at most"
        ), stacklevel=3)
    return True
