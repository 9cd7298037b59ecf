"""Kernels for tests that run notebooks: IPC sockets in a short temporary folder, never TCP ports.

jupyter_client picks a kernel's five TCP ports by asking the system for free ones and letting them go; the
kernel binds them a moment later. With four pytest-xdist workers starting servers and kernels at once, another
process took one in between ("ZMQError: Address already in use", then "Kernel died before replying to
kernel_info": lesson 04 in the 09:25 fresh-clone run). IPC sockets are files: nobody else can take them.
"""
from __future__ import annotations

import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def ipc_kernel_manager(cls=None, **kwargs):
    """A kernel manager of ``cls`` (jupyter_client's ``KernelManager`` by default) on IPC sockets; its folder is
    removed afterwards. The folder's path is short: a Unix socket's path holds at most about 100 characters."""
    if cls is None:
        from jupyter_client.manager import KernelManager as cls
    folder = Path(tempfile.mkdtemp(prefix="sk-"))
    try:
        yield cls(transport="ipc", ip=str(folder / "k"), **kwargs)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
