"""The kit's JupyterHub config (issue 29): one class service and one role per class.

Run it with ``jupyterhub -f $(python -m safari_kit.classroom.hub_config)``, or copy it and edit the copy.
Edit CLASSES below: one line per class. For each class the hub then has

* a **service** named after the class: ``safari-kit class --hub`` (the classroom app, its labs, the
  teacher's page), started and stopped by the hub, at ``<hub>/services/<class>/``;
* a **role** ``class-<class>`` giving the class's two groups access to it: the learners' group
  (``<class>``, e.g. ``7b``) and the teachers' group (``teachers-<class>``, who also open the teacher's
  page at ``<hub>/services/<class>/teacher`` after the hub's login). The hub's admins open every class.
* its **results** in ``RESULTS/<class>/`` (one SQLite file per session, as ``safari-kit class --results``).

The groups are created empty: put learners and teachers in them on the hub's admin page (Admin >
Groups), or with your authenticator's groups. What else your hub needs (its authenticator, its public
address ``c.JupyterHub.public_url``, HTTPS) is yours to add: see JupyterHub's docs.

Learners never run code on a class service: Voilà refuses it, so games stay fair (the cards are hidden in
the service's labs). Per-learner servers, where each learner owns a kernel, are for lessons and homework:
when a file ``lessons_servers.py`` is beside this one, it is loaded at the end.
"""
import os
import shlex
import sys
from pathlib import Path

#: the classes: name (letters, digits, '-'), and the port of its service on this machine (free, not public)
CLASSES: list[dict] = [
    {"name": "7b", "port": 8071},
    {"name": "8c", "port": 8072},
]
#: where each class's results go (a folder per class); SAFARI_KIT_HUB_RESULTS overrides it
RESULTS = Path(os.environ.get("SAFARI_KIT_HUB_RESULTS", "class-results")).resolve()
#: the app notebook: SAFARI_KIT_APP, else the checkout's notebooks/app.ipynb (beside the kit), else the hub's folder's
_CHECKOUT_APP = Path(__file__).resolve().parents[3] / "notebooks" / "app.ipynb"
APP = os.environ.get("SAFARI_KIT_APP") or str(_CHECKOUT_APP if _CHECKOUT_APP.is_file() else Path("notebooks/app.ipynb")
                                              .resolve())
#: more options for every class service (safari-kit class --help), e.g. "--ready-labs 20 --memory-mb 400"
OPTIONS = shlex.split(os.environ.get("SAFARI_KIT_CLASS_OPTIONS", ""))
#: seconds the hub waits for a class service to answer at its start (ready labs start in the background; the
#: service answers once Voilà listens, which on a busy 2-core machine took up to a minute)
START_TIMEOUT = 120

try:
    c = get_config()  # type: ignore[name-defined] # noqa: F821 - JupyterHub's config loader defines it
except NameError:  # imported (pytest's doctests, a linter), not loaded by JupyterHub: build it all the same
    from traitlets.config import Config

    c = Config()


def class_service(name: str, port: int) -> dict:
    """The hub's managed service for the class ``name``."""
    return {
        "name": name,
        "url": f"http://127.0.0.1:{port}",
        "command": [sys.executable, "-m", "safari_kit", "class", APP, "--hub", "--teacher-group", f"teachers-{name}",
                    "--results", str(RESULTS / name), *OPTIONS],
        "oauth_no_confirm": True,  # the kit's own service: no "authorize access?" page before the class's app
        "timeout": START_TIMEOUT,
        "display": True,  # listed on the hub's home page, under Services
        # under the hub a service's output is a pipe: unbuffered, so its addresses reach the hub's log at once
        "environment": {"PYTHONUNBUFFERED": "1"},
    }


def class_role(name: str) -> dict:
    """Who may open the class's service: its learners' group and its teachers' group."""
    return {"name": f"class-{name}", "description": f"Open the class service {name}",
            "scopes": [f"access:services!service={name}"], "groups": [name, f"teachers-{name}"]}


c.JupyterHub.services = [class_service(k["name"], k["port"]) for k in CLASSES]
c.JupyterHub.load_roles = [class_role(k["name"]) for k in CLASSES]
c.JupyterHub.load_groups = {group: {"users": []} for k in CLASSES for group in (k["name"], f"teachers-{k['name']}")}

# issue 29 (H2): per-learner servers for the lessons and homework, when that file is there
_LESSONS = Path(__file__).resolve().with_name("lessons_servers.py")
if _LESSONS.is_file() and "load_subconfig" in globals():
    load_subconfig(str(_LESSONS))  # type: ignore[name-defined] # noqa: F821 - JupyterHub's config loader
