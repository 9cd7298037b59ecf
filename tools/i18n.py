"""The kit's translations (issue 30): extract the marked strings, update and compile the catalogues, check them.

    python tools/i18n.py extract     # safari_kit/locale/safari_kit.pot from every _(), N_(), ngettext(), pgettext()
    python tools/i18n.py update      # merge the .pot into each language's .po (new strings, changed ones fuzzy)
    python tools/i18n.py pseudo      # write the pseudo-locale en_XA (every string accented, ~35 % longer)
    python tools/i18n.py compile     # every .po -> .mo (what the kit reads; fuzzy strings are left out)
    python tools/i18n.py check       # exit 1 if the .pot is stale, a .mo is not its .po's, or a language lacks strings
    python tools/i18n.py all         # extract, update, pseudo, compile, check: after marking or translating

It runs Babel (``pip install -e '.[i18n]'``; the test extra has it too), as the scientific-Python projects do;
the kit itself reads the compiled ``.mo`` files with the standard library's gettext. Babel's extraction
settings are in ``babel.cfg`` at the top of the repository (``pybabel extract -F babel.cfg``).

The pseudo-locale is generated, never written by hand: every letter of every catalogued string is swapped for an
accented one and the string is padded to be about 35 % longer, inside brackets. A page rendered in ``en_XA``
that still shows plain English words shows the strings nobody marked (tests/i18n/test_pseudo_locale.py).
"""
from __future__ import annotations

import argparse
import datetime
import io
import os
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "safari_kit" / "locale"
POT = LOCALE / "safari_kit.pot"
DOMAIN = "safari_kit"
PSEUDO = "en_XA"
#: the languages people translate (the pseudo-locale is made, not translated)
TRANSLATED = ("es",)

# what the pseudo-locale must not change: placeholders, HTML tags and entities, printf forms
_KEEP = re.compile(r"(\{[^{}]*\}|<[^<>]*>|&[#A-Za-z0-9]+;|%\([a-z_]+\)[sd]|%[sd])")
_ACCENTED = dict(zip("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
                     "àƀçđéƒĝĥîĵķĺɱñöþǫŕšţûṽŵẋýžÀƁÇĐÉƑĜĤÎĴĶĹṀÑÖÞǪŔŠŢÛṼŴẊÝŽ"))


def pseudo(text: str) -> str:
    """``text`` accented and about 35 % longer, placeholders and tags kept: ``Reset`` -> ``[Ŕéšéţ ~~]``."""
    if not text:
        return text
    parts = _KEEP.split(text)
    out = "".join(p if i % 2 else "".join(_ACCENTED.get(c, c) for c in p) for i, p in enumerate(parts))
    visible = sum(len(p) for i, p in enumerate(parts) if not i % 2)
    pad = max(1, round(visible * 0.35) - 2)
    # the padding in words of at most 8 letters, as real words are: one long run of tildes never wraps, and
    # made a line wider than any language's (a side panel scrolled sideways only in the pseudo-locale)
    tildes = " ".join("~" * min(8, pad - i) for i in range(0, pad, 8))
    return f"[{out} {tildes}]"


def _pybabel(*args: str) -> None:
    from babel.messages.frontend import CommandLineInterface

    cwd = os.getcwd()
    os.chdir(ROOT)  # the catalogue's "#:" lines name files from the repository's top, on every machine
    try:
        CommandLineInterface().run(["pybabel", "-q", *args])
    finally:
        os.chdir(cwd)


def extract(target: Path = POT) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    _pybabel("extract", "-F", str(ROOT / "babel.cfg"), "-o", str(target), "--sort-by-file", "--no-wrap",
             "--project", "safari_kit", "--copyright-holder", "safari_kit developers",
             "--msgid-bugs-address", "https://github.com/safari-kit/safari_kit/issues",
             "--add-comments", "TRANSLATORS:", "--header-comment="
             "# The words of safari_kit for learners (issue 30). Made by tools/i18n.py extract: do not edit.",
             "-k", "_", "-k", "N_", "-k", "ngettext:1,2", "-k", "pgettext:1c,2", "--version", "1", ".")
    # the creation date changes at every run: keep the file unchanged when only that changed
    text = target.read_text(encoding="utf-8")
    text = re.sub(r'"POT-Creation-Date: [^"]*\\n"\n', "", text)
    target.write_text(text, encoding="utf-8")


def _read(path: Path, locale: str | None = None):
    from babel.messages.pofile import read_po

    with path.open("rb") as f:
        return read_po(f, locale=locale)


def update() -> None:
    for lang in TRANSLATED:
        po = LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
        if po.exists():
            _pybabel("update", "-i", str(POT), "-d", str(LOCALE), "-D", DOMAIN, "-l", lang, "--no-wrap",
                     "--ignore-obsolete")
        else:
            _pybabel("init", "-i", str(POT), "-d", str(LOCALE), "-D", DOMAIN, "-l", lang, "--no-wrap")


def write_pseudo() -> None:
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po

    template = _read(POT)
    # en_XA is not a CLDR locale: English's rules (two plural forms), its name set in the header below
    fixed = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)  # a made file that changes only with the .pot
    catalog = Catalog(locale="en", project="safari_kit", version="1", fuzzy=False, creation_date=fixed,
                      revision_date=fixed, header_comment="# The pseudo-locale, made by tools/i18n.py pseudo: "
                      "do not edit.")
    for message in template:
        if not message.id:
            continue
        if isinstance(message.id, (list, tuple)):
            string = tuple(pseudo(s) for s in message.id)
        else:
            string = pseudo(message.id)
        catalog.add(message.id, string, context=message.context)
    out = LOCALE / PSEUDO / "LC_MESSAGES" / f"{DOMAIN}.po"
    out.parent.mkdir(parents=True, exist_ok=True)
    buf = io.BytesIO()
    write_po(buf, catalog, width=0, omit_header=False)
    text = buf.getvalue().decode("utf-8")
    text = text.replace('"Language: en\\n"', '"Language: en_XA\\n"')
    out.write_text(text, encoding="utf-8")
    for path, page in rules_pages().items():  # the learners' rules pages: whole documents, one file a language
        path.write_text(page, encoding="utf-8")


def _mo_bytes(po: Path) -> bytes:
    from babel.messages.mofile import write_mo

    buf = io.BytesIO()
    write_mo(buf, _read(po, locale=None), use_fuzzy=False)
    return buf.getvalue()


def _messages(mo: bytes) -> dict:
    """A compiled catalogue's messages, without its header (which names the Babel that compiled it)."""
    import gettext

    catalog = dict(gettext.GNUTranslations(io.BytesIO(mo))._catalog)  # type: ignore[attr-defined]
    catalog.pop("", None)
    return catalog


def compile_all() -> None:
    for po in sorted(LOCALE.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
        po.with_suffix(".mo").write_bytes(_mo_bytes(po))


def _placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{[^{}]*\}", text))


def _rel(path: Path) -> str:
    """A path as the messages print it: from the repository's top when it is inside."""
    try:
        return str(path.relative_to(ROOT))
    except ValueError:
        return str(path)


def hidden_marks() -> list[str]:
    """Marked strings Babel cannot see: a ``_()`` inside an f-string's braces (Python's tokenizer hands Babel the
    whole f-string as one string, so the words never reach the catalogue and stay English everywhere)."""
    import tokenize

    found = []
    for path in sorted((ROOT / "safari_kit").rglob("*.py")):
        try:
            tokens = list(tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline))
        except (tokenize.TokenError, SyntaxError):
            continue
        for tok in tokens:
            prefix = re.match(r"[A-Za-z]*", tok.string).group(0).lower()
            marked = re.search(r"\{[^{}]*\b(N_|_|ngettext|pgettext)\(\s*['\"]", tok.string)
            if tok.type == tokenize.STRING and "f" in prefix and marked:
                found.append(f"{_rel(path)}:{tok.start[0]}: a marked string inside an f-string is "
                             "not extracted: build the text outside the f-string")
    return found


_MD_LINE = re.compile(r"^(\s*(?:#{1,2} |- |\d+\. )?)(.*)$")
_MD_PICTURE = re.compile(r"^!\[([^\]]+)\](\(cards:.*\))\s*$")


def pseudo_markdown(text: str) -> str:
    """A learners' rules page (whole Markdown, safari_kit.tutorial.learner_rules) in the pseudo-locale: each
    line's words through :func:`pseudo`, its marks kept (headings, list marks, ruling marks, a picture's
    address: only its caption changes)."""
    out = []
    for line in text.splitlines():
        picture = _MD_PICTURE.match(line)
        if not line.strip() or line.lstrip().startswith("<!--"):
            out.append(line)
        elif picture:
            out.append(f"![{pseudo(picture.group(1))[1:-1]}]{picture.group(2)}")  # a caption holds no brackets
        else:
            mark, words = _MD_LINE.match(line).groups()
            out.append(mark + pseudo(words))
    return "\n".join(out) + "\n"


def rules_pages() -> dict[Path, str]:
    """The pseudo-locale's learners' rules pages, each file and what it must hold."""
    from safari_kit.tutorial import learner_rules as LR

    return {LR.source_path(game, PSEUDO): pseudo_markdown(LR.source_path(game).read_text(encoding="utf-8"))
            for game in LR.GAMES}


def problems() -> list[str]:
    """What is wrong with the catalogues now, one line each (empty: all is well)."""
    found: list[str] = hidden_marks()
    for path, text in rules_pages().items():
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            found.append(f"{_rel(path)} is not made from its English page: run python tools/i18n.py pseudo")
    with tempfile.TemporaryDirectory() as tmp:
        fresh = Path(tmp) / "fresh.pot"
        extract(fresh)
        ids_now = {(m.context, m.id if isinstance(m.id, str) else tuple(m.id)) for m in _read(fresh) if m.id}
    ids_kept = {(m.context, m.id if isinstance(m.id, str) else tuple(m.id)) for m in _read(POT) if m.id}
    if ids_now != ids_kept:
        new, gone = len(ids_now - ids_kept), len(ids_kept - ids_now)
        found.append(f"{_rel(POT)} is stale ({new} strings new in the code, {gone} gone): "
                     "run python tools/i18n.py all")
    for po in sorted(LOCALE.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
        lang = po.parent.parent.name
        mo = po.with_suffix(".mo")
        if not mo.exists() or _messages(mo.read_bytes()) != _messages(_mo_bytes(po)):
            found.append(f"{_rel(mo)} is not compiled from its .po: run python tools/i18n.py compile")
        catalog = _read(po)
        ids = {(m.context, m.id if isinstance(m.id, str) else tuple(m.id)) for m in catalog if m.id}
        if ids != ids_kept:
            found.append(f"{_rel(po)} does not hold the .pot's strings "
                         f"({len(ids_kept - ids)} missing): run python tools/i18n.py update")
        for m in catalog:
            if not m.id:
                continue
            where = f"{_rel(po)}:{m.lineno}"
            strings = list(m.string) if isinstance(m.string, (list, tuple)) else [m.string]
            if m.fuzzy:
                found.append(f"{where}: fuzzy (the English changed; check the translation, remove '#, fuzzy')")
            if not all(strings):
                found.append(f"{where}: not translated: {str(m.id if isinstance(m.id, str) else m.id[0])[:70]!r}")
                continue
            source = m.id if isinstance(m.id, str) else m.id[1]
            for s in strings:
                if _placeholders(s) != _placeholders(source):
                    found.append(f"{where}: the placeholders {sorted(_placeholders(source))} must stay as they are "
                                 f"(found {sorted(_placeholders(s))}) in {lang}")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("step", choices=["extract", "update", "pseudo", "compile", "check", "all"])
    step = parser.parse_args(argv).step
    try:
        import babel  # noqa: F401
    except ModuleNotFoundError:
        print("tools/i18n.py needs Babel: pip install -e '.[i18n]'", file=sys.stderr)
        return 2
    if step in ("extract", "all"):
        extract()
    if step in ("update", "all"):
        update()
    if step in ("pseudo", "all"):
        write_pseudo()
    if step in ("compile", "all"):
        compile_all()
    if step in ("check", "all"):
        found = problems()
        for line in found:
            print(line, file=sys.stderr)
        if found:
            print(f"{len(found)} problem(s) in the catalogues", file=sys.stderr)
            return 1
        print(f"catalogues OK: {len([m for m in _read(POT) if m.id])} strings, languages: "
              f"{', '.join(sorted(p.parent.parent.name for p in LOCALE.glob('*/LC_MESSAGES/*.po')))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
