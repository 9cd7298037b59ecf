"""Safari Knockout: exact winning probabilities (Fractions) from one player's point of view.

What the player knows (and all these answers assume):

- its own hand;
- the cards played face up *this round* (completed turns and the current turn);
  earlier rounds do not matter, because every round is dealt from the full,
  freshly shuffled deck (K2);
- how many cards every other player holds.

So the **unseen pool** is ``deck − own hand − cards played this round``; its
size is called ``U`` everywhere below (lesson 04 and the Knockout lab use the
same letters; ``N`` is the deck, 57 cards). Every other player's hand is taken to be
a uniformly random subset of the pool (this is exact at the start of a round,
and exact all round long against opponents whose choices reveal nothing, such
as random players; against clever opponents it is the natural model).

The counting behind everything: if ``H`` of the ``U`` unseen cards beat yours,
and the players still to play hold ``k`` cards between them, the chance that
none of those ``k`` cards is among the ``H`` is the hypergeometric

    P(no higher card out there) = C(U − H, k) / C(U, k).

A lead who has seen only its own card has ``U = N − 1``: that is the lesson's
``C(N − 1 − H, k) / C(N − 1, k)``. :func:`win_count` gives U, H and k of one
option, exactly as the chances below use them.

Ties (K3): the earlier card wins, so only *strictly* higher later cards beat
you, and you must be *strictly* higher than every card played before you.

One concern, and why it is long (issue 28 allows three modules over 600 lines):
the chances of Safari Knockout from one player's point of view, all built on
one private sorted table of the deck (``_table``): the chance a play wins, the
best play, the expected turns won by a plan, the deck's counting facts the
lessons quote (ranks, ties per item, the pigeonhole rule for who is out) and,
for the Simulation lab, Monte Carlo estimates (``estimate_*``) to set beside
the exact answers. If it grows, the seam is the ``estimate_*`` block, which
would need the table made public.

>>> from safari_kit.cards.model import SafariPal
>>> deck = tuple(SafariPal(f"C{i}", f"A{i}", i, 10 - i, i % 3, 1) for i in range(1, 9))
>>> view = KnockoutView(hand=("C7", "C2"), later=(2,))
>>> p_win_leading(deck, view, "C7", "weight_kg")      # 1 higher card (C8) among U = 6
2/3 ≈ 0.6667
>>> p_win_leading(deck, view, "C7", "weight_kg").formula
'C(6 − 1, 2) / C(6, 2)'
>>> win_count(deck, view, "C7", "weight_kg")
WinCount(card='C7', item='weight_kg', deck=8, hand=2, played=0, unseen=6, higher=1, k=2, later=1, beaten=False)
>>> best_play(deck, view).action    # every lifespan is 1: nobody beats it, so keep C7 and play C2
Play(card='C2', item='lifespan_years')
"""
from __future__ import annotations

import math
import weakref
from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence, cast

from safari_kit.cards.model import DATA_ITEMS, SafariPal
from safari_kit.knockout.actions import Play
from safari_kit.probability.distributions import Estimate, Exact

__all__ = [
    "KnockoutView", "view_of", "unseen_pool",
    "WinCount", "win_count", "p_win_leading", "p_win_following", "p_win_leading_card_only",
    "Option", "BestPlay", "best_play", "card_strength",
    "TurnChance", "PlanValue", "expected_turns_won", "best_fixed_plan",
    "item_ranks", "card_ranks", "lead_keys", "follow_keys", "ties_per_item", "ItemTies",
    "turns_in_round", "pigeonhole_out",
    "estimate_p_win", "estimate_expected_turns_won",
]


# ---------------------------------------------------------------------------- the deck as tables
class _Table:
    """Card ids, index, items and values (floats) of one deck, built once per game/deck."""

    __slots__ = ("ids", "index", "items", "values", "cards", "__weakref__")

    def __init__(self, cards: Sequence[SafariPal], items: Sequence[str]):
        self.cards = tuple(cards)
        self.ids = tuple(c.id for c in self.cards)
        self.index = {cid: i for i, cid in enumerate(self.ids)}
        self.items = tuple(items)
        self.values = {item: tuple(float(getattr(c, item)) for c in self.cards) for item in self.items}

    def value(self, card: str, item: str) -> float:
        try:
            return self.values[item][self._i(card)]
        except KeyError:
            raise ValueError(f"unknown data item {item!r}; expected one of {', '.join(self.items)}") from None

    def _i(self, card: str) -> int:
        try:
            return self.index[card]
        except KeyError:
            raise ValueError(f"no card {card!r} in this deck") from None


_GAME_TABLES: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
_DECK_TABLES: dict = {}


def _table(game) -> _Table:
    """``game``: a KnockoutGame (its cards and items) or a sequence of SafariPal (all four items)."""
    if isinstance(game, _Table):
        return game
    if hasattr(game, "cards") and hasattr(game, "items"):
        t = _GAME_TABLES.get(game)
        if t is None:
            t = _GAME_TABLES[game] = _Table(game.cards, game.items)
        return t
    deck = tuple(game.knockout if hasattr(game, "knockout") else game)
    t = _DECK_TABLES.get(deck)
    if t is None:
        if len(_DECK_TABLES) > 64:
            _DECK_TABLES.clear()
        t = _DECK_TABLES[deck] = _Table(deck, DATA_ITEMS)
    return t


# ---------------------------------------------------------------------------- what a player knows
@dataclass(frozen=True, slots=True)
class KnockoutView:
    """What one player knows when it is about to play (see the module docstring).

    - ``hand``: its own cards (ids);
    - ``later``: the hand sizes of the players who will play *after* it in the
      current turn, in play order (when leading: every other player still in);
    - ``trick``: the cards played *before* it this turn, in order (empty when leading);
    - ``item``: the data item named this turn (None when leading);
    - ``played``: the cards played in this round's *completed* turns.

    Build one from an engine observation with :func:`view_of`, or by hand for a lesson.
    """

    hand: tuple[str, ...]
    later: tuple[int, ...] = ()
    trick: tuple[str, ...] = ()
    item: str | None = None
    played: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for name in ("hand", "later", "trick", "played"):
            value = getattr(self, name)
            if isinstance(value, str):
                value = (value,)
            object.__setattr__(self, name, tuple(value))
        if self.trick and self.item is None:
            raise ValueError("a view with cards already played this turn needs the named item")
        if not self.trick and self.item is not None:
            raise ValueError("a lead (empty trick) has no named item yet; drop item= or give the trick")
        if any(isinstance(k, bool) or not hasattr(k, "__index__") or k < 0 for k in self.later):
            raise ValueError(f"later must be hand sizes (non-negative integers), got {self.later!r}")
        seen = self.hand + self.trick + self.played
        if len(set(seen)) != len(seen):
            raise ValueError("a card appears twice among hand, trick and played cards")

    @property
    def leading(self) -> bool:
        return not self.trick

    @property
    def players(self) -> int:
        """Players in the current turn (this one included)."""
        return len(self.trick) + 1 + len(self.later)

    @property
    def k(self) -> int:
        """Cards held in total by the players still to play after this one."""
        return sum(self.later)


def view_of(observation) -> KnockoutView:
    """The :class:`KnockoutView` of an engine observation (``KnockoutObservation``) when it is its turn.

    ``played`` = the cards of this round's completed turns (``observation.turns``
    filtered on the round); ``later`` = the hand sizes of the seats still in that
    follow it clockwise up to (not including) this turn's lead.
    """
    if isinstance(observation, KnockoutView):
        return observation
    obs = observation
    if obs.terminal or obs.current_player != obs.player:
        raise ValueError(f"player {obs.player} is not to play (current player {obs.current_player})")
    out = set(obs.out)
    n = obs.players
    later = []
    s = (obs.player + 1) % n
    while s != obs.lead:
        if s not in out:
            later.append(obs.hand_sizes[s])
        s = (s + 1) % n
    played = tuple(c for r, _, plays, _ in obs.turns if r == obs.round for _, c in plays)
    trick = tuple(c for _, c in obs.trick)
    return KnockoutView(obs.hand, tuple(later), trick, obs.item if trick else None, played)


def _view(x) -> KnockoutView:
    return x if isinstance(x, KnockoutView) else view_of(x)


def unseen_pool(game, view) -> tuple[str, ...]:
    """The unseen cards: deck − own hand − cards played this round (the ``U`` of every formula)."""
    t, v = _table(game), _view(view)
    seen = set(v.hand) | set(v.trick) | set(v.played)
    for c in seen:
        t._i(c)
    return tuple(c for c in t.ids if c not in seen)


def _check_card_item(t: _Table, v: KnockoutView, card: str, item: str) -> None:
    if card not in v.hand:
        raise ValueError(f"card {card!r} is not in the hand {v.hand!r}")
    if item not in t.values:
        raise ValueError(f"unknown data item {item!r}; expected one of {', '.join(t.items)}")


def _hypergeometric_none(N: int, H: int, k: int) -> Fraction:
    """P(a random k-subset of N cards avoids H given ones) = C(N − H, k) / C(N, k)."""
    if k > N:
        raise ValueError(f"the other players hold {k} cards but only {N} are unseen")
    return Fraction(math.comb(N - H, k), math.comb(N, k))


def _count_formula(U: int, H: int, k: int) -> str:
    """The board formula C(U − H, k) / C(U, k) with the numbers in it."""
    return f"C({U} − {H}, {k}) / C({U}, {k})"


BEATEN_FORMULA = "0 (a card played earlier is at least as high)"


def _p_win(t: _Table, v: KnockoutView, card: str, item: str) -> tuple[Fraction, int, int, int, bool]:
    vals = t.values[item]
    idx = t.index
    mine = vals[idx[card]]
    beaten = any(vals[idx[c]] >= mine for c in v.trick)
    seen = set(v.hand) | set(v.trick) | set(v.played)
    U = len(t.ids) - len(seen)
    H = sum(1 for i, c in enumerate(t.ids) if vals[i] > mine and c not in seen)
    k = v.k
    if beaten:
        if k > U:
            raise ValueError(f"the other players hold {k} cards but only {U} are unseen")
        return Fraction(0), U, H, k, True
    return _hypergeometric_none(U, H, k), U, H, k, False


def p_win_leading(game, view, card: str, item: str) -> Exact:
    """P(the lead wins the turn with ``card``, naming ``item``), opponents playing their best card.

    For the board::

        P(win) = C(U − H, k) / C(U, k)

    - U = unseen cards = deck − my hand − cards played this round;
    - H = unseen cards *strictly* higher than mine on the item (an equal card
      played later loses to mine, K3; a higher card in my own hand cannot beat me);
    - k = cards held by all the other players together.

    The lead wins unless some opponent holds a strictly higher card (then that
    opponent plays it); the chance that none of the k cards they hold is one of
    the H higher ones is hypergeometric. The lesson's ``C(N−1−H, k)/C(N−1, k)``
    (N = the deck) is the same formula for a player who knows only its own card
    (:func:`p_win_leading_card_only`): there U = N − 1, the rest of the deck.

    ``game``: a KnockoutGame or a deck (sequence of SafariPal); ``view``: a
    :class:`KnockoutView` or the player's observation.
    """
    t, v = _table(game), _view(view)
    if not v.leading:
        raise ValueError("cards have been played this turn: this player follows (use p_win_following)")
    _check_card_item(t, v, card, item)
    p, U, H, k, _ = _p_win(t, v, card, item)
    return Exact(p, f"P(win leading {card} on {item})", _count_formula(U, H, k))


def p_win_following(game, view, card: str, item: str | None = None) -> Exact:
    """P(a follower wins the turn with ``card``), the players after it playing their best card.

    For the board::

        P(win) = 0                          if a card played before mine is ≥ mine,
        P(win) = C(U − H, k') / C(U, k')    otherwise,

    - U = unseen cards = deck − my hand − cards played this round (this turn's included);
    - H = unseen cards strictly higher than mine on the named item;
    - k' = cards held by the players who play *after* me this turn.

    The earlier card wins a tie (K3), so I need to be strictly higher than every
    card already played; a later card equal to mine loses to mine. Knowing the
    cards already played changes the question: the players before me no longer
    matter, only the k' cards still to come.
    ``item`` defaults to the view's named item.
    """
    t, v = _table(game), _view(view)
    if v.leading:
        raise ValueError("no card has been played this turn: this player leads (use p_win_leading)")
    item = cast(str, v.item) if item is None else item  # a view with cards played names the item
    if item != v.item:
        raise ValueError(f"the named item is {v.item!r}, not {item!r}")
    _check_card_item(t, v, card, item)
    p, U, H, k, beaten = _p_win(t, v, card, item)
    formula = BEATEN_FORMULA if beaten else _count_formula(U, H, k)
    return Exact(p, f"P(win following with {card} on {item})", formula)


def p_win_leading_card_only(game, card: str, item: str, k: int) -> Exact:
    """The lesson's formula, for a lead who knows only its own card::

        P(win) = C(N − 1 − H, k) / C(N − 1, k)

    N = deck size, H = cards of the deck strictly higher than ``card`` on
    ``item`` (all unseen: the lead has seen only its own card), k = cards the
    opponents hold between them. It is :func:`p_win_leading`'s
    ``C(U − H, k) / C(U, k)`` with U = N − 1 unseen cards. (Knowing the rest of
    one's hand is :func:`p_win_leading` with a larger view: U = N − hand.)
    """
    t = _table(game)
    vals = t.values[item] if item in t.values else None
    if vals is None:
        raise ValueError(f"unknown data item {item!r}; expected one of {', '.join(t.items)}")
    mine = vals[t._i(card)]
    N = len(t.ids)
    H = sum(1 for x in vals if x > mine)
    p = _hypergeometric_none(N - 1, H, k)
    return Exact(p, f"P(win leading {card} on {item}, knowing only that card)",
                 f"C({N} − 1 − {H}, {k}) / C({N} − 1, {k})")


@dataclass(frozen=True, slots=True)
class WinCount:
    """The numbers behind one option's exact chance, as :func:`p_win_leading` / :func:`p_win_following` use them.

    ``unseen`` (U) = ``deck`` − ``hand`` − ``played`` (cards played this round,
    this turn's included); ``higher`` (H) = unseen cards strictly higher than
    ``card`` on ``item``; ``k`` = cards held by the ``later`` players still to
    play after me; ``beaten``: a card already played this turn is at least as
    high (then P = 0 whatever U, H, k). Otherwise P = C(U − H, k) / C(U, k).
    """

    card: str
    item: str
    deck: int
    hand: int
    played: int
    unseen: int
    higher: int
    k: int
    later: int
    beaten: bool

    @property
    def value(self) -> Fraction:
        """The exact chance: 0 when beaten, else C(U − H, k) / C(U, k)."""
        if self.beaten:
            return Fraction(0)
        return _hypergeometric_none(self.unseen, self.higher, self.k)

    @property
    def formula(self) -> str:
        """The same text as the option's ``Exact.formula``: ``C(50 − 1, 21) / C(50, 21)``."""
        return BEATEN_FORMULA if self.beaten else _count_formula(self.unseen, self.higher, self.k)

    @property
    def counts(self) -> tuple[int, int]:
        """(C(U − H, k), C(U, k)): the hands of the later players that avoid the H higher cards, and all hands."""
        return math.comb(self.unseen - self.higher, self.k), math.comb(self.unseen, self.k)


def win_count(game, view, card: str, item: str | None = None) -> WinCount:
    """U, H and k of one option (see :class:`WinCount`), for explaining a chance on the board or in a lab.

    Leading: ``item`` is the item to name (required); following: it defaults to
    the named item. ``win_count(...).value`` equals :func:`p_win_leading` /
    :func:`p_win_following` of the same option.
    """
    t, v = _table(game), _view(view)
    if v.leading and item is None:
        raise ValueError("leading: give the item to name")
    if not v.leading:
        item = cast(str, v.item) if item is None else item
        if item != v.item:
            raise ValueError(f"the named item is {v.item!r}, not {item!r}")
    item = cast(str, item)
    _check_card_item(t, v, card, item)
    _, U, H, k, beaten = _p_win(t, v, card, item)
    return WinCount(card, item, len(t.ids), len(v.hand), len(v.trick) + len(v.played), U, H, k,
                    len(v.later), beaten)


# ---------------------------------------------------------------------------- best play
def card_strength(game, card: str) -> int:
    """How strong a card is to keep: its best count of deck cards strictly *below* it, over the items.

    Used to break ties: when options are equally good, play the weakest card
    and keep the strong ones for later turns.
    """
    t = _table(game)
    i = t._i(card)
    return max(sum(1 for x in vals if x < vals[i]) for vals in t.values.values())


@dataclass(frozen=True, slots=True)
class Option:
    """One possible play and its exact winning probability (``item`` is the named item when following)."""

    card: str
    item: str
    p: Exact

    def __repr__(self) -> str:
        return f"{self.card} on {self.item}: {self.p!r}"


@dataclass(frozen=True, slots=True)
class BestPlay:
    """The play with the highest winning probability, and the table of every option.

    ``action`` is the engine action (``Play(card, item)`` when leading,
    ``Play(card)`` when following).
    """

    action: Play
    p: Exact
    table: tuple[Option, ...]
    leading: bool

    @property
    def card(self) -> str:
        return self.action.card

    def rows(self) -> list[dict]:
        """Plain rows (card, item, p as Fraction, float), e.g. for ``pandas.DataFrame(best.rows())``."""
        return [{"card": o.card, "item": o.item, "p": o.p.value, "p_float": float(o.p), "formula": o.p.formula}
                for o in self.table]


def best_play(game, view) -> BestPlay:
    """The card (and item when leading) with the highest exact winning probability.

    Leading: every card × every item of the game, :func:`p_win_leading`.
    Following: every card, :func:`p_win_following` on the named item.
    Ties (several options equally likely to win, e.g. all certain or all
    hopeless): the *weakest* card by :func:`card_strength` (keep strong cards),
    then the lower value on the item, then deck order, then item order. So a
    follower plays the cheapest card among the best ones, and its weakest card
    when nothing can win.
    """
    t, v = _table(game), _view(view)
    if not v.hand:
        raise ValueError("the hand is empty")
    strength = {c: card_strength(t, c) for c in v.hand}
    items = t.items if v.leading else (cast(str, v.item),)  # a follower's view names the item
    options = []
    for card in v.hand:
        for item in items:
            p = p_win_leading(t, v, card, item) if v.leading else p_win_following(t, v, card, item)
            options.append(Option(card, item, p))
    rank = {it: j for j, it in enumerate(t.items)}

    def key(o: Option):
        return (-o.p.value, strength[o.card], t.value(o.card, o.item), t.index[o.card], rank[o.item])

    best = min(options, key=key)
    action = Play(best.card, best.item) if v.leading else Play(best.card)
    return BestPlay(action, best.p, tuple(options), v.leading)


# ---------------------------------------------------------------------------- expected turns won
@dataclass(frozen=True, slots=True)
class TurnChance:
    """One turn of a plan: my card, the item (None: a random opponent names it), my place, P(win)."""

    turn: int
    card: str
    item: str | None
    before: int
    after: int
    p: Exact


@dataclass(frozen=True, slots=True)
class PlanValue:
    """Expected turns won by a fixed plan (the sum of the per-turn probabilities, linearity)."""

    expected: Exact
    turns: tuple[TurnChance, ...]

    @property
    def plan(self) -> tuple[tuple[str, str | None], ...]:
        return tuple((tc.card, tc.item) for tc in self.turns)


def _falling(x: int, n: int) -> int:
    return math.perm(x, n) if 0 <= n <= x else 0


def _turn_p(t: _Table, v: KnockoutView, pool: tuple[int, ...], j: int, card: str,
            item: str | None) -> tuple[Fraction, int, int]:
    """P(win turn j of the rest of the round with ``card``) against random opponents."""
    m = v.players
    a0 = len(v.trick)
    i = t.index[card]
    if j == 0 and v.trick:
        vals = t.values[cast(str, v.item)]  # a view with cards played names the item
        mine = vals[i]
        if any(vals[t.index[c]] >= mine for c in v.trick):
            return Fraction(0), a0, len(v.later)
        b = len(v.later)
        LE = sum(1 for c in pool if vals[c] <= mine)
        return Fraction(_falling(LE, b), _falling(len(pool), b)), a0, b
    a = (a0 - j) % m
    b = m - 1 - a
    N = len(pool)
    items = (cast(str, item),) if a == 0 else t.items  # on my lead turns the plan gives the item
    total = Fraction(0)
    for it in items:
        vals = t.values[it]
        mine = vals[i]
        L = sum(1 for c in pool if vals[c] < mine)
        E = sum(1 for c in pool if vals[c] == mine)
        total += Fraction(_falling(L, a) * _falling(L + E - a, b), _falling(N, a + b))
    return total / len(items), a, b


def _lead_turns(v: KnockoutView) -> set[int]:
    m, a0 = v.players, len(v.trick)
    return {j for j in range(len(v.hand)) if (a0 - j) % m == 0}


def expected_turns_won(game, view, plan=None) -> PlanValue:
    """Expected number of turns I win in the rest of this round, by a fixed plan, against random opponents.

    **Definition.** I play my cards in the fixed order ``plan`` (one card per
    remaining turn; on the turns I lead I name the item the plan gives). Every
    other player plays a uniformly random card of its hand, and names a
    uniformly random item when it leads (exactly what ``RandomBot`` does). The
    lead moves one seat clockwise each turn (K2), so my place in each turn is
    known: ``a`` players before me, ``b`` after.

    **Formula** (linearity of expectation: E[turns won] = Σ over turns of P(win that turn)).
    The opponents' cards of one turn are a uniformly random sequence of
    distinct unseen cards, so with U unseen cards, L of them strictly lower
    than mine on the item and E equal to it::

        P(win a turn) = L·(L−1)···(L−a+1) · (L+E−a)···(L+E−a−b+1) / (U·(U−1)···(U−a−b+1))

    (the a cards before me must be strictly lower, K3; the b after me at most
    equal). On a turn an opponent leads, average this over the items. In the
    current turn, the cards already played are known: P = 0 if one is ≥ mine,
    else (L+E)···(L+E−b+1) / U···(U−b+1).

    ``plan``: a sequence of card ids, or of (card, item) pairs (the item is
    needed only on turns I lead; a missing one is the card's best item).
    Default: :func:`best_fixed_plan`, the order that maximises this expectation.
    """
    t, v = _table(game), _view(view)
    if plan is None:
        return best_fixed_plan(t, v)
    steps = []
    for entry in plan:
        card, item = (entry, None) if isinstance(entry, str) else tuple(entry)
        steps.append((card, item))
    cards = [c for c, _ in steps]
    if sorted(cards) != sorted(v.hand):
        raise ValueError(f"the plan must play every card of the hand once: {cards!r} vs {v.hand!r}")
    pool = tuple(t.index[c] for c in unseen_pool(t, v))
    if v.players - 1 > len(pool) + len(v.trick):
        raise ValueError("more opponents than unseen cards")
    leads = _lead_turns(v)
    turns = []
    for j, (card, item) in enumerate(steps):
        if j in leads:
            if item is None:
                item = max(t.items, key=lambda it: _turn_p(t, v, pool, j, card, it)[0])
            elif item not in t.values:
                raise ValueError(f"unknown data item {item!r}")
        elif j == 0 and v.trick:
            item = v.item
        else:
            item = None
        p, a, b = _turn_p(t, v, pool, j, card, item)
        turns.append(TurnChance(j, card, item, a, b, Exact(p, f"P(win turn {j + 1} with {card})")))
    total = sum((tc.p.value for tc in turns), Fraction(0))
    formula = " + ".join(str(tc.p.value) for tc in turns)
    return PlanValue(Exact(total, "expected turns won (fixed plan, random opponents)", formula), tuple(turns))


def best_fixed_plan(game, view) -> PlanValue:
    """The fixed plan with the highest :func:`expected_turns_won` (exact dynamic programme over subsets).

    Because the expectation is a sum of per-turn terms, each depending only on
    the card (and item) used at that turn, the best order is an assignment
    problem: ``best[S]`` = the best total for playing the card set S in the
    first |S| turns, ``best[S ∪ {c}] = max(best[S] + P(turn |S|, c))``; on a turn
    I lead, each card takes its best item. (2^7 · 7 terms at most.)
    """
    t, v = _table(game), _view(view)
    pool = tuple(t.index[c] for c in unseen_pool(t, v))
    hand = v.hand
    n = len(hand)
    leads = _lead_turns(v)
    # value[j][c]: (P, item) of card c at turn j
    value = []
    for j in range(n):
        row = []
        for card in hand:
            if j in leads:
                p, item = max(((_turn_p(t, v, pool, j, card, it)[0], it) for it in t.items),
                              key=lambda x: x[0])
            else:
                p, item = _turn_p(t, v, pool, j, card, v.item if (j == 0 and v.trick) else None)[0], None
            row.append((p, item))
        value.append(row)
    best: dict[int, tuple[Fraction, tuple[int, ...]]] = {0: (Fraction(0), ())}
    for mask in range(1 << n):
        if mask not in best:
            continue
        j = bin(mask).count("1")
        if j == n:
            continue
        base, seq = best[mask]
        for c in range(n):
            if mask >> c & 1:
                continue
            total = base + value[j][c][0]
            new = mask | 1 << c
            if new not in best or total > best[new][0]:
                best[new] = (total, seq + (c,))
    order = best[(1 << n) - 1][1]
    plan = [(hand[c], value[j][c][1]) for j, c in enumerate(order)]
    return expected_turns_won(t, v, plan)


# ---------------------------------------------------------------------------- lesson helpers
def item_ranks(game, item: str) -> dict[str, int]:
    """Rank of every card on one item: 1 + the number of cards strictly higher (tied cards share a rank)."""
    t = _table(game)
    if item not in t.values:
        raise ValueError(f"unknown data item {item!r}; expected one of {', '.join(t.items)}")
    vals = t.values[item]
    return {cid: 1 + sum(1 for x in vals if x > vals[i]) for i, cid in enumerate(t.ids)}


def card_ranks(game, card: str) -> dict[str, int]:
    """The rank of one card on each item (1 = highest); its best item has the smallest rank."""
    t = _table(game)
    t._i(card)
    return {item: item_ranks(t, item)[card] for item in t.items}


def lead_keys(game) -> list[list[int]]:
    """``keys[k][c]``: the order a rank-greedy lead prefers (card c, item k); higher is better, all distinct.

    Better = fewer cards of the deck strictly higher on the item (the card's rank);
    ties go to the lower card index (deck order), then the earlier item.
    Shared by ``HighCardBot`` and the batch simulator so both play identically.
    """
    t = _table(game)
    C, K = len(t.ids), len(t.items)
    keys = []
    for k, item in enumerate(t.items):
        vals = t.values[item]
        keys.append([-(sum(1 for w in vals if w > vals[c]) * (C * K) + c * K + k) for c in range(C)])
    return keys


def follow_keys(game) -> list[list[int]]:
    """``keys[k][c]``: a follower's "best card on item k" order; higher value first, ties by deck order."""
    t = _table(game)
    C = len(t.ids)
    keys = []
    for item in t.items:
        vals = t.values[item]
        keys.append([sum(1 for w in vals if w < vals[c]) * C + (C - 1 - c) for c in range(C)])
    return keys


@dataclass(frozen=True, slots=True)
class ItemTies:
    """Ties on one data item: the groups of equal values and P(two random cards tie)."""

    item: str
    groups: tuple[tuple[str, ...], ...]
    p_tie: Exact

    @property
    def cards_in_ties(self) -> int:
        return sum(len(g) for g in self.groups)


def ties_per_item(game) -> dict[str, ItemTies]:
    """For each item, the groups of cards with equal values, and how often ties matter::

        P(two random different cards tie) = Σ C(g, 2) / C(N, 2)   (g = size of each group of equal values)
    """
    t = _table(game)
    N = len(t.ids)
    out = {}
    for item in t.items:
        groups: dict[float, list[str]] = {}
        for cid, x in zip(t.ids, t.values[item]):
            groups.setdefault(x, []).append(cid)
        tied = tuple(tuple(g) for _, g in sorted(groups.items(), reverse=True) if len(g) > 1)
        pairs = sum(math.comb(len(g), 2) for g in tied)
        terms = " + ".join(f"C({len(g)},2)" for g in tied) or "0"
        out[item] = ItemTies(item, tied, Exact(Fraction(pairs, math.comb(N, 2)),
                                              f"P(two random cards tie on {item})",
                                              f"({terms}) / C({N},2)", count=(pairs, math.comb(N, 2))))
    return out


def turns_in_round(round_no: int) -> int:
    """K2: round r has 8 − r turns (each player is dealt 8 − r cards and plays one per turn)."""
    if not 1 <= round_no <= 7:
        raise ValueError(f"round must be 1..7, got {round_no!r}")
    return 8 - round_no


def pigeonhole_out(players: int, round_no: int) -> int:
    """K5 pigeonhole: round r has 8 − r turns, each won by one player, so at most 8 − r players win one.

    With ``players`` players in the round, at least ``players − (8 − r)`` win none
    and are out (never fewer than 0): ``pigeonhole_out(4, 5) == 1``.

    >>> [pigeonhole_out(4, r) for r in range(1, 8)]
    [0, 0, 0, 0, 1, 2, 3]
    """
    return max(0, players - turns_in_round(round_no))


# ---------------------------------------------------------------------------- Monte Carlo twins
# numpy is imported inside these twins only: the Simulation lab uses them, the play path never does.
def _rng(rng):
    import numpy as np

    return rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)


def _pool_perms(n_pool: int, need: int, n: int, rng):
    """(n, need) indices into the pool: the first ``need`` cards of n independent shuffles."""
    import numpy as np

    if need > n_pool:
        raise ValueError(f"{need} unseen cards needed, only {n_pool} unseen")
    return np.argsort(rng.random((n, n_pool)), axis=1)[:, :need]


def estimate_p_win(game, view, card: str, item: str | None = None, n: int = 10_000, rng=None) -> Estimate:
    """Monte Carlo twin of :func:`p_win_leading` / :func:`p_win_following`.

    Deals the players after me random hands from the unseen pool (seeded
    ``numpy`` Generator ``rng``), lets each play its best card on the item and
    resolves the turn by K3 (earlier card wins ties).
    """
    import numpy as np

    t, v, g = _table(game), _view(view), _rng(rng)
    if item is None:
        item = v.item
    if item is None:
        raise ValueError("leading: give the item to name")
    if not v.leading and item != v.item:
        raise ValueError(f"the named item is {v.item!r}, not {item!r}")
    _check_card_item(t, v, card, item)
    vals = np.asarray(t.values[item])
    pool = np.array([t.index[c] for c in unseen_pool(t, v)], dtype=np.int64)
    mine = vals[t.index[card]]
    if any(vals[t.index[c]] >= mine for c in v.trick):
        return Estimate(0, n, label=f"P(win with {card})")
    k = v.k
    win = np.ones(n, dtype=bool)
    if k:
        cards = pool[_pool_perms(len(pool), k, n, g)]
        start = 0
        for size in v.later:
            if size:
                best = vals[cards[:, start:start + size]].max(axis=1)
                win &= best <= mine          # later equal cards lose to mine (K3)
            start += size
    return Estimate.from_samples(win, label=f"P(win with {card} on {item})")


def estimate_expected_turns_won(game, view, plan, n: int = 10_000, rng=None) -> Estimate:
    """Monte Carlo twin of :func:`expected_turns_won` (``plan`` as there; pass ``expected_turns_won(...).plan``).

    Deals every other player a random hand from the unseen pool (the players
    before me this turn have already played, so one card fewer), shuffles each
    hand into a random playing order, names random items for opponents' leads
    and plays the rest of the round by the rules.
    """
    import numpy as np

    t, v, g = _table(game), _view(view), _rng(rng)
    steps = [(e, None) if isinstance(e, str) else tuple(e) for e in plan]
    h = len(v.hand)
    m, a0 = v.players, len(v.trick)
    pool = np.array([t.index[c] for c in unseen_pool(t, v)], dtype=np.int64)
    # opponents by relative place in the current turn (0 = current lead); me at a0
    sizes = {p: h - 1 for p in range(a0)}
    for i, s in enumerate(v.later):
        sizes[a0 + 1 + i] = s
    need = sum(sizes.values())
    cards = pool[_pool_perms(len(pool), need, n, g)]   # random hands, in a random order
    hands, start = {}, 0
    for p in sorted(sizes):
        hands[p] = cards[:, start:start + sizes[p]]
        start += sizes[p]
    used = {p: 0 for p in sizes}
    K = len(t.items)
    V = np.array([t.values[it] for it in t.items])       # (K, C)
    wins = np.zeros(n, dtype=np.int64)
    for j, (card, item) in enumerate(steps):
        ci = t.index[card]
        lead = (j % m) if j else 0                        # relative place of this turn's lead
        if j == 0 and v.trick:
            k_arr = np.full(n, t.items.index(v.item))
        elif (a0 - j) % m == 0:
            k_arr = np.full(n, t.items.index(item))
        else:
            k_arr = g.integers(0, K, n)
        best = np.full(n, -np.inf)
        mine_won = np.zeros(n, dtype=bool)
        for q in range(m):
            p = (lead + q) % m
            if p == a0:
                val = V[k_arr, ci]
                mine_won = val > best
                best = np.maximum(best, val)
            elif j == 0 and p < a0:
                val = V[k_arr, t.index[v.trick[p]]]
                best = np.maximum(best, val)
            else:
                c = hands[p][:, used[p]]
                val = V[k_arr, c]
                mine_won &= ~(val > best)
                best = np.maximum(best, val)
        for p in sizes:
            if not (j == 0 and p < a0):
                used[p] += 1
        wins += mine_won
    return Estimate.from_samples(wins, label="turns won")
