"""bOOleO on Discord, end to end: a whole game against the computer in a DM and a game
between two members of a server, played only with the buttons of private (ephemeral) hands;
strangers' clicks; a crowded pyramid whose hand needs a select menu.

Every message Discord stores and every edit of one is recorded as it happens, so the
tests see each public text that ever reached a channel, not only the final ones: no hand
may ever be in one. The last test renders many 8-bit extended positions with the Discord
layout, every menu step included, against Discord's limits.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

from simcord import UserHandle
from simcord.actors import _component_interaction  # forging needs the raw dispatcher

from bot.adapters.common import thinking_line
from bot.adapters.discord.components import BUTTON_TEMPLATE, SELECT_TEMPLATE, build_view
from bot.adapters.discord.hands import hand_layout
from bot.adapters.discord.layout import CardSection, Layout, board_layout, board_text
from bot.adapters.discord.markdown import fit_content
from bot.adapters.discord.menus import select_payload
from bot.service import Button, Place, Service, User, human_player
from engines import booleo
from engines.base import parse_option_text
from engines.booleo.cards import CARD_BY_TOKEN, NOT_CARD, slot_name
from engines.cards.pyramid import LESSONS, pyramid_slots
from renderers import booleo as render
from renderers.i18n import translate
from tests.helpers.discord_cards import (
    Shown,
    board_message,
    check_rows,
    check_shown,
    game_record,
    hand_button,
    hand_options,
    menu_items,
    record_messages,
)
from tests.helpers.discord_text import interactive_of, visible_text
from tests.helpers.discord_world import World, components_of, discord_world
from tests.helpers.hands import shows_hand
from tests.helpers.menus import END_PANEL_LABELS, record_for, walk_menus


# ------------------------------------------------------------------- game access
async def game_state(world: World, channel: Any) -> booleo.BooleoState:
    return booleo.BooleoState.from_dict((await game_record(world, channel)).state)



def worth(state: booleo.BooleoState, seat: int, path: tuple[str, ...]) -> int:
    """How a player who wants to finish would rate an option: a gate that fits best, then
    a NOT, then a discard; a slot the rules refuse not at all."""
    legal = state.legal_actions(seat)
    choice = next(c for c in state.menu(seat, path[:-1]) if c.token == path[-1])
    if choice.action is None:
        card = CARD_BY_TOKEN.get(path[0])
        if card is None:
            return 1
        fitting = [a for a in legal if a.split()[0] == card]
        return 1 if not fitting else 2 if card == NOT_CARD else 3  # 1: discard it
    if choice.action not in legal:
        return 0
    return 1 if choice.action.startswith("discard") else 2 if choice.action.startswith(
        "NOT") else 3


async def choose(actor: Any, message: Any, rng: random.Random, state: booleo.BooleoState,
                 seat: int) -> Any:
    """Click one option of the hand, by button or select, as a player would: mostly one
    that builds the pyramid, now and then any option at all, a wrong slot included."""
    options = hand_options(message)
    assert options, f"no move options in the hand: {visible_text(message)}"
    weights = [worth(state, seat, path) ** 2 for _, _, path in options]
    if rng.random() < 0.12 or not any(weights):
        item, value, _ = rng.choice(options)
    else:
        item, value, _ = rng.choices(options, weights)[0]
    if value is None:
        return await actor.click(message, custom_id=item["custom_id"])
    return await actor.select(message, [value], custom_id=item["custom_id"])


async def open_hand(world: World, actor: Any, channel: Any) -> tuple[Any, booleo.BooleoState,
                                                                      int, Any]:
    """Press the public board's hand button: the hand opens privately, showing the
    player's own cards and, on their turn, the move menu."""
    record = await game_record(world, channel)
    state = booleo.BooleoState.from_dict(record.state)
    seat = next(i for i, p in enumerate(record.players) if p.get("id") == str(actor.id))
    board = await board_message(world, channel)
    assert menu_items(board) == [], "the public board never offers the cards"
    opened = await actor.click(board, custom_id=hand_button(board))
    assert opened.ephemeral and opened.response is not None
    hand = opened.response
    assert hand.ephemeral
    assert f"Your hand ({render.seat_label('en', seat)}, " in visible_text(hand)
    assert shows_hand(state.view(seat)["hand"], visible_text(hand)), \
        "the hand shows the player's own cards"
    return record, state, seat, hand


async def play_turn(world: World, actor: Any, channel: Any, rng: random.Random) -> str:
    """Open the hand from the public board and click through it to a complete move;
    returns the hand the move left, as text."""
    start, state, seat, hand = await open_hand(world, actor, channel)
    assert state.to_move() == [seat]
    own = render.hand_text(state.view(seat)["hand"])
    for _ in range(30):
        result = await choose(actor, hand, rng, state, seat)
        assert result.acknowledged
        assert result.response is None or result.response.ephemeral, "a hand click stays private"
        latest = await world.store.get_game(start.id)
        assert latest is not None
        if latest.version > start.version:
            # The private message now shows what the move left in the hand, and no menu
            # (the computer may have moved since, so the move is replayed here).
            played = booleo.BooleoState.from_dict(latest.state).actions[len(state.actions)]
            state.apply(seat, played)
            left = render.hand_text(state.view(seat)["hand"])
            now = booleo.BooleoState.from_dict(latest.state)
            if seat in now.to_move() and now.outcome() is None:
                # The computer answered at once: the open hand already follows the new
                # turn, with its menu, so the next tap is a move.
                assert shown_hand(visible_text(hand)) == (render.hand_text(now.view(seat)["hand"])
                                                    or "no cards")
                assert menu_items(hand)
            else:
                assert shown_hand(visible_text(hand)) == (left or "no cards")
                assert menu_items(hand) == []
            return left
        # A step or a refused slot: the same private message now shows the next choice,
        # or the rule the pick broke beside the hand again.
        assert hand.ephemeral and shown_hand(visible_text(hand)) == own and menu_items(hand)
        if visible_text(hand).startswith("**"):
            assert any(word in visible_text(hand) for word in ("needs", "gives", "must")), \
                visible_text(hand)
    raise AssertionError("the hand's menu never completed a move")


def wrong_slot(state: booleo.BooleoState, seat: int) -> tuple[str, ...] | None:
    """A menu path to a slot where the card does not fit, if the hand has one."""
    legal = state.legal_actions(seat)
    for card in state.menu(seat, ()):
        if card.action is None and card.token in CARD_BY_TOKEN:
            for slot in state.menu(seat, (card.token,)):
                if slot.action is not None and slot.action not in legal:
                    return card.token, slot.token
    return None


async def pick_wrong_slot(world: World, actor: Any, channel: Any, shown: list[Shown]) -> None:
    """A wrong slot is refused with the rule it breaks, privately, in the hand itself."""
    record, state, seat, hand = await open_hand(world, actor, channel)
    path = wrong_slot(state, seat)
    assert path is not None, "the first hand of this seed has a card that does not fit"
    mark = len(shown)
    for depth in (1, 2):
        item = next(item for item, value, option in hand_options(hand)
                    if option == path[:depth] and value is None)
        result = await actor.click(hand, custom_id=item["custom_id"])
        assert result.acknowledged and result.response is not None and result.response.ephemeral
    assert visible_text(hand).startswith("**"), visible_text(hand)
    lesson = visible_text(hand).split("**")[1]
    assert any(word in lesson for word in ("needs", "gives", "must")), lesson
    assert shows_hand(state.view(seat)["hand"], visible_text(hand)) and menu_items(hand)
    after = await game_record(world, channel)
    assert after.version == record.version and after.state == record.state
    assert all(m.ephemeral and m.viewer == str(actor.id) for m in shown[mark:]), \
        "a refusal is for the player alone"


def shown_hand(content: str) -> str | None:
    """The cards a hand message lists, one a line under ``Your hand (…):``, written as
    ``render.hand_text`` writes a hand (``AND→1 ×2, NOT``); "no cards" for an empty one."""
    if not re.search(r"Your hand \([^)]*\):", content):
        return None
    cards = [line.strip()[2:].split(":")[0] for line in content.split("\n")
             if line.strip().startswith("• ")]
    return ", ".join(cards) if cards else ("no cards" if "no cards" in content else None)


def public_texts(shown: list[Shown], channel_id: int) -> list[str]:
    return [visible_text(m) for m in shown if m.channel_id == channel_id and not m.ephemeral]


def distinctive(hand: list[str]) -> str | None:
    """The hand's text when no public line could hold it by chance: at least two kinds
    of cards (a single ``NOT`` is also what a move announcement names)."""
    text = render.hand_text(hand)
    return text if ", " in text else None


def crowded(options: str, rows: int, seed: int = 1) -> booleo.BooleoState:
    """A position no random game reaches: both pyramids filled up to ``rows`` with cards
    from the draw pile (referee=off allows any gate), so that a card fits in more than 20
    slots and its menu step needs select menus, or is split into rows."""
    state = booleo.new_game(parse_option_text(booleo.OPTIONS, options), 2, seed)
    data = state.to_dict()
    gates = [card for card in data["draw"] if card != NOT_CARD]
    for pyramid in data["pyramids"]:
        for slot in pyramid_slots(state.n):
            if slot[0] <= rows:
                card = gates.pop()
                data["draw"].remove(card)
                pyramid[slot_name(slot)] = card
    return booleo.BooleoState.from_dict(data)


# ---------------------------------------------------------------------- tests
async def test_a_game_against_the_strong_ai_in_a_dm_with_hand_buttons_only(
        tmp_path: Path) -> None:
    rng = random.Random(4)
    async with discord_world(tmp_path) as world:
        shown = record_messages(world)
        alice = world.alice.user
        dm = alice.dm_channel
        # /play game:booleo opponent:@logic-bot level:strong options:bits=4
        assert world.bot.user is not None
        computer = UserHandle(world.env, world.env.backend.get_user(world.bot.user.id))
        started = await alice.slash("play", game="booleo", opponent=computer, level="strong",
                                    options="bits=4")
        assert started.acknowledged and not started.ephemeral
        await world.bot.wait_for_background()
        record = await game_record(world, dm)
        assert record.state["options"]["bits"] == 4
        assert [p["kind"] for p in record.players] == ["human", "ai"]
        board_id = (await board_message(world, dm)).id
        hands_seen: set[str] = set()
        for _ in range(80):
            if await world.store.running_game("discord", str(dm.id)) is None:
                break
            state = await game_state(world, dm)
            if text := distinctive(state.view(0)["hand"]):
                hands_seen.add(text)
            await play_turn(world, alice, dm, rng)
            await world.bot.wait_for_background()
        else:
            raise AssertionError("the game did not end")
        final = await board_message(world, dm)
        assert final.id == board_id, "the board is edited in place, never reposted"
        assert "Game over" in visible_text(final)
        assert [c["label"] for c in components_of(final)] == END_PANEL_LABELS
        state = await game_state(world, dm)
        assert state.outcome() is not None
        moves = await world.store.moves(record.id)
        assert {m.seat for m in moves if m.kind == "action"} == {0, 1}, "both sides moved"
        public = public_texts(shown, dm.id)
        assert public and all("Your hand" not in text for text in public)
        assert not any(hand in text for hand in hands_seen for text in public)
        assert any(m.ephemeral and "Your hand" in visible_text(m) for m in shown)
        check_shown(shown)


async def test_two_members_play_with_private_hands_and_no_hand_goes_public(
        tmp_path: Path) -> None:
    rng = random.Random(12)
    async with discord_world(tmp_path) as world:
        shown = record_messages(world)
        started = await world.alice.slash(world.channel, "play", game="booleo",
                                          opponent=world.bob, options="bits=4")
        assert started.acknowledged and not started.ephemeral
        players = {str(world.alice.id): world.alice, str(world.bob.id): world.bob}
        record = await game_record(world, world.channel)
        actors = [players[p["id"]] for p in record.players]
        hands_seen: set[str] = set()
        private_ids: dict[int, set[int]] = {world.alice.id: set(), world.bob.id: set()}
        redrawn_for_next = 0
        await pick_wrong_slot(world, actors[(await game_state(world, world.channel)).turn],
                              world.channel, shown)
        moves = 0
        while moves < 40:
            record = await game_record(world, world.channel)
            if record.status != "active":
                break
            state = booleo.BooleoState.from_dict(record.state)
            hands = [state.view(seat)["hand"] for seat in (0, 1)]
            hands_seen |= {t for t in map(distinctive, hands) if t}
            seat = state.to_move()[0]
            mark = len(shown)
            left = await play_turn(world, actors[seat], world.channel, rng)
            moves += 1
            # The hand messages of this turn show each viewer their own hand only: the
            # mover's before or after the move, and the next mover's, whose open hand
            # is redrawn with its menu when their turn begins.
            privates = [m for m in shown[mark:] if m.ephemeral]
            assert any(m.viewer == str(actors[seat].id) for m in privates)
            after = await game_state(world, world.channel)
            for message in privates:
                viewer = next(s for s, a in enumerate(actors) if str(a.id) == message.viewer)
                own = {render.hand_text(hands[viewer]) or "no cards",
                       render.hand_text(after.view(viewer)["hand"]) or "no cards"}
                if viewer == seat:
                    own.add(left or "no cards")
                assert shown_hand(visible_text(message)) in own, (viewer, visible_text(message))
                private_ids[actors[viewer].id].add(message.message_id)
                redrawn_for_next += viewer != seat
            # The public texts at every moment so far hold no hand, past or current.
            public = public_texts(shown, world.channel.id)
            assert all("Your hand" not in text for text in public)
            assert not any(hand in text for hand in hands_seen for text in public)
        assert moves >= 40 or record.status == "finished", (moves, record.status)
        assert redrawn_for_next > 0, "an open hand follows its player's turn"
        # The board changed publicly with every move, and only ever showed the public view.
        board = await board_message(world, world.channel)
        assert menu_items(board) == []
        state = await game_state(world, world.channel)
        names = [p["name"] for p in record.players]
        assert render.render(state.view(None), names, "en", True) in visible_text(board)
        # Discord shows each player's hands to that player alone.
        for member, rival in ((world.alice, world.bob), (world.bob, world.alice)):
            assert private_ids[member.id], "each player opened their hand"
            assert private_ids[member.id].isdisjoint(
                m.id for m in world.channel.history(viewer=rival))
            assert private_ids[member.id].isdisjoint(
                m.id for m in world.channel.history(viewer=world.carol))
        check_shown(shown)


async def test_a_stranger_cannot_open_or_play_a_players_hand(tmp_path: Path) -> None:
    async with discord_world(tmp_path) as world:
        shown = record_messages(world)
        await world.alice.slash(world.channel, "play", game="booleo", opponent=world.bob,
                                options="bits=4")
        record = await game_record(world, world.channel)
        state = booleo.BooleoState.from_dict(record.state)
        mover, waiter = ((world.alice, world.bob) if record.players[state.to_move()[0]]["id"]
                         == str(world.alice.id) else (world.bob, world.alice))
        board = await board_message(world, world.channel)
        opened = await mover.click(board, custom_id=hand_button(board))
        hand = opened.response
        assert hand is not None and hand.ephemeral
        hand_before, board_before = visible_text(hand), visible_text(board)
        card = menu_items(hand)[0]

        # The public hand button: a stranger is told, privately, that they do not play.
        peek = await world.carol.click(board, custom_id=hand_button(board))
        assert peek.ephemeral and "not playing" in visible_text(peek.response)
        assert "Your hand" not in visible_text(peek.response)
        slash_hand = await world.carol.slash(world.channel, "hand")
        assert slash_hand.ephemeral and "not playing" in visible_text(slash_hand.response)
        typed = await world.carol.slash(world.channel, "move", notation="discard AND1")
        assert typed.ephemeral and visible_text(typed.response)
        # A menu button copied from the mover's hand onto the board, as a modified client
        # could send it: refused privately.
        stored = world.env.backend.get_message(world.channel.id, board.id)
        for custom_id in (card["custom_id"], hand_button(board)):
            forged = await _component_interaction(
                world.carol, stored, {"custom_id": custom_id, "component_type": 2})
            assert forged.ephemeral and forged.response is not None
            answer = visible_text(forged.response)
            assert answer and "Your hand" not in answer
        # The waiting player opens their own hand, without a menu, and cannot move.
        waiting = await waiter.click(board, custom_id=hand_button(board))
        assert waiting.ephemeral and "Your hand" in visible_text(waiting.response)
        assert menu_items(waiting.response) == []

        after = await game_record(world, world.channel)
        assert after.version == record.version and after.state == record.state
        assert visible_text(hand) == hand_before and menu_items(hand) == menu_items(opened.response)
        assert (await board_message(world, world.channel)).content == board_before
        # The stranger never received anything showing a hand.
        carol_sees = [visible_text(m) for m in shown if m.viewer == str(world.carol.id)]
        assert carol_sees and all("Your hand" not in text for text in carol_sees)
        # And the mover's buttons still work: back and forth, then a discard ends the turn.
        spare = (await mover.click(board, custom_id=hand_button(board))).response
        assert spare is not None and menu_items(spare)
        step = await mover.click(hand, custom_id=card["custom_id"])
        assert step.acknowledged and "so far" in visible_text(hand)
        await mover.click(hand, label=translate("en", "menu.back"))
        assert visible_text(hand).endswith(translate("en", "menu.choose"))
        await mover.click(hand, custom_id=card["custom_id"])
        discard = next(c for c in menu_items(hand) if c["label"] == "Discard")
        await mover.click(hand, custom_id=discard["custom_id"])
        moved = await game_record(world, world.channel)
        assert moved.version == record.version + 1 and menu_items(hand) == []
        # The second hand opened before the move is out of date: a click on it changes
        # nothing, and it is redrawn as the current hand, where the menu is the rival's now.
        stale = await mover.click(spare, custom_id=menu_items(spare)[0]["custom_id"])
        assert stale.acknowledged and spare.ephemeral
        assert "out of date" in visible_text(spare) and menu_items(spare) == []
        assert (await game_record(world, world.channel)).version == moved.version


async def test_a_crowded_pyramid_plays_through_a_select_in_the_hand(tmp_path: Path) -> None:
    """Over 20 slots for one card: the private hand offers them in a select menu."""
    async with discord_world(tmp_path) as world:
        shown = record_messages(world)
        state = crowded("bits=8 extended referee=off", 3)
        users = [User("discord", str(member.id), member.name)
                 for member in (world.alice, world.bob)]
        if state.to_move() == [1]:
            users.reverse()
        await world.store.create_game("discord", str(world.channel.id), "booleo",
                                      dict(state.options), state.seed, state.to_dict(),
                                      [human_player(user) for user in users], "active")
        await world.bob.slash(world.channel, "board")
        _, state, seat, hand = await open_hand(world, world.alice, world.channel)
        assert state.to_move() == [seat]
        card = next(c for c in state.menu(seat, ())
                    if c.action is None and 20 < len(state.menu(seat, (c.token,))) <= 25)
        item = next(item for item, _, path in hand_options(hand) if path == (card.token,))
        await world.alice.click(hand, custom_id=item["custom_id"])
        selects = [c for c in components_of(hand) if c["type"] == 3]
        assert selects and menu_items(hand), visible_text(hand)
        slot = next(c for c in state.menu(seat, (card.token,)) if c.token != "D")
        chosen = await world.alice.select(hand, [slot.token], custom_id=next(
            s["custom_id"] for s in selects
            if slot.token in {o["value"] for o in s["options"]}))
        assert chosen.acknowledged and chosen.response is not None
        assert chosen.response.ephemeral
        after = await game_state(world, world.channel)
        assert after.actions == [*state.actions, slot.action]
        public = public_texts(shown, world.channel.id)
        assert public and all("Your hand" not in text for text in public)
        check_shown(shown)


# ------------------------------------------------------------------- limits
EMOJI = Place("discord", "1", emoji=True)
TEXT = Place("discord", "1", emoji=False)


def check_layout(layout: Layout, menu: list[Button]) -> None:
    assert len(layout.content) <= (4000 if layout.v2 else 2000)
    view = build_view(layout)
    rows: list[dict[str, Any]] = view.to_components() if view is not None else []
    check_rows(rows)
    for child in interactive_of(rows):
        template = BUTTON_TEMPLATE if child["type"] == 2 else SELECT_TEMPLATE
        assert re.fullmatch(template, child["custom_id"]), child["custom_id"]
    reachable = {b.custom_id[3:] for b in layout.buttons}
    reachable |= {part.button.custom_id[3:] for part in layout.parts
                  if isinstance(part, CardSection)}
    for select in layout.selects:
        prefix = select.custom_id[4:].rsplit(":", 1)[0]
        reachable |= {select_payload(prefix, value) for _, value in select.options}
    assert not layout.overflow
    assert {b.payload for b in menu} <= reachable, "every option can be clicked"


def random_positions(options: str, moves: int, seed: int) -> list[booleo.BooleoState]:
    rng = random.Random(seed)
    state = booleo.new_game(parse_option_text(booleo.OPTIONS, options), 2, seed)
    states = [booleo.BooleoState.from_dict(state.to_dict())]
    for _ in range(moves):
        if state.outcome() is not None:
            break
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        states.append(booleo.BooleoState.from_dict(state.to_dict()))
    return states


def test_every_8_bit_extended_hand_and_board_fits_discord() -> None:
    service = Service(store=None)  # type: ignore[arg-type]  # rendering needs no store
    steps = selects = 0
    for options, seed in (("bits=8 extended", 3), ("bits=8 extended", 8),
                          ("bits=8 extended referee=off inactive", 5)):
        states = random_positions(options, 30, seed)
        assert len(states) > 20
        for state in states + [crowded("bits=8 extended referee=off", rows, seed)
                               for rows in (3, 4)]:
            record = record_for("booleo", state)
            for place in (EMOJI, TEXT):
                board = service.render_board(place, record, state)
                assert board.buttons == [] and board.hand_button is not None
                layout = board_layout(board, place.language, ["x" * 200])
                check_layout(layout, [])
                assert board_text(board) in layout.content, "the board is never cut"
                # With the computer to move, the bot adds a line under the board.
                thinking = fit_content([layout.content, thinking_line(board, "en")])
                assert board_text(board) in thinking
                assert thinking.endswith(thinking_line(board, "en"))
                for seat in (0, 1):
                    hand = service.render_hand(place, record, state, seat)
                    assert shows_hand(state.view(seat)["hand"], hand.text)
                    check_layout(hand_layout(hand, place.language), hand.buttons)
                if state.outcome() is not None:
                    continue
                seat = state.to_move()[0]
                for path, menu in walk_menus(service, place, record, state, seat):
                    hand = service.render_hand(place, record, state, seat, path)
                    assert hand.buttons == menu
                    notice = LESSONS["XNOR0"].format(a=1, b=1)
                    layout = hand_layout(hand, place.language, notice)
                    check_layout(layout, menu)
                    assert hand.text in layout.content, "the hand is never cut"
                    selects += bool(layout.selects)
                    steps += 1
    assert steps > 300, steps
    assert selects, "the crowded positions' long steps went through select menus"
    print(f"{steps} hand steps checked, {selects} of them with select menus")


async def test_the_starter_gets_their_hand_with_the_board_and_it_is_redrawn_in_place(
        tmp_path: Path) -> None:
    """No "My hand" tap before the first move: whoever starts a game with private hands
    gets their own hand privately with the board, and that message is redrawn with the
    menu when their turn comes, so it is the only hand message they need."""
    rng = random.Random(3)
    async with discord_world(tmp_path) as world:
        started = await world.alice.slash(world.channel, "play", game="booleo",
                                          opponent=world.bob, options="bits=4")
        await world.bot.wait_for_background()
        hands = [m for m in started.followups if m.ephemeral]
        assert len(hands) == 1 and "Your hand" in visible_text(hands[0])
        state = await game_state(world, world.channel)
        record = await game_record(world, world.channel)
        alice_seat = [p["id"] for p in record.players].index(str(world.alice.id))
        assert shown_hand(visible_text(hands[0])) == (
            render.hand_text(state.view(alice_seat)["hand"]) or "no cards")
        if state.to_move() != [alice_seat]:  # Bob first: Alice's hand waits without a menu
            assert not menu_items(hands[0])
            await play_turn(world, world.bob, world.channel, rng)
        assert menu_items(hands[0]), "the starter's hand carries the menu on their turn"
        bob = await world.bob.slash(world.channel, "hand")
        assert bob.ephemeral and "Your hand" in visible_text(bob.response)
