"""A class server that starts without building 38 parsers it never uses.

jupyter_server imports jupyter_events, which imports jsonschema's format checkers. jsonschema checks the
``iri`` format with ``rfc3987_syntax`` when it is installed (``jsonschema[format-nongpl]``, which nbformat and
jupyter_events ask for), and ``rfc3987_syntax`` builds some 38 Lark grammars when it is imported: 1.3-1.9
CPU-seconds on a 2-core machine, the biggest part of the class server's start (up to 8 s on a busy machine;
python-jsonschema/jsonschema#1428, opendatahub-io/notebooks#3532). No Jupyter schema uses the ``iri`` format.
So the kit's command line (``safari-kit class``, and its other commands, which read notebooks with nbformat)
marks that module as absent before anything imports jsonschema: jsonschema then skips the ``iri`` check, as it
does where the package is not installed. Only the command's own process is changed, never a learner's kernel.
"""
from __future__ import annotations

import sys

SKIPPED = "rfc3987_syntax"


def skip_unused_format_checkers() -> bool:
    """Mark ``rfc3987_syntax`` absent in this process; False (nothing done) once jsonschema is imported.

    Call it first thing in a process that will run a Jupyter server or read notebooks (``safari-kit`` does).
    """
    if "jsonschema" in sys.modules or "jsonschema._format" in sys.modules:
        return False
    sys.modules.setdefault(SKIPPED, None)  # type: ignore[arg-type]  # None: "import rfc3987_syntax" fails
    return True
