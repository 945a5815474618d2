"""App stage (display): book data made inert before it reaches a Markdown-rendering element.

``st.error``, ``st.warning``, ``st.info``, ``st.caption``, ``st.markdown``, progress texts and
image captions render their string as Markdown (links, images, emphasis, ``:color[...]``
directives). Book data - titles, page labels, file names, reader messages that quote zip entry
names or hrefs - is untrusted, so every such string goes through ``md`` first: the browser must
never fetch a remote image or show a clickable link that a crafted book put there.
"""

from __future__ import annotations

import re

MARKDOWN_SPECIAL = "\\`*_{}[]()<>#+!|~$&:@"
"""ASCII characters that start Markdown/HTML syntax; each is backslash-escaped (CommonMark
allows a backslash before any ASCII punctuation, which then renders as the character itself).
``:`` and ``@`` break GFM's bare-URL and e-mail autolinks and Streamlit's ``:icon:`` codes."""

_SPECIAL = re.compile("([" + re.escape(MARKDOWN_SPECIAL) + "])")
_WWW = re.compile(r"(?i)\b(www)\.")
_LINE_BREAKS = re.compile(r"\s*[\r\n\u2028\u2029\x0b\x0c\x85]+\s*")


def md(text: object) -> str:
    """``text`` as a Markdown string that renders literally: one line, every special escaped.

    Line breaks become spaces (so a line cannot start a heading, list, table or code block) and
    every character of ``MARKDOWN_SPECIAL`` gets a backslash (so no link, image, emphasis, code
    span, raw HTML or math survives).

    Args:
        text (object): anything; non-strings are ``str()``-ed.

    Returns:
        str: escaped Markdown.
    """
    escaped = _SPECIAL.sub(r"\\\1", _LINE_BREAKS.sub(" ", str(text)))
    return _WWW.sub(r"\1\\.", escaped)  # NOTE: "www." alone starts a GFM autolink
