"""An independent check of the card games' puzzles (bOOleO, Digitalo): every answer
replayed through the game engine itself under every deal of the hidden cards.

It shares no code with the generators' analysis (``engines/cards/puzzles.py`` and the
games' puzzle modules): the hidden cards are taken from the real state (the opponent's
hand, the draw pile, the discards under the top), dealt again in every way that matters,
and each of the solver's legal actions is played with ``apply``, followed by each of the
opponent's legal replies (``legal_actions``), scored from the resulting state.

What "every way that matters" means: a reply needs the card it plays (a gate card, a NOT
or an inverter, a discarded card) and nothing else from the opponent's hand, and its
outcome does not depend on the rest of their hand. So the deals are enumerated as the
distinct sets of card kinds the opponent's acting hand can hold (with, where the solver's
next card matters, whether that card is an inverter), each built as a concrete full deal;
each reply is scored once in a deal that holds its card, and a deal's value is the lowest
score among the replies whose card it holds. Scores (banked, safe, standing) as in the
puzzles' proofs: compared as tuples, larger is better for the solver.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

from engines.base import GameState
from engines.booleo import BooleoState
from engines.cards.pyramid import inactive_gates
from engines.digitalo import DigitaloState
from engines.puzzles import Puzzle

Score = tuple[int, int, int]


@dataclass(frozen=True)
class Deal:
    """One concrete deal: the state's dict with the hidden cards placed, and the kinds
    the opponent acts with (and the solver's next card's label, or "")."""

    data: dict[str, Any]
    kinds: frozenset[str]
    drawn: str


def hand_multisets(cards: Counter[str], size: int) -> Iterator[Counter[str]]:
    """Every multiset of ``size`` cards from ``cards`` (a plain recursion, on purpose not
    the generator's)."""
    kinds = sorted(cards)

    def pick(index: int, left: int, chosen: Counter[str]) -> Iterator[Counter[str]]:
        if left == 0:
            yield Counter(chosen)
            return
        if index == len(kinds):
            return
        kind = kinds[index]
        for take in range(min(left, cards[kind]) + 1):
            chosen[kind] = take
            yield from pick(index + 1, left - take, chosen)
        del chosen[kind]

    yield from pick(0, size, Counter())


def _without(cards: Counter[str], taken: Counter[str]) -> list[str]:
    rest = cards - taken
    return sorted(rest.elements())


def booleo_deals(puzzle: Puzzle) -> list[Deal]:
    """bOOleO: the opponent acts with their 4 cards and the draw pile's top card; the
    discards under the top are unseen too, so all of these are one hidden multiset."""
    data = puzzle.state
    opp = 1 - puzzle.seat
    under = data["discard"][:-1]
    top = data["discard"][-1:]
    hidden = Counter(data["hands"][opp]) + Counter(data["draw"]) + Counter(under)
    size = len(data["hands"][opp]) + 1
    deals: dict[frozenset[str], Deal] = {}
    for acting in hand_multisets(hidden, size):
        kinds = frozenset(+acting)
        if kinds in deals:
            continue
        cards = sorted(acting.elements())
        rest = _without(hidden, acting)
        new = dict(data)
        new["hands"] = [list(h) for h in data["hands"]]
        new["hands"][opp] = sorted(cards[1:], key=_booleo_rank)
        draw_rest = rest[:len(data["draw"]) - 1]
        new["discard"] = rest[len(data["draw"]) - 1:] + top
        new["draw"] = [*draw_rest, cards[0]]
        deals[kinds] = Deal(new, kinds, "")
    return list(deals.values())


def _booleo_rank(card: str) -> int:
    from engines.booleo.cards import CARD_RANK
    return CARD_RANK[card]


def _digitalo_rank(card: str) -> int:
    from engines.digitalo.cards import CARD_RANK
    return CARD_RANK[card]


def digitalo_deals(puzzle: Puzzle, with_next_card: bool) -> list[Deal]:
    """Digitalo: the opponent acts with the 4 cards they hold; the gate cards under the
    discard pile's top are unseen (its inverters are counted in the view, so they stay),
    and unseen inverters can lie only in the opponent's hand or the draw pile. With
    ``with_next_card`` the draw pile's top (the solver's next card) is dealt too."""
    data = puzzle.state
    opp = 1 - puzzle.seat
    under, top = data["discard"][:-1], data["discard"][-1:]
    under_gates = [c for c in under if c != "INV"]
    under_inverters = [c for c in under if c == "INV"]
    hidden = Counter(data["hands"][opp]) + Counter(data["draw"]) + Counter(under_gates)
    size = len(data["hands"][opp])
    deals: dict[tuple[frozenset[str], str], Deal] = {}
    for hand in hand_multisets(hidden, size):
        kinds = frozenset(+hand)
        nexts = sorted(set((hidden - hand).elements())) if with_next_card else [""]
        for drawn in nexts:
            label = "" if not drawn else ("INV" if drawn == "INV" else "gate")
            if (kinds, label) in deals:
                continue
            rest = Counter(_without(hidden, hand))
            if drawn:
                rest[drawn] -= 1
            inverters = rest["INV"]
            gates = sorted((rest - Counter({"INV": inverters})).elements())
            draw_room = len(data["draw"]) - (1 if drawn else 0)
            if inverters > draw_room:
                continue  # the unseen inverters do not fit where they could lie
            draw_gates = draw_room - inverters
            if len(gates) - draw_gates != len(under_gates):
                continue
            new = dict(data)
            new["hands"] = [list(h) for h in data["hands"]]
            new["hands"][opp] = sorted(hand.elements(), key=_digitalo_rank)
            draw = ["INV"] * inverters + gates[:draw_gates]
            new["draw"] = [*draw, drawn] if drawn else draw
            new["discard"] = gates[draw_gates:] + under_inverters + top
            deals[(kinds, label)] = Deal(new, kinds, label)
    return list(deals.values())


def card_of(action: str) -> str | None:
    """The card a reply plays (None: it needs none)."""
    words = action.split()
    if action == "counter":
        return "INV"
    if words[0] == "discard":
        return words[1]
    if words[0] in ("NOT", "INV"):
        return words[0]
    if len(words) == 2 and words[0][-1] in "01":
        return words[0]
    return None


State = TypeVar("State", bound=GameState)


def _copy(state: State) -> State:
    return type(state).from_dict(state.to_dict())


def booleo_scores(state: BooleoState, seat: int, action: str) -> Score | dict[str, Score]:
    """The solver's ``action``, then each of the opponent's legal replies, scored: a won
    game is one score; otherwise a score per reply."""
    full = state.n * (state.n - 1) // 2
    after = _copy(state)
    after.apply(seat, action)
    outcome = after.outcome()
    if outcome is not None:
        return (1, 1, full) if outcome.winners == (seat,) else (0, 0, 0)
    opp = 1 - seat
    scores: dict[str, Score] = {}
    for reply in after.legal_actions(opp):
        trial = _copy(after)
        trial.apply(opp, reply)
        outcome = trial.outcome()
        won = outcome is not None and outcome.winners == (opp,)
        standing = len(trial.resolved_pyramids()[0][seat])
        scores[reply] = (0, 0 if won else 1, standing)
    return scores


def _active(state: DigitaloState, seat: int) -> int:
    pyramid = state.resolved_pyramids()[0][seat]
    return len(pyramid) - len(inactive_gates(pyramid, state.n))


def digitalo_scores(state: DigitaloState, seat: int,
                    action: str) -> Score | dict[str, Score]:
    """As ``booleo_scores``; a completion's round end is scored by its points, and the
    opponent's last move is followed by the solver's answer to an inverter: accepting it,
    or, when the solver can counter, nothing (the counter-exchange is beyond the puzzle:
    that reply is left out)."""
    full = state.size
    opp = 1 - seat
    after = _copy(state)
    assert isinstance(after, DigitaloState)
    events = after.apply(seat, action)
    ended = [e for e in events if e["type"] == "round_over"]
    if ended:
        return (ended[0]["points"] if ended[0]["winner"] == seat else 0, 1, full)
    last_move = after.phase == "last move"
    scores: dict[str, Score] = {}
    for reply in after.legal_actions(opp):
        trial = _copy(after)
        assert isinstance(trial, DigitaloState)
        events = trial.apply(opp, reply)
        if trial.phase == "answer":
            if "counter" in trial.legal_actions(seat):
                continue
            events = trial.apply(seat, "accept")
        ended = [e for e in events if e["type"] == "round_over"]
        if last_move:
            if ended and ended[0]["winner"] == seat:
                scores[reply] = (ended[0]["points"], 1, full)
            elif ended:  # both pyramids complete: a drawn round
                scores[reply] = (0, 0, full)
            else:  # the completed pyramid broke: the round goes on
                scores[reply] = (0, 1, _active(trial, seat))
            continue
        completed = (bool(ended) and ended[0]["winner"] == opp) or (
            trial.phase == "last move" and trial.completer == opp)
        scores[reply] = (0, 0 if completed else 1, _active(trial, seat))
    return scores


@dataclass(frozen=True)
class Checked:
    """Each legal action's score under each deal (the lowest over the replies the deal's
    hand allows), by action."""

    deals: list[Deal]
    values: dict[str, list[Score]]

    def worth(self, action: str) -> Score:
        return min(self.values[action])


def check_all(puzzle: Puzzle) -> Checked:
    """Every legal action of the puzzle's seat scored under every deal."""
    state = puzzle.position()
    seat = puzzle.seat
    legal = state.legal_actions(seat)
    if isinstance(state, BooleoState):
        deals = booleo_deals(puzzle)
        scorer: Any = booleo_scores
    else:
        assert isinstance(state, DigitaloState)
        trial_states = {a: _copy(state) for a in legal}
        last = False
        for a, trial in trial_states.items():
            trial.apply(seat, a)
            last = last or (isinstance(trial, DigitaloState) and trial.phase == "last move")
        deals = digitalo_deals(puzzle, with_next_card=last)
        scorer = digitalo_scores
    values: dict[str, list[Score]] = {}
    for action in legal:
        # Each reply is scored in the first deal whose hand holds its card; a deal is
        # replayed when its hand holds a kind no scored reply has played yet, or allows
        # none of them (a Digitalo hand that fits nowhere may only discard or invert).
        reply_scores: dict[tuple[str, str], Score] = {}
        per_deal: list[Score] = []
        fixed: Score | None = None
        for deal in deals:
            if fixed is not None:
                per_deal.append(fixed)
                continue
            allowed = _allowed(reply_scores, deal)
            if not allowed or _uncovered(reply_scores, deal):
                scores = scorer(type(state).from_dict(deal.data), seat, action)
                if isinstance(scores, tuple):
                    fixed = scores
                    per_deal.append(fixed)
                    continue
                for reply, score in scores.items():
                    reply_scores[(reply, deal.drawn)] = score
                allowed = _allowed(reply_scores, deal) or list(scores.values())
            per_deal.append(min(allowed))
        values[action] = per_deal
    return Checked(deals, values)


def _allowed(reply_scores: dict[tuple[str, str], Score], deal: Deal) -> list[Score]:
    return [score for (reply, drawn), score in reply_scores.items()
            if drawn == deal.drawn and (card_of(reply) is None or card_of(reply) in deal.kinds)]


def _uncovered(reply_scores: dict[tuple[str, str], Score], deal: Deal) -> bool:
    """Whether some kind of the deal's hand has played no scored reply yet."""
    cards = {card_of(reply) for reply, drawn in reply_scores if drawn == deal.drawn}
    return any(kind not in cards for kind in deal.kinds)


def verify(puzzle: Puzzle) -> list[str]:
    """What is wrong with the puzzle's answers, checked by replay (empty: nothing): every
    accepted action must reach the proof's best score under every deal, the best must be
    met, and every refused legal action must fall short under at least one deal."""
    checked = check_all(puzzle)
    best = tuple(puzzle.proof["best"])
    problems = []
    for action in puzzle.accepted:
        if action not in checked.values:
            problems.append(f"{action} is not legal")
        elif checked.worth(action) != best:
            problems.append(f"{action} is worth {checked.worth(action)}, not {best}")
    for action, per_deal in checked.values.items():
        if action not in puzzle.accepted and min(per_deal) >= best:
            problems.append(f"{action} is refused but holds {min(per_deal)} everywhere")
    return problems
