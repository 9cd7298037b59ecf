"""Per-learner servers for the lessons and homework (issue 29): loaded at the end of the kit's
``jupyterhub_config.py`` (beside this file).

Every learner who logs in to the hub gets a server of their own: JupyterLab, opened on **their own copies of
the lessons** (``lessons/`` in their home: the answer-free copies ``safari-kit lessons --student`` makes),
with the classroom app one click away (``lessons/app.ipynb``, or ``<hub>/user/<name>/voila/render/lessons/
app.ipynb``). The learner owns that server: they can run any code in it, so it is right for lessons and
homework, **not for games that count** (those are the class services of ``jupyterhub_config.py``, where
Voilà runs no code from the page). The app there says so instead of "in secret".

* **Who runs a learner's server** (``c.JupyterHub.spawner_class``): JupyterHub's default,
  ``LocalProcessSpawner``, runs each learner as their own system user (the hub runs as root). A school uses
  ``systemdspawner`` (``pip install jupyterhub-systemdspawner``: a system user each, memory and CPU limits),
  ``dockerspawner`` (a container each) or Zero to JupyterHub's ``KubeSpawner`` (``z2jh-values.yaml`` beside
  this file). ``simple`` (``SimpleLocalProcessSpawner``) runs every learner's code as the hub's own user, who
  also runs the class services: a learner could read the class's kernels. It is for a test machine only
  (the kit's tests); set it with ``SAFARI_KIT_HUB_SPAWNER=simple``.
* **Their lessons at every start**: the server's command is ``python -m safari_kit.classroom.learner_server``,
  which copies the lessons into the learner's home if they are missing, keeps every copy the learner edited,
  then starts ``jupyterhub-singleuser`` as usual. It runs as the learner, so it works with every spawner.
* **The idle culler** (``jupyterhub-idle-culler`` from PyPI, a hub service): stops a server nobody used for
  ``--timeout`` seconds, and any server older than ``--max-age``: an open page nobody clicks keeps a server
  "active" for ever otherwise (seen here: not culled in 5 minutes at ``--timeout=90``). A stopped server keeps
  the learner's files; logging in again starts it (about 10 s).

Figures from a 2-core machine (docs/teachers.md, "On a JupyterHub"): about 10-12 s from login to the lessons
(three at once: 13-18 s), about 225 MB a learner with the app open (server 165 MB + one kernel 60 MB).
"""
import importlib.util
import os
import sys

#: which spawner: "" keeps JupyterHub's default (LocalProcessSpawner: a system user a learner); "simple" is
#: SimpleLocalProcessSpawner, for a test machine only (see above); any other value is passed to JupyterHub
SPAWNER = os.environ.get("SAFARI_KIT_HUB_SPAWNER", "").strip()
#: the Python that has the kit, JupyterLab and jupyterhub installed, where learners' servers run (the hub's own
#: Python when they run on this machine; in a container image: "python3")
LEARNER_PYTHON = os.environ.get("SAFARI_KIT_LEARNER_PYTHON", "").strip() or sys.executable
#: the page a learner lands on: JupyterLab, on the first lesson of their own copies
DEFAULT_URL = "/lab/tree/lessons/00-start-here.ipynb"
#: the culler: an hour with nobody using a server, and at most a school day for any server (seconds)
CULL_TIMEOUT = int(os.environ.get("SAFARI_KIT_CULL_TIMEOUT", "3600"))
CULL_MAX_AGE = int(os.environ.get("SAFARI_KIT_CULL_MAX_AGE", "28800"))
#: how often it looks: half the shorter of the two, between 10 s and 5 minutes
CULL_EVERY = max(10, min(300, min(CULL_TIMEOUT, CULL_MAX_AGE) // 2))

try:
    c = get_config()  # type: ignore[name-defined] # noqa: F821 - JupyterHub's config loader defines it
except NameError:  # imported (a test, a linter), not loaded by JupyterHub: build it all the same
    from traitlets.config import Config

    c = Config()

if SPAWNER == "simple":
    c.JupyterHub.spawner_class = "simple"
    # a home per learner under one folder the hub's user owns (JupyterHub's default is /tmp/<name>)
    c.SimpleLocalProcessSpawner.home_dir_template = os.environ.get("SAFARI_KIT_HUB_HOMES", "/tmp/{username}")
elif SPAWNER:
    c.JupyterHub.spawner_class = SPAWNER

# the learner's copies of the lessons at every start, then jupyterhub-singleuser (safari_kit.classroom.learner_server)
c.Spawner.cmd = [LEARNER_PYTHON, "-m", "safari_kit.classroom.learner_server"]
c.Spawner.default_url = DEFAULT_URL
# a cold start took 10-12 s here, three at once up to 18 s: room for a class arriving at once on a busy machine
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 90
# honoured by systemdspawner, dockerspawner and KubeSpawner (not by the local process spawners): 225 MB measured
# with the app open; the lessons' numpy, pandas and matplotlib and a second notebook need more
c.Spawner.mem_limit = "1G"
c.Spawner.mem_guarantee = "256M"
c.Spawner.cpu_limit = 1.0

# the idle culler, as a hub service with only the permissions it needs (it never deletes users); not installed:
# the hub starts without it and says so (a culler that cannot start would be restarted again and again)
if importlib.util.find_spec("jupyterhub_idle_culler") is None:
    print("lessons_servers.py: jupyterhub-idle-culler is not installed (pip install jupyterhub-idle-culler): "
          "learners' servers are not stopped when idle", file=sys.stderr)
else:
    c.JupyterHub.services.append({
        "name": "idle-culler",
        "command": [sys.executable, "-m", "jupyterhub_idle_culler", f"--timeout={CULL_TIMEOUT}",
                    f"--max-age={CULL_MAX_AGE}", f"--cull-every={CULL_EVERY}"],
    })
    c.JupyterHub.load_roles.append({
        "name": "idle-culler",
        "description": "Stop learners' servers nobody uses, and any server older than a school day",
        "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"],
        "services": ["idle-culler"],
    })
