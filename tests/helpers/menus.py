"""Worst-case game records and a walk over every menu step: what the adapters' layout
tests check against their platform's limits."""

from __future__ import annotations

from bot.service import Button, Place, Service
from bot.store import GameRecord
from engines.base import GameState

WORST_NAME = "N" * 32  # the longest name adapters keep


def record_for(game: str, state: GameState, platform: str = "discord",
               game_id: int = 987_654_321_098, version: int = 999_999_999) -> GameRecord:
    """Worst-case ids, versions and names, so payloads and texts are as long as they will
    ever be."""
    players = [{"kind": "human", "platform": platform, "id": str(n), "name": WORST_NAME}
               for n in (1, 2)]
    return GameRecord(game_id, platform, "1", game, {}, 1, state.to_dict(), version,
                      players, "active")


def walk_menus(service: Service, place: Place, record: GameRecord, state: GameState,
               seat: int, path: tuple[str, ...] = ()
               ) -> list[tuple[tuple[str, ...], list[Button]]]:
    """Every menu step reachable from ``path``, with its buttons."""
    buttons, _, _ = service.presenter.menu(place, record, state, seat, path)
    found = [(path, buttons)]
    for choice in state.menu(seat, path):
        if choice.action is None:
            found += walk_menus(service, place, record, state, seat, (*path, choice.token))
    return found


# An ended game's panel (``Presenter._end_buttons``) in English: what a finished board offers.
END_PANEL_LABELS = ["🔁 Play again", "📊 My results", "📖 Rules", "🔎 Replay"]


def move_buttons(buttons: list[Button]) -> list[Button]:
    """The buttons that would make or choose a move: all but an ended game's panel."""
    return [b for b in buttons if not b.payload.startswith("e:")]
