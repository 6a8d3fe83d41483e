"""A fair shared server (issue 40, item 5): while one session runs a long Evaluation, another
that presses Train sees at once that it waits for that run and where the run stands, and then
the time its own fit took, not the wait."""

import re
import time

from playwright.sync_api import expect
from psl_flows import TRAIN_TIMEOUT_MS, expect_trained, go_to_demo_landing, start_training, train

N_SPLITS = 400


def test_a_queued_training_says_so_at_once_and_reports_its_own_time(new_app):
    evaluating, training = new_app(), new_app()
    go_to_demo_landing(evaluating)
    train(evaluating, max_stages=4)
    evaluating.navigate("Evaluation")
    splits = evaluating.widget("evaluation_splits").locator("input")
    splits.fill(str(N_SPLITS))
    splits.press("Enter")  # submits the form: the run starts
    bar = evaluating.page.get_by_test_id("stProgress")
    expect(bar).to_contain_text(f"of {N_SPLITS} splits done", timeout=TRAIN_TIMEOUT_MS)

    go_to_demo_landing(training)
    clicked = time.monotonic()
    start_training(training, max_stages=2)
    waiting = training.page.get_by_test_id("stProgress")
    expect(waiting).to_contain_text("Waiting: another session's evaluation is in progress", timeout=10_000)
    told = time.monotonic() - clicked
    expect(waiting).to_contain_text(re.compile(rf"\d+ of {N_SPLITS} splits done, running for"))
    expect(evaluating.page.get_by_test_id("stProgress")).to_contain_text("Done", timeout=600_000)
    expect_trained(training, expected_stages=2)
    waited = time.monotonic() - clicked
    fit = float(re.search(r"in ([0-9.]+) s", training.page.get_by_test_id("stProgress").inner_text())[1])
    print(f"told it waits after {told:.1f} s; trained after {waited:.1f} s; the fit's own time {fit:.1f} s")
    assert told < 10
    assert fit < waited / 2, (fit, waited)  # its own time, not the time behind the evaluation
    evaluating.assert_no_exception()
    training.assert_no_exception()
