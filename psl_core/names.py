"""Text read from files: readable characters, and names that cannot be told apart.

A model file or a table is made by someone else. Two checks keep its text from breaking
the display or misleading a reader:

- :func:`unreadable_character` finds a character that cannot be shown: a lone surrogate
  (``"\\ud800"``, which no encoder writes: one such name once crashed the app for every
  session) or a control character other than tab, line feed and carriage return.
- :func:`clean_name` and :func:`look_alike_key` serve names: a name is normalised (NFC) and
  loses its invisible and direction-control characters (``"m\\u200b"`` shows as ``"m"``,
  ``"\\u202eega"`` as ``"ega"``); two names whose :func:`look_alike_key` is equal look the
  same when shown and must not both be offered (:func:`look_alike_pairs`).

Pure functions of text; no sentences for the app.
"""

import re
import unicodedata
from collections.abc import Iterable

# C0 and C1 controls except tab, line feed and carriage return; surrogates; the two
# noncharacters of the Basic Multilingual Plane that some decoders produce from garbage.
UNREADABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")
# Characters that draw nothing or reorder what follows: Unicode's format characters (zero
# widths, joiners, soft hyphen, byte-order mark, the bidirectional embeddings, overrides and
# isolates, invisible operators), the combining grapheme joiner, variation selectors and
# the Hangul fillers and the blank Braille pattern, which render as blank space.
INVISIBLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
    "\u2060-\u206f\u2800\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb]|[\U000e0000-\U000e0fff]"
)
# Letters of other scripts drawn like Latin ones (Unicode's confusables.txt, the letters that
# appear in column names and category values): compared as the Latin letter.
_LATIN_LOOK_ALIKES = str.maketrans(
    "АВЕЗІЈКМНОРСТХУЬаеіјорсухѕԁԛԝΑΒΕΖΗΙΚΜΝΟΡΤΥΧονρ",
    "ABE3IJKMHOPCTXYbaeijopcyxsdqwABEZHIKMNOPTYXovp",
)


def unreadable_character(text: str) -> str | None:
    """The first character of ``text`` that cannot be shown, or None.

    A lone surrogate, a control character other than tab, line feed and carriage return, or
    U+FFFE / U+FFFF.
    """
    match = UNREADABLE.search(text)
    return None if match is None else match.group()


def describe_character(character: str) -> str:
    """``U+200B (ZERO WIDTH SPACE)``: a character named so a reader can find it."""
    name = unicodedata.name(character, "")
    if not name and "\ud800" <= character <= "\udfff":
        name = "a lone surrogate"
    elif not name and unicodedata.category(character) == "Cc":
        name = "a control character"
    return f"U+{ord(character):04X}" + (f" ({name})" if name else "")


def clean_name(text: str) -> str:
    """``text`` in Unicode's composed form (NFC), without invisible or direction-control
    characters, and without surrounding white space."""
    return INVISIBLE.sub("", unicodedata.normalize("NFC", text)).strip()


def look_alike_key(text: str) -> str:
    """What ``text`` looks like when shown: equal keys, names a reader cannot tell apart.

    Compatibility forms folded (NFKC: full-width letters, ligatures), invisible characters
    dropped, runs of white space as one space, and Cyrillic and Greek letters drawn like
    Latin ones read as those.
    """
    folded = unicodedata.normalize("NFKC", INVISIBLE.sub("", text))
    return " ".join(folded.translate(_LATIN_LOOK_ALIKES).split())


def look_alike_pairs(names: Iterable[object]) -> list[tuple[object, object]]:
    """Pairs of distinct names of ``names`` that look alike (:func:`look_alike_key`), first
    met first; a name equal to an earlier one is not a pair (repeats are another problem)."""
    first: dict[str, object] = {}
    pairs = []
    for name in names:
        key = look_alike_key(str(name))
        if key in first and first[key] != name:
            pairs.append((first[key], name))
        first.setdefault(key, name)
    return pairs
