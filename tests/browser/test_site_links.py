"""Every link in the built offline site resolves to a file the site ships (issue 18, item 5).

A crawl without a browser over what ``make site OFFLINE=1`` wrote (the session's ``offline_site``):

* every HTML page outside the JupyterLite/Voici bundles (the landing page, the apps' index pages, Voici's
  rendered pages): each relative ``href``/``src`` names a file of the site (a folder: its ``index.html``);
  a JupyterLite address ``…/index.html?path=P`` names a document P the site holds (``files/P``); a ``#anchor``
  names an ``id`` of the target page;
* every notebook and doc the learners open in JupyterLite (``files/``: the lessons' student copies, the app
  notebook, docs/rules.md, docs/data.md): each relative Markdown or HTML link resolves, as JupyterLab resolves
  it, from the document's folder to a document of the drive, and a ``#heading`` link names a heading of the
  target (JupyterLab's slug, or GitHub's);
* the widgets' HTML is Python's, not the site's: tests/widgets/test_lab_links.py checks it.

What failed before the fixes: the tutorial's ruling links (now inline text), lesson 00's ``../docs/*.md``
(docs shipped since fd24ee1) and, in Voici's rendered lessons, the same links, resolved from
``voici/render/notebooks/`` to a ``voici/render/docs/`` that does not exist.
"""
from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path, PurePosixPath
from urllib.parse import parse_qs, unquote, urljoin, urlsplit

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

#: the bundles: code, not pages a learner follows links in (their URLs are built at run time)
BUNDLES = ("extensions/", "build/", "static/")
SCHEMES = re.compile(r"^[a-z][a-z0-9+.-]*:", re.I)


class _Links(HTMLParser):
    """The (tag, attribute, value) of every link-like attribute of a page, and every id/name in it."""

    ATTRS = {"a": "href", "link": "href", "area": "href", "script": "src", "img": "src", "iframe": "src",
             "source": "src"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[tuple[str, str]] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for key in ("id", "name"):
            if attrs.get(key):
                self.ids.add(attrs[key])
        want = self.ATTRS.get(tag)
        if want and attrs.get(want) is not None:
            self.links.append((tag, attrs[want]))


def parse_html(text: str) -> _Links:
    parser = _Links()
    parser.feed(text)
    return parser


def _external(url: str) -> bool:
    return bool(SCHEMES.match(url)) or url.startswith("//")


def _page_file(root: Path, rel: str) -> Path | None:
    """The file a site path names (a folder: its index.html), or None."""
    path = root / unquote(rel)
    if rel.endswith("/") or path.is_dir():
        path = path / "index.html"
    return path if path.is_file() else None


def check_html_page(root: Path, page: Path) -> list[str]:
    """What in one HTML page of the site points nowhere."""
    rel_page = page.relative_to(root).as_posix()
    base = f"http://site/{rel_page}"
    parsed = parse_html(page.read_text(errors="replace"))
    bad = []
    for tag, url in parsed.links:
        if not url or _external(url):
            continue
        parts = urlsplit(urljoin(base, url))
        if not parts.path.startswith("/"):
            continue
        target_rel = parts.path.lstrip("/")
        if parts.path == urlsplit(base).path:
            target = page
        else:
            target = _page_file(root, target_rel)
        if target is None:
            bad.append(f"{rel_page}: <{tag}> {url!r} -> {target_rel} is not in the site")
            continue
        for doc in parse_qs(parts.query).get("path", []):  # JupyterLite opens ?path= from its drive (files/)
            if not (root / "files" / doc).is_file():
                bad.append(f"{rel_page}: {url!r} opens {doc}, which the site does not hold (files/{doc})")
        if parts.fragment and target.suffix == ".html":
            ids = parsed.ids if target == page else parse_html(target.read_text(errors="replace")).ids
            if parts.fragment not in ids and unquote(parts.fragment) not in ids:  # as browsers try it
                bad.append(f"{rel_page}: {url!r}: no id {unquote(parts.fragment)!r} in {target.relative_to(root)}")
    return bad


# ----------------------------------------------------------------------------- documents of the drive
MD_LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$", re.M)
FENCE = re.compile(r"^(```|~~~).*?^\1", re.M | re.S)


def _markdown_texts(doc: Path) -> list[str]:
    if doc.suffix == ".ipynb":
        nb = json.loads(doc.read_text(encoding="utf-8"))
        return ["".join(c["source"]) if isinstance(c["source"], list) else c["source"]
                for c in nb["cells"] if c["cell_type"] == "markdown"]
    return [doc.read_text(encoding="utf-8")]


def _plain(heading: str) -> str:
    """A heading's text as rendered: no Markdown emphasis, code marks or link targets."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    return re.sub(r"[*_`]", "", text).strip()


def heading_slugs(doc: Path) -> set[str]:
    """The anchors of a document's headings: JupyterLab's (spaces to '-') and GitHub's (lower case)."""
    slugs = set()
    for text in _markdown_texts(doc):
        for _, heading in HEADING.findall(FENCE.sub("", text)):
            plain = _plain(heading)
            slugs.add(plain.replace(" ", "-"))
            slugs.add(re.sub(r"[^\w\- ]", "", plain.lower()).replace(" ", "-"))
    return slugs


def links_of(text: str) -> list[str]:
    text = FENCE.sub("", text)
    text = re.sub(r"`[^`\n]*`", "", text)  # inline code is not a link
    html = parse_html(text)
    return [m.group(1) for m in MD_LINK.finditer(text)] + [url for _, url in html.links]


def check_document(drive: Path, doc: Path) -> list[str]:
    """What in one document of JupyterLite's drive (files/) points nowhere, resolved as JupyterLab does."""
    rel_doc = doc.relative_to(drive).as_posix()
    bad = []
    for text in _markdown_texts(doc):
        for url in links_of(text):
            if _external(url):
                continue
            parts = urlsplit(url)
            if parts.path:
                target_path = PurePosixPath(rel_doc).parent / unquote(parts.path)
                norm = _normalise(target_path)
                if norm is None or not (drive / norm).is_file():
                    bad.append(f"files/{rel_doc}: {url!r} -> {norm or target_path} is not in the site's drive")
                    continue
                target = drive / norm
            else:
                target = doc
            if parts.fragment and target.suffix in (".ipynb", ".md"):
                if unquote(parts.fragment) not in heading_slugs(target):
                    bad.append(f"files/{rel_doc}: {url!r}: no heading {parts.fragment!r} in {target.name}")
    return bad


def _normalise(path: PurePosixPath) -> str | None:
    """``a/../b`` as ``b``; None when the path climbs out of the drive."""
    parts: list[str] = []
    for part in path.parts:
        if part == "..":
            if not parts:
                return None
            parts.pop()
        elif part != ".":
            parts.append(part)
    return "/".join(parts)


def site_pages(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*.html") if not p.relative_to(root).as_posix().startswith(BUNDLES))


def site_documents(root: Path) -> list[Path]:
    drive = root / "files"
    return sorted(p for p in drive.rglob("*") if p.suffix in (".ipynb", ".md"))


# ----------------------------------------------------------------------------- the tests
def test_every_link_of_the_sites_pages_resolves(offline_site):
    root = offline_site.root
    pages = site_pages(root)
    names = {p.relative_to(root).as_posix() for p in pages}
    # the crawl sees the pages a learner meets (a crawl of nothing would pass)
    assert {"index.html", "lab/index.html", "tree/index.html", "voici/render/notebooks/app.html",
            "voici/render/notebooks/00-start-here.html"} <= names, sorted(names)
    bad = [problem for page in pages for problem in check_html_page(root, page)]
    assert not bad, "\n".join(bad)


def test_every_link_of_the_lessons_and_docs_resolves(offline_site):
    root = offline_site.root
    docs = site_documents(root)
    names = {p.relative_to(root / "files").as_posix() for p in docs}
    assert {"notebooks/00-start-here.ipynb", "notebooks/07-rules-tutorial.ipynb", "notebooks/app.ipynb",
            "docs/rules.md", "docs/data.md"} <= names, sorted(names)
    links = sum(len(links_of(t)) for d in docs for t in _markdown_texts(d))
    assert links >= 12, f"only {links} links found: is the crawl reading the lessons?"
    bad = [problem for doc in docs for problem in check_document(root / "files", doc)]
    assert not bad, "\n".join(bad)


# ----------------------------------------------------------------------------- the checker itself
def test_the_crawl_finds_a_missing_file_and_a_missing_anchor(tmp_path):
    """Controls: the checks above can fail (a page and a lesson with one bad link of each kind)."""
    (tmp_path / "files" / "notebooks").mkdir(parents=True)
    (tmp_path / "files" / "docs").mkdir()
    (tmp_path / "files" / "docs" / "rules.md").write_text("# The rules\n\n### W4 Identification\n")
    (tmp_path / "lab").mkdir()
    (tmp_path / "lab" / "index.html").write_text("<html></html>")
    (tmp_path / "index.html").write_text(
        '<a href="./lab/index.html?path=notebooks/00.ipynb">ok</a><a href="./lab/index.html?path=nope.ipynb">x</a>'
        '<a href="./missing.html">x</a><a href="#top">x</a><h1 id="here">h</h1><a href="#here">ok</a>'
        '<a href="https://example.org/">external: not checked</a>')
    nb = {"cells": [{"cell_type": "markdown", "source": [
        "[ok](../docs/rules.md) [ok](../docs/rules.md#W4-Identification) [ok](../docs/rules.md#w4-identification) "
        "[bad](../docs/data.md) [bad](../docs/rules.md#w5-challenge) [bad](../../up.md) `[not a link](x.md)`"]}]}
    (tmp_path / "files" / "notebooks" / "00.ipynb").write_text(json.dumps(nb))
    page_bad = check_html_page(tmp_path, tmp_path / "index.html")
    assert len(page_bad) == 3 and "nope.ipynb" in page_bad[0] and "missing.html" in page_bad[1] \
        and "'top'" in page_bad[2], page_bad
    doc_bad = check_document(tmp_path / "files", tmp_path / "files" / "notebooks" / "00.ipynb")
    assert len(doc_bad) == 3 and "data.md" in doc_bad[0] and "w5-challenge" in doc_bad[1] and "up.md" in doc_bad[2], \
        doc_bad
