"""The kit's JupyterHub config (issue 29): :data:`CONFIG` is ``jupyterhub_config.py``, shipped in the wheel.

``python -m safari_kit.classroom.hub_config`` prints its path; ``jupyterhub -f <that path>`` runs one class
service (``safari-kit class --hub``) per class listed at its top. The file is read by JupyterHub, never imported
(docs/teachers.md, "On a JupyterHub").
"""
from __future__ import annotations

from pathlib import Path

__all__ = ["CONFIG", "LESSONS_SERVERS"]

#: the kit's jupyterhub_config.py (copy it, or pass it with ``jupyterhub -f``)
CONFIG = Path(__file__).resolve().with_name("jupyterhub_config.py")
#: loaded at the end of :data:`CONFIG` when present: the per-learner servers for the lessons
LESSONS_SERVERS = CONFIG.with_name("lessons_servers.py")
