"""A learner's nickname: one clean line, one alphabet, and a key so that look-alikes collide (issue 26).

In a class where two learners may pick the same nickname, the teacher's page
showed six rows "Zed" that could not be told apart: ``Zed``, ``zed``,
``"  Zed  "``, ``Zеd`` (a Cyrillic е), ``Zed`` + a zero-width space,
``"\\u202edeZ"`` (a right-to-left override that displays "Zed") and full-width
``Ｚｅｄ``. :func:`clean_nickname` turns what the learner typed into the name
the class sees, or refuses it with a sentence for the learner
(:class:`NicknameError`):

* the length is bounded *first*, on the raw text (a 900 kB nickname is refused
  without being read further, and the refusal never repeats it);
* Unicode NFKC (full-width and other compatibility letters become plain ones),
  spaces trimmed and runs of spaces made one;
* no control, format (zero-width, bidi overrides and isolates, soft hyphen),
  line-separator, private-use or unassigned character, nor an invisible filler
  (the default-ignorable characters of Unicode TR39, the Hangul fillers, the
  braille blank);
* the letters of one name come from one alphabet (Latin, Cyrillic, Greek, ...;
  Chinese and Japanese or Chinese and Korean characters may mix, as they do);
* at most two combining marks in a row, each after a letter.

:func:`nickname_key` is the name's *skeleton*, in the spirit of TR39: case
folded, and the letters and digits that look like others mapped to one of them
(Cyrillic ``а`` and Greek ``α`` to Latin ``a``, ``0`` to ``o``, ``1``/``I``/``|`` to
``l``, ``rn`` to ``m``). Two nicknames with one key look alike; the class's
store lets one learner hold each key
(:meth:`~safari_kit.class_results.class_store.ResultStore.claim_nickname`).
"""
from __future__ import annotations

import re
import unicodedata

__all__ = ["NICKNAME_MAX", "RAW_MAX", "NicknameError", "clean_nickname", "nickname_key", "excerpt"]

NICKNAME_MAX = 30   # characters of the cleaned nickname
RAW_MAX = 4 * NICKNAME_MAX  # characters of what was typed, read before anything else (spaces, wide letters)

#: invisible or direction-changing characters that are not in a format category (TR39's default ignorables
#: in other categories, the Hangul fillers, the braille blank, variation selectors, the combining grapheme joiner)
_INVISIBLE = re.compile("[\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u2800\u3164\ufe00-\ufe0f\uffa0"
                        "\U000e0100-\U000e01ef]")
_REFUSED_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
#: alphabets that one name may mix (Japanese writes kanji with kana; Korean may write hanja)
_MIXES = ({"CJK", "HIRAGANA", "KATAKANA", "KATAKANA-HIRAGANA"}, {"CJK", "HANGUL"})

# letters of other alphabets that look like Latin ones, and Latin/digit look-alikes (a small part of TR39's table).
# Capitals are mapped before case folding (Greek capital Eta looks like H, its small letter does not), small
# letters after; i and I go to l with 1 and |, so that "Iris", "iris" and "lris" share a key
_CAPITALS = str.maketrans({
    **dict(zip("АВЕЅІЈКМНОРСТХУԌԜ", "abesijkmhopctxygw")),   # Cyrillic
    **dict(zip("ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ", "abezhikmnoptyx")),         # Greek
    "I": "l", "O": "o",
})
_SMALL = str.maketrans({
    **dict(zip("аеорсухіјѕԁһӏԛԝ", "aeopcyxijsdhlqw")),       # Cyrillic
    **dict(zip("αοικνρτυχω", "aoikvptuxw")),                 # Greek
    "0": "o", "1": "l", "|": "l", "i": "l", "ı": "l",
})


class NicknameError(ValueError):
    """A nickname that cannot be used; the message is the sentence the learner reads (no code words)."""


def excerpt(text: str, limit: int = 20) -> str:
    """At most ``limit`` characters of ``text`` (and how long it was), for an error message.

    >>> excerpt("x" * 900_000)
    "'xxxxxxxxxxxxxxxxxxxx' ... (900000 characters)"
    """
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r} ... ({len(text)} characters)"


def _script(char: str) -> str | None:
    """The alphabet of a letter, from its Unicode name's first word (None: not a letter)."""
    if not unicodedata.category(char).startswith("L"):
        return None
    name = unicodedata.name(char, "")
    if name.startswith("MODIFIER LETTER"):
        return None
    word = name.split(" ", 1)[0]
    return "CJK" if word in ("CJK", "IDEOGRAPHIC") else word or None


def clean_nickname(raw: object) -> str:
    """The nickname the class sees for what the learner typed; raises :class:`NicknameError` (the learner's
    sentence) when it cannot be used.

    >>> [clean_nickname(x) for x in ("  Zed  ", "Ｚｅｄ", "Amy   Lee")]
    ['Zed', 'Zed', 'Amy Lee']
    >>> clean_nickname("Z\\u0435d")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    safari_kit.class_results.nicknames.NicknameError: That nickname mixes letters of different alphabets ...
    """
    if not isinstance(raw, str):
        raise NicknameError("Type a nickname: letters, digits and spaces.")
    if len(raw) > RAW_MAX:  # before anything else: nothing of a huge text is read or repeated
        raise NicknameError(f"That nickname is too long. Use up to {NICKNAME_MAX} letters.")
    text = unicodedata.normalize("NFKC", raw)
    # before spaces are collapsed: a line break or tab is a control character, not a space
    if _INVISIBLE.search(text) or any(unicodedata.category(c) in _REFUSED_CATEGORIES for c in text):
        raise NicknameError("That nickname has a hidden or control character in it. "
                            "Use letters, digits and spaces you can see.")
    name = " ".join(text.split())
    if not name:
        raise NicknameError(f"Type a nickname first (up to {NICKNAME_MAX} letters), then press Join.")
    if len(name) > NICKNAME_MAX:
        raise NicknameError(f"That nickname is too long. Use up to {NICKNAME_MAX} letters.")
    scripts = {s for s in map(_script, name) if s}
    if len(scripts) > 1 and not any(scripts <= mix for mix in _MIXES):
        raise NicknameError("That nickname mixes letters of different alphabets (such as Latin and Cyrillic). "
                            "Use one alphabet.")
    marks = 0
    for i, char in enumerate(name):
        if unicodedata.category(char).startswith("M"):
            marks += 1
            if marks > 2 or i == 0 or name[i - marks].isspace():
                raise NicknameError("That nickname has too many accents on one letter. Use fewer.")
        else:
            marks = 0
    return name


def nickname_key(name: str) -> str:
    """The skeleton of a cleaned nickname: two nicknames that look alike have the same key.

    >>> {nickname_key(n) for n in ("Zed", "zed", "ZED", "Ζed")}  # the last with a Greek capital Zeta
    {'zed'}
    >>> nickname_key("Аnn") == nickname_key("Ann"), nickname_key("B0b") == nickname_key("Bob")
    (True, True)
    >>> nickname_key("Iris") == nickname_key("lris"), nickname_key("rnax") == nickname_key("max")
    (True, True)
    """
    text = unicodedata.normalize("NFKC", name).translate(_CAPITALS).casefold()
    text = unicodedata.normalize("NFKC", text).translate(_SMALL).translate(_SMALL)  # Cyrillic і -> i -> l
    return " ".join(text.replace("rn", "m").split())
