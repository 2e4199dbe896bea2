"""A replay step and a hint as text: pure functions of the plain data ``engines.analysis``
builds (a finished game's frames and analysis; one hint).

A step is a heading (which step of how many, who did what), the game's own board drawn
by its renderer, and the analysis of that step as prose: the L-game's mistakes with a
better move, what each Turing test ruled out (and, at the end, the machine's decision
tree in a code block of at most ``PHONE_COLUMNS``), Rithmomachia's capture equations and
both hands of the card games. Frames are only ever built for finished games, so showing
every hand is no secret any more.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from renderers import renderer_for
from renderers.common import PHONE_COLUMNS, code_block, display_width, seat_name
from renderers.i18n import localise, translate
from renderers.pyramid import hand_text
from renderers.turing import score_text

View = dict[str, Any]

# The machine's tree is shown to this many lines; the rest is counted, not drawn.
TREE_LINES = 24
# The lists of every capture (Rithmomachia) and every test (Turing) on the last step, to
# this many lines.
CAPTURE_LINES = 20


def _result(language: str, result: str) -> str:
    if result == "win":
        return translate(language, "replay.result.win", "a win")
    if result == "loss":
        return translate(language, "replay.result.loss", "a loss")
    return translate(language, "replay.result.draw", "a draw")


def _words(language: str, text: Any) -> str:
    """An engine's text in ``language``: a ``Message`` by its key (``str()`` would keep
    only its English), anything else as it is."""
    return localise(language, text) if isinstance(text, str) else str(text)


def heading(replay: View, index: int, names: Sequence[str], language: str) -> str:
    """``Step 3 of 41 · Ann: c2 N E`` (the start and the stored end in words)."""
    frames = replay["frames"]
    frame = frames[index]
    step = translate(language, "replay.step", "Step {index} of {last}", index=index,
                     last=len(frames) - 1)
    kind = frame.get("kind")
    if kind == "start":
        what = translate(language, "replay.start", "the start")
    elif kind == "end":
        what = translate(language, "replay.end", "the end")
    elif kind == "resign":
        what = translate(language, "replay.resigned", "{name} resigns",
                         name=seat_name(names, int(frame["seat"])))
    else:
        what = translate(language, "replay.move", "{name}: {move}",
                         name=seat_name(names, int(frame["seat"])),
                         move=_words(language, frame.get("text") or frame["action"]))
    return f"⏯️ {step} · {what}"


def _board(replay: View, frame: View, names: Sequence[str], language: str,
           emoji: bool) -> str:
    game = str(replay["game"])
    renderer = renderer_for(game)
    render_private = getattr(renderer, "render_private", None)
    if game == "turing" and frame.get("private") and render_private is not None:
        # Results are on the players' sheets; the mover's sheet shows what they learnt.
        seat = frame.get("seat")
        seat = int(seat) if seat is not None else 0
        return str(render_private(frame["private"][seat], names, language, emoji))
    return renderer.render(frame["public"], names, language, emoji)


def _hands(frame: View, names: Sequence[str], language: str) -> list[str]:
    lines = []
    for seat, view in enumerate(frame.get("private") or []):
        cards = hand_text(str(card) for card in view.get("hand") or [])
        lines.append(translate(language, "replay.hand", "🂠 {name}'s hand: {cards}",
                               name=seat_name(names, seat),
                               cards=cards or translate(language, "replay.hand.empty",
                                                        "no cards")))
    return lines


def _lgame_lines(replay: View, index: int, names: Sequence[str], language: str) -> list[str]:
    found = replay.get("mistakes") or []
    mistake = found[index] if index < len(found) else None
    if not mistake:
        return []
    return [translate(language, "replay.lgame.mistake",
                      "⚠️ {name} turned {before} into {after}. Better: {better}.",
                      name=seat_name(names, int(mistake["seat"])),
                      before=_result(language, str(mistake["before"])),
                      after=_result(language, str(mistake["after"])),
                      better=mistake["better_text"])]


def _lgame_summary(replay: View, names: Sequence[str], language: str) -> list[str]:
    found = [m for m in replay.get("mistakes") or [] if m]
    if not found:
        return [translate(language, "replay.lgame.no_mistakes",
                          "Nobody changed the perfect result in this game.")]
    return [translate(language, "replay.lgame.mistakes",
                      "Moves that changed the perfect result: {count}.", count=len(found))]


def _turing_lines(replay: View, index: int, names: Sequence[str], language: str) -> list[str]:
    effects = replay.get("tests") or []
    effect = effects[index] if index < len(effects) else None
    return _test_line(effect, names, language) if effect else []


def _every_test(replay: View, names: Sequence[str], language: str) -> list[str]:
    """Each test of the game with what it ruled out, for the last step."""
    lines = [line for effect in replay.get("tests") or [] if effect
             for line in _test_line(effect, names, language)]
    if len(lines) > CAPTURE_LINES:
        more = len(lines) - CAPTURE_LINES
        lines = [*lines[:CAPTURE_LINES], translate(
            language, "replay.turing.more_tests.one" if more == 1 else "replay.turing.more_tests",
            "… and 1 more test." if more == 1 else "… and {count} more tests.", count=more)]
    return lines


def _test_line(effect: View, names: Sequence[str], language: str) -> list[str]:
    answer = translate(language, "replay.turing.yes" if effect["answer"] else
                       "replay.turing.no", "yes" if effect["answer"] else "no")
    return [translate(language, "replay.turing.test",
                      "🔎 {name}: {letter} on {code} said {answer}; it ruled out {ruled} of "
                      "{before} possible codes, {after} left.",
                      name=seat_name(names, int(effect["seat"])), letter=effect["letter"],
                      code=effect["proposal"], answer=answer,
                      ruled=int(effect["before"]) - int(effect["after"]),
                      before=effect["before"], after=effect["after"])]


def tree_lines(node: View, depth: int = 0) -> list[str]:
    """The machine's decision tree (``engines.turing.machine.Plan.tree``) as lines: a
    round is ``R1 241 (12)`` (its proposal and the codes still possible), a test ``B+``
    or ``B-`` for each answer with what follows indented, a solved branch ``= 241``, a
    branch the analysis cut ``…``."""
    pad = " " * depth
    kind = node.get("kind")
    if kind == "code":
        return [f"{pad}= {node['code']}"]
    if kind == "round":
        return [f"{pad}R{node['round']} {node['proposal']} ({node['codes']})",
                *tree_lines(node["next"], depth)]
    if kind == "end_round":
        return tree_lines(node["next"], depth)
    if kind == "cut":  # past what the analysis kept (engines.turing.analysis.prune)
        return [f"{pad}…"]
    lines: list[str] = []
    for sign, branch in (("+", node["yes"]), ("-", node["no"])):
        below = tree_lines(branch, depth + 1)
        if branch.get("kind") == "code":
            lines.append(f"{pad}{node['verifier']}{sign} {below[0].strip()}")
        else:
            lines += [f"{pad}{node['verifier']}{sign}", *below]
    return lines


def _fit(line: str) -> str:
    while display_width(line) > PHONE_COLUMNS:
        line = line[:-2] + "…"
    return line


def _turing_summary(replay: View, language: str) -> list[str]:
    machine = replay.get("machine")
    if not machine:
        return []
    worst = machine.get("worst") or [0, 0]
    lines = [translate(language, "replay.turing.tree",
                       "🤖 The machine's plan for this puzzle (worst case {score}; + means "
                       "the verifier said yes, - no):", score=score_text(language, worst))]
    if not machine.get("proven", True):
        lines.append(translate(language, "replay.turing.unproven",
                               "This plan is the machine's best guess, not proven optimal."))
    drawn = tree_lines(machine["tree"])
    shown = [_fit(line) for line in drawn[:TREE_LINES]]
    if len(drawn) > TREE_LINES:
        shown.append(_fit(translate(language, "replay.turing.tree_more", "… {count} more",
                                    count=len(drawn) - TREE_LINES)))
    return [*lines, code_block(shown)]


def _capture_lines(frame: View, names: Sequence[str], language: str) -> list[str]:
    from renderers.rithmomachia import event_lines
    return [line for event in frame.get("events") or [] if event.get("type") == "capture"
            for line in event_lines(event, names, language)]


def _rithmomachia_summary(replay: View, names: Sequence[str], language: str) -> list[str]:
    lines = []
    for number, frame in enumerate(replay["frames"]):
        for line in _capture_lines(frame, names, language):
            lines.append(translate(language, "replay.rithmo.capture_at", "{step}: {capture}",
                                   step=number, capture=line))
    if not lines:
        return [translate(language, "replay.rithmo.no_captures",
                          "No piece was captured in this game.")]
    shown = lines[:CAPTURE_LINES]
    if len(lines) > CAPTURE_LINES:
        more = len(lines) - CAPTURE_LINES
        shown.append(translate(language, "replay.rithmo.more_captures.one" if more == 1
                               else "replay.rithmo.more_captures",
                               "… and 1 more capture." if more == 1
                               else "… and {count} more captures.", count=more))
    return [translate(language, "replay.rithmo.captures", "Every capture of the game:"),
            *shown]


def analysis_lines(replay: View, index: int, names: Sequence[str],
                   language: str) -> list[str]:
    """What the analysis says about step ``index``; on the last step, about the game."""
    game = replay["game"]
    frame = replay["frames"][index]
    last = index == len(replay["frames"]) - 1
    lines: list[str] = []
    if game == "lgame":
        lines += _lgame_lines(replay, index, names, language)
        if last:
            lines += _lgame_summary(replay, names, language)
    elif game == "turing":
        if last:
            lines += [*_every_test(replay, names, language), *_turing_summary(replay, language)]
        else:
            lines += _turing_lines(replay, index, names, language)
    elif game == "rithmomachia":
        if last:
            lines += _rithmomachia_summary(replay, names, language)
        else:
            lines += _capture_lines(frame, names, language)
    elif game in ("booleo", "digitalo"):
        lines += _hands(frame, names, language)
    return lines


def render_step(replay: View, index: int, names: Sequence[str], language: str,
                emoji: bool) -> str:
    """Step ``index`` (0 is the start) of a replay: heading, board and analysis."""
    index = max(0, min(index, len(replay["frames"]) - 1))
    frame = replay["frames"][index]
    parts = [heading(replay, index, names, language),
             _board(replay, frame, names, language, emoji),
             *analysis_lines(replay, index, names, language)]
    return "\n".join(part for part in parts if part)


# --- hints ------------------------------------------------------------------------------


def _lgame_hint(hint: View, language: str) -> str:
    result = str(hint["result"])
    if result == "draw":
        holds = translate(language, "hint.lgame.draw", "with it, perfect play draws")
    else:
        holds = _distance(result, int(hint["distance"]), language)
    return translate(language, "hint.lgame", "💡 Perfect move: {move} ({holds}).",
                     move=_words(language, hint["text"]), holds=holds)


def _distance(result: str, moves: int, language: str) -> str:
    """How far a won or lost L-game position is from its end under perfect play."""
    if result == "win":
        return translate(language, "hint.lgame.win.one" if moves == 1 else "hint.lgame.win",
                         "with it you win at once" if moves == 1
                         else "with it you win in {moves} moves at most", moves=moves)
    return translate(language, "hint.lgame.loss.one" if moves == 1 else "hint.lgame.loss",
                     "you lose next move against perfect play; this holds out longest"
                     if moves == 1 else "you lose in {moves} moves against perfect play; "
                     "this holds out longest", moves=moves)


def _turing_hint(hint: View, language: str) -> str:
    kind = hint["kind"]
    if kind == "guess":
        return translate(language, "hint.turing.guess",
                         "💡 Only one code fits your results: guess {code}.", code=hint["code"])
    if kind == "none":
        return translate(language, "hint.turing.none",
                         "💡 No code fits all your results; check your notes.")
    if kind == "next":
        return translate(language, "hint.turing.next",
                         "💡 No test left this round tells you more about the {codes} "
                         "possible codes: end the round.", codes=hint["codes"])
    why = translate(language, "hint.turing.why",
                    "of the {codes} codes still possible, a yes leaves {yes} and a no "
                    "leaves {no}", codes=hint["codes"], yes=hint["yes"], no=hint["no"])
    if kind == "propose":
        return translate(language, "hint.turing.propose",
                         "💡 Propose {code}, then test {letter}: {why}.",
                         code=hint["proposal"], letter=hint["letter"], why=why)
    return translate(language, "hint.turing.test", "💡 Test {letter}: {why}.",
                     letter=hint["letter"], why=why)


def _rithmomachia_hint(hint: View, language: str) -> str:
    """The move with why, then the pieces under threat now, each with its capture."""
    lines = [_move_hint(hint, language)]
    threats = hint.get("threats") or []
    if threats:
        lines.append(translate(language, "hint.rithmo.threats_now",
                               "Your pieces under threat now: {count}.",
                               count=hint.get("count", len(threats))))
    lines += [translate(language, "hint.rithmo.threat", "• {cell} ({piece}) by {move}: "
                        "{equation}", cell=t["target"], piece=t["piece"], move=t["move"],
                        equation=t["equation"]) for t in threats]
    return "\n".join(lines)


def _move_hint(hint: View, language: str) -> str:
    """``💡 <move>: <why>``; the why is one sentence or several (a list)."""
    reasons = hint["reason"] if isinstance(hint["reason"], list) else [hint["reason"]]
    return translate(language, "hint.card", "💡 {move}: {reason}",
                     move=_words(language, hint["text"]),
                     reason=" ".join(_words(language, part) for part in reasons))


def render_hint(hint: View, language: str) -> str:
    """A hint (``engines.analysis.hint``) as one or a few lines of prose."""
    game = hint.get("game")
    if game == "lgame":
        return _lgame_hint(hint, language)
    if game == "turing":
        return _turing_hint(hint, language)
    if game == "rithmomachia":
        return _rithmomachia_hint(hint, language)
    return _move_hint(hint, language)
