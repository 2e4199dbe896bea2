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

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from math import comb

from engines.base import JSON, GameError, GameState, Message
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


def judge_answer(puzzle: Puzzle, action: str,
                 right: Callable[[GameState, str], Message],
                 wrong: Callable[[GameState, str, JSON], tuple[Message, tuple[str, ...]]]
                 ) -> Verdict:
    """Correct iff ``action`` (typed or canonical) is accepted. A text that is not a legal
    move here is answered with the game's own refusal; a refused move with ``wrong``'s
    reason and line (the move and the reply that shows it worse), drawn from the proof's
    entry for it."""
    state = puzzle.position()
    try:
        canonical = state.parse_action(action, puzzle.seat)
    except GameError as error:
        return Verdict(False, Message(error.key, error.default, **error.params), ())
    if canonical in puzzle.accepted:
        return Verdict(True, right(state, canonical), (canonical,))
    entry = next((e for e in puzzle.proof.get("refused", []) if e["action"] == canonical),
                 None)
    if entry is None:  # a proof from elsewhere that does not list it: still refused
        entry = {"action": canonical, "value": [0, 0, 0], "reply": "", "reply_kind": "",
                 "reply_at": "", "fails_in_hands": 0, "fails_in_deals": 0}
    return Verdict(False, *wrong(state, canonical, entry))
