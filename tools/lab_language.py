"""JupyterLab's own menus in a learner's language for one `make lab` run (issue 30): ``make lab LAB_LANG=es``.

    python tools/lab_language.py es .venv/lab-settings-es     # prints the folder to give jupyter lab

JupyterLab speaks a language when its language pack is installed (``jupyterlab-language-pack-es-ES``: the kit's
``lab`` extra installs it) and its translation setting names that pack. A learner can pick it in JupyterLab's
Settings > Language menu, and JupyterLab remembers it. For a class that starts in Spanish, `make lab LAB_LANG=es`
makes it the default of that run without touching the learner's own settings: this script writes a folder of
JupyterLab's application settings (``overrides.json``: the kit's own overrides, installed with the kit, plus the
translation setting) and the Makefile starts ``jupyter lab --LabApp.app_settings_dir=<that folder>``. A learner
who then picks another language in the Settings menu keeps their choice.

A language without an installed pack is refused in one sentence naming what to install.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

TRANSLATION_PLUGIN = "@jupyterlab/translation-extension:plugin"
#: the overrides the kit installs for every JupyterLab of the venv (no news toast: pyproject's force-include)
KIT_OVERRIDES = Path(sys.prefix) / "share" / "jupyter" / "lab" / "settings" / "overrides.json"


class LabLanguageError(ValueError):
    """No JupyterLab language pack for the language asked for (the message says what to install)."""


def installed_packs() -> dict[str, str]:
    """The installed JupyterLab language packs: locale (``es_ES``) -> its own name."""
    from jupyterlab_server.translation_utils import get_language_packs

    packs, _message = get_language_packs()
    return {locale: info.get("nativeName", locale) for locale, info in packs.items() if locale != "en"}


def pack_for(lang: str, packs: dict[str, str]) -> str | None:
    """The pack's locale for ``lang`` (``es`` or ``es-ES`` -> ``es_ES``); ``en``: None (JupyterLab's own)."""
    tag = lang.strip().replace("-", "_")
    if tag.split("_")[0].lower() == "en":
        return None
    exact = [p for p in packs if p.lower() == tag.lower()]
    same = [p for p in sorted(packs) if p.split("_")[0].lower() == tag.split("_")[0].lower()]
    if exact or same:
        return (exact or same)[0]
    raise LabLanguageError(f"no JupyterLab language pack for {lang[:20]!r} is installed (installed: "
                           f"{', '.join(sorted(packs)) or 'none'}); install it with `pip install "
                           f"jupyterlab-language-pack-<lang>-<COUNTRY>`, e.g. jupyterlab-language-pack-es-ES")


def write_settings(lang: str, folder: Path, packs: dict[str, str] | None = None,
                   kit_overrides: Path = KIT_OVERRIDES) -> Path:
    """Write ``folder/overrides.json`` (the kit's overrides and ``lang``'s pack as JupyterLab's locale)."""
    locale = pack_for(lang, installed_packs() if packs is None else packs)
    overrides = json.loads(kit_overrides.read_text()) if kit_overrides.is_file() else {}
    if locale is not None:
        overrides.setdefault(TRANSLATION_PLUGIN, {})["locale"] = locale
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "overrides.json").write_text(json.dumps(overrides, indent=2) + "\n")
    return folder


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2:
        print("usage: python tools/lab_language.py LANG FOLDER  (e.g. es .venv/lab-settings-es)", file=sys.stderr)
        return 2
    try:
        print(write_settings(args[0], Path(args[1])))
    except (LabLanguageError, OSError, ValueError) as exc:
        print(f"make lab LAB_LANG={args[0][:20]}: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
