"""The Binder configuration, checked without Docker.

``repo2docker --no-build --debug .`` prints the Dockerfile it would build.
These tests read it and hold the Binder setup to account:

* the image's Python is the one ``binder/runtime.txt`` asks for (3.12; pandas 3
  needs 3.11 or newer, and without runtime.txt repo2docker picks 3.10);
* ``binder/requirements.txt`` is the one file pip installs (with a ``binder/``
  folder, root-level configuration is ignored);
* that install runs AFTER the repository is copied into the image. repo2docker
  installs a requirements.txt *before* copying the repository (a cacheable
  "pre-assemble" step) unless the file refers to local paths; our file holds
  ``-e .`` so it must be an "assemble" step, run from the repository root
  (WORKDIR), where ``.`` is the kit. A control test shows the order flips
  when ``-e .`` is missing, so the order check is not vacuous;
* the kernel and the server share one environment, so anywidget's JupyterLab
  extension is visible to the server (otherwise the page shows "No version
  of module anywidget is registered").
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
BINDER = REPO / "binder"

# Packages the kit's notebooks need, pinned to a minor version ("X.Y.*").
MINOR_PINNED = {
    "jupyterlab": "4.6",
    "ipywidgets": "8.1",
    "anywidget": "0.11",
    "pandas": "3.1",
    "numpy": None,  # any minor of 2.x, but pinned to one
    "matplotlib": None,
    "ipykernel": None,
    "voila": None,
    "jupytext": "1.19",  # keeps notebooks/NN-*.ipynb and their texts NN-*.md in sync in JupyterLab
}


def _repo2docker() -> str:
    exe = Path(sys.executable).parent / "repo2docker"
    if exe.exists():
        return str(exe)
    found = shutil.which("repo2docker")
    if found:
        return found
    msg = "repo2docker is not installed (it is in the test extra: pip install -e '.[test]')"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(msg)
    pytest.skip(msg)


def _generate(repo: Path) -> str:
    proc = subprocess.run(
        [_repo2docker(), "--no-build", "--debug", "."],
        cwd=repo, capture_output=True, text=True, timeout=120,
    )
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, f"repo2docker --no-build failed:\n{out}"
    return out


def _dockerfile_lines(out: str) -> list[str]:
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("FROM "))
    return lines[start:]


@pytest.fixture(scope="module")
def generated() -> str:
    return _generate(REPO)


def _index(lines: list[str], pattern: str) -> list[int]:
    rx = re.compile(pattern)
    return [i for i, line in enumerate(lines) if rx.search(line)]


# -- the files themselves -----------------------------------------------------

def _requirements() -> list[str]:
    text = (BINDER / "requirements.txt").read_text(encoding="utf-8")
    return [line.split("#", 1)[0].strip() for line in text.splitlines()
            if line.split("#", 1)[0].strip()]


def test_runtime_is_python_312():
    assert (BINDER / "runtime.txt").read_text(encoding="utf-8").strip() == "python-3.12"


def test_requirements_are_minor_pinned_and_install_the_kit():
    reqs = _requirements()
    assert "-e ." in reqs, "binder/requirements.txt must install the kit itself with `-e .`"
    pins = {}
    for line in reqs:
        m = re.fullmatch(r"([A-Za-z0-9_.\-]+)\s*==\s*(\d+)\.(\d+)\.\*", line)
        if m:
            pins[m.group(1).lower()] = f"{m.group(2)}.{m.group(3)}"
    for name, minor in MINOR_PINNED.items():
        assert name in pins, f"{name} is not pinned to a minor version (NAME==X.Y.*) in {reqs}"
        if minor is not None:
            assert pins[name] == minor, f"{name}=={pins[name]}.* but the kit is tested with {minor}.*"
    assert pins["numpy"].startswith("2."), pins["numpy"]


def test_postbuild_stops_on_errors():
    post = BINDER / "postBuild"
    lines = [line for line in post.read_text(encoding="utf-8").splitlines()
             if line.strip() and not line.startswith("#")]
    assert lines and lines[0].strip() == "set -euo pipefail", "postBuild must start with set -euo pipefail"


# -- what repo2docker generates -----------------------------------------------

def test_python_version_is_312(generated):
    versions = re.findall(r"environment for python=(\S+)", generated)
    assert versions == ["3.12"], generated[:2000]
    # the base environment lock file is the 3.12 one
    assert re.search(r"environment[-.]py-3[-.]12", generated.replace("-2e", ".").replace("-2d", "-"))


def test_binder_requirements_is_what_pip_installs(generated):
    lines = _dockerfile_lines(generated)
    installs = [lines[i] for i in _index(lines, r"pip install")]
    assert len(installs) == 1, installs
    assert re.search(r'-r "?binder/requirements\.txt"?', installs[0]), installs[0]
    # no root-level config sneaks in (setup.py / root requirements / environment.yml)
    assert not _index(lines, r'(^|[\s"])requirements\.txt'), "a root requirements.txt is installed"
    assert "setup.py" not in generated
    assert not _index(lines, r"environment\.yml")


def test_requirements_install_comes_after_the_repository_is_copied(generated):
    lines = _dockerfile_lines(generated)
    copy_repo = _index(lines, r"^COPY .*\bsrc/ \$\{REPO_DIR\}/\s*$")
    install = _index(lines, r'^RUN .*pip install .*-r "?binder/requirements\.txt')
    workdir = _index(lines, r"^WORKDIR \$\{REPO_DIR\}")
    assert len(copy_repo) == 1 and len(install) == 1 and workdir, "\n".join(lines)
    assert workdir[0] < copy_repo[0] < install[0], (
        "binder/requirements.txt (with `-e .`) must be installed after the repository "
        "is copied, from the repository root:\n" + "\n".join(lines))


def test_kernel_and_server_share_one_environment(generated):
    # anywidget's labextension must be in the server's environment, and the
    # kit in the kernel's: with python 3.x repo2docker uses one env for both.
    assert "ENV KERNEL_PYTHON_PREFIX=${NB_PYTHON_PREFIX}" in generated


def test_the_kit_s_server_extension_config_lands_where_the_server_runs(generated):
    """Nagle off on Binder: `-e .` installs etc/jupyter/jupyter_server_config.d/safari_kit.json
    (enabling safari_kit.server, README "Quick clicks") into the prefix of the pip that runs it;
    that pip must be the Jupyter server's own (first on PATH), whose sys.prefix/etc/jupyter
    jupyter_server reads. tests/binder/test_binder_env.py checks the file there in a real install.
    """
    lines = _dockerfile_lines(generated)
    install = [lines[i] for i in _index(lines, r'pip install .*-r "?binder/requirements\.txt')]
    assert len(install) == 1 and install[0].startswith("RUN ${KERNEL_PYTHON_PREFIX}/bin/pip "), install
    assert "ENV KERNEL_PYTHON_PREFIX=${NB_PYTHON_PREFIX}" in generated
    assert _index(lines, r"^ENV PATH=\$\{NB_PYTHON_PREFIX\}/bin:"), "the server is not the NB_PYTHON_PREFIX one"
    assert "-e ." in _requirements()


def test_control_without_local_install_requirements_go_before_the_copy(tmp_path):
    """Control: drop `-e .` and repo2docker installs requirements before the copy.

    This is why `-e .` must be in binder/requirements.txt (and why the order
    test above is meaningful): a plain requirements file is a pre-assemble step,
    run before the repository exists in the image.
    """
    (tmp_path / "binder").mkdir()
    shutil.copy(BINDER / "runtime.txt", tmp_path / "binder" / "runtime.txt")
    plain = [r for r in _requirements() if r != "-e ."]
    (tmp_path / "binder" / "requirements.txt").write_text("\n".join(plain) + "\n")
    lines = _dockerfile_lines(_generate(tmp_path))
    copy_repo = _index(lines, r"^COPY .*\bsrc/ \$\{REPO_DIR\}/\s*$")
    install = _index(lines, r'^RUN .*pip install .*-r "?binder/requirements\.txt')
    assert len(copy_repo) == 1 and len(install) == 1
    assert install[0] < copy_repo[0]


def test_postbuild_runs_after_the_kit_is_installed(generated):
    """binder/postBuild (the learners' and the teacher's copies, tests/binder/test_binder_doors.py) calls
    `safari-kit`: it must run after the pip install that puts the command there, from the repository root."""
    lines = _dockerfile_lines(generated)
    install = _index(lines, r'^RUN .*pip install .*-r "?binder/requirements\.txt')
    post = _index(lines, r"^RUN \./binder/postBuild\s*$")
    workdir = _index(lines, r"^WORKDIR \$\{REPO_DIR\}")
    assert len(install) == 1 and len(post) == 1, "\n".join(lines)
    assert workdir[0] < install[0] < post[0], "\n".join(lines)
