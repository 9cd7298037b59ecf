"""The class server's old import paths (before issue 28 put it in safari_kit.classroom) still work for a release,
each with a DeprecationWarning naming the new path; the config strings users may have typed resolve as before."""
from __future__ import annotations

import importlib
import json
import subprocess
import sys

import pytest

pytest.importorskip("voila")

from safari_kit.server._moved import MOVED  # noqa: E402


WARNINGS_ON_IMPORT = """\
import importlib, json, sys, warnings
found = {}
for old in sys.argv[1:]:
    if old in sys.modules:  # imported already, by an old path imported before it: ask a fresh interpreter
        continue
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        importlib.import_module(old)
    found[old] = [f"{w.category.__name__}: {w.message}" for w in caught]
print(json.dumps(found))
"""


def _warnings_on_first_import(paths: list[str]) -> dict[str, list[str]]:
    """The warnings each path gives when first imported, from one interpreter for all (0.9 CPU-s each saved)."""
    out = subprocess.run([sys.executable, "-c", WARNINGS_ON_IMPORT, *paths], capture_output=True, text=True,
                         check=True).stdout
    return json.loads(out)


@pytest.fixture(scope="module")
def first_imports() -> dict[str, list[str]]:
    return _warnings_on_first_import(sorted(MOVED))


@pytest.mark.parametrize("old", sorted(MOVED))
def test_an_old_path_warns_and_names_the_new_one(old, first_imports):
    """A module warns once, when first imported: each path is imported first in one interpreter (a fresh one
    where an old path imported before it imported it already)."""
    caught = first_imports[old] if old in first_imports else _warnings_on_first_import([old])[old]
    assert any(f"DeprecationWarning: {old} has moved to {MOVED[old][0]}" in w for w in caught), caught


@pytest.mark.parametrize("old, name, new", [
    ("safari_kit.server.kernels", "ClassroomKernelManager", "safari_kit.classroom.kernels"),
    ("safari_kit.server.kernels", "ClassroomWebsocketConnection", "safari_kit.classroom.kernels"),
    ("safari_kit.server.owners", "KernelOwnerIdentityProvider", "safari_kit.classroom.owners"),
    ("safari_kit.server.classroom", "ClassSettings", "safari_kit.classroom.settings"),
    ("safari_kit.server.classroom", "voila_config", "safari_kit.classroom.config"),
    ("safari_kit.server.classroom", "learner_urls", "safari_kit.classroom.addresses"),
    ("safari_kit.server.classroom", "trust_notebook", "safari_kit.classroom.serve"),
    ("safari_kit.server.classroom", "run", "safari_kit.classroom.serve"),
    ("safari_kit.classroom_web.app", "run", "safari_kit.classroom.serve"),
    ("safari_kit.classroom_web.app", "ClassroomVoila", "safari_kit.classroom.recording"),
    ("safari_kit.classroom_web.teacher", "TeacherAccess", "safari_kit.classroom.teacher"),
    ("safari_kit.classroom_web.wrong_keys", "WrongKeys", "safari_kit.classroom.wrong_keys"),
])
def test_an_old_name_is_the_new_object(old, name, new):
    with pytest.warns(DeprecationWarning) if old not in sys.modules else _nothing():
        module = importlib.import_module(old)
    assert getattr(module, name) is getattr(importlib.import_module(new), name)


def test_a_config_string_with_the_old_path_resolves_as_traitlets_does():
    """``--VoilaConfiguration.multi_kernel_manager_class=safari_kit.server.kernels.ClassroomKernelManager``."""
    from traitlets.utils.importstring import import_item

    from safari_kit.classroom.kernels import ClassroomKernelManager

    assert import_item("safari_kit.server.kernels.ClassroomKernelManager") is ClassroomKernelManager


def test_a_missing_name_is_an_attribute_error_naming_the_new_home():
    module = importlib.import_module("safari_kit.server.classroom")
    with pytest.raises(AttributeError, match="moved to safari_kit.classroom.serve"):
        module.no_such_name  # noqa: B018


def test_loading_the_extension_imports_nothing_of_the_class_server():
    code = ("import sys, safari_kit.server\n"
            "print(sorted(m for m in sys.modules if m.startswith(('safari_kit.server.', 'safari_kit.classroom'))))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['safari_kit.server.nodelay']"


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False
