"""A tournament's bracket, pure: who plays whom each round, the results, the standings.

Players are numbered by sign-up (0 first); the bracket knows their player entries (the
service's ``human_player`` / ``ai_player`` dicts) only to carry them and read names.

* Round-robin pairs by the circle method: player 0 stays, the others turn one place a
  round, so over ``n - 1`` rounds (``n`` with an odd number, one sitting out each round)
  every pair meets exactly once.
* Swiss ranks by score, then tie-break, then sign-up order, and pairs the best-ranked
  unpaired player with the nearest-ranked one not yet met (so within a score group when
  it can), searching back when a choice leaves the rest without an unmet pairing. With an
  odd number the lowest-ranked player without a bye sits out; a player gets a second bye
  only once everyone has had one. A rematch is played only when no pairing avoids it.
* A bye scores a full point; a game ended without result (everyone ran out of time, a
  moderator abandoned it) scores nothing for either.
* Tie-breaks: Buchholz (the sum of the opponents' scores) for Swiss, Sonneborn-Berger
  (each opponent's score times the points taken from them) for round-robin; then wins,
  then sign-up order, so the order is total and the same on every run.

Everything is plain data with ``to_dict`` / ``from_dict``, stored as a tournament's JSON.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

SWISS = "swiss"
ROUND_ROBIN = "round_robin"
FORMATS = (ROUND_ROBIN, SWISS)
# Above this many players a round-robin takes too many rounds for a class; Swiss is the
# default there (the moderator may still choose either).
ROUND_ROBIN_MAX_DEFAULT = 8

# Results, always from the point of view of the pairing's first player (who moves first).
FIRST_WINS, SECOND_WINS, DRAW, NO_RESULT, BYE = "1-0", "0-1", "draw", "0-0", "bye"
RESULTS = (FIRST_WINS, SECOND_WINS, DRAW, NO_RESULT, BYE)
_POINTS: dict[str, tuple[float, float]] = {
    FIRST_WINS: (1.0, 0.0), SECOND_WINS: (0.0, 1.0), DRAW: (0.5, 0.5),
    NO_RESULT: (0.0, 0.0), BYE: (1.0, 0.0)}
# Steps a Swiss search may take before it settles for a pairing with rematches; far more
# than a class-sized field needs, and a bound on a pathological one.
SEARCH_BUDGET = 50_000


class BracketError(ValueError):
    """A bracket that cannot be built or loaded (bad JSON, an impossible request)."""


@dataclass
class Pairing:
    """One board of a round. ``second`` is None for a bye; ``result`` is None while the
    game is played; ``game_id`` is the game once it was started."""

    first: int
    second: int | None
    result: str | None = None
    game_id: int | None = None

    @property
    def is_bye(self) -> bool:
        return self.second is None

    def points(self, player: int) -> float:
        if self.result is None:
            return 0.0
        first, second = _POINTS[self.result]
        return first if player == self.first else second

    def opponent(self, player: int) -> int | None:
        return self.second if player == self.first else self.first

    def to_dict(self) -> dict[str, Any]:
        return {"first": self.first, "second": self.second, "result": self.result,
                "game_id": self.game_id}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Pairing:
        result = data.get("result")
        if result is not None and result not in RESULTS:
            raise BracketError(f"unknown result {result!r}")
        second = data.get("second")
        game_id = data.get("game_id")
        return cls(int(data["first"]), None if second is None else int(second), result,
                   None if game_id is None else int(game_id))


@dataclass(frozen=True)
class Standing:
    rank: int  # shared by players equal on score and tie-break
    player: int
    name: str
    score: float
    tiebreak: float
    wins: int
    played: int  # games with a result, byes not counted


@dataclass
class Bracket:
    format: str
    rounds_planned: int
    players: list[dict[str, Any]]
    rounds: list[list[Pairing]] = field(default_factory=list)

    # ------------------------------------------------------------ building
    @classmethod
    def start(cls, format: str, players: list[dict[str, Any]],
              rounds: int | None = None) -> Bracket:
        """A bracket for ``players`` (two or more) with its planned number of rounds:
        round-robin's full cycle, or for Swiss ``rounds`` (default ``ceil(log2 n)``,
        enough to separate a single winner), never more than a round-robin would take."""
        if format not in FORMATS:
            raise BracketError(f"unknown format {format!r}")
        if len(players) < 2:
            raise BracketError("a tournament needs two players")
        cycle = round_robin_rounds(len(players))
        if format == ROUND_ROBIN:
            planned = cycle
        else:
            planned = rounds if rounds else max(1, math.ceil(math.log2(len(players))))
            planned = max(1, min(planned, cycle))
        return cls(format, planned, [dict(p) for p in players])

    def pair_next_round(self) -> list[Pairing]:
        """Pair the next round and add it (byes already scored); raises when the last
        round is not complete or every planned round was played."""
        if self.rounds and not self.round_complete():
            raise BracketError("the current round is still being played")
        if len(self.rounds) >= self.rounds_planned:
            raise BracketError("every round has been played")
        index = len(self.rounds)
        if self.format == ROUND_ROBIN:
            pairs = round_robin_round(len(self.players), index)
        else:
            pairs = swiss_pairs(self.ranking(), self.met(), self.byes())
        place = {player: position for position, player in enumerate(self.ranking())}
        round_ = [self._seated(a, b, index) for a, b in pairs]
        # Boards in ranking order, the bye last: board 1 is the top game.
        round_.sort(key=lambda p: (p.is_bye, min(place[seat] for seat in (p.first, p.second)
                                                 if seat is not None)))
        self.rounds.append(round_)
        return round_

    def _seated(self, a: int, b: int | None, index: int) -> Pairing:
        """Who moves first: whoever has done so less often; on equal counts, alternately
        the better and the worse ranked, by round."""
        if b is None:
            return Pairing(a, None, BYE)
        firsts = self.first_moves()
        if firsts[a] != firsts[b]:
            return Pairing(a, b) if firsts[a] < firsts[b] else Pairing(b, a)
        return Pairing(a, b) if index % 2 == 0 else Pairing(b, a)

    def record(self, round_index: int, board: int, result: str) -> bool:
        """Set a board's result; False when it already had one (a result is final, so a
        repeated game end or a second process changes nothing)."""
        if result not in RESULTS or result == BYE:
            raise BracketError(f"not a game result: {result!r}")
        pairing = self.rounds[round_index][board]
        if pairing.result is not None:
            return False
        pairing.result = result
        return True

    # -------------------------------------------------------------- reading
    @property
    def current_round(self) -> list[Pairing]:
        return self.rounds[-1] if self.rounds else []

    def round_complete(self) -> bool:
        return all(p.result is not None for p in self.current_round)

    def finished(self) -> bool:
        return len(self.rounds) >= self.rounds_planned and self.round_complete()

    def find_game(self, game_id: int) -> tuple[int, int] | None:
        """The (round, board) of a started game."""
        for round_index, round_ in enumerate(self.rounds):
            for board, pairing in enumerate(round_):
                if pairing.game_id == game_id:
                    return round_index, board
        return None

    def pairings(self) -> Iterable[Pairing]:
        for round_ in self.rounds:
            yield from round_

    def scores(self) -> list[float]:
        scores = [0.0] * len(self.players)
        for pairing in self.pairings():
            scores[pairing.first] += pairing.points(pairing.first)
            if pairing.second is not None:
                scores[pairing.second] += pairing.points(pairing.second)
        return scores

    def met(self) -> set[frozenset[int]]:
        return {frozenset((p.first, p.second)) for p in self.pairings()
                if p.second is not None}

    def byes(self) -> list[int]:
        return [p.first for p in self.pairings() if p.second is None]

    def first_moves(self) -> list[int]:
        counts = [0] * len(self.players)
        for pairing in self.pairings():
            if pairing.second is not None:
                counts[pairing.first] += 1
        return counts

    def tiebreaks(self) -> list[float]:
        """Buchholz for Swiss, Sonneborn-Berger for round-robin (byes add nothing)."""
        scores = self.scores()
        breaks = [0.0] * len(self.players)
        for pairing in self.pairings():
            if pairing.second is None or pairing.result is None:
                continue
            for player in (pairing.first, pairing.second):
                opponent = pairing.opponent(player)
                assert opponent is not None
                weight = 1.0 if self.format == SWISS else pairing.points(player)
                breaks[player] += scores[opponent] * weight
        return breaks

    def standings(self) -> list[Standing]:
        scores, breaks = self.scores(), self.tiebreaks()
        wins = [0] * len(self.players)
        played = [0] * len(self.players)
        for pairing in self.pairings():
            if pairing.second is None or pairing.result is None:
                continue
            for player in (pairing.first, pairing.second):
                played[player] += 1
                wins[player] += pairing.points(player) == 1.0
        order = sorted(range(len(self.players)),
                       key=lambda i: (-scores[i], -breaks[i], -wins[i], i))
        table: list[Standing] = []
        for position, player in enumerate(order):
            rank = position + 1
            if table and (table[-1].score, table[-1].tiebreak) == (scores[player],
                                                                   breaks[player]):
                rank = table[-1].rank
            table.append(Standing(rank, player, str(self.players[player].get("name", "?")),
                                  scores[player], breaks[player], wins[player],
                                  played[player]))
        return table

    def ranking(self) -> list[int]:
        """Players best first, as the standings order them."""
        return [standing.player for standing in self.standings()]

    # ----------------------------------------------------------------- JSON
    def to_dict(self) -> dict[str, Any]:
        return {"format": self.format, "rounds_planned": self.rounds_planned,
                "players": [dict(p) for p in self.players],
                "rounds": [[p.to_dict() for p in round_] for round_ in self.rounds]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Bracket:
        try:
            bracket = cls(str(data["format"]), int(data["rounds_planned"]),
                          [dict(p) for p in data["players"]],
                          [[Pairing.from_dict(p) for p in round_] for round_ in data["rounds"]])
        except (KeyError, TypeError, ValueError) as error:
            raise BracketError(f"not a bracket: {error}") from error
        count = len(bracket.players)
        if bracket.format not in FORMATS or any(
                not 0 <= p.first < count or (p.second is not None and not 0 <= p.second < count)
                for p in bracket.pairings()):
            raise BracketError("a bracket names players it does not have")
        return bracket


def round_robin_rounds(count: int) -> int:
    return count - 1 if count % 2 == 0 else count


def round_robin_round(count: int, index: int) -> list[tuple[int, int | None]]:
    """Round ``index`` of the circle method: seats around a table of an even size (an odd
    field gets an empty seat, whose neighbour has the bye); seat 0 stays, the others turn
    one place each round."""
    seats: list[int | None] = list(range(count)) + ([None] if count % 2 else [])
    size = len(seats)
    turning = seats[1:]
    shift = index % (size - 1)
    turned = turning[-shift:] + turning[:-shift] if shift else turning
    table = [seats[0], *turned]
    pairs: list[tuple[int, int | None]] = []
    for i in range(size // 2):
        a, b = table[i], table[size - 1 - i]
        if a is None:
            a, b = b, a
        assert a is not None
        pairs.append((a, b))
    return pairs


def swiss_pairs(ranking: list[int], met: set[frozenset[int]], byes: list[int]
                ) -> list[tuple[int, int | None]]:
    """A Swiss round for players in ``ranking`` order (best first): the bye (with an odd
    number) to the lowest-ranked player who has had none, and pairs of players who have not
    met. Another player takes the bye only when the lowest one's taking it would force a
    rematch; a rematch is paired only when no bye choice avoids it."""
    if len(ranking) % 2 == 0:
        paired = _pair_all(ranking, met, rematches=0)
        if paired is None:
            paired = _fewest_rematches(ranking, met)
        return list(paired)
    had_bye = set(byes)
    fresh = [p for p in reversed(ranking) if p not in had_bye]
    candidates = fresh or list(reversed(ranking))
    for bye in candidates:
        rest = [p for p in ranking if p != bye]
        paired = _pair_all(rest, met, rematches=0)
        if paired is not None:
            return [*paired, (bye, None)]
    bye = candidates[0]
    rest = [p for p in ranking if p != bye]
    return [*_fewest_rematches(rest, met), (bye, None)]


def _fewest_rematches(ranking: list[int], met: set[frozenset[int]]
                      ) -> list[tuple[int, int | None]]:
    for allowed in range(1, len(ranking) // 2 + 1):
        paired = _pair_all(ranking, met, rematches=allowed)
        if paired is not None:
            return paired
    # Past the search budget: neighbours in the ranking, rematches or not.
    return [(ranking[i], ranking[i + 1]) for i in range(0, len(ranking) - 1, 2)]


def _pair_all(ranking: list[int], met: set[frozenset[int]], rematches: int
              ) -> list[tuple[int, int | None]] | None:
    """Pairs for all of ``ranking`` (an even number) with at most ``rematches`` repeated
    pairings: the best unpaired player takes the nearest-ranked partner that lets the rest
    be paired too (depth first). None when there is none within the budget."""
    budget = [SEARCH_BUDGET]

    def search(left: list[int], allowed: int) -> list[tuple[int, int | None]] | None:
        if not left:
            return []
        budget[0] -= 1
        if budget[0] < 0:
            return None
        top, others = left[0], left[1:]
        for i, partner in enumerate(others):
            again = frozenset((top, partner)) in met
            if again and allowed == 0:
                continue
            rest = search(others[:i] + others[i + 1:], allowed - again)
            if rest is not None:
                return [(top, partner), *rest]
        return None

    return search(list(ranking), rematches)
