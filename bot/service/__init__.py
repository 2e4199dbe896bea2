"""The game service: platform-neutral commands in, platform-neutral replies out.

It is the only code that changes game state. For every command it loads the channel's
game, checks turn and permission, applies the action, saves it under the version guard
and answers with a ``Reply``. Adapters translate platform events into these calls and
replies into messages; they hold no game logic.

``Service`` is the façade the adapters and the features call: every public method is
one line handing the command to the collaborator that does it, each a module of this
package with a name:

* ``core`` (``Core``): what every command shares (the store, this process's copies of the
  running games and their locks, the workers, the rate limits, the danger marks) and the
  path every change takes: read under the lock, apply, the version-guarded save (which
  publishes ``GameFinished``, ``bot.events``), the reply drawn after it;
* ``presenter`` (``Presenter``): the drawing of boards, hands, menus, payloads and end
  panels, and the help and rules texts;
* ``openings`` (``Openings``): new games and their limits, rematches, joining, lobbies;
* ``turns`` (``Turns``): turn timers' forfeits and stand-ins, the computer's moves;
* ``moves`` (``Moves``): typed moves, presses, the board and hand on request, hints;
* ``endings`` (``Endings``): resignations, abandoned games, a left seat anonymised;
* ``records`` (``Records``): what adapters may read of the store, and the board reference.

The collaborators work through the core and never import this module; the features
(``bot.community``, ``bot.classroom``…) import only this module of the package.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.events import Events
from bot.limits import Limits, RateLimiter, Workers
from bot.payloads import Kind, Payload
from bot.replies import (
    Board,
    Button,
    Hand,
    Opponent,
    Place,
    Reply,
    ServiceError,
    User,
    ai_player,
    human_player,
    place_of_record,
)
from bot.service import presenter as drawing
from bot.service.core import Core, agent_seed
from bot.service.core import has_left as _has_left
from bot.service.core import seat_of as _seat_of
from bot.service.dangers import DangerMarks
from bot.service.endings import Endings
from bot.service.moves import Moves
from bot.service.openings import Openings
from bot.service.records import Records
from bot.service.turns import Turns
from bot.store import GameRecord, Store
from engines.base import Choice, GameState

# Re-exported: adapters and features import them from here.
__all__ = ["Board", "Button", "Hand", "Opponent", "Place", "Reply", "Service", "ServiceError",
           "User", "agent_seed", "ai_player", "human_player", "place_of_record"]


class Service:
    """Every command of the game service (see the module's docstring)."""

    def __init__(self, store: Store, seed_source: Callable[[], int] | None = None,
                 limits: Limits | None = None, events: Events | None = None) -> None:
        """``limits`` default to none at all, for scripted play; the bot passes
        ``Limits()``. ``seed_source`` gives new games their seeds (tests: fixed ones).
        ``events`` is the hub the service publishes to (``App.build``'s; without one the
        service has its own, which nothing hears until something subscribes)."""
        self.core = Core(store, seed_source, limits, events)
        self.presenter = self.core.presenter
        self.openings = Openings(self.core)
        self.turns = Turns(self.core)
        self.moves = Moves(self.core, self.openings)
        self.endings = Endings(self.core)
        self.records = Records(self.core)

    # ------------------------------------------------ the state the core keeps
    @property
    def store(self) -> Store:
        return self.core.store

    @property
    def limits(self) -> Limits:
        return self.core.limits

    @limits.setter
    def limits(self, limits: Limits) -> None:
        self.core.limits = limits

    @property
    def rate(self) -> RateLimiter:
        return self.core.rate

    @rate.setter
    def rate(self, rate: RateLimiter) -> None:
        self.core.rate = rate

    @property
    def workers(self) -> Workers:
        return self.core.workers

    @workers.setter
    def workers(self, workers: Workers) -> None:
        self.core.workers = workers

    @property
    def dangers(self) -> DangerMarks:
        return self.core.dangers

    @property
    def process_id(self) -> str:
        return self.core.process_id

    @property
    def events(self) -> Events:
        """The hub the service publishes ``GameFinished`` to, and the features publish
        and hear their own events through."""
        return self.core.events

    # ------------------------------------------------------------- new games
    def check_start(self, place: Place, user: User, game: str, opponent: Opponent,
                    options: str = "") -> str | None:
        return self.openings.check_start(place, user, game, opponent, options)

    async def start_refusal(self, place: Place, user: User, game: str, opponent: Opponent,
                            options: str = "") -> str | None:
        return await self.openings.start_refusal(place, user, game, opponent, options)

    async def start_game(self, place: Place, user: User, game: str, opponent: Opponent,
                         options: str = "", creator_seat: int | None = 0) -> Reply:
        return await self.openings.start_game(place, user, game, opponent, options,
                                              creator_seat)

    async def start_marked_game(self, place: Place, creator: User, game: str,
                                players: list[dict[str, Any]], options: str,
                                marks: dict[str, Any]) -> Reply:
        return await self.openings.start_marked_game(place, creator, game, players, options,
                                                     marks)

    async def rematch(self, place: Place, user: User, game_id: int | None = None) -> Reply:
        return await self.openings.rematch(place, user, game_id)

    async def join(self, place: Place, user: User) -> Reply:
        return await self.openings.join(place, user)

    # ----------------------------------------------------------------- moves
    async def hand(self, place: Place, user: User) -> Reply:
        return await self.moves.hand(place, user)

    async def move_suggestions(self, place: Place, user: User, typed: str,
                               limit: int = 25) -> list[str]:
        return await self.moves.move_suggestions(place, user, typed, limit)

    async def board(self, place: Place, user: User | None = None) -> Reply:
        return await self.moves.board(place, user)

    async def stored_board(self, place: Place, record: GameRecord) -> Reply:
        return await self.moves.stored_board(place, record)

    async def move(self, place: Place, user: User, text: str) -> Reply:
        return await self.moves.move(place, user, text)

    async def press_place(self, origin: Place, user: User,
                          payload: Payload | None) -> Place | None:
        return await self.moves.press_place(origin, user, payload)

    async def press(self, origin: Place, user: User, payload: str, *,
                    reaches: bool = True) -> Reply:
        return await self.moves.press(origin, user, payload, reaches=reaches)

    async def hint(self, place: Place, user: User, pressed: Payload | None = None, *,
                   reaches: bool = True) -> Reply:
        return await self.moves.hint(place, user, pressed, reaches=reaches)

    # ------------------------------------------------- timers and the computer
    async def timeout(self, place: Place, game_id: int, version: int, action: str) -> Reply:
        return await self.turns.timeout(place, game_id, version, action)

    async def play_ai_turn(self, place: Place) -> Reply:
        return await self.turns.play_ai_turn(place)

    async def pending_ai_places(self) -> list[GameRecord]:
        return await self.turns.pending_ai_places()

    # --------------------------------------------------------------- endings
    async def resign(self, place: Place, user: User) -> Reply:
        return await self.endings.resign(place, user)

    async def abandon(self, place: Place, user: User, game_id: int | None = None,
                      metered: bool = True) -> Reply:
        return await self.endings.abandon(place, user, game_id, metered)

    async def anonymise_left_seat(self, place: Place, user: User, token: str,
                                  name: str) -> bool:
        return await self.endings.anonymise_left_seat(place, user, token, name)

    async def game_in_server(self, place: Place, game_id: int) -> GameRecord | None:
        return await self.endings.game_in_server(place, game_id)

    async def end_games_in(self, platform: str, server: str) -> list[tuple[Place, Reply]]:
        return await self.endings.end_games_in(platform, server)

    async def ended_game(self, origin: Place, payload: Payload | None) -> GameRecord | None:
        return await self.core.ended_game(origin, payload)

    async def rate_refusal(self, place: Place, actor: User) -> str | None:
        return await self.core.rate_refusal(place, actor)

    # ----------------------------------------------------- drawing, and texts
    def render_board(self, place: Place, record: GameRecord, state: GameState,
                     path: tuple[str, ...] = ()) -> Board:
        return self.presenter.render_board(place, record, state, path)

    def render_hand(self, place: Place, record: GameRecord, state: GameState, seat: int,
                    path: tuple[str, ...] = ()) -> Hand:
        return self.presenter.render_hand(place, record, state, seat, path)

    def menu_at(self, record: GameRecord, state: GameState, seat: int,
                path: tuple[str, ...]) -> list[Choice]:
        return self.presenter.menu_at(record, state, seat, path)

    def help_text(self, place: Place, commands_key: str = "help.commands") -> str:
        return self.presenter.help_text(place, commands_key)

    def rules_text(self, place: Place, game: str) -> str:
        return self.presenter.rules_text(place, game)

    @staticmethod
    def seat_of(record: GameRecord, user: User) -> int | None:
        return _seat_of(record, user)

    @staticmethod
    def has_left(record: GameRecord, seat: int | None) -> bool:
        return _has_left(record, seat)

    @staticmethod
    def names(record: GameRecord) -> list[str]:
        return drawing.player_names(record)

    @staticmethod
    def hides_hands(record: GameRecord) -> bool:
        return drawing.hides_hands(record)

    @staticmethod
    def is_lobby_game(record: GameRecord) -> bool:
        return drawing.is_lobby_game(record)

    @staticmethod
    def menu_version(record: GameRecord, state: GameState, seat: int) -> int:
        return drawing.menu_version(record, state, seat)

    @staticmethod
    def payload(record: GameRecord, path: tuple[str, ...], kind: Kind = "m",
                version: int | None = None) -> str:
        return drawing.payload(record, path, kind, version)

    # ------------------------------------------------- what adapters may read
    # Adapters reach the database only through these, never through ``store``.
    async def game_record(self, game_id: int) -> GameRecord | None:
        return await self.records.game_record(game_id)

    async def running_record(self, place: Place) -> GameRecord | None:
        return await self.records.running_record(place)

    async def table_for_new_game(self, place: Place, user: User, game: str, rival: Opponent
                                 ) -> Place | GameRecord:
        return await self.records.table_for_new_game(place, user, game, rival)

    async def free_place(self, place: Place) -> Place:
        return await self.records.free_place(place)

    async def seated_games(self, place: Place, user: User) -> list[GameRecord]:
        return await self.records.seated_games(place, user)

    async def set_board_ref(self, game_id: int, ref: dict[str, Any]) -> None:
        await self.records.set_board_ref(game_id, ref)

    async def get_setting(self, platform: str, scope: str, key: str) -> str | None:
        return await self.records.get_setting(platform, scope, key)

    async def set_setting(self, platform: str, scope: str, key: str, value: str) -> None:
        await self.records.set_setting(platform, scope, key, value)
