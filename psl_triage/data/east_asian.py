"""Text in a Chinese, Japanese or Korean encoding told from Windows-1252, where both read the bytes:
such a table is refused naming its encoding, not read as "ÄêÁä"."""

from __future__ import annotations

import codecs
import re

import charset_normalizer

from psl_core.errors import DataError
from psl_triage.words import reading as words

_EAST_ASIAN_ENCODINGS = frozenset(codecs.lookup(name).name for name in (
    "gb2312", "gbk", "gb18030", "hz", "big5", "big5hkscs", "cp950", "shift_jis", "cp932", "shift_jis_2004",
    "shift_jisx0213", "euc_jp", "euc_jis_2004", "euc_jisx0213", "iso2022_jp", "euc_kr", "cp949", "johab",
    "iso2022_kr"))
"""Chinese, Japanese and Korean encodings: two bytes beyond ASCII a character, which read as
Windows-1252 make "年龄" the column "ÄêÁä"."""
_MIN_GUESSED_BYTES = 16
"""Bytes beyond ASCII a guess of the encoding needs: a French header alone ("Âge;Décès", three)
reads as Big5 as well as Latin-1 to a guesser; sixteen (eight East Asian characters, or a table's
accented words) tell them apart."""


def refuse_east_asian(sample: bytes, filename: str) -> None:
    """Refuse a file whose lines that are not UTF-8 are, by their letters' statistics
    (charset_normalizer), in a Chinese, Japanese or Korean encoding, naming it; with fewer
    bytes than such statistics need, by the shape of its words (:func:`_east_asian_words`),
    without a name (a few words read alike in several)."""
    if len(sample.translate(None, _ASCII)) < _MIN_GUESSED_BYTES:  # the bytes beyond ASCII, counted in C
        if _east_asian_words(sample):
            raise DataError(words.east_asian_encoding(filename))
        return
    guess = charset_normalizer.from_bytes(sample).best()
    if guess is not None and codecs.lookup(guess.encoding).name in _EAST_ASIAN_ENCODINGS:
        raise DataError(words.east_asian_encoding(filename, guess.encoding))


_ASCII = bytes(range(128))
_SHORT_SAMPLE_ENCODINGS = ("gb18030", "big5", "shift_jis", "euc_jp", "euc_kr")
"""East Asian encodings a few words are read in (:func:`_east_asian_words`)."""


def _east_asian_words(sample: bytes) -> bool:
    """Whether the words of ``sample`` that hold bytes beyond ASCII (a header "年龄,性别": twelve
    bytes) are East Asian: one of :data:`_SHORT_SAMPLE_ENCODINGS` reads every such word as
    Han, kana or Hangul letters alone, two or more in each (names of one such letter are rare;
    two-letter Western words read as one: "Öl"). A Western word keeps a plain letter beside its
    accented ones in any such reading ("Âge": "翹e"; "Décès": "D閏鑣"), or is no valid sequence
    there ("Été")."""
    tokens = [token for token in re.split(rb"[\s,;|\"']+", sample) if any(byte > 127 for byte in token)]
    for encoding in _SHORT_SAMPLE_ENCODINGS:
        try:
            read = [token.decode(encoding) for token in tokens]
        except UnicodeDecodeError:
            continue
        if read and all(len(word) >= 2 and all(map(_east_asian_letter, word)) for word in read):
            return True
    return False


_EAST_ASIAN_LETTERS = ((0x3040, 0x30FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xAC00, 0xD7A3), (0xF900, 0xFAFF))
"""Code points of kana, Han ideographs (with extension A and the compatibility ones) and Hangul
syllables."""


def _east_asian_letter(character: str) -> bool:
    """Whether ``character`` is a Han ideograph, kana or Hangul syllable."""
    return any(low <= ord(character) <= high for low, high in _EAST_ASIAN_LETTERS)
