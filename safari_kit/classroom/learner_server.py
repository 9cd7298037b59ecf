"""A learner's own JupyterHub server, started with their lessons ready (issue 29).

``python -m safari_kit.classroom.learner_server [jupyterhub-singleuser's arguments]`` is the command the kit's
``lessons_servers.py`` gives every learner's server (``c.Spawner.cmd``; Zero to JupyterHub's
``singleuser.cmd``). It runs *as the learner*, in their home (a system user's, a container's), so it works
with every spawner: it brings the learner's copies of the lessons up to date, the way
``safari-kit lessons --student lessons`` does, then becomes ``jupyterhub-singleuser`` (``exec``: the hub
talks to that process as usual).

Why a start step and not a hub hook (``Spawner.pre_spawn_hook``): the hook runs in the hub's process, as the
hub's user, on the hub's machine, while a learner's home is in a container or belongs to another user.

The copies are the learners' answer-free copies (no solutions, no teachers' notes). A copy the learner edited
is kept at every start (:func:`safari_kit.authoring.workspace.sync_copies`: saved work is never overwritten);
a missing one is made; one the learner only ran is updated to a newer lesson. If the copies cannot be made (a
full disk, a broken install), the server starts all the same and the reason goes to the server's log: a learner
can still open their saved work.
"""
from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

__all__ = ["LESSONS_DIR_ENV", "lessons_folder", "make_copies", "singleuser_command", "main"]

#: where the copies go, relative to the server's folder (its working directory) unless absolute
LESSONS_DIR_ENV = "SAFARI_KIT_LESSONS_DIR"
DEFAULT_FOLDER = "lessons"


def lessons_folder(environ=os.environ, cwd: Path | None = None) -> Path:
    """The learner's folder of lessons: ``$SAFARI_KIT_LESSONS_DIR``, else ``lessons/`` in the folder the server
    starts in (JupyterLab's root: the learner's home with every spawner the docs name)."""
    root = Path.cwd() if cwd is None else cwd
    return root / (environ.get(LESSONS_DIR_ENV, "").strip() or DEFAULT_FOLDER)


def make_copies(dest: Path) -> list[str]:
    """Bring the learner's answer-free copies in ``dest`` up to date; the lines ``safari-kit lessons`` prints."""
    from safari_kit.authoring.student import read_lesson, strip_solutions
    from safari_kit.authoring.workspace import kit_lessons, sync_copies

    def student_copy(path: Path) -> dict:
        return strip_solutions(read_lesson(path))[0]

    return [str(copied) for copied in sync_copies(kit_lessons(), dest, make_copy=student_copy)]


def singleuser_command(argv: list[str]) -> list[str]:
    """``jupyterhub-singleuser`` with ``argv``: the one beside this Python (a venv the hub runs without
    activating it), else the one on ``PATH``."""
    beside = Path(sys.executable).with_name("jupyterhub-singleuser")
    program = str(beside) if beside.is_file() else shutil.which("jupyterhub-singleuser") or "jupyterhub-singleuser"
    return [program, *argv]


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    dest = lessons_folder()
    try:
        for line in make_copies(dest):
            print(f"safari-kit lessons: {line}", flush=True)
    except Exception as exc:  # noqa: BLE001 - the server must start anyway: the learner's saved work is there
        print(f"safari-kit lessons: the lessons were not copied into {dest} ({type(exc).__name__}: {exc}); "
              "the server starts without them", file=sys.stderr, flush=True)
    command = singleuser_command(argv)
    os.execvp(command[0], command)


if __name__ == "__main__":  # pragma: no cover - exec'd by the hub's spawner
    main()
