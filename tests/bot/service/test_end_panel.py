"""An ended game's panel as the service draws it: the buttons of a finished board, the
rating line, and the rule that a panel works only where its game ended."""

from __future__ import annotations

from bot.app import App
from bot.config import Settings
from bot.payloads import Payload
from bot.service import Opponent, Place, Service
from bot.store import Store
from tests.helpers.people import ALICE, BOB, CAROL, PLACE


def actions(buttons: list[object]) -> list[str]:
    parsed = [Payload.parse(getattr(b, "payload", None)) for b in buttons]
    return [p.last_token for p in parsed if p is not None and p.kind == "e"]


async def test_a_finished_rated_game_shows_each_rating_change(store: Store) -> None:
    app = App.build(Settings(), store)  # with the community, which records the results
    service = app.service
    await service.start_game(PLACE, ALICE, "lgame", Opponent("user", user=BOB))
    ended = await service.resign(PLACE, BOB)
    assert ended.finished and ended.board is not None
    assert ended.board.prompt.splitlines() == ["🏆 Alice: rating 1200 → 1216 (+16)",
                                               "Bob: rating 1200 → 1184 (−16)"]
    assert actions(ended.board.buttons) == ["again"]
    assert actions(ended.board.navigation) == ["stats", "rules", "replay"]


async def test_against_the_computer_the_winner_is_congratulated_unrated(store: Store) -> None:
    app = App.build(Settings(), store)
    service = app.service
    await service.start_game(PLACE, ALICE, "lgame", Opponent("ai", level="easy"))
    lost = await service.resign(PLACE, ALICE)
    assert lost.board is not None and lost.board.prompt == "", "no rating, no trophy"
    await service.start_game(PLACE, ALICE, "lgame", Opponent("user", user=BOB))
    abandoned = await service.abandon(PLACE, ALICE)
    assert abandoned.board is not None and abandoned.board.prompt == ""
    assert actions(abandoned.board.buttons + abandoned.board.navigation) == [
        "again", "stats", "rules", "replay"]


async def test_the_panel_names_its_game_only_where_it_ended(service: Service) -> None:
    await service.start_game(PLACE, ALICE, "lgame", Opponent("user", user=BOB))
    ended = await service.resign(PLACE, BOB)
    assert ended.board is not None
    again = ended.board.buttons[0].payload
    record = await service.ended_game(PLACE, Payload.parse(again))
    assert record is not None and record.id == ended.board.game_id
    elsewhere = Place(PLACE.platform, "another-channel", emoji=False)
    assert await service.ended_game(elsewhere, Payload.parse(again)) is None
    assert await service.ended_game(PLACE, Payload.parse(again.replace("again", "x"))) is None
    # The service's own press path refuses panel payloads: they are the adapters' to show.
    refused = await service.press(PLACE, BOB, again)
    assert not refused.ok and refused.notice == "That button is not valid here."
    # A rematch of that game from its panel, by a player; not by anyone else.
    stranger = await service.rematch(PLACE, CAROL, ended.board.game_id)
    assert not stranger.ok and "Only a player" in (stranger.notice or "")
    from_elsewhere = await service.rematch(elsewhere, BOB, ended.board.game_id)
    assert not from_elsewhere.ok
    again_reply = await service.rematch(PLACE, BOB, ended.board.game_id)
    assert again_reply.ok and again_reply.board is not None
    assert again_reply.board.game_id != ended.board.game_id
