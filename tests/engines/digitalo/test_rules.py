"""Digitalo rules: the deck and the deal, the seat readings and the seed's position numbering,
menus and notation, corrupt states, the agents, and a count of legal actions against the
plain reference generator in ``tests/helpers/digitalo_reference.py``. Placing, inverters and
discarding are in ``test_placement.py``; the equal-moves ending, scoring, rounds and
the match in ``test_rounds.py``.

Positions are written out by hand with ``position(...)`` of
``tests/helpers/digitalo_positions.py`` and loaded through ``DigitaloState.from_dict``.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from engines import digitalo
from engines.base import GameError, IllegalMove, InvalidMove, NotYourTurn, StateError
from engines.digitalo import DigitaloState, new_game, replay
from engines.digitalo import agents as digitalo_agents
from engines.digitalo.cards import (
    GATE_CARDS,
    deck_cards,
    least_gates_each,
    position_at,
    slot_at,
    sort_cards,
)
from tests.helpers import digitalo_reference as reference
from tests.helpers.digitalo_positions import (
    DEFAULTS,
    EXAMPLE_NORTH,
    EXAMPLE_SOUTH,
    INVERTER_CASES,
    NORTH,
    SEED_BITS,
    SOUTH,
    all_cards,
    ending,
    inverter_example,
    position,
)
from tests.helpers.refusals import refusal, snapshot

# --- deck, deal, readings -------------------------------------------------------------------

def test_the_default_deck_has_48_gate_cards_and_6_inverters() -> None:
    cards = Counter(deck_cards(dict(DEFAULTS)))
    assert sum(cards.values()) == 54 and cards["INV"] == 6
    assert all(cards[f"{g}{o}"] == 6 for g in ("AND", "OR", "XOR", "NAND") for o in (0, 1))
    assert "INV" not in deck_cards({**DEFAULTS, "inverters": False})
    bigger = Counter(deck_cards({**DEFAULTS, "gates_each": 9, "inverter_cards": 2}))
    assert bigger["XOR1"] == 9 and bigger["INV"] == 2 and sum(bigger.values()) == 74


def test_the_deck_grows_to_what_the_pyramids_need() -> None:
    # Both pyramids and both hands: 2 × 28 + 8 = 64 gate cards for 8 bits, 8 of each.
    assert [least_gates_each(bits) for bits in range(4, 9)] == [3, 4, 5, 7, 8]
    for bits, given, copies in [(4, 3, 3), (6, 6, 6), (7, 6, 7), (8, 6, 8), (8, 3, 8),
                                (8, 10, 10)]:
        state = new_game({"bits": bits, "gates_each": given}, 2, 1)
        assert all_cards(state)["XOR0"] == copies, (bits, given)
        assert state.view(None)["gate_copies"] == copies
        assert state.options["gates_each"] == given


@pytest.mark.parametrize("bits", [4, 5, 6, 7, 8])
def test_set_up_deals_four_each_and_lays_the_bit_row(bits: int) -> None:
    options = {"bits": bits}
    state = new_game(options, 2, 11)
    assert state.turn == state.starter == state.first and state.round == 1
    assert [len(hand) for hand in state.hands] == [4, 4]
    assert all_cards(state) == Counter(deck_cards(state.options))
    assert len(state.draw) == len(deck_cards(state.options)) - 8 and state.discard == []
    view = state.view(None)
    south, north = view["rows"]
    assert north == [1 - b for b in reversed(south)] and south == view["bit_row"]
    assert view["pyramids"] == [[], []] and view["pending"] is None
    assert view["pyramid_size"] == bits * (bits - 1) // 2
    assert view["open"] == [list(range(1, bits)), list(range(1, bits))]


def test_the_seed_decides_the_row_the_deal_and_the_first_player() -> None:
    assert snapshot(new_game({}, 2, 5)) == snapshot(new_game({}, 2, 5))
    firsts = {new_game({}, 2, seed).first for seed in range(20)}
    rows = {tuple(new_game({}, 2, seed).bits) for seed in range(20)}
    assert firsts == {0, 1} and len(rows) > 5


def test_options_and_players_are_checked() -> None:
    with pytest.raises(InvalidMove):
        new_game({}, 3, 1)
    with pytest.raises(InvalidMove):
        new_game({"bits": 9}, 2, 1)
    with pytest.raises(InvalidMove):
        new_game({"gates_each": 2}, 2, 1)
    assert {o.name for o in digitalo.OPTIONS} == {"bits", "inverters", "free_discard",
                                                  "gates_each", "inverter_cards",
                                                  "max_moves", "max_rounds", "danger"}
    assert digitalo.NAME == "digitalo" and digitalo.TITLE == "Digitalo"
    assert digitalo.INFO.hidden_information is True
    assert digitalo.LEVELS == ("easy", "medium", "strong", "expert")


def test_positions_are_numbered_as_in_the_seed() -> None:
    # 1-3 on the bits, 4 on 1 and 2, 5 on 2 and 3, 6 on top.
    assert [slot_at(4, p) for p in range(1, 7)] == [(1, 1), (1, 2), (1, 3), (2, 1), (2, 2),
                                                    (3, 1)]
    assert [position_at(5, slot_at(5, p)) for p in range(1, 11)] == list(range(1, 11))
    assert slot_at(5, 5) == (2, 1) and slot_at(5, 8) == (3, 1) and slot_at(5, 10) == (4, 1)
    assert position_at(8, (7, 1)) == 28 and position_at(8, (2, 1)) == 8


# --- menus and notation ---------------------------------------------------------------------

def test_the_first_menu_step_groups_the_hand() -> None:
    state = position(SEED_BITS, hands=(["AND1", "AND1", "NAND0", "INV"], ["OR0"] * 4))
    top = state.menu(SOUTH, ())
    assert [(c.token, c.label, c.action) for c in top] == [
        ("A1", "AND→1 ×2", None), ("NA0", "NAND→0", None), ("I", "INV", None)]
    with pytest.raises(NotYourTurn):
        state.menu(NORTH, ())


def test_the_second_step_offers_every_physical_position_wrong_ones_included() -> None:
    state = position(SEED_BITS, hands=(["AND1", "AND1", "NAND0", "INV"], ["OR0"] * 4))
    step = state.menu(SOUTH, ("A1",))
    assert [(c.token, c.label, c.action) for c in step] == [
        ("1", "1 (1 1)", "AND1 1"), ("2", "2 (1 0)", "AND1 2"), ("3", "3 (0 1)", "AND1 3")]
    wrong = refusal(state, SOUTH, step[1].action or "")
    assert str(wrong) == "AND needs 1 and 1 to give 1; these inputs are 1 and 0."
    inverter = state.menu(SOUTH, ("I",))
    assert [(c.token, c.label, c.action) for c in inverter] == [
        ("1", "1: 1→0", "INV 1"), ("2", "2: 1→0", "INV 2"), ("3", "3: 0→1", "INV 3"),
        ("4", "4: 1→0", "INV 4")]
    for path in [("X1",), ("A1", "1"), ("A1", "9"), ("A1", "1", "2", "3")]:
        with pytest.raises(InvalidMove):
            state.menu(SOUTH, path)


def test_the_inverter_menu_offers_the_counter_on_the_pending_bit() -> None:
    state = inverter_example(south_hand=["INV", "AND1", "OR1", "XOR0"], free_discard=False)
    state.apply(NORTH, "INV 3")
    choices = state.menu(SOUTH, ("I",))
    assert (choices[1].label, choices[1].action) == ("2: undo the flip", "counter")
    # Position 2 fell with the flip; the menus already show the resolved pyramid.
    assert [c.token for c in state.menu(SOUTH, ("X0",))] == ["2"]


def test_typed_notation() -> None:
    state = position(SEED_BITS, hands=(["OR1", "AND0", "NAND1", "INV"], ["OR0"] * 4))
    for text, action in [("OR1 1", "OR1 1"), ("or→1 on 2", "OR1 2"), ("or 1 3", "OR1 3"),
                         ("place NAND1 2", "NAND1 2"), ("nand=1 at position 3", "NAND1 3"),
                         ("inv 2", "INV 2"), ("Inverter 4", "INV 4"), ("flip 1", "INV 1"),
                         ("AND0 3", "AND0 3")]:
        assert state.parse_action(text, SOUTH) == action, text
    for text in ["", "and", "xyzzy", "discard", "or1 on 77"]:
        with pytest.raises(GameError):
            state.parse_action(text, SOUTH)
    assert state.action_text("OR1 2") == "OR→1 on position 2"
    assert state.action_text("INV 2") == "inverter on bit card 2"
    assert state.action_text("discard XOR0") == "discard XOR→0"
    assert state.action_text("counter") == "counter the inverter"
    assert state.action_text("accept") == "accept the flip"
    free = position([1, 1, 1, 1], hands=(["AND0", "OR0", "XOR1", "INV"], ["OR0"] * 4))
    assert free.parse_action("d xor1", SOUTH) == "discard XOR1"
    assert free.parse_action("discard inverter", SOUTH) == "discard INV"


def test_every_menu_path_is_short_and_every_action_fits_a_button() -> None:
    for seed in range(12):
        state = new_game({"bits": 4 + seed % 5}, 2, seed)
        rng = random.Random(seed)
        for _ in range(40):
            if state.outcome() is not None:
                break
            seat = state.turn
            offered: set[str] = set()
            for choice in state.menu(seat, ()):
                assert len(choice.token) <= 4
                if choice.action is not None:
                    offered.add(choice.action)
                    continue
                step = state.menu(seat, (choice.token,))
                assert len(step) <= 25
                for sub in step:
                    assert len(sub.token) <= 4 and sub.action is not None
                    assert sub.action.isascii() and len(sub.action) <= 20
                    offered.add(sub.action)
            legal = state.legal_actions(seat)
            assert set(legal) <= offered
            for action in offered - set(legal):  # wrong but physical: refused, with a reason
                with pytest.raises(IllegalMove):
                    state.parse_action(action, seat)
            state.apply(seat, rng.choice(legal))


# --- corrupt states -------------------------------------------------------------------------

def corrupt(change: Any) -> None:
    data = inverter_example().to_dict()
    change(data)
    with pytest.raises(StateError):
        DigitaloState.from_dict(data)


def test_a_sound_state_loads() -> None:
    state = inverter_example()
    assert snapshot(DigitaloState.from_dict(json.loads(snapshot(state)))) == snapshot(state)


@pytest.mark.parametrize("change", [
    lambda d: d.update(game="booleo"),
    lambda d: d.update(schema=2),
    lambda d: d.pop("moves"),
    lambda d: d["options"].pop("bits"),
    lambda d: d["options"].update(bits=9),
    lambda d: d.update(bits=[1, 1, 0]),
    lambda d: d.update(bits=[1, 1, 0, 2]),
    lambda d: d["hands"][0].append("AND0"),
    lambda d: d["hands"][0].reverse(),
    lambda d: d["hands"].__setitem__(0, ["AND0", "AND1", "OR1", "ZAP"]),
    lambda d: d["draw"].append("XOR1"),
    lambda d: d["draw"].pop(),
    lambda d: d["pyramids"][0].update({"7": d["draw"].pop()}),
    lambda d: d["pyramids"][0].update({"6": "AND0"}),           # an extra card
    lambda d: d["pyramids"][1].update({"1": d["draw"].pop(d["draw"].index("AND1"))}),
    lambda d: d["pyramids"][0].update({"1": d["pyramids"][0].pop("2")}),  # 2 -> 1 (taken)
    lambda d: d["pyramids"][0].pop("1") and d["pyramids"][0].pop("2") and d["draw"].extend(
        ["OR1", "XOR1"]),                                       # 4 has lost both inputs
    lambda d: d.update(turn=SOUTH),
    lambda d: d.update(moves=[7, 5]),
    lambda d: d.update(phase="claim"),
    lambda d: d.update(phase="last move"),
    lambda d: d.update(completer=SOUTH),
    lambda d: d.update(pending={"bit": 2, "by": NORTH}),
    lambda d: d.update(pending={"bit": 5, "by": SOUTH}),
    lambda d: d.update(round=2),
    lambda d: d.update(starter=NORTH),
    lambda d: d.update(scores=[-1, 0]),
    lambda d: d.update(actions="INV 3"),
    lambda d: d.update(outcome={"winners": [3], "reason": "x", "detail": {}}),
    lambda d: d.update(round_results=[1]),
])
def test_corrupt_states_are_refused(change: Any) -> None:
    corrupt(change)


def test_a_state_must_be_an_object() -> None:
    with pytest.raises(StateError):
        DigitaloState.from_dict([])  # type: ignore[arg-type]


# --- the reference generator ----------------------------------------------------------------

COUNT_OPTIONS: list[dict[str, Any]] = [
    {}, {"bits": 5}, {"bits": 6, "free_discard": True}, {"bits": 7},
    {"inverters": False}, {"inverter_cards": 16, "gates_each": 3},
    {"bits": 8, "gates_each": 9, "inverter_cards": 12},
]
COUNT_SEEDS = [1, 2024, 77777]


def counting_walk(options: dict[str, Any], seed: int, turns: int = 40
                  ) -> tuple[list[tuple[int, int]], Counter[str]]:
    """A fixed, seeded sequence that mostly builds: the engine's and the reference's number of
    legal actions at each step, and the situations it went through."""
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
        engine = state.legal_actions(seat)
        plain = reference.legal_actions(state, seat)
        assert sorted(engine) == sorted(plain), (options, seed, len(counts))
        assert len(set(engine)) == len(engine)
        assert state.legal_actions(1 - seat) == reference.legal_actions(state, 1 - seat) == []
        counts.append((len(engine), len(plain)))
        seen["discard allowed"] += any(a.startswith("discard") for a in engine)
        builds = [a for a in engine if a.split()[0] in GATE_CARDS]
        flips = [a for a in engine if a.startswith("INV")]
        if state.phase == "last move" and flips:  # try the answer phase too
            state.apply(seat, rng.choice(flips))
        else:
            state.apply(seat, rng.choice(builds) if builds and rng.random() < 0.75
                        else rng.choice(engine))
        seen["rounds"] = state.round
    return counts, seen


@pytest.mark.parametrize("options", COUNT_OPTIONS)
@pytest.mark.parametrize("seed", COUNT_SEEDS)
def test_legal_action_counts_match_the_reference(options: dict[str, Any], seed: int) -> None:
    counts, seen = counting_walk(options, seed)
    assert all(engine == plain for engine, plain in counts)
    assert len(counts) == 40 or seen["over"]


def test_the_counted_sequences_visit_flips_endings_and_new_rounds() -> None:
    total: Counter[str] = Counter()
    for options in COUNT_OPTIONS:
        for seed in COUNT_SEEDS:
            total += counting_walk(options, seed, turns=60)[1]
    for situation in ("play", "pending", "last move", "answer", "discard allowed"):
        assert total[situation] > 0, situation
    assert total["rounds"] > len(COUNT_OPTIONS) * len(COUNT_SEEDS)


def test_the_reference_resolves_the_seeds_example_alike() -> None:
    for north_bit, south_bit, south_removed, north_removed, _, _ in INVERTER_CASES:
        state = inverter_example()
        state.apply(NORTH, f"INV {north_bit}")
        data = state.to_dict()
        plain = reference.resolved(data)
        assert sorted(set(map(int, EXAMPLE_SOUTH)) - set(plain[SOUTH])) == south_removed
        assert sorted(set(map(int, EXAMPLE_NORTH)) - set(plain[NORTH])) == north_removed
        assert south_bit == reference.own_number(4, NORTH, north_bit)


# --- agents ---------------------------------------------------------------------------------

def test_agents_choose_legal_actions_and_refuse_out_of_turn() -> None:
    state = new_game({}, 2, 5)
    for level in digitalo.LEVELS:
        agent = digitalo_agents.make_agent(level, random.Random(1))
        assert agent.choose(state, state.turn) in state.legal_actions(state.turn)
        with pytest.raises(NotYourTurn):
            agent.choose(state, 1 - state.turn)
    with pytest.raises(InvalidMove):
        digitalo_agents.make_agent("godlike", random.Random(1))


def test_strong_completes_its_pyramid() -> None:
    state = ending()
    assert digitalo_agents.make_agent("strong", random.Random(3)).choose(state, SOUTH) == "AND1 6"


def test_strong_counters_a_flip_that_wrecks_its_pyramid() -> None:
    state = inverter_example(south_hand=["INV", "AND1", "OR1", "XOR0"], free_discard=False)
    state.apply(NORTH, "INV 2")  # South would lose 2, 3 and 5
    assert digitalo_agents.make_agent("strong", random.Random(3)).choose(state, SOUTH) == "counter"


def test_strong_flips_a_bit_that_wrecks_the_opponent() -> None:
    # North to move, with South one gate from the top: the seed's case 2 or 3 stops South.
    state = inverter_example(north_hand=["INV", "OR0", "OR0", "AND1"], free_discard=False)
    action = digitalo_agents.make_agent("strong", random.Random(3)).choose(state, NORTH)
    assert action in ("INV 2", "INV 3")


def test_strong_breaks_a_completed_pyramid_with_its_last_move() -> None:
    # All six inverters are seen (five on the discard pile, one in North's hand), so South
    # cannot counter: breaking South's pyramid beats conceding points.
    state = ending(north_hand=["INV", "OR1", "OR1", "XOR0"],
                   discard=["INV"] * 5)
    state.apply(SOUTH, "AND1 6")
    action = digitalo_agents.make_agent("strong", random.Random(3)).choose(state, NORTH)
    assert action in ("INV 2", "INV 3")


def test_strong_answers_a_last_move_flip() -> None:
    agent = digitalo_agents.make_agent("strong", random.Random(3))
    breaking = ending(north_hand=["INV", "OR1", "OR1", "XOR0"],
                      south_hand=["AND1", "INV", "OR0", "XOR1"])
    harmless = DigitaloState.from_dict(breaking.to_dict())
    breaking.apply(SOUTH, "AND1 6")
    breaking.apply(NORTH, "INV 3")
    assert agent.choose(breaking, SOUTH) == "counter"
    harmless.apply(SOUTH, "AND1 6")
    harmless.apply(NORTH, "INV 4")
    assert agent.choose(harmless, SOUTH) == "accept"


def test_strong_never_reads_the_hidden_cards() -> None:
    """Swapping the opponent's hand with draw-pile cards does not change strong's choice."""
    for seed in range(6):
        state = new_game({}, 2, seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(1, 12)):
            if state.outcome() is not None:
                break
            state.apply(state.turn, rng.choice(state.legal_actions(state.turn)))
        if state.outcome() is not None:
            continue
        seat = state.turn
        data = state.to_dict()
        other = data["hands"][1 - seat]
        data["hands"][1 - seat], data["draw"][:4] = sort_cards(data["draw"][:4]), other
        data["draw"].reverse()
        shuffled = DigitaloState.from_dict(data)
        picks = [digitalo_agents.make_agent("strong", random.Random(9)).choose(s, seat)
                 for s in (state, shuffled)]
        assert picks[0] == picks[1]


def test_strong_beats_easy_in_short_seeded_matches() -> None:
    wins = 0
    for game in range(8):
        state = new_game({}, 2, 500 + game)
        strong = game % 2
        agents = {strong: digitalo_agents.make_agent("strong", random.Random(game)),
                  1 - strong: digitalo_agents.make_agent("easy", random.Random(game))}
        while state.outcome() is None:
            seat = state.turn
            state.apply(seat, agents[seat].choose(state, seat))
        outcome = state.outcome()
        assert outcome is not None
        wins += strong in outcome.winners
    assert wins >= 7


def test_a_whole_match_replays_from_its_actions() -> None:
    state = new_game({"bits": 5}, 2, 42)
    agents = [digitalo_agents.make_agent("strong", random.Random(1)),
              digitalo_agents.make_agent("easy", random.Random(2))]
    while state.outcome() is None:
        state.apply(state.turn, agents[state.turn].choose(state, state.turn))
    assert state.round >= 1 and max(state.scores) >= 8
    assert snapshot(replay({"bits": 5}, 42, list(state.actions))) == snapshot(state)
