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


# ---------------------------------------------------------- shared helpers
def _one_line_errors(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Make argparse usage errors of ``parser`` one line on stderr (exit 2), not usage + error."""
    def error(message: str):
        _write(sys.stderr, f"{parser.prog}: error: {message} (see {parser.prog} --help)")
        raise SystemExit(EXIT_BAD_INPUT)
    parser.error = error
    return parser


def _int_in(low: int, high: int | None = None, what: str = "a whole number"):
    """An argparse type: a whole number in [low, high] with a readable error."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}") from None
        if value < low or (high is not None and value > high):
            span = f"from {low} to {high}" if high is not None else f">= {low}"
            raise argparse.ArgumentTypeError(f"expected {what} {span}, got {value}")
        return value
    return parse


def _guarded(run):
    """Turn the expected errors of a command into one line on stderr and exit code 2."""
    def wrapper(args) -> int:
        try:
            return run(args)
        except (ValueError, ImportError, OSError) as exc:
            msg = " ".join(str(exc).split()) or type(exc).__name__
            _write(sys.stderr, f"safari-kit {args.command}: {msg}")
            return EXIT_BAD_INPUT
    return wrapper


def _print_json(data) -> None:
    import json

    _write(sys.stdout, json.dumps(data, indent=2, ensure_ascii=False, default=str))


# ------------------------------------------------------------------ simulate
@_guarded
def _run_simulate(args) -> int:
    from safari_kit.simulation.tournament import tournament

    players = args.players if args.players is not None else (3 if args.game == "witness" else 4)
    progress = None
    if args.progress:
        def progress(done, total):
            sys.stderr.write(f"\r{done}/{total} games")
            if done == total:
                sys.stderr.write("\n")
            sys.stderr.flush()
    result = tournament(args.game, players=players, bots=args.bots, games=args.games, seed=args.seed,
                        elimination=args.elimination, case_module=args.case_module, advanced=args.advanced,
                        workers=args.workers, scheduler=args.scheduler, progress=progress,
                        chunk_size=args.chunk_size)
    if args.json:
        _print_json(result.to_dict())
    else:
        _write(sys.stdout, result.table())
    return EXIT_OK


@command("simulate")
def _setup_simulate(sub) -> None:
    from safari_kit.simulation.registry import known_bots

    p = _one_line_errors(sub.add_parser(
        "simulate", help="play a tournament between bots and print win rates",
        description="Play GAMES games between bots and print each bot's win rate (95% Wilson interval; "
                    "a shared victory counts 1/k), mean score and game length. Seats rotate every game; "
                    "the same seed gives the same games whatever the number of workers."))
    p.add_argument("game", choices=("witness", "knockout"), help="which game")
    p.add_argument("--players", type=_int_in(2, 7), default=None,
                   help="players (2-7; default 3 for witness, 4 for knockout)")
    p.add_argument("--games", type=_int_in(1, None, "a number of games"), default=100, help="games (default 100)")
    p.add_argument("--seed", type=_int_in(0, 2**63 - 1, "a seed"), default=0, help="seed (default 0)")
    p.add_argument("--bots", default="random",
                   help=f"comma-separated bots, one per seat or repeated to fill them (default random); "
                        f"known: {known_bots()}")
    p.add_argument("--elimination", action="store_true", help="Knockout: Variation 1 (K5)")
    p.add_argument("--case-module", action="store_true", help="Witness: the Case Module (W9)")
    p.add_argument("--advanced", action="store_true", help="Witness: character abilities (W10)")
    p.add_argument("--workers", type=_int_in(1, None, "a number of worker processes"), default=None,
                   help="local worker processes (default: all cores; 1 = no subprocess)")
    p.add_argument("--scheduler", default=None, metavar="ADDR",
                   help='a Dask scheduler address, e.g. tcp://10.0.0.5:8786 (pip install "safari_kit[dask]")')
    p.add_argument("--chunk-size", type=_int_in(1, None, "a number of games"), default=100,
                   help="games per seeded chunk (default 100; part of what the seed reproduces)")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.add_argument("--progress", action="store_true", help="show games done on stderr")
    p.set_defaults(func=_run_simulate)


# ---------------------------------------------------------------------- prob
def _frac(x) -> str:
    from fractions import Fraction

    v = Fraction(getattr(x, "value", x))
    return f"{v.numerator}/{v.denominator}" if v.denominator != 1 else str(v.numerator)


def _pf(x) -> str:
    """A probability or expectation as 'p/q ≈ 0.1234'."""
    from fractions import Fraction

    v = Fraction(getattr(x, "value", x))
    return f"{_frac(v)} ≈ {float(v):.4f}" if v.denominator != 1 else _frac(v)


def _witness_card(card: str):
    from safari_kit.probability.knowledge import _default_game

    game = _default_game()
    cid = card.strip().upper()
    if cid not in game.index:
        ids = [c.id for c in game.cards]
        raise ValueError(f"unknown Safari Witness card id {card!r}; expected one of {ids[0]}-{ids[-1]}")
    return game, cid


def _run_prob_challenge(args) -> dict:
    """Every figure comes from :mod:`safari_kit.probability.witness` (W5 is read there, not here)."""
    from fractions import Fraction

    from safari_kit.probability import witness as pw

    game, cid = _witness_card(args.card)
    S = pw.safe_count(cid, game)
    N = len(game.cards) - 1
    F, k = args.places, args.safe
    if k > F:
        raise ValueError(f"--safe {k}: only {F} face-down places can be revealed (--places {F})")
    if k > S:
        raise ValueError(f"--safe {k}: only {S} cards are safe for {cid}")
    a, n, f = S - k, N - k, F - k
    card = game.cards[game.index[cid]]
    MIN = pw.MIN_SAFE
    need = max(0, MIN - k)
    p_next = Fraction(a, n) if f > 0 and n > 0 else None
    stop, cont = pw.stop_vs_continue_counts(k, a, n, f)
    best = pw.challenge_dp(k, a, n, f)
    p4 = pw.p_streak_counts(S, N, MIN, places=F)
    reach = pw.p_streak_counts(a, n, need, places=f)
    if cont is None:  # no face-down place left: W5 makes the player stop
        advice = (f"stop: no face-down place is left, so the player must stop and archive the challenged "
                  f"card and the {k} revealed one(s) (W5)")
    elif stop is None:
        advice = (f"continue: stopping is allowed only after {MIN} safe reveals, "
                  f"or when no face-down place is left (W5)")
    elif cont > stop:
        advice = f"continue: P(next safe) = {a}/{n} > {k + 1}/{k + 2} = n/(n+1) with n = {k + 1} archived by stopping"
    else:
        advice = f"stop: P(next safe) = {a}/{n} <= {k + 1}/{k + 2} = n/(n+1) with n = {k + 1} archived by stopping"
    data = {
        "card": cid, "card_text": str(card), "places": F, "safe_reveals": k,
        "safe_cards": S, "unknown_cards": N, "safe_left": a, "unknown_left": n,
        "p_next_safe": p_next,
        "p_4_in_a_row": p4, "p_reach_4_from_here": reach,
        "expected_archive": {"stop_now": stop, "continue": cont, "optimal": best,
                             "optimal_from_start": pw.challenge_dp(0, S, N, F)},
        "advice": advice,
    }
    if not need:
        reach_text = f"1 (already {MIN})"
    elif f == 0:
        reach_text = f"0 (no place left: the challenge ends with {k} safe reveal(s))"
    elif need > f:
        reach_text = f"0 (only {f} place(s) left for the {need} safe reveal(s) still needed)"
    else:
        reach_text = f"C({a},{need})/C({n},{need}) = {_pf(reach)}"
    lines = [
        f"Challenge of {card} from a fresh table: {F} face-down places, nothing known;",
        f"  {S} of the {N} other cards are safe (no shared animal, texture, color or possible name).",
        f"After {k} safe reveal(s): {a} safe among {n} unknown cards, {f} place(s) left.",
        "  P(next reveal safe)            = " + ("n/a (no place left)" if p_next is None else _pf(p_next)),
        f"  P({MIN} safe in a row, from start) = C({S},{MIN})/C({N},{MIN}) = {_pf(p4)}" if F >= MIN else
        f"  P({MIN} safe in a row, from start) = 0 (only {F} places)",
        f"  P(reach {MIN} safe from here)      = {reach_text}",
        f"  advice: {advice}",
        "Expected archive size (the challenged card included):",
        "  stop now      : " + ("not allowed (W5)" if stop is None else _pf(stop)),
        "  reveal another: " + ("n/a (no place left)" if cont is None else _pf(cont) + "  (then play on optimally)"),
        f"  optimal play  : {_pf(best)}   "
        f"(from the start of the challenge: {_pf(data['expected_archive']['optimal_from_start'])})",
    ]
    return {"lines": lines, "data": data}


def _run_prob_identify(args) -> dict:
    from safari_kit.probability import witness as pw

    game, cid = _witness_card(args.card)
    card = game.cards[game.index[cid]]
    N = len(game.cards) - 1
    rows = [(types, pw.p_match_baseline(cid, types, game)) for types in pw.ALEX_TYPES]
    singles = [r for r in rows if len(r[0]) == 1]
    pairs = [r for r in rows if len(r[0]) == 2]
    best1 = max(singles, key=lambda r: r[1].value)
    best2 = max(pairs, key=lambda r: r[1].value)
    lines = [f"Identification with clue {card}, knowing nothing ({N} unknown cards):",
             f"  {'clue type':<16} {'matching':>8}  P(match)"]
    for types, e in singles:
        mark = "  <- best" if types == best1[0] else ""
        lines.append(f"  {'+'.join(types):<16} {pw.match_count(cid, types, game):>8}  {_pf(e)}{mark}")
    lines.append("  with ALEX (two types, W10):")
    for types, e in pairs:
        mark = "  <- best" if types == best2[0] else ""
        lines.append(f"  {'+'.join(types):<16} {pw.match_count(cid, types, game):>8}  {_pf(e)}{mark}")
    lines.append(f"  P(match) = m/{N}: m = the other cards sharing the element (with ALEX, |A ∪ B|).")
    data = {"card": cid, "card_text": str(card), "unknown_cards": N,
            "p_match": {"+".join(t): e.value for t, e in rows},
            "matching": {"+".join(t): pw.match_count(cid, t, game) for t, _ in rows},
            "best": "+".join(best1[0]), "best_alex": "+".join(best2[0])}
    return {"lines": lines, "data": data}


def _run_prob_knockout(args) -> dict:
    from safari_kit.cards.load import load_cards
    from safari_kit.cards.model import DATA_ITEMS, DATA_ITEM_LABELS

    from safari_kit.probability import knockout as pk

    deck = tuple(load_cards().knockout)
    ids = [c.id for c in deck]
    cid = args.card.strip().upper()
    if cid not in ids:
        raise ValueError(f"unknown Safari Knockout card id {args.card!r}; expected one of {ids[0]}-{ids[-1]}")
    if args.item is not None and args.item not in DATA_ITEMS:
        raise ValueError(f"unknown data item {args.item!r}; expected one of {', '.join(DATA_ITEMS)}")
    k = args.opponents * args.cards
    if k > len(deck) - 1:
        raise ValueError(f"{args.opponents} opponents with {args.cards} cards each hold {k} cards, "
                         f"more than the {len(deck) - 1} other cards of the deck")
    card = next(c for c in deck if c.id == cid)
    items = DATA_ITEMS if args.item is None else (args.item,)
    rows = {item: pk.p_win_leading_card_only(deck, cid, item, k) for item in items}
    best = max(rows, key=lambda i: rows[i].value)
    lines = [f"Leading with {cid} {card.name}, knowing only that card: {args.opponents} opponent(s) "
             f"holding {args.cards} card(s) each (k = {k}) out of the {len(deck) - 1} other cards.",
             f"  {'data item':<18} {'value':>9}  P(win leading)"]
    for item, e in rows.items():
        mark = "  <- best" if len(rows) > 1 and item == best else ""
        lines.append(f"  {DATA_ITEM_LABELS[item]:<18} {getattr(card, item):>9g}  {_pf(e)}   = {e.formula}{mark}")
    lines.append("  P(win) = C(N − 1 − H, k)/C(N − 1, k): none of the k opponents' cards is one of the "
                 "H strictly higher ones (ties go to the lead, K3).")
    data = {"card": cid, "name": card.name, "opponents": args.opponents, "cards_each": args.cards, "k": k,
            "p_win_leading": {item: e.value for item, e in rows.items()},
            "formula": {item: e.formula for item, e in rows.items()}, "best_item": best}
    return {"lines": lines, "data": data}


@_guarded
def _run_prob(args) -> int:
    out = args.prob_func(args)
    if args.json:
        _print_json(out["data"])
    else:
        _write(sys.stdout, "\n".join(out["lines"]))
    return EXIT_OK


@command("prob")
def _setup_prob(sub) -> None:
    p = _one_line_errors(sub.add_parser(
        "prob", help="exact probabilities (fractions) for the main questions of the lessons",
        description="Exact answers, as fractions, from a player who knows nothing but its own card."))
    qs = p.add_subparsers(dest="question", metavar="QUESTION")
    qs.required = True

    c = _one_line_errors(qs.add_parser(
        "challenge", help="Witness: P(next reveal safe), P(4 in a row), stop or continue, expected archive",
        description="A Challenge of CARD from a fresh table after --safe safe reveals."))
    c.add_argument("--card", required=True, help="the challenged Witness card id, e.g. W05")
    c.add_argument("--safe", type=_int_in(0, None, "a number of safe reveals"), default=0,
                   help="safe reveals so far (default 0)")
    c.add_argument("--places", type=_int_in(1, 20, "a number of places"), default=4,
                   help="face-down places at the start of the Challenge (default 4, a fresh table)")
    c.set_defaults(prob_func=_run_prob_challenge)

    i = _one_line_errors(qs.add_parser(
        "identify", help="Witness: P(match) for each clue type (and ALEX pairs), knowing nothing",
        description="P(a face-down card shares each element with the clue CARD), knowing nothing."))
    i.add_argument("--card", required=True, help="the clue's Witness card id, e.g. W05")
    i.set_defaults(prob_func=_run_prob_identify)

    k = _one_line_errors(qs.add_parser(
        "knockout", help="Knockout: P(win leading) with a card, knowing only that card",
        description="P(the lead wins the turn) naming a data item, against opponents who play their best card."))
    k.add_argument("--card", required=True, help="the Knockout card id, e.g. K03")
    k.add_argument("--item", default=None, help="data item (weight_kg, size_cm, top_speed_kmh, "
                                                "lifespan_years; default: all four)")
    k.add_argument("--opponents", type=_int_in(1, 6, "a number of opponents"), default=3,
                   help="opponents in the turn (default 3)")
    k.add_argument("--cards", type=_int_in(1, 7, "a hand size"), default=7,
                   help="cards each opponent holds (default 7, round 1)")
    k.set_defaults(prob_func=_run_prob_knockout)

    for q in (c, i, k):
        q.add_argument("--json", action="store_true", help="print JSON (fractions as 'p/q')")
        q.set_defaults(func=_run_prob)


# --------------------------------------------------------------------- bench
@_guarded
def _run_bench(args) -> int:
    from safari_kit.simulation.bench import MEASURES, format_table, run_bench, to_json

    only = None
    if args.only:
        only = [x.strip() for x in args.only.split(",") if x.strip()]
        unknown = [x for x in only if x not in MEASURES]
        if unknown or not only:
            raise ValueError(f"unknown figure(s) {', '.join(unknown) or args.only!r}; "
                             f"expected some of {', '.join(MEASURES)}")
    figures = run_bench(quick=args.quick, only=only)
    _write(sys.stdout, to_json(figures, args.quick) if args.json else format_table(figures, args.quick))
    return EXIT_OK


@command("bench")
def _setup_bench(sub) -> None:
    p = _one_line_errors(sub.add_parser(
        "bench", help="measure every speed figure against its target (one core)",
        description="Measure each speed figure of the kit on one core (best of a few repeats) and print "
                    "it beside its target. Figures whose code is not installed print n/a."))
    p.add_argument("--quick", action="store_true", help="small counts: a few seconds, rough figures")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--only", default=None, metavar="KEYS", help="comma-separated figure keys to measure")
    p.set_defaults(func=_run_bench)


# ---------------------------------------------------------------------- lessons
def _run_lessons(args) -> int:
    from pathlib import Path

    from safari_kit.authoring.workspace import kit_lessons, sync_copies

    # no --from: the kit's own lessons, from any folder (issue 29: on a learner's hub server there is no
    # checkout, and the old default, ./notebooks, failed there)
    source = kit_lessons() if args.source is None else Path(args.source)
    if args.source is not None and source.is_dir() and not any(source.glob("*.ipynb")):
        _write(sys.stderr, f"safari-kit lessons: {source}: no lessons (*.ipynb) in this folder; --from expects "
                           "a folder of lessons such as the kit's notebooks/ (leave --from out for the kit's own)")
        return EXIT_BAD_INPUT
    make_copy = None
    if args.student:
        from safari_kit.authoring.student import read_lesson, strip_solutions

        def make_copy(path):
            return strip_solutions(read_lesson(path))[0]
    try:
        done = sync_copies(source, args.dest, make_copy=make_copy)
    except ValueError as exc:  # a lesson that cannot be read: the message names the file
        _write(sys.stderr, f"safari-kit lessons: {exc}")
        return EXIT_BAD_INPUT
    for copied in done:
        _write(sys.stdout, str(copied))
    return EXIT_OK


@command("lessons")
def _setup_lessons(sub) -> None:
    p = _one_line_errors(sub.add_parser(
        "lessons", help="copy the lessons into a folder of your own (make lab opens my-lessons/)",
        description="Copy every lesson of SOURCE into DEST, to run, edit and save there without changing the "
                    "kit's own files. Run again to bring in newer lessons: a copy whose cells you edited is "
                    "kept (and named), any other copy is updated."))
    p.add_argument("dest", nargs="?", default="my-lessons", help="the folder of copies (default: my-lessons)")
    p.add_argument("--from", dest="source", default=None, metavar="SOURCE",
                   help="a folder of lessons (default: the kit's own: notebooks/ of a checkout, or the lessons "
                        "installed with the kit, from any folder)")
    p.add_argument("--student", action="store_true",
                   help="answer-free copies for learners: no solutions, no teachers' notes")
    p.set_defaults(func=_run_lessons)


# ---------------------------------------------------------------------- class
@_guarded
def _run_class(args) -> int:
    from safari_kit.classroom.quick_start import skip_unused_format_checkers

    skip_unused_format_checkers()  # before jupyter_server is imported (main did it too, unless called late)
    from safari_kit.classroom.serve import run
    from safari_kit.classroom.settings import from_arguments

    settings = from_arguments(args)
    return run(args.notebook, settings, print_fn=lambda text: _write(sys.stdout, text))


@command("class")
def _setup_class(sub) -> None:
    from safari_kit.classroom.settings import add_arguments

    p = _one_line_errors(sub.add_parser(
        "class", help="serve the classroom app to a class on the school network (make class)",
        description="Serve the classroom app (Voila, standalone) to a class: each learner's lab belongs to "
                    "the browser that opened it, and the server caps labs, memory and message sizes "
                    "(docs/teachers.md, 'Class server'). Prints the address to give learners. Ctrl+C stops it."))
    p.add_argument("notebook", nargs="?", default="notebooks/app.ipynb",
                   help="the app notebook (default: notebooks/app.ipynb)")
    add_arguments(p)  # one option per class setting, declared once (safari_kit.classroom.settings)
    p.set_defaults(func=_run_class)


# ---------------------------------------------------------------------- results
@_guarded
def _run_results(args) -> int:
    """export: a session's database to CSV/Parquet; wipe: delete a session's files; pool: results files."""
    from safari_kit.class_results import class_export as X
    from safari_kit.class_results import class_store as S

    if args.action == "wipe":
        gone = S.wipe(args.folder, args.session)
        for path in gone:
            _write(sys.stdout, f"deleted {path}")
        if not gone:
            _write(sys.stdout, f"nothing to wipe: no files of session {args.session!r} in {args.folder}")
        return EXIT_OK
    if args.action == "export":
        records = S.ResultStore(args.folder, args.session, create=False).records()
    else:  # pool: a file that cannot be read or trusted is left out with one line, the others pooled (issue 26)
        from safari_kit.class_results.class_tables import pool_files

        results = pool_files(args.folder, warn=False)
        records = list(results.records)
        for note in results.notes:
            _write(sys.stderr, f"safari-kit results pool: {note}")
        left_out = sum(n.skipped for n in results.notes)
        if left_out:
            _write(sys.stderr, f"safari-kit results pool: {len(records)} record{'s' * (len(records) != 1)} pooled; "
                               f"{left_out} file{'s' * (left_out != 1)} or learner{'s' * (left_out != 1)} left out "
                               f"(each said above)")
    if not (args.csv or args.parquet):
        _write(sys.stdout, X.csv_text(records).rstrip("\n"))
    if args.csv:
        _write(sys.stdout, f"{X.write_csv(args.csv, records)}: {len(records)} records")
    if args.parquet:
        _write(sys.stdout, f"{X.write_parquet(args.parquet, records)}: {len(records)} records")
    return EXIT_OK


@command("results")
def _setup_results(sub) -> None:
    p = _one_line_errors(sub.add_parser(
        "results", help="a class session's recorded results: export, wipe, or pool downloaded results files",
        description="The class experiment's records (issue 21): each class session is one SQLite file "
                    "FOLDER/SESSION.sqlite3 holding only what the labs record (nickname, lab, time, and the "
                    "run, guess, decision or answer)."))
    acts = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    e = _one_line_errors(acts.add_parser("export", help="write a session's records as CSV (and/or Parquet)",
                                         description="Without --csv or --parquet the CSV goes to standard output."))
    e.add_argument("folder", help="the folder of the class's databases")
    e.add_argument("session", help="the session's name (its file is FOLDER/SESSION.sqlite3)")
    w = _one_line_errors(acts.add_parser(
        "wipe", help="delete a session's database (and its -wal/-shm files)",
        description="Refused while the class server (or one of its labs) still uses the session: stop the server "
                    "first (Ctrl+C in its window), then wipe. A lock file left by a server that crashed is deleted "
                    "with the rest."))
    w.add_argument("folder", help="the folder of the class's databases")
    w.add_argument("session", help="the session's name")
    o = _one_line_errors(acts.add_parser(
        "pool", help="pool a folder of downloaded results files (*.safari-results.jsonl) into one export",
        description="Without --csv or --parquet the CSV goes to standard output."))
    o.add_argument("folder", help="the folder of results files")
    for q in (e, o):
        q.add_argument("--csv", metavar="PATH", help="write the CSV export here")
        q.add_argument("--parquet", metavar="PATH", help="write Parquet here (needs pyarrow or fastparquet)")
    p.set_defaults(func=_run_results)


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
    from safari_kit.classroom.quick_start import skip_unused_format_checkers

    skip_unused_format_checkers()  # every command: nbformat and jupyter_server import jsonschema (1.3-1.9 CPU-s)
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
