"""The puzzle trainer (issue 41): ``/puzzle <game>``, one answer by taps, right or wrong
with the reason on the board, then next, retry, show me, or another theme; and a puzzle
of the day per game with the day's leaderboard.

Platform-neutral like the daily challenge and the lessons. A puzzle comes from the game's
generator (``engines.puzzles``) in the worker pool and is kept as an attempt in the store
(``bot/store/puzzle_rows.py``) with the player's first answer; its pages are drawn by
``bot.puzzles.pages``, with buttons that carry the attempt and the menu path, so a restart
in the middle of a puzzle changes nothing and a stale or forged button is answered in words.
The next puzzle's candidates are made while the student answers (``bot.puzzles.prefetch``),
and a stock of made puzzles per game and theme serves the first of a session, a change of
theme, or a Next pressed before those are ready (``bot.puzzles.stock``).

Why not a game of its own kind in the ``games`` table: a channel holds one running game,
which a puzzle would take from the Telegram private chat and the console; puzzles would
count toward a person's running games and every ``GameFinished`` subscriber would have to skip them;
and on Discord the trainer lives in an ephemeral message, which the delivery path's stored
board references cannot edit later. Pages drawn from an attempt need none of that, and
reuse the games' own positions, menus and boards all the same.

Ratings (``bot.puzzles.ratings``): the first answer to each puzzle moves the player's
Glicko-2 rating in that game and the puzzle's own, once (the store writes both over the
rows they were computed from, or nothing). Retries and "show me" change nothing, and
puzzles never touch game ratings, results, ladders or tournaments.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
import logging
import random
from dataclasses import replace
from typing import Any

from bot.clock import Clock, utc_now
from bot.events import PlayerForgotten
from bot.limits import WorkerCrashed, WorkersBusy
from bot.puzzles.jobs import MAKE_SECONDS, SEED_BITS, Candidates, judge_puzzle, puzzle_candidates
from bot.puzzles.pages import (
    ANY_THEME,
    PuzzlePage,
    answering_page,
    choose,
    menu_refusal,
    parse_data,
    rating_text,
    refusal,
    result_page,
    solution_page,
    theme_page,
)
from bot.puzzles.prefetch import Prefetches, prefetch_key
from bot.puzzles.ratings import Glicko, after_try, puzzle_start
from bot.puzzles.stock import PuzzleStock
from bot.replies import Place, User
from bot.service import Service
from bot.store import PuzzleStore
from bot.store.puzzle_rows import (
    FAILED,
    SOLVED,
    NewPuzzleAttempt,
    PuzzleAnswer,
    PuzzleAttempt,
    PuzzlePlayer,
    PuzzleRating,
)
from bot.store.records import now
from engines.base import GameError
from engines.puzzles import Puzzle, puzzle_games, puzzle_generator
from engines.registry import get_game, resolve_name
from renderers.i18n import localise, translate

log = logging.getLogger(__name__)

# Puzzles made for each pick, of which the one nearest the player's rating is given.
CANDIDATES = 6
# A puzzle given in the last this many of the player's attempts is not given again.
RECENT = 50
# The judging job's budget (as making one, ``MAKE_SECONDS``).
JUDGE_SECONDS = 20.0
# Past this, the pick stops making candidates once it has one (``puzzle_candidates``).
PICK_SECONDS = 1.5
# How often an answer is computed again when another answer moved a rating meanwhile.
ANSWER_TRIES = 5
LEADERBOARD_SIZE = 10


def _t(language: str, key: str, default: str, **params: object) -> str:
    return translate(language, key, default, **params)


def puzzle_game(name: str) -> str | None:
    """The engine name of ``name`` (an alias or a title) when that game has puzzles."""
    typed = " ".join(name.lower().split())
    if not typed:
        return None
    by_title = {get_game(game).TITLE.lower(): game for game in puzzle_games()}
    if typed in by_title:
        return by_title[typed]
    try:
        game = resolve_name(typed)
    except GameError:
        return None
    return game if game in puzzle_games() else None


def puzzle_list(language: str) -> str:
    titles = ", ".join(f"{get_game(game).TITLE} ({game})" for game in puzzle_games())
    return _t(language, "puzzle.choose",
              "Puzzles to solve alone, one try each, with a rating of your own. Choose a "
              "game: {games}.", games=titles)


def themes_of(game: str) -> tuple[str, ...]:
    return tuple(puzzle_generator(game).themes)


def daily_seed(game: str, day: str, attempt: int = 0) -> int:
    """The seed of ``game``'s puzzle of ``day``: the same in every process and platform."""
    digest = hashlib.sha256(f"puzzle-of-the-day:{game}:{day}:{attempt}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> (64 - SEED_BITS)


def _refusal(puzzle: Puzzle, action: str) -> GameError | None:
    """Why the rules refuse ``action`` at the puzzle's position, or None when it is legal.
    Menus may offer moves the referee then refuses, such as a bOOleO gate that does not
    fit its inputs; in a game such a move is refused, not played, and so it is here."""
    state = puzzle.position()
    if action in state.legal_actions(puzzle.seat):
        return None
    try:
        state.apply(puzzle.seat, action)
    except GameError as error:
        return error
    return None


def _glicko(player: PuzzlePlayer | None) -> Glicko:
    return Glicko() if player is None else Glicko(player.rating, player.deviation,
                                                  player.volatility)


class PuzzleTrainer:
    def __init__(self, service: Service, clock: Clock = utc_now) -> None:
        self.service = service
        self.store: PuzzleStore = service.store
        self.clock = clock
        # One answer at a time in this process: on SQLite (one process) its transaction
        # never meets another's; on PostgreSQL the store's guards sort out other processes.
        self._answering = asyncio.Lock()
        # The puzzle of the day per game and day, made once per process.
        self._daily: dict[tuple[str, str], tuple[str, dict[str, Any]]] = {}
        self._daily_making: dict[tuple[str, str], asyncio.Lock] = {}
        # The candidates of each player's next puzzle, made while they answer this one.
        self.prefetches = Prefetches(service.workers)
        self.prefetching = True  # off only to measure what it saves (benchmarks)
        # Made puzzles of every game and theme, for anyone's pick (off until started).
        self.stock = PuzzleStock(service.workers, themes_of)

    def today(self) -> dt.date:
        return self.clock().astimezone(dt.UTC).date()

    async def player_forgotten(self, event: PlayerForgotten) -> None:
        """``/forget-me``: the person's attempts and puzzle ratings go."""
        self.prefetches.forget(event.platform, event.user_id)
        await self.store.forget_puzzle_player(event.platform, event.user_id)

    async def close(self) -> None:
        """The bot is stopping: the next puzzles being made are not wanted."""
        await self.prefetches.close()
        await self.stock.close()

    # --------------------------------------------------------------- starting
    async def start(self, place: Place, user: User, game: str,
                    theme: str | None = None) -> PuzzlePage:
        """``/puzzle <game> [theme]``: the open puzzle of that game, or a new one near the
        player's rating (of ``theme`` when given)."""
        refused = await self.service.rate_refusal(place, user)
        if refused is not None:
            return refusal(refused)
        return await self._open(place, user, game, theme, resumed_note=True)

    async def _open(self, place: Place, user: User, game: str, theme: str | None, *,
                    resumed_note: bool = False) -> PuzzlePage:
        language = place.language
        if theme is not None and theme not in themes_of(game):
            return refusal(self.theme_refusal(language, game, theme))
        self.stock.touch(game)  # refilled where short, for this player's next or another's
        existing = await self.store.open_puzzle(user.platform, user.id, game)
        if existing is None:
            try:
                existing = await self._new_attempt(place, user, game, theme)
            except WorkersBusy:
                return refusal(translate(language, "error.workers_busy"))
            except (TimeoutError, GameError, RuntimeError, WorkerCrashed):
                log.exception("no %s puzzle could be made", game)
                return refusal(_t(language, "puzzle.unavailable",
                                  "No puzzle could be made just now. Try again in a minute."))
            resumed_note = False
        self._prefetch_next(existing)
        note = (_t(language, "puzzle.resumed",
                   "Your puzzle from before is still open: answer it first.")
                if resumed_note else "")
        return await self._answering_page(place, existing, (), note=note)

    async def _new_attempt(self, place: Place, user: User, game: str,
                           theme: str | None) -> PuzzleAttempt:
        player = await self.store.puzzle_player(user.platform, user.id, game)
        recent = set(await self.store.recent_puzzle_codes(user.platform, user.id, game,
                                                          RECENT))
        target = _glicko(player).rating
        # Made before the press, those not given since: the player's own when they are
        # ready (awaited while being made if the stock has none), else the stock's; with
        # neither, they are made now.
        stocked = self.stock.offer(game, theme, recent)
        prefetched = await self.prefetches.take(
            prefetch_key(user.platform, user.id, game, theme), wait=not stocked)
        found = [candidate for candidate in prefetched or () if candidate[0] not in recent]
        from_stock = False
        if not found and stocked:
            ratings = await self.store.puzzle_ratings([code for code, _ in stocked])
            # Offered again, with no wait until one is taken: other presses may have taken
            # some meanwhile (a class at once drains it, then has theirs made), and puzzles
            # refilled since were never answered, so their own rating is theirs.
            found = self.stock.offer(game, theme, recent)
            from_stock = bool(found)
        if not found:
            rng = random.Random(f"trainer:{user.platform}:{user.id}:{game}:{theme}:"
                                f"{player.tried if player else 0}:{len(recent)}")
            seeds = [rng.randrange(1 << SEED_BITS) for _ in range(CANDIDATES)]
            found = await self.service.workers.run(
                puzzle_candidates, game, theme, seeds, target, sorted(recent), PICK_SECONDS,
                refuse_when_busy=True, timeout=MAKE_SECONDS)
        if not found:
            raise GameError("puzzle.none", "No puzzle was found.")
        if not from_stock:
            ratings = await self.store.puzzle_ratings([code for code, _ in found])

        def distance(candidate: tuple[str, dict[str, Any]]) -> tuple[bool, float]:
            code, puzzle = candidate
            stored = ratings.get(code)
            rating = stored.rating if stored else float(puzzle["rating"])
            return code in recent, abs(rating - target)

        code, chosen = min(found, key=distance)
        if from_stock:
            self.stock.take(game, code)
        opened = await self.store.open_puzzle_attempt(self._attempt(
            place, user, game, code, chosen, theme or "", ""))
        if opened is None:  # another press opened one meanwhile: that one it is
            opened = await self.store.open_puzzle(user.platform, user.id, game)
        if opened is None:
            raise GameError("puzzle.none", "No puzzle was found.")
        return opened

    def _prefetch_next(self, attempt: PuzzleAttempt) -> None:
        """Start making the candidates of the puzzle after ``attempt`` (not of the day's)."""
        if self.prefetching and not attempt.daily:
            self.prefetches.start(
                prefetch_key(attempt.platform, attempt.user_id, attempt.game, attempt.theme),
                lambda: self._next_candidates(attempt))

    async def _next_candidates(self, attempt: PuzzleAttempt) -> Candidates:
        """Every candidate (within ``PICK_SECONDS``) for the puzzle after ``attempt``:
        which is nearest is decided when Next is pressed, by the rating after the answer."""
        recent = {attempt.code, *await self.store.recent_puzzle_codes(
            attempt.platform, attempt.user_id, attempt.game, RECENT)}
        rng = random.Random(f"trainer-next:{attempt.platform}:{attempt.user_id}:"
                            f"{attempt.game}:{attempt.theme}:{attempt.id}")
        seeds = [rng.randrange(1 << SEED_BITS) for _ in range(CANDIDATES)]
        found: Candidates = await self.service.workers.run(
            puzzle_candidates, attempt.game, attempt.theme or None, seeds, None,
            sorted(recent), PICK_SECONDS, refuse_when_busy=True, timeout=MAKE_SECONDS)
        return found

    @staticmethod
    def _attempt(place: Place, user: User, game: str, code: str, puzzle: dict[str, Any],
                 theme: str, daily: str) -> NewPuzzleAttempt:
        return NewPuzzleAttempt(user.platform, user.id, user.name, place.server, game, code,
                                tuple(str(t) for t in puzzle.get("themes", ())), theme, daily,
                                puzzle)

    @staticmethod
    def theme_refusal(language: str, game: str, theme: str) -> str:
        return _t(language, "puzzle.unknown_theme",
                  "{game} puzzles have no theme '{theme}'. Themes: {themes}.",
                  game=get_game(game).TITLE, theme=theme[:30],
                  themes=", ".join(themes_of(game)))

    # ------------------------------------------------------ the puzzle of the day
    async def daily_puzzle(self, game: str, day: str) -> tuple[str, dict[str, Any]]:
        """The code and puzzle of ``game``'s puzzle of ``day``, the same everywhere."""
        cached = self._daily.get((game, day))
        if cached is not None:
            return cached
        # A class pressing Solve at once makes the puzzle once: the others wait for it.
        async with self._daily_making.setdefault((game, day), asyncio.Lock()):
            cached = self._daily.get((game, day))
            return cached if cached is not None else await self._make_daily(game, day)

    async def _make_daily(self, game: str, day: str) -> tuple[str, dict[str, Any]]:
        for attempt in range(4):  # a seed without a puzzle: the next of the day's seeds
            found = await self.service.workers.run(
                puzzle_candidates, game, None, [daily_seed(game, day, attempt)],
                refuse_when_busy=True, timeout=MAKE_SECONDS)
            if found:
                self._daily = {key: value for key, value in self._daily.items()
                               if key[1] >= day}  # yesterday's are done with
                self._daily_making = {key: lock for key, lock in self._daily_making.items()
                                      if key[1] >= day}
                self._daily[(game, day)] = found[0]
                return found[0]
        raise GameError("puzzle.none", "No puzzle was found.")

    async def start_daily(self, place: Place, user: User, game: str,
                          day: dt.date | None = None) -> PuzzlePage:
        """The puzzle of the day of ``game``: one first try per person and day; asked
        again, its page as it stands."""
        language = place.language
        refused = await self.service.rate_refusal(place, user)
        if refused is not None:
            return refusal(refused)
        stamp = (day or self.today()).isoformat()
        attempt = await self.store.daily_puzzle_attempt(user.platform, user.id, game, stamp)
        if attempt is None:
            try:
                code, puzzle = await self.daily_puzzle(game, stamp)
            except WorkersBusy:
                return refusal(translate(language, "error.workers_busy"))
            except (TimeoutError, GameError, RuntimeError, WorkerCrashed):
                log.exception("no %s puzzle of the day could be made", game)
                return refusal(_t(language, "puzzle.unavailable",
                                  "No puzzle could be made just now. Try again in a minute."))
            attempt = (await self.store.open_puzzle_attempt(self._attempt(
                place, user, game, code, puzzle, "", stamp))
                or await self.store.daily_puzzle_attempt(user.platform, user.id, game, stamp))
            if attempt is None:
                return refusal(translate(language, "error.internal"))
        return await self.attempt_page(place, attempt)

    # ---------------------------------------------------------------- presses
    async def press(self, place: Place, user: User, button: str) -> PuzzlePage:
        """A trainer button: the page it leads to, or a refusal in words."""
        language = place.language
        pressed = parse_data(button)
        if pressed is None:
            return refusal(translate(language, "error.foreign_button"))
        refused = await self.service.rate_refusal(place, user)
        if refused is not None:
            return refusal(refused)
        attempt = await self.store.puzzle_attempt(pressed.attempt)
        if attempt is None:
            return refusal(_t(language, "puzzle.gone",
                              "This puzzle is gone. Start another with /puzzle."))
        if (attempt.platform, attempt.user_id) != (user.platform, user.id):
            return refusal(_t(language, "puzzle.not_yours",
                              "This puzzle is someone else's. /puzzle gives you your own."))
        step, argument = pressed.step, pressed.argument
        if step == "v":
            return await self.attempt_page(place, attempt)
        if step == "a":
            return await self._first_try(place, attempt, argument)
        if attempt.open:  # the other steps come after the first answer
            return await self._answering_page(place, attempt, (), note=_t(
                language, "puzzle.answer_first", "Answer the puzzle first."))
        if step == "r":
            return await self._retry(place, attempt, argument)
        if step == "s":
            return await self._show(place, attempt)
        if step == "t" and not argument:
            return theme_page(attempt, themes_of(attempt.game), language)
        theme: str | None = attempt.theme or None
        # The next puzzle stays the class's when asked for in a private chat (a group's
        # /puzzle sends it there): the teacher's table finds its solver.
        here = place if place.server else replace(place, server=attempt.server)
        if step == "t":
            themes = themes_of(attempt.game)
            if argument == ANY_THEME:
                theme = None
            elif argument.isdecimal() and int(argument) < len(themes):
                theme = themes[int(argument)]
            else:
                return refusal(translate(language, "error.foreign_button"))
        return await self._open(here, user, attempt.game, theme)

    async def attempt_page(self, place: Place, attempt: PuzzleAttempt, note: str = ""
                           ) -> PuzzlePage:
        """The attempt as it stands: waiting for its answer, or its verdict."""
        if attempt.open or attempt.verdict is None:
            return await self._answering_page(place, attempt, (), note=note)
        player = await self.store.puzzle_player(attempt.platform, attempt.user_id,
                                                attempt.game)
        rating = rating_text(place.language, attempt, player)
        if attempt.daily:  # where the answer stands among the day's (the class's, if any)
            rating += "\n\n" + await self.leaderboard_text(
                place.language, attempt.game, dt.date.fromisoformat(attempt.daily),
                attempt.server or None)
        return result_page(attempt, Puzzle.from_dict(attempt.puzzle), attempt.verdict,
                           place.language, place.emoji, rating=rating, note=note)

    async def _answering_page(self, place: Place, attempt: PuzzleAttempt,
                              path: tuple[str, ...], *, practice: bool = False,
                              note: str = "") -> PuzzlePage:
        player = await self.store.puzzle_player(attempt.platform, attempt.user_id,
                                                attempt.game)
        rating = "" if practice else _t(
            place.language, "puzzle.your_rating", "Your {game} puzzle rating: {rating}",
            game=get_game(attempt.game).TITLE, rating=round(_glicko(player).rating))
        return answering_page(attempt, Puzzle.from_dict(attempt.puzzle), path, place.language,
                              place.emoji, practice=practice, note=note, rating=rating)

    async def _resolve(self, place: Place, attempt: PuzzleAttempt, argument: str,
                       practice: bool) -> PuzzlePage | str:
        """A menu step's page, or the action its button completes."""
        language = place.language
        puzzle = Puzzle.from_dict(attempt.puzzle)
        path = tuple(argument.split(".")) if argument else ()
        if not path:
            return await self._answering_page(place, attempt, (), practice=practice)
        choice = choose(puzzle, path)
        if choice is None:
            return await self._answering_page(place, attempt, (), practice=practice, note=_t(
                language, "puzzle.stale", "That button is out of date; here is the puzzle."))
        if choice.unavailable is not None:
            return await self._answering_page(
                place, attempt, path[:-1], practice=practice,
                note="❌ " + localise(language, choice.unavailable))
        if choice.action is None:
            tapped = menu_refusal(puzzle, path)  # a grid's tap no move could use: why
            if tapped is not None:
                return await self._answering_page(
                    place, attempt, path[:-1], practice=practice,
                    note="❌ " + translate(language, tapped.key, tapped.default,
                                          **tapped.params))
            return await self._answering_page(place, attempt, path, practice=practice)
        refused = _refusal(puzzle, choice.action)
        if refused is not None:  # offered (a bOOleO gate on any slot it fits), not legal:
            # the rules say why, as in a game, and the try is not spent on it
            return await self._answering_page(
                place, attempt, (), practice=practice,
                note="❌ " + translate(language, refused.key, refused.default,
                                      **refused.params))
        return choice.action

    async def _first_try(self, place: Place, attempt: PuzzleAttempt, argument: str
                         ) -> PuzzlePage:
        if not attempt.open:
            return await self.attempt_page(place, attempt, note=_t(
                place.language, "puzzle.already_answered",
                "You answered this puzzle already; here is how it went."))
        resolved = await self._resolve(place, attempt, argument, practice=False)
        if isinstance(resolved, PuzzlePage):
            return resolved
        return await self.answer(place, attempt, resolved)

    async def answer(self, place: Place, attempt: PuzzleAttempt, action: str) -> PuzzlePage:
        """The first answer: judged, recorded with both new ratings, and its verdict."""
        try:
            verdict = await self._judge(attempt.puzzle, action)
        except WorkersBusy:
            return refusal(translate(place.language, "error.workers_busy"))
        recorded = await self._record(attempt, action, verdict)
        self._prefetch_next(recorded)  # when the open page's prefetch is gone
        return await self.attempt_page(place, recorded)

    async def _judge(self, puzzle: dict[str, Any], action: str) -> dict[str, Any]:
        """The verdict, from the worker pool; ``WorkersBusy`` when the pool is full, or
        when the judging failed (timed out, its worker died): the try is then not spent,
        and the player is asked to try again in a moment."""
        try:
            verdict: dict[str, Any] = await self.service.workers.run(
                judge_puzzle, puzzle, action, refuse_when_busy=True, timeout=JUDGE_SECONDS)
        except (TimeoutError, WorkerCrashed) as error:
            log.warning("judging a %s answer failed: %r", puzzle.get("game"), error)
            raise WorkersBusy from error
        return verdict

    async def _record(self, attempt: PuzzleAttempt, action: str,
                      verdict: dict[str, Any]) -> PuzzleAttempt:
        solved = bool(verdict.get("correct"))
        for _ in range(ANSWER_TRIES):
            async with self._answering:
                player = await self.store.puzzle_player(attempt.platform, attempt.user_id,
                                                        attempt.game)
                stored = (await self.store.puzzle_ratings([attempt.code])).get(attempt.code)
                outcome = await self.store.record_puzzle_answer(
                    self._answer_row(attempt, action, verdict, solved, player, stored))
            if outcome != "conflict":
                break
            log.info("puzzle attempt %s: a rating moved meanwhile; computed again",
                     attempt.id)
        return await self.store.puzzle_attempt(attempt.id) or attempt

    def _answer_row(self, attempt: PuzzleAttempt, action: str, verdict: dict[str, Any],
                    solved: bool, player: PuzzlePlayer | None,
                    stored: PuzzleRating | None) -> PuzzleAnswer:
        before = _glicko(player)
        puzzle_before = (Glicko(stored.rating, stored.deviation, stored.volatility)
                         if stored else puzzle_start(float(attempt.puzzle.get("rating", 1500))))
        player_after, puzzle_after = after_try(before, puzzle_before, solved)
        streak = (player.streak if player else 0) + 1 if solved else 0
        new_player = PuzzlePlayer(
            attempt.platform, attempt.user_id, attempt.game, player_after.rating,
            player_after.deviation, player_after.volatility,
            (player.tried if player else 0) + 1,
            (player.solved if player else 0) + int(solved), streak,
            max(streak, player.best_streak if player else 0))
        new_rating = PuzzleRating(
            attempt.code, attempt.game, puzzle_after.rating, puzzle_after.deviation,
            puzzle_after.volatility, (stored.tried if stored else 0) + 1,
            (stored.solved if stored else 0) + int(solved))
        return PuzzleAnswer(attempt.id, SOLVED if solved else FAILED, action, verdict, now(),
                            before.rating, new_player, player.tried if player else None,
                            new_rating, stored.tried if stored else None)

    async def _retry(self, place: Place, attempt: PuzzleAttempt, argument: str
                     ) -> PuzzlePage:
        resolved = await self._resolve(place, attempt, argument, practice=True)
        if isinstance(resolved, PuzzlePage):
            return resolved
        try:
            verdict = await self._judge(attempt.puzzle, resolved)
        except WorkersBusy:
            return refusal(translate(place.language, "error.workers_busy"))
        return result_page(attempt, Puzzle.from_dict(attempt.puzzle), verdict, place.language,
                           place.emoji, practice=True)

    async def _show(self, place: Place, attempt: PuzzleAttempt) -> PuzzlePage:
        puzzle = Puzzle.from_dict(attempt.puzzle)
        try:
            verdict = await self._judge(attempt.puzzle, puzzle.accepted[0])
        except WorkersBusy:
            return refusal(translate(place.language, "error.workers_busy"))
        return solution_page(attempt, puzzle, verdict, place.language, place.emoji)

    async def typed_answer(self, place: Place, user: User, attempt_id: int, text: str,
                           practice: bool = False) -> PuzzlePage:
        """An answer typed in notation (the console), as its button would be."""
        attempt = await self.store.puzzle_attempt(attempt_id)
        if attempt is None or (attempt.platform, attempt.user_id) != (user.platform, user.id):
            return refusal(_t(place.language, "puzzle.gone",
                              "This puzzle is gone. Start another with /puzzle."))
        puzzle = Puzzle.from_dict(attempt.puzzle)
        try:
            action = puzzle.position().parse_action(text, puzzle.seat)
            refused = _refusal(puzzle, action)
            if refused is not None:
                raise refused
        except GameError as error:
            return await self._answering_page(
                place, attempt, (), practice=practice,
                note="❌ " + translate(place.language, error.key, error.default,
                                      **error.params))
        if practice:
            try:
                verdict = await self._judge(attempt.puzzle, action)
            except WorkersBusy:
                return refusal(translate(place.language, "error.workers_busy"))
            return result_page(attempt, puzzle, verdict, place.language, place.emoji,
                               practice=True)
        if not attempt.open:
            return await self.attempt_page(place, attempt)
        return await self.answer(place, attempt, action)

    # ------------------------------------------------------ stats, leaderboards
    async def stats_lines(self, language: str, platform: str, user_id: str,
                          game: str | None = None) -> list[str]:
        """``/stats``' puzzle lines: per game, the rating, first tries solved, streaks."""
        lines = []
        for player in await self.store.puzzle_players(platform, user_id):
            if game is not None and player.game != game:
                continue
            lines.append(_t(language, "stats.puzzles",
                            "{game} puzzles: rating {rating} · {solved} of {tried} solved at "
                            "the first try · streak {streak} (best {best})",
                            game=get_game(player.game).TITLE, rating=round(player.rating),
                            solved=player.solved, tried=player.tried, streak=player.streak,
                            best=player.best_streak))
        return lines

    async def leaderboard_text(self, language: str, game: str, day: dt.date,
                               server: str | None, empty_ok: bool = True) -> str:
        """The day's leaderboard of ``game``'s puzzle of the day: who solved it at the
        first try, quickest first, then who tried (``server``: one class; None: all);
        with nobody yet, a sentence that says so, or "" when not ``empty_ok``."""
        attempts = [attempt for attempt in await self.store.daily_puzzle_attempts(
            day.isoformat(), game, server) if not attempt.open]
        scope = _t(language, "daily.scope_server" if server else "daily.scope_global",
                   "this server" if server else "everyone")
        title = get_game(game).TITLE
        if not attempts:
            if not empty_ok:
                return ""
            return _t(language, "puzzle.daily_empty",
                      "Nobody has answered the {game} puzzle of {date} yet ({scope}).",
                      game=title, date=day.isoformat(), scope=scope)
        attempts.sort(key=lambda a: (a.status != SOLVED, _seconds(a), a.id))
        lines = [_t(language, "puzzle.daily_title", "🏆 {game} puzzle of {date} ({scope}):",
                    game=title, date=day.isoformat(), scope=scope)]
        for rank, attempt in enumerate(attempts[:LEADERBOARD_SIZE], start=1):
            lines.append(_t(language, "puzzle.daily_solved", "{rank}. {name}: ✅ in {seconds} s",
                            rank=rank, name=attempt.name, seconds=_seconds(attempt))
                         if attempt.status == SOLVED else
                         _t(language, "puzzle.daily_failed", "{rank}. {name}: ❌",
                            rank=rank, name=attempt.name))
        return "\n".join(lines)

    def daily_post_text(self, language: str, game: str, day: dt.date) -> str:
        return _t(language, "puzzle.daily_post",
                  "🗓 {game} puzzle of the day · {date}\nPress Solve to try it privately: one "
                  "try counts, and the quickest right answers lead the day's leaderboard.",
                  game=get_game(game).TITLE, date=day.isoformat())


def _seconds(attempt: PuzzleAttempt) -> int:
    """How long the first answer took, from when the puzzle was shown."""
    if attempt.answered_at is None:
        return 0
    try:
        taken = (dt.datetime.fromisoformat(attempt.answered_at)
                 - dt.datetime.fromisoformat(attempt.started_at))
    except ValueError:
        return 0
    return max(0, round(taken.total_seconds()))
