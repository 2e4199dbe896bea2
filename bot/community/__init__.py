"""Results, ratings, leaderboards, the list of running games, and forgetting a person.

Platform-neutral like the service and the daily challenge. Results are recorded when the
service publishes ``GameFinished`` (``App.build`` subscribes ``game_finished``), once per
finished game (the store's primary key makes a second count an integrity error, so
restarts and a second process cannot double it).

What counts:

* A finished game with at least two people, or a person against the computer. Abandoned
  games count for nothing, and a solo puzzle is not a contest (the daily challenge has its
  own leaderboard).
* Games against the computer are counted apart (``opponent='ai'``): ``/stats`` shows them
  on their own line, and they never change a rating or enter a leaderboard, so beating
  the easy level cannot climb a class ranking.
* Only two-person games are rated (Elo, ``bot/community/ratings.py``); games of three or more count
  wins, losses and draws only.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot.community.ratings import START, updated
from bot.events import GameFinished, PlayerForgotten
from bot.hints import hinted
from bot.service import Place, Reply, Service, User
from bot.store import FORMER_PLAYER, ForCommunity, GameRecord, PlayerStats, ResultRow
from engines.base import GameError, GameState
from engines.registry import get_game, resolve_name
from renderers.i18n import translate

log = logging.getLogger(__name__)

LEADERBOARD_SIZE = 10


def _t(language: str, key: str, default: str, **params: Any) -> str:
    return translate(language, key, default, **params)


def results_of(record: GameRecord, state: GameState,
               ratings: dict[str, float]) -> list[ResultRow]:
    """The rows to record for a finished game; ``ratings`` are the current ratings of its
    people in this game (a missing one is ``START``)."""
    outcome = state.outcome()
    if record.status != "finished" or outcome is None or hinted(record):
        return []  # a game someone took a hint in is practice (bot/hints.py)
    humans = [seat for seat, p in enumerate(record.players) if p.get("kind") == "human"]
    with_ai = any(p.get("kind") == "ai" for p in record.players)
    if not humans or (len(humans) < 2 and not with_ai):
        return []

    def result(seat: int) -> str:
        if outcome.is_draw:
            return "draw"
        return "win" if seat in outcome.winners else "loss"

    rated = not with_ai and len(record.players) == 2 and len(humans) == 2
    rows = []
    for seat in humans:
        player = record.players[seat]
        before = after = None
        if rated:
            other = record.players[1 - seat]
            before = ratings.get(str(player["id"]), START)
            after = updated(before, ratings.get(str(other["id"]), START), result(seat))
        rows.append(ResultRow(record.id, str(player["platform"]), str(player["id"]),
                              str(player.get("name", "?")), record.server, record.game,
                              "ai" if with_ai else "human", result(seat), before, after))
    return rows


@dataclass
class Forgetting:
    """The answer to /forget-me, and the games it abandoned (their boards need updating:
    ``ended`` pairs each game's place with the service's reply)."""

    notice: str
    ended: list[tuple[Place, Reply]] = field(default_factory=list)


class Community:
    def __init__(self, service: Service) -> None:
        self.service = service
        self.store: ForCommunity = service.store
        # Reading two ratings and writing the new ones must not interleave with another
        # game of the same players finishing in this process. (Across processes the
        # last writer wins; a class bot runs one process.)
        self._rating_lock = asyncio.Lock()
        # More lines for /stats (the puzzle trainer's ratings, ``App.build`` adds it):
        # called with the language, platform, user id and the game asked for, if any.
        self.stats_sources: list[Callable[[str, str, str, str | None],
                                          Awaitable[list[str]]]] = []

    async def game_finished(self, event: GameFinished) -> None:
        """The game's results and new ratings, recorded once."""
        record, state = event.record, event.state
        if record.status != "finished":
            return
        humans = [p for p in record.players if p.get("kind") == "human"]
        async with self._rating_lock:
            ratings = (await self.store.ratings_of(record.platform,
                                                   [str(p["id"]) for p in humans],
                                                   record.game) if humans else {})
            rows = results_of(record, state, ratings)
            if rows and not await self.store.record_results(rows):
                log.info("game %s was already counted", record.id)

    # ------------------------------------------------------------------- /stats
    async def stats_text(self, place: Place, user_id: str, name: str,
                         game: str | None = None) -> str:
        """A person's results in every game they played (``game``: in that one only)."""
        language = place.language
        lines = [_t(language, "stats.title", "📊 Results of {name}", name=name)]
        found = [stats for stats in await self.store.player_stats(place.platform, user_id)
                 if game is None or stats.game == game]
        more = [line for source in self.stats_sources
                for line in await source(language, place.platform, user_id, game)]
        if not found and not more:
            return _t(language, "stats.none", "{name} has no finished games yet.", name=name)
        for stats in found:
            title = get_game(stats.game).TITLE
            if stats.played:
                lines.append(_t(language, "stats.line",
                                "{game}: {wins} won, {losses} lost, {draws} drawn against "
                                "people · rating {rating}", game=title, wins=stats.wins,
                                losses=stats.losses, draws=stats.draws,
                                rating=self.rating_text(language, stats)))
            if stats.ai_wins + stats.ai_losses + stats.ai_draws:
                lines.append(_t(language, "stats.line_ai",
                                "{game} against the computer: {wins} won, {losses} lost, "
                                "{draws} drawn (not rated)", game=title, wins=stats.ai_wins,
                                losses=stats.ai_losses, draws=stats.ai_draws))
        return "\n".join(lines + more)

    @staticmethod
    def rating_text(language: str, stats: PlayerStats) -> str:
        if stats.rating is None:
            return _t(language, "stats.unrated", "unrated")
        return str(round(stats.rating))

    # -------------------------------------------------------------- /leaderboard
    async def leaderboard_text(self, place: Place, game: str, server: str | None) -> str:
        """The ranking of ``game`` in ``server`` (None: everyone on this platform); a game
        name that is not one is answered with the registry's own explanation."""
        language = place.language
        try:
            name = resolve_name(game)
        except GameError as error:
            return translate(language, error.key, error.default, **error.params)
        title = get_game(name).TITLE
        heading = (_t(language, "leaderboard.title_server", "🏆 {game} · this server",
                      game=title) if server is not None else
                   _t(language, "leaderboard.title_global", "🏆 {game} · everyone",
                      game=title))
        board = await self.store.leaderboard(place.platform, name, server, LEADERBOARD_SIZE)
        if not board:
            return "\n".join([heading, _t(language, "leaderboard.empty",
                                          "No finished games between people yet.")])
        lines = [heading]
        for rank, stats in enumerate(board, 1):
            lines.append(_t(language, "leaderboard.line",
                            "{rank}. {name} · {rating} · {wins} won, {losses} lost, "
                            "{draws} drawn", rank=rank, name=stats.name,
                            rating=self.rating_text(language, stats), wins=stats.wins,
                            losses=stats.losses, draws=stats.draws))
        return "\n".join(lines)

    # ------------------------------------------------------------------- /games
    async def games_text(self, place: Place, link: Callable[[GameRecord], str]) -> str:
        """The running games of the server around ``place`` (only the channel itself in a
        private chat); ``link`` is where the platform can point to each board."""
        language = place.language
        if place.server:
            games = await self.store.running_games(place.platform, place.server)
        else:
            running = await self.store.running_game(place.platform, place.channel)
            games = [running] if running is not None else []
        if not games:
            return _t(language, "games.none", "No game is running here.")
        lines = [_t(language, "games.title", "Games running here:")]
        for record in games:
            players = " vs ".join(str(p.get("name", "?")) for p in record.players
                                  if p.get("kind") != "open")
            # The number is what a moderator gives /abandon to end the game from here.
            key, default = (("games.line_waiting", "• #{number} {game}: {players}, waiting "
                             "for players · {link}") if record.status == "waiting" else
                            ("games.line", "• #{number} {game}: {players} · {link}"))
            lines.append(_t(language, key, default, number=record.id,
                            game=get_game(record.game).TITLE, players=players,
                            link=link(record)))
        return "\n".join(lines)

    async def class_board_text(self, place: Place, link: Callable[[GameRecord], str]) -> str:
        """The class board of the server or group around ``place``: every running game,
        its players and whose turn it is, with a link to its board, for a teacher to
        watch a whole class from one message."""
        language = place.language
        games = await self.store.running_games(place.platform, place.server)
        lines = [_t(language, "classboard.title", "📋 Class board · {count} running",
                    count=len(games))]
        if not games:
            lines.append(_t(language, "classboard.empty",
                            "No game is running. Start one with /play."))
        for record in games:
            players = " vs ".join(str(p.get("name", "?")) for p in record.players
                                  if p.get("kind") != "open")
            lines.append(_t(language, "classboard.line", "• #{number} {game}: {players}",
                            number=record.id, game=get_game(record.game).TITLE,
                            players=players))
            lines.append("  " + self._whose_turn(language, record) + " · " + link(record))
        return "\n".join(lines)

    @staticmethod
    def _whose_turn(language: str, record: GameRecord) -> str:
        if record.status == "waiting":
            return _t(language, "classboard.waiting", "waiting for players")
        try:
            seats = get_game(record.game).State.from_dict(record.state).to_move()
        except Exception:  # one unreadable game must not take the whole board down
            log.exception("class board: could not read game %s", record.id)
            return "…"
        names = [str(record.players[seat].get("name", "?")) for seat in seats
                 if 0 <= seat < len(record.players)]
        return _t(language, "classboard.to_move", "▶ {names}", names=", ".join(names) or "…")

    # ---------------------------------------------------------------- /forget-me
    async def forget_me(self, place: Place, user: User) -> Forgetting:
        """Delete what is stored about ``user`` on this platform.

        Their running games are abandoned first, not resigned: a resignation would give
        the opponent a result and rating points on behalf of someone leaving, and the
        result row would be deleted a moment later anyway. Finished games stay (the
        opponents' results stand) with the seat anonymised.
        """
        language = place.language
        ended: list[tuple[Place, Reply]] = []
        for record in await self.store.games_with_status("waiting", "active"):
            if record.platform != user.platform or self.service.seat_of(record, user) is None:
                continue
            ref = record.board_ref or {}
            game_place = Place(record.platform, record.channel, language,
                               bool(ref.get("emoji", place.emoji)), record.server)
            # A seat they left in a game the others play on is only anonymised: ending it
            # would take the game from the others.
            if await self.service.anonymise_left_seat(
                    game_place, user, "former-" + secrets.token_hex(8), FORMER_PLAYER):
                continue
            reply = await self.service.abandon(game_place, user, metered=False)
            if reply.ok:
                ended.append((game_place, reply))
        forgotten = await self.store.forget_user(user.platform, user.id)
        # What else keeps people's names and ids (tournaments, the trainer) forgets them.
        await self.service.events.publish(PlayerForgotten(user.platform, user.id))
        lines = []
        if ended:
            lines.append(_t(language, "forget.abandoned",
                            "Your running games were abandoned: {count}.", count=len(ended)))
        lines.append(_t(language, "forget.done",
                        "Done: your results ({results}), ratings ({ratings}) and daily "
                        "challenge attempts ({attempts}) are deleted, and in {games} past "
                        "games you are now \"a former player\".",
                        results=forgotten.results, ratings=forgotten.ratings,
                        attempts=forgotten.daily_attempts, games=forgotten.games))
        return Forgetting("\n".join(lines), ended)
