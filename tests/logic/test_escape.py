"""User text shown as text: the Markdown and plotly escapes of psl_triage.words."""

import re

from hypothesis import given
from hypothesis import strategies as st

from psl_core.names import INVISIBLE
from psl_triage.words import md, plotly_text, shown, visible

HOSTILE = [
    "![b](http://127.0.0.1:9/x.png)",
    "[click](javascript:alert(1))",
    "<img src=http://127.0.0.1:9/y.png>",
    "<script>alert(1)</script>",
    ":red[big] :material/home: :smile: $x^2$",
    "# heading\n- item\n1. item",
    "www.example.com http://example.com a@b.org",
    "**bold** _it_ `code` ~~gone~~ | a | b |",
]


@given(st.text())
def test_a_reader_sees_the_text_itself(text):
    """Every character as itself, but invisible ones as their code (white space as one space)."""
    visible = INVISIBLE.sub(lambda match: f"⟨U+{ord(match.group()):04X}⟩", text)
    assert shown(md(text)) == " ".join(visible.split())


def unescaped_punctuation(escaped):
    """The ASCII punctuation left once every backslash escape pair is taken out."""
    return re.findall(r"[!-/:-@\[-`{-~]", re.sub(r"\\.", "", escaped))


@given(st.text())
def test_no_markdown_character_stays_unescaped(text):
    assert unescaped_punctuation(md(text)) == []


def test_hostile_names_lose_their_markup():
    for text in HOSTILE:
        escaped = md(text)
        assert "\n" not in escaped and unescaped_punctuation(escaped) == []
        assert shown(escaped) == " ".join(text.split())


@given(st.text())
def test_plotly_text_has_no_tags(text):
    escaped = plotly_text(text)
    assert "<" not in escaped and ">" not in escaped
    assert escaped.replace("&#60;", "<").replace("&#62;", ">").replace("&#38;", "&") == visible(text)


def test_addresses_are_not_autolinked():
    for text in ("http://127.0.0.1:9/x", "HTTPS://host/x", "www.example.org", "nurse@example.org"):
        escaped = md(text).replace("\\", "")
        assert not re.search(r"(?i)https?://|www\.|@\w", escaped), escaped
        assert shown(md(text)) == text


def test_the_triage_figure_shows_stage_labels_as_text():
    from psl_core.decision import StepResult
    from psl_triage.plots import triage_figure

    steps = [StepResult(stage=k, totals=[0], probability_low=0.2, probability_high=0.2, lower=0.1, upper=0.3,
                        threshold=0.5, outcome="uncertain", action="positive", stop_reason=None, expected_loss=0.2)
             for k in range(2)]
    figure = triage_figure(steps, 0.5, stage_labels=["Start", '<a href="http://127.0.0.1:9/x">Q1</a>'])
    assert "<" not in "".join(figure.layout.xaxis.ticktext)


def test_invisible_and_direction_characters_are_shown_by_their_code():
    assert md("m\u200b") == "m⟨U\\+200B⟩"
    assert shown(md("\u202eega")) == "⟨U+202E⟩ega"
    assert shown(md("m")) != shown(md("m\u200b"))


def test_widget_labels_escape_only_what_builds_markdown():
    """Issue 26, item 10: labels are read to screen readers as given, backslashes included."""
    from psl_triage.words import label_md

    plain = ["ct_result", "patient_no (mm)", "Time: 5", "ST depression > 1.4 mm", "a-b.c, d/e 50 %", "O'Brien \"x\""]
    for name in plain:
        assert label_md(name) == name
    hostile = ["![b](http://h/x.png)", ":red[x]", "a:smile:", "_x_", "*x*", "`x`", "~~x~~", "$x$", "<b>x</b>",
               "&lt;", "1. first", "- item", "# title", "a\\b", "[link](http://h)"]
    for name in hostile:
        label = label_md(name)
        assert shown(label) == name, name
        for syntax in ("![", "](", ":red[", ":smile:", "_x_", "*x*", "`x`", "~~", "$x", "<b>", "&lt", "[link"):
            assert syntax not in label.replace("\\" + syntax[:1], ""), (name, label)
    assert label_md("1. first").startswith("1\\.") and label_md("- item").startswith("\\-")
