"""A list in service: sequential charts of its calibration and its answers, numbers only.

Their tables for the researcher are :mod:`psl_triage.judging.monitoring`'s; the smallest update
the data support is :mod:`psl_core.closed_test`'s.

- :func:`risk_adjusted_cusum`: the risk-adjusted CUSUM of Steiner, Cook, Farewell & Treasure
  (2000), "Monitoring surgical performance using risk-adjusted cumulative sum charts",
  *Biostatistics* 1(4):441-452. Patient t, with predicted risk p_t and outcome y_t, adds the
  log-likelihood ratio of an odds-ratio shift R against none (their eq. 2.2 with R_0 = 1):

      W_t = y_t log R - log(1 - p_t + R p_t),

  and the chart S_t = max(0, S_{t-1} + W_t) signals when it exceeds a limit h. Two charts
  watch both directions: R = 2 (the odds of the outcome doubled: the list under-estimates)
  and R = 1/2 (halved: it over-estimates). :func:`cusum_limit` chooses h by simulation
  (Steiner et al., Sec. 3, choose h for a run length; here for a false-alarm probability over
  the patients at hand): outcomes drawn from the list's own risks, as if it were calibrated
  (or, with a :class:`Baseline`, from risks its training could as well have given: below), and
  h a high quantile of the charts' maximum, so that such a list signals anywhere in these
  patients with probability alpha.

  An odds-ratio chart watches the mean odds only: a predictor whose effect changed moves risks
  both ways and leaves them where they were on average, and so can a change of case mix within
  the list's totals. Two more charts watch the calibration slope, the same likelihood-ratio
  CUSUM with the alternative a change of slope on the log-odds (Steiner et al.'s weight is the
  log-likelihood ratio of any alternative risk q_t against p_t; Cox 1958's recalibration model
  logit q = c + b (logit p - c), here b = 1/2, the list's risks too extreme, and b = 2, too
  timid, about the patients' mean log-odds c, so that a slope change alone barely moves the
  mean risk):

      W_t = y_t (logit q_t - logit p_t) - log(1 + e^{logit q_t}) + log(1 + e^{logit p_t}).

  A list's risk is per total, so a change in one question's effect shows first among the
  patients that question separates: with a :class:`Baseline` (the answers and what the list
  learned) the same slope chart watches the list's risks at each earlier stage k (the list
  stopped after question k; at stage 1 the first question's effect itself), slopes 0.85 and 1/0.85
  (:data:`QUESTION_SLOPES`): charts of claims the list makes (a risk per total at every stage), so a
  list as good as its training does not drift on them. The slopes are a small change on purpose: a
  CUSUM is most sensitive to the change it is tuned for (Moustakides 1986), and one predictor's
  effect halved narrows the gap between the first question's answers by about 15 % (the project's
  benchmark, section 16). (A chart of one answer's effect within a
  total would signal the list's integer points themselves, stable since training.)

  A case mix that moves within the list's totals leaves every risk calibrated; its charts watch
  the answers instead: per question k, the Bernoulli CUSUM of its condition being met
  (Reynolds & Stoumbos 1999, "A CUSUM chart for monitoring a proportion when inspecting
  continuously", *J. Quality Technology* 31(1):87-108; Steiner's weight with the training share
  s_k as the "risk") against odds multiplied by 3/2 or 2/3 (:data:`CASE_MIX_RATIOS`).

  One joint limit: the charts are simulated together and each run's largest value of each chart
  kept; each chart's maxima are standardized by their own median and spread (90 % quantile less
  median: the location and scale of the Gumbel law a CUSUM's maximum over a long run roughly
  follows), and one limit H is the (1 - alpha) quantile of the largest standardized value of each
  run (:func:`joint_limits`; a multiplicity adjustment by the joint null distribution, Westfall &
  Young's max-T, 1993). Chart c signals above median_c + H spread_c: a list as good as its training
  signals on any chart with probability alpha, and no chart pays for another's larger steps (one
  limit per kind of chart, tried before, let the chart of the largest steps set the limit of
  all: the first question's slope charts were held to about 15 where alone they need about 6). An
  earlier stage's risks are estimates of their own: run r's truth is its draw of the final risks,
  the earlier stage's risk for a total the mean truth of its patients moved on the log-odds by that
  stage's own bootstrap error (``Baseline.stage_draws``), and the stage's charts are weighed per run
  (charting the list's own earlier-stage risks against outcomes drawn from its final ones carried the
  gap between its two estimates instead, and unchanged lists signalled in 6 % of runs at a stated
  1 %: the project's benchmark, section 16). The answers are drawn question by question,
  independently (the joint answer patterns are not in a model file): the case-mix charts' joint
  false-alarm probability can differ from the simulated one by their dependence, the outcome
  charts' not. A list's risks and shares are estimates: a list from few patients is "miscalibrated" on new patients by
  its own estimation error, and a limit that takes its risks as exact signals on it (Jones, Champ & Rigdon 2004, "The run length distribution of the CUSUM
  with estimated parameters", *J. Quality Technology* 36(1):95-108). With a baseline each run
  first takes one draw of the risk per total that the list's training could as well have given
  (``Baseline.risk_draws``: a parametric bootstrap of its calibration, which pools the totals, so
  that each risk varies as much as the list's estimate does) and each question's share from
  Beta(N s, N (1 - s)), N the training patients, then draws the outcomes and answers from those:
  alpha is the false-alarm probability averaged over the list's estimation error (Gandy &
  Kvaløy 2013, "Guaranteed conditional performance of control charts via bootstrap methods",
  *Scand. J. Statist.* 40(4):647-668, bootstrap the same error to guarantee it conditionally
  instead).

  An outcome by a horizon, censored, is charted on the patients whose outcome by then is known,
  each patient's step on every chart times its inverse-probability-of-censoring weight (``weight``;
  :func:`psl_core.survival.ipcw_targets`): the known patients over-represent the events, and the
  weights give each step the expectation it would have had every patient been followed (Robins &
  Rotnitzky 1992). The limit's simulation keeps each patient's weight as observed and draws its
  outcome.
"""

import threading
from dataclasses import dataclass

import numpy as np
from numba import njit, prange

from .errors import PSLError
from .metrics import checked_probabilities, labels01
from .validation import log_odds

__all__ = [
    "ODDS_RATIOS", "SLOPES", "CHARTS", "QUESTION_SLOPES", "CASE_MIX_RATIOS", "cusum_weights", "slope_weights",
    "chart_names", "chart_weights", "case_mix_weights", "cusum_path", "cusum_limit",
    "joint_limits", "Baseline", "Cusum",
    "risk_adjusted_cusum",
]

ODDS_RATIOS = (2.0, 0.5)
"""The odds-ratio shifts the two charts watch for (Steiner et al.'s example uses 2)."""
SLOPES = (0.5, 2.0)
"""The calibration slopes the two slope charts watch for: risks too extreme, too timid."""
CHARTS = ("up", "down", "flatter", "steeper")
"""The charts, in the order of :data:`ODDS_RATIOS` then :data:`SLOPES`."""
QUESTION_SLOPES = (0.85, 1 / 0.85)
"""The calibration slopes the charts of each earlier stage watch for: a small change (module docstring)."""
CASE_MIX_RATIOS = (2 / 3, 1.5)
"""The odds of meeting a question's condition multiplied by these: the case-mix charts' alternatives."""
SPREAD_FLOOR = 0.01
"""The least spread of a chart's simulated maxima, as a share of its 90 % quantile (at least 1): a
chart that barely moves (a question every patient answers alike) is not stretched into the joint
limit's largest standardized value."""
DEFAULT_FALSE_ALARM = 0.01
DEFAULT_SIMULATIONS = 1000


# ---------------------------------------------------------------------------- CUSUM
def cusum_weights(y, p, odds_ratio):
    """Steiner et al.'s log-likelihood-ratio weight of each patient for a shift of the odds by
    ``odds_ratio``: y log R - log(1 - p + R p)."""
    p = np.asarray(p, dtype=float)
    return np.asarray(y, dtype=float) * np.log(odds_ratio) - np.log1p((odds_ratio - 1) * p)


def _ratio_weights(y, lp, shifted):
    """The log-likelihood ratio of outcomes y at log-odds ``shifted`` against ``lp``."""
    return y * (shifted - lp) - (np.logaddexp(0.0, shifted) - np.logaddexp(0.0, lp))


def slope_weights(y, p, slope, centre):
    """The log-likelihood-ratio weight of each patient for a calibration slope ``slope`` about
    the log-odds ``centre``: logit q = centre + slope (logit p - centre) (module docstring)."""
    lp = log_odds(np.asarray(p, dtype=float))
    return _ratio_weights(np.asarray(y, dtype=float), lp, centre + slope * (lp - centre))


def slope_centre(p):
    """The log-odds about which the slope charts turn: the patients' mean log-odds."""
    return float(np.mean(log_odds(np.asarray(p, dtype=float)))) if len(p) else 0.0


@dataclass(frozen=True)
class Baseline:
    """What the list learned, for the question and case-mix charts and the limit's simulation.

    Attributes
    ----------
    answers : ndarray of shape (n, K)
        1 where a monitored patient met question k's condition (as the list scores the answer),
        K the stage judged.
    shares : ndarray of shape (K,)
        The share of training patients meeting each question's condition.
    n_training : float
        The training patients behind ``shares``.
    groups : ndarray of int, shape (n,)
        Each monitored patient's total at the stage judged, as a column of ``risk_draws``.
    risk_draws : ndarray of shape (B, J)
        Draws of the risk per total that the list's training could as well have given it (a
        bootstrap of its estimate, :func:`psl_triage.judging.monitoring.risk_draws`); the
        limit's simulation draws run r's outcomes from row r mod B. One row of the list's own
        risks takes them as exact.
    stage_risks : ndarray of shape (n, K - 1)
        Each monitored patient's risk by the list stopped after question 1, ..., K - 1.
    stage_groups : ndarray of int, shape (n, K - 1), or None
        Each monitored patient's total at each earlier stage, as a column of ``stage_draws[k]``;
        None: the patients of one earlier-stage risk taken as one total.
    stage_draws : tuple of K - 1 ndarrays of shape (B_k, J_k), or None
        Per earlier stage, the bootstrap of its risk per total (as ``risk_draws``, from that stage's
        own training counts): the limit's simulation gives run r that stage's error of row r mod
        B_k about the run's truth. None: the earlier stages' risks taken as exact.
    """

    answers: np.ndarray
    shares: np.ndarray
    n_training: float
    groups: np.ndarray
    risk_draws: np.ndarray
    stage_risks: np.ndarray
    stage_groups: np.ndarray = None
    stage_draws: tuple = None


def chart_names(baseline=None):
    """The charts, in the order of :func:`chart_weights` then :func:`case_mix_weights`:
    :data:`CHARTS`; with a ``baseline``, per earlier stage k its slope charts ("weaker k",
    "stronger k") and per question k its case-mix charts ("fewer k", "more k")."""
    if baseline is None:
        return list(CHARTS)
    stages, questions = baseline.stage_risks.shape[1], baseline.answers.shape[1]
    return (list(CHARTS) + [f"{kind} {k}" for k in range(1, stages + 1) for kind in ("weaker", "stronger")]
            + [f"{kind} {k}" for k in range(1, questions + 1) for kind in ("fewer", "more")])


def chart_weights(y, p, odds_ratios=ODDS_RATIOS, slopes=SLOPES, centres=None, baseline=None,
                  question_slopes=QUESTION_SLOPES):
    """The outcome charts' weights, shape (4 + 2(K - 1), n): :data:`CHARTS`, then per stage k < K
    the slope charts of its risks for the slopes ``question_slopes`` about their mean log-odds
    (none without a ``baseline``); ``centres``: the slope charts' centres, the stage judged's and
    then each earlier stage's (default: these patients' mean log-odds)."""
    stage_risks = np.zeros((len(p), 0)) if baseline is None else baseline.stage_risks
    if centres is None:
        centres = [slope_centre(p)] + [slope_centre(risks) for risks in stage_risks.T]
    rows = [cusum_weights(y, p, r) for r in odds_ratios] + [slope_weights(y, p, b, centres[0]) for b in slopes]
    for risks, centre in zip(stage_risks.T, centres[1:]):
        rows += [slope_weights(y, risks, b, centre) for b in question_slopes]
    return np.array(rows)


def case_mix_weights(answers, shares, case_mix_ratios=CASE_MIX_RATIOS):
    """The case-mix charts' weights, shape (2K, n): per question k, the Bernoulli CUSUM of its
    condition being met at odds multiplied by each of ``case_mix_ratios`` against its training
    share (Steiner et al.'s weight with the share as the predicted risk)."""
    answers = np.asarray(answers, dtype=float)
    return np.array([cusum_weights(answers[:, k], shares[k], r) for k in range(answers.shape[1])
                     for r in case_mix_ratios]).reshape(-1, len(answers))


def cusum_path(weights):
    """S_t = max(0, S_{t-1} + W_t), S_0 = 0, along the last axis: the cumulative sum less its
    running minimum (at most 0), which equals the recursion and vectorizes."""
    total = np.cumsum(weights, axis=-1)
    return total - np.minimum(np.minimum.accumulate(total, axis=-1), 0.0)


_KERNEL_LOCK = threading.Lock()
"""One simulation at a time per process: it already runs on every core, and numba's fallback
threading layer (workqueue, where neither OpenMP nor TBB is installed) aborts the process when
two threads (two users of one server) launch a parallel kernel at once."""
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_UNIT = 1.0 / 9007199254740992.0  # 2**-53


@njit(inline="always")
def _mixed(z):
    """SplitMix64's output function (Steele, Lea & Flood 2014): 64 well-mixed bits of z."""
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@njit(inline="always")
def _uniform(state):
    """The next state of a SplitMix64 stream and a uniform number in [0, 1) from it."""
    state = state + _GOLDEN
    return state, float(_mixed(state) >> np.uint64(11)) * _UNIT


@njit(cache=True, nogil=True, parallel=True, fastmath=True)
def _simulated_maxima(pattern, group, risks, met, unmet, stage_index, stage_met, stage_unmet, shares, mix_met,
                      mix_unmet, scale, seed):
    """The largest value each chart reaches in each simulated run (one run per row of ``risks``),
    shape (runs, charts): the outcome charts, then per question its case-mix charts.

    Patient t has the weights of row ``pattern[t]``: ``met[u, c]`` and ``unmet[u, c]`` are the
    stage judged's chart c's weights of the patients of row u with and without the outcome (the
    patients share a few rows, which stay in the processor's cache), drawn at ``risks[r, group[u]]``
    in run r; each earlier stage's charts take run r's own weights, ``stage_met[r, i, j]`` and
    ``stage_unmet[r, i, j]`` for chart j of the stage total ``i = stage_index[u, k]`` (its risks
    drawn per run), copied into the run's table of weights per row first; per question k, an answer meeting its condition at ``shares[r, k]``
    (``mix_met[k, j]`` and ``mix_unmet[k, j]``: case-mix chart j of question k's weights), every
    weight of patient t times ``scale[t]`` (its censoring weight; 1 without censoring). Each run has
    its own SplitMix64 stream, started from a hash of (seed, run): the result does not depend on the
    threads.
    """
    n_runs, n, n_fixed, n_questions = risks.shape[0], len(pattern), met.shape[1], shares.shape[1]
    n_stages, n_slopes, n_mix = stage_index.shape[1], stage_met.shape[2], mix_met.shape[1]
    n_out = n_fixed + n_stages * n_slopes
    maxima = np.zeros((n_runs, n_out + n_questions * n_mix))
    for run in prange(n_runs):
        state = _mixed(np.uint64(seed) * _MIX2 + np.uint64(run) * _GOLDEN + _MIX1)
        charts, highest = np.zeros(n_out), np.zeros(n_out)
        mix, mix_highest = np.zeros(n_questions * n_mix), np.zeros(n_questions * n_mix)
        risk, share = risks[run], shares[run]
        row_met, row_unmet = np.empty((len(group), n_out)), np.empty((len(group), n_out))
        for u in range(len(group)):  # this run's weights per row, read from the cache below
            row_met[u, :n_fixed] = met[u]
            row_unmet[u, :n_fixed] = unmet[u]
            for k in range(n_stages):
                c = n_fixed + k * n_slopes
                row_met[u, c:c + n_slopes] = stage_met[run, stage_index[u, k]]
                row_unmet[u, c:c + n_slopes] = stage_unmet[run, stage_index[u, k]]
        for t in range(n):
            state, u = _uniform(state)
            row, s = pattern[t], scale[t]
            weights = row_met[row] if u < risk[group[row]] else row_unmet[row]
            for c in range(n_out):
                value = max(0.0, charts[c] + s * weights[c])
                charts[c] = value
                highest[c] = max(highest[c], value)
            for k in range(n_questions):
                state, u = _uniform(state)
                answer = mix_met[k] if u < share[k] else mix_unmet[k]
                for j in range(n_mix):
                    i = k * n_mix + j
                    value = max(0.0, mix[i] + s * answer[j])
                    mix[i] = value
                    mix_highest[i] = max(mix_highest[i], value)
        maxima[run, :n_out] = highest
        maxima[run, n_out:] = mix_highest
    return maxima


def _posterior_draws(estimates, counts, n_simulations, rng):
    """Per run, each estimate drawn from Beta(n q, n (1 - q)): a rate q estimated from n patients
    (a posterior centred on the estimate; at least one patient behind each)."""
    q = np.clip(np.asarray(estimates, dtype=float), 1e-6, 1 - 1e-6)
    n = np.maximum(np.asarray(counts, dtype=float), 1.0)
    return rng.beta(n * q, n * (1 - q), size=(n_simulations, len(q)))


def _simulation_inputs(p, baseline, n_simulations, seed, odds_ratios, slopes, question_slopes, case_mix_ratios):
    """The outcome groups and their risks per run, the stage judged's and each earlier stage's
    weights, the answer shares per run and the case-mix weights (see :func:`cusum_limit`)."""
    rng = np.random.default_rng(seed)
    groups = np.unique(p, return_inverse=True)[1] if baseline is None else np.asarray(baseline.groups)
    stage_groups = _stage_groups(baseline, len(p))
    rows, first, pattern = np.unique(np.column_stack([groups, p, stage_groups]), axis=0, return_index=True,
                                     return_inverse=True)
    met, unmet = (np.ascontiguousarray(chart_weights(np.full(len(rows), y), rows[:, 1], odds_ratios, slopes,
                                                     [slope_centre(p)]).T) for y in (1.0, 0.0))
    group = rows[:, 0].astype(np.int64)
    pattern = pattern.reshape(-1).astype(np.int64)
    if baseline is None:
        levels = np.unique(p)
        risks = np.ascontiguousarray(np.broadcast_to(levels, (n_simulations, len(levels))))
        none = np.zeros((len(rows), 0), dtype=np.int64), np.zeros((n_simulations, 0, len(question_slopes)))
        mix = np.zeros((0, len(case_mix_ratios)))
        return pattern, group, risks, met, unmet, none[0], none[1], none[1], np.zeros((n_simulations, 0)), mix, mix
    draws = np.asarray(baseline.risk_draws, dtype=float)
    risks = draws[np.arange(n_simulations) % len(draws)]
    stage_index, stage_met, stage_unmet = _stage_weights(baseline, groups, stage_groups, risks, first, question_slopes)
    k = baseline.answers.shape[1]
    shares = _posterior_draws(baseline.shares, np.full(k, baseline.n_training), n_simulations, rng)
    mix_met, mix_unmet = (case_mix_weights(np.full((1, k), a), baseline.shares, case_mix_ratios)
                          .reshape(k, len(case_mix_ratios)) for a in (1.0, 0.0))
    return (pattern, group, risks, met, unmet, stage_index, stage_met, stage_unmet, shares, mix_met, mix_unmet)


def _stage_groups(baseline, n):
    """Each patient's total at each earlier stage, numbered from 0 (shape (n, K - 1))."""
    if baseline is None:
        return np.zeros((n, 0), dtype=np.int64)
    if baseline.stage_groups is not None:
        return np.asarray(baseline.stage_groups, dtype=np.int64).reshape(n, -1)
    return np.column_stack([np.unique(risks, return_inverse=True)[1].reshape(-1) for risks in baseline.stage_risks.T]
                           or [np.zeros((n, 0), dtype=np.int64)])


def _stage_weights(baseline, groups, stage_groups, risks, first, question_slopes):
    """Each earlier stage's charts' weights per run, with and without the outcome, shape
    (runs, its totals over all stages, slopes), and each row's index into them (rows ``first``).

    Run r's truth is its final risks ``risks[r]``; an earlier stage's risk for a total is the mean
    truth of its patients here, moved on the log-odds by that stage's own estimation error (its
    bootstrap draw of row r mod B less the list's risk; none without ``stage_draws``): the chart
    weighs outcomes from the truth against an estimate of it as wrong as the list's is."""
    n_runs, columns, index, met, unmet, offset = len(risks), [], [], [], [], 0
    for k in range(stage_groups.shape[1]):
        present, inverse = np.unique(stage_groups[:, k], return_inverse=True)
        inverse = inverse.reshape(-1)
        counts = np.zeros((len(present), risks.shape[1]))
        np.add.at(counts, (inverse, groups), 1.0)
        truth = risks @ (counts / counts.sum(axis=1, keepdims=True)).T
        level = np.zeros(len(present))
        level[inverse] = baseline.stage_risks[:, k]
        error = 0.0
        if baseline.stage_draws is not None:
            draws = np.asarray(baseline.stage_draws[k], dtype=float)[:, present]
            error = log_odds(draws[np.arange(n_runs) % len(draws)]) - log_odds(level)
        estimate = log_odds(truth) + error
        centre = estimate @ counts.sum(axis=1) / len(groups)
        for y, into in ((1.0, met), (0.0, unmet)):
            into.append(np.stack([_ratio_weights(y, estimate, centre[:, None] + b * (estimate - centre[:, None]))
                                  for b in question_slopes], axis=-1))
        columns.append(offset + inverse[first])
        offset += len(present)
    index = np.column_stack(columns) if columns else np.zeros((len(first), 0), dtype=np.int64)
    shape = (n_runs, 0, len(question_slopes))
    met, unmet = ((np.concatenate(parts, axis=1) if parts else np.zeros(shape)) for parts in (met, unmet))
    return index.astype(np.int64), met, unmet


def cusum_limit(p, false_alarm=DEFAULT_FALSE_ALARM, n_simulations=DEFAULT_SIMULATIONS, odds_ratios=ODDS_RATIOS,
                seed=0, slopes=SLOPES, baseline=None, question_slopes=QUESTION_SLOPES, case_mix_ratios=CASE_MIX_RATIOS,
                weight=None):
    """The alarm limits at which a list as good as its training says, on patients like its
    training ones, signals with probability ``false_alarm`` on any chart, by simulation (module
    docstring): without a ``baseline`` the four charts of :data:`CHARTS` and the risks ``p``
    (patients in their order) taken as exact; ``weight``: each patient's censoring weight
    (:func:`risk_adjusted_cusum`), kept as observed in every simulated run.

    Returns
    -------
    dict
        Chart (:func:`chart_names`) -> its limit: each chart's simulated maximum standardized by its
        own location and scale, one joint limit on the largest of them (:func:`joint_limits`).
    """
    p = np.ascontiguousarray(p, dtype=float)
    if not 0 < false_alarm < 1:
        raise PSLError(f"false_alarm must lie strictly between 0 and 1, got {false_alarm!r}")
    if n_simulations < 20:
        raise PSLError(f"n_simulations must be at least 20, got {n_simulations!r}")
    inputs = _simulation_inputs(p, baseline, int(n_simulations), seed, odds_ratios, slopes, question_slopes,
                                case_mix_ratios) + (_checked_weight(weight, len(p)),)
    with _KERNEL_LOCK:
        maxima = _simulated_maxima(*(np.ascontiguousarray(a) for a in inputs), int(seed))
    return dict(zip(chart_names(baseline), joint_limits(maxima, false_alarm)))


def joint_limits(maxima, false_alarm):
    """Per chart the limit at which, in these simulated runs, any chart crosses its own with
    probability ``false_alarm`` (module docstring, "one joint limit").

    Each chart's maxima are standardized by their median m and the spread s between their 90 %
    quantile and median, z = (max - m) / s: the location and scale of the Gumbel law that a
    CUSUM's maximum over a long run follows approximately, so that a chart of large steps and one of
    small ones cross z = H about equally often. H is the (1 - false_alarm) quantile of the largest
    z of each run (Westfall & Young's max-T), and chart c's limit m_c + H s_c.

    Parameters
    ----------
    maxima : ndarray of shape (runs, charts)
    false_alarm : float in (0, 1)

    Returns
    -------
    ndarray of shape (charts,)
    """
    median, upper = np.quantile(maxima, [0.5, 0.9], axis=0)
    spread = np.maximum(upper - median, SPREAD_FLOOR * np.maximum(upper, 1.0))
    highest = ((maxima - median) / spread).max(axis=1)
    return median + float(np.quantile(highest, 1 - false_alarm)) * spread


@dataclass(frozen=True)
class Cusum:
    """The charts over patients in their order (:func:`risk_adjusted_cusum`).

    Attributes
    ----------
    paths : dict
        Chart (:func:`chart_names`) -> ndarray of shape (n,): "up" and "down" for the odds
        multiplied by ``odds_ratios[0]`` and ``[1]``; "flatter" and "steeper" for a calibration
        slope ``slopes[0]`` (below 1) and ``[1]`` (above 1); with a baseline, per stage k before
        the one judged "weaker k" / "stronger k" (its risks' calibration slope ``question_slopes``)
        and per question "fewer k" / "more k" (the odds of meeting its condition times
        ``case_mix_ratios``).
    limits : dict
        Chart -> its limit (:func:`cusum_limit`).
    first_signal : dict
        Chart -> the index of the first patient at which it exceeds its limit, or None.
    false_alarm : float
    odds_ratios, slopes, question_slopes, case_mix_ratios : tuple of float
    n_simulations : int
    """

    paths: dict
    limits: dict
    first_signal: dict
    false_alarm: float
    odds_ratios: tuple
    slopes: tuple
    question_slopes: tuple
    case_mix_ratios: tuple
    n_simulations: int


def _checked_weight(weight, n):
    """Each patient's weight as n finite floats >= 0 (ones for None)."""
    if weight is None:
        return np.ones(n)
    weight = np.asarray(weight, dtype=float).reshape(-1)
    if len(weight) != n or not np.all(np.isfinite(weight) & (weight >= 0)):
        raise PSLError(f"weight must hold one finite number >= 0 per patient ({n}), got {len(weight)} values")
    return weight


def _checked_pair(values, name):
    """``values`` as two floats, the first in (0, 1) and the second above 1."""
    first, second = (float(v) for v in values)
    if not (0 < first < 1 < second):
        raise PSLError(f"{name} must be one value in (0, 1) and one above 1 (odds_ratios: above 1 first), "
                       f"got {tuple(values)!r}")
    return first, second


def risk_adjusted_cusum(y, p, false_alarm=DEFAULT_FALSE_ALARM, n_simulations=DEFAULT_SIMULATIONS,
                        odds_ratios=ODDS_RATIOS, seed=0, limit=None, slopes=SLOPES, baseline=None,
                        question_slopes=QUESTION_SLOPES, case_mix_ratios=CASE_MIX_RATIOS, weight=None):
    """Steiner et al.'s risk-adjusted CUSUM charts, with a simulated limit per kind of chart
    (module docstring).

    Parameters
    ----------
    y : array-like of 0/1, shape (n,)
        Outcomes in the patients' order (date).
    p : array-like of float in [0, 1], shape (n,)
        The list's risks of the same patients.
    false_alarm : float in (0, 1)
        The probability that a list as good as its training signals anywhere in these patients.
    n_simulations : int >= 20
    odds_ratios : (float, float)
        The shifts the odds charts watch for: one above 1, one below.
    seed : int
    limit : dict or None
        The alarm limits when already simulated for these patients and settings (:func:`cusum_limit`);
        None simulates them.
    slopes : (float, float)
        The calibration slopes the slope charts watch for: one in (0, 1), one above 1.
    baseline : Baseline or None
        The answers and what the list learned: adds the question and case-mix charts, and the
        limit's simulation draws the list's risks and answer shares from their training counts.
    question_slopes, case_mix_ratios : (float, float)
        One in (0, 1) and one above 1: the calibration slopes of each earlier stage's charts, and
        the odds of meeting a question's condition multiplied by them.
    weight : array-like of float >= 0, shape (n,), or None
        Each patient's step on every chart multiplied by it: the inverse-probability-of-censoring
        weight of an outcome by a horizon (:func:`psl_core.survival.ipcw_targets`), so that the
        charts' expected steps are those of patients all followed to it; the limit's simulation
        keeps each patient's weight and draws its outcome. None: every patient counts once.

    Returns
    -------
    Cusum
    """
    y = labels01(y)
    p = checked_probabilities(p, len(y))
    down, up = _checked_pair(odds_ratios[::-1], "odds_ratios")
    odds_ratios, slopes = (up, down), _checked_pair(slopes, "slopes")
    question_slopes = _checked_pair(question_slopes, "question_slopes")
    case_mix_ratios = _checked_pair(case_mix_ratios, "case_mix_ratios")
    limits = limit
    if limits is None:
        limits = cusum_limit(p, false_alarm, n_simulations, odds_ratios, seed, slopes, baseline, question_slopes,
                             case_mix_ratios, weight)
    weights = chart_weights(y, p, odds_ratios, slopes, None, baseline, question_slopes)
    if baseline is not None:
        weights = np.vstack([weights, case_mix_weights(baseline.answers, baseline.shares, case_mix_ratios)])
    paths = dict(zip(chart_names(baseline), cusum_path(weights * _checked_weight(weight, len(y)))))
    limits = {kind: float(value) for kind, value in limits.items()}
    over = {name: path > limits[name] for name, path in paths.items()}
    first = {name: (int(np.argmax(above)) if above.any() else None) for name, above in over.items()}
    return Cusum(paths, limits, first, float(false_alarm), odds_ratios, slopes, question_slopes, case_mix_ratios,
                 int(n_simulations))
