"""Applying a fitted list: its stages' totals, probabilities and intervals, and its table.

:class:`StagewisePredictionMixin` holds what a fitted
:class:`~psl_core.model.ProbabilisticScoringList` answers about new cases (Def. 3: at
stage k the first k features are known, a case's total is the sum of their points, and
q(k, T) its probability), the intervals of Sec. 4.4 (eqs. 10-13), and the
list laid out like the paper's Table 1. :mod:`psl_core.model` learns the attributes it reads.
"""

import numbers
from collections.abc import Mapping

import numpy as np
import pandas as pd
from sklearn.utils.validation import check_is_fitted

from .binarization import CATEGORY
from .costs import check_cost_groups, check_question_costs, stage_costs
from .errors import DataError, PSLError
from .intervals import clopper_pearson_band


class StagewisePredictionMixin:
    """The prediction methods and derived attributes of a fitted scoring list.

    Reads ``literals_``, ``scores_``, ``stage_totals_``, ``stage_probabilities_``,
    ``stage_positives_``, ``stage_negatives_`` (and ``shrinkage_``, ``validation_brier_``,
    ``recommended_stages_`` when set), and the estimator's ``_read_X``.
    """

    # ------------------------------------------------------------------ attributes
    @property
    def n_stages_(self):
        check_is_fitted(self, "literals_")
        return len(self.literals_) + 1

    @property
    def features_(self):
        check_is_fitted(self, "literals_")
        return [literal.column for literal in self.literals_]

    @property
    def stage_costs_(self):
        check_is_fitted(self, "literals_")
        return stage_costs(
            check_question_costs(self.question_costs), self.features_, check_cost_groups(self.cost_groups),
        )

    @property
    def thresholds_(self):
        check_is_fitted(self, "literals_")
        return [literal.threshold for literal in self.literals_]

    # ------------------------------------------------------------------ prediction
    def _stage(self, stage, name="stage"):
        """``stage`` as an int in 0..K (None: K); PSLError naming the parameter ``name`` otherwise."""
        check_is_fitted(self, "literals_")
        if stage is None:
            return len(self.literals_)
        if isinstance(stage, bool) or not isinstance(stage, numbers.Integral):
            raise PSLError(f"{name} must be None or an integer, got {stage!r}")
        if not 0 <= stage <= len(self.literals_):
            raise PSLError(f"{name} must lie in 0..{len(self.literals_)} for this list, got {stage}")
        return int(stage)

    def total_scores(self, X, stage=None):
        """Total score of each row after the first ``stage`` features.

        Returns
        -------
        ndarray of int, shape (n_samples,)
        """
        stage = self._stage(stage)
        return self.stagewise_totals(X, last_stage=stage)[:, stage]

    def stagewise_totals(self, X, last_stage=None):
        """Total score of each row at stages 0..last_stage, reading X once.

        Returns
        -------
        ndarray of int, shape (n_samples, last_stage + 1)
            Column k holds the totals after the first k features (column 0 is 0); by
            default every stage of the list.
        """
        last_stage = self._stage(last_stage, "last_stage")
        columns = self._read_X(X, reset=False)
        by_name = {c.name: c for c in columns}
        fitted_names = getattr(self, "feature_names_in_", None)
        points = np.zeros((len(columns[0].values), last_stage + 1), dtype=np.int64)
        for k, (literal, score) in enumerate(zip(self.literals_[:last_stage], self.scores_), start=1):
            column = by_name.get(literal.column)
            if column is None and fitted_names is not None:
                # Fitted on a DataFrame, predicting on an array: match by position.
                column = columns[list(fitted_names).index(literal.column)]
            if column is None:
                raise DataError(f"X has no column {literal.column!r}, which this list uses")
            present = column.values if column.missing is None else column.values[~column.missing]
            if literal.kind != CATEGORY and column.kind == CATEGORY and len(present):
                example = present[0]
                raise DataError(
                    f"column {literal.column!r} of X holds text (e.g. {example!r}); this list asks it "
                    "as a number, as it was fitted: convert it, e.g. with pd.to_numeric"
                )
            points[:, k] = score * literal.evaluate(column.values, column.missing)
        return np.cumsum(points, axis=1)

    def stagewise_intervals(self, X, confidence=0.95):
        """Lower bound, estimate and upper bound of P(positive) at every stage.

        Returns
        -------
        ndarray of shape (n_samples, n_stages_, 3)
        """
        self._check_probabilities()
        totals = self.stagewise_totals(X)
        out = np.empty(totals.shape + (3,))
        for k in range(self.n_stages_):
            reachable, lower, point, upper = self.stage_interval(k, confidence)
            index = np.searchsorted(reachable, totals[:, k])
            out[:, k] = np.column_stack([lower[index], point[index], upper[index]])
        return out

    def _check_probabilities(self):
        check_is_fitted(self, "literals_")
        if self.stage_probabilities_ is None:
            raise PSLError(
                "this list was fitted from pairwise comparisons: it ranks cases by total_scores "
                "but has no probabilities or intervals; fit it on labelled data for those"
            )

    def _lookup(self, X, stage):
        self._check_probabilities()
        stage = self._stage(stage)
        totals = self.total_scores(X, stage)
        return stage, np.searchsorted(self.stage_totals_[stage], totals)

    def predict_proba(self, X, stage=None):
        """Calibrated class probabilities at a stage.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
        stage : int or None
            0..K; None is the last stage.

        Returns
        -------
        ndarray of shape (n_samples, 2)
            Columns follow ``classes_``: P(negative), P(positive).
        """
        stage, index = self._lookup(X, stage)
        p = self.stage_probabilities_[stage][index]
        return np.column_stack([1.0 - p, p])

    def predict(self, X, stage=None):
        """Most probable class at a stage (positive when P(positive) > 0.5)."""
        p = self.predict_proba(X, stage)[:, 1]
        return self.classes_[(p > 0.5).astype(int)]

    def stage_interval(self, stage=None, confidence=0.95):
        """Interval of every reachable total of a stage (:mod:`psl_core.intervals`).

        ``confidence`` may also be an array of L levels; lower and upper then have shape
        (L, |Sigma_k|). The interval is counted from the stage's training counts divided
        by its ``interval_inflation_`` (the search's optimism measured on the internal
        folds; 1 for a list without them) and holds the risk of the patients with that
        total; it is widened to hold the point, which ``shrinkage_`` may have pulled toward
        the base rate.

        Returns
        -------
        totals, lower, point, upper : ndarrays of shape (|Sigma_k|,)
        """
        self._check_probabilities()
        stage = self._stage(stage)
        q = self.stage_probabilities_[stage]
        inflation = getattr(self, "interval_inflation_", None)
        lower, upper = clopper_pearson_band(
            self.stage_positives_[stage], self.stage_negatives_[stage], q, confidence,
            self.interval_correction, 1.0 if inflation is None else float(inflation[stage]),
        )
        return self.stage_totals_[stage], lower, q, upper

    def predict_interval(self, X, stage=None, confidence=0.95):
        """Confidence interval of P(positive) at a stage.

        Returns
        -------
        ndarray of shape (n_samples, 3)
            Lower bound, point estimate and upper bound.
        """
        stage, index = self._lookup(X, stage)
        _, lower, q, upper = self.stage_interval(stage, confidence)
        return np.column_stack([lower[index], q[index], upper[index]])

    def stage_table(self, columns=None):
        """The list laid out like the paper's Table 1.

        One row per stage 0..K: the condition in words, the feature, threshold and
        points, then one column per total T (union over stages) with q(k, T), NaN
        where T is not reachable at that stage. A list fitted with ``recommend_folds``
        also shows each stage's held-out Brier score and marks the recommended stage.

        Parameters
        ----------
        columns : dict or None
            Readable names per column: ``{column: {"label": ..., "unit": ...,
            "category_labels": {...}}}`` (the ``"columns"`` entry of model metadata).

        Returns
        -------
        pandas.DataFrame
        """
        check_is_fitted(self, "literals_")
        all_totals = np.unique(np.concatenate(self.stage_totals_))
        rows = []
        for k in range(self.n_stages_):
            literal = self.literals_[k - 1] if k else None
            row = {
                "stage": k,
                "condition": self.describe_stage(k, columns) if literal else "(prior)",
                "feature": literal.column if literal else None,
                "threshold": literal.threshold if literal else None,
                "score": self.scores_[k - 1] if k else None,
            }
            if getattr(self, "validation_brier_", None) is not None:
                row["validation_brier"] = self.validation_brier_[k]
                row["recommended"] = k == self.recommended_stages_
            probabilities = self.stage_probabilities_ or [[np.nan] * len(t) for t in self.stage_totals_]
            lookup = dict(zip(self.stage_totals_[k].tolist(), probabilities[k]))
            for t in all_totals.tolist():
                row[t] = lookup.get(t, np.nan)
            rows.append(row)
        return pd.DataFrame(rows).set_index("stage")

    def describe_stage(self, stage, columns=None):
        """The condition of stage 1..K in words, with readable names from ``columns``."""
        stage = self._stage(stage)
        if stage == 0:
            raise PSLError("stage 0 is the prior: it has no condition")
        if columns is not None and not isinstance(columns, Mapping):
            raise PSLError(f"columns must be a dict of readable names per column, got {type(columns).__name__}")
        literal = self.literals_[stage - 1]
        info = (columns or {}).get(str(literal.column), {})
        return literal.describe(info.get("label"), info.get("unit"), info.get("category_labels"))
