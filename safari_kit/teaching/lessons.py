"""The lessons' exercises: each answer is computed with the kit, never typed in.

Keys are ``"<notebook>.<name>"``, e.g. ``"01.owl"``; notebooks call
``check("01.owl", answer)``. Each lesson registers its exercises in its own
module ``safari_kit/teaching/lesson_*.py``; importing this module imports them all.
"""
from __future__ import annotations

import importlib
import pkgutil

import safari_kit.teaching as _pkg

for _info in sorted(pkgutil.iter_modules(_pkg.__path__), key=lambda m: m.name):
    if _info.name.startswith("lesson_"):
        importlib.import_module(f"safari_kit.teaching.{_info.name}")
