"""The service builds each move menu once per saved version (``Presenter.menu_at``),
keeps them for a bounded number of games, and never serves a menu of an older version."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from bot.service import Opponent, Place, Service
from bot.service import presenter as drawing
from engines.lgame import LGameState
from tests.helpers.people import ALICE, BOB, PLACE


def count_menus(monkeypatch: pytest.MonkeyPatch) -> Counter[tuple[int, tuple[str, ...]]]:
    built: Counter[tuple[int, tuple[str, ...]]] = Counter()
    menu = LGameState.menu

    def counted(self: LGameState, seat: int, path: tuple[str, ...] = ()) -> Any:
        built[(seat, tuple(path))] += 1
        return menu(self, seat, path)

    monkeypatch.setattr(LGameState, "menu", counted)
    return built


async def test_a_move_builds_each_of_its_menus_once(service: Service,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    built = count_menus(monkeypatch)
    reply = await service.start_game(PLACE, ALICE, "lgame", Opponent("user", user=BOB))
    assert reply.board is not None and built == Counter({(0, ()): 1})
    # The L's step, then the neutral piece's, which makes the move.
    step = await service.press(PLACE, ALICE, reply.board.buttons[0].payload)
    assert step.board is not None and not step.moved
    first = reply.board.buttons[0].payload.rsplit(":", 1)[1]
    assert built == Counter({(0, ()): 1, (0, (first,)): 1})
    moved = await service.press(PLACE, ALICE, step.board.buttons[0].payload)
    assert moved.ok and moved.moved and moved.board is not None
    # Resolving the press read the two menus the replies drew; the new version's first
    # menu, Bob's, was built once for the reply.
    assert built == Counter({(0, ()): 1, (0, (first,)): 1, (1, ()): 1})
    assert [b.payload for b in moved.board.buttons] == [
        b.payload for b in (await service.board(PLACE)).board.buttons]  # type: ignore[union-attr]


async def test_a_saved_move_never_gets_the_old_versions_menu(service: Service) -> None:
    reply = await service.start_game(PLACE, ALICE, "lgame", Opponent("user", user=BOB))
    assert reply.board is not None
    step = await service.press(PLACE, ALICE, reply.board.buttons[0].payload)
    assert step.board is not None
    moved = await service.press(PLACE, ALICE, step.board.buttons[0].payload)
    assert moved.moved and moved.board is not None
    # A button of the old version is refused as stale, not resolved through old menus.
    again = await service.press(PLACE, BOB, step.board.buttons[0].payload)
    assert not again.moved
    record, state = await service.core.current(PLACE)
    offered = {b.payload.rsplit(":", 1)[1] for b in moved.board.buttons}
    assert offered == {c.token for c in state.menu(1, ())}
    assert record.version == moved.board.version


async def test_menus_are_kept_for_the_games_moved_last(service: Service,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(drawing, "GAMES_BUILT_KEPT", 2)
    places = [Place("test", f"kept-{n}") for n in range(3)]
    games = []
    for place in places:
        reply = await service.start_game(place, ALICE, "lgame", Opponent("user", user=BOB))
        assert reply.board is not None
        games.append(reply.board.game_id)
    assert list(service.presenter.built) == games[1:]  # the first game's menus made way
    # A new version of the oldest kept game (here a copy of its record, as a save makes
    # one) builds its menus at the back, even when nothing read the old ones first.
    record, state = await service.core.current(places[1])
    service.menu_at(replace(record), state, 0, ())
    assert list(service.presenter.built) == [games[2], games[1]]
    service.menu_at(record, state, 0, ())
    assert list(service.presenter.built) == [games[2], games[1]]
