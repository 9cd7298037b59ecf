"""A kernel still starting when the class server stops leaves no traceback in the teacher's terminal.

A CI run of tests/hub/test_hub_integration.py met it: the hub stopped a class service just after a ready lab was
started, jupyter_client's SIGINT reached the kernel in the middle of ``import IPython``, and the service's log
showed a ``KeyboardInterrupt`` traceback. The kernel here is a Python that is still starting (it sleeps, as an
import does) and never answers: with jupyter_server's own kernel manager (the control) the stop prints the
traceback; with the class server's it does not, and the kernel is ended all the same.
"""
from __future__ import annotations

import asyncio
import json
import sys

import pytest

pytest.importorskip("jupyter_server")
pytestmark = pytest.mark.slow  # two kernels started and stopped: `make test`, not the fast loop

from jupyter_client.kernelspec import KernelSpecManager  # noqa: E402
from jupyter_server.services.kernels.kernelmanager import ServerKernelManager  # noqa: E402

from safari_kit.classroom.kernels import ClassroomKernelManager  # noqa: E402
from safari_kit.classroom.quiet_stop import QuietStopKernelManager  # noqa: E402


def _stop_while_starting(manager_class, tmp_path) -> tuple[str, int | None]:
    spec_dir = tmp_path / "kernels" / "starting"
    spec_dir.mkdir(parents=True)
    # a kernel that is busy starting for 30 s: Python's default SIGINT handler raises KeyboardInterrupt (set
    # here: a process started by a pytest-xdist worker inherits the worker's ignored SIGINT, as CI showed)
    spec_dir.joinpath("kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-c", "import signal, time; signal.signal(signal.SIGINT, signal.default_int_handler);"
                 " print('starting', flush=True); time.sleep(30)", "{connection_file}"],
        "display_name": "a kernel still starting", "language": "python"}))
    specs = KernelSpecManager(kernel_dirs=[str(tmp_path / "kernels")])
    err = tmp_path / "stderr.txt"

    async def run() -> int | None:
        km = manager_class(kernel_name="starting", kernel_spec_manager=specs, connection_file=str(tmp_path / "k.json"),
                           shutdown_wait_time=0.5)
        with open(err, "w") as stderr, open(tmp_path / "stdout.txt", "w") as stdout:
            await km.start_kernel(stderr=stderr, stdout=stdout)
            km.execution_state = "starting"  # as the mapping kernel manager sets it (no status message yet)
            proc = km.provisioner.process
            for _ in range(100):  # the interpreter is up (its SIGINT handler too) once it has printed
                if (tmp_path / "stdout.txt").read_text():
                    break
                await asyncio.sleep(0.05)
            await km.shutdown_kernel()
            return proc.poll()

    returncode = asyncio.run(run())
    return err.read_text(), returncode


def test_jupyter_servers_own_manager_prints_the_traceback(tmp_path):  # the control
    stderr, returncode = _stop_while_starting(ServerKernelManager, tmp_path)
    assert "KeyboardInterrupt" in stderr and "Traceback" in stderr, stderr
    assert returncode is not None


def test_the_class_servers_kernel_stops_quietly(tmp_path):
    stderr, returncode = _stop_while_starting(QuietStopKernelManager, tmp_path)
    assert "Traceback" not in stderr, stderr
    assert returncode is not None, "the kernel was left running"


def test_the_class_servers_kernels_are_quiet_stop_ones(tmp_path):
    assert ClassroomKernelManager(connection_dir=str(tmp_path)).kernel_manager_class == \
        "safari_kit.classroom.quiet_stop.QuietStopKernelManager"
