"""The app page's inline style sheets, cut to what the app can show (issue 31, session 6). Build time only.

Voici's page template puts JupyterLab's whole theme in the app page's ``<head>``: 240 KB of CSS (of a 284 KB
page) that the browser parses, and matches against every element, at each visit, before it paints the start-up
sentence. Most of it styles parts of JupyterLab's application that a Voici page never builds: the file browser,
the command palette, the document search, the settings forms, the table of contents, the status bar, the dock
panels, the code editor; and 86 KB of it is icon pictures (``--jp-icon-*``, SVG in data URLs) for JupyterLab's
toolbars, which the app has none of.

What goes (nothing else changes; the other rules keep their order, so the cascade is the same):

* a style rule whose every selector needs an element with one of :data:`UNUSED_FAMILIES` ' classes (a class
  inside ``:not(...)`` does not count: it is not needed);
* an icon variable (``--jp-icon-NAME``, a picture) no rule left on the page and no script or style sheet of the
  site names, and the icon class rules (``.jp-NAMEIcon``) that only showed those pictures;
* comments, and @media blocks left empty.

The browser test (tests/browser/test_site_snapshot.py) opens every lab of the app page and checks that no element
of the page belongs to a family whose rules were dropped (``data-safari-css-dropped`` on the page's ``<body>``
lists them). The build stops, naming the page, when the page has no theme style sheet to cut (Voici's template
changed) or when a cut would take out less than it should (the theme's rules are not where this expects them).
"""
from __future__ import annotations

import re
from pathlib import Path

#: class families of JupyterLab's application that a Voici page never builds (the app shows widgets only)
UNUSED_FAMILIES = (
    "jp-DocumentSearch", "lm-CommandPalette", "jp-ModalCommandPalette", "jp-DirListing", "jp-FileBrowser",
    "jp-BreadCrumbs", "jp-FileDialog", "jp-FormGroup", "jp-arrayFieldWrapper", "jp-objectFieldWrapper",
    "jp-JSONEditor", "jp-SettingsEditor", "jp-PluginList", "jp-tocItem", "jp-TableOfContents", "jp-toc",
    "jp-Statusbar", "jp-StatusBar", "jp-SidePanel", "lm-DockPanel", "lm-MenuBar", "jp-CodeMirrorEditor",
    "jp-CollaboratorCursor", "jp-ActiveCellTool", "jp-dragImage", "jp-LauncherCard", "jp-Launcher",
    "jp-Inspector", "jp-KernelStatus", "jp-Toolbar", "jp-ToolbarButton", "jp-NotebookPanel-toolbar",
    "jp-DebuggerBugButton", "jp-collapseHeadingButton", "jp-InternalAnchorLink", "jp-RenderedSVG",
    "jp-PropertyInspector", "jp-MetadataForm", "jp-LogConsole", "jp-ContextualHelp",
)
#: the page's marker (and the families it dropped, for the browser test)
MARK = "data-safari-css-dropped"
#: the theme's style sheet is this big at least (JupyterLab 4.5's: 240 KB); a smaller one means the template moved
THEME_MIN_BYTES = 100_000
#: a cut of the theme must take out at least this share of it (it took 55 % with JupyterLab 4.5)
MIN_SHARE_CUT = 0.25

STYLE = re.compile(r"(<style\b[^>]*>)(.*?)(</style>)", re.S)
COMMENT = re.compile(r"/\*.*?\*/", re.S)
ICON_VAR = re.compile(r"(--jp-icon-[A-Za-z0-9-]+)\s*:\s*url\([^)]*\)\s*;?")
#: an icon's own class rule, as the theme writes it: the only rule that names its picture
ICON_RULE = re.compile(r"(?:^|\n)\.jp-[A-Za-z0-9]+Icon\s*\{\s*background-image:\s*var\((--jp-icon-[\w-]+)\);?\s*\}")
NEGATION = re.compile(r":(?:not|is|where|has)\((?:[^()]|\([^()]*\))*\)")
CLASS = re.compile(r"\.(-?[A-Za-z_][\w-]*)")


class AppPageCssError(ValueError):
    """The app page's style sheets are not what the cut expects (Voici's template or JupyterLab changed)."""


def _blocks(css: str) -> list[tuple[str, str]]:
    """The top-level items of ``css``: (prelude, body) pairs; text outside any block is dropped (whitespace)."""
    items, i = [], 0
    while True:
        start = css.find("{", i)
        if start < 0:
            return items
        depth, k = 1, start + 1
        while depth and k < len(css):
            depth += {"{": 1, "}": -1}.get(css[k], 0)
            k += 1
        if depth:
            raise AppPageCssError(f"unbalanced braces after {css[i:start][:80]!r}")
        items.append((css[i:start].strip(), css[start + 1:k - 1]))
        i = k


def _needs_unused(selector: str, families: tuple[str, ...]) -> bool:
    classes = CLASS.findall(NEGATION.sub("", selector))
    return any(c == f or c.startswith(f + "-") for c in classes for f in families)


def _cut_rules(css: str, families: tuple[str, ...]) -> str:
    out = []
    for prelude, body in _blocks(css):
        if prelude.startswith("@media") or prelude.startswith("@supports"):
            inner = _cut_rules(body, families)
            if inner.strip():
                out.append(f"{prelude}{{{inner}}}")
        elif prelude.startswith("@"):
            out.append(f"{prelude}{{{body}}}")
        else:
            selectors = [s.strip() for s in prelude.split(",")]
            if not all(_needs_unused(s, families) for s in selectors):
                out.append(f"{prelude}{{{body.strip()}}}")
    return "\n".join(out)


def _named_elsewhere(site: Path, page: Path) -> list[str]:
    """Every script and style sheet of the site but the page: what may name an icon variable."""
    texts = []
    for path in site.rglob("*"):
        if path.suffix in (".js", ".css") and path.is_file() and path != page:
            texts.append(path.read_text(errors="replace"))
    return texts


def _named_in(texts: list[str], name: str) -> bool:
    """Whether a script or style sheet uses ``var(name)`` without defining ``name`` itself."""
    return any(f"var({name}" in text and f"{name}:" not in text for text in texts)


def cut_app_page_css(page: Path, site: Path, families: tuple[str, ...] = UNUSED_FAMILIES) -> list[str]:
    """Cut the app page's inline style sheets (see the module's docstring). Returns the build log's lines."""
    html = page.read_text()
    if MARK in html:
        return [f"{page.name}: its style sheets are cut already"]
    html, done = cut_css(html, page, site, families)
    page.write_text(html)
    return done


def cut_css(html: str, page: Path, site: Path, families: tuple[str, ...] = UNUSED_FAMILIES) -> tuple[str, list[str]]:
    """``html`` (the app page ``page`` of the site ``site``) with its style sheets cut, and the log's lines."""
    styles = list(STYLE.finditer(html))
    if not styles or max(len(m.group(2)) for m in styles) < THEME_MIN_BYTES:
        raise AppPageCssError(f"{page}: no inline style sheet of {THEME_MIN_BYTES} bytes or more (JupyterLab's "
                              "theme): Voici's page template changed? update site-src/app_page_css.py")
    before = sum(len(m.group(2)) for m in styles)
    try:
        cut = [_cut_rules(COMMENT.sub("", m.group(2)), families) for m in styles]
    except AppPageCssError as exc:
        raise AppPageCssError(f"{page}: {exc}") from exc
    # the icon pictures: a --jp-icon-NAME goes when no rule left on the page but its own icon class rule
    # (.jp-NAMEIcon { background-image: var(--jp-icon-name) }) and no script or style sheet of the site names it
    # (one that defines it too, as the copy of this same theme in Voici's scripts, does not count), with that rule
    elsewhere = _named_elsewhere(site, page)
    icons = {name for text in cut for name in ICON_VAR.findall(text)}
    kept_text = "\n".join(ICON_RULE.sub("", ICON_VAR.sub("", text)) for text in cut)
    named = {name for name in icons if name + ")" in kept_text or name + "," in kept_text
             or _named_in(elsewhere, name)}
    dropped_icons = sorted(icons - named)

    def drop_icons(text: str) -> str:
        text = ICON_RULE.sub(lambda m: "" if m.group(1) not in named else m.group(0), text)
        return ICON_VAR.sub(lambda m: m.group(0) if m.group(1) in named else "", text)

    cut = [drop_icons(text) for text in cut]
    after = sum(len(text) for text in cut)
    theme = max(range(len(styles)), key=lambda i: len(styles[i].group(2)))
    theme_before, theme_after = len(styles[theme].group(2)), len(cut[theme])
    if theme_after > theme_before * (1 - MIN_SHARE_CUT):
        raise AppPageCssError(f"{page}: the theme's style sheet went only from {theme_before} to {theme_after} "
                              f"bytes (expected a cut of {MIN_SHARE_CUT:.0%} at least): JupyterLab's class names "
                              "changed? update UNUSED_FAMILIES in site-src/app_page_css.py")
    pieces, last = [], 0
    for m, text in zip(styles, cut):
        pieces += [html[last:m.start(2)], "\n" + text + "\n"]
        last = m.end(2)
    html = "".join(pieces) + html[last:]
    body = re.search(r"<body\b", html)
    if body is None:
        raise AppPageCssError(f"{page}: no <body> tag")
    html = html[:body.end()] + f' {MARK}="{" ".join(families)}"' + html[body.end():]
    return html, [f"inline style sheets {before // 1000} KB -> {after // 1000} KB (rules of {len(families)} "
                  f"families of JupyterLab's application the app never shows, {len(dropped_icons)} toolbar icons, "
                  "comments)"]
