"""The number formats every page shares (psl_triage.words.common)."""

from psl_triage.words import MINUS, level_text, m_equals, number_text, points_text, signed


def test_m_and_an_intervals_level_are_written_as_the_pages_write_them():
    assert m_equals(10.0) == "M = 10" and m_equals(2.5) == "M = 2.5"
    assert level_text(0.95) == "95%" and level_text(0.8) == "80%"


def test_negative_numbers_carry_a_true_minus_sign():
    assert signed(-2) == f"{MINUS}2" and signed(2) == "+2" and signed(0) == "0"
    assert number_text(-3) == f"{MINUS}3" and points_text(-1) == f"{MINUS}1 point"
