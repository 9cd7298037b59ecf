"""Old import paths of what left ``safari_kit.teaching`` (issue 28), kept for one release with a DeprecationWarning.

Until issue 28, ``teaching`` held four concerns; each has its own package now: the authoring tools run when
the lessons are built (:mod:`safari_kit.authoring`), the class's results (:mod:`safari_kit.class_results`) and
the Rules tutorials with the learners' rules pages (:mod:`safari_kit.tutorial`). Lessons, scripts, configs and
the teachers' notes may still name the old paths (``from safari_kit.teaching import tutorials``,
``python -m safari_kit.teaching.learner_rules.notebook``), so importing one warns, naming the new path, and
hands over the new module itself (``sys.modules`` points the old name at it: its names, and patches of them,
are one).

Why a finder rather than a stub file per module: a stub per old module would put 25 files back beside the
lessons (and any walk over the package would import them and warn); and the authoring tools are in the layer
*above* this one, so a stub importing them would be an upward import. The finder names the new modules as text
and imports them with :mod:`importlib`, only when an old path is imported, so ``lint-imports`` sees no edge
(for ``class_results`` and ``tutorial``, the layers below, there would be none to hide anyway).
``safari_kit/teaching/__init__.py`` installs it. Remove it in the release after next.
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import types
import warnings

__all__ = ["MOVED", "OldPaths", "install"]

_NEW = {
    "safari_kit.authoring": ("student", "workspace", "answer_leaks", "learner_words"),
    "safari_kit.class_results": ("bounded_numbers", "class_export", "class_files", "class_hold", "class_learner",
                                 "class_records", "class_session", "class_store", "class_tables", "learner_tags",
                                 "nicknames", "recorder", "results_file", "results_pool", "teacher_page"),
    "safari_kit.tutorial": ("tutorials", "tutorial_quiz", "rulebook", "learner_rules", "learner_rules.agreement",
                            "learner_rules.html", "learner_rules.notebook"),
}

#: old module -> the module it moved to (tests/teaching/test_old_paths.py imports each)
MOVED: dict[str, str] = {f"safari_kit.teaching.{name}": f"{package}.{name}"
                         for package, names in _NEW.items() for name in names}


class OldPaths(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds the old paths of :data:`MOVED` only; every other import goes on to the usual finders."""

    def find_spec(self, fullname: str, path: object = None,
                  target: object = None) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MOVED:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> None:
        return None  # a placeholder module; exec_module replaces it with the new one

    def exec_module(self, module: types.ModuleType) -> None:
        old = module.__name__
        new = MOVED[old]
        # stacklevel 2 is this frame; the import system's own frames are skipped, so the warning names the
        # line that imported the old path
        warnings.warn(f"{old} has moved to {new} (issue 28); the old path goes in a later release",
                      DeprecationWarning, stacklevel=2)
        # the import system hands the importer whatever sys.modules holds under the old name when this returns
        sys.modules[old] = importlib.import_module(new)

    def get_code(self, fullname: str) -> types.CodeType:
        """``python -m <old path>`` (docs/teachers.md named ``-m safari_kit.teaching.learner_rules.notebook``):
        runpy asks for the old module's code; it is a two-line hand-over that warns and runs the new module as
        ``__main__`` (its own file, its own ``__spec__``)."""
        source = (f"import runpy, warnings\n"
                  f"warnings.warn({fullname!r} + ' has moved to ' + {MOVED[fullname]!r} + "
                  f"' (issue 28); the old path goes in a later release', DeprecationWarning, stacklevel=1)\n"
                  f"runpy.run_module({MOVED[fullname]!r}, run_name='__main__', alter_sys=True)\n")
        return compile(source, f"<old path {fullname}>", "exec")


def install() -> None:
    """Put the finder first on :data:`sys.meta_path`, once (before the path finder, which would find nothing)."""
    if not any(isinstance(finder, OldPaths) for finder in sys.meta_path):
        sys.meta_path.insert(0, OldPaths())
