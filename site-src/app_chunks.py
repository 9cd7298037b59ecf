"""The app page's pieces of Voici's scripts in one file (issue 31, session 18). Build time only.

Voici's bundle comes in 220 pieces ("chunks", ``<id>.js`` in ``voici/build/``): each piece names the next ones it
needs, and the browser asks for them one after another. A first visit of the app page asked the server for 86
files, 67 of them these pieces (3.7 MB). At a quarter of a core, each request, each script's start and the waits
between them added up: a copy of the site with the 67 in one script before voici.js asked for 20 files, and its
first visit took 18.7 s instead of 22.9 s (5.3 CPU-s instead of 6.3; 3 rounds in turn, docs/teachers.md). Return
visits did not change (their pieces come from the browser's cache).

Which pieces: the ones the app page asks for (``PIECES``), recorded from the requests of a visit that opens
every lab. Voici's own script names 218 of its 220 pieces as ones it may load (6.8 MB), so the list cannot be
read from the scripts. The numbers stay while Voici's version is pinned (site-src/requirements.txt); a build whose
Voici lacks one stops here, naming it, and tests/browser/test_site_snapshot.py fails, naming them, when the app
page asks for a piece that is not in the file. A piece the file lacks is still fetched the usual way, so a list
behind Voici only costs the learner time.

How: each piece is a webpack "JSONP" script, ``(self.webpackChunk_...||[]).push([[ids], {modules}])``: run
before Voici's own script, it only registers its modules, and webpack then finds them registered and asks for
nothing. Each piece is wrapped in a function of its own, so that the ``"use strict"`` one starts with does not
apply to the others.
"""
from __future__ import annotations

import re
from pathlib import Path

#: the pieces the app page asks for (a visit of every lab, Voici 0.10.0), in the order it asked for them
PIECES = (1060, 5688, 4651, 6343, 7521, 8707, 1601, 7774, 1259, 2094, 5764, 8135, 3992, 8925, 9582, 1670, 6573,
          7883, 7556, 6049, 9907, 3311, 4860, 1621, 3649, 8487, 3916, 9981, 9952, 1908, 4041, 8696, 9530, 3144,
          9890, 5629, 6468, 7483, 7032, 4729, 1433, 6382, 2649, 2842, 3264, 1650, 5568, 9252, 2929, 3249, 4653,
          9438, 6590, 5768, 8017, 4187, 3960, 3683, 3307, 1883, 9376, 431, 8862, 5981, 3989, 981, 2679)
#: the file the pieces go in, beside them in Voici's build folder
FILE = "app-pieces.js"
#: Voici's script in the app page (before the build folder is named by its content: ``../../build/voici.js``)
VOICI_TAG = re.compile(r'<script src="([^"]*/)voici\.js"></script>')
#: the start of every piece (webpack's JSONP chunk, after its licence line if it has one: the global it pushes
#: to, then its own ids)
HEAD = re.compile(r'^(?:/\*![^\n]*\*/\n)?(?:"use strict";)?'
                  r'\(self\.(webpackChunk\w+)=self\.\1\|\|\[\]\)\.push\(\[\[(\d+)')


class AppPiecesError(ValueError):
    """A piece is missing or not what the build expects: Voici's build changed."""


def bundle(build: Path, page: Path, pieces: tuple[int, ...] = PIECES) -> str:
    """Write ``pieces`` of Voici's ``build`` folder into one script there (FILE) and load it in ``page`` right
    before voici.js. Returns a line for the build's log. Raises AppPiecesError, naming the piece or the page."""
    parts = []
    for piece in pieces:
        path = build / f"{piece}.js"
        if not path.is_file():
            raise AppPiecesError(f"{path}: no such piece of Voici's scripts (Voici changed? record the app page's "
                                 "pieces again: site-src/app_chunks.py says how)")
        text = path.read_text(encoding="utf-8", errors="surrogateescape")
        head = HEAD.match(text)
        if not head or int(head.group(2)) != piece:
            raise AppPiecesError(f"{path}: not a webpack piece that registers piece {piece} (it starts "
                                 f"{text[:60]!r})")
        parts.append("(function(){" + text + "\n})();")
    (build / FILE).write_text("\n".join(parts) + "\n", encoding="utf-8", errors="surrogateescape")
    html = page.read_text(encoding="utf-8")
    tags = VOICI_TAG.findall(html)
    if len(tags) != 1:
        raise AppPiecesError(f"{page}: {len(tags)} script tags for voici.js, expected one")
    html = VOICI_TAG.sub(lambda m: f'<script src="{m.group(1)}{FILE}"></script>\n{m.group(0)}', html)
    page.write_text(html, encoding="utf-8")
    size = (build / FILE).stat().st_size
    return f"{len(pieces)} pieces of Voici's scripts in {FILE} ({size / 1e6:.1f} MB), loaded before voici.js"
