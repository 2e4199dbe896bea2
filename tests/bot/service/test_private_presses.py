"""A hand's button pressed in a player's private chat (Telegram sends hidden hands there):
it acts on the game in the game's own channel, and everything it answers, the refusal
popping up over the hand included, is in the game's language, the language the hand
message itself was drawn in. Strangers and games without hidden hands get nothing there,
answered in the private chat's own language."""

from __future__ import annotations

from bot.payloads import Payload
from bot.service import Opponent, Place, Reply, Service, User
from renderers.i18n import translate
from tests.helpers.people import ALICE, BOB, CAROL

GROUP = Place("test", "group-1", "en", emoji=False, server="school")
CAROL_PRIVATE = Place("test", "dm-carol", "de", emoji=False)


async def started(service: Service, game: str) -> int:
    reply = await service.start_game(GROUP, ALICE, game, Opponent("user", user=BOB))
    assert reply.ok and reply.board is not None, reply.notice
    # What an adapter stores with the board it sent: where it is and its language.
    await service.set_board_ref(reply.board.game_id, {"message": "1", "language": "en",
                                                      "emoji": False})
    return reply.board.game_id


def private_chat(user: User) -> Place:
    return Place("test", f"dm-{user.id}", "de", emoji=False)


async def mover_and_button(service: Service) -> tuple[User, str]:
    """The player to move in the group's game, and the first button of their hand."""
    for user in (ALICE, BOB):
        hand = await service.hand(GROUP, user)
        if hand.hand is not None and hand.hand.buttons:
            return user, hand.hand.buttons[0].payload
    raise AssertionError("nobody may move")


async def whole_move(service: Service, user: User, payload: str) -> Reply:
    """Press ``payload`` in ``user``'s private chat, then each step's first option, until
    a move is made."""
    reply = await service.press(private_chat(user), user, payload)
    while reply.ok and not reply.moved:
        assert reply.hand is not None and reply.hand.buttons, reply
        reply = await service.press(private_chat(user), user, reply.hand.buttons[0].payload)
    return reply


async def test_a_private_press_moves_the_group_game_and_answers_in_its_language(
        service: Service) -> None:
    game_id = await started(service, "booleo")
    mover, first = await mover_and_button(service)
    parsed = Payload.parse(first)
    assert parsed is not None and parsed.game_id == game_id

    moved = await whole_move(service, mover, first)
    assert moved.ok and moved.moved, moved.notice
    assert moved.place == GROUP  # the group's board is the one to redraw
    assert moved.board is not None and moved.board.game_id == game_id

    # The same button again is out of date now: refused in the language of the hand it
    # was pressed on, with the current hand to draw over it.
    stale = await service.press(private_chat(mover), mover, first)
    assert not stale.ok and not stale.moved
    assert stale.place == GROUP
    assert stale.notice == translate("en", "error.stale")
    assert stale.notice != translate("de", "error.stale")
    assert stale.hand is not None


async def test_a_stranger_or_an_open_game_gets_nothing_in_a_private_chat(
        service: Service) -> None:
    await started(service, "booleo")
    _, payload = await mover_and_button(service)
    before = await service.store.running_game("test", GROUP.channel)

    stranger = await service.press(CAROL_PRIVATE, CAROL, payload)
    assert not stranger.ok and stranger.place is None
    assert stranger.notice == translate("de", "error.button_not_valid")
    assert await service.store.running_game("test", GROUP.channel) == before

    # The L-game hides nothing, so its buttons work only on its board, in the group.
    lgame = Place("test", "group-2", "en", emoji=False, server="school")
    board = await service.start_game(lgame, ALICE, "lgame", Opponent("user", user=BOB))
    assert board.board is not None and board.board.buttons
    refused = await service.press(private_chat(ALICE), ALICE, board.board.buttons[0].payload)
    assert not refused.ok and refused.place is None
    assert refused.notice == translate("de", "error.button_not_valid")
