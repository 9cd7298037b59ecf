"""The developers' text of each ruling (W4, K3, ...), read from docs/rules.md.

docs/rules.md states every ruling the engine implements, in precise words (code names, the tests that check
it). Until issue 27 the Rules tutorial showed that text inline; a learner now reads the ruling in plain words
instead (:mod:`safari_kit.tutorial.learner_rules`), and this module is what those words are checked against:
:mod:`safari_kit.tutorial.learner_rules.agreement` compares each learner text with :func:`ruling_markdown`.

The text is docs/rules.md itself: the wheel carries it as ``safari_kit/data/rules.md`` (hatch force-include,
like the cards), a source checkout reads ``docs/rules.md``. A Witness ruling is its ``### W4 ...`` section;
a Knockout ruling its ``**K3 — ...**`` paragraph and the list under it. The names of the tests that check a
ruling ("Tests: ...") are left out, and so are its pictures.

>>> "shares an element of a declared" in ruling_markdown("W4")
True
>>> ruling_markdown("K3").startswith("The lead's action plays a card")
True
>>> "test_k3" in ruling_markdown("K3")
False
"""
from __future__ import annotations

import html
import re
from functools import lru_cache
from importlib import resources
from pathlib import Path

__all__ = ["rules_path", "ruling_markdown", "ruling_html"]

_WITNESS = re.compile(r"^### (W\d+) [^\n]*\n(.*?)(?=^#{1,3} |\Z)", re.M | re.S)
_KNOCKOUT = re.compile(r"^\*\*(K\d+) — [^*]*\*\*\s*(.*?)(?=^\*\*(?:K\d+ —|What )|^#{1,3} |\Z)", re.M | re.S)
_TESTS = re.compile(r"(?:^|\s)Tests?: .*", re.S)
_IMAGE = re.compile(r"^!\[[^\]]*\]\([^)]*\)\s*$", re.M)


def rules_path() -> Path:
    """docs/rules.md as shipped: in the wheel ``safari_kit/data/rules.md``, in a checkout ``docs/rules.md``."""
    shipped = resources.files("safari_kit") / "data" / "rules.md"
    if shipped.is_file():
        return Path(str(shipped))
    return Path(__file__).resolve().parents[2] / "docs" / "rules.md"


@lru_cache(maxsize=1)
def _rulings() -> dict[str, str]:
    path = rules_path()
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:  # a broken install: say which file is missing
        raise FileNotFoundError(f"the rules text {path} is missing ({exc.strerror}): reinstall safari_kit") from exc
    found = {code: body for code, body in _WITNESS.findall(text)}
    found.update({code: body for code, body in _KNOCKOUT.findall(text)})
    cleaned = {}
    for code, body in found.items():
        body = _TESTS.sub("", _IMAGE.sub("", body)).strip()
        cleaned[code] = body
    return cleaned


def ruling_markdown(code: str) -> str:
    """The text of ruling ``code`` ("W4", "K3") in docs/rules.md, as Markdown, without its tests' names."""
    rulings = _rulings()
    if code not in rulings:
        raise KeyError(f"docs/rules.md has no ruling {code!r}; it has {', '.join(sorted(rulings, key=_order))}")
    return rulings[code]


def _order(code: str) -> tuple[str, int]:
    return code[0], int(code[1:])


_INLINE = re.compile(r"`([^`]+)`|\*\*([^*]+)\*\*|\*([^*]+)\*")


def _inline(text: str) -> str:
    """Code, bold and italics of one line of Markdown as HTML; everything else escaped."""
    out, last = [], 0
    for m in _INLINE.finditer(text):
        out.append(html.escape(text[last:m.start()]))
        code, bold, em = m.groups()
        if code is not None:
            out.append(f"<code>{html.escape(code)}</code>")
        elif bold is not None:
            out.append(f"<b>{html.escape(bold)}</b>")
        else:
            out.append(f"<i>{html.escape(em)}</i>")
        last = m.end()
    out.append(html.escape(text[last:]))
    return "".join(out)


def ruling_html(code: str) -> str:
    """Ruling ``code`` as HTML: its paragraphs, and its ``-`` lists as lists (the subset docs/rules.md uses)."""
    parts: list[str] = []
    items: list[str] = []
    para: list[str] = []

    def flush_para() -> None:
        if para:
            parts.append(f"<p>{_inline(' '.join(para))}</p>")
            para.clear()

    def flush_items() -> None:
        if items:
            parts.append("<ul>" + "".join(f"<li>{_inline(i)}</li>" for i in items) + "</ul>")
            items.clear()

    for line in ruling_markdown(code).splitlines():
        stripped = line.strip()
        if not stripped:
            flush_para()
            flush_items()
        elif stripped.startswith("- "):
            flush_para()
            items.append(stripped[2:])
        elif items and line.startswith(" "):  # a list item's next line
            items[-1] += " " + stripped
        else:
            flush_items()
            para.append(stripped)
    flush_para()
    flush_items()
    return "".join(parts)
