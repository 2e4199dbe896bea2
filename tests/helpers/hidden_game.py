"""Secret Cards: a tiny test-only game with hidden hands.

It exists so that adapter and service tests have a game whose private information is
easy to recognise, and can check that it only ever reaches the player who owns it.
The L-game has no hidden information, so it cannot exercise those paths.

Rules: the cards 1..12 are shuffled with ``random.Random(seed)`` and dealt alternately,
three to each of two players; the other six are never used. Seat 0 starts; on your turn
you play one card from your hand face up onto your own pile. When both hands are empty
the higher pile total wins, and equal totals draw. The canonical action is ``play <n>``.

Only ``view(seat)`` carries a hand, and only that seat's. The seed is never put into a
view either, because the deal can be recomputed from it.
"""

from __future__ import annotations

import copy
import random
import re
from typing import Any, Self

from engines.base import (
    JSON,
    Action,
    Agent,
    Choice,
    Event,
    GameInfo,
    GameState,
    IllegalMove,
    InvalidMove,
    NotYourTurn,
    OptionSpec,
    Outcome,
    StateError,
    validate_options,
)
from engines.state_checks import load_checked

NAME = "secrets"
ALIASES = ("secret",)
TITLE = "Secret Cards"
LEVELS = ("easy",)
OPTIONS: tuple[OptionSpec, ...] = ()
INFO = GameInfo(NAME, TITLE, aliases=ALIASES, levels=LEVELS, hidden_information=True)

DECK_SIZE = 12
HAND_SIZE = 3
SEATS = 2

_ACTION_RE = re.compile(r"(?:play\s*)?(\d{1,3})")
EXPECTED = "a card from your hand, like 'play 7' or just '7'"


def deal(seed: int) -> list[list[int]]:
    """Each seat's starting hand, sorted; the rest of the deck stays out of the game."""
    deck = list(range(1, DECK_SIZE + 1))
    random.Random(seed).shuffle(deck)
    return [sorted(deck[seat:SEATS * HAND_SIZE:SEATS]) for seat in range(SEATS)]


def action_for(card: int) -> Action:
    return f"play {card}"


class SecretCardsState(GameState):
    game_name = NAME
    min_players = SEATS
    max_players = SEATS
    schema_version = 1

    def __init__(self, options: JSON, seed: int) -> None:
        self.options = validate_options(OPTIONS, options)
        self.seed = seed
        self.hands = deal(seed)
        self.piles: list[list[int]] = [[] for _ in range(SEATS)]
        self.turn = 0
        self.actions: list[Action] = []
        self.last_move: JSON | None = None
        self._outcome: Outcome | None = None

    # -- helpers --
    def _check_seat(self, player: int) -> None:
        if player not in range(SEATS):
            raise NotYourTurn("error.not_a_player", "You are not playing in this game.")

    def _check_turn(self, player: int) -> None:
        if self._outcome is not None:
            raise IllegalMove("error.game_over", "The game is over.")
        self._check_seat(player)
        if player != self.turn:
            raise NotYourTurn("error.not_your_turn", "It is not your turn.")

    def _decode(self, player: int, text: str) -> int:
        cleaned = text.strip().lower()
        match = _ACTION_RE.fullmatch(cleaned)
        if match is None:
            raise InvalidMove("secrets.bad_card", "Expected {expected}, not '{got}'.",
                              expected=EXPECTED, got=text.strip()[:20])
        card = int(match.group(1))
        if not 1 <= card <= DECK_SIZE:
            raise InvalidMove("secrets.no_such_card",
                              "There is no card {card}: cards run from 1 to {top}.",
                              card=card, top=DECK_SIZE)
        # The refusal names only the card the player typed, never what they do hold,
        # so that even a misrouted error message reveals nothing.
        if card not in self.hands[player]:
            raise IllegalMove("secrets.not_in_hand", "Card {card} is not in your hand.",
                              card=card)
        return card

    @staticmethod
    def _last_move_for(player: int, card: int) -> JSON:
        action = action_for(card)
        return {"player": player, "action": action, "text": f"card {card}", "card": card}

    def totals(self) -> list[int]:
        return [sum(pile) for pile in self.piles]

    # -- contract --
    def to_move(self) -> list[int]:
        return [] if self._outcome is not None else [self.turn]

    def legal_actions(self, player: int) -> list[Action]:
        if self._outcome is not None or player != self.turn:
            return []
        return [action_for(card) for card in self.hands[player]]

    def parse_action(self, text: str, player: int) -> Action:
        self._check_turn(player)
        return action_for(self._decode(player, text))

    def action_text(self, action: Action) -> str:
        match = _ACTION_RE.fullmatch(action.strip().lower())
        return f"card {int(match.group(1))}" if match else action

    def apply(self, player: int, action: Action) -> list[Event]:
        self._check_turn(player)
        card = self._decode(player, action)
        self.hands[player].remove(card)
        self.piles[player].append(card)
        self.actions.append(action_for(card))
        self.last_move = self._last_move_for(player, card)
        self.turn = 1 - player
        events: list[Event] = [{"type": "moved", "player": player,
                                "text": self.action_text(action_for(card))}]
        if not any(self.hands):
            totals = self.totals()
            if totals[0] == totals[1]:
                self._outcome = Outcome((), "equal_piles", {"totals": totals})
            else:
                winner = 0 if totals[0] > totals[1] else 1
                self._outcome = Outcome((winner,), "higher_pile",
                                        {"loser": 1 - winner, "totals": totals})
            events.append({"type": "game_over", **self._outcome.to_dict()})
        return events

    def resign(self, player: int) -> list[Event]:
        if self._outcome is not None:
            raise IllegalMove("error.game_over", "The game is over.")
        self._check_seat(player)
        self._outcome = Outcome((1 - player,), "resigned", {"loser": player})
        return [{"type": "game_over", **self._outcome.to_dict()}]

    def abandon(self) -> list[Event]:
        if self._outcome is not None:
            raise IllegalMove("error.game_over", "The game is over.")
        self._outcome = Outcome((), "abandoned")
        return [{"type": "game_over", **self._outcome.to_dict()}]

    def outcome(self) -> Outcome | None:
        return self._outcome

    def menu(self, player: int, path: tuple[str, ...]) -> list[Choice]:
        self._check_turn(player)
        if path:
            raise InvalidMove("error.not_in_menu", "That option is not on the menu.")
        return [Choice(str(card), f"Card {card}", action_for(card))
                for card in self.hands[player]]

    def view(self, player: int | None) -> JSON:
        if player is not None:
            self._check_seat(player)
        view: JSON = {
            "game": NAME,
            "viewer": player,
            "piles": [list(pile) for pile in self.piles],
            "totals": self.totals(),
            "hand_sizes": [len(hand) for hand in self.hands],
            "to_move": self.turn if self._outcome is None else None,
            "plies": len(self.actions),
            "last_move": copy.deepcopy(self.last_move),
            "outcome": self._outcome.to_dict() if self._outcome else None,
        }
        if player is not None:
            view["seat"] = player
            view["hand"] = sorted(self.hands[player])
        return copy.deepcopy(view)

    # -- serialisation --
    def to_dict(self) -> JSON:
        return copy.deepcopy({
            "game": NAME,
            "schema": self.schema_version,
            "options": dict(self.options),
            "seed": self.seed,
            "hands": [list(hand) for hand in self.hands],
            "piles": [list(pile) for pile in self.piles],
            "turn": self.turn,
            "actions": list(self.actions),
            "last_move": self.last_move,
            "outcome": self._outcome.to_dict() if self._outcome else None,
        })

    @classmethod
    def from_dict(cls, data: JSON) -> Self:
        return load_checked("Secret Cards", data, cls._load)

    @classmethod
    def _load(cls, data: JSON) -> Self:
        if data.get("game") != NAME or data.get("schema") != cls.schema_version:
            raise StateError(f"not a Secret Cards state of schema {cls.schema_version}")
        if not isinstance(data["options"], dict):
            raise StateError("options must be an object")
        state = cls(dict(data["options"]), _strict_int(data["seed"], "seed"))
        hands = _card_lists(data["hands"], "hands")
        piles = _card_lists(data["piles"], "piles")
        dealt = deal(state.seed)
        for seat in range(SEATS):
            if hands[seat] != sorted(hands[seat]):
                raise StateError("hands are kept sorted")
            # Cards can only move from a hand to the same seat's pile, so together they
            # must be exactly what the seed dealt to that seat.
            if sorted(hands[seat] + piles[seat]) != dealt[seat]:
                raise StateError(f"seat {seat}'s cards do not match the deal")
        actions = data["actions"]
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise StateError("actions must be a list of strings")
        # Seats alternate from seat 0, so seat 0's pile is level with seat 1's or one
        # ahead, and the log interleaves the two piles.
        plies = len(piles[0]) + len(piles[1])
        if len(piles[0]) - len(piles[1]) not in (0, 1) or len(actions) != plies:
            raise StateError("the piles and the action log do not follow the turn order")
        if actions != [action_for(piles[i % SEATS][i // SEATS]) for i in range(plies)]:
            raise StateError("the action log does not match the piles")
        turn = _strict_int(data["turn"], "turn")
        if turn != plies % SEATS:
            raise StateError("turn does not follow from the number of cards played")
        last_seat = (plies - 1) % SEATS
        last = cls._last_move_for(last_seat, piles[last_seat][-1]) if plies else None
        if data["last_move"] != last:
            raise StateError("last_move does not match the action log")
        outcome = _load_outcome(data["outcome"])
        if outcome is None and not any(hands):
            raise StateError("both hands are empty but the game has no outcome")
        state.hands, state.piles, state.turn = hands, piles, turn
        state.actions = list(actions)
        state.last_move = copy.deepcopy(last)
        state._outcome = outcome
        return state


def _strict_int(value: Any, what: str) -> int:
    # bool is an int subclass, and JSON true must not pass for 1.
    if isinstance(value, bool) or not isinstance(value, int):
        raise StateError(f"{what} must be a whole number, not {value!r}")
    return value


def _card_lists(value: Any, what: str) -> list[list[int]]:
    if not isinstance(value, list) or len(value) != SEATS:
        raise StateError(f"{what} must be a list of {SEATS} lists")
    result = []
    for cards in value:
        if not isinstance(cards, list) or len(cards) > HAND_SIZE:
            raise StateError(f"each of {what} holds at most {HAND_SIZE} cards")
        checked = [_strict_int(card, "a card") for card in cards]
        if not all(1 <= card <= DECK_SIZE for card in checked):
            raise StateError(f"cards run from 1 to {DECK_SIZE}")
        result.append(checked)
    return result


def _load_outcome(value: Any) -> Outcome | None:
    if value is None:
        return None
    if not isinstance(value, dict) or not isinstance(value.get("reason"), str):
        raise StateError("outcome must be null or an object with a reason")
    if not isinstance(value.get("winners"), list) or not isinstance(value.get("detail"), dict):
        raise StateError("outcome needs a winners list and a detail object")
    outcome = Outcome.from_dict(value)
    if not set(outcome.winners) <= set(range(SEATS)):
        raise StateError("winners must be seats")
    # Round-tripping must be exact, so anything Outcome would normalise is refused.
    if outcome.to_dict() != value:
        raise StateError("outcome is not in canonical form")
    return outcome


State = SecretCardsState


def new_game(options: JSON, players: int, seed: int) -> SecretCardsState:
    if players != SEATS:
        raise InvalidMove("error.two_players", "{game} is for exactly 2 players.", game=TITLE)
    return SecretCardsState(options, seed)


class SecretCardsAgent(Agent):
    """``easy``: any card from its own hand, chosen with the agent's rng."""

    def choose(self, state: GameState, player: int) -> Action:
        assert isinstance(state, SecretCardsState)
        if state.outcome() is not None or player != state.turn:
            raise NotYourTurn("error.not_your_turn", "It is not your turn.")
        return action_for(self.rng.choice(state.hands[player]))


def make_agent(level: str, rng: random.Random) -> SecretCardsAgent:
    if level not in LEVELS:
        raise InvalidMove("error.unknown_level", "Unknown level '{level}'. Levels: {levels}.",
                          level=level, levels=", ".join(LEVELS))
    return SecretCardsAgent(level, rng)
