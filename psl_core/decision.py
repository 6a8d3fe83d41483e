"""The bedside decision and when to stop asking, stated once (paper, Sec. 5.4; Ciucci).

A missed case (false negative) costs M, a false alarm (false positive) costs 1; for a
probability p deciding costs ``min(1 - p, M p)`` in expectation, so positive is the cheaper
action exactly when p > t = 1 / (1 + M) (:mod:`psl_core.cost_ratio`).

**Outcome.** With the list's interval [l, u] for the patient (the widest over the totals
unknown answers leave open), the list

- *rules in* when l > t: even the lowest plausible risk is above the threshold;
- *rules out* when u < t: even the highest plausible risk is below it;
- is otherwise *uncertain*: the interval contains the threshold.

**Action.** Ruled in means positive, ruled out negative. An uncertain patient is, on the
risk-averse basis (the paper's rule: decide on u), treated as positive until ruled out;
on the point basis the action follows the estimate p (positive when p > t).

**Stopping.** :func:`triage_step` says after each answer whether to stop, and why
(:data:`STOP_REASONS`):

- ``"settled"``: no answers to the remaining stages can change the three-way outcome at
  any later stage (checked over every total they can reach), so the outcome is final;
- ``"unlikely to change"``: the patient is ruled in or out and, of the training patients
  with these answers, fewer than ``tolerance`` (default 5 %) end at another outcome at the
  list's reference length (its recommended length, else its end): see
  :mod:`psl_core.stopping`;
- ``"ruled in or out"``: the rule of lists saved without those statistics: stop as soon as
  the patient is ruled in or out;
- ``"end of list"``: every stage is answered;
- ``"not worth its cost"``: only for a list with question costs and a value V of a changed
  outcome (``change_value``, in the costs' unit): the next question costs more than V times
  the share of the training patients with these answers whose outcome still changes
  (:func:`psl_core.costs.not_worth_asking`), whatever the outcome, uncertain included.

An unknown answer is never guessed: the stage then covers both possible answers, its
interval runs from the lowest lower bound to the highest upper bound over them, and the
list goes on.
"""

from dataclasses import asdict, dataclass

import numpy as np

from .cost_ratio import DEFAULT_COST_RATIO, check_cost_ratio, decision_threshold, expected_loss
from .costs import check_change_value, not_worth_asking
from .errors import PSLError
from .intervals import check_confidence
from .stopping import DEFAULT_TOLERANCE, ChangeTable, check_tolerance

__all__ = [
    "POSITIVE", "NEGATIVE", "RULE_IN", "RULE_OUT", "UNCERTAIN", "OUTCOMES", "BASES", "SETTLED",
    "UNLIKELY_TO_CHANGE", "RULED", "END_OF_LIST", "NOT_WORTH_COST", "STOP_REASONS", "decide", "outcome_codes",
    "action", "possible_totals", "StepResult", "StageBands", "triage_step", "stop_stages", "NOT_MEASURED",
    "answer_for", "DecisionRange", "decision_range"
]

POSITIVE = "positive"
NEGATIVE = "negative"
RULE_IN = "rule in"
RULE_OUT = "rule out"
UNCERTAIN = "uncertain"
OUTCOMES = (RULE_OUT, UNCERTAIN, RULE_IN)
"""The three-way outcomes, indexed by their code + 1 (codes -1, 0, 1)."""
BASES = ("upper", "point")
SETTLED = "settled"
UNLIKELY_TO_CHANGE = "unlikely to change"
RULED = "ruled in or out"
END_OF_LIST = "end of list"
NOT_WORTH_COST = "not worth its cost"
STOP_REASONS = (SETTLED, UNLIKELY_TO_CHANGE, RULED, END_OF_LIST, NOT_WORTH_COST)


def decide(p, cost_ratio):
    """"positive" where p > 1 / (1 + M), else "negative" (elementwise for arrays)."""
    positive = np.asarray(p, dtype=float) > decision_threshold(cost_ratio)
    if positive.ndim == 0:
        return POSITIVE if positive else NEGATIVE
    return np.where(positive, POSITIVE, NEGATIVE)


def outcome_codes(lower, upper, threshold):
    """The three-way outcome as codes: 1 rule in (l > t), -1 rule out (u < t), 0 uncertain.

    Elementwise for arrays of equal shape; ``OUTCOMES[code + 1]`` is its name.
    """
    lower, upper = np.asarray(lower, dtype=float), np.asarray(upper, dtype=float)
    return np.where(lower > threshold, 1, np.where(upper < threshold, -1, 0)).astype(np.int8)


def action(outcome, basis_value, threshold, basis="upper"):
    """The action taken for a three-way outcome: "positive" or "negative".

    Ruled in is positive, ruled out negative; an uncertain patient is positive on the
    risk-averse basis (u >= t there) and follows the estimate (p > t) on the point basis.
    """
    if outcome == RULE_IN:
        return POSITIVE
    if outcome == RULE_OUT:
        return NEGATIVE
    if basis == "upper":
        return POSITIVE
    return POSITIVE if basis_value > threshold else NEGATIVE


def possible_totals(scores, answers):
    """Totals consistent with the answers so far.

    Parameters
    ----------
    scores : sequence of int
        Points of stages 1..K.
    answers : sequence of {True, False, None}
        Whether each of the first k literals holds; None = unknown / not measured.

    Returns
    -------
    ndarray of int, sorted: one total, or several when some answers are unknown.
    """
    totals = {0}
    for score, answer in zip(scores, answers):
        if answer is None:
            totals |= {t + score for t in totals}
        elif answer:
            totals = {t + score for t in totals}
    return np.array(sorted(totals), dtype=np.int64)


@dataclass
class StepResult:
    """What the list says after the answers to stages 1..stage.

    ``probability_low``/``probability_high`` are equal unless an answer is unknown.
    ``outcome`` is "rule in", "rule out" or "uncertain"; ``action`` the action taken on
    the chosen basis, "positive" or "negative". ``stop_reason`` is None or one of
    :data:`STOP_REASONS`. ``change_share`` is the share of training patients with these
    answers (``change_scope`` "answers") or, when they are too few, of those at this stage
    with the same outcome ("stage") whose outcome changes by the reference stage
    ``change_reference``, over ``change_rows`` patients; None without statistics.
    ``next_cost`` is the cost of the next question (:mod:`psl_core.costs`); None for a
    list without question costs or after the last stage.
    """

    stage: int
    totals: list
    probability_low: float
    probability_high: float
    lower: float
    upper: float
    threshold: float
    outcome: str
    action: str
    stop_reason: str
    expected_loss: float
    change_share: float = None
    change_rows: int = 0
    change_scope: str = None
    change_reference: int = None
    next_cost: float = None

    def to_dict(self):
        return asdict(self)


class StageBands:
    """Everything a triage needs from one fitted list at one confidence level, computed once.

    ``bands`` (optional): the stages' ``model.stage_interval(k, confidence)`` already
    computed, a list of (totals, lower, point, upper) per stage 0..K.

    Holds every stage's point estimates and intervals, the list's stop
    statistics as a :class:`~psl_core.stopping.ChangeTable` (None for a list without them),
    the cost of each stage's question (``costs``, shape (K,); None for a list without
    question costs) and, per threshold, the outcome of every reachable total, so that an answer at the
    bedside only looks values up.
    """

    def __init__(self, model, confidence=0.95, bands=None):
        self.confidence = check_confidence(confidence)
        self.scores = list(model.scores_)
        if bands is None:
            bands = [model.stage_interval(k, self.confidence) for k in range(model.n_stages_)]
        self.bands = bands
        statistics = getattr(model, "stop_statistics_", None)
        self.changes = None if statistics is None else ChangeTable(statistics)
        costs = np.asarray(getattr(model, "stage_costs_", np.zeros(0)), dtype=float)
        self.costs = costs if costs.any() else None
        self._outcomes = {}
        self._later = {}
        self._shares = {}

    def at(self, stage, totals):
        """(point, lower, upper) arrays at the given totals of one stage."""
        reachable, lower, point, upper = self.bands[stage]
        index = np.searchsorted(reachable, totals)
        return point[index], lower[index], upper[index]

    def outcomes(self, stage, totals, threshold):
        """Outcome codes (:func:`outcome_codes`) of the given totals of one stage."""
        key = (stage, threshold)
        if key not in self._outcomes:
            _, lower, _, upper = self.bands[stage]
            self._outcomes[key] = outcome_codes(lower, upper, threshold)
        return self._outcomes[key][np.searchsorted(self.bands[stage][0], totals)]

    def settled(self, stage, totals, last, code, threshold):
        """Whether every total reachable from ``totals`` at stages stage+1..last has outcome ``code``.

        Then no completion of the answers, unknown ones included, can change the outcome:
        the union of intervals of totals that all rule in (out) rules in (out), and of totals
        that are all uncertain is uncertain.
        """
        low, high = self.later_outcomes(last, threshold)[stage]
        index = np.searchsorted(self.bands[stage][0], totals)
        return bool((low[index] == code).all() and (high[index] == code).all())

    def later_outcomes(self, last, threshold):
        """Per stage 0..last, the lowest and highest outcome code over every total reachable
        from each of the stage's totals at stages stage+1..last (2 and -2: none), computed
        once per setting backwards: from T at stage j the next stage reaches T and T + its
        score, and from those what they reach."""
        key = (last, threshold)
        if key not in self._later:
            size = len(self.bands[last][0])
            later = [None] * (last + 1)
            later[last] = (np.full(size, 2, dtype=np.int8), np.full(size, -2, dtype=np.int8))
            for stage in range(last - 1, -1, -1):
                totals, following = self.bands[stage][0], self.bands[stage + 1][0]
                codes = self.outcomes(stage + 1, following, threshold)
                low, high = later[stage + 1]
                stay, add = np.searchsorted(following, totals), np.searchsorted(following, totals + self.scores[stage])
                later[stage] = (
                    np.minimum.reduce([codes[stay], codes[add], low[stay], low[add]]),
                    np.maximum.reduce([codes[stay], codes[add], high[stay], high[add]]),
                )
            self._later[key] = later
        return self._later[key]

    def change_share(self, stage, reference, totals, code, threshold):
        """(share, rows, scope) of :meth:`psl_core.stopping.ChangeTable.change_share` for one
        state; the counts per total are computed once per stage, reference and threshold."""
        key = (stage, reference, threshold)
        if key not in self._shares:
            self._shares[key] = self.changes.shares(
                stage, reference, lambda t: self.outcomes(stage, t, threshold),
                lambda t: self.outcomes(reference, t, threshold),
            )
        return self.changes.change_share(self._shares[key], totals, code)


def _check_basis(basis):
    if basis not in BASES:
        raise PSLError(f"basis must be one of {list(BASES)}, got {basis!r}")


def _last_stage(bands, n_stages):
    last = len(bands.scores) if n_stages is None else int(n_stages)
    if not 0 <= last <= len(bands.scores):
        raise PSLError(f"n_stages must lie in 0..{len(bands.scores)}, got {n_stages!r}")
    return last


def _stop(bands, stage, totals, code, last, threshold, tolerance, change_value=None):
    """(stop_reason, (share, rows, scope, reference)) of one state: the one stop rule."""
    if stage < last and bands.settled(stage, totals, last, code, threshold):
        return SETTLED, (None, 0, None, None)
    change = (None, 0, None, None)
    if bands.changes is not None:
        reference = bands.changes.reference_for(stage, last)
        if reference is not None:
            change = (*bands.change_share(stage, reference, totals, code, threshold), reference)
    if code != 0:
        if bands.changes is None:
            return RULED, change
        if change[0] is not None and change[0] < tolerance:
            return UNLIKELY_TO_CHANGE, change
    if stage == last:
        return END_OF_LIST, change
    if bands.costs is not None and not_worth_asking(change[0], bands.costs[stage], change_value):
        return NOT_WORTH_COST, change
    return None, change


def _checked_step(bands, stage, basis, tolerance, change_value, n_stages):
    """(tolerance, change value, last stage) of a :func:`triage_step` after ``stage`` answers,
    checked: a PSLError when the list used has fewer stages."""
    _check_basis(basis)
    tolerance = check_tolerance(tolerance)
    change_value = check_change_value(change_value)
    last = _last_stage(bands, n_stages)
    if stage > last:
        raise PSLError(f"{stage} answers given, but the list has only {last} stages")
    return tolerance, change_value, last


def triage_step(bands, answers, cost_ratio=DEFAULT_COST_RATIO, basis="upper", n_stages=None,
                tolerance=DEFAULT_TOLERANCE, change_value=None):
    """The state of a triage after some answers, and whether to stop.

    Parameters
    ----------
    bands : StageBands
        The list's stagewise estimates, intervals and stop statistics at the chosen confidence.
    answers : sequence of {True, False, None}
        Answers to stages 1..k (k = len(answers)); None = unknown.
    cost_ratio : float
        M, the cost of a missed case relative to a false alarm (paper default 10).
    basis : {"upper", "point"}
        Act on the interval's upper bound (risk-averse, default) or the estimate.
    n_stages : int or None
        Length of the list to use (stages 1..n_stages); None = the whole list.
    tolerance : float in [0, 1)
        Stop a ruled-in or ruled-out patient once fewer than this share of training
        patients like them change outcome with more answers.
    change_value : float > 0 or None
        V, what a changed outcome is worth in the unit of the list's question costs: stop
        before a question that costs more than V times the share of training patients
        like this one whose outcome still changes. None (default), or a list without
        costs: costs do not stop the list.

    Returns
    -------
    StepResult
    """
    stage = len(answers)
    tolerance, change_value, last = _checked_step(bands, stage, basis, tolerance, change_value, n_stages)
    threshold = decision_threshold(cost_ratio)
    totals = possible_totals(bands.scores, answers)
    point, lower, upper = bands.at(stage, totals)
    low, high = float(lower.min()), float(upper.max())
    code = int(outcome_codes(low, high, threshold))
    stop_reason, (share, rows, scope, reference) = _stop(
        bands, stage, totals, code, last, threshold, tolerance, change_value,
    )
    p_act = float(high if basis == "upper" else point.max())
    return StepResult(
        stage=stage,
        totals=totals.tolist(),
        probability_low=float(point.min()),
        probability_high=float(point.max()),
        lower=low,
        upper=high,
        threshold=threshold,
        outcome=OUTCOMES[code + 1],
        action=action(OUTCOMES[code + 1], p_act, threshold, basis),
        stop_reason=stop_reason,
        expected_loss=float(expected_loss(p_act, cost_ratio)),
        change_share=share,
        change_rows=rows,
        change_scope=scope,
        change_reference=reference,
        next_cost=float(bands.costs[stage]) if bands.costs is not None and stage < last else None,
    )


def stop_stages(bands, totals, cost_ratio=DEFAULT_COST_RATIO, n_stages=None, tolerance=DEFAULT_TOLERANCE,
                change_value=None):
    """Where the triage of patients with fully known answers stops, by :func:`triage_step`'s rule.

    Parameters
    ----------
    bands : StageBands
    totals : ndarray of int, shape (n_patients, K + 1)
        Each patient's total at stages 0..K (``stagewise_totals``).
    cost_ratio, n_stages, tolerance, change_value
        As for :func:`triage_step`.

    Returns
    -------
    stop : ndarray of int, shape (n_patients,)
        The stage each patient stops at.
    outcome : ndarray of int8, shape (n_patients,)
        Their outcome code there (:func:`outcome_codes`).
    """
    tolerance = check_tolerance(tolerance)
    change_value = check_change_value(change_value)
    last = _last_stage(bands, n_stages)
    threshold = decision_threshold(cost_ratio)
    totals = np.asarray(totals, dtype=np.int64)
    stop = np.full(len(totals), last)
    open_ = np.ones(len(totals), dtype=bool)
    for stage in range(last + 1):
        distinct = np.unique(totals[open_, stage])
        for total, code in zip(distinct, bands.outcomes(stage, distinct, threshold).tolist()):
            if _stop(bands, stage, np.array([total]), code, last, threshold, tolerance, change_value)[0] is not None:
                here = open_ & (totals[:, stage] == total)
                stop[here], open_[here] = stage, False
    codes = np.zeros(len(totals), dtype=np.int8)
    for stage in np.unique(stop):
        here = stop == stage
        codes[here] = bands.outcomes(stage, totals[here, stage], threshold)
    return stop, codes


NOT_MEASURED = "__psl_not_measured__"
"""Raw answer "not measured": the value does not exist (the test was not done), unlike an
unknown answer (None), whose value exists but is not at hand."""


def answer_for(literal, value):
    """Whether a literal holds for one raw answer; None when the answer is unknown.

    ``value`` is a number for a numeric feature, True/False (or 1/0) for a binary one,
    a category for a categorical one, None for "unknown" (a value that exists but is not
    at hand: the list follows both answers) and :data:`NOT_MEASURED` for a value that was
    not measured: it goes where the list learned a missing value goes (``literal.missing``,
    see :mod:`psl_core.binarization`), or is unknown when the list learned no direction
    (its column had no missing training values).
    """
    if isinstance(value, str) and value == NOT_MEASURED:
        return literal.not_measured
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return None
    return bool(literal.evaluate(np.array([value], dtype=object if literal.kind == "category" else float))[0])


@dataclass(frozen=True)
class DecisionRange:
    """Where M matters for a list: the values of M at which it decides anything.

    Counted over the training patients (the counts behind each total's interval), at the
    list's recommended length (the bedside default), else its last stage. See
    :func:`decision_range`.

    Attributes
    ----------
    stage : int
    changes : tuple (low, high) or None
        The M at which the list's action (positive or negative) at some stage 1..stage
        differs from the base rate's for some training patients: low <= M < high on the
        risk-averse basis (low < M <= high on the point basis); None when no M does (a list
        without questions, or one whose totals all share one bound). ``high`` may be inf.
    rule_out_below : float or None
        The list rules some training patient out at some stage 1..stage exactly when M is
        below this; None when no M does (every upper bound is 1).
    rule_in_above : float or None
        The list rules some training patient in at some stage exactly when M is above this;
        None when no M does (every lower bound is 0).
    prior_rule_in_above, prior_rule_out_below : float or None
        The same for the base rate alone (stage 0): above the first M the base rate rules
        every patient in, below the second it rules every patient out.
    values : ndarray of shape (m,)
        The basis value (u on the risk-averse basis, p on the point basis) of each total
        with training patients at ``stage``, and ``counts`` how many patients have it
        (:meth:`changed_share` counts the decisions changed at ``stage``).
    prior_value : float
    basis : str
    """

    stage: int
    changes: tuple | None
    rule_out_below: float | None
    rule_in_above: float | None
    prior_rule_in_above: float | None
    prior_rule_out_below: float | None
    values: np.ndarray
    counts: np.ndarray
    prior_value: float
    basis: str

    def changed_share(self, cost_ratio):
        """Share of the training patients whose action at M differs from the base rate's."""
        t = decision_threshold(cost_ratio)
        if self.basis == "upper":
            mine, prior = self.values >= t, self.prior_value >= t
        else:
            mine, prior = self.values > t, self.prior_value > t
        return float(self.counts[mine != prior].sum() / max(self.counts.sum(), 1))

    def can_rule_out(self, cost_ratio):
        return self.rule_out_below is not None and check_cost_ratio(cost_ratio) < self.rule_out_below

    def can_rule_in(self, cost_ratio):
        return self.rule_in_above is not None and check_cost_ratio(cost_ratio) > self.rule_in_above


def _m_of(threshold):
    """The M whose decision threshold 1/(1+M) is ``threshold`` (inf at 0, 0 at 1)."""
    with np.errstate(divide="ignore"):
        return float(np.inf) if threshold <= 0 else 1.0 / float(threshold) - 1.0


def decision_range(model, stage=None, confidence=0.95, basis="upper"):
    """The values of M at which a list decides anything for its training patients.

    A training patient's action at a stage is positive when u >= 1/(1+M) on the risk-averse
    basis (ruled in or uncertain), when p > 1/(1+M) on the point basis. Before any question
    every patient gets the base rate's action; the list *changes* a decision where a
    total's action at a stage up to ``stage`` differs from it, which happens exactly for
    thresholds between the lowest and the highest basis value among those totals with
    patients and the base rate's.
    Ruling out (u < t) and in (l > t) are looked for at every stage up to ``stage``, as the
    bedside may stop at any of them.

    Parameters
    ----------
    model : fitted ProbabilisticScoringList
    stage : int or None
        Default: the recommended length, else the last stage.
    confidence : float in (0, 1)
    basis : {"upper", "point"}

    Returns
    -------
    DecisionRange
    """
    _check_basis(basis)
    model._check_probabilities()
    if stage is None:
        recommended = getattr(model, "recommended_stages_", None)
        stage = len(model.literals_) if recommended is None else int(recommended)
    stage = model._stage(stage)
    _, prior_lower, prior_point, prior_upper = model.stage_interval(0, confidence)
    prior_value = float((prior_upper if basis == "upper" else prior_point)[0])
    rule_out, rule_in, every = [], [], [prior_value]
    for k in range(1, stage + 1):
        _, lower, point, upper = model.stage_interval(k, confidence)
        seen = (np.asarray(model.stage_positives_[k]) + np.asarray(model.stage_negatives_[k])) > 0
        rule_out += [_m_of(u) for u in upper[seen] if u < 1]
        rule_in += [_m_of(low) for low in lower[seen] if low > 0]
        every += list((upper if basis == "upper" else point)[seen])
    _, lower, point, upper = model.stage_interval(stage, confidence)
    counts = np.asarray(model.stage_positives_[stage]) + np.asarray(model.stage_negatives_[stage])
    seen = counts > 0
    values = (upper if basis == "upper" else point)[seen]
    changes = None
    if stage > 0 and min(every) < max(every):
        changes = (_m_of(max(every)), _m_of(min(every)))
    return DecisionRange(
        stage=stage,
        changes=changes,
        rule_out_below=max(rule_out) if rule_out else None,
        rule_in_above=min(rule_in) if rule_in else None,
        prior_rule_in_above=_m_of(prior_lower[0]) if prior_lower[0] > 0 else None,
        prior_rule_out_below=_m_of(prior_upper[0]) if prior_upper[0] < 1 else None,
        values=np.asarray(values, dtype=float),
        counts=counts[seen].astype(np.int64),
        prior_value=prior_value,
        basis=basis,
    )
