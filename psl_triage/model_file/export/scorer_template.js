// Scorer of a probabilistic scoring list, generated from its specification: no dependencies.
//
// scorePatient(answers) -> result. The answers are an object keyed by the list's column names: a
// number for a numeric or yes/no question (yes = 1, no = 0), a text for a category, null (or no
// entry) when the answer is unknown, and {not_measured: true} when the test was not done. The
// result holds the stage the list stops at, why, the possible totals, the risk (lowest and highest
// estimate over the totals), its interval, the three-way outcome and the action, exactly as the
// specification's test cases do. checkTestCases() returns the test cases whose result differs.
// In a browser the functions are on globalThis.PSLScorer; in Node, module.exports.
(function (root) {
  "use strict";
  const SPECIFICATION = JSON.parse("{}");

  function holds(question, answer) {
    if (answer !== null && typeof answer === "object" && answer.not_measured === true) {
      return question.not_measured;
    }
    if (answer === null || answer === undefined || (typeof answer === "number" && Number.isNaN(answer))) {
      return null;
    }
    const condition = question.condition;
    if (condition.op === "any value") return condition.holds;
    if (condition.op === "in" || condition.op === "not in") {
      return condition.values.includes(String(answer)) === (condition.op === "in");
    }
    const value = Number(answer);
    return condition.op === ">" ? value > condition.threshold : value <= condition.threshold;
  }

  function possibleTotals(questions, answered) {
    let totals = new Set([0]);
    answered.forEach(function (hold, i) {
      const points = questions[i].points;
      const moved = Array.from(totals, function (total) { return total + points; });
      if (hold === null) moved.forEach(function (total) { totals.add(total); });
      else if (hold) totals = new Set(moved);
    });
    return Array.from(totals).sort(function (a, b) { return a - b; });
  }

  function sum(values) {
    return values.reduce(function (a, b) { return a + b; }, 0);
  }

  function changeShare(stage, places, code, minRows) {
    const change = stage.change;
    if (change === null) return null;
    const patients = sum(places.map(function (i) { return change.patients[i]; }));
    if (patients >= minRows) {
      return sum(places.map(function (i) { return change.changed[code + 1][i]; })) / patients;
    }
    const pooled = change.pooled_patients[code + 1];
    return pooled >= 1 ? change.pooled_changed[code + 1] / pooled : null;
  }

  function stopReason(spec, stage, places, code, share) {
    const settings = spec.settings;
    const last = spec.questions.length;
    if (stage.stage < last && places.every(function (i) { return stage.settled[i] === code; })) return "settled";
    if (code !== 0 && !spec.stop_rule.statistics) return "ruled in or out";
    if (code !== 0 && share !== null && share < settings.tolerance) return "unlikely to change";
    if (stage.stage === last) return "end of list";
    const cost = stage.next_cost;
    const value = settings.change_value;
    if (share !== null && value !== null && cost !== null && cost > 0 && share * value < cost) {
      return "not worth its cost";
    }
    return null;
  }

  function state(spec, k, answered) {
    const settings = spec.settings;
    const stage = spec.stages[k];
    const totals = possibleTotals(spec.questions, answered);
    const places = totals.map(function (total) {
      const i = stage.totals.indexOf(total);
      if (i < 0) throw new Error("total " + total + " is not reachable at stage " + k + " of the specification");
      return i;
    });
    const risks = places.map(function (i) { return stage.risk[i]; });
    const lower = Math.min.apply(null, places.map(function (i) { return stage.lower[i]; }));
    const upper = Math.max.apply(null, places.map(function (i) { return stage.upper[i]; }));
    const threshold = settings.threshold;
    const code = lower > threshold ? 1 : upper < threshold ? -1 : 0;
    const share = changeShare(stage, places, code, spec.stop_rule.min_rows);
    const riskHigh = Math.max.apply(null, risks);
    let action = code === 1 ? "positive" : "negative";
    if (code === 0) action = settings.basis === "upper" || riskHigh > threshold ? "positive" : "negative";
    return {
      stop: k, stop_reason: stopReason(spec, stage, places, code, share), totals: totals,
      risk_low: Math.min.apply(null, risks), risk_high: riskHigh, lower: lower, upper: upper,
      outcome: ["rule out", "uncertain", "rule in"][code + 1], action: action,
    };
  }

  function scorePatient(answers, spec) {
    spec = spec || SPECIFICATION;
    const answered = [];
    for (let k = 0; k <= spec.questions.length; k++) {
      if (k > 0) {
        const question = spec.questions[k - 1];
        const answer = Object.prototype.hasOwnProperty.call(answers, question.column) ? answers[question.column] : null;
        answered.push(holds(question, answer));
      }
      const result = state(spec, k, answered);
      if (result.stop_reason !== null) return result;
    }
    throw new Error("the specification's last stage has no stop: it is not a valid specification");
  }

  function same(result, expected) {
    const keys = Object.keys(expected);
    return Object.keys(result).length === keys.length && keys.every(function (key) {
      return JSON.stringify(result[key]) === JSON.stringify(expected[key]);
    });
  }

  function checkTestCases(testCases, spec) {
    return testCases.filter(function (testCase) {
      try {
        return !same(scorePatient(testCase.answers, spec), testCase.expected);
      } catch (error) {
        return true;  // a total the stages do not hold: the specification and its cases disagree
      }
    });
  }

  const api = { SPECIFICATION: SPECIFICATION, scorePatient: scorePatient, checkTestCases: checkTestCases };
  if (typeof module !== "undefined" && module.exports) module.exports = api;
  else root.PSLScorer = api;
})(typeof globalThis !== "undefined" ? globalThis : this);
