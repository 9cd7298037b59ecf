"""The addresses learners type: this machine's addresses on the school network, as the class server's URLs.

Its own module so that the launcher (:mod:`~safari_kit.classroom.serve`) and the recording set-up
(:mod:`~safari_kit.classroom.recording`, which prints the teacher's address) both use it without
importing each other.
"""
from __future__ import annotations

import socket

__all__ = ["learner_urls"]


def _lan_addresses() -> list[str]:
    """This machine's addresses other machines can use (best effort, no packet sent)."""
    found: list[str] = []
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))  # UDP connect: picks the outgoing interface, sends nothing
            found.append(s.getsockname()[0])
    except OSError:
        pass
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.append(str(info[4][0]))
    except OSError:
        pass
    return [a for a in dict.fromkeys(found) if not a.startswith("127.")]


def learner_urls(ip: str, port: int, base_url: str = "/") -> list[str]:
    """The addresses to give learners, best first.

    >>> learner_urls("192.168.1.20", 8866)
    ['http://192.168.1.20:8866/']
    """
    if ip in ("", "0.0.0.0", "::"):
        hosts = _lan_addresses() or ["localhost"]
        name = socket.gethostname()
        if name and name not in hosts:
            hosts.append(name)
    else:
        hosts = [ip]
    return [f"http://{h}:{port}{base_url}" for h in hosts]
