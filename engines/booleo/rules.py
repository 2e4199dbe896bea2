"""bOOleO's rules of play: the options, the deal, the hands and the draw, what a player may
do now (legal actions, refusals with the rule they break, challenges and claims), applying
an action and the turn flow. The menus (``menu.py``), views (``views.py``) and storage
(``serial.py``) are functions over this class; ``state.py``'s ``BooleoState`` answers the
engine contract with them."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable

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
from engines.booleo.cards import (
    CARD_RANK,
    EXTENDED_GATES,
    HAND_SIZE,
    NOT_CARD,
    SEATS,
    TOP_LESSON,
    complete_and_valid,
    deck_cards,
    gate_fits,
    is_invalid,
    resolve_flip,
    settle,
    slot_name,
    sort_cards,
)
from engines.booleo.notation import Move, parse_move
from engines.cards.pyramid import (
    Pyramid,
    Slot,
    blocked_input,
    card_label,
    fed_slots,
    gate_of,
    gate_refusal,
    inactive_gates,
    input_values,
    output_of,
    position_of,
    pyramid_size,
    pyramid_slots,
    reading,
    slot_exists,
)

NAME = "booleo"
# The computer's levels: here rather than in the package's __init__ so that the players
# (``agents.py``) read them without importing the package that lists them.
LEVELS = ("easy", "medium", "strong", "expert")
OPTIONS = (
    OptionSpec("bits", int, 6, "start cards in the row: 6 is standard, 5 the short game",
               minimum=4, maximum=8),
    OptionSpec("extended", bool, False, "add NAND, NOR and XNOR gate cards"),
    OptionSpec("inactive", bool, False,
               "a gate that loses one input turns inactive instead of being discarded"),
    OptionSpec("referee", bool, True,
               "refuse invalid gates and explain why; off plays the printed rules, with "
               "challenges"),
    OptionSpec("max_turns", int, 200, "the game is drawn after this many turns",
               minimum=10, maximum=2000),
    # A learner's aid the rules ignore: under the board, the gates of the player to move that
    # a NOT on one start card would break (issue 27's danger marks).
    OptionSpec("danger", bool, False,
               "say which of your gates a NOT on a start card would break (on against easy)"),
)

# Options added after games were first stored: a stored game without them loads with their
# defaults (none of them changes the rules).
LATER_OPTIONS = frozenset({"danger"})


class BooleoRules(GameState):
    """A bOOleO game's state and its rules of play."""


    game_name = NAME
    min_players = SEATS
    max_players = SEATS
    schema_version = 1

    def __init__(self, options: JSON, seed: int) -> None:
        self.options = validate_options(OPTIONS, options)
        self.seed = seed
        n = self.n
        rng = random.Random(seed)
        self.bits = [rng.randrange(2) for _ in range(n)]
        cards = deck_cards(self.extended)
        rng.shuffle(cards)
        self.hands: list[list[str]] = [[], []]
        for _ in range(HAND_SIZE):
            for seat in range(SEATS):
                self.hands[seat].append(cards.pop())
        self.hands = [sort_cards(hand) for hand in self.hands]
        self.draw: list[str] = cards  # the top is the end
        self.discard: list[str] = []
        self.nots = [0] * n  # NOT cards lying under each start card, in South's order
        self.pyramids: list[Pyramid] = [{}, {}]
        self.first = rng.randrange(SEATS)
        self.turn = self.first
        self.turns = 0
        self.phase = "play"
        self.challenged = False
        self.claimant: int | None = None
        self.pending: tuple[int, int] | None = None  # (South's card, seat that flipped it)
        self.reshuffles = 0
        self.actions: list[Action] = []
        self.last_events: list[Event] = []
        self._outcome: Outcome | None = None
        self._draw_for(self.turn)

    # -- options and readings --
    @property
    def n(self) -> int:
        return int(self.options["bits"])

    @property
    def extended(self) -> bool:
        return bool(self.options["extended"])

    @property
    def inactive(self) -> bool:
        return bool(self.options["inactive"])

    @property
    def referee(self) -> bool:
        return bool(self.options["referee"])

    def row(self, seat: int) -> list[int]:
        return reading(self.bits, seat)

    def slot_bit(self, seat: int) -> int:
        return self.row(seat)[-1]

    def resolved_pyramids(self) -> tuple[list[Pyramid], list[list[tuple[Slot, str]]]]:
        """Both pyramids as they will be once the pending flip resolves, and what it removes."""
        pyramids = [dict(p) for p in self.pyramids]
        if self.pending is None:
            return pyramids, [[], []]
        return pyramids, resolve_flip(pyramids, self.bits, self.n, self.pending[0],
                                      self.inactive)

    def flip_threats(self, seat: int) -> list[JSON]:
        """For each start card a NOT could flip now, the gates of ``seat``'s pyramid the flip
        would break (the cascade included), as ``{"card", "position", "gates"}``; cards
        that break nothing are left out. Public information only: whether the opponent
        holds a NOT is not known, so these are what could happen, not what will."""
        if self.pending is not None:
            return []  # a flip is already pending: the board shows what it removes
        threats: list[JSON] = []
        for card in range(1, self.n + 1):
            bits = list(self.bits)
            bits[card - 1] ^= 1
            pyramids = [dict(p) for p in self.pyramids]
            removed = resolve_flip(pyramids, bits, self.n, card, self.inactive)[seat]
            if removed:
                threats.append({"card": card, "position": position_of(self.n, seat, card),
                                "gates": [slot_name(slot) for slot, _ in removed]})
        return threats

    # -- turn flow --
    def _draw_for(self, seat: int) -> list[Event]:
        events: list[Event] = []
        if not self.draw and self.discard:
            pile = self.discard
            random.Random(f"booleo-reshuffle:{self.seed}:{self.reshuffles}").shuffle(pile)
            self.reshuffles += 1
            self.draw, self.discard = pile, []
            events.append({"type": "reshuffled", "cards": len(pile)})
        if self.draw:
            card = self.draw.pop()
            self.hands[seat] = sort_cards([*self.hands[seat], card])
            events.append({"type": "drew", "seat": seat, "private": {"seat": seat, "card": card}})
        else:
            events.append({"type": "no_draw", "seat": seat})
        return events

    def _check_turn(self, player: int) -> None:
        if self._outcome is not None:
            raise IllegalMove("error.game_over", "The game is over.")
        if player not in (0, 1):
            raise NotYourTurn("error.not_a_player", "You are not playing in this game.")
        if player != self.turn:
            raise NotYourTurn("error.not_your_turn", "It is not your turn.")

    def _is_cancel(self, player: int, move: Move) -> bool:
        return (move.kind == "not" and self.pending is not None
                and position_of(self.n, player, self.pending[0]) == move.pos)

    def _check(self, player: int, move: Move) -> Move:
        """Refuse, with what was expected, anything ``player`` may not do now; return the
        move completed (a typed ``cancel`` gets its start card)."""
        hand = self.hands[player]
        if move.kind == "accept":
            if self.phase != "claim":
                raise IllegalMove("booleo.error.no_claim",
                                  "There is no completed pyramid to accept.")
            return move
        if self.phase == "claim" and move.kind != "challenge":
            raise IllegalMove("booleo.error.answer_claim",
                              "Your opponent has completed their pyramid: challenge one of "
                              "its gates, or accept.")
        if move.kind == "challenge":
            self._check_challenge(player, move.slot)
            return move
        if move.kind == "pass":
            if hand:
                raise IllegalMove("booleo.error.no_pass",
                                  "You may pass only with an empty hand; discard a card "
                                  "instead.")
            return move
        if self.phase == "discard" and move.kind != "discard":
            raise IllegalMove("booleo.error.must_discard",
                              "Your challenge failed, so you lose this turn's action: "
                              "discard a card.")
        card = NOT_CARD if move.kind == "not" else move.card
        if card not in CARD_RANK or (gate_of(card) in EXTENDED_GATES and not self.extended):
            raise IllegalMove("booleo.error.no_such_card",
                              "There is no {card} card in this game.", card=card_label(card))
        if card not in hand:
            raise IllegalMove("booleo.error.not_in_hand", "You hold no {card} card.",
                              card=card_label(card))
        if move.kind == "not":
            if move.pos == -1:
                if self.pending is None:
                    raise IllegalMove("booleo.error.nothing_to_cancel",
                                      "No flip is pending, so there is nothing to cancel.")
                return Move("not", pos=position_of(self.n, player, self.pending[0]))
            if not 1 <= move.pos <= self.n:
                raise IllegalMove("booleo.error.no_start_card",
                                  "There is no start card {card}; they are numbered 1 to "
                                  "{count} from your left.", card=move.pos, count=self.n)
        elif move.kind == "gate":
            pyramids, _ = self.resolved_pyramids()
            self._check_gate(player, pyramids[player], move)
        return move

    def _check_challenge(self, player: int, slot: Slot) -> None:
        if self.referee:
            raise IllegalMove("booleo.error.referee_on",
                              "Challenges belong to games with referee=off; here the referee "
                              "refuses invalid gates as they are played.")
        if self.phase == "discard":
            raise IllegalMove("booleo.error.must_discard",
                              "Your challenge failed, so you lose this turn's action: "
                              "discard a card.")
        if self.challenged:
            raise IllegalMove("booleo.error.one_challenge",
                              "You have already challenged this turn; now play your action.")
        if not slot_exists(self.n, slot):
            raise IllegalMove("booleo.error.no_slot_to_challenge",
                              "A pyramid has no slot {slot}: rows run from 1 to {rows}, and "
                              "row r has {n} − r slots.", slot=slot_name(slot),
                              rows=self.n - 1, n=self.n)
        opponent = 1 - player
        if slot not in self.pyramids[opponent]:
            raise IllegalMove("booleo.error.nothing_to_challenge",
                              "Your opponent has no gate on {slot} to challenge.",
                              slot=slot_name(slot))
        pyramids, _ = self.resolved_pyramids()
        if slot not in pyramids[opponent]:
            raise IllegalMove("booleo.error.goes_anyway",
                              "The gate on {slot} is discarded anyway when the pending flip "
                              "resolves.", slot=slot_name(slot))

    def _check_gate(self, player: int, pyramid: Pyramid, move: Move) -> None:
        refusal = self._gate_refusal(player, pyramid, move, inactive_gates(pyramid, self.n),
                                     self.row(player))
        if refusal is not None:
            raise refusal

    def _gate_refusal(self, player: int, pyramid: Pyramid, move: Move, inactive: set[Slot],
                      row: list[int]) -> IllegalMove | None:
        """Why ``move`` may not go on ``pyramid`` (whose inactive gates are ``inactive``;
        ``row`` is ``player``'s reading of the bits), or None. Returned, not raised, so that
        the menus can judge every card and slot without raising for each refusal."""
        slot, card, n = move.slot, move.card, self.n
        if not slot_exists(n, slot):
            return IllegalMove("booleo.error.no_such_slot",
                               "Your pyramid has no slot {slot}: rows run from 1 to {rows}, "
                               "and row r has {n} − r slots.", slot=slot_name(slot),
                               rows=n - 1, n=n)
        old = pyramid.get(slot)
        if move.verb == "place" and old is not None:
            return IllegalMove("booleo.error.slot_taken",
                               "Slot {slot} already holds {old}: a gate is placed on an empty "
                               "slot (to swap it, replace it).",
                               slot=slot_name(slot), old=card_label(old))
        if move.verb == "replace" and old is None:
            return IllegalMove("booleo.error.nothing_to_replace",
                               "Slot {slot} is empty, so there is nothing to replace: place "
                               "the gate there instead.", slot=slot_name(slot))
        if old == card:
            return IllegalMove("booleo.error.same_gate",
                               "Slot {slot} already holds {card}; replacing it with the same "
                               "card changes nothing.", slot=slot_name(slot),
                               card=card_label(card))
        blocked = blocked_input(pyramid, slot, inactive)
        if blocked is not None and blocked[0] == "missing":
            return IllegalMove("booleo.error.missing_input",
                               "Slot {slot} needs both inputs first: slot {below} below it is "
                               "still empty.", slot=slot_name(slot), below=slot_name(blocked[1]))
        if blocked is not None:
            return IllegalMove("booleo.error.inactive_input",
                               "Slot {slot} would take an input from the inactive gate on "
                               "{below}; fill the missing slot beneath it first.",
                               slot=slot_name(slot), below=slot_name(blocked[1]))
        if not self.referee:
            return None
        a, b = input_values(pyramid, row, slot)
        assert a is not None and b is not None
        top = slot == (n - 1, 1)
        if gate_fits(card, a, b, top, row[-1]):
            return None
        out = output_of(card)
        if top and out != row[-1]:
            return IllegalMove("booleo.error.top_slot_bit", TOP_LESSON,
                               slot_bit=row[-1], out=out, slot=slot_name(slot))
        return gate_refusal(NAME, card, a, b, slot_name(slot))

    # -- contract --
    def to_move(self) -> list[int]:
        return [] if self._outcome is not None else [self.turn]

    def legal_actions(self, player: int) -> list[Action]:
        if self._outcome is not None or player != self.turn:
            return []
        hand = self.hands[player]
        if self.phase == "claim":
            claimed = self.pyramids[1 - player]
            targets = [f"challenge {slot_name(s)}" for s in pyramid_slots(self.n) if s in claimed]
            return [*targets, "accept"]
        if not hand:
            return ["pass", *self._challenges(player)]
        kinds = list(dict.fromkeys(hand))
        discards = [f"discard {card}" for card in kinds]
        if self.phase == "discard":
            return discards
        pyramid = self.resolved_pyramids()[0][player]
        open_targets = self._open_targets(pyramid)
        fits = self._fitness(player, pyramid)
        actions = [f"{card} {slot_name(slot)}" for card in kinds if card != NOT_CARD
                   for slot, _ in self._targets(pyramid, card, open_targets)
                   if fits(card, slot)]
        if NOT_CARD in hand:
            actions += [f"NOT {pos}" for pos in range(1, self.n + 1)]
        return actions + discards + self._challenges(player)

    def fitting_cards(self, seat: int) -> list[str] | None:
        """The kinds of ``seat``'s cards that fit validly somewhere on their pyramid now
        (a NOT always may be played), for the hand's "no place now" marks; None without
        the referee, where judging a gate is the player's own task (and a challenge's)."""
        if not self.referee:
            return None
        pyramid = self.resolved_pyramids()[0][seat]
        open_targets = self._open_targets(pyramid)
        fits = self._fitness(seat, pyramid)
        return [card for card in dict.fromkeys(self.hands[seat])
                if card == NOT_CARD or any(fits(card, slot) for slot, _
                                           in self._targets(pyramid, card, open_targets))]

    def _challenges(self, player: int) -> list[Action]:
        return [f"challenge {slot_name(slot)}" for slot in self._challenge_targets(player)]

    def _challenge_targets(self, player: int) -> list[Slot]:
        if self.referee or self.challenged or self.phase == "discard":
            return []
        pyramids, _ = self.resolved_pyramids()
        return [slot for slot in pyramid_slots(self.n) if slot in pyramids[1 - player]]

    def _open_targets(self, pyramid: Pyramid) -> list[Slot]:
        """The slots of the (resolved) ``pyramid`` a gate physically fits on, empty or not:
        whichever card is played, only the slot holding that very card drops out."""
        inactive = inactive_gates(pyramid, self.n)
        return [slot for slot in pyramid_slots(self.n)
                if blocked_input(pyramid, slot, inactive) is None]

    def _targets(self, pyramid: Pyramid, card: str,
                 open_targets: list[Slot] | None = None) -> list[tuple[Slot, str | None]]:
        """Slots of the (resolved) ``pyramid`` where ``card`` physically fits, valid or not,
        with the gate it would replace; ``open_targets`` are ``_open_targets(pyramid)``,
        computed once for a whole hand."""
        if open_targets is None:
            open_targets = self._open_targets(pyramid)
        return [(slot, pyramid.get(slot)) for slot in open_targets if pyramid.get(slot) != card]

    def _fitness(self, player: int, pyramid: Pyramid) -> Callable[[str, Slot], bool]:
        """Whether a card validly fits a slot ``_targets`` offers on ``player``'s (resolved)
        ``pyramid``. Those slots pass every check ``_gate_refusal`` makes before the
        referee's, so what is left is the referee's judge, ``gate_fits``, which
        ``_gate_refusal`` asks too; asked here without building a refusal for each card
        and slot that does not fit."""
        if not self.referee:
            return lambda card, slot: True
        row, top = self.row(player), (self.n - 1, 1)

        def fits(card: str, slot: Slot) -> bool:
            a, b = input_values(pyramid, row, slot)
            return (a is not None and b is not None
                    and gate_fits(card, a, b, slot == top, row[-1]))
        return fits

    def parse_action(self, text: str, player: int) -> Action:
        self._check_turn(player)
        return self._check(player, parse_move(text)).canonical()

    def action_text(self, action: Action) -> str:
        try:
            move = parse_move(action)
        except InvalidMove:
            return action
        if move.kind == "gate":
            return Message("booleo.move.gate", "{card} on {slot}", card=card_label(move.card),
                           slot=slot_name(move.slot))
        if move.kind == "not":
            return (Message("booleo.move.not", "NOT on start card {pos}", pos=move.pos)
                    if move.pos > 0 else Message("booleo.move.cancel", "cancel"))
        if move.kind == "discard":
            return Message("booleo.move.discard", "discard {card}", card=card_label(move.card))
        if move.kind == "accept":
            return Message("booleo.move.accept", "accept the claim")
        return move.canonical()

    def apply(self, player: int, action: Action) -> list[Event]:
        self._check_turn(player)
        move = self._check(player, parse_move(action))
        events: list[Event] = []
        if move.kind == "challenge":
            events += self._challenge(player, move.slot)
        elif move.kind == "accept":
            assert self.claimant is not None
            events += self._finish(Outcome((self.claimant,), "booleo_pyramid",
                                           {"loser": player, "accepted": True}))
        else:
            cancel = self._is_cancel(player, move)
            if self.pending is not None and not cancel:
                events += self._resolve()
            events += self._act(player, move, cancel)
            events += self._end_turn(player)
        self.actions.append(move.canonical())
        self.last_events = [{k: v for k, v in e.items() if k != "private"} for e in events]
        return events

    def _discard_cards(self, cards: Iterable[str]) -> None:
        self.discard.extend(cards)

    def _resolve(self) -> list[Event]:
        assert self.pending is not None
        card, by = self.pending
        self.pending = None
        removed = resolve_flip(self.pyramids, self.bits, self.n, card, self.inactive)
        for seat_removed in removed:
            self._discard_cards(c for _, c in seat_removed)
        return [{"type": "flip_resolved", "card": card, "by": by,
                 "removed": [[{"slot": slot_name(s), "card": c} for s, c in seat_removed]
                             for seat_removed in removed]}]

    def _act(self, player: int, move: Move, cancel: bool) -> list[Event]:
        n = self.n
        if move.kind == "pass":
            return [{"type": "passed", "seat": player}]
        if move.kind == "discard":
            self.hands[player].remove(move.card)
            self._discard_cards([move.card])
            return [{"type": "discarded", "seat": player, "card": move.card}]
        if move.kind == "not":
            self.hands[player].remove(NOT_CARD)
            card = position_of(n, player, move.pos)
            self.bits[card - 1] ^= 1
            if cancel:
                self.nots[card - 1] -= 1
                self.pending = None
                self._discard_cards([NOT_CARD, NOT_CARD])
                return [{"type": "flip_cancelled", "seat": player, "card": card,
                         "position": move.pos}]
            self.nots[card - 1] += 1
            self.pending = (card, player)
            _, removes = self.resolved_pyramids()
            return [{"type": "not_played", "seat": player, "card": card, "position": move.pos,
                     "would_remove": [[slot_name(s) for s, _ in r] for r in removes]}]
        pyramid = self.pyramids[player]
        old = pyramid.get(move.slot)
        self.hands[player].remove(move.card)
        pyramid[move.slot] = move.card
        event: Event = {"type": "placed" if old is None else "replaced", "seat": player,
                        "card": move.card, "slot": slot_name(move.slot)}
        removed: list[tuple[Slot, str]] = []
        if old is not None:
            self._discard_cards([old])
            event["old"] = old
        if old is None or output_of(old) != output_of(move.card):
            removed = settle(pyramid, self.row(player), n, fed_slots(n, move.slot),
                             self.inactive)
            self._discard_cards(c for _, c in removed)
        event["removed"] = [{"slot": slot_name(s), "card": c} for s, c in removed]
        return [event]

    def _challenge(self, player: int, slot: Slot) -> list[Event]:
        events: list[Event] = []
        if self.pending is not None:
            events += self._resolve()
        opponent = 1 - player
        pyramid = self.pyramids[opponent]
        card = pyramid[slot]
        invalid = is_invalid(pyramid, self.row(opponent), self.n, slot)
        event: Event = {"type": "challenge", "seat": player, "target": opponent,
                        "slot": slot_name(slot), "card": card,
                        "result": "invalid" if invalid else "valid"}
        events.append(event)
        if invalid:
            del pyramid[slot]
            removed = settle(pyramid, self.row(opponent), self.n, fed_slots(self.n, slot),
                             self.inactive)
            self._discard_cards([card, *(c for _, c in removed)])
            event["removed"] = [{"slot": slot_name(s), "card": c} for s, c in removed]
            answered_claim = self.phase == "claim"
            self.phase, self.claimant, self.challenged = "play", None, True
            if answered_claim and self.turns >= self.options["max_turns"]:
                # The claim that held the game open past its last turn is answered: it ends.
                events += self._finish(Outcome((), "booleo_max_turns", {"turns": self.turns}))
        elif self.phase == "claim":
            assert self.claimant is not None
            events += self._finish(Outcome((self.claimant,), "booleo_pyramid",
                                           {"loser": player, "challenge_failed": slot_name(slot)}))
        else:
            self.phase = "discard"
        return events

    def _finish(self, outcome: Outcome) -> list[Event]:
        self._outcome = outcome
        return [{"type": "game_over", **outcome.to_dict()}]

    def _end_turn(self, player: int) -> list[Event]:
        events: list[Event] = []
        pyramid, row = self.pyramids[player], self.row(player)
        if len(pyramid) == pyramid_size(self.n):
            if not self.referee:
                self.phase, self.claimant = "claim", player
                events.append({"type": "claim", "seat": player})
            elif complete_and_valid(pyramid, row, self.n):
                return self._finish(Outcome((player,), "booleo_pyramid",
                                            {"loser": 1 - player, "slot_bit": row[-1]}))
        if self.phase == "discard":
            self.phase = "play"
        self.turns += 1
        self.turn = 1 - player
        self.challenged = False
        if self.turns >= self.options["max_turns"] and self.phase != "claim":
            return events + self._finish(Outcome((), "booleo_max_turns",
                                                 {"turns": self.turns}))
        events += self._draw_for(self.turn)
        if (not self.draw and not self.discard and not any(self.hands)
                and self.phase != "claim"):
            events += self._finish(Outcome((), "booleo_no_cards", {"turns": self.turns}))
        return events

    def resign(self, player: int) -> list[Event]:
        if self._outcome is not None:
            raise IllegalMove("error.game_over", "The game is over.")
        if player not in (0, 1):
            raise NotYourTurn("error.not_a_player", "You are not playing in this game.")
        return self._finish(Outcome((1 - player,), "resigned", {"loser": player}))

    def abandon(self) -> list[Event]:
        if self._outcome is not None:
            raise IllegalMove("error.game_over", "The game is over.")
        return self._finish(Outcome((), "abandoned"))

    def outcome(self) -> Outcome | None:
        return self._outcome
