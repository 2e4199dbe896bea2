"""What the card games' puzzles share (bOOleO in ``engines/booleo/puzzles.py``, Digitalo
in ``engines/digitalo/puzzles.py``): the hidden hands a seat must reckon with, the
worst case of each action over all of them, the choice of the accepted answers, the
proof, the level and the judge.

A card puzzle is one decision of the seat to move, made from what that seat sees (its
``view``): its hand, both pyramids, the row of start or bit cards, the top of the
discard pile and the sizes of the piles. Every other card lies in one *unseen pool*: the
opponent's hand, the draw pile and the discards under the top. The cards in sight fix
that pool as a multiset (the deck minus what is seen), so the opponent's hand is one of
the sub-multisets of the pool of the hand's size that the piles' sizes allow. Each of
them is enumerated, exactly: multisets, not orderings, because the order of the cards in
a hand changes nothing, and the order of the draw pile matters only for the cards drawn
within the puzzle's horizon (the opponent's next draw in bOOleO, which is part of the hand
it acts with; the solver's next card in Digitalo, enumerated with the hand when it matters).
Hands that hold the same *kinds* of cards allow the same replies, so they are judged once,
as a ``HandClass`` that counts its hands (``hands``) and its deals with the copies of a
card told apart (``deals``).

The measure is a ``Value``, compared as a tuple, larger being better for the solver:

* ``banked``: what the action wins for sure this turn (bOOleO: 1 for a game won at once;
  Digitalo: the points a completed pyramid scores when the round ends with it standing,
  at least 1), 0 when it wins nothing;
* ``safe``: 1 when the opponent cannot complete their own pyramid with their next action;
* ``standing``: the solver's gates that still stand (valid, and in Digitalo active) once
  the opponent's reply, a flip included, has resolved.

An action's *worth* is its lowest value over every hand and every reply that hand allows
(a flip needs a NOT or an inverter, a completion the card that completes). The accepted
answers are the actions of the highest worth, so each accepted answer holds that value
under every hand, and each refused action is worse under at least one: the proof names
the reply that shows it and counts the hands in which it falls short (counts and the
solver's own view only: never the opponent's real cards, which the analysis does not read).

Screening: the worth alone needs no enumeration, since any kind the pool holds can lie in
some hand (``screen_action``); generators screen positions so, and judge the one they keep
over every hand class, whose result decides.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from math import comb
from typing import Any, Generic, Protocol, Self, TypeVar

from engines.base import JSON, GameError, GameState, Message
from engines.cards.pyramid import Pyramid
from engines.puzzles.core import Puzzle, Verdict, rating_for

Value = tuple[int, int, int]  # (banked, safe, standing)
MEASURE = ("banked", "safe", "standing")


@dataclass(frozen=True)
class HandClass:
    """The opponent's possible hands that hold exactly these card ``kinds`` (and, where it
    matters, give the solver a next card of kind ``drawn``): they allow the same replies.
    ``mask`` has bit i set for the i-th kind of ``Hands.kinds``."""

    kinds: frozenset[str]
    drawn: str
    hands: int  # distinct hands (multisets; with ``drawn``, hand and next card)
    deals: int  # the same, the copies of a card told apart
    mask: int

    def sort_key(self) -> tuple[tuple[str, ...], str]:
        return tuple(sorted(self.kinds)), self.drawn


@dataclass(frozen=True)
class Hands:
    """Every hand class of one position, in a fixed order, and the pool's kinds that
    their masks number."""

    kinds: tuple[str, ...]
    classes: tuple[HandClass, ...]

    def mask(self, kinds: frozenset[str]) -> int:
        return sum(1 << i for i, kind in enumerate(self.kinds) if kind in kinds)

    @property
    def hands(self) -> int:
        return sum(c.hands for c in self.classes)

    @property
    def deals(self) -> int:
        return sum(c.deals for c in self.classes)


@dataclass(frozen=True)
class Reply:
    """One answer the opponent may give after the solver's action, and its value for the
    solver. ``needs``: the opponent must hold one of these kinds (empty: any hand may);
    ``unless_drawn``: not a threat when the solver's next card is of this kind (it could
    counter)."""

    action: str  # the opponent's canonical action, in their numbering; "" for any quiet one
    value: Value
    needs: frozenset[str] = frozenset()
    unless_drawn: str = ""
    # What the reply is ("quiet", "flip", "cancel", "complete", "place") and where, in the
    # solver's own numbering (a start or bit card, a slot of the opponent's pyramid), so a
    # verdict can tell it in the solver's words.
    kind: str = "quiet"
    at: str = ""

    def available(self, hand: HandClass) -> bool:
        return ((not self.needs or not self.needs.isdisjoint(hand.kinds))
                and not (self.unless_drawn and hand.drawn == self.unless_drawn))


@dataclass(frozen=True)
class Judged:
    """A legal action's outcome: its worth (lowest value), the first hand class and reply
    giving it, its value per hand class (in ``Hands.classes`` order), and its *quiet*
    value, when the opponent neither flips nor completes (what the board alone suggests)."""

    action: str
    worth: Value
    reply: Reply | None
    hand: HandClass | None
    values: tuple[Value, ...]
    quiet: Value

    def renamed(self, action: str) -> Judged:
        """The same outcome for another action that leaves the same position."""
        return Judged(action, self.worth, self.reply, self.hand, self.values, self.quiet)


@dataclass(frozen=True)
class CardBoard:
    """The public position: seat 0's row of start or bit cards, both pyramids, and the
    pending flip (seat 0's card, the seat that played it). Each game says how a flip
    resolves (``resolve``)."""

    n: int
    bits: tuple[int, ...]
    pyramids: tuple[Pyramid, Pyramid]
    pending: tuple[int, int] | None

    def resolve(self, pyramids: list[Pyramid], bits: list[int], card: int) -> None:
        """Discard what a flip of seat 0's ``card`` broke in ``pyramids`` (``bits``
        already show it): the game's rule."""
        raise NotImplementedError

    def resolved(self) -> Self:
        """The position once the pending flip has resolved."""
        if self.pending is None:
            return self
        pyramids = [dict(p) for p in self.pyramids]
        self.resolve(pyramids, list(self.bits), self.pending[0])
        return replace(self, pyramids=(pyramids[0], pyramids[1]), pending=None)

    def flipped(self, card: int, by: int) -> Self:
        """The position after a flip of seat 0's ``card`` by seat ``by``, pending."""
        bits = list(self.bits)
        bits[card - 1] ^= 1
        return replace(self, bits=tuple(bits), pending=(card, by))

    def key(self) -> tuple[object, ...]:
        """Equal for equal positions: actions that leave the same one are judged once."""
        return (self.bits, self.pending, *(tuple(sorted(p.items())) for p in self.pyramids))


BoardT = TypeVar("BoardT", bound=CardBoard)


@dataclass(frozen=True)
class CardAnalysis(Generic[BoardT]):
    """Every legal action of ``seat`` judged over every hand class (``hands`` None for a
    screening, which judges their worth alone)."""

    seat: int
    board: BoardT
    legal: tuple[str, ...]
    pool: dict[str, int]
    hands: Hands | None
    judged: tuple[Judged, ...]
    best: Value
    accepted: tuple[Judged, ...]
    refused: tuple[Judged, ...]


def unseen_start(deck: Iterable[str], view: JSON) -> Counter[str]:
    """The deck minus what ``view``'s seat sees in both games: its hand, both pyramids
    and the discard pile's top card (each game takes away what else it shows)."""
    pool = Counter(deck)
    pool -= Counter(view["hand"])
    for pyramid in view["pyramids"]:
        pool -= Counter(str(g["card"]) for g in pyramid)
    if view["discard_top"] is not None:
        pool -= Counter([view["discard_top"]])
    return pool


def multisets(pool: Mapping[str, int], size: int) -> list[tuple[tuple[int, ...], int]]:
    """Every sub-multiset of ``pool`` with ``size`` cards, as its count of each of the
    pool's kinds (sorted), with the number of ways to pick it when the copies of a card
    are told apart (the product of binomials)."""
    kinds = sorted(pool)
    counts = [pool[kind] for kind in kinds]
    after = [0] * (len(kinds) + 1)  # cards of the kinds from index i on
    for index in range(len(kinds) - 1, -1, -1):
        after[index] = after[index + 1] + counts[index]
    found: list[tuple[tuple[int, ...], int]] = []
    chosen = [0] * len(kinds)

    def walk(index: int, left: int, ways: int) -> None:
        if left == 0:
            found.append((tuple(chosen), ways))
            return
        if index == len(kinds) or after[index] < left:
            return
        for take in range(min(left, counts[index]), -1, -1):
            chosen[index] = take
            walk(index + 1, left - take, ways * comb(counts[index], take))
        chosen[index] = 0

    walk(0, size, 1)
    return found


# Only the last few pools: the same position analysed again (screened, then judged in
# full; a test's checks) hits it, new positions never do, and a large cache would keep
# hundreds of thousands of objects alive for every full garbage collection to walk
# (about 0.1 s at 256 pools).
@lru_cache(maxsize=8)
def _hand_classes(pool: tuple[tuple[str, int], ...], size: int,
                  least: tuple[tuple[str, int], ...],
                  next_card: Callable[[str], str] | None) -> Hands:
    kinds = tuple(kind for kind, count in pool if count > 0)
    counts = dict(pool)
    if next_card is None:
        found = _classes_counted(kinds, counts, size, dict(least))
    else:
        found = _classes_listed(kinds, counts, size, least, next_card)
    classes = [HandClass(frozenset(k for i, k in enumerate(kinds) if mask >> i & 1), drawn,
                         hands, deals, mask)
               for (mask, drawn), (hands, deals) in found.items()]
    return Hands(kinds, tuple(sorted(classes, key=HandClass.sort_key)))


def _classes_counted(kinds: tuple[str, ...], counts: dict[str, int], size: int,
                     least: dict[str, int]) -> dict[tuple[int, str], list[int]]:
    """The hands of each set of kinds, counted kind by kind without listing them: after
    each kind, for every (cards taken, kinds used) the number of hands and of deals."""
    if any(count > 0 and kind not in kinds for kind, count in least.items()):
        return {}  # a kind the pool lacks cannot be held
    states: dict[tuple[int, int], list[int]] = {(0, 0): [1, 1]}
    for index, kind in enumerate(kinds):
        grown: dict[tuple[int, int], list[int]] = {}
        for (taken, mask), (hands, deals) in states.items():
            for take in range(least.get(kind, 0), min(counts[kind], size - taken) + 1):
                key = (taken + take, mask | (1 << index) if take else mask)
                entry = grown.setdefault(key, [0, 0])
                entry[0] += hands
                entry[1] += deals * comb(counts[kind], take)
        states = grown
    return {(mask, ""): entry for (taken, mask), entry in states.items() if taken == size}


def _classes_listed(kinds: tuple[str, ...], counts: dict[str, int], size: int,
                    least: tuple[tuple[str, int], ...],
                    next_card: Callable[[str], str]) -> dict[tuple[int, str], list[int]]:
    """The hands of each set of kinds with the solver's next card, hand by hand."""
    found: dict[tuple[int, str], list[int]] = {}
    for chosen, ways in multisets({kind: counts[kind] for kind in kinds}, size):
        mask = sum(1 << i for i, take in enumerate(chosen) if take)
        hand = {kind: take for kind, take in zip(kinds, chosen, strict=True) if take}
        for kind in kinds:
            if counts[kind] > hand.get(kind, 0) and _enough(hand, kind, least):
                entry = found.setdefault((mask, next_card(kind)), [0, 0])
                entry[0] += 1
                entry[1] += ways * (counts[kind] - hand.get(kind, 0))
    return found


def _enough(hand: dict[str, int], drawn: str, least: tuple[tuple[str, int], ...]) -> bool:
    return all(hand.get(kind, 0) + (drawn == kind) >= count for kind, count in least)


def hand_classes(pool: Mapping[str, int], size: int, least: Mapping[str, int] | None = None,
                 next_card: Callable[[str], str] | None = None) -> Hands:
    """The opponent's possible hands of ``size`` cards from ``pool``, grouped by the kinds
    they hold, in a fixed order. ``least`` holds the fewest cards of a kind the hand (with
    the solver's next card) must take, when the piles' sizes leave no room for the rest
    elsewhere. With ``next_card`` (a module-level function: the result is cached on it)
    each hand is paired with the solver's next card, any card of the pool outside the
    hand, labelled by ``next_card(kind)``."""
    bounds = tuple(sorted((least or {}).items()))
    return _hand_classes(tuple(sorted(pool.items())), size, bounds, next_card)


def judge_action(action: str, replies: Sequence[Reply], hands: Hands,
                 quiet: Value) -> Judged:
    """``action``'s value under each hand class: the lowest of the replies that class
    allows (a quiet reply, always allowed, must be among ``replies``). Classes that agree
    on the kinds the replies need (and on the drawn card, where a reply asks) are judged
    once."""
    ordered = sorted(replies, key=lambda reply: reply.value)
    needs = [hands.mask(r.needs) if r.needs else -1 for r in ordered]
    relevant = 0
    for mask in needs:
        relevant |= max(mask, 0)
    drawn_matters = any(r.unless_drawn for r in ordered)
    seen: dict[tuple[int, str], Reply] = {}
    values: list[Value] = []
    worst: tuple[Value, Reply, HandClass] | None = None
    for hand in hands.classes:
        key = (hand.mask & relevant, hand.drawn if drawn_matters else "")
        reply = seen.get(key)
        if reply is None:
            reply = seen[key] = next(
                r for r, mask in zip(ordered, needs, strict=True)
                if (mask < 0 or hand.mask & mask)
                and not (r.unless_drawn and hand.drawn == r.unless_drawn))
        values.append(reply.value)
        if worst is None or reply.value < worst[0]:
            worst = reply.value, reply, hand
    assert worst is not None, "a pool always allows some hand"
    return Judged(action, worst[0], worst[1], worst[2], tuple(values), quiet)


def screen_action(action: str, replies: Sequence[Reply], pool: Mapping[str, int],
                  quiet: Value) -> Judged:
    """``judge_action``'s worth without enumerating hands, for screening positions: a
    reply counts when the pool holds a kind it needs. That is the exact worth whenever
    each such kind can lie in some hand, as it can in an unconstrained pool; the puzzle
    that is kept is always judged again with every hand class, which decides."""
    available = [r for r in replies
                 if not r.needs or any(pool.get(kind, 0) > 0 for kind in r.needs)]
    reply = min(available, key=lambda r: r.value)
    return Judged(action, reply.value, reply, None, (), quiet)


def judge_or_screen(action: str, replies: Sequence[Reply], hands: Hands | None,
                    pool: Mapping[str, int], quiet: Value) -> Judged:
    """``judge_action`` over every hand class, or without them (``hands`` None) the
    screening's ``screen_action``."""
    if hands is not None:
        return judge_action(action, replies, hands, quiet)
    return screen_action(action, replies, pool, quiet)


def immediate(action: str, value: Value, hands: Hands | None) -> Judged:
    """An action whose value no reply can change (a won game, a round that ends)."""
    values = () if hands is None else tuple(value for _ in hands.classes)
    return Judged(action, value, None, None, values, value)


def best_of(judged: Sequence[Judged]) -> tuple[Value, list[Judged], list[Judged]]:
    """The highest worth, the actions that reach it (accepted) and the others."""
    best = max(j.worth for j in judged)
    return (best, [j for j in judged if j.worth == best],
            [j for j in judged if j.worth != best])


def failing(judged: Judged, best: Value, hands: Hands) -> tuple[int, int]:
    """In how many hands (and deals) ``judged`` falls short of ``best``."""
    short = deals = 0
    for value, hand in zip(judged.values, hands.classes, strict=True):
        if value < best:
            short += hand.hands
            deals += hand.deals
    return short, deals


def proof_of(legal: Sequence[str], judged: Sequence[Judged], hands: Hands,
             pool: Mapping[str, int], extra: JSON) -> JSON:
    """The proof shown with a puzzle: what was checked (the unseen pool's counts, the
    hands and deals), the best worth, each accepted action's worth (held under every
    hand), and each refused action's worth with the reply that brings it down and how
    many hands allow that reply. Only counts and the solver's own view go in."""
    best, accepted, refused = best_of(judged)
    total, deals = hands.hands, hands.deals
    refused_entries = []
    for entry in sorted(refused, key=lambda j: (j.worth, j.action), reverse=True):
        fails = failing(entry, best, hands)
        refused_entries.append({
            "action": entry.action, "value": list(entry.worth),
            "reply": entry.reply.action if entry.reply is not None else "",
            "reply_kind": entry.reply.kind if entry.reply is not None else "",
            "reply_at": entry.reply.at if entry.reply is not None else "",
            "fails_in_hands": fails[0], "fails_in_deals": fails[1],
            "quiet": list(entry.quiet)})
    return {
        "measure": list(MEASURE),
        "legal": len(legal),
        "unseen": {"cards": sum(pool.values()),
                   "kinds": {kind: pool[kind] for kind in sorted(pool) if pool[kind]}},
        "hands": total,
        "deals": deals,
        "best": list(best),
        "accepted": [{"action": j.action, "value": list(j.worth), "holds_in_hands": total,
                      "holds_in_deals": deals} for j in accepted],
        "refused": refused_entries,
        "refused_count": len(refused_entries),
        **extra,
    }


def difficulty(legal: int, accepted: int, decoys: int, harder: int) -> tuple[int, int]:
    """Level 1..5 and the starting rating: the level from the refused actions that look
    as good as the answer on the board as it stands (``decoys``: they fail only under a
    reply), raised by ``harder`` for what hides the answer (a pending flip, a wider row);
    the rating nudged by how rare the answer is among the legal actions."""
    if decoys == 0:
        level = 1
    elif decoys <= 2:
        level = 2
    elif decoys <= 5:
        level = 3
    else:
        level = 4
    level = max(1, min(5, level + harder))
    share = accepted / max(1, legal)
    nudge = (0.35 - share) * 2.0  # a lone answer among many is harder
    return level, rating_for(level, nudge)


# --- generation ---------------------------------------------------------------------------


class ForwardState(Protocol):
    """A card game's state as its puzzles' forward games play it."""

    @property
    def turn(self) -> int: ...

    def outcome(self) -> object: ...

    def apply(self, player: int, action: str) -> object: ...


StateT = TypeVar("StateT", bound=ForwardState)
AnalysisT = TypeVar("AnalysisT", bound="CardAnalysis[Any]")


@dataclass(frozen=True)
class ForwardPlay(Generic[StateT, AnalysisT]):
    """How a card game finds its puzzles in games played forward from a seed: the first
    position may be taken at an action drawn below ``earliest``, a game stops after
    ``max_plies`` actions; ``candidate`` is a cheap look at public facts, ``analyse``
    (``exact`` off: a screening) and ``suitable`` decide, ``make_puzzle`` sets the
    puzzle, and ``forward_action`` plays the game on."""

    earliest: int
    max_plies: int
    candidate: Callable[[StateT, int, str], bool]
    analyse: Callable[[StateT, int, bool], AnalysisT]
    suitable: Callable[[AnalysisT, str], bool]
    make_puzzle: Callable[[int, str, StateT, AnalysisT], Puzzle]
    forward_action: Callable[[StateT, int, random.Random], str]


def played_forward(play: ForwardPlay[StateT, AnalysisT], seed: int, theme: str,
                   state: StateT, rng: random.Random) -> Puzzle | None:
    """The puzzle of the first position of ``state``'s game, played forward with ``rng``,
    that suits ``theme``: screened first, then judged over every hand class; None when
    the game ends or runs out of actions first."""
    earliest = rng.randrange(play.earliest)
    for ply in range(play.max_plies):
        if state.outcome() is not None:
            return None
        seat = state.turn
        if ply >= earliest and play.candidate(state, seat, theme) \
                and play.suitable(play.analyse(state, seat, False), theme):
            analysis = play.analyse(state, seat, True)
            if play.suitable(analysis, theme):
                return play.make_puzzle(seed, theme, state, analysis)
        state.apply(seat, play.forward_action(state, seat, rng))
    return None


def has_clear_answer(analysis: CardAnalysis[Any], least_legal: int) -> bool:
    """Some actions accepted and some refused, among at least ``least_legal``: fewer make a
    guess, not a puzzle."""
    legal = len(analysis.legal)
    return 0 < len(analysis.accepted) < legal and legal >= least_legal


def card_puzzle(game: str, seed: int, theme: str, state: GameState,
                analysis: CardAnalysis[Any], themes: tuple[str, ...],
                looks_right: Sequence[str], extra: JSON) -> Puzzle:
    """The puzzle of ``analysis``: its level from the decoys (``looks_right``), one harder
    when a flip is pending, and the proof with ``extra`` after the theme, the decoys' count
    and the row's length."""
    harder = 1 if analysis.board.pending is not None else 0
    level, rating = difficulty(len(analysis.legal), len(analysis.accepted), len(looks_right),
                               harder)
    facts: JSON = {"theme": theme, "decoys": len(looks_right), "bits": analysis.board.n,
                   **extra}
    assert analysis.hands is not None, "a puzzle's proof counts every hand"
    proof = proof_of(analysis.legal, analysis.judged, analysis.hands, analysis.pool, facts)
    return Puzzle(game=game, seed=seed, theme=theme, themes=themes, level=level,
                  rating=rating, state=state.to_dict(), seat=analysis.seat,
                  accepted=tuple(j.action for j in analysis.accepted), proof=proof)


# --- verdicts -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Refusal:
    """A refused answer, as its verdict tells it: the move and the first accepted answer
    as the game writes them, the opponent's reply that shows the move worse ("" for
    none), the line (the move and that reply), and the proof's entry for the move."""

    canonical: str
    move: str
    answer: str
    reply: str
    line: tuple[str, ...]
    value: list[int]
    entry: JSON


def judge_answer(puzzle: Puzzle, action: str, right: Callable[[str], Message],
                 wrong: Callable[[Refusal], tuple[Message, tuple[str, ...]]]) -> Verdict:
    """Correct iff ``action`` (typed or canonical) is accepted, with ``right``'s reason for
    the move as the game writes it. A text that is not a legal move here is answered with
    the game's own refusal; a refused move with ``wrong``'s reason and line, drawn from
    the proof's entry for it."""
    state = puzzle.position()
    try:
        canonical = state.parse_action(action, puzzle.seat)
    except GameError as error:
        return Verdict(False, Message(error.key, error.default, **error.params), ())
    move = state.action_text(canonical)
    if canonical in puzzle.accepted:
        return Verdict(True, right(move), (canonical,))
    entry = next((e for e in puzzle.proof.get("refused", []) if e["action"] == canonical),
                 None)
    if entry is None:  # a proof from elsewhere that does not list it: still refused
        entry = {"action": canonical, "value": [0, 0, 0], "reply": "", "reply_kind": "",
                 "reply_at": "", "fails_in_hands": 0, "fails_in_deals": 0}
    reply = str(entry.get("reply", ""))
    return Verdict(False, *wrong(Refusal(
        canonical, move, state.action_text(puzzle.accepted[0]), reply,
        (canonical, reply) if reply else (canonical,), entry["value"], entry)))
