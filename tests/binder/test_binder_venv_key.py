"""The key under which test_binder_env.py keeps Binder's venv between runs (issue 28): what a fresh venv depends on.

A kept venv must never stand in for one that a fresh build would make differently, so any change to the
pinned lists, to Binder's Python or to the kit's own dependencies (``-e .``) gives a new key (a new venv).
"""
from __future__ import annotations

import sys

from tests.binder import test_binder_env as env


def _key(monkeypatch, tmp_path, requirements: str, runtime: str = "python-3.12\n",
         python: str = sys.executable) -> str:
    binder = tmp_path / "binder"
    binder.mkdir(exist_ok=True)
    (binder / "requirements.txt").write_text(requirements)
    (binder / "runtime.txt").write_text(runtime)
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "k"\ndependencies = ["numpy"]\n')
    monkeypatch.setattr(env, "REPO", tmp_path)
    monkeypatch.setattr(env, "REQUIREMENTS", binder / "requirements.txt")
    return env._cache_key(python)


def test_same_lists_same_key(monkeypatch, tmp_path):
    assert _key(monkeypatch, tmp_path, "pandas==3.1.*\n") == _key(monkeypatch, tmp_path, "pandas==3.1.*\n")


def test_a_changed_pin_runtime_or_dependency_gives_a_new_venv(monkeypatch, tmp_path):
    base = _key(monkeypatch, tmp_path, "pandas==3.1.*\n")
    assert _key(monkeypatch, tmp_path, "pandas==3.2.*\n") != base
    assert _key(monkeypatch, tmp_path, "pandas==3.1.*\n", runtime="python-3.13\n") != base
    (tmp_path / "binder" / "requirements.txt").write_text("pandas==3.1.*\n")
    key_then = env._cache_key(sys.executable)
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "k"\ndependencies = ["numpy", "scipy"]\n')
    assert env._cache_key(sys.executable) != key_then


def test_the_kept_venv_lives_outside_the_repository(monkeypatch, tmp_path):
    monkeypatch.delenv("SAFARI_KIT_TEST_CACHE", raising=False)
    assert env.cache_root().resolve().is_relative_to(env.REPO.resolve()) is False
