"""Digitalo's rules of play: the options, a round's deal, the hands and the draw, what a
player may do now (legal actions, parsing against the position, refusals with the rule
they break), applying an action and the turn flow (the pending flip, the last move and
its answer, the end of a round and of the match). The menus (``menu.py``), views
(``views.py``) and storage (``serial.py``) are functions over this class; ``state.py``'s
``DigitaloState`` answers the engine contract with them."""

import random
from collections.abc import Iterable

from engines.base import (
    JSON,
    Action,
    Event,
    GameState,
    IllegalMove,
    InvalidMove,
    Message,
    NotYourTurn,
    OptionSpec,
    Outcome,
    validate_options,
)
from engines.cards.pyramid import (
    Pyramid,
    Slot,
    blocked_input,
    card_label,
    fed_slots,
    fits_inputs,
    gate_gives,
    gate_refusal,
    inactive_gates,
    input_values,
    open_slots,
    position_of,
    pyramid_size,
    pyramid_slots,
    reading,
    settle,
)
from engines.digitalo.cards import (
    CARD_RANK,
    HAND_SIZE,
    INVERTER,
    SEATS,
    TARGET,
    binary,
    complete,
    deck_cards,
    match_winners,
    position_at,
    resolve_flip,
    slot_at,
    sort_cards,
)
from engines.digitalo.notation import Move, parse_move
from engines.json_copy import copy_json

NAME = "digitalo"
# The computer's levels: here rather than in the package's __init__ so that the players
# (``agents.py``) read them without importing the package that lists them.
LEVELS = ("easy", "medium", "strong", "expert")
OPTIONS = (
    OptionSpec("bits", int, 4, "bit cards in the row (4 is the seed's game)", minimum=4,
               maximum=8),
    OptionSpec("inverters", bool, True,
               "play with inverter cards; inf-schule suggests a first round without"),
    OptionSpec("free_discard", bool, False,
               "allow discarding at any time, not only when no card can be placed"),
    OptionSpec("gates_each", int, 6,
               "cards of each of the 8 gate cards (AND, OR, XOR, NAND with output 0 and 1); "
               "at least what both pyramids need: 7 with 7 bits, 8 with 8",
               minimum=3, maximum=16),
    OptionSpec("inverter_cards", int, 6, "inverter cards in the deck (with inverters on)",
               minimum=1, maximum=16),
    OptionSpec("max_moves", int, 500, "a round is drawn after this many moves (both players')",
               minimum=20, maximum=5000),
    OptionSpec("max_rounds", int, 20,
               "the match ends after this many rounds; the higher score wins",
               minimum=1, maximum=100),
    # A learner's aid the rules ignore: under the board, the gates of the player to move that
    # an inverter on one bit card would discard or make inactive (issue 27's danger marks).
    OptionSpec("danger", bool, False,
               "say which of your gates an inverter on a bit card would break (on against "
               "easy)"),
)

# Options added after games were first stored: a stored game without them loads with their
# defaults (none of them changes the rules).
LATER_OPTIONS = frozenset({"danger"})
# The endings of a match that a round's end brings: the round is among the results then.
# A resignation or an abandonment ends the match in the middle of a round, unscored.
POINTS_ENDING, ROUNDS_ENDING = "digitalo_points", "digitalo_max_rounds"
ROUND_ENDINGS = frozenset({POINTS_ENDING, ROUNDS_ENDING})


class DigitaloRules(GameState):
    """A Digitalo match's state and its rules of play."""


    game_name = NAME
    min_players = SEATS
    max_players = SEATS
    schema_version = 1

    def __init__(self, options: JSON, seed: int) -> None:
        self.options = validate_options(OPTIONS, options)
        self.seed = seed
        self.round = 1
        self.first = 0
        self.starter = 0
        self.scores = [0, 0]
        self.round_results: list[JSON] = []
        self.reshuffles = 0
        self.actions: list[Action] = []
        self.last_events: list[Event] = []
        self._outcome: Outcome | None = None
        self.bits: list[int] = []
        self.hands: list[list[str]] = [[], []]
        self.draw: list[str] = []  # the top is the end
        self.discard: list[str] = []
        self.pyramids: list[Pyramid] = [{}, {}]
        self.turn = 0
        self.moves = [0, 0]
        self.phase = "play"
        self.completer: int | None = None
        self.pending: tuple[int, int] | None = None  # (seat 0's bit, seat that flipped it)
        self._deal()

    def _deal(self) -> list[Event]:
        """Lay a new bit row and deal a new round; round 1 also draws the first player."""
        n = self.n
        rng = random.Random(f"digitalo-round:{self.seed}:{self.round}")
        self.bits = [rng.randrange(2) for _ in range(n)]
        cards = deck_cards(self.options)
        rng.shuffle(cards)
        if self.round == 1:
            self.first = rng.randrange(SEATS)
        self.starter = self.first if self.round % 2 == 1 else 1 - self.first
        hands: list[list[str]] = [[], []]
        for _ in range(HAND_SIZE):
            for seat in (self.starter, 1 - self.starter):
                hands[seat].append(cards.pop())
        self.hands = [sort_cards(hand) for hand in hands]
        self.draw, self.discard = cards, []
        self.pyramids = [{}, {}]
        self.turn = self.starter
        self.moves = [0, 0]
        self.phase, self.completer, self.pending = "play", None, None
        events: list[Event] = [{"type": "new_round", "round": self.round,
                                "starter": self.starter, "bit_row": list(self.bits)}]
        events += [{"type": "dealt", "seat": seat,
                    "private": {"seat": seat, "cards": list(self.hands[seat])}}
                   for seat in range(SEATS)]
        return events

    # -- options and readings --
    @property
    def n(self) -> int:
        return int(self.options["bits"])

    @property
    def size(self) -> int:
        return pyramid_size(self.n)

    def row(self, seat: int) -> list[int]:
        return reading(self.bits, seat)

    def resolved_pyramids(self) -> tuple[list[Pyramid], list[list[tuple[Slot, str]]]]:
        """Both pyramids as they will be once the pending flip resolves, and what it removes."""
        pyramids = [dict(p) for p in self.pyramids]
        if self.pending is None:
            return pyramids, [[], []]
        return pyramids, resolve_flip(pyramids, self.bits, self.n, self.pending[0])

    def flip_threats(self, seat: int) -> list[JSON]:
        """For each bit card an inverter could flip next, what the flip would do to
        ``seat``'s pyramid once it resolves (the cascade included, by ``resolve_flip``):
        ``{"bit", "position", "removed", "inactive"}``, the bit in South's numbering and as
        ``seat`` reads it, and the positions discarded and newly made inactive; bits that
        change nothing are left out. Public information only: whether the opponent holds an
        inverter is not known, so these are what could happen, not what will. Nothing is
        marked while a flip is pending (the board shows what it does), outside the play
        phase (the opponent does not act after a last move), without inverters, or when
        every inverter lies on the discard pile."""
        if (self.pending is not None or self.phase != "play" or self._outcome is not None
                or not self.options["inverters"]
                or self.discard.count(INVERTER) >= int(self.options["inverter_cards"])):
            return []
        n = self.n
        before = inactive_gates(self.pyramids[seat], n)
        threats: list[JSON] = []
        for bit in range(1, n + 1):
            bits = list(self.bits)
            bits[bit - 1] ^= 1
            pyramids = [dict(p) for p in self.pyramids]
            removed = resolve_flip(pyramids, bits, n, bit)[seat]
            newly = inactive_gates(pyramids[seat], n) - before
            if removed or newly:
                threats.append({"bit": bit, "position": position_of(n, seat, bit),
                                "removed": self._positions(slot for slot, _ in removed),
                                "inactive": self._positions(newly)})
        return threats

    def _placeable(self, player: int, pyramid: Pyramid) -> list[tuple[str, Slot]]:
        """Every (card kind, slot) of the hand that fits validly on ``pyramid`` now, by card
        kind in hand order, then slot."""
        row = self.row(player)
        # Which slots are open and what they take is the same for every card of the hand.
        inputs = [(slot, input_values(pyramid, row, slot)) for slot in open_slots(pyramid, self.n)]
        found = []
        kinds = [card for card in dict.fromkeys(self.hands[player]) if card != INVERTER]
        for card in kinds:
            for slot, (a, b) in inputs:
                assert a is not None and b is not None
                if gate_gives(card, a, b):
                    found.append((card, slot))
        return found

    def _placeable_now(self, player: int) -> list[tuple[str, Slot]]:
        """``_placeable`` on ``player``'s pyramid as it will be once a pending flip resolves."""
        return self._placeable(player, self.resolved_pyramids()[0][player])

    def fitting_cards(self, seat: int) -> list[str]:
        """The kinds of ``seat``'s cards that fit validly somewhere on their pyramid now
        (an inverter always may be played), for the hand's "no place now" marks."""
        return self._fitting_of(seat, self._placeable_now(seat))

    def _fitting_of(self, seat: int, placeable: list[tuple[str, Slot]]) -> list[str]:
        """``fitting_cards`` given ``seat``'s ``_placeable_now``."""
        fitting = {card for card, _ in placeable}
        return [card for card in dict.fromkeys(self.hands[seat])
                if card == INVERTER or card in fitting]

    def may_discard(self, player: int) -> bool:
        if self.options["free_discard"]:
            return True  # without working out what fits
        return self._may_discard_given(self._placeable_now(player))

    def _may_discard_given(self, placeable: list[tuple[str, Slot]]) -> bool:
        """``may_discard`` given the player's ``_placeable_now``."""
        return bool(self.options["free_discard"]) or not placeable

    # -- turn flow --
    def _draw_for(self, seat: int) -> list[Event]:
        events: list[Event] = []
        if not self.draw and self.discard:
            pile = self.discard
            random.Random(f"digitalo-reshuffle:{self.seed}:{self.reshuffles}").shuffle(pile)
            self.reshuffles += 1
            self.draw, self.discard = pile, []
            events.append({"type": "reshuffled", "cards": len(pile)})
        card = self.draw.pop()  # the deck is large enough that a card is always there
        self.hands[seat] = sort_cards([*self.hands[seat], card])
        events.append({"type": "drew", "seat": seat, "private": {"seat": seat, "card": card}})
        return events

    def _check_turn(self, player: int) -> None:
        if self._outcome is not None:
            raise IllegalMove("error.game_over", "The game is over.")
        if player not in (0, 1):
            raise NotYourTurn("error.not_a_player", "You are not playing in this game.")
        if player != self.turn:
            raise NotYourTurn("error.not_your_turn", "It is not your turn.")

    def _check(self, player: int, move: Move) -> Move:
        """Refuse, with what was expected, anything ``player`` may not do now; return the
        move completed (an inverter on the pending bit is the counter)."""
        hand = self.hands[player]
        if (move.kind == "inverter" and self.pending is not None
                and position_of(self.n, player, self.pending[0]) == move.pos):
            move = Move("counter")
        if self.phase == "answer" and move.kind not in ("counter", "accept"):
            raise IllegalMove("digitalo.error.answer",
                              "Your opponent's last move flipped a bit card: counter it with "
                              "an inverter, or accept it.")
        if move.kind == "accept":
            if self.phase != "answer":
                raise IllegalMove("digitalo.error.nothing_to_accept",
                                  "There is no last-move flip to accept.")
            return move
        card = INVERTER if move.kind in ("inverter", "counter") else move.card
        if card not in CARD_RANK or (card == INVERTER and not self.options["inverters"]):
            raise IllegalMove("digitalo.error.no_such_card",
                              "There is no {card} card in this game.", card=card_label(card))
        if card not in hand:
            raise IllegalMove("digitalo.error.not_in_hand", "You hold no {card} card.",
                              card=card_label(card))
        if move.kind == "counter":
            if self.pending is None:
                raise IllegalMove("digitalo.error.nothing_to_counter",
                                  "No flip is pending, so there is nothing to counter.")
        elif move.kind == "inverter":
            if not 1 <= move.pos <= self.n:
                raise IllegalMove("digitalo.error.no_bit_card",
                                  "There is no bit card {card}; they are numbered 1 to {count} "
                                  "from your left.", card=move.pos, count=self.n)
        elif move.kind == "gate":
            self._check_gate(player, self.resolved_pyramids()[0][player], move)
        elif move.kind == "discard" and not self.may_discard(player):
            fits, slot = self._placeable_now(player)[0]
            raise IllegalMove("digitalo.error.must_place",
                              "You may discard only when none of your cards can be placed: "
                              "{card} fits on position {position}.", card=card_label(fits),
                              position=position_at(self.n, slot))
        return move

    def _check_gate(self, player: int, pyramid: Pyramid, move: Move) -> None:
        n, card, pos = self.n, move.card, move.pos
        if not 1 <= pos <= self.size:
            raise IllegalMove("digitalo.error.no_such_position",
                              "Your pyramid has no position {position}: they are numbered 1 to "
                              "{size}, from the bits up.", position=pos, size=self.size)
        slot = slot_at(n, pos)
        if slot in pyramid:
            raise IllegalMove("digitalo.error.position_taken",
                              "Position {position} already holds {card}.", position=pos,
                              card=card_label(pyramid[slot]))
        blocked = blocked_input(pyramid, slot, inactive_gates(pyramid, n))
        if blocked is not None and blocked[0] == "missing":
            raise IllegalMove("digitalo.error.missing_input",
                              "Position {position} needs both inputs first: position {below} "
                              "below it is still empty.", position=pos,
                              below=position_at(n, blocked[1]))
        if blocked is not None:
            raise IllegalMove("digitalo.error.inactive_input",
                              "Position {position} would take an input from the inactive gate "
                              "on {below}; restore its missing input first.", position=pos,
                              below=position_at(n, blocked[1]))
        a, b = input_values(pyramid, self.row(player), slot)
        assert a is not None and b is not None
        if not gate_gives(card, a, b):
            raise gate_refusal(NAME, card, a, b, str(pos))

    # -- contract --
    def to_move(self) -> list[int]:
        return [] if self._outcome is not None else [self.turn]

    def legal_actions(self, player: int) -> list[Action]:
        if self._outcome is not None or player != self.turn:
            return []
        hand = self.hands[player]
        if self.phase == "answer":
            return ["counter", "accept"] if INVERTER in hand else ["accept"]
        placeable = self._placeable_now(player)
        actions = [f"{card} {position_at(self.n, slot)}" for card, slot in placeable]
        if INVERTER in hand:
            actions += [self._inverter_action(player, pos) for pos in range(1, self.n + 1)]
        if self._may_discard_given(placeable):
            actions += [f"discard {card}" for card in dict.fromkeys(hand)]
        return actions

    def _inverter_action(self, player: int, pos: int) -> Action:
        if self.pending is not None and position_of(self.n, player, self.pending[0]) == pos:
            return "counter"
        return f"{INVERTER} {pos}"

    def parse_action(self, text: str, player: int) -> Action:
        self._check_turn(player)
        return self._check(player, parse_move(text)).canonical()

    def action_text(self, action: Action) -> str:
        try:
            move = parse_move(action)
        except InvalidMove:
            return action
        if move.kind == "gate":
            return Message("digitalo.move.gate", "{card} on position {pos}",
                           card=card_label(move.card), pos=move.pos)
        if move.kind == "inverter":
            return Message("digitalo.move.inverter", "inverter on bit card {pos}", pos=move.pos)
        if move.kind == "counter":
            return Message("digitalo.move.counter", "counter the inverter")
        if move.kind == "discard":
            return Message("digitalo.move.discard", "discard {card}", card=card_label(move.card))
        if move.kind == "accept":
            return Message("digitalo.move.accept", "accept the flip")
        return move.canonical()

    def apply(self, player: int, action: Action) -> list[Event]:
        self._check_turn(player)
        move = self._check(player, parse_move(action))
        events: list[Event] = []
        if move.kind == "accept":
            events += self._accept(player)
        elif move.kind == "counter":
            events += self._counter(player)
            if self.phase == "answer":
                self.phase = "last move"  # the original player takes the last move again
            events += self._pass_turn(player)
        else:
            if self.pending is not None:
                events += self._resolve()
            events += self._act(player, move)
            if self.phase == "last move":
                events += self._after_last_move(player, move)
            else:
                events += self._after_move(player, move)
        self.actions.append(move.canonical())
        self.last_events = [{k: v for k, v in e.items() if k != "private"} for e in events]
        return events

    def _pass_turn(self, player: int) -> list[Event]:
        events = self._draw_for(player)
        self.turn = 1 - player
        return events

    def _resolve(self) -> list[Event]:
        assert self.pending is not None
        bit, by = self.pending
        before = [inactive_gates(p, self.n) for p in self.pyramids]
        self.pending = None
        removed = resolve_flip(self.pyramids, self.bits, self.n, bit)
        for seat_removed in removed:
            self.discard.extend(c for _, c in seat_removed)
        return [{"type": "flip_resolved", "bit": bit, "by": by,
                 "removed": [self._positions_of(r) for r in removed],
                 "inactive": [self._positions(inactive_gates(p, self.n) - old)
                              for p, old in zip(self.pyramids, before, strict=True)]}]

    def _positions_of(self, removed: list[tuple[Slot, str]]) -> list[JSON]:
        return [{"position": position_at(self.n, s), "card": c} for s, c in removed]

    def _positions(self, slots: Iterable[Slot]) -> list[int]:
        return sorted(position_at(self.n, s) for s in slots)

    def _counter(self, player: int) -> list[Event]:
        assert self.pending is not None
        bit, _ = self.pending
        self.pending = None
        self.bits[bit - 1] ^= 1
        self.hands[player].remove(INVERTER)
        self.discard.append(INVERTER)
        self.moves[player] += 1
        return [{"type": "countered", "seat": player, "bit": bit,
                 "position": position_of(self.n, player, bit)}]

    def _act(self, player: int, move: Move) -> list[Event]:
        self.moves[player] += 1
        if move.kind == "discard":
            self.hands[player].remove(move.card)
            self.discard.append(move.card)
            return [{"type": "discarded", "seat": player, "card": move.card}]
        if move.kind == "inverter":
            self.hands[player].remove(INVERTER)
            self.discard.append(INVERTER)
            bit = position_of(self.n, player, move.pos)
            self.bits[bit - 1] ^= 1
            self.pending = (bit, player)
            pending = self._pending_view()
            assert pending is not None
            return [{"type": "inverted", "seat": player, "bit": bit, "position": move.pos,
                     "would_remove": pending["would_remove"],
                     "would_deactivate": pending["would_deactivate"]}]
        n = self.n
        pyramid = self.pyramids[player]
        slot = slot_at(n, move.pos)
        before = inactive_gates(pyramid, n)
        self.hands[player].remove(move.card)
        pyramid[slot] = move.card
        removed = settle(pyramid, self.row(player), n, fed_slots(n, slot), inactive=True,
                         judge=fits_inputs)
        self.discard.extend(c for _, c in removed)
        return [{"type": "placed", "seat": player, "card": move.card, "position": move.pos,
                 "removed": self._positions_of(removed),
                 "reactivated": self._positions(
                     (before - inactive_gates(pyramid, n)) & set(pyramid))}]

    def _after_move(self, player: int, move: Move) -> list[Event]:
        """After a move in ordinary play: a completed pyramid ends the round or gives the
        other player a last move; otherwise the limits, then the draw."""
        if move.kind == "gate" and complete(self.pyramids[player], self.n):
            if self.moves[1 - player] < self.moves[player]:
                self.phase, self.completer = "last move", player
                return [{"type": "last_move", "seat": 1 - player, "completer": player},
                        *self._pass_turn(player)]
            return self._end_round("complete", player)
        if sum(self.moves) >= self.options["max_moves"]:
            return self._end_round("max_moves", None)
        return self._pass_turn(player)

    def _after_last_move(self, player: int, move: Move) -> list[Event]:
        assert self.completer is not None
        if move.kind == "inverter":
            self.phase = "answer"
            return self._pass_turn(player)
        return self._end_round("complete", self.completer)

    def _accept(self, player: int) -> list[Event]:
        events: list[Event] = [{"type": "accepted", "seat": player}, *self._resolve()]
        if complete(self.pyramids[player], self.n):
            return events + self._end_round("complete", player)
        self.phase, self.completer = "play", None
        return [*events, {"type": "round_goes_on", "seat": player}]

    def _end_round(self, reason: str, completer: int | None) -> list[Event]:
        n = self.n
        winner, points, empty, inactive = None, 0, 0, 0
        if completer is not None:
            other = self.pyramids[1 - completer]
            if complete(other, n):
                reason = "both_complete"
            else:
                empty = self.size - len(other)
                inactive = len(inactive_gates(other, n))
                winner, points = completer, empty + inactive
                self.scores[completer] += points
        result: JSON = {
            "round": self.round, "reason": reason, "winner": winner, "points": points,
            "empty": empty, "inactive": inactive, "moves": list(self.moves),
            "scores": list(self.scores),
            "scores_binary": [binary(s) for s in self.scores], "bit_row": list(self.bits),
            "pyramids": [{str(position_at(n, s)): p[s] for s in pyramid_slots(n) if s in p}
                         for p in self.pyramids],
            "inactive_positions": [self._positions(inactive_gates(p, n))
                                   for p in self.pyramids],
        }
        self.round_results.append(result)
        events: list[Event] = [{"type": "round_over", **copy_json(result)}]
        if max(self.scores) >= TARGET:
            return events + self._finish(Outcome(match_winners(self.scores), POINTS_ENDING,
                                                 self._score_detail()))
        if self.round >= self.options["max_rounds"]:
            return events + self._finish(Outcome(match_winners(self.scores), ROUNDS_ENDING,
                                                 self._score_detail()))
        self.round += 1
        return events + self._deal()

    def _score_detail(self) -> JSON:
        return {"scores": list(self.scores), "scores_binary": [binary(s) for s in self.scores],
                "rounds": self.round}

    def _finish(self, outcome: Outcome) -> list[Event]:
        self._outcome = outcome
        return [{"type": "game_over", **outcome.to_dict()}]

    def resign(self, player: int) -> list[Event]:
        if self._outcome is not None:
            raise IllegalMove("error.game_over", "The game is over.")
        if player not in (0, 1):
            raise NotYourTurn("error.not_a_player", "You are not playing in this game.")
        return self._finish(Outcome((1 - player,), "resigned",
                                    {"loser": player, **self._score_detail()}))

    def abandon(self) -> list[Event]:
        if self._outcome is not None:
            raise IllegalMove("error.game_over", "The game is over.")
        return self._finish(Outcome((), "abandoned"))

    def outcome(self) -> Outcome | None:
        return self._outcome


    def _pending_view(self) -> JSON | None:
        if self.pending is None:
            return None
        bit, by = self.pending
        pyramids, removes = self.resolved_pyramids()
        newly = [(inactive_gates(after, self.n) - inactive_gates(before, self.n))
                 for after, before in zip(pyramids, self.pyramids, strict=True)]
        return {"bit": bit, "positions": [position_of(self.n, s, bit) for s in range(SEATS)],
                "by": by, "would_remove": [self._positions(s for s, _ in r) for r in removes],
                "would_deactivate": [self._positions(s) for s in newly]}
