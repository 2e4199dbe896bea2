"""Digitalo puzzles: one decision of the seat to move in play, proven against every hand
the opponent could hold (``engines/cards/puzzles.py`` explains the unseen pool, the hand
classes and the measure).

Themes (the rules are ``shared/rules/digitalo.md``, with inverters, as matches start):

* ``complete``: **complete your pyramid so that it stands**. A gate of the seat fills the
  last position of its pyramid, and the round ends with it: at once when both have moved
  equally often, else after the opponent's last move. That last move may be an inverter,
  which breaks a completed pyramid whose first-row gate on the flipped bit no longer fits
  (the rule decided 2026-11-25: accepted, the round goes on). Accepted: the completions
  that score under every hand, the most points the opponent's best last move leaves (a
  gate that fills or revives one of their positions costs a point or more); refused: the
  completions some inverter breaks (the seat holds none to counter with, and there is a
  deal in which it draws none either) and everything that does not complete. No gate
  keeps its output when either input flips, so every complete pyramid has a first-row
  gate some inverter breaks: a completion facing a last move stands only when no
  inverter is left unseen, and nearly all these puzzles end the round at once. What hides
  the answer is a pending inverter, which changes what fits once it resolves. Positions
  in which the opponent could complete their own pyramid too, or in which the seat holds
  an inverter of its own when a last move is due, are not used: the counter-exchange that
  would follow is beyond one move's proof.
* ``survive``: **the play that survives every inversion**. Nobody can complete a pyramid
  next turn and the opponent may hold an inverter. Accepted: the actions after which the
  most of the seat's gates stand, valid and active, once the opponent's reply has
  resolved, whatever it is: an inverter on any bit card (or a counter of the seat's own
  inverter) if their hand holds one. A flip is counted as resolved, since countering it
  would cost the seat's next move. Set only with at most ``MOST_ACCEPTED`` answers and a
  refused action that looks at least as good on the board as it stands.
* ``break``: **the inverter that breaks theirs**. The opponent could complete their
  pyramid next move with some hand (a gate on their last position, or one that revives
  it after a flip). Accepted: the actions after which no hand lets them complete it (a
  counter costs them the move), the ones leaving the seat most gates standing after the
  worst reply among those; a refused action lets some hand complete (the proof names the
  card and the position) or costs the seat more.

Hidden cards: in Digitalo the opponent acts with the four cards they hold (they draw
after acting), so their hand is a four-card sub-multiset of the unseen pool: the deck
minus the seat's hand, both pyramids, the discard pile's top card and the inverters the
view counts on the discard pile; the gate cards under the top are unseen. A hand with
fewer inverters than the draw pile cannot take is ruled out. When a completion leaves a
last move, each hand is paired with the seat's next card too (an inverter would let it
counter). Hands are enumerated exactly, grouped by the kinds they hold. Positions come
from matches played forward from the seed (mostly a gate, inverters kept for the
ending), with 4 bit cards (the seed's game) or 5; each position is screened cheaply and
the one taken is judged over every hand class, which decides. A position is taken when
its theme has a clear answer: at least ``LEAST_LEGAL`` legal actions and fewer accepted
ones, for ``break`` only inverters (or a counter). At most ``MAX_ATTEMPTS``
matches per seed, each of at most ``MAX_PLIES`` actions.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from engines.base import JSON, Message
from engines.cards.puzzles import (
    CardAnalysis,
    CardBoard,
    ForwardPlay,
    Judged,
    Refusal,
    Reply,
    Value,
    best_of,
    card_puzzle,
    hand_classes,
    has_clear_answer,
    immediate,
    judge_answer,
    judge_or_screen,
    played_forward,
    unseen_start,
)
from engines.cards.pyramid import (
    Pyramid,
    card_label,
    fed_slots,
    fits_inputs,
    gate_gives,
    inactive_gates,
    input_values,
    open_slots,
    position_of,
    pyramid_size,
    reading,
    settle,
)
from engines.digitalo.cards import (
    GATE_CARDS,
    INVERTER,
    complete,
    deck_cards,
    position_at,
    resolve_flip,
    slot_at,
)
from engines.digitalo.notation import parse_move
from engines.digitalo.state import DigitaloState
from engines.puzzles.core import Puzzle, Verdict, generate_by_attempts

GAME = "digitalo"
THEMES = ("complete", "survive", "break")
# The tags ``tags`` may add to a puzzle's theme.
TAGS = ("pending-flip", "counter", "last-move", "only-move")
# A match played forward for a puzzle stops after this many actions (a round lasts about
# 16); the first position that may be taken is drawn below ``EARLIEST``.
MAX_PLIES = 120
EARLIEST = 12
# A survive puzzle names at most this many accepted actions, which keep at least this many
# gates standing.
MOST_ACCEPTED = 3
LEAST_STANDING = 2
# Fewer legal actions than this make a guess, not a puzzle.
LEAST_LEGAL = 3
# The share of turns the forward matches spend on a gate, and the share of the others in
# which an inverter may be played or thrown away.
BUILD_SHARE = 0.8
INVERTER_SHARE = 0.15
NEEDS_INVERTER = frozenset({INVERTER})


def next_card_label(kind: str) -> str:
    """What matters of the seat's next card: whether it is an inverter."""
    return INVERTER if kind == INVERTER else "gate"


class Board(CardBoard):
    """The public position: seat 0's bit row, both pyramids, the pending flip (seat 0's
    bit, the seat that played it)."""

    def resolve(self, pyramids: list[Pyramid], bits: list[int], card: int) -> None:
        resolve_flip(pyramids, bits, self.n, card)


@dataclass(frozen=True)
class Analysis(CardAnalysis[Board]):
    completions: tuple[str, ...]  # the legal actions that complete the seat's pyramid
    last_move: bool  # whether a completion leaves the opponent a last move
    hand: tuple[str, ...]


def standing(pyramid: Pyramid, n: int) -> int:
    """Gates that stand: placed and active."""
    return len(pyramid) - len(inactive_gates(pyramid, n))


def points(pyramid: Pyramid, n: int) -> int:
    """What a completer scores against ``pyramid``: its empty and inactive positions."""
    return pyramid_size(n) - standing(pyramid, n)


def placed(pyramid: Pyramid, row: list[int], n: int, slot: tuple[int, int],
           card: str) -> Pyramid:
    """``pyramid`` with ``card`` on ``slot`` and the gates above judged again."""
    result = dict(pyramid)
    result[slot] = card
    settle(result, row, n, fed_slots(n, slot), inactive=True, judge=fits_inputs)
    return result


def seen_board(view: JSON) -> Board:
    n = int(view["bits"])
    pyramids = tuple({slot_at(n, int(g["position"])): str(g["card"]) for g in p}
                     for p in view["pyramids"])
    pending = view["pending"]
    return Board(n, tuple(view["bit_row"]), (pyramids[0], pyramids[1]),
                 None if pending is None else (int(pending["bit"]), int(pending["by"])))


def unseen_pool(view: JSON) -> dict[str, int]:
    """The deck minus the seat's hand, both pyramids, the discard pile's top card and
    the inverters counted on the discard pile."""
    pool = unseen_start(deck_cards(view["options"]), view)
    top = view["discard_top"]
    pool -= Counter({INVERTER: view["inverters_seen"] - (top == INVERTER)})
    return dict(sorted(pool.items()))


def after_action(board: Board, seat: int, action: str,
                 moves: list[int]) -> tuple[Board, str]:
    """The position after ``seat``'s ``action``, and whether it completed the seat's
    pyramid: "ends" (the round ends at once), "last" (the opponent has a last move) or
    ""."""
    n, move = board.n, parse_move(action)
    if move.kind == "counter":
        assert board.pending is not None
        bits = list(board.bits)
        bits[board.pending[0] - 1] ^= 1
        return Board(n, tuple(bits), board.pyramids, None), ""
    resolved = board.resolved()
    if move.kind == "inverter":
        return resolved.flipped(position_of(n, seat, move.pos), seat), ""
    if move.kind != "gate":
        return resolved, ""
    pyramids = list(resolved.pyramids)
    slot = slot_at(n, move.pos)
    pyramids[seat] = placed(pyramids[seat], reading(list(resolved.bits), seat), n, slot,
                            move.card)
    after = Board(n, resolved.bits, (pyramids[0], pyramids[1]), None)
    if not complete(pyramids[seat], n):
        return after, ""
    return after, "ends" if moves[1 - seat] >= moves[seat] + 1 else "last"


def placements(board: Board, seat: int) -> list[tuple[str, int, Pyramid]]:
    """Every gate ``seat`` could place on ``board`` (no flip pending): card, position and
    the pyramid it leaves."""
    n, pyramid = board.n, board.pyramids[seat]
    row = reading(list(board.bits), seat)
    found = []
    for slot in open_slots(pyramid, n):
        a, b = input_values(pyramid, row, slot)
        assert a is not None and b is not None
        found += [(card, position_at(n, slot), placed(pyramid, row, n, slot, card))
                  for card in GATE_CARDS if gate_gives(card, a, b)]
    return found


def after_flip(board: Board, bit: int) -> Board:
    """``board`` (no flip pending) once a flip of seat 0's ``bit`` has resolved."""
    return board.flipped(bit, 0).resolved()


def replies(board: Board, seat: int) -> tuple[list[Reply], Value]:
    """The opponent's answers in play to the position ``seat``'s action left, with their
    values for ``seat``, and the quiet value."""
    n, opp = board.n, 1 - seat
    found: list[Reply] = []
    if board.pending is not None:  # the seat's own inverter: the opponent may counter it
        bit = board.pending[0]
        found.append(Reply("counter", (0, 1, standing(board.pyramids[seat], n)),
                           NEEDS_INVERTER, kind="counter", at=str(position_of(n, seat, bit))))
    resolved = board.resolved()
    mine = standing(resolved.pyramids[seat], n)
    quiet: Value = (0, 1, mine)
    found.append(Reply("", quiet))
    for card, position, theirs in placements(resolved, opp):
        if complete(theirs, n):
            found.append(Reply(f"{card} {position}", (0, 0, mine), frozenset({card}),
                               kind="complete", at=str(position)))
    for bit in range(1, n + 1):
        if board.pending is not None and bit == board.pending[0]:
            continue  # an inverter there is the counter
        flipped = after_flip(resolved, bit)
        found.append(Reply(f"{INVERTER} {position_of(n, opp, bit)}",
                           (0, 1, standing(flipped.pyramids[seat], n)), NEEDS_INVERTER,
                           kind="flip", at=str(position_of(n, seat, bit))))
    return found, quiet


def last_move_replies(board: Board, seat: int) -> tuple[list[Reply], Value]:
    """The opponent's last move after ``seat`` completed its pyramid, with the points it
    leaves ``seat``: a gate of theirs (a completion of their own draws the round), a
    discard, or an inverter; one that breaks the seat's pyramid makes the round go on
    (0 points), unless the seat's next card is an inverter to counter with."""
    n, opp, full = board.n, 1 - seat, pyramid_size(board.n)
    quiet: Value = (points(board.pyramids[opp], n), 1, full)
    found = [Reply("", quiet)]
    for card, position, theirs in placements(board, opp):
        value: Value = (0, 0, full) if complete(theirs, n) else (points(theirs, n), 1, full)
        found.append(Reply(f"{card} {position}", value, frozenset({card}),
                           kind="complete" if value[1] == 0 else "place", at=str(position)))
    for bit in range(1, n + 1):
        flipped = after_flip(board, bit)
        if complete(flipped.pyramids[seat], n):
            value = (points(flipped.pyramids[opp], n), 1, full)
            found.append(Reply(f"{INVERTER} {position_of(n, opp, bit)}", value,
                               NEEDS_INVERTER, kind="flip", at=str(position_of(n, seat, bit))))
        else:
            found.append(Reply(f"{INVERTER} {position_of(n, opp, bit)}",
                               (0, 1, standing(flipped.pyramids[seat], n)), NEEDS_INVERTER,
                               unless_drawn=INVERTER, kind="flip",
                               at=str(position_of(n, seat, bit))))
    return found, quiet


def analyse_view(view: JSON, legal: list[str], exact: bool = True) -> Analysis:
    """Judge every legal action of ``view``'s seat from that view alone (``exact`` off:
    only their worth, to screen a position)."""
    seat, board = int(view["seat"]), seen_board(view)
    n, opp, moves = board.n, 1 - seat, list(view["moves"])
    pool = unseen_pool(view)
    outcomes = {action: after_action(board, seat, action, moves) for action in legal}
    completions = tuple(a for a, (_, done) in outcomes.items() if done)
    last_move = any(done == "last" for _, done in outcomes.values())
    hands = None
    if exact:
        draw = int(view["draw_pile"])
        # The inverters left unseen lie in the opponent's hand or the draw pile, which
        # has one place fewer when the seat's next card is taken from it.
        room = draw - 1 if last_move else draw
        least = {INVERTER: max(0, pool.get(INVERTER, 0) - room)}
        hands = hand_classes(pool, int(view["hand_sizes"][opp]), least,
                             next_card_label if last_move else None)
    judged: list[Judged] = []
    seen: dict[tuple[object, ...], Judged] = {}
    for action in legal:
        after, done = outcomes[action]
        if done == "ends":
            judged.append(immediate(action, (points(after.pyramids[opp], n), 1,
                                             pyramid_size(n)), hands))
            continue
        key = (done, *after.key())
        known = seen.get(key)
        if known is None:
            answers, quiet = (last_move_replies(after, seat) if done
                              else replies(after, seat))
            known = seen[key] = judge_or_screen(action, answers, hands, pool, quiet)
        judged.append(known.renamed(action))
    best, accepted, refused = best_of(judged)
    return Analysis(seat, board, tuple(legal), pool, hands, tuple(judged), best,
                    tuple(accepted), tuple(refused), completions, last_move,
                    tuple(view["hand"]))


def analyse(state: DigitaloState, seat: int, exact: bool = True) -> Analysis:
    """``analyse_view`` of ``seat``'s view: nothing hidden from the seat is read."""
    return analyse_view(state.view(seat), state.legal_actions(seat), exact)


# --- themes ---------------------------------------------------------------------------------


def theme_of(analysis: Analysis) -> str | None:
    """The theme whose measure decides the answer, or None; the threat to complete is
    judged after the quiet actions (a gate, a discard), as in bOOleO."""
    best = analysis.best
    if analysis.completions:
        # A completion facing a last move while the seat holds an inverter leads to a
        # counter-exchange beyond the proof; one the opponent could match draws the round.
        hand_inverter = any(a.startswith(INVERTER) or a == "counter" for a in analysis.legal)
        if (analysis.last_move and hand_inverter) or best[0] == 0:
            return None
        return "complete"
    if best[1] == 0:
        return None
    kinds = ("gate", "discard")
    quiet = [j for j in analysis.judged if parse_move(j.action).kind in kinds]
    if any(j.worth[1] == 0 for j in quiet):
        return "break"
    return "survive"


def decoys(analysis: Analysis, theme: str) -> list[str]:
    """What looks right but is refused: for ``complete`` the completions an inverter
    breaks and the cards that fit the last position before a pending inverter resolves;
    for ``break`` the other inverters; for
    ``survive`` the refused actions that keep at least as many gates on the board as it
    stands."""
    refused = analysis.refused
    if theme == "complete":
        broken = [j.action for j in refused if j.action in analysis.completions]
        return broken + _drawn_fits(analysis)
    if theme == "break":
        return [j.action for j in refused if parse_move(j.action).kind == "inverter"]
    least = min(j.quiet for j in analysis.accepted)
    return [j.action for j in refused if j.quiet >= least]


def _drawn_fits(analysis: Analysis) -> list[str]:
    """The seat's other gate cards that fit its last empty position as the board shows
    it, before a pending inverter resolves: they look right, and do not fit."""
    board, seat = analysis.board, analysis.seat
    if board.pending is None:
        return []
    n, pyramid = board.n, board.pyramids[seat]
    row = reading(list(board.bits), seat)
    fitting = {parse_move(j.action).card for j in analysis.accepted}
    found = set()
    for slot in open_slots(pyramid, n):
        if len(pyramid) != pyramid_size(n) - 1:
            break
        a, b = input_values(pyramid, row, slot)
        assert a is not None and b is not None
        found |= {card for card in analysis.hand
                  if card != INVERTER and card not in fitting and gate_gives(card, a, b)}
    return sorted(found)


def suitable(analysis: Analysis, theme: str) -> bool:
    accepted = analysis.accepted
    if theme_of(analysis) != theme or not has_clear_answer(analysis, LEAST_LEGAL):
        return False
    if theme == "survive":
        return (analysis.pool.get(INVERTER, 0) > 0 and len(accepted) <= MOST_ACCEPTED
                and analysis.best[2] >= LEAST_STANDING and bool(decoys(analysis, theme)))
    if theme == "break":
        return all(parse_move(j.action).kind in ("inverter", "counter") for j in accepted)
    return True


def tags(analysis: Analysis, theme: str) -> tuple[str, ...]:
    found = [theme]
    if analysis.board.pending is not None:
        found.append("pending-flip")
    actions = [j.action for j in analysis.accepted]
    if "counter" in actions:
        found.append("counter")
    if theme == "complete" and analysis.last_move:
        found.append("last-move")
    if len(actions) == 1:
        found.append("only-move")
    return tuple(found)


# --- generation -----------------------------------------------------------------------------


def candidate(state: DigitaloState, seat: int, theme: str) -> bool:
    """A cheap look at public facts before any analysis."""
    if state.phase != "play" or len(state.draw) < 2 or state.outcome() is not None:
        return False
    pyramids, _ = state.resolved_pyramids()
    full = state.size
    mine, theirs = pyramids[seat], pyramids[1 - seat]
    if theme == "complete":
        # A completion facing a last move stands only if no inverter is unseen.
        last_move = state.moves[1 - seat] <= state.moves[seat]
        unseen = (int(state.options["inverter_cards"]) - state.discard.count(INVERTER)
                  - state.hands[seat].count(INVERTER)) if state.options["inverters"] else 0
        return len(mine) == full - 1 and not (last_move and unseen > 0) and any(
            parse_move(a).kind == "gate" for a in state.legal_actions(seat))
    if theme == "break":
        return INVERTER in state.hands[seat] and len(theirs) >= full - 1 > len(mine)
    return (bool(state.options["inverters"]) and 2 <= len(mine) <= full - 2
            and len(theirs) <= full - 2)


def forward_action(state: DigitaloState, seat: int, rng: random.Random) -> str:
    """How the matches behind the puzzles are played: mostly a gate, inverters seldom
    (kept for the ending, which makes ``break`` positions), else any legal action."""
    legal = state.legal_actions(seat)
    builds = [a for a in legal if a[0] != "I" and not a.startswith(("discard", "counter",
                                                                     "accept"))]
    if builds and rng.random() < BUILD_SHARE:
        return rng.choice(builds)
    keeping = [a for a in legal if INVERTER not in a and a != "counter"]
    if keeping and rng.random() >= INVERTER_SHARE:
        return rng.choice(keeping)
    return rng.choice(legal)


def make_puzzle(seed: int, theme: str, state: DigitaloState, analysis: Analysis) -> Puzzle:
    return card_puzzle(GAME, seed, theme, state, analysis, tags(analysis, theme),
                       decoys(analysis, theme), {"completions": list(analysis.completions),
                                                 "last_move": analysis.last_move})


FORWARD = ForwardPlay(EARLIEST, MAX_PLIES, candidate, analyse, suitable, make_puzzle,
                      forward_action)


def _attempt(seed: int, theme: str, rng: random.Random) -> Puzzle | None:
    state = DigitaloState({"bits": rng.choice((4, 4, 5))}, rng.getrandbits(31))
    return played_forward(FORWARD, seed, theme, state, rng)


# --- verdicts -------------------------------------------------------------------------------


def reply_text(entry: JSON) -> Message:
    """The opponent's reply of a proof entry, in the solver's words."""
    kind, at = entry.get("reply_kind", ""), entry.get("reply_at", "")
    if kind == "counter":
        return Message("puzzle.digitalo.reply.counter", "a counter of your inverter")
    if kind == "flip":
        return Message("puzzle.digitalo.reply.flip", "an inverter on your bit card {card}",
                       card=at)
    if kind in ("complete", "place"):
        card = str(entry["reply"]).split()[0]
        return Message("puzzle.digitalo.reply.place", "{card} on their position {position}",
                       card=card_label(card), position=at)
    return Message("puzzle.digitalo.reply.quiet", "any reply")


class DigitaloPuzzles:
    """Digitalo's puzzle generator (``GENERATOR``)."""

    game = GAME
    code_prefix = "DG"
    themes = THEMES
    tags = TAGS
    version = 1

    def generate(self, seed: int, theme: str | None = None) -> Puzzle:
        return generate_by_attempts(GAME, THEMES, seed, theme, _attempt)

    def judge(self, puzzle: Puzzle, action: str) -> Verdict:
        proof = puzzle.proof
        best = proof["best"]

        def right(move: str) -> Message:
            if puzzle.theme == "complete":
                return Message("puzzle.digitalo.complete.right",
                               "{move} completes your pyramid, and nothing they hold can "
                               "break it: a score of at least {points}.", move=move,
                               points=best[0])
            if puzzle.theme == "break":
                return Message("puzzle.digitalo.break.right",
                               "{move} breaks theirs: with none of the {hands} hands they "
                               "could hold can they complete their pyramid next move.",
                               move=move, hands=proof["hands"])
            return Message("puzzle.digitalo.survive.right",
                           "{move} keeps {gates} of your gates active whatever they invert: "
                           "checked against all {hands} hands they could hold.",
                           move=move, gates=best[2], hands=proof["hands"])

        def wrong(refused: Refusal) -> tuple[Message, tuple[str, ...]]:
            move, answer, reply, line = refused.move, refused.answer, refused.reply, refused.line
            canonical, entry, value = refused.canonical, refused.entry, refused.value
            completes = canonical in proof.get("completions", ())
            if puzzle.theme == "complete" and completes and entry.get("reply_kind") == "flip":
                return Message("puzzle.digitalo.complete.broken",
                               "After {move}, {reply} on their last move would break your "
                               "pyramid and the round would go on; {answer} stands.",
                               move=move, reply=reply_text(entry), answer=answer), line
            if puzzle.theme == "complete":
                return Message("puzzle.digitalo.complete.wrong",
                               "{move} does not complete your pyramid so that it stands; "
                               "{answer} does.", move=move, answer=answer), (canonical,)
            if puzzle.theme == "break" and value[1] == 0:
                return Message("puzzle.digitalo.break.wrong",
                               "After {move} they could still complete their pyramid: "
                               "{reply}. {answer} stops them.", move=move,
                               reply=reply_text(entry), answer=answer), line
            if puzzle.theme == "break":
                return Message("puzzle.digitalo.break.costly",
                               "{move} stops them too, but after {reply} you keep only "
                               "{gates} of your gates active; with {answer} you keep {best}.",
                               move=move, reply=reply_text(entry), gates=value[2],
                               answer=answer, best=best[2]), line
            if not reply:
                return Message("puzzle.digitalo.survive.fewer",
                               "{move} leaves you {gates} active gates even if they invert "
                               "nothing; {answer} keeps {best} whatever they invert.", move=move,
                               gates=value[2], answer=answer, best=best[2]), line
            return Message("puzzle.digitalo.survive.wrong",
                           "After {move}, {reply} would leave you {gates} active gates; "
                           "{answer} keeps {best}.", move=move, reply=reply_text(entry),
                           gates=value[2], answer=answer, best=best[2]), line

        return judge_answer(puzzle, action, right, wrong)


GENERATOR = DigitaloPuzzles()
