"""A tournament's games as the bracket sees them: the mark a game carries in its stored
options (``tournament=<id>/<round>/<board>``, which ``bot.hints`` refuses hints for and the
service a rematch), its result from the first seat's side, and the bracket a stored
tournament holds."""

from __future__ import annotations

from dataclasses import dataclass

from bot.store import GameRecord
from bot.store.tournament_rows import TournamentRecord
from bot.tournaments.pairings import DRAW, FIRST_WINS, NO_RESULT, SECOND_WINS, Bracket
from engines.base import GameState
from engines.registry import get_game

MARK = "tournament"  # the stored option of a tournament's games (``bot.hints``)


@dataclass(frozen=True)
class GameMark:
    tournament: int
    round: int
    board: int

    def dump(self) -> str:
        return f"{self.tournament}/{self.round}/{self.board}"

    @classmethod
    def of(cls, record: GameRecord) -> GameMark | None:
        try:
            tournament, round_, board = str(record.options.get(MARK) or "").split("/")
            return cls(int(tournament), int(round_), int(board))
        except ValueError:
            return None


def bracket_of(record: TournamentRecord) -> Bracket | None:
    data = record.state.get("bracket")
    return Bracket.from_dict(data) if isinstance(data, dict) else None


def game_result(record: GameRecord, state: GameState | None = None) -> str | None:
    """A tournament result of an ended game, from its first seat's side: None while it
    runs; no result for an abandoned one (everyone ran out of time, or it was stopped)."""
    if record.running:
        return None
    if record.status != "finished":
        return NO_RESULT
    if state is None:
        state = get_game(record.game).State.from_dict(record.state)
    outcome = state.outcome()
    if outcome is None or outcome.is_draw or set(outcome.winners) == {0, 1}:
        return DRAW
    return FIRST_WINS if 0 in outcome.winners else SECOND_WINS
