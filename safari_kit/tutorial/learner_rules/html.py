"""The learners' rules as HTML: the app's rules page and the Rules tutorial's ruling texts.

Why a small renderer of our own: the play path needs only the standard library (issue 13) and the source uses
a small Markdown subset (:mod:`safari_kit.tutorial.learner_rules`), so paragraphs, lists, bold and italics are
all there is to draw. Everything else is escaped. Pictures become ``<figure>`` s with ``data:`` images and
their caption, so the app needs no address to reach a file (Voilà serves none of the wheel's files).

>>> markdown_html("A **safe** card.\\n\\n- one\\n  more\\n- two", "witness")
'<p>A <b>safe</b> card.</p><ul><li>one more</li><li>two</li></ul>'
"""
from __future__ import annotations

import html
import re

_INLINE = re.compile(r"\*\*([^*]+)\*\*|\*([^*]+)\*")
_ORDERED = re.compile(r"^\d+\.\s+")
#: the pictures' look: a row of cards, never wider than the page, the caption under it
FIGURE = "margin:8px 0 12px"
IMAGE = "max-width:100%;height:auto;max-height:180px"
CAPTION = "font-size:13px;color:#345;font-style:italic"


def inline(text: str) -> str:
    """Bold and italics of one line as HTML; everything else escaped."""
    out, last = [], 0
    for m in _INLINE.finditer(text):
        out.append(html.escape(text[last:m.start()]))
        bold, em = m.groups()
        out.append(f"<b>{html.escape(bold)}</b>" if bold is not None else f"<i>{html.escape(em)}</i>")
        last = m.end()
    out.append(html.escape(text[last:]))
    return "".join(out)


def figure(picture) -> str:
    from safari_kit.tutorial.learner_rules import data_url

    caption = html.escape(picture.caption)
    return (f"<figure class='safari-rules-picture' style='{FIGURE}'><img src='{data_url(picture)}' alt='{caption}' "
            f"style='{IMAGE}'><figcaption style='{CAPTION}'>{caption}</figcaption></figure>")


def markdown_html(text: str, game: str, pictures: bool = True, lang: str = "en") -> str:
    """One section's Markdown as HTML (``pictures=False``: leave the pictures out; ``lang``: the page's, whose
    drawings it shows)."""
    from safari_kit.tutorial.learner_rules import picture_of

    parts: list[str] = []
    para: list[str] = []
    items: list[str] = []
    kind = ""  # "ul" or "ol" while a list is open

    def flush() -> None:
        nonlocal kind
        if para:
            parts.append(f"<p>{inline(' '.join(para))}</p>")
            para.clear()
        if items:
            parts.append(f"<{kind}>" + "".join(f"<li>{inline(i)}</li>" for i in items) + f"</{kind}>")
            items.clear()
        kind = ""

    for line in text.splitlines():
        stripped = line.strip()
        picture = picture_of(stripped, game, lang)
        if not stripped:
            flush()
        elif picture is not None:
            flush()
            if pictures:
                parts.append(figure(picture))
        elif stripped.startswith("- ") or _ORDERED.match(stripped):
            this = "ul" if stripped.startswith("- ") else "ol"
            if para or (kind and kind != this):
                flush()
            kind = this
            items.append(stripped[2:] if this == "ul" else _ORDERED.sub("", stripped))
        elif items and line.startswith(" "):  # a list item's next line
            items[-1] += " " + stripped
        else:
            if items:
                flush()
            para.append(stripped)
    flush()
    return "".join(parts)


def page_html(page) -> str:
    """A whole page: its title, introduction and sections, in a box that reads well at 1366x768."""
    body = [f"<h2 style='margin:4px 0 8px'>{html.escape(page.title)}</h2>",
            markdown_html(page.intro, page.game, lang=page.lang)]
    for section in page.sections:
        body.append(f"<h3 style='margin:16px 0 4px'>{html.escape(section.title)}</h3>")
        body.append(markdown_html(section.body, page.game, lang=page.lang))
    lang = page.lang.replace("_", "-")  # the page's language, as HTML names it (a screen reader's voice)
    return (f"<div class='safari-rules-page' data-game='{page.game}' lang='{lang}' "
            f"style='max-width:760px;font-size:15px;line-height:1.5;color:#1f2933'>{''.join(body)}</div>")
