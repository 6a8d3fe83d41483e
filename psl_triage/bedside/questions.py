"""The bedside questionnaire of a fitted list: questions in words, answers and steps.

:mod:`psl_core.decision` says what the list knows after a sequence of yes/no/unknown answers.
This module sits between it and a clinician, who answers in raw values ("152 bpm",
"female", "asymptomatic", "not measured"):

- :func:`build_questions` phrases each stage as a :class:`Question`: the feature in plain
  words with its unit, the condition and its points ("Max heart rate > 147.5 bpm: −2
  points") and, for a binary or categorical feature, the answers to offer.
- Answers are kept per column, so a column that comes back later in the list (a
  categorical feature contributes one stage per category, a numeric one may come back with
  a second threshold) is asked once; its later stages are answered from the first answer
  (:func:`advance`, :func:`stage_answers`).
- :func:`triage_steps` runs :func:`~psl_core.decision.triage_step` for every stage answered
  so far (:func:`psl_triage.plots.triage_figure` draws them).
- The words of the questions and answers are in :mod:`psl_triage.words.questions`; those of
  the decision model (the outcome, the headline, why the list stopped) in
  :mod:`psl_triage.words.decision`.
"""

from dataclasses import dataclass

from psl_core.binarization import BINARY, CATEGORY, Literal
from psl_core.decision import NOT_MEASURED, answer_for, triage_step
from psl_core.stopping import DEFAULT_TOLERANCE
from psl_triage.model_file.answers import answer_options
from psl_triage.words import questions as words
from psl_triage.words.questions import NOT_MEASURED_TEXT, UNKNOWN_AT_HAND_TEXT, UNKNOWN_TEXT


@dataclass(frozen=True)
class Question:
    """One stage of the list as the clinician sees it.

    Attributes
    ----------
    stage : int
        1..K, the stage this question answers first.
    column : str
        The input column.
    kind : {"numeric", "binary", "category"}
        How it is answered: a number, one of two values, one of several categories.
    label, unit : str
        Readable name and unit of the column ("Max heart rate", "bpm"; unit may be empty).
    condition : str
        The stage's condition in words ("Max heart rate > 147.5 bpm").
    points : int
        Points added when the condition holds.
    options : tuple of (raw value, text)
        The answers offered for a binary or categorical column, without "unknown";
        empty for a numeric one.
    literal : Literal
    """

    stage: int
    column: str
    kind: str
    label: str
    unit: str
    condition: str
    points: int
    options: tuple
    literal: Literal

    @property
    def prompt(self):
        """The question: "Max heart rate (bpm)", "Sex: male / female", "Chest pain type"."""
        if self.kind == BINARY:
            return words.prompt(self.label, self.unit, [text for _, text in self.options])
        return words.prompt(self.label, self.unit)

    @property
    def rule(self):
        """Condition and points: "Max heart rate > 147.5 bpm: −2 points"."""
        return words.rule(self.condition, self.points)

    @property
    def record_line(self):
        """Condition and points for the record: "Max heart rate > 147.5 bpm (−2 points)"."""
        return words.record_line(self.condition, self.points, missing_note(self.literal))

    @property
    def extra_answers(self):
        """The answers besides the values, as (raw, text): "unknown", and "not measured" when
        the list learned where a missing value goes (then "unknown" means not at hand)."""
        if not learned_direction(self.literal):
            return ((None, UNKNOWN_TEXT),)
        return ((None, UNKNOWN_AT_HAND_TEXT), (NOT_MEASURED, NOT_MEASURED_TEXT))

    @property
    def missing_rule(self):
        """What "not measured" does: "Not measured: counts as yes (−2 points)"; None without a
        learned direction."""
        if not learned_direction(self.literal):
            return None
        return words.missing_rule(self.literal.missing, self.points if self.literal.missing else 0)


def learned_direction(literal):
    """Whether the list learned where a missing answer to ``literal`` goes (from training
    rows with missing values)."""
    return literal.not_measured is not None


def missing_note(literal):
    """Where a missing answer goes, for the list's table: "missing: counts as yes"; "" unless
    the direction was learned from missing training values, or for a question whether the
    value is missing (its condition says it)."""
    if not learned_direction(literal) or literal.asks_missing:
        return ""
    return words.missing_note(literal.missing)


def build_questions(model, columns=None):
    """The questions of a fitted list, one per stage 1..K.

    Parameters
    ----------
    model : ProbabilisticScoringList
        Fitted.
    columns : dict or None
        Readable names per column, the ``"columns"`` entry of model metadata:
        ``{column: {"label", "unit", "kind", "category_labels"}}``. Missing entries fall
        back to the column name and, for a binary column, "yes" / "no".

    Returns
    -------
    list of Question
    """
    columns = columns or {}
    questions = []
    for stage, (literal, points) in enumerate(zip(model.literals_, model.scores_), start=1):
        info = columns.get(str(literal.column)) or {}
        labels = value_labels(literal, info)
        levels = [str(level) for level in info.get("levels") or ()]
        questions.append(
            Question(
                stage=stage,
                column=str(literal.column),
                kind=literal.kind,
                label=info.get("label") or str(literal.column),
                unit=info.get("unit") or "",
                condition=condition(literal, info),
                points=int(points),
                options=answer_options(literal, labels, model.literals_, levels),
                literal=literal,
            )
        )
    return questions


def value_labels(literal, info):
    """The readable names of a column's values (``info["category_labels"]``), none for a 0/1
    code named by its own digits: "Donor sex (male)" is asked yes / no, not "= 1"."""
    labels = {str(k): str(v) for k, v in (info.get("category_labels") or {}).items()}
    if literal.kind == BINARY and set(labels) <= {"0", "1"} and all(key == value for key, value in labels.items()):
        return {}
    return labels


def condition(literal, info=None):
    """A stage's condition in words (:meth:`psl_core.binarization.Literal.describe`), with the
    readable names of ``info`` (one column's entry of :func:`build_questions`'s ``columns``).
    A grouping of an ordered column's levels (``info["levels"]``) that is a run of two or more
    of them reads as a range: "Sleep: 7 hours or more", "Sleep: between 5 hours and 7 hours"."""
    info = info or {}
    labels = value_labels(literal, info)
    run, levels = _level_run(literal, [str(level) for level in info.get("levels") or ()])
    name = info.get("label") or str(literal.column)
    if run is not None:
        return words.level_range(name, [labels.get(level, level) for level in run],
                                 run[0] == levels[0], run[-1] == levels[-1])
    return literal.describe(info.get("label"), info.get("unit"), labels)


def _level_run(literal, levels):
    """The levels a grouping's yes answer covers, when they are two or more next to each other
    in ``levels`` (and not all of them); (None, levels) otherwise."""
    if literal.kind != CATEGORY or literal.categories is None or not levels:
        return None, levels
    grouped = {str(category) for category in literal.categories}
    if not grouped <= set(levels):
        return None, levels
    places = [i for i, level in enumerate(levels) if (level in grouped) != bool(literal.negated)]
    if len(places) < 2 or len(places) == len(levels) or places[-1] - places[0] + 1 != len(places):
        return None, levels
    return levels[places[0]: places[-1] + 1], levels


def answer_text(question, raw):
    """A raw answer in words: "152 bpm", "female", "unknown"."""
    if raw is None:
        return words.UNKNOWN_ANSWER
    if isinstance(raw, str) and raw == NOT_MEASURED:
        return words.NOT_MEASURED_ANSWER
    if question.options:
        return dict(question.options).get(raw, str(raw))
    return words.value_text(raw, question.unit)


def first_stage_of(questions, column):
    """Index (0-based) of the first question on ``column``; the stage where it is asked."""
    return next(i for i, q in enumerate(questions) if q.column == column)


def stage_answers(questions, answers, n_answered):
    """Raw answers and yes/no/unknown of stages 1..n_answered.

    Parameters
    ----------
    questions : list of Question
    answers : dict of str to object
        Raw answer per column (None = unknown / not measured).
    n_answered : int

    Returns
    -------
    raw : list
        The raw answer of each stage.
    holds : list of {True, False, None}
        Whether each stage's condition holds (None when unknown).
    """
    raw = [answers[q.column] for q in questions[:n_answered]]
    holds = [answer_for(q.literal, value) for q, value in zip(questions, raw)]
    return raw, holds


def advance(questions, answers, n_answered, halts):
    """Answer the next stages whose column is already answered, up to a stop.

    Parameters
    ----------
    questions : list of Question
    answers : dict of str to object
        Raw answer per column.
    n_answered : int
        Stages answered so far.
    halts : callable
        ``halts(n)`` is True when the triage stops after n answered stages.

    Returns
    -------
    int
        Stages answered: n_answered, plus every following stage on an answered column
        until one halts or a new column is to be asked.
    """
    n = n_answered
    while n < len(questions) and questions[n].column in answers and not halts(n):
        n += 1
    return n


def triage_steps(bands, questions, answers, n_answered, cost_ratio, basis, tolerance=DEFAULT_TOLERANCE,
                 change_value=None):
    """StepResults of stages 0..n_answered for the given answers."""
    _, holds = stage_answers(questions, answers, n_answered)
    return [
        triage_step(bands, holds[:k], cost_ratio, basis, n_stages=len(questions), tolerance=tolerance,
                    change_value=change_value)
        for k in range(n_answered + 1)
    ]


def recorded_answers(questions, answers, n_answered):
    """Each answered stage's answer for the record: "152 bpm (condition met)"; None = unknown.

    A stage answered from an earlier question on the same column says so.
    """
    raw, holds = stage_answers(questions, answers, n_answered)
    recorded = []
    for index, (question, value, holds_here) in enumerate(zip(questions, raw, holds)):
        if value is None:
            recorded.append(None)
            continue
        first = first_stage_of(questions, question.column)
        recorded.append(words.recorded_answer(answer_text(question, value), holds_here,
                                              first + 1 if first != index else None))
    return recorded
