"""Old import paths of the class server, kept for one release with a DeprecationWarning (issue 28).

Until issue 28 the class server lived here, beside the Jupyter server extension, and its teacher's page
in ``safari_kit.classroom_web``; both moved into :mod:`safari_kit.classroom`. Users' configs and scripts
may name the old paths (``--VoilaConfiguration.multi_kernel_manager_class=
safari_kit.server.kernels.ClassroomKernelManager``), so each old module stays as a stub that warns and
hands over the new module (:func:`alias`) or its names (:func:`forward`).

The extension island imports nothing of the kit (import-linter's contract): the stubs name the new
modules as text and import them with :mod:`importlib`, only when someone imports an old path. Loading
``safari_kit.server`` as an extension never runs them. Remove the stubs in the release after next.
"""
from __future__ import annotations

import importlib
import sys
import types
import warnings
from collections.abc import Callable

__all__ = ["alias", "forward", "MOVED"]

#: old module -> its new module(s): the stubs' single list (tests/server/test_old_paths.py imports each)
MOVED: dict[str, tuple[str, ...]] = {
    "safari_kit.server.classroom": ("safari_kit.classroom.serve", "safari_kit.classroom.settings",
                                    "safari_kit.classroom.config", "safari_kit.classroom.addresses"),
    "safari_kit.server.kernels": ("safari_kit.classroom.kernels",),
    "safari_kit.server.owners": ("safari_kit.classroom.owners",),
    "safari_kit.server.owner_tags": ("safari_kit.classroom.owner_tags",),
    "safari_kit.server.ready_labs": ("safari_kit.classroom.ready_labs",),
    "safari_kit.server.lab_pages": ("safari_kit.classroom.lab_pages",),
    "safari_kit.server.lab_holds": ("safari_kit.classroom.lab_holds",),
    "safari_kit.server.page_sockets": ("safari_kit.classroom.page_sockets",),
    "safari_kit.server.request_log": ("safari_kit.classroom.request_log",),
    "safari_kit.classroom_web.app": ("safari_kit.classroom.serve", "safari_kit.classroom.recording"),
    "safari_kit.classroom_web.teacher": ("safari_kit.classroom.teacher",),
    "safari_kit.classroom_web.wrong_keys": ("safari_kit.classroom.wrong_keys",),
    "safari_kit.classroom_web.lab_words": ("safari_kit.classroom.lab_words",),
}


def _warn(old: str) -> None:
    new = " and ".join(MOVED[old])
    warnings.warn(f"{old} has moved to {new} (issue 28); the old path goes in a later release",
                  DeprecationWarning, stacklevel=3)


def alias(old: str) -> types.ModuleType:
    """Warn, then make the module ``old`` the very module it moved to (its names, and patches of them, are one)."""
    _warn(old)
    (new,) = MOVED[old]
    module = importlib.import_module(new)
    sys.modules[old] = module
    return module


def forward(old: str) -> Callable[[str], object]:
    """Warn, then return a module ``__getattr__`` that finds each name in the modules ``old`` was split into."""
    _warn(old)
    modules = [importlib.import_module(name) for name in MOVED[old]]

    def __getattr__(name: str) -> object:
        for module in modules:
            if name in getattr(module, "__all__", ()) or (hasattr(module, name) and not name.startswith("__")):
                return getattr(module, name)
        raise AttributeError(f"module {old!r} has no attribute {name!r} (it moved to {' and '.join(MOVED[old])})")

    return __getattr__
