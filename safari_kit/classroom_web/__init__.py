"""Moved to :mod:`safari_kit.classroom` (issue 28), with the rest of the class server.

Its modules stay for one release as stubs that warn (``safari_kit.server._moved``).
"""
