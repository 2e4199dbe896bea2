"""A tournament's words: its message (sign-ups, then standings and the round's boards) and
its rows for ``/export``. Only names, scores and results: nothing of any game's position,
so nothing a hidden hand holds can show."""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Iterable
from typing import Any

from bot.classroom import Classroom, TimerPolicy
from bot.store.tournament_rows import TournamentRecord
from bot.tournaments.games import bracket_of
from bot.tournaments.pairings import DRAW, FIRST_WINS, NO_RESULT, SECOND_WINS, SWISS, Bracket
from engines.registry import get_game
from renderers.i18n import translate


def points(value: float) -> str:
    """1.5 as 1½, 0.5 as ½: how a tournament table writes half points."""
    whole = math.floor(value)
    half = value - whole >= 0.5
    if not half:
        return str(whole)
    return f"{whole}½" if whole else "½"


def _format_name(language: str, format: str) -> str:
    if format == SWISS:
        return translate(language, "tournament.format_swiss", "Swiss")
    if format == "auto":
        return translate(language, "tournament.format_auto",
                         "round-robin, or Swiss above 8 players")
    return translate(language, "tournament.format_round_robin", "round-robin")


def _tiebreak_name(language: str, format: str) -> str:
    return (translate(language, "tournament.buchholz", "Buchholz") if format == SWISS else
            translate(language, "tournament.sonneborn_berger", "Sonneborn-Berger"))


def describe(record: TournamentRecord, bracket: Bracket | None) -> str:
    """One line: number, game, format and rounds, for lists and headers."""
    state = record.state
    language = str(state.get("language") or "en")
    title = get_game(str(state["game"])).TITLE
    if bracket is None:
        return translate(language, "tournament.header_signup", "🏆 Tournament #{number}: "
                         "{game} ({format})", number=record.id, game=title,
                         format=_format_name(language, str(state.get("format"))))
    one = bracket.rounds_planned == 1
    return translate(language, "tournament.header.one" if one else "tournament.header",
                     "🏆 Tournament #{number}: {game} ({format}, 1 round)" if one
                     else "🏆 Tournament #{number}: {game} ({format}, {rounds} rounds)",
                     number=record.id, game=title,
                     format=_format_name(language, bracket.format),
                     rounds=bracket.rounds_planned)


def _status_line(record: TournamentRecord, bracket: Bracket | None, language: str) -> str:
    if record.status == "signup":
        return translate(language, "tournament.status_signup",
                         "Sign up with the button below; a moderator starts the "
                         "tournament with /tournament start.")
    if record.status == "paused":
        return translate(language, "tournament.status_paused",
                         "⏸ Paused by a moderator: games being played go on; the next "
                         "round waits.")
    if record.status == "finished":
        return translate(language, "tournament.status_finished", "🏁 Final standings.")
    if record.status == "ended":
        return translate(language, "tournament.status_ended",
                         "🛑 Ended by a moderator; these standings are final.")
    played = len(bracket.rounds) if bracket else 0
    total = bracket.rounds_planned if bracket else 0
    return translate(language, "tournament.status_round", "Round {round} of {rounds}.",
                     round=played, rounds=total)


def _result_text(result: str | None, language: str) -> str:
    if result is None:
        return translate(language, "tournament.playing", "playing")
    if result == NO_RESULT:
        return translate(language, "tournament.no_result", "no result")
    return {FIRST_WINS: "1–0", SECOND_WINS: "0–1", DRAW: "½–½"}.get(result, result)


def tournament_text(record: TournamentRecord, bracket: Bracket | None) -> str:
    state = record.state
    language = str(state.get("language") or "en")
    lines = [describe(record, bracket)]
    if state.get("options"):
        lines.append(translate(language, "tournament.options", "Options: {options}",
                               options=state["options"]))
    if state.get("computer"):
        lines.append(translate(language, "tournament.computer_fills",
                               "The computer ({level}) fills an odd number of players.",
                               level=state["computer"]))
    policy = TimerPolicy.load(str(state.get("timer") or ""))
    if policy is not None:
        lines.append(Classroom.describe(language, policy))
    lines.append(_status_line(record, bracket, language))
    if bracket is None:
        names = [str(p.get("name", "?")) for p in state.get("entrants", [])]
        lines.append(translate(language, "tournament.entrants", "Signed up ({count}): "
                               "{names}", count=len(names), names=", ".join(names) or "—"))
        return "\n".join(lines)
    lines.append("")
    lines.append(translate(language, "tournament.standings", "Standings ({tiebreak} "
                           "breaks ties):", tiebreak=_tiebreak_name(language, bracket.format)))
    for standing in bracket.standings():
        lines.append(f"{standing.rank}. {standing.name} — {points(standing.score)} "
                     f"({points(standing.tiebreak)})")
    if bracket.rounds and record.status in ("running", "paused"):
        lines.append("")
        lines.append(translate(language, "tournament.round_boards", "Round {round}:",
                               round=len(bracket.rounds)))
        for board, pairing in enumerate(bracket.current_round, start=1):
            first = _name(bracket, pairing.first)
            if pairing.second is None:
                lines.append(translate(language, "tournament.bye", "Bye: {name} (1 point)",
                                       name=first))
                continue
            lines.append(f"{board}. {first} – {_name(bracket, pairing.second)}: "
                         f"{_result_text(pairing.result, language)}")
    return "\n".join(lines)


def _name(bracket: Bracket, player: int) -> str:
    return str(bracket.players[player].get("name", "?"))


def standings_rows(record: TournamentRecord, bracket: Bracket | None) -> list[tuple[Any, ...]]:
    """``/export``'s rows of one tournament: one per player, ranked."""
    if bracket is None:
        return []
    tiebreak = "buchholz" if bracket.format == SWISS else "sonneborn_berger"
    return [(record.id, record.updated_at[:10], record.state["game"], bracket.format,
             record.status, standing.rank, _spreadsheet_safe(standing.name), standing.score,
             tiebreak, standing.tiebreak, standing.wins, standing.played)
            for standing in bracket.standings()]


def _spreadsheet_safe(name: str) -> str:
    # A name starting with = + - @ would run as a formula in a spreadsheet.
    return "'" + name if name[:1] in ("=", "+", "-", "@") else name


def export_csv(records: Iterable[TournamentRecord]) -> str | None:
    """The standings of ``records`` (finished and ended tournaments), as CSV: names, no
    user ids; None when there is none."""
    rows = [row for record in records for row in standings_rows(record, bracket_of(record))]
    if not rows:
        return None
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(("tournament", "date", "game", "format", "status", "rank", "player",
                     "score", "tiebreak", "tiebreak_score", "wins", "games"))
    writer.writerows(rows)
    return buffer.getvalue()
