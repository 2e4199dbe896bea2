"""Turing Machine as chat text: the public board, a player's notes sheet and the results.

Renderers see only ``state.view(viewer)`` (``engines/turing/state.py``). The public board
reads only public fields (cards, proposals, letters tested, who has ended the round), so it
prints the same text whichever view it is handed. Test results appear only on the private
notes sheet, marked ✅/❌ (emoji) or ``=yes``/``=no`` (plain); the solution appears only once
the view carries an outcome.

Colours: the blue triangle, the yellow square and the purple circle are 🔷 🟨 🟣 in emoji
(there is no blue triangle emoji, and 🔷 reads as blue at a glance) and ▲ ■ ● in plain text.
Criteria labels come from ``engines.turing.cards`` with ``{t}``, ``{s}``, ``{c}`` for the
colours; each can be translated under ``turing.criterion.<id>`` with the same placeholders.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engines.turing.cards import CARDS, CRITERIA
from renderers.common import render_outcome, seat_name
from renderers.i18n import translate

View = dict[str, Any]

COLOURS = ("t", "s", "c")
EMOJI_COLOURS = {"t": "🔷", "s": "🟨", "c": "🟣"}
TEXT_COLOURS = {"t": "▲", "s": "■", "c": "●"}
# A test result on the private sheet. Public text never contains these.
EMOJI_RESULTS = {True: "✅", False: "❌"}
# A final guess in the results: deliberately not the test-result marks above.
EMOJI_GUESS = {True: "🎯", False: "✖️"}
CARD_SEPARATOR = " · "
NO_BREAK = "\u00a0"  # a space a line never breaks at
LABEL_SEPARATOR = " | "

RULES = """Turing Machine (Y. Levet and F. Gridel): a deduction game for 1 to 6 players.
The secret code is three digits from 1 to 5, one per colour: blue triangle ▲, yellow \
square ■, purple circle ● (in that order, so 241 means ▲2 ■4 ●1).
A puzzle has 4 to 6 verifiers, A to F. Each shows a criteria card, such as "■ < 4 | ■ = 4 \
| ■ > 4", and secretly checks exactly one criterion of it. Exactly one code passes all the \
secret criteria, and no verifier is superfluous.
Everyone plays each round at the same time, privately on their notes sheet:
1. Propose a code; it stays fixed for the round.
2. Test it on up to 3 verifiers, one at a time: each answers ✅ (your proposal meets its \
criterion) or ❌. You may choose the next verifier after seeing an answer.
3. End the round, or guess the code when you are ready.
Proposals and the letters tested are public; the answers are yours alone.
When everyone has ended the round, guesses are revealed. The correct guesser with the fewest \
tests in total wins (ties share). Wrong guessers are out; the last player left wins.
Modes: classic (one card per verifier), extreme (two cards per verifier, only one counts), \
nightmare (the cards are shown, but not which verifier has which card).
Solo, you play against the machine's par: beat it with fewer rounds, or the same rounds \
and no more tests. After the game you also see what the machine took with its best plan.
The buttons make typing unnecessary. Typed: 'propose 241', 'test B', 'next' (end the \
round), 'guess 241'."""


# -- small pieces --------------------------------------------------------------------------

def _symbols(emoji: bool) -> dict[str, str]:
    return dict(EMOJI_COLOURS if emoji else TEXT_COLOURS)


def _plural(language: str, key: str, count: int, one: str, other: str) -> str:
    if count == 1:
        return translate(language, f"{key}.one", one, n=count)
    return translate(language, f"{key}.other", other, n=count)


def rounds_text(language: str, count: int) -> str:
    """``1 round``, ``3 rounds``: a count of rounds in words."""
    return _plural(language, "turing.rounds", count, "{n} round", "{n} rounds")


def tests_text(language: str, count: int) -> str:
    return _plural(language, "turing.tests", count, "{n} test", "{n} tests")


def score_text(language: str, score: Sequence[int]) -> str:
    """A Turing score, rounds then tests: ``2 rounds, 1 test``."""
    return translate(language, "turing.score", "{rounds}, {tests}",
                     rounds=rounds_text(language, int(score[0])),
                     tests=tests_text(language, int(score[1])))


def _names(names: Sequence[str], seats: Sequence[int], language: str) -> str:
    people = [seat_name(names, int(seat)) for seat in seats]
    if len(people) <= 1:
        return "".join(people)
    return translate(language, "turing.and", "{first} and {last}",
                     first=", ".join(people[:-1]), last=people[-1])


def criterion_text(criterion_id: str, emoji: bool, language: str = "en") -> str:
    """A criterion's label with the colour symbols filled in, such as ``■ < 4``."""
    found = CRITERIA.get(criterion_id)
    if found is None:
        return criterion_id
    return translate(language, f"turing.criterion.{criterion_id}", found.label,
                     **_symbols(emoji))


def card_text(card: int, emoji: bool, language: str = "en") -> str:
    """Every criterion printed on ``card``, such as ``■ < 4 | ■ = 4 | ■ > 4``."""
    criteria = CARDS.get(card, ())
    return LABEL_SEPARATOR.join(criterion_text(c.id, emoji, language) for c in criteria)


def code_symbols(code: str, emoji: bool) -> str:
    """A code with its colours: ``▲2 ■4 ●1`` for 241."""
    symbols = _symbols(emoji)
    return " ".join(f"{symbols[colour]}{digit}" for colour, digit in zip(COLOURS, code,
                                                                          strict=False))


def result_mark(letter: str, result: bool, language: str, emoji: bool) -> str:
    """One test on the private sheet: ``B ✅``, or in words ``B=yes`` (``B=ja``)."""
    if emoji:
        return f"{letter} {EMOJI_RESULTS[result]}"
    return translate(language, "turing.result.yes" if result else "turing.result.no",
                     "{letter}=yes" if result else "{letter}=no", letter=letter)


def _title(view: View, language: str, emoji: bool) -> str:
    parts = [translate(language, "turing.title", "Turing Machine")]
    parts.append(translate(language, f"turing.mode.{view['mode']}", str(view["mode"])))
    parts.append(translate(language, f"turing.difficulty.{view['difficulty']}",
                           str(view["difficulty"])))
    parts.append(translate(language, "turing.round", "round {n}", n=view["round"]))
    if view.get("daily"):
        parts.append(translate(language, "turing.daily", "Daily challenge {date}",
                               date=view["daily"]))
    elif view.get("share_code"):  # the engine gives it only once the game is over
        parts.append(str(view["share_code"]))
    elif view.get("from_code"):
        parts.append(translate(language, "turing.from_code", "from a shared code"))
    return ("🧩 " if emoji else "") + " · ".join(parts)


def _verifier_lines(view: View, language: str, emoji: bool, compact: bool) -> list[str]:
    """One line per verifier, or in nightmare the cards without letters and a note."""
    verifiers = view["verifiers"]
    if view["mode"] == "nightmare" or any(cards is None for cards in verifiers):
        lines = [translate(language, "turing.nightmare_note",
                           "Verifiers {letters}: which one checks which card is hidden.",
                           letters=" ".join(view["letters"]))]
        lines += [f"• {card}: {card_text(int(card), emoji, language)}"
                  for card in view["shown_cards"]]
        return lines
    word = "" if compact else translate(language, "turing.card", "card") + NO_BREAK
    lines = []
    for letter, cards in zip(view["letters"], verifiers, strict=True):
        shown = CARD_SEPARATOR.join(
            f"{word}{card}: {unbroken_card_text(int(card), emoji, language)}" for card in cards)
        lines.append(f"{letter} · {shown}")
    return lines


def unbroken_card_text(card: int, emoji: bool, language: str) -> str:
    """``card_text`` whose criteria a narrow screen may put on separate lines but never
    breaks inside: "#3 = 3" split after "=" left a lone "3" on a phone (issue 23). The
    spaces inside a criterion are no-break spaces; those around the separators are not."""
    return LABEL_SEPARATOR.join(criterion_text(c.id, emoji, language).replace(" ", NO_BREAK)
                                for c in CARDS.get(card, ()))


# -- the public board ----------------------------------------------------------------------

def _player_line(view: View, names: Sequence[str], language: str, emoji: bool,
                 seat: int) -> str:
    """A player's public progress this round: proposal, letters tested, done or out."""
    player = view["players"][seat]
    name = seat_name(names, seat)
    if player["eliminated"]:
        out = translate(language, "turing.player.out", "out")
        return f"{name}: {'🚫 ' if emoji else ''}{out}"
    current = player["history"][-1] if player["history"] else {"proposal": None, "tested": []}
    parts = []
    if current["proposal"]:
        parts.append(str(current["proposal"]))
        if current["tested"]:
            parts.append(translate(language, "turing.player.tested", "tested {letters}",
                                   letters=" ".join(current["tested"])))
        else:
            parts.append(translate(language, "turing.player.no_tests", "no test yet"))
    elif not player["ended"]:
        parts.append(translate(language, "turing.player.no_proposal", "no proposal yet"))
    if player["ended"]:
        parts.append(("🏁 " if emoji else "")
                     + translate(language, "turing.player.done", "round ended"))
    parts.append(translate(language, "turing.player.total", "{tests} in all",
                           tests=tests_text(language, int(player["tests"]))))
    return f"{name}: " + " · ".join(parts)


def render_status(view: View, names: Sequence[str], language: str, emoji: bool) -> str:
    """Each player's public progress, or the outcome sentence once the game is over."""
    if view.get("outcome"):
        return _outcome_sentence(view, names, language, emoji)
    return "\n".join(_player_line(view, names, language, emoji, seat)
                     for seat in range(len(view["players"])))


def render(view: View, names: Sequence[str], language: str, emoji: bool) -> str:
    """The public board: the verifiers and everyone's progress, or once the game is over
    the outcome, the solution with each verifier's secret criterion, and the scores."""
    lines = [_title(view, language, emoji)]
    if view.get("outcome"):
        lines += _end_lines(view, names, language, emoji)
    else:
        if view.get("par"):
            lines.append(("🤖 " if emoji else "")
                         + translate(language, "turing.par_to_beat",
                                     "The machine's par: {par}. Beat it with fewer rounds, "
                                     "or as many rounds and no more tests.",
                                     par=score_text(language, view["par"])))
        lines += _verifier_lines(view, language, emoji, compact=False)
        lines.append(render_status(view, names, language, emoji))
    return "\n".join(lines)


# -- the end -------------------------------------------------------------------------------

def _outcome_sentence(view: View, names: Sequence[str], language: str, emoji: bool) -> str:
    outcome = view["outcome"]
    reason = str(outcome["reason"])
    detail = dict(outcome.get("detail") or {})
    winners = [int(w) for w in outcome.get("winners") or []]
    code = str(detail.get("code") or (view.get("solution") or {}).get("code") or "?")
    prefix = "🏁 " if emoji else ""
    if reason == "turing_solved" and len(winners) > 1:
        text = translate(language, "turing.outcome.solved_shared",
                         "{names} cracked the code {code} and share the win with {tests} "
                         "each.", names=_names(names, winners, language), code=code,
                         tests=tests_text(language, int(detail.get("tests", 0))))
    elif reason == "turing_solved":
        text = translate(language, "turing.outcome.solved",
                         "{names} cracked the code {code} in {rounds} and {tests}.",
                         names=_names(names, winners, language), code=code,
                         rounds=rounds_text(language, int(detail.get("rounds", 0))),
                         tests=tests_text(language, int(detail.get("tests", 0))))
    elif reason == "turing_all_wrong":
        text = translate(language, "turing.outcome.all_wrong",
                         "Every guess was wrong: nobody cracked the code {code}.", code=code)
    elif reason == "turing_last_standing":
        text = translate(language, "turing.outcome.last_standing",
                         "{names} wins as the last player still in the game; the code was "
                         "{code}.", names=_names(names, winners, language), code=code)
    elif reason == "turing_gave_up":
        text = translate(language, "turing.outcome.gave_up",
                         "Nobody is left in the game; the code was {code}.", code=code)
    elif reason == "abandoned":
        text = translate(language, "turing.outcome.abandoned",
                         "The game was abandoned; the code was {code}.", code=code)
    else:
        text = render_outcome(outcome, names, language)
    return prefix + text


def _end_lines(view: View, names: Sequence[str], language: str, emoji: bool) -> list[str]:
    lines = [_outcome_sentence(view, names, language, emoji)]
    lines += _solution_lines(view, language, emoji)
    results = render_results(view, names, language, emoji)
    return [*lines, results] if results else lines


def _solution_lines(view: View, language: str, emoji: bool) -> list[str]:
    """The code and each verifier's secret criterion (with the decoy card in extreme)."""
    solution = view.get("solution")
    if not solution:
        return []
    code = str(solution["code"])
    lines = [("🔓 " if emoji else "")
             + translate(language, "turing.solution", "Solution: {code} ({colours})",
                         code=code, colours=code_symbols(code, emoji))]
    word = translate(language, "turing.card", "card")
    for letter, secret, cards in zip(view["letters"], solution["criteria"],
                                     solution["verifiers"], strict=False):
        card = int(str(secret).split(".")[0])
        line = f"{letter} · {word} {card}: {criterion_text(str(secret), emoji, language)}"
        decoys = [int(other) for other in cards if int(other) != card]
        if decoys:
            line += " · " + translate(language, "turing.decoy", "decoy {cards}",
                                      cards=", ".join(map(str, decoys)))
        lines.append(line)
    return lines


def render_results(view: View, names: Sequence[str], language: str, emoji: bool) -> str:
    """Each player's guess and score against the machine's par and optimal scores.

    Empty while the game is running: scores and the machine are only in a finished view.
    """
    scores = view.get("scores")
    if not view.get("outcome") or scores is None:
        return ""
    outcome = view["outcome"]
    winners = {int(w) for w in outcome.get("winners") or []}
    code = str((view.get("solution") or {}).get("code", ""))
    guesses = view.get("guesses") or [None] * len(scores)
    lines = []
    for seat, score in enumerate(scores):
        player = view["players"][seat] if seat < len(view["players"]) else {}
        guess = guesses[seat] if seat < len(guesses) else None
        if guess:
            right = guess == code
            if emoji:
                verdict = f"{guess} {EMOJI_GUESS[right]}"
            else:
                verdict = translate(language, f"turing.guess.{'right' if right else 'wrong'}",
                                    "{code} (right)" if right else "{code} (wrong)",
                                    code=guess)
        elif player.get("eliminated"):
            verdict = translate(language, "turing.guess.gave_up", "gave up")
        else:
            verdict = translate(language, "turing.guess.none", "no guess")
        trophy = ("🏆 " if emoji else "* ") if seat in winners else ""
        lines.append(f"{trophy}{seat_name(names, seat)}: {verdict} · "
                     f"{score_text(language, score)}")
    machine = view.get("machine") or {}
    par = (machine.get("par") or {}).get("score")
    optimal = (machine.get("optimal") or {}).get("score")
    if par and optimal:
        # Old games stored no "proven"; their scores came from a complete search. A plan
        # the search did not prove is only the best found: players have beaten one.
        proven = (machine.get("optimal") or {}).get("proven") is not False
        if proven:
            said = translate(language, "turing.machine",
                             "The machine's par was {par}; with its best possible plan it "
                             "took {optimal}.", par=score_text(language, par),
                             optimal=score_text(language, optimal))
        else:
            said = translate(language, "turing.machine_found",
                             "The machine's par was {par}; with the best plan it found it "
                             "took {optimal}.", par=score_text(language, par),
                             optimal=score_text(language, optimal))
        lines.append(("🤖 " if emoji else "") + said)
        if not proven:
            lines.append(translate(language, "turing.machine_unproven",
                                   "(This puzzle was too large to search completely: a "
                                   "better plan may exist.)"))
        elif (machine.get("par") or {}).get("proven") is False:
            lines.append(translate(language, "turing.par_unproven",
                                   "(The machine's par comes from the best plan it found: "
                                   "at its level the puzzle was too large to search "
                                   "completely.)"))
    if len(scores) == 1 and par:
        solved = outcome["reason"] == "turing_solved" and 0 in winners
        mine = (int(scores[0][0]), int(scores[0][1]))
        if solved and mine <= (int(par[0]), int(par[1])):
            lines.append(("🎉 " if emoji else "")
                         + translate(language, "turing.beat_machine", "You beat the machine!"))
        else:
            lines.append(translate(language, "turing.machine_wins",
                                   "The machine wins this one."))
    return "\n".join(lines)


# -- the private notes sheet ---------------------------------------------------------------

def _possible_line(view: View, letter: str, ids: Sequence[str], language: str,
                   emoji: bool) -> str:
    """The criteria a letter may still check, grouped by card; ``any`` for a whole card."""
    by_card: dict[int, list[str]] = {}
    for criterion_id in ids:
        by_card.setdefault(int(str(criterion_id).split(".")[0]), []).append(str(criterion_id))
    anything = translate(language, "turing.possible.any", "any")
    groups = []
    for card, card_ids in by_card.items():
        options = {c.id for c in CARDS.get(card, ()) if c.secret_ok}
        labels = (anything if set(card_ids) == options and len(options) > 1
                  else LABEL_SEPARATOR.join(criterion_text(i, emoji, language)
                                            for i in card_ids))
        groups.append(labels if view["mode"] == "classic" else f"{card}: {labels}")
    return f"{letter}: " + (CARD_SEPARATOR.join(groups) if groups else "—")


def _round_line(number: int, entry: Any, language: str, emoji: bool) -> str:
    marks = " ".join(result_mark(str(letter), bool(result), language, emoji)
                     for letter, result in entry["tests"])
    text = translate(language, "turing.sheet.round", "Round {n} · {code}", n=number,
                     code=entry["proposal"])
    return f"{text} · {marks}" if marks else text


def render_private(view: View, names: Sequence[str], language: str, emoji: bool) -> str:
    """One player's notes sheet: the verifiers, their own proposals and answers, what is
    left to do this round and (with the assist option) what each verifier may still check.
    """
    if "sheet" not in view or view.get("me") is None:
        return render(view, names, language, emoji)
    seat = int(view["me"])
    me = view["players"][seat]
    over = bool(view.get("outcome"))
    lines = [("🔒 " if emoji else "")
             + translate(language, "turing.sheet.title", "Your notes: {name}",
                         name=seat_name(names, seat)),
             _title(view, language, emoji)]
    lines += _verifier_lines(view, language, emoji, compact=True)
    if view.get("handicap"):
        lines.append(translate(language, "turing.sheet.handicap",
                               "Handicap: {tests} already used in round 1.",
                               tests=tests_text(language, int(view["handicap"]))))
    sheet = view["sheet"]
    for number, entry in enumerate(sheet, start=1):
        if entry["proposal"]:
            lines.append(_round_line(number, entry, language, emoji))
    current = sheet[-1] if sheet else {"proposal": None, "tests": []}
    guess = view.get("my_guess")
    if over:
        pass
    elif me["eliminated"]:
        lines.append(translate(language, "turing.sheet.out",
                               "You are out of this game; the others play on."))
    elif me["ended"] and guess:
        lines.append(translate(language, "turing.sheet.guessed",
                               "Your guess: {code}. It is revealed when everyone has ended "
                               "the round.", code=guess))
    elif me["ended"]:
        lines.append(translate(language, "turing.sheet.waiting",
                               "You have ended round {n}; waiting for the others.",
                               n=view["round"]))
    elif not current["proposal"]:
        lines.append(translate(language, "turing.sheet.propose",
                               "Round {n}: tap your proposal's first two digits (▲ then ■), "
                               "then the third; or guess the code.",
                               n=view["round"]))
    else:
        lines.append(translate(language, "turing.sheet.tests_left",
                               "Tests left this round: {left}. Then end the round, or "
                               "guess the code.", left=int(view.get("tests_left", 0))))
    possible = view.get("possible")
    if possible and not over:
        lines.append(translate(language, "turing.sheet.possible", "Still possible:"))
        lines += [_possible_line(view, letter, ids, language, emoji)
                  for letter, ids in possible.items()]
    if over:
        lines += _end_lines(view, names, language, emoji)
    return "\n".join(lines)
