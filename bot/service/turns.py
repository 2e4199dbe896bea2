"""Moves nobody typed: the turn timer's stand-ins and forfeits, and the computer's moves
(claimed for a lease when several processes share the database): the service's
``Turns``, which work through its core."""

from __future__ import annotations

import logging
import random

from bot.jobs import computer_move
from bot.limits import WorkerCrashed
from bot.replies import (
    Place,
    Reply,
    ServiceError,
)
from bot.service.core import Core, agent_seed, quick_level
from bot.service.presenter import ai_seat_to_move, player_names, t
from bot.store import GameRecord, MoveRecord
from engines.base import (
    GameState,
    StateError,
)
from engines.registry import get_game

log = logging.getLogger(__name__)
# A computer turn's lease outlasts its thinking budget by this much, so a slow save does not
# let another process take the turn over while this one still plays it.
AI_LEASE_MARGIN_SECONDS = 15.0


class Turns:
    """Turn timers' forfeits and stand-ins, and the computer's moves."""

    def __init__(self, core: Core) -> None:
        self.core = core
        self.presenter = core.presenter

    async def timeout(self, place: Place, game_id: int, version: int, action: str) -> Reply:
        """A turn timer ran out on ``version`` of game ``game_id``: every human still to
        move (several in a simultaneous Turing round) forfeits (``action="forfeit"``, the
        engine's resignation) or has the computer play one move for them (``"ai"``).
        Refused (``ok=False``) when the game moved on since the timer was read, so a late
        timer never acts twice."""
        async def work() -> Reply:
            record, _ = await self.core.current(place)
            if record.id != game_id:
                raise ServiceError(t(place, "error.stale"), record)
            async with self.core.lock(record.id):
                record, state = await self.core.fresh(record)
                idle = [s for s in state.to_move() if record.players[s].get("kind") == "human"]
                if record.version != version or record.status != "active" or not idle:
                    raise ServiceError(t(place, "error.stale"), record)
                names = [player_names(record)[seat] for seat in idle]
                if action == "forfeit":
                    return await self._forfeit(place, record, state, idle, names)
                return await self._stand_in(place, record, state, idle, names)
        return await self.core.guard(place, work)

    async def _forfeit(self, place: Place, record: GameRecord, state: GameState,
                       idle: list[int], names: list[str]) -> Reply:
        """Everyone idle loses together. When that would leave one of them the winner
        (the engine ends a game at its last player standing, whoever is resigned first),
        nobody is left who played on, and the game ends without a result."""
        trial = get_game(record.game).State.from_dict(state.to_dict())
        for seat in idle:
            if trial.outcome() is not None:
                break
            trial.resign(seat)
        outcome = trial.outcome()
        if outcome is not None and set(outcome.winners) & set(idle):
            state.abandon()
            reply = await self.core.save_and_reply(place, record, state, record.players,
                                                   "abandoned",
                                                   MoveRecord(None, "abandon", "timeout"), None)
            reply.announcements.append(t(
                place, "timer.everyone_out",
                "⌛ {names} ran out of time; with nobody left playing, the game ends "
                "without a result.", names=", ".join(names)))
            return reply
        reply = await self.core.resign_seats(place, record, state, idle, "timeout")
        reply.announcements += [t(place, "timer.forfeit",
                                  "⌛ {name} ran out of time and loses the game.",
                                  name=name) for name in names]
        return reply

    async def _stand_in(self, place: Place, record: GameRecord, state: GameState,
                        idle: list[int], names: list[str]) -> Reply:
        """One move by the computer for each idle player, as gently as the game allows:
        it keeps the game going without deciding it for them. In a game with hidden
        information the announcement does not say the move, which may be private."""
        module = get_game(record.game)
        hidden = module.INFO.hidden_information
        announcements: list[str] = []
        reply = Reply()
        for seat, name in zip(idle, names, strict=True):
            if reply.finished:
                break
            if reply.moved:
                record, state = await self.core.fresh(record)
                if seat not in state.to_move():
                    continue
            chosen = await self._stand_in_move(record, state, seat)
            reply = await self.core.apply(place, record, state, seat, chosen)
            if hidden:
                announcements.append(t(
                    place, "timer.stand_in_hidden",
                    "⌛ {name} ran out of time; the computer moved for them.", name=name))
            else:
                announcements.append(t(
                    place, "timer.stand_in",
                    "⌛ {name} ran out of time; the computer played {move} for them.",
                    name=name, move=state.action_text(chosen)))
        reply.announcements.extend(announcements)
        return reply

    async def _stand_in_move(self, record: GameRecord, state: GameState, seat: int) -> str:
        """A game may say what a stand-in plays (``stand_in_action``: the Turing Machine
        never guesses for someone); otherwise its easiest computer level chooses."""
        rng = random.Random(agent_seed(record))
        gentle = getattr(state, "stand_in_action", None)
        if gentle is not None:
            chosen: str = gentle(seat, rng)
            return chosen
        try:
            chosen = await self._computer_move(record, seat, "easy")
        except (TimeoutError, WorkerCrashed):
            chosen = rng.choice(state.legal_actions(seat))
        return chosen

    async def _computer_move(self, record: GameRecord, seat: int, level: str) -> str:
        """The computer's move at ``level`` in ``record``'s position: at once when the level
        is quick, else in the pool, within the time budget (``TimeoutError`` past it,
        ``WorkerCrashed`` when its worker process died on every try).

        It is worked out from the record's saved state, not from the engine state in
        memory: that object is the one a move in flight applies to before its save
        finishes, so a second trigger of the same turn would think about a position in
        which it is no longer the computer's turn. Whether the game moved on is checked
        under the lock, by version."""
        if quick_level(get_game(record.game), level):
            return computer_move(record.game, level, agent_seed(record), record.state, seat)
        return await self.core.workers.run(computer_move, record.game, level, agent_seed(record),
                                           record.state, seat,
                                           timeout=self.core.limits.computer_move_seconds)

    async def play_ai_turn(self, place: Place) -> Reply:
        """Let the computer move if it is its turn; the agent runs in a worker thread.
        With other processes on the database, the turn is first claimed for a lease
        (``Store.claim_computer_turn``): one process plays it, and another takes it over
        when the lease lapses because this one died."""
        async def work() -> Reply:
            record, state = await self.core.current(place)
            if self.core.store.shared:  # another process may have moved it: ask the database
                record, state = await self.core.fresh(record)
            seat = ai_seat_to_move(record, state)
            if seat is None:
                return self.presenter.board_reply(place, record, state)
            if not self.core.store.shared:
                return await self._play_ai_seat(place, record, state, seat)
            lease = self.core.limits.computer_move_seconds + AI_LEASE_MARGIN_SECONDS
            if not await self.core.store.claim_computer_turn(record.id, record.version,
                                                             self.core.process_id, lease):
                # Another process plays it and shows it: nothing to draw or wait for here.
                return Reply(ok=True)
            try:
                return await self._play_ai_seat(place, record, state, seat)
            finally:
                await self.core.store.release_computer_turn(record.id, self.core.process_id)
        return await self.core.guard(place, work)

    async def _play_ai_seat(self, place: Place, record: GameRecord, state: GameState,
                            seat: int) -> Reply:
        """The computer's move for ``seat``, worked out, then saved under the game's lock
        unless the game moved on meanwhile."""
        level = str(record.players[seat]["level"])
        fallback: str | None = None
        try:
            action = await self._computer_move(record, seat, level)
        except (TimeoutError, WorkerCrashed) as error:
            log.warning("AI %s failed in game %s (%r); playing a random move",
                        level, record.id, error)
            action = random.Random(record.version).choice(state.legal_actions(seat))
            fallback = (t(place, "ai.fallback.timeout", "🎲 The computer ran out "
                          "of thinking time and played a random move.")
                        if isinstance(error, TimeoutError) else
                        t(place, "ai.fallback.crashed", "🎲 The computer's "
                          "thinking broke down, so it played a random move."))
        async with self.core.lock(record.id):
            current, state = await self.core.fresh(record)
            if current.version != record.version:
                return self.presenter.board_reply(place, current, state)
            reply = await self.core.apply(place, current, state, seat, action)
            if fallback is not None:
                reply.announcements.append(fallback)
            return reply

    async def pending_ai_places(self) -> list[GameRecord]:
        """Active games where the computer should move: resumed after a restart."""
        pending = []
        for record in await self.core.store.games_with_status("active"):
            try:
                state = await self.core.load(record)
            except StateError:
                log.exception("game %s does not load", record.id)
                continue
            if ai_seat_to_move(record, state) is not None:
                pending.append(record)
        return pending
