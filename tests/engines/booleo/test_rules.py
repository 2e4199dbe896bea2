"""bOOleO rules: the deck and set-up, the turn limit, empty piles and reshuffles, menus,
notation, views, serialisation, the agents, and a count of legal actions against the plain
reference generator in ``tests/helpers/booleo_reference.py``. Placing and replacing gates,
the referee's lessons, NOTs, challenges and claims, and the inactive variant are in
``test_placement.py``.

Positions are written out by hand with ``position(...)`` of
``tests/helpers/booleo_positions.py`` and loaded through ``BooleoState.from_dict``.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from typing import Any

import pytest

from engines import booleo
from engines.base import GameError, IllegalMove, InvalidMove, NotYourTurn, StateError
from engines.booleo import BooleoState, new_game, replay
from engines.booleo import agents as booleo_agents
from engines.booleo.cards import CARD_TOKENS, GATE_CARDS, deck_cards, parse_slot_name, slot_name
from engines.cards.pyramid import pyramid_slots
from tests.helpers import booleo_reference as reference
from tests.helpers.booleo_positions import (
    NORTH,
    ROW,
    SOUTH,
    all_cards,
    challenge_position,
    claim_position,
    not_position,
    position,
)
from tests.helpers.refusals import snapshot

# --- deck and set-up ------------------------------------------------------------------------

def test_the_deck_has_62_cards_and_the_extended_deck_adds_48() -> None:
    cards = Counter(deck_cards(False))
    assert sum(cards.values()) + 6 == 62
    assert cards["NOT"] == 8
    for gate in ("AND", "OR", "XOR"):
        assert cards[f"{gate}0"] == cards[f"{gate}1"] == 8
    extended = Counter(deck_cards(True))
    assert sum(extended.values()) == 56 + 48
    assert all(extended[f"{g}{o}"] == 8 for g in ("NAND", "NOR", "XNOR") for o in (0, 1))


@pytest.mark.parametrize("bits", [4, 5, 6, 7, 8])
def test_set_up_deals_four_and_the_first_player_draws(bits: int) -> None:
    state = new_game({"bits": bits}, 2, 11)
    mover = state.turn
    assert mover == state.first
    assert len(state.hands[mover]) == 5 and len(state.hands[1 - mover]) == 4
    assert len(state.draw) == 56 - 9 and state.discard == []
    assert len(state.bits) == bits and set(state.bits) <= {0, 1}
    assert all_cards(state) == Counter(deck_cards(False))
    view = state.view(None)
    south, north = view["rows"]
    assert north == [1 - b for b in reversed(south)]
    assert view["slot_bits"] == [south[-1], 1 - south[0]]
    assert view["pyramids"] == [[], []] and view["pending"] is None


def test_the_seed_decides_the_row_the_deal_and_the_first_player() -> None:
    assert new_game({}, 2, 5).to_dict() == new_game({}, 2, 5).to_dict()
    firsts = {new_game({}, 2, seed).first for seed in range(20)}
    rows = {tuple(new_game({}, 2, seed).bits) for seed in range(20)}
    assert firsts == {0, 1} and len(rows) > 5


def test_only_two_players() -> None:
    with pytest.raises(InvalidMove):
        new_game({}, 3, 1)


# --- turn limit, empty piles, reshuffles ----------------------------------------------------

def test_max_turns_ends_the_game_as_a_draw() -> None:
    state = new_game({"max_turns": 10}, 2, 3)
    for _ in range(10):
        seat = state.turn
        state.apply(seat, f"discard {state.hands[seat][0]}")
    outcome = state.outcome()
    assert outcome is not None and outcome.is_draw and outcome.reason == "booleo_max_turns"
    assert state.turns == 10 and state.to_move() == []


def test_a_claim_answered_after_the_last_turn_ends_the_game_without_another_turn() -> None:
    # Regression: a successful challenge of a claim made on the last turn let the challenger
    # play a 41st turn of a 40-turn game.
    answered_at_the_limit = 0
    for seed in range(400):
        rng = random.Random(seed)
        options = {"bits": 4, "referee": False, "max_turns": 40,
                   "extended": rng.random() < 0.5}
        state = new_game(options, 2, seed)
        while state.outcome() is None:
            state.apply(state.turn, rng.choice(state.legal_actions(state.turn)))
            assert state.turns <= 40, (seed, state.actions[-4:])
        outcome = state.outcome()
        assert outcome is not None
        if outcome.reason == "booleo_max_turns" and state.actions[-1].startswith("challenge"):
            answered_at_the_limit += 1
            assert outcome.is_draw and state.to_move() == []
    assert answered_at_the_limit > 0, "the seeds must reach a claim answered at the limit"


def test_the_discard_pile_is_reshuffled_into_a_new_draw_pile() -> None:
    state = position(ROW, hands=(["NOT", "OR1", "AND0", "XOR0", "OR0"], ["NOT", "OR1", "AND0",
                                                                        "XOR0"]), draw_size=1)
    assert len(state.draw) == 1 and len(state.discard) == 56 - 9 - 1
    state.apply(SOUTH, "discard OR0")  # North draws the last card
    assert state.draw == []
    twin = BooleoState.from_dict(state.to_dict())
    events = state.apply(NORTH, "discard AND0")
    assert events[1] == {"type": "reshuffled", "cards": 56 - 9 - 1 + 2}
    assert len(state.draw) == 56 - 9 - 1 + 2 - 1 and state.discard == []
    assert state.reshuffles == 1
    assert all_cards(state) == Counter(deck_cards(False))
    # The new order follows from the seed and the reshuffle count: the same again, and
    # different under another seed.
    other = BooleoState.from_dict({**twin.to_dict(), "seed": 8})
    twin.apply(NORTH, "discard AND0")
    other.apply(NORTH, "discard AND0")
    assert twin.draw == state.draw and twin.hands == state.hands
    assert Counter(other.draw + other.hands[SOUTH]) == Counter(state.draw + state.hands[SOUTH])
    assert other.draw + other.hands[SOUTH] != state.draw + state.hands[SOUTH]


def test_with_both_piles_empty_nobody_draws_and_an_empty_hand_passes() -> None:
    # Eight start cards with a NOT under each; 47 gates in the pyramids (referee=off, so the
    # gates need not fit), the last gate in North's hand, South's hand empty, both piles empty.
    gates_left = [c for c in deck_cards(False) if c != "NOT"]
    south_slots = pyramid_slots(8)[:27]  # all but the top
    north_slots = pyramid_slots(8)[:20]  # rows 1-3, then 4.1 and 4.2
    south = {slot_name(s): gates_left.pop() for s in south_slots}
    north = {slot_name(s): gates_left.pop() for s in north_slots}
    assert len(gates_left) == 1
    state = position([1, 0, 1, 1, 0, 0, 1, 0], south=south, north=north,
                     hands=([], gates_left), nots=[1] * 8, referee=False)
    assert state.draw == [] and state.discard == []
    assert "pass" in state.legal_actions(SOUTH)
    assert ("P", "pass") in [(c.token, c.action) for c in state.menu(SOUTH, ())]
    with pytest.raises(IllegalMove, match="only with an empty hand"):
        BooleoState.from_dict({**state.to_dict(), "turn": NORTH}).apply(NORTH, "pass")
    events = state.apply(SOUTH, "pass")
    assert events == [{"type": "passed", "seat": SOUTH}, {"type": "no_draw", "seat": NORTH}]
    assert state.hands == [[], gates_left]
    state.apply(NORTH, f"{gates_left[0]} 4.3")
    outcome = state.outcome()
    assert outcome is not None and outcome.is_draw and outcome.reason == "booleo_no_cards"


# --- menus ----------------------------------------------------------------------------------

TOKEN_RE = re.compile(r"[A-Za-z0-9-]{1,4}")


def walk(state: BooleoState, seat: int, path: tuple[str, ...] = ()
         ) -> list[tuple[tuple[str, ...], list[Any]]]:
    choices = state.menu(seat, path)
    found = [(path, choices)]
    for choice in choices:
        if choice.action is None:
            found += walk(state, seat, (*path, choice.token))
    return found


def check_menus(state: BooleoState) -> None:
    seat = state.turn
    legal = set(state.legal_actions(seat))
    leaves: set[str] = set()
    for path, choices in walk(state, seat):
        assert len(path) <= 3 and len(choices) <= 25 and choices
        assert len({c.token for c in choices}) == len(choices)
        for choice in choices:
            assert TOKEN_RE.fullmatch(choice.token), choice.token
            if choice.action is not None:
                assert len((*path, choice.token)) <= 3
                assert choice.action.isascii() and len(choice.action) <= 20
                leaves.add(choice.action)
    assert legal <= leaves
    for action in leaves - legal:
        # Only the referee's refusals are offered without being legal.
        assert state.referee
        trial = BooleoState.from_dict(state.to_dict())
        with pytest.raises(IllegalMove) as refused:
            trial.apply(seat, action)
        assert refused.value.key.startswith(("booleo.error.gate_invalid",
                                             "booleo.error.top_slot_bit"))


@pytest.mark.parametrize("options", [
    {}, {"referee": False}, {"bits": 8, "inactive": True}, {"bits": 4, "extended": True},
    {"bits": 7, "referee": False, "inactive": True, "extended": True},
])
def test_menus_reach_every_legal_action_within_the_button_limits(options: dict[str, Any]
                                                                  ) -> None:
    for seed in range(3):
        state = new_game(options, 2, seed)
        rng = random.Random(seed)
        for _ in range(60):
            if state.outcome() is not None:
                break
            check_menus(state)
            legal = state.legal_actions(state.turn)
            builds = [a for a in legal if a.split()[0] in GATE_CARDS]
            state.apply(state.turn, rng.choice(builds if builds and rng.random() < 0.8
                                               else legal))


def full_rows(start: list[int], rows: int) -> dict[str, str]:
    """A valid pyramid of the first ``rows`` rows: on each slot, of the cards that fit, the
    one used least so far (so that no kind runs out)."""
    n = len(start)
    values = {(0, i): bit for i, bit in enumerate(start, 1)}
    pyramid: dict[str, str] = {}
    for r in range(1, rows + 1):
        for i in range(1, n - r + 1):
            a, b = values[(r - 1, i)], values[(r - 1, i + 1)]
            fitting = [card for card in ("OR1", "AND0", "XOR1", "OR0", "AND1", "XOR0")
                       if reference.TRUTH[card[:-1]][(a, b)] == int(card[-1])]
            card = min(fitting, key=list(pyramid.values()).count)
            pyramid[f"{r}.{i}"] = card
            values[(r, i)] = int(card[-1])
    return pyramid


def test_a_long_menu_step_is_split_into_rows() -> None:
    start = [1, 0, 1, 1, 0, 0, 1, 0]
    south = full_rows(start, 6)  # 27 gates: everything but the top
    used = Counter(south.values())
    rare = min(("AND1", "OR0", "XOR0", "XOR1"), key=lambda c: used[c])
    assert 27 - used[rare] + 1 > 24  # more targets than one menu step holds
    hand = [rare, "NOT", "NOT", "NOT", "NOT"]
    state = position(start, south=south, hands=(hand, []))
    token = CARD_TOKENS[rare]
    rows = state.menu(SOUTH, (token,))
    assert rows[-1].token == "D" and all(c.token.startswith("R") for c in rows[:-1])
    assert len(rows) <= 25
    second = state.menu(SOUTH, (token, "R2"))
    assert second and all(c.action and c.action.split()[1].startswith("2.") for c in second)
    check_menus(state)
    with pytest.raises(InvalidMove):
        state.menu(SOUTH, (token, "R9"))
    with pytest.raises(InvalidMove):
        state.menu(SOUTH, (token, "R2", "21", "x"))


def test_menu_labels_group_identical_cards_and_number_start_cards_for_the_player() -> None:
    state = position(ROW, hands=(["OR1", "OR1", "NOT", "AND0", "XOR0"], ["OR0"]))
    top = {c.token: c.label for c in state.menu(SOUTH, ())}
    assert top == {"A0": "AND→0", "O1": "OR→1 ×2", "X0": "XOR→0", "N": "NOT"}
    nots = state.menu(SOUTH, ("N",))
    assert [c.action for c in nots] == [*(f"NOT {i}" for i in range(1, 7)), "discard NOT"]
    assert nots[0].label == "1: 1→0"
    slots = state.menu(SOUTH, ("O1",))
    assert [c.action for c in slots][:2] == ["OR1 1.1", "OR1 1.2"]
    assert slots[0].label == "1.1 (1 0)" and slots[-1].label == "Discard"
    with pytest.raises(InvalidMove):
        state.menu(SOUTH, ("Q",))
    with pytest.raises(InvalidMove):
        state.menu(SOUTH, ("O1", "99"))
    with pytest.raises(NotYourTurn):
        state.menu(NORTH, ())


# --- notation -------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "action"), [
    ("AND1 1.1", "AND1 1.1"), ("and→1 on 1.1", "AND1 1.1"), ("And 1 1,1", "AND1 1.1"),
    ("place and1 1.1", "AND1 1.1"), ("AND->1 @ 1-1", "AND1 1.1"), ("and(1) 11", "AND1 1.1"),
    ("not 4", "NOT 4"), ("NOT on start card 2", "NOT 2"), ("discard XOR0", "discard XOR0"),
    ("d xor→0", "discard XOR0"), ("drop not", "discard NOT"), ("  OR1   1.2 ", "OR1 1.2"),
])
def test_typed_notation_becomes_canonical(text: str, action: str) -> None:
    state = position([1, 1, 0, 1, 0, 0], hands=(["AND1", "OR1", "NOT", "XOR0", "OR0"], []))
    assert state.parse_action(text, SOUTH) == action
    assert state.parse_action(state.action_text(action), SOUTH) == action


@pytest.mark.parametrize("text", ["", "hello", "AND2 1.1", "AND1", "not", "discard",
                                  "challenge", "1.1 AND1 please", "NOT card four"])
def test_garbage_is_refused_with_what_was_expected(text: str) -> None:
    state = position(ROW, hands=(["AND1", "OR1", "NOT", "XOR0", "OR0"], []))
    before = snapshot(state)
    with pytest.raises(InvalidMove) as refused:
        state.parse_action(text, SOUTH)
    assert "AND1 2.3" in str(refused.value) and "NOT 4" in str(refused.value)
    with pytest.raises(InvalidMove):
        state.apply(SOUTH, text)
    assert snapshot(state) == before


def test_other_refusals_say_what_was_expected() -> None:
    state = position(ROW, hands=(["AND1", "OR1", "NOT", "XOR0", "OR0"], []))
    cases = {"NOT 7": "numbered 1 to 6", "pass": "only with an empty hand",
             "accept": "no completed pyramid", "cancel": "nothing to cancel",
             "discard AND0": "You hold no AND→0 card"}
    for text, expected in cases.items():
        with pytest.raises(IllegalMove, match=expected):
            state.apply(SOUTH, text)
    state.resign(SOUTH)
    with pytest.raises(IllegalMove, match="game is over"):
        state.apply(SOUTH, "discard OR0")


# --- views ----------------------------------------------------------------------------------

def test_views_show_hands_only_to_their_owner() -> None:
    state = not_position(["OR1", "AND0", "XOR0", "AND1"])
    public = state.view(None)
    assert "hand" not in public and public["hand_sizes"] == [5, 4]
    assert public["draw_pile"] == len(state.draw)
    assert state.view(SOUTH)["hand"] == state.hands[SOUTH]
    assert state.view(NORTH)["hand"] == state.hands[NORTH]
    gate = public["pyramids"][NORTH][0]
    assert gate == {"slot": "1.3", "card": "OR1", "gate": "OR", "out": 1, "inputs": [0, 1]}
    state.apply(SOUTH, "NOT 1")
    after = state.view(None)
    drew = [e for e in after["last_events"] if e["type"] == "drew"]
    assert drew == [{"type": "drew", "seat": NORTH}] and "private" not in json.dumps(after)
    with pytest.raises(NotYourTurn):
        state.view(2)


def test_drawn_cards_travel_only_in_the_private_part_of_an_event() -> None:
    state = position(ROW, hands=(["AND1", "OR1", "NOT", "XOR0", "OR0"], ["OR0"]),
                     draw_top=("XOR1",))
    events = state.apply(SOUTH, "discard AND1")
    drew = [e for e in events if e["type"] == "drew"]
    assert drew == [{"type": "drew", "seat": NORTH, "private": {"seat": NORTH, "card": "XOR1"}}]
    assert {"type": "drew", "seat": NORTH} in state.view(None)["last_events"]


# --- serialisation --------------------------------------------------------------------------

def test_state_round_trips_and_replays() -> None:
    state = new_game({"referee": False, "bits": 5}, 2, 21)
    rng = random.Random(4)
    for _ in range(40):
        if state.outcome():
            break
        state.apply(state.turn, rng.choice(state.legal_actions(state.turn)))
    data = json.loads(json.dumps(state.to_dict()))
    assert BooleoState.from_dict(data).to_dict() == state.to_dict()
    assert replay(state.options, 21, state.actions).to_dict() == state.to_dict()


@pytest.mark.parametrize("corrupt", [
    lambda d: d.update(schema=99),
    lambda d: d.update(game="lgame"),
    lambda d: d["hands"][0].append("AND1"),
    lambda d: d["hands"][0].append("FOO1"),
    lambda d: d.update(start=[0, 1]),
    lambda d: d.update(start=[0, 1, 2, 0, 1, 0]),
    lambda d: d["pyramids"][0].update({"9.9": "AND1"}),
    lambda d: d["pyramids"][0].update({"2.1": d["draw"].pop()}),
    lambda d: d.update(phase="dance"),
    lambda d: d.update(turn=2),
    lambda d: d.update(turn=True),
    lambda d: d.update(pending={"card": 1, "by": 0}),
    lambda d: d.update(claimant=1),
    lambda d: d.update(outcome={"winners": [5], "reason": "x", "detail": {}}),
    lambda d: d.update(actions="abc"),
    lambda d: d["options"].update(bits=9),
    lambda d: d.pop("draw"),
    lambda d: d.update(hands=[[], [], []]),
])
def test_corrupt_states_are_refused(corrupt: Any) -> None:
    data = json.loads(json.dumps(new_game({}, 2, 9).to_dict()))
    corrupt(data)
    with pytest.raises(StateError):
        BooleoState.from_dict(data)


def test_an_invalid_gate_with_the_referee_on_is_a_corrupt_state() -> None:
    with pytest.raises(StateError, match="invalid"):
        position(ROW, south={"1.1": "AND1"})
    assert position(ROW, south={"1.1": "AND1"}, referee=False).pyramids[SOUTH]


# --- counting against the reference ---------------------------------------------------------

COUNT_OPTIONS: list[dict[str, Any]] = [
    {}, {"bits": 4}, {"bits": 5, "extended": True}, {"bits": 8},
    {"referee": False}, {"referee": False, "bits": 4}, {"inactive": True, "bits": 7},
    {"inactive": True, "referee": False, "extended": True},
    {"inactive": True, "referee": False, "bits": 4},
]
COUNT_SEEDS = [1, 2024, 77777]


def counting_walk(options: dict[str, Any], seed: int, turns: int = 24
                  ) -> tuple[list[tuple[int, int]], Counter[str]]:
    """A fixed, seeded sequence that mostly builds on empty slots: the engine's and the
    reference's number of legal actions at each step, and the situations it went through."""
    state = new_game(options, 2, seed)
    rng = random.Random(seed)
    counts: list[tuple[int, int]] = []
    seen: Counter[str] = Counter()
    for _ in range(turns):
        if state.outcome() is not None:
            seen["over"] += 1
            break
        seat = state.turn
        seen[state.phase] += 1
        seen["pending"] += state.pending is not None
        seen["challenged"] += state.challenged
        engine = state.legal_actions(seat)
        plain = reference.legal_actions(state, seat)
        assert sorted(engine) == sorted(plain), (options, seed, len(counts))
        assert len(set(engine)) == len(engine)
        assert state.legal_actions(1 - seat) == reference.legal_actions(state, 1 - seat) == []
        counts.append((len(engine), len(plain)))
        empty = [a for a in engine if a.split()[0] in GATE_CARDS
                 and parse_slot_name(a.split()[1]) not in state.pyramids[seat]]
        state.apply(seat, rng.choice(empty) if empty and rng.random() < 0.7
                    else rng.choice(engine))
    return counts, seen


@pytest.mark.parametrize("options", COUNT_OPTIONS)
@pytest.mark.parametrize("seed", COUNT_SEEDS)
def test_legal_action_counts_match_the_reference(options: dict[str, Any], seed: int) -> None:
    counts, seen = counting_walk(options, seed)
    assert all(engine == plain for engine, plain in counts)
    assert len(counts) == 24 or seen["over"]


def test_the_counted_sequences_visit_flips_challenges_and_claims() -> None:
    total: Counter[str] = Counter()
    for options in COUNT_OPTIONS:
        for seed in COUNT_SEEDS:
            total += counting_walk(options, seed)[1]
    for situation in ("play", "pending", "discard", "claim", "challenged", "over"):
        assert total[situation] > 0, situation


# --- agents ---------------------------------------------------------------------------------

def test_agents_choose_legal_actions_and_refuse_out_of_turn() -> None:
    state = new_game({"referee": False}, 2, 5)
    for level in booleo.LEVELS:
        agent = booleo_agents.make_agent(level, random.Random(1))
        assert agent.choose(state, state.turn) in state.legal_actions(state.turn)
        with pytest.raises(NotYourTurn):
            agent.choose(state, 1 - state.turn)
    with pytest.raises(InvalidMove):
        booleo_agents.make_agent("godlike", random.Random(1))


def test_strong_takes_a_win() -> None:
    south = {"1.1": "AND1", "1.2": "OR1", "1.3": "AND0", "2.1": "AND1", "2.2": "OR1"}
    state = position([1, 1, 0, 0], south=south, hands=(["AND1", "XOR0", "OR1", "NOT",
                                                        "OR0"], []))
    assert booleo_agents.make_agent("strong", random.Random(3)).choose(state, SOUTH) == "XOR0 3.1"


def test_strong_cancels_a_harmful_flip() -> None:
    state = not_position(["NOT", "AND0", "XOR0", "AND1"])
    state.apply(SOUTH, "NOT 1")
    assert booleo_agents.make_agent("strong", random.Random(3)).choose(state, NORTH) == "NOT 6"


def test_strong_wrecks_a_pyramid_with_a_not_when_it_pays() -> None:
    state = not_position(["OR1", "AND0", "XOR0", "AND1"])
    action = booleo_agents.make_agent("strong", random.Random(3)).choose(state, SOUTH)
    assert action.startswith("NOT ")
    state.apply(SOUTH, action)
    assert len(state.view(None)["pending"]["would_remove"][NORTH]) >= 3


def test_strong_flips_its_own_slot_bit_out_of_a_dead_end() -> None:
    # South reads 0 0 0 1: the top must give 1, but it will see 0 and 0, from which no AND,
    # OR or XOR gives 1. Flipping card 4 makes the slot bit 0 and keeps every gate.
    south = {"1.1": "AND0", "1.2": "OR0", "1.3": "AND0", "2.1": "XOR0", "2.2": "OR0"}
    state = position([0, 0, 0, 1], south=south, hands=(["NOT", "OR1", "XOR1", "AND1", "OR0"],
                                                       []))
    assert booleo_agents.make_agent("strong", random.Random(3)).choose(state, SOUTH) == "NOT 4"


def test_strong_challenges_an_invalid_gate_and_never_a_valid_one() -> None:
    state = challenge_position()
    agent = booleo_agents.make_agent("strong", random.Random(3))
    assert agent.choose(state, SOUTH) == "challenge 1.1"
    state.apply(SOUTH, "challenge 1.1")
    assert not agent.choose(state, SOUTH).startswith("challenge")


def test_strong_accepts_a_valid_claim_and_challenges_an_invalid_one() -> None:
    agent = booleo_agents.make_agent("strong", random.Random(3))
    valid = claim_position("XOR0")
    valid.apply(SOUTH, "XOR0 3.1")
    assert agent.choose(valid, NORTH) == "accept"
    invalid = claim_position("AND1")
    invalid.apply(SOUTH, "AND1 3.1")
    assert agent.choose(invalid, NORTH) == "challenge 3.1"


def test_strong_beats_easy_in_a_short_seeded_match() -> None:
    wins = 0
    for game in range(8):
        state = new_game({"bits": 5}, 2, 500 + game)
        strong = game % 2
        agents = {strong: booleo_agents.make_agent("strong", random.Random(game)),
                  1 - strong: booleo_agents.make_agent("easy", random.Random(game))}
        while state.outcome() is None:
            seat = state.turn
            state.apply(seat, agents[seat].choose(state, seat))
        outcome = state.outcome()
        assert outcome is not None
        wins += strong in outcome.winners
    assert wins >= 7


def test_a_game_error_is_a_game_error() -> None:
    assert issubclass(IllegalMove, GameError)
    assert booleo.INFO.hidden_information is True and booleo.NAME == "booleo"
    assert {o.name for o in booleo.OPTIONS} == {"bits", "extended", "inactive", "referee",
                                                "max_turns", "danger"}
