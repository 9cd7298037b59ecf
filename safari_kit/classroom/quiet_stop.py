"""One learner's kernel, stopped without a traceback while it is still starting.

jupyter_client interrupts a kernel (SIGINT) before it asks it to shut down, so that a busy kernel stops its
work first. A kernel that is still importing ipykernel has no handler for that signal yet: Python raises
``KeyboardInterrupt`` in the middle of the import and prints its traceback into the class server's terminal,
where the teacher reads it as a crash. It happens whenever the server stops (Ctrl+C, the hub stopping a class
service) just after a ready lab was started to replace a handed-out one.

A kernel that has never reported a status since it started is running no learner's code, so it has nothing to
interrupt: it is asked to shut down and, when it cannot answer, ended with SIGTERM as jupyter_client does for
any kernel that does not answer. Every other kernel is interrupted first, as before.
"""
from __future__ import annotations

from jupyter_server.services.kernels.kernelmanager import ServerKernelManager

__all__ = ["QuietStopKernelManager"]


class QuietStopKernelManager(ServerKernelManager):
    """jupyter_server's kernel manager for one kernel; no SIGINT on the way out while the kernel is starting."""

    async def _async_interrupt_kernel(self) -> None:
        # execution_state: set to "starting" by the mapping kernel manager when it starts the kernel, changed
        # by the kernel's first status message (jupyter_server's activity watch)
        if self.shutting_down and getattr(self, "execution_state", "starting") == "starting":
            return
        await super()._async_interrupt_kernel()
