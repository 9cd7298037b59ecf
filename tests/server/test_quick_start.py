"""The class server starts without jsonschema's IRI checker (safari_kit.classroom.quick_start, issue 28).

``rfc3987_syntax`` builds some 38 Lark grammars when imported: 1.3-1.9 CPU-s of every Jupyter server's start.
The class server marks it absent before jupyter_server is imported; the server's event schemas still validate.
"""
from __future__ import annotations

import subprocess
import sys
import types

from safari_kit import cli

SERVER_IMPORTS = """
import sys
{skip}
import jupyter_server.serverapp, voila.app
import jsonschema
from jupyter_events import EventLogger
schema = {{"$id": "http://example.com/safari/test", "version": "1", "title": "t", "description": "d",
          "type": "object", "properties": {{"n": {{"type": "integer", "title": "n", "description": "d"}}}}}}
EventLogger().register_event_schema(schema)
validator = jsonschema.Draft7Validator({{"type": "string", "format": "date"}},
                                       format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER)
print(sys.modules.get("rfc3987_syntax", "absent") is None, "rfc3987_syntax.syntax_helpers" in sys.modules,
      validator.is_valid("2026-12-06"), validator.is_valid("not a date"))
"""


def _run(skip: str) -> list[str]:
    proc = subprocess.run([sys.executable, "-c", SERVER_IMPORTS.format(skip=skip)], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout.split()


def test_the_server_imports_without_the_iri_parsers_and_still_checks_formats_and_events():
    marked, built, good, bad = _run("from safari_kit.classroom.quick_start import skip_unused_format_checkers\n"
                                    "assert skip_unused_format_checkers()")
    assert (marked, built) == ("True", "False")
    assert (good, bad) == ("True", "False")  # jsonschema's other format checks are still there


def test_control_without_it_the_parsers_are_built():
    marked, built, good, bad = _run("")
    assert (marked, built, good, bad) == ("False", "True", "True", "False")


def test_too_late_once_jsonschema_is_imported_and_says_so():
    import jsonschema  # noqa: F401 - the point: already imported

    from safari_kit.classroom.quick_start import skip_unused_format_checkers

    assert skip_unused_format_checkers() is False


def test_safari_kit_class_skips_them_before_it_imports_the_server(monkeypatch):
    calls: list[str] = []
    from safari_kit.classroom import quick_start

    monkeypatch.setattr(quick_start, "skip_unused_format_checkers", lambda: calls.append("skip"))
    fake_serve = types.ModuleType("safari_kit.classroom.serve")
    fake_serve.run = lambda notebook, settings, print_fn=None: calls.append("run") or 0
    monkeypatch.setitem(sys.modules, "safari_kit.classroom.serve", fake_serve)
    monkeypatch.setattr("safari_kit.classroom.settings.from_arguments", lambda args: object())
    assert cli._run_class(types.SimpleNamespace(notebook="app.ipynb")) == 0
    assert calls == ["skip", "run"]


def test_every_command_of_the_cli_skips_them_first(monkeypatch):
    calls: list[str] = []
    from safari_kit.classroom import quick_start

    monkeypatch.setattr(quick_start, "skip_unused_format_checkers", lambda: calls.append("skip"))
    monkeypatch.setattr(cli, "build_parser", lambda: calls.append("parse") or __import__("argparse").ArgumentParser())
    cli.main([])
    assert calls[:2] == ["skip", "parse"]


def test_servers_the_tests_start_skip_them_too():
    """tests/quick_servers: a server started with ``quick_server_env`` builds no grammar (control: without it)."""
    import os

    from tests.conftest import quick_server_env

    code = ("import sys, jupyter_server.serverapp; "
            "print('rfc3987_syntax.syntax_helpers' in sys.modules, sys.modules.get('rfc3987_syntax', 0) is None)")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    quick = subprocess.run([sys.executable, "-c", code], env=quick_server_env(env), capture_output=True, text=True)
    plain = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert quick.stdout.split() == ["False", "True"], quick.stderr[-2000:]
    assert plain.stdout.split() == ["True", "False"], plain.stderr[-2000:]
