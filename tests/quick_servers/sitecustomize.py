"""Servers the tests start skip jsonschema's IRI grammars, as ``safari-kit class`` does (issue 28).

A test puts this folder on a server's ``PYTHONPATH`` (``tests.conftest.quick_server_env``); Python imports
``sitecustomize`` at start, before the server imports jupyter_server, so
:func:`safari_kit.classroom.quick_start.skip_unused_format_checkers` is still in time: some 1.7 CPU-s less at
each start of ``jupyter lab``, Voilà or JupyterHub (about 30 starts a run). Kernels the server starts inherit it
(they never import jsonschema). Tests of how a teacher starts a server (``make lab``) do not use it.
"""
try:
    from safari_kit.classroom.quick_start import skip_unused_format_checkers
except ImportError:  # a venv without the kit: start as usual
    pass
else:
    skip_unused_format_checkers()
