"""psl_triage.judging.monitoring: a list watched over dated patients, each number checked
against an independent computation (statsmodels, scikit-learn, counting by hand)."""

import numpy as np
import pandas as pd
import pytest
import statsmodels.api as sm
from scipy.special import expit
from sklearn.metrics import brier_score_loss, roc_auc_score

from psl_core import ProbabilisticScoringList
from psl_core.closed_test import closed_test
from psl_core.errors import DataError
from psl_core.monitoring import chart_names
from psl_core.survival import survival_outcome
from psl_core.validation import log_odds, stage_risks, stage_rows
from psl_triage.bedside.session import recommended_length
from psl_triage.data import infer_column_types, prepare_training_data
from psl_triage.data.follow_up import FollowUp
from psl_triage.judging.card import report_html
from psl_triage.judging.monitoring import (
    MIN_OUTCOMES,
    censoring_weights,
    date_columns,
    monitor,
    monitored_table,
    read_dates,
    risk_draws,
    stage_calibration,
    training_answers,
    training_counts,
)
from psl_triage.judging.validation import match_columns, needed_columns
from psl_triage.plots.monitoring import MAX_CHART_POINTS, answer_shift_figure, cusum_figure, drift_figure
from psl_triage.training.fit import train_list
from psl_triage.training.options import TrainingOptions
from psl_triage.words import monitoring as words
from tests.tables import follow_up_table

M = 4.0
METADATA = {"decision": {"cost_ratio": M}}


def _patients(n, seed, shift=0.0):
    rng = np.random.default_rng(seed)
    hr = rng.normal(150, 20, n).round()
    sex = rng.integers(0, 2, n).astype(float)
    cp = rng.choice(["typical", "atypical", "none"], n, p=[0.3, 0.3, 0.4])
    risk = expit(-0.08 * (hr - 150) + 1.5 * sex + np.select([cp == "none", cp == "atypical"], [2.0, -1.0], -2.0)
                 - 0.6 + shift)
    return pd.DataFrame({"hr": hr, "sex": sex, "cp": cp, "outcome": (rng.random(n) < risk).astype(int)})


@pytest.fixture(scope="module")
def model():
    train = _patients(1500, 0)
    return ProbabilisticScoringList(max_stages=3).fit(train[["hr", "sex", "cp"]], train["outcome"])


@pytest.fixture(scope="module")
def seen():
    """Two years of patients, one a day at most, the odds doubled in the second year; a few
    rows without a date."""
    first, second = _patients(700, 1), _patients(700, 2, shift=np.log(2))
    frame = pd.concat([first, second], ignore_index=True)
    days = np.sort(np.random.default_rng(3).choice(730, len(frame), replace=True))
    frame["seen on"] = (pd.Timestamp("2023-01-01") + pd.to_timedelta(days, unit="D")).strftime("%d/%m/%Y")
    frame = frame.sample(frac=1.0, random_state=4).reset_index(drop=True)  # the upload need not be sorted
    frame.loc[[5, 6], "seen on"] = ""
    return frame


def _table(model, frame, date="seen on"):
    mapping = match_columns(needed_columns(model, METADATA), frame.columns)
    return monitored_table(model, METADATA, frame, mapping, "outcome", [1], date)


def test_dates_and_years_are_read_and_offered(seen):
    years = pd.Series([1998, 2001, None, 2003])
    assert list(read_dates(years)[0].dt.year.dropna()) == [1998, 2001, 2003]
    assert read_dates(pd.Series([1.5, 2.0]))[0].isna().all()  # numbers that are not years
    assert read_dates(pd.Series(["2024-03-01", "2024-04-15"]))[0].dt.month.tolist() == [3, 4]
    day_first, ambiguous = read_dates(pd.Series(["13/03/2024", "01/04/2024"]))
    assert day_first.dt.month.tolist() == [3, 4] and not ambiguous  # 13 is no month: day first, surely
    month_first, ambiguous = read_dates(pd.Series(["03/13/2024", "04/01/2024"]))
    assert month_first.dt.day.tolist() == [13, 1] and not ambiguous
    assert read_dates(pd.Series(["01/03/2024", "02/04/2024"]))[1]  # either way: said
    assert date_columns(seen) == ["seen on"]


def test_the_table_is_in_date_order_without_undated_rows(model, seen):
    monitored = _table(model, seen)
    assert len(monitored.table.y) == len(seen) - 2
    assert monitored.dates.is_monotonic_increasing
    assert "2 rows without a date" in monitored.table.notes[0]
    again = seen.set_index(seen.index).loc[monitored.table.X.index]
    assert (again["outcome"].to_numpy() == monitored.table.y).all()
    with pytest.raises(DataError, match="reads as a date"):
        _table(model, seen, "cp")


def test_each_period_matches_an_independent_computation(model, seen):
    monitored = _table(model, seen)
    result = monitor(model, monitored, "quarter", stage=3, metadata=METADATA)
    judged = stage_rows(model, monitored.table.X, 3)
    quarters = monitored.dates.dt.to_period("Q").astype(str).to_numpy()
    assert list(result.periods["period"]) == sorted(set(quarters))
    for _, row in result.periods.iterrows():
        here = quarters[judged.rows] == row["period"]
        y, p = monitored.table.y[judged.rows][here], judged.p[here]
        assert row["patients"] == len(y) and row["events"] == y.sum()
        assert row["oe"] == pytest.approx(y.sum() / p.sum())
        assert row["brier"] == pytest.approx(brier_score_loss(y, p))
        assert row["auc"] == pytest.approx(roc_auc_score(y, p))
        lp = log_odds(p)
        fit = sm.GLM(y, sm.add_constant(lp), family=sm.families.Binomial()).fit(tol=1e-12)
        assert row["slope"] == pytest.approx(fit.params[1], abs=1e-6)
        assert (row["slope_lower"], row["slope_upper"]) == pytest.approx(tuple(fit.conf_int()[1]), abs=1e-6)
        t = 1 / (1 + M)
        acted = p > t
        assert row["net_benefit"] == pytest.approx(((acted & (y == 1)).sum() - (acted & (y == 0)).sum() * t / (1 - t))
                                                   / len(y))
        shares = row[["share_rule_in", "share_rule_out", "share_uncertain"]]
        assert shares.sum() == pytest.approx(1.0)
    stops = result.stops.groupby("period")["share"].sum()
    assert stops.to_numpy() == pytest.approx(1.0)


def test_the_doubled_odds_are_signalled_in_the_second_year(model, seen):
    result = monitor(model, _table(model, seen), "month", stage=3, metadata=METADATA, n_simulations=300)
    assert result.signals["down"] is None
    assert pd.Timestamp("2024-01-01") <= result.signals["up"] <= pd.Timestamp("2024-12-31")
    assert result.chart["up"].max() > result.cusum.limits["up"]
    second_year = monitor(model, _table(model, seen), "month", stage=3, metadata=METADATA, n_simulations=100,
                          test_from="2024-01-01")
    assert second_year.closed.n == (second_year.chart["date"] >= pd.Timestamp("2024-01-01")).sum()
    assert second_year.closed.recommendation != "keep"


def test_the_closed_test_counts_the_lists_training_patients(model, seen):
    """The closed test judges the list's risks as estimates from its training counts per total
    (prior pseudo-counts added), not as exact: its statistic against keep is the smaller."""
    result = monitor(model, _table(model, seen), "month", stage=3, metadata=METADATA, n_simulations=50)
    totals, counts = training_counts(model, 3)
    assert counts == pytest.approx(np.asarray(model.stage_positives_[3]) + np.asarray(model.stage_negatives_[3])
                                   + model.prior_strength)
    chart = result.chart
    rows = stage_rows(model, _table(model, seen).table.X, 3)
    assert chart["risk"].to_numpy() == pytest.approx(rows.p)
    exact = closed_test(chart["outcome"], chart["risk"], rows.totals)
    keep = result.closed.tests.set_index("update").loc["keep", "statistic"]
    assert keep < exact.tests.set_index("update").loc["keep", "statistic"]


def test_small_periods_are_counted_but_not_judged(model, seen):
    result = monitor(model, _table(model, seen.head(700)), "month", stage=3, metadata=METADATA, n_simulations=100)
    periods = result.periods
    small = periods[np.minimum(periods["events"], periods["patients"] - periods["events"]) < MIN_OUTCOMES]
    assert len(small) > 0 and not small["judged"].any() and small["oe"].isna().all()
    assert periods["judged"].any() and periods.loc[periods["judged"], "oe"].notna().all()


def test_training_answer_shares_are_the_training_rows_shares():
    frame = _patients(900, 5)
    model = ProbabilisticScoringList(max_stages=3).fit(frame[["hr", "sex", "cp"]], frame["outcome"])
    shares = training_answers(model, {}, 3)
    for k, literal in enumerate(model.literals_, start=1):
        hit = literal.evaluate(frame[literal.column].astype(object if literal.kind == "category" else float))
        assert shares.loc[k, "met"] == pytest.approx(hit.mean())
    assert (shares["not_recorded"] == 0).all()  # no training value was missing, and the list knows it
    gaps = frame.assign(hr=frame["hr"].where(np.arange(len(frame)) % 10 > 0))  # every tenth heart rate missing
    model = ProbabilisticScoringList(max_stages=3).fit(gaps[["hr", "sex", "cp"]], gaps["outcome"])
    shares = training_answers(model, {}, 3)
    hr_questions = [k for k, literal in enumerate(model.literals_, start=1) if literal.column == "hr"]
    assert hr_questions and all(np.isnan(shares.loc[k, "not_recorded"]) for k in hr_questions)  # not said how many


@pytest.fixture(scope="module")
def horizon_list():
    frame = follow_up_table(seed=1)
    types = {**infer_column_types(frame), "pid": "ignore"}
    prepared = prepare_training_data(frame, types, "status", [1], "learn", follow_up=FollowUp("rfstime", 1000.0, "days"))
    return train_list(prepared, "study.csv", TrainingOptions(max_stages=3))


def _censored_cohort(model, n, seed, cutoff="2028-06-30"):
    """Patients seen over 2024-2025 whose event by 1000 days happens at the list's own risk (the
    list is calibrated), early in follow-up (uniform over 0-1000 days); follow-up ends at the
    ``cutoff`` (administrative: the patients seen last are followed for the shortest time) or at a
    loss (exponential, mean 3000 days), whichever comes first. Returns the table and each patient's
    true event by 1000 days."""
    rng = np.random.default_rng(seed)
    frame = follow_up_table(n, seed).drop(columns=["rfstime", "status"])
    frame["seen"] = pd.Timestamp("2024-01-01") + pd.to_timedelta(rng.integers(0, 731, n), unit="D")
    rows, risk = stage_risks(model, frame[["nodes", "grade", "age"]].astype(float), recommended_length(model))
    assert rows.all()
    event = rng.random(n) < risk
    event_time = np.where(event, rng.uniform(1, 1000, n), 1000 + rng.exponential(1000, n))
    followed = np.minimum((pd.Timestamp(cutoff) - frame["seen"]).dt.days.to_numpy(), rng.exponential(3000, n))
    frame["rfstime"] = np.minimum(event_time, followed).round(1)
    frame["status"] = (event_time <= followed).astype(int)
    return frame, event


def test_a_censored_horizon_list_is_judged_with_weights_that_unbias_it(horizon_list):
    """Patients censored before the horizon are mostly patients without the event (the events come
    early): left out, the list looks too low; weighted per period, it is calibrated. Before the
    weights, a table with more than 5 % censored was refused."""
    model, metadata = horizon_list
    frame, truth = _censored_cohort(model, 8000, 11)
    mapping = match_columns(needed_columns(model, metadata), frame.columns)
    monitored = monitored_table(model, metadata, frame, mapping, "status", [1], "seen", time="rfstime")
    known = (frame["status"] == 1) | (frame["rfstime"] > 1000)
    assert 0.15 < 1 - known.mean() < 0.5 and any("censored before the horizon" in n for n in monitored.table.notes)
    result = monitor(model, monitored, "quarter", metadata=metadata, n_simulations=100)
    periods = result.periods.set_index("period")
    assert periods["seen"].sum() == 8000 and periods["judged"].all() and result.weighted
    risk = result.chart["risk"].to_numpy()  # the patients charted: those whose outcome is known
    assert len(risk) == known.sum() and "weight" in result.chart
    expected = periods["expected"] * periods["patients"]
    weighted = (periods["oe"] * expected).sum() / expected.sum()  # every period's observed, summed
    naive = result.chart["outcome"].sum() / risk.sum()  # the known patients alone, unweighted
    true_oe = truth.sum() / (expected.sum())
    assert abs(weighted - true_oe) < 0.03 and naive > true_oe + 0.1
    late = periods.iloc[-1]  # the last quarter: most of its patients censored before the horizon
    assert late["known"] < 0.6 * late["patients"] and late["oe_lower"] < 1 < late["oe_upper"]
    assert result.closed is not None and result.closed.n == known.sum()
    page = report_html(model, metadata, result.stage, evidence={"monitoring": result})
    assert f"{known.sum():,} patients (of 8,000 judged" in page and "Outcome known" in page
    assert "censoring weighted: patients censored before it weigh 0" in page
    with pytest.raises(DataError, match="time"):
        monitored_table(model, metadata, frame, mapping, "status", [1], "seen")


def test_a_real_cohort_censored_by_its_calendar_is_judged_as_kaplan_meier_says():
    """flchain (scikit-survival), death within 8 years: a horizon list trained on the patients sampled
    in 1995-1996, watched over 1997-2003 year by year. The later years are followed for less time
    (40 % of 2001's patients censored before 8 years, 2002-2003 nearly all): each judged year's
    weighted outcome rate equals scikit-survival's Kaplan-Meier estimate of death by 8 years; the
    patients whose outcome is known alone would say 0.35 for 2001; the years where nobody is
    followed to 8 years are not judged."""
    datasets = pytest.importorskip("sksurv.datasets")
    from sksurv.nonparametric import kaplan_meier_estimator

    X, y = datasets.load_flchain()
    frame = X[["age", "sex", "kappa", "lambda", "mgus"]].astype({"sex": str, "mgus": str})
    frame = frame.assign(year=X["sample.yr"].astype(int), futime=y["futime"], death=y["death"].astype(int))
    early = frame[frame["year"] <= 1996].drop(columns=["year"])
    prepared = prepare_training_data(early, infer_column_types(early), "death", [1], "learn",
                                     follow_up=FollowUp("futime", 2922.0, "days"))
    model, metadata = train_list(prepared, "flchain 1995-1996", TrainingOptions(max_stages=4))
    later = frame[frame["year"] >= 1997].reset_index(drop=True)
    mapping = match_columns(needed_columns(model, metadata), later.columns)
    monitored = monitored_table(model, metadata, later, mapping, "death", [1], "year", time="futime")
    periods = monitor(model, monitored, "year", metadata=metadata, n_simulations=100).periods.set_index("period")
    for year, part in later.groupby("year"):
        times, survival = kaplan_meier_estimator(part["death"].astype(bool).to_numpy(), part["futime"].to_numpy(float))
        row = periods.loc[str(year)]
        if year <= 2001:
            assert row["judged"] and row["rate"] == pytest.approx(1 - survival[times <= 2922.0][-1], abs=5e-4)
        else:
            assert not row["judged"] and row["known"] == 0 and np.isnan(row["rate"])
    known = later[(later["year"] == 2001) & ((later["death"] == 1) | (later["futime"] > 2922.0))]
    assert ((known["futime"] <= 2922.0) & (known["death"] == 1)).mean() > periods.loc["2001", "rate"] + 0.1


def test_the_censoring_weights_are_kaplan_meiers_of_each_period(horizon_list):
    """Each period's weights against scikit-survival's Kaplan-Meier estimate of the censoring."""
    from sksurv.nonparametric import CensoringDistributionEstimator

    model, _ = horizon_list
    frame, _ = _censored_cohort(model, 1500, 12)
    follow_up = survival_outcome(frame["rfstime"].to_numpy(float), frame["status"].to_numpy())
    labels = frame["seen"].dt.to_period("Y").astype(str).to_numpy()
    weight = censoring_weights(follow_up, 1000.0, labels)
    for label in np.unique(labels):
        here = labels == label
        part = follow_up[here]
        estimator = CensoringDistributionEstimator().fit(part)
        case = part["event"] & (part["time"] <= 1000)
        beyond = part["time"] > 1000
        expected = np.zeros(here.sum())
        expected[case] = 1 / estimator.predict_proba(part["time"][case])
        expected[beyond] = 1 / estimator.predict_proba(np.array([1000.0]))[0]
        assert weight[here] == pytest.approx(expected, rel=1e-9)
        assert (weight[here][~(case | beyond)] == 0).all()


def test_the_model_report_carries_the_monitoring(model, seen):
    result = monitor(model, _table(model, seen), "quarter", stage=3, metadata=METADATA, n_simulations=100)
    page = report_html(model, METADATA, 3, evidence={"monitoring": result})
    assert "Monitoring in service" in page and "Risk-adjusted CUSUM" in page
    assert "higher risk than predicted on 2024-" in page and "Closed testing procedure" in page
    assert page.count("<tr><td>2023Q") == 4 and page.count("<tr><td>2024Q") == 4
    assert "Not monitored in this session" in report_html(model, METADATA, 3)


def test_the_figures_keep_the_peaks_and_mark_the_signal(model, seen):
    result = monitor(model, _table(model, seen), "quarter", stage=3, metadata=METADATA, n_simulations=100)
    figure = cusum_figure(result.chart, result.cusum.limits, result.cusum.first_signal)
    up = next(trace for trace in figure.data if trace.name == words.CHART_UP)
    assert max(up.y) == pytest.approx(result.chart["up"].max() / result.cusum.limits["up"])  # as a share of its limit
    mark = next(trace for trace in figure.data if trace.name == words.SIGNAL)
    assert mark.x[0] == result.cusum.first_signal["up"] + 1 and mark.y[0] > 1
    n = 10 * MAX_CHART_POINTS + 7  # more patients than drawn: each bin's highest point stays
    chart = pd.DataFrame({"patient": np.arange(1, n + 1), "date": pd.Timestamp("2024-01-01"),
                          "up": np.random.default_rng(0).random(n), "down": np.zeros(n)})
    chart.loc[12345, "up"] = 5.0
    thinned = next(trace for trace in cusum_figure(chart, {"up": 4.0, "down": 4.0}, {"up": None, "down": None}).data
                   if trace.name == words.CHART_UP)
    assert len(thinned.x) <= MAX_CHART_POINTS and max(thinned.y) == 5.0 / 4.0 and 12346 in set(thinned.x)
    drift = drift_figure(result.periods)
    assert {trace.name for trace in drift.data} >= {"estimate (oe)", "estimate (slope)"}
    assert len(answer_shift_figure(result.answers).data[0].y) == len(model.literals_)


def test_the_volume_is_the_charted_patients_a_month(model, seen):
    result = monitor(model, _table(model, seen), "quarter", stage=3, metadata=METADATA, n_simulations=100)
    dates = result.chart["date"]
    months = ((dates.iloc[-1] - dates.iloc[0]).days + 1) / (365.25 / 12)
    assert result.per_month == pytest.approx(len(dates) / months)
    assert f"about {result.per_month:,.0f} a month" in words.what_charts_see(result.per_month)


def test_a_known_limit_is_reused_and_changes_nothing_else(model, seen):
    table = _table(model, seen)
    first = monitor(model, table, "month", stage=3, metadata=METADATA, n_simulations=100)
    again = monitor(model, table, "quarter", stage=3, metadata=METADATA, limit=first.cusum.limits)
    assert again.cusum.limits == first.cusum.limits and again.signals == first.signals
    assert again.chart.equals(first.chart)


def test_a_limit_function_is_given_the_risks_in_date_order(model, seen):
    """The page's cache of the simulated limit per risks: monitor() hands it the chart's risks."""
    asked = []

    def limit(risks, baseline, false_alarm, n_simulations, seed, weight):
        asked.append((np.array(risks), baseline, false_alarm, n_simulations, seed, weight))
        return dict.fromkeys(chart_names(baseline), 5.0)

    result = monitor(model, _table(model, seen), "month", stage=3, metadata=METADATA, limit=limit)
    assert result.cusum.limits == dict.fromkeys(chart_names(asked[0][1]), 5.0) and len(asked) == 1
    assert asked[0][0] == pytest.approx(result.chart["risk"].to_numpy()) and asked[0][2:] == (0.01, 1000, 0, None)
    baseline = asked[0][1]
    assert baseline.answers.shape == (len(result.chart), 3) and len(baseline.shares) == 3


def test_the_risk_draws_are_the_lists_calibration_of_drawn_counts(model):
    """The list's own counts calibrated as the list calibrates them give its risks back; the
    bootstrap draws scatter about them, less where more training patients stand behind a total."""
    for stage in range(len(model.literals_) + 1):
        risks = stage_calibration(model, stage, model.stage_positives_[stage], model.stage_negatives_[stage])
        assert risks == pytest.approx(np.asarray(model.stage_probabilities_[stage]), abs=1e-9)
    draws = risk_draws(model, 3, n_draws=400, seed=1)
    counts = np.asarray(model.stage_positives_[3]) + np.asarray(model.stage_negatives_[3])
    assert draws.shape == (400, len(counts))
    busy = counts >= 50
    assert draws.mean(axis=0)[busy] == pytest.approx(np.asarray(model.stage_probabilities_[3])[busy], abs=0.03)
    q = np.asarray(model.stage_probabilities_[3])[busy]
    assert (draws.std(axis=0)[busy] <= 2 * np.sqrt(q * (1 - q) / counts[busy]) + 1e-9).all()
    assert (draws.std(axis=0)[busy] > 0).any()


def test_question_and_case_mix_charts_are_drawn_with_the_limit(model, seen):
    result = monitor(model, _table(model, seen), "quarter", stage=3, metadata=METADATA, n_simulations=100)
    assert {"weaker 1", "stronger 2", "fewer 1", "more 3"} <= set(result.chart.columns)
    assert "weaker 3" not in result.chart  # the judged stage's slope is the flatter/steeper charts
    figure = cusum_figure(result.chart, result.cusum.limits, result.cusum.first_signal)
    names = {trace.name for trace in figure.data}
    assert {words.question_trace(1, "weaker"), words.question_trace(3, "more")} <= names
    heads = words.chart_heads(result.chart.columns)
    assert heads["more 3"] == "Chart Q3 met more often" and heads["up"] == "Chart up"


def test_patients_of_one_date_are_not_charted_in_the_files_order(model):
    """A year column gives a year's patients one date; a file sorted by a column within it would
    show a drift of that column's answers within the year: the charts take those patients in a
    shuffled order (seed 0), the same each time."""
    frame = _patients(1200, 11).sort_values("sex", kind="stable").reset_index(drop=True)
    frame["year"] = 2024
    mapping = match_columns(needed_columns(model, METADATA), frame.columns)
    table = monitored_table(model, METADATA, frame, mapping, "outcome", [1], "year")
    first = table.table.X["sex"].to_numpy()[:300]
    assert 0.3 < first.mean() < 0.7  # the file's first 300 are all 0
    again = monitored_table(model, METADATA, frame, mapping, "outcome", [1], "year")
    assert again.table.X.index.equals(table.table.X.index)
