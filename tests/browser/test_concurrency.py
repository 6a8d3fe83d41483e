"""Ten sessions at once against one server: each trains its own list, saves it, and triages.

One browser, one context (a separate Streamlit session) per simulated user. The sessions are
driven interleaved: an action is sent to every session before any is waited for, so the
server runs all ten scripts (ten trainings, ten saves, ten triage steps) at the same time.
Every session must show the results psl_core computes for its own options and answers.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import expect
from psl_flows import (
    AnswerPolicy,
    answer,
    demo,
    demo_model,
    expect_cost_ratio,
    expect_trained,
    expect_triage_state,
    expected_triage,
    go_to_demo_landing,
    set_cost_ratio,
    start_training,
)

from psl_triage.bedside.session import TriageSession
from psl_triage.model_file.store import load_model

N_SESSIONS = 10
COST_RATIO = 1.0
MODEL_NAME = "Concurrency check"  # the same name for all: concurrent saves must get distinct versions
MAX_QUESTIONS = 30
# Which asked questions (0-based) each session answers "unknown"; with the demo's lists these
# paths end confident positive, confident negative and uncertain, and some answer a number
# "unknown" (its checkbox) while others type it.
UNKNOWN_AT = [frozenset(s) for s in ({0}, {0, 1}, {0}, {1}, {0}, {0, 1}, {0}, {1}, {0}, {0, 1})]

pytestmark = pytest.mark.slow


@dataclass
class Session:
    number: int
    app: object
    max_stages: int
    seed: int
    policy: AnswerPolicy
    path: Path | None = None
    version: int | None = None
    expected: TriageSession | None = None


def read_save_message(session: Session) -> None:
    app = session.app
    app.wait_idle()
    saved = app.alerts("success").filter(has_text="Saved as")
    expect(saved).to_be_visible()
    match = re.search(r"Saved as (\S+\.json) \(version (\d+)\) in (.+?)\.?$", saved.inner_text().strip())
    assert match, f"session {session.number}: unexpected save message {saved.inner_text()!r}"
    session.path, session.version = Path(match[3]) / match[1], int(match[2])


def test_ten_sessions_train_save_and_triage_at_once_each_with_its_own_result(new_app, streamlit_server):
    df, _ = demo()
    sessions = [
        Session(
            number=i,
            app=new_app(),
            max_stages=3 + i,  # a different list length per session: its signature
            seed=i % 5,
            policy=AnswerPolicy(patient=df.iloc[i].to_dict(), unknown_at=UNKNOWN_AT[i], option=i % 2),
        )
        for i in range(N_SESSIONS)
    ]
    expected = {s.number: demo_model(max_stages=s.max_stages, seed=s.seed) for s in sessions}

    # Every step below first acts in all sessions, then waits for and checks each one.
    for s in sessions:
        s.app.page.goto(streamlit_server, wait_until="commit")  # loads in parallel
    for s in sessions:
        go_to_demo_landing(s.app, reload=False)
    train_all(sessions, expected)
    save_all(sessions, expected)
    triage_all(sessions)
    check_after_return(sessions)


def train_all(sessions: list[Session], expected: dict) -> None:
    """Ten trainings at once."""
    for s in sessions:
        s.app.navigate("Train", wait=False)
    for s in sessions:
        s.app.wait_idle()
        start_training(s.app, max_stages=s.max_stages, seed=s.seed, navigate=False)
    for s in sessions:
        model, _ = expected[s.number]
        expect_trained(s.app, expected_stages=model.n_stages_ - 1)


def save_all(sessions: list[Session], expected: dict) -> None:
    """Ten saves at once, under one name: ten distinct versions, each file the session's own list."""
    for s in sessions:
        name = s.app.widget("w_train_model_name").locator("input")
        name.fill(MODEL_NAME)
        name.press("Enter")
    for s in sessions:
        s.app.wait_idle()
        s.app.widget("w_train_save").get_by_role("button").click()
    for s in sessions:
        read_save_message(s)
    assert len({s.path for s in sessions}) == N_SESSIONS, "two sessions were told the same file"
    assert len({s.version for s in sessions}) == N_SESSIONS
    for s in sessions:
        stored = json.loads(load_model(s.path).to_json())
        model, _ = expected[s.number]
        trained = json.loads(model.to_json())
        assert stored["stages"] == trained["stages"], (
            f"session {s.number}: the saved file is not the list trained with its options")
        assert stored["calibration"] == trained["calibration"]
        stored_model = load_model(s.path)
        s.expected = expected_triage(stored_model, stored_model.metadata_, COST_RATIO)


def triage_all(sessions: list[Session]) -> None:
    """Ten triages at once, one question at a time in every session."""
    for s in sessions:
        s.app.navigate("Triage", wait=False)
    for s in sessions:
        s.app.wait_idle()
        set_cost_ratio(s.app, COST_RATIO)
    for s in sessions:
        expect_cost_ratio(s.app, COST_RATIO)
        caption = rf"{re.escape(MODEL_NAME)} \(version {s.version}\): {s.expected.settings.length} of {len(s.expected.all_questions)} questions"
        expect(s.app.page.get_by_text(re.compile(caption))).to_be_visible()
        expect_triage_state(s.app, s.expected)
    for _ in range(MAX_QUESTIONS):
        running = [s for s in sessions if not s.expected.halted]
        if not running:
            break
        for s in running:
            question = s.expected.next_question
            raw = s.policy.choose(question)
            answer(s.app, question, raw, wait=False)
            s.expected.answer(raw)
        for s in running:
            s.app.wait_idle()
            expect_triage_state(s.app, s.expected)
    else:
        pytest.fail(f"some triage did not stop within {MAX_QUESTIONS} questions")


def check_after_return(sessions: list[Session]) -> None:
    """Each session still holds its own triage after all the others finished: leave the page,
    come back (a rerun from the session's state) and read it again, with its record."""
    for s in sessions:
        s.app.navigate("Train", wait=False)
    for s in sessions:
        s.app.wait_idle()
        s.app.navigate("Triage", wait=False)
    for s in sessions:
        s.app.wait_idle()
        expect_triage_state(s.app, s.expected)
        record = s.app.page.get_by_test_id("stCode").filter(has_text="PSL Triage record")
        expect(record).to_contain_text(f"{MODEL_NAME} (version {s.version})")
        for number, (question, answer_text) in enumerate(s.expected.recorded(), start=1):
            expect(record).to_contain_text(f"{number}. {question}: {answer_text}")
        assert s.app.page_errors == [], f"session {s.number}: JavaScript errors {s.app.page_errors}"
