"""Turing Machine's rules of play: solo and multiplayer rounds, guesses, elimination,
winners. The menus (``menu.py``), view (``views.py``) and storage (``serial.py``) are
functions over ``TuringRules``; ``state.py``'s ``TuringState`` answers the engine contract
with them, and makes new games.

Specification: ``shared/rules/turing.md``. Decisions the rules leave to the engine:

* Every player acts at once. A seat's round is: ``propose 241``, then ``test B`` up to three
  times (fewer in round 1 with a handicap), then ``next`` (not ready) or ``guess 241``
  (ready, with the secret final code). ``guess`` is allowed at any point of the seat's round,
  also before any test. ``next`` is allowed at any point too, with no test and even before a
  proposal (turing.md, "A round", decided 2026-11-25): a player may wait for the others at no
  test cost, and a round without a test does not count in their score.
* When every player still in the game has ended the round, guesses are checked. A correct
  guesser with the fewest tests in total wins (ties share); otherwise wrong guessers are
  eliminated, and in a multiplayer game the last player left wins.
* A player's score is (rounds with at least one test, tests); handicap tests count. Solo,
  the player beats the machine with fewer rounds than ``par``, or equal rounds and no more
  tests.
* The machine's scores (``par`` and ``optimal``) are computed when the game is created, so
  that ``apply`` stays cheap; creating a game is CPU work that callers run off the event loop.
* The share code names the secret (``decode_puzzle`` returns the criteria), so ``view`` carries
  it only once the game is over, for daily and other games alike (turing.md, "Puzzle
  identity", decided 2026-11-25); while a game runs, ``from_code`` says whether it was started
  from a code.
* ``seat_version(seat)`` counts the seat's own actions: buttons on a player's private sheet
  stay valid while the others play, and a button from an earlier step is refused.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from engines.base import (
    JSON,
    Action,
    Event,
    GameState,
    IllegalMove,
    InvalidMove,
    Message,
    NotYourTurn,
    OptionSpec,
    Outcome,
    validate_options,
)
from engines.turing.cards import CODES, Code, code_text
from engines.turing.generator import check_settings, generate
from engines.turing.puzzle import (
    DIFFICULTIES,
    EXAMPLE_PUZZLE_CODE,
    MAX_TESTS_PER_ROUND,
    MODES,
    Candidate,
    Puzzle,
    decode_puzzle,
    puzzle_from_cards,
)

NAME = "turing"
TITLE = "Turing Machine"
MAX_PLAYERS = 6
# Bare words taken as a puzzle code, so that a mistyped one ("TM-XYZ", or "241", a solution
# typed where a code was asked for) is answered as a bad code, not as an unknown option:
# anything starting with TM, and words of letters, digits and hyphens with a digit in them.
PUZZLE_CODE_PATTERN = r"TM[^=\s]*|(?=[A-Z-]*[0-9])[0-9A-Z-]{3,60}"


def check_puzzle_code(text: str) -> None:
    """Refuse a code that does not decode, where options are parsed: a new puzzle is made
    in a worker process, and a mistyped code has no business there."""
    decode_puzzle(text)


def check_solution_code(text: str) -> None:
    parse_code(text)


OPTIONS = (
    OptionSpec("difficulty", str, "standard", "easy, standard or hard",
               choices=DIFFICULTIES),
    OptionSpec("verifiers", int, 4, "how many verifiers: 4, 5 or 6", minimum=4, maximum=6),
    OptionSpec("mode", str, "classic", "classic, extreme or nightmare", choices=MODES),
    OptionSpec("assist", bool, False,
               "show which criteria of each card are still possible (for learning)"),
    OptionSpec("handicap", int, 0,
               "tests the game's creator has already used in round 1", minimum=0, maximum=2),
    OptionSpec("puzzle", str, "", f"a puzzle code such as {EXAMPLE_PUZZLE_CODE}",
               pattern=PUZZLE_CODE_PATTERN, check=check_puzzle_code),
    OptionSpec("cards", str, "", "a booklet puzzle's cards, such as 4,9,11,14"),
    OptionSpec("code", str, "", "with cards: the booklet's solution code, such as 241",
               check=check_solution_code),
    OptionSpec("daily", str, "", "the daily challenge of a date (YYYY-MM-DD)"),
)

# Blue triangle, yellow square, purple circle: the three digits of a code, in order.
COLOUR_SYMBOLS = ("▲", "■", "●")
DIGITS = "12345"
_CODE_RE = re.compile(r"\s*([1-5])\s*[-,. ]?\s*([1-5])\s*[-,. ]?\s*([1-5])\s*")
_ACTION_RE = re.compile(r"(propose|test|guess|next)(?: (.+))?")


def parse_code(text: str) -> Code:
    match = _CODE_RE.fullmatch(text)
    if match is None:
        raise InvalidMove("turing.error.bad_code",
                          "A code is three digits from 1 to 5, such as 241; '{got}' is not.",
                          got=text.strip()[:20])
    t, s, c = (int(match.group(i)) for i in (1, 2, 3))
    return t, s, c


def _options_puzzle(options: JSON, seed: int) -> Puzzle:
    """The puzzle the options ask for: a code, booklet cards, a daily date, or a new one."""
    if options["puzzle"]:
        return decode_puzzle(str(options["puzzle"]))
    if options["daily"]:
        from engines.turing.daily import daily_puzzle, parse_date
        return daily_puzzle(parse_date(str(options["daily"])))
    if options["cards"]:
        try:
            cards = [int(part) for part in re.split(r"[\s,;]+", str(options["cards"]).strip())
                     if part]
        except ValueError:
            raise InvalidMove("turing.error.bad_cards",
                              "Give 1 to 6 different card numbers from 1 to 48, such as "
                              "4,9,11,14.") from None
        code = parse_code(str(options["code"])) if options["code"] else None
        fits = puzzle_from_cards(cards, code=code, mode=str(options["mode"]))
        if not fits:
            raise InvalidMove("turing.error.no_valid_puzzle",
                              "No valid puzzle has the cards {cards}{with_code}.",
                              cards=", ".join(map(str, cards)),
                              with_code=Message("turing.error.with_code", " and code {code}",
                                                code=options["code"]) if code else "")
        return random.Random(seed).choice(fits)
    check_settings(str(options["difficulty"]), int(options["verifiers"]), str(options["mode"]))
    return generate(str(options["difficulty"]), int(options["verifiers"]),
                    str(options["mode"]), seed)


@lru_cache(maxsize=16)
def _optimal_candidates(share_code: str) -> tuple[Candidate, ...]:
    """A puzzle's candidates, kept across loads: the service loads a fresh state for
    every click, and enumerating a 6-verifier nightmare puzzle takes a noticeable while."""
    return tuple(decode_puzzle(share_code).candidates("optimal"))


@lru_cache(maxsize=1024)
def _possible_criteria(share_code: str, results: tuple[tuple[str, str, bool], ...]
                       ) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Per letter, the criteria some candidate fitting ``results`` has (the assist view,
    drawn again on every click, on the event loop: so it is remembered)."""
    letters = decode_puzzle(share_code).letters
    tests = [(parse_code(proposal), letters.index(letter), answer)
             for proposal, letter, answer in results]
    possible: dict[str, set[str]] = {letter: set() for letter in letters}
    for candidate in _optimal_candidates(share_code):
        if all(candidate.criteria[index].accepts(code) == answer
               for code, index, answer in tests):
            for letter, chosen in zip(letters, candidate.criteria, strict=True):
                possible[letter].add(chosen.id)
    return tuple((letter, tuple(sorted(ids, key=_id_order)))
                 for letter, ids in possible.items())


def machine_scores(puzzle: Puzzle) -> JSON:
    """Both levels of the machine against this puzzle: CPU work, done once per game."""
    from engines.turing.machine import machine_score
    scores: JSON = {}
    for level in ("par", "optimal"):
        result = machine_score(puzzle, level)
        scores[level] = {"score": list(result.score), "worst": list(result.worst),
                         "proven": result.proven}
    return scores


def beats(score: Sequence[int], par: Sequence[int]) -> bool:
    """Fewer rounds, or the same rounds and no more tests (turing.md, Solo)."""
    return (score[0], score[1]) <= (par[0], par[1])


class Sheet:
    """One player's paper: every round's proposal and results, and where they stand."""

    def __init__(self, handicap: int = 0) -> None:
        self.handicap = handicap
        self.rounds: list[JSON] = []  # {"proposal": "241" | None, "tests": [["A", True]]}
        self.ended = False
        self.guess: str | None = None
        self.eliminated = False
        self.actions = 0

    @property
    def current(self) -> JSON:
        return self.rounds[-1]

    @property
    def tests_total(self) -> int:
        return self.handicap + sum(len(r["tests"]) for r in self.rounds)

    @property
    def rounds_used(self) -> int:
        used = sum(1 for r in self.rounds if r["tests"])
        if self.handicap and self.rounds and not self.rounds[0]["tests"]:
            used += 1  # the handicap's tests were used in round 1
        return used

    def tests_left(self, round_number: int) -> int:
        allowed = MAX_TESTS_PER_ROUND - (self.handicap if round_number == 1 else 0)
        return allowed - len(self.current["tests"])

    def to_dict(self) -> JSON:
        return {"handicap": self.handicap, "rounds": self.rounds, "ended": self.ended,
                "guess": self.guess, "eliminated": self.eliminated, "actions": self.actions}

    @classmethod
    def from_dict(cls, data: JSON) -> Sheet:
        sheet = cls(int(data["handicap"]))
        sheet.rounds = [{"proposal": r["proposal"],
                         "tests": [[str(letter), bool(result)] for letter, result in r["tests"]]}
                        for r in data["rounds"]]
        sheet.ended = bool(data["ended"])
        sheet.guess = data["guess"]
        sheet.eliminated = bool(data["eliminated"])
        sheet.actions = int(data["actions"])
        return sheet


class TuringRules(GameState):
    """A Turing Machine game's state and its rules of play."""

    game_name = NAME
    min_players = 1
    max_players = MAX_PLAYERS
    schema_version = 1

    def __init__(self, options: JSON, players: int, seed: int, puzzle: Puzzle,
                 machine: JSON | None) -> None:
        if not 1 <= players <= MAX_PLAYERS:
            raise InvalidMove("turing.error.player_count",
                              "Turing Machine is for 1 to {most} players.", most=MAX_PLAYERS)
        self.options = validate_options(OPTIONS, options)
        self.seed = seed
        self.puzzle = puzzle
        self.machine = machine
        self.round = 1
        self.sheets = [Sheet(int(self.options["handicap"]) if seat == 0 else 0)
                       for seat in range(players)]
        for sheet in self.sheets:
            sheet.rounds.append({"proposal": None, "tests": []})
        self.actions: list[list[Any]] = []
        self._outcome: Outcome | None = None

    # -- seats --
    @property
    def players(self) -> int:
        return len(self.sheets)

    def resize(self, players: int) -> None:
        """Seat ``players`` before anyone has acted: a lobby fills up, then starts."""
        if self.actions:
            raise IllegalMove("error.already_started", "The game has already started.")
        if not 1 <= players <= MAX_PLAYERS:
            raise InvalidMove("turing.error.player_count",
                              "Turing Machine is for 1 to {most} players.", most=MAX_PLAYERS)
        handicap = self.sheets[0].handicap
        self.sheets = [Sheet(handicap if seat == 0 else 0) for seat in range(players)]
        for sheet in self.sheets:
            sheet.rounds.append({"proposal": None, "tests": []})

    def seat_version(self, seat: int) -> int | None:
        return self.sheets[seat].actions if 0 <= seat < self.players else None

    # -- contract --
    def to_move(self) -> list[int]:
        if self._outcome is not None:
            return []
        return [seat for seat, sheet in enumerate(self.sheets)
                if not sheet.eliminated and not sheet.ended]

    def _check_seat(self, player: int) -> Sheet:
        if self._outcome is not None:
            raise IllegalMove("error.game_over", "The game is over.")
        if not 0 <= player < self.players:
            raise NotYourTurn("error.not_a_player", "You are not playing in this game.")
        sheet = self.sheets[player]
        if sheet.eliminated:
            raise NotYourTurn("turing.error.eliminated",
                              "Your guess was wrong, so you are out of this game.")
        if sheet.ended:
            raise NotYourTurn("turing.error.round_ended",
                              "You have ended this round; the others are still playing it.")
        return sheet

    def legal_actions(self, player: int) -> list[Action]:
        try:
            sheet = self._check_seat(player)
        except (IllegalMove, NotYourTurn):
            return []
        guesses = [f"guess {code_text(code)}" for code in CODES]
        if sheet.current["proposal"] is None:
            return [f"propose {code_text(code)}" for code in CODES] + ["next"] + guesses
        actions = []
        if sheet.tests_left(self.round) > 0:
            tested = {letter for letter, _ in sheet.current["tests"]}
            actions += [f"test {letter}" for letter in self.puzzle.letters
                        if letter not in tested]
        actions.append("next")
        return actions + guesses

    def stand_in_action(self, player: int, rng: random.Random) -> Action:
        """What the bot plays for a player whose turn timer ran out: it ends their round,
        which costs no test, and never guesses, since a guess would decide the game for
        someone who is not there."""
        actions = [a for a in self.legal_actions(player) if not a.startswith("guess")]
        if "next" in actions:
            return "next"
        return rng.choice(actions)

    def parse_action(self, text: str, player: int) -> Action:
        words = " ".join(text.strip().lower().split())
        if words in ("next", "pass", "end", "n"):
            action = "next"
        elif re.fullmatch(r"[a-f]", words):
            action = f"test {words.upper()}"
        elif re.fullmatch(r"[1-5]{3}", words):
            sheet = self.sheets[player] if 0 <= player < self.players else None
            verb = "propose" if sheet is None or sheet.current["proposal"] is None else "guess"
            action = f"{verb} {words}"
        else:
            match = _ACTION_RE.fullmatch(words)
            if match is None or (match.group(1) != "next") != bool(match.group(2)):
                raise InvalidMove("turing.error.bad_action",
                                  "Expected 'propose 241', 'test B', 'next' or 'guess 241'.")
            verb, argument = match.group(1), match.group(2) or ""
            if verb == "test":
                action = f"test {argument.strip().upper()}"
            elif verb == "next":
                action = "next"
            else:
                action = f"{verb} {code_text(parse_code(argument))}"
        self._check_action(player, action)
        return action

    def action_text(self, action: Action) -> str:
        # The English is the notation itself, so autocompletion offers typeable moves;
        # other languages name the move in words (a stand-in's move in announcements).
        verb, _, argument = action.partition(" ")
        if verb == "propose":
            return Message("turing.move.propose", "propose {code}", code=argument)
        if verb == "test":
            return Message("turing.move.test", "test {letter}", letter=argument)
        if verb == "next":
            return Message("turing.move.next", "next")
        if verb == "guess":
            return Message("turing.move.guess", "guess {code}", code=argument)
        return action

    def _check_action(self, player: int, action: Action) -> tuple[str, str]:
        """Refuse, with the reason, anything the seat may not do now."""
        sheet = self._check_seat(player)
        verb, _, argument = action.partition(" ")
        current = sheet.current
        if verb == "propose":
            parse_code(argument)
            if current["proposal"] is not None:
                raise IllegalMove("turing.error.already_proposed",
                                  "Your proposal for this round is {code}; it stays fixed "
                                  "until the round ends.", code=current["proposal"])
        elif verb == "test":
            if argument not in self.puzzle.letters or len(argument) != 1:
                raise InvalidMove("turing.error.bad_letter",
                                  "There is no verifier '{letter}'; this puzzle has {letters}.",
                                  letter=argument[:3], letters=", ".join(self.puzzle.letters))
            if current["proposal"] is None:
                raise IllegalMove("turing.error.propose_first",
                                  "Choose your proposal for this round before testing.")
            if sheet.tests_left(self.round) <= 0:
                raise IllegalMove("turing.error.no_tests_left",
                                  "You have used all {most} tests of this round: end the round "
                                  "or guess.",
                                  most=MAX_TESTS_PER_ROUND - (sheet.handicap
                                                              if self.round == 1 else 0))
            if any(letter == argument for letter, _ in current["tests"]):
                raise IllegalMove("turing.error.already_tested",
                                  "You have already tested {letter} with this proposal.",
                                  letter=argument)
        elif verb == "next":
            if argument:
                raise InvalidMove("turing.error.bad_action",
                                  "Expected 'propose 241', 'test B', 'next' or 'guess 241'.")
        elif verb == "guess":
            parse_code(argument)
        else:
            raise InvalidMove("turing.error.bad_action",
                              "Expected 'propose 241', 'test B', 'next' or 'guess 241'.")
        return verb, argument

    def apply(self, player: int, action: Action) -> list[Event]:
        verb, argument = self._check_action(player, action)
        sheet = self.sheets[player]
        events: list[Event] = []
        if verb == "propose":
            sheet.current["proposal"] = code_text(parse_code(argument))
            events.append({"type": "proposed", "seat": player})
        elif verb == "test":
            proposal = parse_code(sheet.current["proposal"])
            result = self.puzzle.answer(self.puzzle.letters.index(argument), proposal)
            sheet.current["tests"].append([argument, result])
            events.append({"type": "tested", "seat": player, "letter": argument})
        elif verb == "next":
            sheet.ended = True
            events.append({"type": "round_ended", "seat": player, "ready": False})
        else:
            sheet.guess = code_text(parse_code(argument))
            sheet.ended = True
            events.append({"type": "round_ended", "seat": player, "ready": True})
        sheet.actions += 1
        self.actions.append([player, action])
        if not self.to_move():
            events += self._end_round()
        return events

    def _end_round(self) -> list[Event]:
        secret = code_text(self.puzzle.code)
        guessers = [seat for seat, sheet in enumerate(self.sheets)
                    if not sheet.eliminated and sheet.guess is not None]
        right = [seat for seat in guessers if self.sheets[seat].guess == secret]
        events: list[Event] = []
        if right:
            fewest = min(self.sheets[seat].tests_total for seat in right)
            winners = tuple(seat for seat in right if self.sheets[seat].tests_total == fewest)
            self._outcome = Outcome(winners, "turing_solved", self._score_detail(winners[0]))
            return [{"type": "solved", "winners": list(winners)}]
        for seat in guessers:
            self.sheets[seat].eliminated = True
            events.append({"type": "eliminated", "seat": seat})
        remaining = [seat for seat, sheet in enumerate(self.sheets) if not sheet.eliminated]
        if not remaining:
            self._outcome = Outcome((), "turing_all_wrong", {"code": secret})
            return events
        if len(remaining) == 1 and self.players > 1:
            self._outcome = Outcome((remaining[0],), "turing_last_standing", {"code": secret})
            return events
        self.round += 1
        for seat in remaining:
            sheet = self.sheets[seat]
            sheet.ended = False
            sheet.guess = None
            sheet.rounds.append({"proposal": None, "tests": []})
        events.append({"type": "new_round", "round": self.round})
        return events

    def _score_detail(self, seat: int) -> JSON:
        sheet = self.sheets[seat]
        detail: JSON = {"code": code_text(self.puzzle.code), "rounds": sheet.rounds_used,
                        "tests": sheet.tests_total}
        if self.machine:
            par = self.machine["par"]["score"]
            detail["par_rounds"], detail["par_tests"] = par
            detail["beat_machine"] = beats((sheet.rounds_used, sheet.tests_total), par)
        return detail

    def score(self, seat: int) -> tuple[int, int]:
        sheet = self.sheets[seat]
        return sheet.rounds_used, sheet.tests_total

    def outcome(self) -> Outcome | None:
        return self._outcome

    def resign(self, player: int) -> list[Event]:
        sheet = self._check_resign(player)
        sheet.eliminated = True
        sheet.ended = True
        self.actions.append([player, "resign"])
        remaining = [s for s, other in enumerate(self.sheets) if not other.eliminated]
        secret = code_text(self.puzzle.code)
        if not remaining:
            self._outcome = Outcome((), "turing_gave_up", {"code": secret})
        elif len(remaining) == 1 and self.players > 1:
            self._outcome = Outcome((remaining[0],), "turing_last_standing", {"code": secret})
        elif not self.to_move():
            return [{"type": "resigned", "seat": player}, *self._end_round()]
        return [{"type": "resigned", "seat": player}]

    def _check_resign(self, player: int) -> Sheet:
        if self._outcome is not None:
            raise IllegalMove("error.game_over", "The game is over.")
        if not 0 <= player < self.players or self.sheets[player].eliminated:
            raise NotYourTurn("error.not_a_player", "You are not playing in this game.")
        return self.sheets[player]

    def abandon(self) -> list[Event]:
        if self._outcome is None:
            self._outcome = Outcome((), "abandoned", {"code": code_text(self.puzzle.code)})
        return [{"type": "abandoned"}]

    # -- what the views and the players read --
    def candidates(self) -> list[Candidate]:
        """The optimal-level candidate set, shared by every loaded copy of this puzzle."""
        return list(_optimal_candidates(self.puzzle.share_code()))

    def possible_criteria(self, seat: int) -> dict[str, list[str]]:
        """Per letter, the criteria still possible given the seat's own results."""
        results = tuple((r["proposal"], letter, bool(answer))
                        for r in self.sheets[seat].rounds if r["proposal"]
                        for letter, answer in r["tests"])
        return {letter: list(ids)
                for letter, ids in _possible_criteria(self.puzzle.share_code(), results)}


def _id_order(criterion_id: str) -> tuple[int, int]:
    card, index = criterion_id.split(".")
    return int(card), int(index)
