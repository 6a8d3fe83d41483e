"""The number formats every page shares (psl_triage.words.common)."""

from psl_triage.words import MINUS, level_text, m_equals, number_text, points_text, signed
from tests.paths import ROOT


def test_m_and_an_intervals_level_are_written_as_the_pages_write_them():
    assert m_equals(10.0) == "M = 10" and m_equals(2.5) == "M = 2.5"
    assert level_text(0.95) == "95%" and level_text(0.8) == "80%"


def test_negative_numbers_carry_a_true_minus_sign():
    assert signed(-2) == f"{MINUS}2" and signed(2) == "+2" and signed(0) == "0"
    assert number_text(-3) == f"{MINUS}3" and points_text(-1) == f"{MINUS}1 point"


def test_counts_take_a_singular_or_plural_noun_never_a_bracketed_s():
    from types import SimpleNamespace

    from psl_triage.words import calibration, triage
    from psl_triage.words.common import first_questions, plural

    assert plural(1, "answer") == "1 answer" and plural(4, "feature") == "4 features"
    assert plural(0, "answer") == "0 answers" and plural(2, "patient", "patients") == "2 patients"
    assert first_questions(1) == "the first question" and first_questions(3, "its") == "its first 3 questions"
    step = SimpleNamespace(totals=[0, 1])
    assert "1 answer unknown" in triage.unknown_note(1, step)
    assert "2 answers unknown" in triage.unknown_note(2, step)
    rows = next(iter(calibration.ROWS))
    assert "after 4 features," in calibration.outcome_by_total(rows, 4)
    assert "after 1 feature," in calibration.outcome_by_total(rows, 1)
    reason = "No answers to the remaining questions can change this outcome."
    said = triage.passed_stop(reason)
    assert f"({reason})" not in said and f"The list would stop here. {reason} You chose" in said
    assert "(s)" not in "".join([triage.unknown_note(1, step), calibration.outcome_by_total(rows, 1)])


def test_a_count_and_its_verb_agree():
    from types import SimpleNamespace

    import numpy as np

    from psl_triage.words import lists, preparing, site, train, triage
    from psl_triage.words.common import counted

    assert counted(1, "row", "was", "were") == "1 row was" and counted(3, "row", "was", "were") == "3 rows were"
    assert preparing.dropped_without_time(1, "time") == "1 row was dropped: no follow-up time in 'time'."
    assert site.left_out_without_time(1, "time") == "Left out 1 row without a follow-up time in 'time'."
    one = lists.horizon_sentence({"n": 5, "events": 2, "beyond": 1, "censored": 1}, "5 years", "20 %")
    assert "1 patient was followed beyond it and 1 patient was censored before it" in one
    assert "The list does not guess it: it shows every total it allows" in triage.unknown_note(1, SimpleNamespace(totals=[0, 1]))
    model = SimpleNamespace(validation_brier_=np.array([0.2, 0.19]), recommended_stages_=1)
    assert "weigh whether 1 question is worth asking" in train.small_gain_text(model)


def test_every_count_in_the_words_uses_the_one_plural_helper():
    """No hand-made "(s)" or "'' if n == 1 else 's'" is left in the words or the ui."""
    import re

    from psl_triage.words.evaluation import splits_done
    from psl_triage.words.report import length_note, risk_after, threshold_box

    for path in [*(ROOT / "psl_triage" / "words").glob("*.py"), *(ROOT / "ui").glob("*.py")]:
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"\w\(s\)", text), path.name
        assert not re.search(r"if \S+ == 1 else .s.", text), path.name
    assert risk_after(1) == "Risk after 1 question" and splits_done(1, 1) == "1 of 1 split done"
    assert length_note(1, 5, False) == " · the first of its 5 questions"
    assert length_note(3, 5, True) == " · the first 3 of its 5 questions (the recommended length)"
    assert "1 false\nalarm)" in threshold_box(1, 0.5) and "2 false\nalarms)" in threshold_box(2, 1 / 3)


def test_a_share_of_rows_has_one_format_and_a_probability_another():
    """Shares of rows ("12 %", a space before the sign) come from share/share_of; the data
    package's notes, roles' evidence and the follow-up sentence used three private copies."""
    from psl_triage.words.common import percent, share, share_of

    assert share(0.123) == "12 %" and share(0.123, 1) == "12.3 %"
    assert share_of(3, 7, 1) == "42.9 %" and share_of(0, 0, 1) == "0.0 %" and share_of(0, 0) == "0 %"
    assert percent(0.123) == "12.3%"


def test_the_words_keep_no_private_percent_formatter():
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    private = [
        f"{path.relative_to(root)}:{node.name}"
        for folder in ("psl_triage", "ui")
        for path in sorted((root / folder).rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef) and node.name in {"_percent", "_share", "_pct"}
    ]
    assert private == []


def inline_copies(pattern):
    """The lines of the app's code outside words.common that match ``pattern``."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    return [
        f"{path.relative_to(root)}:{number}"
        for folder in ("psl_triage", "ui", "pages")
        for path in sorted((root / folder).rglob("*.py"))
        if path.name != "common.py"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if re.search(pattern, line)
    ]


def test_m_and_an_intervals_level_are_written_by_their_helpers_only():
    """ "M = {x:g}" and "{level:.0%} interval" inline in a sentence would be a second home of
    the format: every place calls m_equals / level_text (words.common keeps the one copy)."""
    assert inline_copies(r"M = \{[^}]*:g\}|\{[^}]*confidence[^}]*:\.0%\}") == []


def test_a_share_is_never_formatted_inline():
    """ "{100 * x:.1f} %" inline is a second copy of share(): report, validate, sample_size and
    lists wrote it so, and the card wrote the threshold "20.0 %" where every page says "20.0%"."""
    assert inline_copies(r":\.[0-9]f\} %") == []


def test_a_list_of_one_question_is_never_said_to_have_1_questions():
    """The model report of a list reported at its recommended first question said "reported
    at 1 questions" and "at 1 questions" (openintro/gss2010.csv, degree as the one question)."""
    from psl_triage.words import evaluation, evidence, report

    said = [
        report.development(1, "sigmoid", "cv_brier", (-1, 1), "sidak", 1, True),
        evidence.held_out_source(100, 0.33, 1),
        evidence.horizon_source(20, 1),
        evidence.site_patients("site", 40, 1),
        evaluation.held_out_patients(40, 1),
    ]
    for text in said:
        assert "1 questions" not in text and "1 question" in text, text
    assert "at 3 questions" in evidence.held_out_source(100, 0.33, 3)


def test_a_site_without_complete_answers_at_the_first_question_is_not_sent_earlier():
    """A horizon list judged at its first question on a site where nobody answers it said
    "all of the first 1 questions ... judge an earlier stage" (there is none)."""
    from psl_triage.words.site import no_complete_answers

    first = no_complete_answers(1)
    assert "the first question" in first and "1 questions" not in first and "earlier stage" not in first
    assert "all of the first 3 questions" in no_complete_answers(3) and "earlier stage" in no_complete_answers(3)
