"""bOOleO puzzles: one decision of the seat to move, proven against every hand the
opponent could hold (``engines/cards/puzzles.py`` explains the unseen pool, the hand
classes and the measure).

Themes (the rules are ``shared/rules/booleo.md``, with the referee on, as games start):

* ``complete``: **complete your pyramid**. The seat can win this turn: a gate that fills
  the last slot of its pyramid, valid, the top gate giving its slot bit, once a pending
  flip has resolved (the referee judges the resolved position). Accepted: every action
  that wins at once; a win leaves the opponent no reply, so it holds under every hand.
  Refused: everything else, a cancel of the pending flip and a gate elsewhere included;
  none of them wins this turn.
* ``survive``: **the play that survives every flip**. Nobody can complete a pyramid next
  turn, and the opponent may hold a NOT. Accepted: the actions after which the most of
  the seat's gates still stand once the opponent's reply has resolved, whatever it is: a
  NOT on any start card (or a cancel of the seat's own NOT) if their hand
  holds one, anything else if not. A flip the opponent makes is counted as resolved: the
  seat's own cancel would cost its next turn, so the puzzle asks for a pyramid that needs
  none. Each refused action loses more under at least one hand and flip, which the proof
  names; the puzzle is only set when some refused action looks at least as good as the
  answer on the board as it stands (it fails only to a flip).
* ``break``: **the NOT that breaks theirs**. The opponent could complete their pyramid
  next turn with some hand; the seat holds a NOT. Accepted: the actions after which no
  hand lets them complete it next turn (their cancel of the flip costs them that turn),
  and among those the ones that leave the seat the most gates standing after the worst
  reply; a refused action either lets some hand complete (the proof names the card and
  the slot) or costs the seat more.

Hidden cards: the opponent acts with their four cards and the one they draw first, so
their hand is any five-card sub-multiset of the unseen pool (the deck minus the seat's
hand, both pyramids, the NOTs under the start cards and the discard pile's top card): the
discards under the top count as unseen, as ``view`` shows only the top. All of them are
enumerated (at most a few hundred multisets of the seven card kinds), grouped by the
kinds they hold. Positions come from games played forward from the seed
(``forward_action``: mostly a gate on an empty slot, NOTs kept for the ending), on the
standard row of 6 start cards or the short game's 5; each position is first screened
cheaply (the worst case of every action needs only which kinds the pool holds), and the
one taken is judged again over every hand class, which decides. It is taken when the
theme has a clear answer: at least ``LEAST_LEGAL`` legal actions and fewer accepted ones,
for ``break`` only NOTs, for ``survive`` at most ``MOST_ACCEPTED`` and a refused action
that looks as good. Each seed tries at most ``MAX_ATTEMPTS`` games, each of at most
``MAX_PLIES`` actions.
"""

from __future__ import annotations

import random
from collections import Counter

from engines.base import JSON, Message
from engines.booleo.cards import (
    BASIC_GATES,
    COPIES,
    EXTENDED_GATES,
    NOT_CARD,
    complete_and_valid,
    deck_cards,
    flip_dirty,
    gate_fits,
    parse_slot_name,
    resolve_flip,
    settle,
    slot_name,
)
from engines.booleo.notation import parse_move
from engines.booleo.state import BooleoState
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
    blocked_input,
    card_label,
    fed_slots,
    gate_gives,
    input_values,
    output_of,
    position_of,
    pyramid_size,
    pyramid_slots,
    reading,
)
from engines.puzzles.core import Puzzle, Verdict, generate_by_attempts

GAME = "booleo"
THEMES = ("complete", "survive", "break")
# The tags ``tags`` may add to a puzzle's theme.
TAGS = ("pending-flip", "cancel", "replace", "slot-bit", "only-move")
# A game played forward for a puzzle stops after this many actions (games last about 50).
MAX_PLIES = 160
# The first action at which a position may be taken is drawn below this, so that seeds
# differ in how far into the game their puzzle lies.
EARLIEST = 24
# The share of turns the forward games spend building when a gate fits an empty slot,
# and the share of the others in which a NOT may be played or thrown away.
BUILD_SHARE = 0.8
NOT_SHARE = 0.15
# A survive puzzle names at most this many accepted actions: more, and it has no clear
# answer.
MOST_ACCEPTED = 3
# ... and keeps at least this many gates standing: fewer is too slight a stake.
LEAST_STANDING = 2
# Fewer legal actions than this make a guess, not a puzzle.
LEAST_LEGAL = 3


class Board(CardBoard):
    """The public position: South's reading of the start row, both pyramids, and the
    pending flip (South's card, the seat that played it)."""

    def resolve(self, pyramids: list[Pyramid], bits: list[int], card: int) -> None:
        resolve_flip(pyramids, bits, self.n, card, False)


Analysis = CardAnalysis[Board]


def seen_board(view: JSON) -> Board:
    pyramids = tuple({parse_slot_name(g["slot"]): str(g["card"]) for g in p}
                     for p in view["pyramids"])
    pending = view["pending"]
    return Board(int(view["bits"]), tuple(view["start_row"]), (pyramids[0], pyramids[1]),
                 None if pending is None else (int(pending["card"]), int(pending["by"])))


def unseen_pool(view: JSON) -> dict[str, int]:
    """The cards ``view``'s seat cannot see, by kind: the deck minus its hand, both
    pyramids, the NOTs under the start cards and the discard pile's top card."""
    pool = unseen_start(deck_cards(bool(view["options"]["extended"])), view)
    pool -= Counter({NOT_CARD: sum(view["not_counts"][0])})
    seat = int(view["seat"])
    hidden = view["hand_sizes"][1 - seat] + view["draw_pile"] + max(0, view["discard_pile"] - 1)
    assert sum(pool.values()) == hidden, "the unseen cards are the hidden places' cards"
    return dict(sorted(pool.items()))


def after_action(board: Board, seat: int, action: str) -> tuple[Board, bool]:
    """The position after ``seat``'s ``action`` (a pending flip resolved first unless the
    action cancels it), and whether it wins the game."""
    n, move = board.n, parse_move(action)
    if move.kind == "not" and board.pending is not None \
            and position_of(n, seat, board.pending[0]) == move.pos:
        bits = list(board.bits)
        bits[board.pending[0] - 1] ^= 1
        return Board(n, tuple(bits), board.pyramids, None), False
    resolved = board.resolved()
    if move.kind == "not":
        return resolved.flipped(position_of(n, seat, move.pos), seat), False
    if move.kind != "gate":
        return resolved, False
    pyramids = [dict(p) for p in resolved.pyramids]
    mine, row = pyramids[seat], reading(list(resolved.bits), seat)
    old = mine.get(move.slot)
    mine[move.slot] = move.card
    if old is None or output_of(old) != output_of(move.card):
        settle(mine, row, n, fed_slots(n, move.slot), False)
    after = Board(n, resolved.bits, (pyramids[0], pyramids[1]), None)
    return after, complete_and_valid(mine, row, n)


def completing_cards(board: Board, seat: int, kinds: tuple[str, ...]) -> list[tuple[str, str]]:
    """The (card, slot) placements that complete ``seat``'s pyramid on ``board`` (no flip
    pending): its one empty slot, both inputs present, the card fitting them and, on top,
    the slot bit."""
    n, pyramid = board.n, board.pyramids[seat]
    empty = [slot for slot in pyramid_slots(n) if slot not in pyramid]
    if len(empty) != 1 or blocked_input(pyramid, empty[0], set()) is not None:
        return []
    slot, row = empty[0], reading(list(board.bits), seat)
    a, b = input_values(pyramid, row, slot)
    assert a is not None and b is not None
    return [(card, slot_name(slot)) for card in kinds
            if gate_fits(card, a, b, slot == (n - 1, 1), row[-1])]


def standing_after_flip(board: Board, seat: int, card: int) -> int:
    """``seat``'s gates left once a flip of South's ``card`` has resolved (``board`` has
    no flip pending)."""
    bits = list(board.bits)
    bits[card - 1] ^= 1
    pyramid = dict(board.pyramids[seat])
    settle(pyramid, reading(bits, seat), board.n, flip_dirty(board.n, seat, card), False)
    return len(pyramid)


def replies(board: Board, seat: int, kinds: tuple[str, ...]) -> tuple[list[Reply], Value]:
    """The opponent's answers to the position ``board`` that ``seat``'s action left, with
    their values for ``seat``, and the quiet value (no flip, no completion)."""
    n, opp = board.n, 1 - seat
    found: list[Reply] = []
    needs_not = frozenset({NOT_CARD})
    if board.pending is not None:  # the seat's own flip: the opponent may cancel it
        flipped = board.pending[0]
        found.append(Reply(f"NOT {position_of(n, opp, flipped)}",
                           (0, 1, len(board.pyramids[seat])), needs_not, kind="cancel",
                           at=str(position_of(n, seat, flipped))))
    resolved = board.resolved()
    standing = len(resolved.pyramids[seat])
    quiet: Value = (0, 1, standing)
    found.append(Reply("", quiet))
    for gate, slot in completing_cards(resolved, opp, kinds):
        found.append(Reply(f"{gate} {slot}", (0, 0, standing), frozenset({gate}),
                           kind="complete", at=slot))
    for card in range(1, n + 1):
        if board.pending is not None and card == board.pending[0]:
            continue  # a NOT there is the cancel
        found.append(Reply(f"NOT {position_of(n, opp, card)}",
                           (0, 1, standing_after_flip(resolved, seat, card)), needs_not,
                           kind="flip", at=str(position_of(n, seat, card))))
    return found, quiet


def analyse_view(view: JSON, legal: list[str], exact: bool = True) -> Analysis:
    """Judge every legal action of ``view``'s seat from that view alone: over every hand
    class, or with ``exact`` off only their worth, to screen a position quickly."""
    seat, board = int(view["seat"]), seen_board(view)
    extended = bool(view["options"]["extended"])
    kinds = tuple(f"{g}{o}" for g in BASIC_GATES + (EXTENDED_GATES if extended else ())
                  for o in (0, 1))
    pool = unseen_pool(view)
    # The opponent draws before acting, so they act with one card more than they hold.
    size = view["hand_sizes"][1 - seat] + (1 if view["draw_pile"] else 0)
    hands = hand_classes(pool, size) if exact else None
    full = pyramid_size(board.n)
    judged: list[Judged] = []
    seen: dict[tuple[object, ...], Judged] = {}
    for action in legal:
        after, won = after_action(board, seat, action)
        if won:
            judged.append(immediate(action, (1, 1, full), hands))
            continue
        known = seen.get(after.key())
        if known is None:
            answers, quiet = replies(after, seat, kinds)
            known = seen[after.key()] = judge_or_screen(action, answers, hands, pool, quiet)
        judged.append(known.renamed(action))
    best, accepted, refused = best_of(judged)
    return Analysis(seat, board, tuple(legal), pool, hands, tuple(judged), best,
                    tuple(accepted), tuple(refused))


def analyse(state: BooleoState, seat: int, exact: bool = True) -> Analysis:
    """``analyse_view`` of ``seat``'s view: nothing hidden from the seat is read."""
    return analyse_view(state.view(seat), state.legal_actions(seat), exact)


# --- themes ---------------------------------------------------------------------------------


def theme_of(analysis: Analysis) -> str | None:
    """The theme whose measure decides ``analysis``'s answer, or None. The opponent's
    threat to complete is judged after the quiet actions (a gate or a discard, which do
    not touch their pyramid); a threat only a NOT of the seat's own would create is a
    trap of a ``survive`` puzzle, not a ``break``."""
    best = analysis.best
    if best[0] > 0:
        return "complete"
    if best[1] == 0:
        return None  # nothing stops them: no clear answer
    quiet = [j for j in analysis.judged if parse_move(j.action).kind != "not"]
    if any(j.worth[1] == 0 for j in quiet):
        return "break"
    return "survive"


def decoys(analysis: Analysis, theme: str) -> list[str]:
    """What looks right but is refused: for ``complete`` the seat's other gate cards that
    fit the last slot's inputs as the board shows them (before a pending flip resolves)
    or as they will be but give the wrong bit on top; for ``break`` the other NOTs; for
    ``survive`` the refused actions that keep at least as many gates as an answer on the
    board as it stands."""
    refused = analysis.refused
    if theme == "complete":
        return _complete_decoys(analysis)
    if theme == "break":
        return [j.action for j in refused if parse_move(j.action).kind == "not"]
    least = min(j.quiet for j in analysis.accepted)
    return [j.action for j in refused if j.quiet >= least]


def _complete_decoys(analysis: Analysis) -> list[str]:
    board, seat = analysis.board, analysis.seat
    n, winners = board.n, {parse_move(j.action).card for j in analysis.accepted}
    hand = sorted({parse_move(a).card for a in analysis.legal
                   if parse_move(a).kind == "discard"} - winners - {NOT_CARD})
    found = []
    for shown in (board, board.resolved()):
        pyramid, row = shown.pyramids[seat], reading(list(shown.bits), seat)
        empty = [slot for slot in pyramid_slots(n) if slot not in pyramid]
        if len(empty) != 1 or blocked_input(pyramid, empty[0], set()) is not None:
            continue
        a, b = input_values(pyramid, row, empty[0])
        assert a is not None and b is not None
        found += [card for card in hand if gate_gives(card, a, b)]
    return sorted(set(found))


def suitable(analysis: Analysis, theme: str) -> bool:
    accepted = analysis.accepted
    if theme_of(analysis) != theme or not has_clear_answer(analysis, LEAST_LEGAL):
        return False
    if theme == "survive":
        flips = analysis.pool.get(NOT_CARD, 0) > 0
        return (flips and len(accepted) <= MOST_ACCEPTED
                and analysis.best[2] >= LEAST_STANDING and bool(decoys(analysis, theme)))
    if theme == "break":
        return all(parse_move(j.action).kind == "not" for j in accepted)
    return True


def tags(analysis: Analysis, theme: str) -> tuple[str, ...]:
    """The theme and what else the answer turns on: a pending flip, a cancel, a replace,
    a slot bit, a single answer."""
    found = [theme]
    board, seat = analysis.board, analysis.seat
    moves = [parse_move(j.action) for j in analysis.accepted]
    if board.pending is not None:
        found.append("pending-flip")
    pending_pos = None if board.pending is None else position_of(board.n, seat,
                                                                  board.pending[0])
    if any(m.kind == "not" and m.pos == pending_pos for m in moves):
        found.append("cancel")
    if any(m.kind == "gate" and m.slot in board.resolved().pyramids[seat] for m in moves):
        found.append("replace")
    top = (board.n - 1, 1)
    if any((m.kind == "gate" and m.slot == top) or (m.kind == "not" and m.pos in (1, board.n))
           for m in moves):
        found.append("slot-bit")
    if len(analysis.accepted) == 1:
        found.append("only-move")
    return tuple(found)


# --- generation -----------------------------------------------------------------------------


def candidate(state: BooleoState, seat: int, theme: str) -> bool:
    """A cheap look at public facts before the full analysis: can the theme arise here?"""
    if state.phase != "play" or not state.draw or state.outcome() is not None:
        return False
    pyramids, _ = state.resolved_pyramids()
    full = pyramid_size(state.n)
    mine, theirs = len(pyramids[seat]), len(pyramids[1 - seat])
    if theme == "complete":
        return mine == full - 1 and _fits_last(state, seat, pyramids[seat])
    if theme == "break":
        return NOT_CARD in state.hands[seat] and theirs >= full - 1 > mine
    unseen_nots = COPIES - sum(state.nots) - state.hands[seat].count(NOT_CARD)
    return unseen_nots > 0 and 3 <= mine <= full - 2 and theirs <= full - 2


def forward_action(state: BooleoState, seat: int, rng: random.Random) -> str:
    """How the games behind the puzzles are played: mostly a gate on an empty slot of
    one's own pyramid (a beginner's plan, which fills pyramids so that the endings the
    themes need arise), otherwise any legal action, a NOT seldom: players who keep their
    NOTs for the ending make the ``break`` positions. Cheaper than the computer players,
    whose planning near an ending would cost more than the puzzle."""
    legal = state.legal_actions(seat)
    mine = state.resolved_pyramids()[0][seat]
    builds = [a for a in legal if "." in a and parse_slot_name(a.split()[1]) not in mine]
    if builds and rng.random() < BUILD_SHARE:
        return rng.choice(builds)
    keeping = [a for a in legal if NOT_CARD not in a]
    if keeping and rng.random() >= NOT_SHARE:
        return rng.choice(keeping)
    return rng.choice(legal)


def _fits_last(state: BooleoState, seat: int, pyramid: Pyramid) -> bool:
    """Whether a card of the seat fits the last empty slot of its (resolved) pyramid."""
    empty = next(slot_name(s) for s in pyramid_slots(state.n) if s not in pyramid)
    return any(a.endswith(" " + empty) for a in state.legal_actions(seat))


def make_puzzle(seed: int, theme: str, state: BooleoState, analysis: Analysis) -> Puzzle:
    return card_puzzle(GAME, seed, theme, state, analysis, tags(analysis, theme),
                       decoys(analysis, theme), {})


FORWARD = ForwardPlay(EARLIEST, MAX_PLIES, candidate, analyse, suitable, make_puzzle,
                      forward_action)


def _attempt(seed: int, theme: str, rng: random.Random) -> Puzzle | None:
    state = BooleoState({"bits": rng.choice((5, 6))}, rng.getrandbits(31))
    return played_forward(FORWARD, seed, theme, state, rng)


# --- verdicts -------------------------------------------------------------------------------


def reply_text(entry: JSON) -> Message:
    """The opponent's reply of a proof entry, in the solver's words."""
    kind, at = entry.get("reply_kind", ""), entry.get("reply_at", "")
    if kind == "cancel":
        return Message("puzzle.booleo.reply.cancel", "a NOT that cancels your flip")
    if kind == "flip":
        return Message("puzzle.booleo.reply.flip", "a NOT on your start card {card}", card=at)
    if kind == "complete":
        card = str(entry["reply"]).split()[0]
        return Message("puzzle.booleo.reply.complete", "{card} on their slot {slot}",
                       card=card_label(card), slot=at)
    return Message("puzzle.booleo.reply.quiet", "any reply")


class BooleoPuzzles:
    """bOOleO's puzzle generator (``GENERATOR``)."""

    game = GAME
    code_prefix = "BO"
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
                return Message("puzzle.booleo.complete.right",
                               "{move} completes your pyramid: you win at once, whatever "
                               "they hold.", move=move)
            if puzzle.theme == "break":
                return Message("puzzle.booleo.break.right",
                               "{move} breaks theirs: with none of the {hands} hands they "
                               "could hold can they complete their pyramid next turn.",
                               move=move, hands=proof["hands"])
            return Message("puzzle.booleo.survive.right",
                           "{move} keeps {gates} of your gates standing whatever they flip: "
                           "checked against all {hands} hands they could hold.",
                           move=move, gates=best[2], hands=proof["hands"])

        def wrong(refused: Refusal) -> tuple[Message, tuple[str, ...]]:
            move, answer, reply, line = refused.move, refused.answer, refused.reply, refused.line
            canonical, entry, value = refused.canonical, refused.entry, refused.value
            if puzzle.theme == "complete":
                return Message("puzzle.booleo.complete.wrong",
                               "{move} does not win this turn; {answer} completes your "
                               "pyramid.", move=move, answer=answer), (canonical,)
            if puzzle.theme == "break" and value[1] == 0:
                return Message("puzzle.booleo.break.wrong",
                               "After {move} they could still complete their pyramid: "
                               "{reply}. {answer} stops them.", move=move,
                               reply=reply_text(entry), answer=answer), line
            if puzzle.theme == "break":
                return Message("puzzle.booleo.break.costly",
                               "{move} stops them too, but after {reply} you keep only "
                               "{gates} of your gates; with {answer} you keep {best}.", move=move,
                               reply=reply_text(entry), gates=value[2], answer=answer,
                               best=best[2]), line
            if not reply:
                return Message("puzzle.booleo.survive.fewer",
                               "{move} leaves you {gates} of your gates even if they flip nothing; "
                               "{answer} keeps {best} whatever they flip.", move=move,
                               gates=value[2], answer=answer, best=best[2]), line
            return Message("puzzle.booleo.survive.wrong",
                           "After {move}, {reply} would leave you {gates} of your gates; {answer} "
                           "keeps {best}.", move=move, reply=reply_text(entry),
                           gates=value[2], answer=answer, best=best[2]), line

        return judge_answer(puzzle, action, right, wrong)


GENERATOR = BooleoPuzzles()
