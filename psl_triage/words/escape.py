"""Names from files shown as text: never read as Markdown by Streamlit, nor as HTML by plotly.

Column names, category values, class labels, file names, model and dataset names and
everything read from a model file come from whoever made the file. Shown raw, a column
named ``![x](http://host/x.png)`` makes every viewer's browser fetch that address, and
``**``, ``_`` or ``:red[...]`` change how a page reads. Two escapes, applied where such a
string meets a renderer:

- :func:`md` for everything Streamlit renders as Markdown: ``st.markdown``, ``st.caption``,
  ``st.info``/``success``/``warning``/``error``, headings, ``st.metric`` labels, ``st.table``
  cells, and the labels of every widget and button, the options of ``st.radio``,
  ``st.segmented_control`` and ``st.pills`` (Streamlit renders those as Markdown, images and
  links included). Not for plain-text elements, which would then show the backslashes:
  ``st.dataframe`` cells and headers, ``st.code``, ``st.text``, the options of
  ``st.selectbox`` and ``st.multiselect``, the value of a text input.
- :func:`plotly_text` for text in a plotly figure (titles, tick labels, trace names, hover
  text, annotations), where plotly renders a subset of HTML, links included.
"""

import re
from html import escape

from psl_core.names import INVISIBLE

# CommonMark lets a backslash escape any ASCII punctuation character, which then shows as
# itself. Escaping all of them covers Markdown's syntax (emphasis, links, images, code,
# headings, lists, tables), raw HTML, autolinks in angle brackets and
# Streamlit's additions: colored text and icons (":red[...]", ":material/...:"), emoji
# short codes (":smile:") and LaTeX ("$...$").
_MARKDOWN_SPECIAL = re.compile(r"([!-/:-@\[-`{-~])")
# GitHub's literal autolinks ("http://...", "www....", "a@b.org") are found in the text after
# the escapes are read, so escaping cannot stop them: an invisible WORD JOINER after "http:",
# "www" and "@" breaks their patterns without changing what a reader sees.
_AUTOLINK_START = re.compile(r"(?i)(:(?=/)|\bwww(?=\.)|@)")
WORD_JOINER = "\u2060"
# Numeric character references: plotly decodes those (its list of named entities is short).
_ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")
_HTML_SPECIAL = {"&": "&#38;", "<": "&#60;", ">": "&#62;"}


def visible(value):
    """``str(value)`` with invisible and direction-control characters shown as their code
    (``m\u200b`` as ``m⟨U+200B⟩``): for plain-text places such as a select box's options,
    where a direction override would reverse the rest of the line."""
    return INVISIBLE.sub(lambda match: f"⟨U+{ord(match.group()):04X}⟩", str(value))


def md(value):
    """``value`` as Markdown source that renders as exactly its text.

    Any object is shown as ``str(value)``. Runs of white space, line breaks included,
    become one space: a name is one line, and a line break could start a Markdown block.
    Invisible and direction-control characters are shown as their code (``m\u200b`` as
    ``m⟨U+200B⟩``), so two names that differ only in them do not look the same (names from
    tables lose them at upload; a model file's may hold them). Web and e-mail addresses get
    an invisible word joiner, so they are not made links.

    For example ``md("![b](http://h/x.png)")`` is ``\\!\\[b\\]\\(http\\:\\/\\/h\\/x\\.png\\)``.
    """
    text = _AUTOLINK_START.sub(rf"\1{WORD_JOINER}", " ".join(visible(value).split()))
    return _MARKDOWN_SPECIAL.sub(r"\\\1", text)


# In a widget's label only these build Markdown (Streamlit renders a label's Markdown, images
# and links included, but unwraps headings, lists, tables and quotes): brackets (links, images,
# ":red[...]"), code, emphasis, strikethrough, LaTeX, HTML and entities, backslashes, and a
# colon that starts a short code (":smile:", ":material/...:").
_LABEL_SPECIAL = re.compile(r"([\[\]`*~$<&\\]|(?<![0-9A-Za-z])_|_(?![0-9A-Za-z])|:(?=[0-9A-Za-z_+/-]))")
# At the start a block marker ("# ", "- ", "1. ") would be unwrapped, losing the marker itself.
_LABEL_START = re.compile(r"^([#>+-](?=\s)|[0-9]+(?=[.)]))")


def label_md(value):
    """``value`` as the Markdown of a widget label: renders as exactly its text, with as few
    backslashes as that takes.

    Streamlit gives a widget's label to screen readers as it is (``aria-label``), escapes
    included, so :func:`md`'s escape of every punctuation mark made them read "ct\\_result".
    Here only what builds Markdown in a label is escaped; an underscore inside a word
    ("ct_result"), dots, dashes, parentheses and most other punctuation stay as they are.
    Invisible and direction-control characters are shown as their code, as by :func:`md`: an
    override would draw "\u202elamron" as "normal", beside the answer "normal".
    """
    text = _AUTOLINK_START.sub(rf"\1{WORD_JOINER}", " ".join(visible(value).split()))
    text = _LABEL_SPECIAL.sub(r"\\\1", text)
    return _LABEL_START.sub(lambda m: "\\" + m[0] if not m[0].isdigit() else m[0] + "\\", text)


def plotly_text(value):
    """``value`` as plotly text that shows as exactly its text (no tags, no links).

    Plotly reads ``<br>``, ``<b>``, ``<a href=...>`` and other tags in text and decodes HTML
    entities; the escaped text has neither. Invisible and direction-control characters are
    shown as their code (:func:`visible`).
    """
    return "".join(_HTML_SPECIAL.get(ch, ch) for ch in visible(value))


def html_escaped(value):
    """``str(value)`` as HTML text (the printed card, the model report): ``&``, ``<``, ``>`` and
    quotes escaped, invisible and direction-control characters shown as their code
    (:func:`visible`), so a name from a file draws as exactly its letters."""
    return escape(visible(value))


def shown(source):
    """The text a reader sees of Markdown source written with :func:`md`: the escapes
    removed (what tests compare page text with)."""
    return _ESCAPED.sub(r"\1", str(source)).replace(WORD_JOINER, "")
