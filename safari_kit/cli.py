"""The ``safari-kit`` command line.

Subcommands live in :data:`COMMANDS`, a registry of setup functions: each
adds its parser to the subparsers and sets ``func`` (taking the parsed
arguments, returning an exit code). Other modules add commands with
:func:`command`::

    @command("simulate")
    def _setup_simulate(sub):
        p = sub.add_parser("simulate", help="...")
        p.set_defaults(func=run_simulate)

Exit codes: 0 success, 2 bad input (bad card data, bad usage).
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from safari_kit.core.errors import CardDataError, SafariKitError

COMMANDS: dict[str, Callable[[argparse._SubParsersAction], None]] = {}
EXIT_OK, EXIT_BAD_INPUT = 0, 2


def command(name: str):
    """Register the setup function of subcommand ``name``."""
    def register(setup):
        COMMANDS[name] = setup
        return setup
    return register


def _write(stream, text: str) -> None:
    """Print, even on a terminal that cannot encode every character."""
    try:
        print(text, file=stream)
    except UnicodeEncodeError:
        enc = getattr(stream, "encoding", None) or "ascii"
        print(text.encode(enc, "backslashreplace").decode(enc), file=stream)


# ------------------------------------------------------------------ validate
def _run_validate(args) -> int:
    from safari_kit.cards.load import default_cards_path, load_cards
    from safari_kit.cards.validate import witness_deck_problems, Row

    path = args.csv if args.csv is not None else str(default_cards_path())
    try:
        cards = load_cards(path, strict=not args.lenient)
    except CardDataError as exc:
        _write(sys.stderr, str(exc))
        return EXIT_BAD_INPUT
    if args.lenient:
        rows = [Row(0, {"animal": m.animal, "texture": m.texture, "color": m.color, "name": m.name})
                for m in cards.witness]
        balance = "W1 balanced" if not witness_deck_problems(rows, "") else "not W1 balanced"
    else:
        balance = "W1 balanced"
    _write(sys.stdout, f"{path}: OK \u2014 {len(cards.witness)} witness cards ({balance}), "
                       f"{len(cards.knockout)} knockout cards")
    return EXIT_OK


@command("validate")
def _setup_validate(sub) -> None:
    p = sub.add_parser("validate", help="check a card CSV and list every problem",
                       description="Check a card CSV (default: the shipped data/cards.csv). "
                                   "Prints a summary and exits 0, or prints every problem "
                                   "to stderr and exits 2.")
    p.add_argument("csv", nargs="?", help="the CSV file to check (default: the shipped deck)")
    p.add_argument("--lenient", action="store_true",
                   help="check every row but not the deck balance and counts "
                        "(W1, K1): for a teacher's own deck")
    p.set_defaults(func=_run_validate)


# ---------------------------------------------------------------------- main
def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="safari-kit",
                                     description="Safari Witness and Safari Knockout: tools for the teaching kit.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for setup in COMMANDS.values():
        setup(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit code (never raises for bad input)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, or a usage error argparse already printed
        return exc.code if isinstance(exc.code, int) else EXIT_BAD_INPUT
    if getattr(args, "func", None) is None:
        parser.print_help(sys.stderr)
        return EXIT_BAD_INPUT
    try:
        return args.func(args)
    except (SafariKitError, OSError) as exc:
        _write(sys.stderr, f"safari-kit {args.command}: {exc}")
        return EXIT_BAD_INPUT


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
