"""One triage of one patient with one scoring list, without Streamlit: the Triage page's state.

The clinician answers the list's questions one at a time. A column is asked once: a later
stage on an answered column takes that answer (:func:`psl_triage.bedside.questions.advance`). After
every answer the session knows the total(s), the probability with its interval, the decision
and whether the list stops (:func:`psl_core.decision.triage_step`); "Continue anyway" passes a
stop, "Change the last answer" takes the last answer back, "Restart" empties it all. An
answer is a raw value: a number, a category, ``None`` for unknown (the value exists but is
not at hand) or :data:`psl_core.decision.NOT_MEASURED` (the test was not done).

The page keeps one :class:`TriageSession` in the session state (``state_keys.TRIAGE``), makes a
new one when another list is chosen, hands it the settings on every run
(:meth:`TriageSession.configure`) and renders what it says. The browser tests check the page
against the same class.
"""

from __future__ import annotations

from dataclasses import dataclass

from psl_core.binarization import NUMERIC
from psl_core.cost_ratio import decision_threshold
from psl_core.decision import NOT_MEASURED, StageBands, StepResult, triage_step
from psl_core.recommend import base_rate_stages
from psl_core.stopping import DEFAULT_TOLERANCE
from psl_triage.bedside.questions import (
    Question,
    advance,
    build_questions,
    first_stage_of,
    recorded_answers,
    stage_answers,
    triage_steps,
)
from psl_triage.bedside.record import triage_record
from psl_triage.model_file.metadata import ModelMetadata
from psl_triage.words import triage as words


@dataclass(frozen=True)
class TriageSettings:
    """How the list decides and when it stops (the Triage page's settings).

    Parameters
    ----------
    cost_ratio : float
        M, the cost of a missed case relative to a false alarm (threshold 1/(1+M)).
    confidence : float
        Level of the intervals.
    basis : {"upper", "point"}
        Decide on the interval's upper bound (risk-averse) or on the point estimate.
    tolerance : float
        The stop rule's share of training patients whose outcome still changed.
    change_value : float or None
        For a list with question costs: the value of a changed outcome; None without costs.
    length : int or None
        Questions to ask (the first ``length`` of the list); None for the whole list.
    """

    cost_ratio: float = 10.0
    confidence: float = 0.95
    basis: str = "upper"
    tolerance: float = DEFAULT_TOLERANCE
    change_value: float | None = None
    length: int | None = None


def recommended_length(model) -> int:
    """Questions asked by default, the one rule for the Triage page, the card, the report and
    the evidence: the recommended number, 0 included (held-out patients showed no question
    beats the base rate: every patient gets the base-rate risk, as
    :func:`psl_core.decision.decision_range` and the evaluation's bedside rule read it), else
    (no recommendation, or more than the list holds) the whole list."""
    full = len(model.literals_)
    recommended = model.recommended_stages_
    return recommended if recommended is not None and 0 <= recommended < full else full


class TriageSession:
    """The answers given to one list, in the order asked, and where the triage stands.

    Parameters
    ----------
    model : ProbabilisticScoringList
        The list the answers belong to; another list needs a new session.
    metadata : ModelMetadata, dict or None
        The list's model-file metadata (readable column names, class names, cost unit).
    name, version : str
        The list's name and version, for the record.
    settings : TriageSettings

    Attributes
    ----------
    answers : dict of str to object
        Raw answer per column, in the order asked.
    stage : int
        Stages answered so far (asked, or taken from an earlier answer on the same column).
    passed : set of int
        The stages whose stop "Continue anyway" passed; the list still stops at the next stop.
    input_error : str or None
        Why the last answer given through :meth:`submit` was not accepted.
    """

    def __init__(self, model, metadata=None, name: str = "", version: str = "",
                 settings: TriageSettings | None = None):
        self.model = model
        self.metadata = ModelMetadata.coerce(metadata)
        self.name, self.version = name, version
        self.settings = settings or TriageSettings()
        self._bands: tuple[float, StageBands] | None = None
        self._questions: tuple[dict, list[Question]] | None = None
        self.restart()

    # ------------------------------------------------------------------ the list and settings

    def belongs_to(self, model) -> bool:
        """Whether the answers belong to ``model`` (the very same fitted list)."""
        return model is self.model

    @property
    def all_questions(self) -> list[Question]:
        """Every question of the list (built once per set of readable column names)."""
        columns = self.metadata.readable_columns()
        if self._questions is None or self._questions[0] != columns:
            self._questions = (columns, build_questions(self.model, columns))
        return self._questions[1]

    @property
    def questions(self) -> list[Question]:
        """The questions asked with the current settings (the first ``length``)."""
        return self.all_questions[: self.settings.length]

    @property
    def bands(self) -> StageBands:
        """The list's derived tables (intervals, outcomes, stop statistics) at the confidence
        of the settings, computed once per confidence."""
        confidence = self.settings.confidence
        if self._bands is None or self._bands[0] != confidence:
            self._bands = (confidence, StageBands(self.model, confidence))
        return self._bands[1]

    @property
    def class_labels(self) -> tuple[str, str]:
        """(positive, negative): the names of the classes as the Data page named them."""
        return self.metadata.class_names

    @property
    def cost_unit(self) -> str:
        return self.metadata.cost_unit or ""

    @property
    def threshold(self) -> float:
        """The decision threshold 1/(1+M) of the settings."""
        return decision_threshold(self.settings.cost_ratio)

    @property
    def has_statistics(self) -> bool:
        """Whether the list carries how often more questions changed the outcome (lists saved
        before it did stop as soon as a patient is ruled in or out)."""
        return getattr(self.model, "stop_statistics_", None) is not None

    @property
    def has_costs(self) -> bool:
        return self.settings.change_value is not None

    def configure(self, settings: TriageSettings) -> None:
        """Decide with ``settings`` from now on; the answers stay and the stages they allow
        are taken up to the next stop."""
        self.settings = settings
        self._advance(min(self.stage, len(self.questions)))

    # -------------------------------------------------------------------------- the answers

    def restart(self) -> None:
        """Forget every answer and passed stop."""
        self.answers: dict = {}
        self.stage = 0
        self.passed: set[int] = set()
        self.input_error: str | None = None

    def answer(self, raw, question: Question | None = None) -> None:
        """Answer ``question`` (by default the one asked, :attr:`next_question`) with ``raw`` and
        move on from its stage (a form sent twice answers its own question twice, not the next)."""
        question = question or self.next_question
        if question is None:
            raise ValueError("the triage has stopped: there is no question to answer")
        self.answers[question.column] = raw
        self.input_error = None
        self._advance(question.stage)

    def submit(self, question: Question, value, ticked=()) -> bool:
        """Answer ``question`` with what its widget holds; False (and :attr:`input_error` says
        why) when it holds no answer or two.

        Parameters
        ----------
        question : Question
            The question the widget asked.
        value
            A number question's number (None when empty), or the index of a choice among the
            options followed by the extra answers ("unknown", "not measured").
        ticked : sequence
            The raw extra answers (None, NOT_MEASURED) whose box is ticked (number questions).
        """
        extras = question.extra_answers
        if question.kind == NUMERIC:
            if len(ticked) + (value is not None) != 1:
                self.input_error = words.number_answer_error(extras, given=bool(ticked) or value is not None)
                return False
            raw = ticked[0] if ticked else float(value)
        elif value is None:
            self.input_error = words.choice_answer_error(extras)
            return False
        else:
            n = len(question.options)
            raw = extras[value - n][0] if value >= n else question.options[value][0]
        self.answer(raw, question)
        return True

    def undo(self) -> tuple[Question, object]:
        """Take back the last answer: its question is asked again. Returns that question and
        the raw answer taken back (the page shows it as the starting value)."""
        column = next(reversed(self.answers))
        raw = self.answers.pop(column)
        self.stage = first_stage_of(self.questions, column)
        self.passed = {stage for stage in self.passed if stage <= self.stage}
        self.input_error = None
        return self.questions[self.stage], raw

    @staticmethod
    def widget_value(question: Question, raw) -> tuple[object, tuple]:
        """What ``question``'s widget holds for the raw answer ``raw``, as :meth:`submit` reads
        it (its inverse): a number question's (number or None, ticked extra answers), a choice
        question's (index among the options followed by the extra answers, ())."""
        if question.kind == NUMERIC:
            return (None, (raw,)) if raw is None or isinstance(raw, str) else (float(raw), ())
        return [option for option, _ in (*question.options, *question.extra_answers)].index(raw), ()

    def continue_anyway(self) -> None:
        """Pass the current stop; the list stops again at its next stop."""
        self.passed = self.passed | {self.stage}
        self._advance(self.stage)

    def _halts(self, n_answered: int) -> bool:
        if n_answered in self.passed:
            return False
        _, holds = stage_answers(self.questions, self.answers, n_answered)
        return self._step(holds).stop_reason is not None

    def _advance(self, n_answered: int) -> None:
        self.stage = advance(self.questions, self.answers, n_answered, self._halts)

    def _step(self, holds) -> StepResult:
        s = self.settings
        return triage_step(self.bands, holds, s.cost_ratio, s.basis, n_stages=len(self.questions),
                           tolerance=s.tolerance, change_value=s.change_value)

    # ------------------------------------------------------------------- where it stands

    @property
    def raw_answers(self) -> list:
        """The raw answer of each answered stage."""
        return stage_answers(self.questions, self.answers, self.stage)[0]

    @property
    def holds(self) -> list:
        """Whether each answered stage's condition holds (None when unknown)."""
        return stage_answers(self.questions, self.answers, self.stage)[1]

    @property
    def steps(self) -> list[StepResult]:
        """Where the triage stood before the first question and after each answered stage."""
        s = self.settings
        return triage_steps(self.bands, self.questions, self.answers, self.stage, s.cost_ratio, s.basis,
                            s.tolerance, s.change_value)

    @property
    def current(self) -> StepResult:
        """Total(s), probability, interval, outcome and stop reason after the answers so far."""
        return self._step(self.holds)

    def held_at_base_rate(self) -> tuple[int, int | None] | None:
        """When the answers so far cannot move the risk off the base rate: the list's
        probabilities at the stage reached are pulled all the way to it (``shrinkage_`` 0, its
        internal cross-validation found a score that short no better than the base rate on
        held-out patients). (that stage, the first later stage asked whose points count, or
        None); None before the first answer, when the points count here, and for a list that
        recommends no question at all (the page's warning says so once).
        """
        held, stage = base_rate_stages(getattr(self.model, "shrinkage_", None)), self.stage
        if stage not in held or self.model.recommended_stages_ == 0:
            return None
        return stage, next((k for k in range(stage + 1, len(self.questions) + 1) if k not in held), None)

    @property
    def passed_here(self) -> bool:
        """Whether the clinician passed the stop at the current stage."""
        return self.stage in self.passed

    @property
    def halted(self) -> bool:
        """Whether the list asks no more: it stops here (not passed) or every question is answered."""
        stopped = self.current.stop_reason is not None and not self.passed_here
        return stopped or self.stage == len(self.questions)

    @property
    def next_question(self) -> Question | None:
        """The question to ask now; None once the list has stopped."""
        return None if self.halted else self.questions[self.stage]

    @property
    def spent(self) -> float:
        """What the questions answered so far cost (0 for a list without costs)."""
        return spent(self.bands.costs, self.holds, self.raw_answers)

    def recorded(self) -> list[tuple[str, str]]:
        """(the question's record line, the answer in words) of every answered stage."""
        return [
            (question.record_line, "unknown" if answer is None else answer)
            for question, answer in zip(self.questions, self.recorded_answers())
        ]

    def recorded_answers(self) -> list[str | None]:
        """Each answered stage's answer for the record: "152 bpm (condition met)"; None = unknown."""
        return recorded_answers(self.questions, self.answers, self.stage)

    def record(self) -> dict:
        """The record of this triage for the patient's notes (:func:`psl_triage.bedside.record.triage_record`)."""
        s = self.settings
        costs = None
        if self.has_costs:
            costs = {"unit": self.cost_unit, "change_value": s.change_value, "spent": self.spent}
        return triage_record(
            self.name, self.version, [q.record_line for q in self.questions[: self.stage]], self.recorded_answers(),
            self.steps, s.cost_ratio, s.confidence, s.basis, s.tolerance, self.class_labels, costs=costs,
        )


def spent(costs, holds, raw=None) -> float:
    """What the questions asked so far cost: the stage costs (shape (K,)) of the answered
    stages, except those answered "unknown" or "not measured" (nothing was done for them;
    ``raw``, the stages' raw answers, tells "not measured" apart from an answer that holds)."""
    if costs is None:
        return 0.0
    done = [answer is not None for answer in holds]
    if raw is not None:
        done = [paid and not (isinstance(value, str) and value == NOT_MEASURED) for paid, value in zip(done, raw)]
    return float(sum(cost for cost, paid in zip(costs, done) if paid))
