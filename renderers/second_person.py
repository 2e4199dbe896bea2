"""Messages about a person as that person reads them: "You win", not "You wins".

A lesson calls its learner "You" (``lesson.you``: "Jij", "Du"), and a player may be called
so at a shared keyboard or on a platform. A message that names a person in the third
person ("{name} wins", "it is {name}'s now", "{other} reads it as bit 1") then reads
wrongly in every language: English and German conjugate for the person ("Du gewinnt"),
and Dutch and German decline the pronoun ("van Jij", "von Du"). So each such message has a
second-person form, ``<key>.you_<placeholder>``, written for the reader in place of that
placeholder; ``renderers.i18n.translate`` uses it whenever the person that placeholder
names is called by the language's word for the reader (see ``second_person_key``).

A message whose wording works for any name needs no form here:
``tests/renderers/test_second_person.py`` renders every catalogue message with the reader's
word for each person and fails on a third-person verb, a possessive or a declined pronoun.
"""

from __future__ import annotations

# The placeholders that name a person, in the order their second person is looked for.
PERSON_PLACEHOLDERS = ("name", "names", "other", "completer", "creator", "loser", "target")

# (key, English second-person form): the catalogue holds every language's.
FORMS = (
    ("board.last_move.you_name", "Your last move ({mark}): {move}"),
    ("board.waiting_for.you_name", "⏳ You are thinking…"),
    ("booleo.event.cancelled.you_name",
     "You cancelled the NOT with a NOT: the card is back, nothing falls."),
    ("booleo.event.challenge_lost.you_name",
     "You challenged {target}'s {slot}: it was right; you lose the action."),
    ("booleo.event.challenge_lost.you_target",
     "{name} challenged your {slot}: it was right; {name} loses the action."),
    ("booleo.event.challenge_won.you_name",
     "You challenged {target}'s {slot}: it was wrong, and falls."),
    ("booleo.event.challenge_won.you_target",
     "{name} challenged your {slot}: it was wrong, and falls."),
    ("booleo.event.claim.you_name",
     "You claim a complete pyramid! The opponent may challenge one gate, or accept."),
    ("booleo.event.discarded.you_name", "You discarded {card}."),
    ("booleo.event.not.you_name",
     "You played a NOT on start card {position}, counted from your side."),
    ("booleo.event.passed.you_name", "You have no card and pass."),
    ("booleo.event.placed.you_name", "You placed {card} on {slot}."),
    ("booleo.event.replaced.you_name", "You replaced {old} on {slot} with {card}."),
    ("booleo.event.resolved_first.you_name",
     "You did not cancel the NOT, so it stands: the gates it made invalid fall before "
     "your action. {removed}"),
    ("booleo.loses.you_name", "You lose {slots}"),
    ("booleo.pending.you_other",
     "A NOT on start card {position} (you read it as card {other_position}) is pending. "
     "If you do not cancel it with a NOT on that card: {removed}"),
    ("booleo.pending.stands_first.you_other",
     "A NOT on start card {position} (you read it as card {other_position}) is pending. "
     "You may cancel it with a NOT on that card; any other action, a challenge too, lets "
     "it stand first, and the gates it made invalid fall: {removed}"),
    ("booleo.to_move.you_name", "Your turn (turn {turn} of {limit})."),
    ("console.pass_device.you_name",
     "Pass the keyboard on: it is your turn. Everyone else, please look away."),
    ("digitalo.event.countered.you_name",
     "You countered with an inverter: the bit is back, both players draw, and the "
     "inverter's player moves again."),
    ("digitalo.event.discarded.you_name", "You discarded {card}."),
    ("digitalo.event.fell.you_name", "Fell from your pyramid: {positions}."),
    ("digitalo.event.goes_on.you_name",
     "Your pyramid is no longer complete: the round goes on."),
    ("digitalo.event.goes_on_broken.you_name",
     "You accepted the inverter of the last move, and it broke your pyramid: the round is "
     "not over. Play goes on, your move."),
    ("digitalo.event.inactive.you_name", "Your {positions} turn inactive."),
    ("digitalo.event.inverted.you_name",
     "You played an inverter on bit card {position}, counted from your side."),
    ("digitalo.event.last_move.you_completer",
     "You completed the pyramid! {name} has one last move, to have moved as often."),
    ("digitalo.event.last_move.you_name",
     "{completer} completed the pyramid! You have one last move, to have moved as often."),
    ("digitalo.event.lost.you_name", "You lose {positions}."),
    ("digitalo.event.new_round.you_name",
     "Round {round}: new bit cards and a new deal; you start."),
    ("digitalo.event.passed.you_name", "You have no card and pass."),
    ("digitalo.event.placed.you_name", "You placed {card} on {position}."),
    ("digitalo.final.at_end.you_name", "Your pyramid ({side}) at the end of round {round}:"),
    ("digitalo.pending.you_other",
     "An inverter on bit card {position} (you read it as bit {other_position}) is pending. "
     "You may counter it with an inverter; otherwise: {effects}"),
    ("digitalo.round.won.you_name",
     "Round {round}: you completed the pyramid and score {points} ({binary} in binary: "
     "{empty} empty, {inactive} inactive)."),
    ("digitalo.to_move.you_name", "Your turn."),
    ("discord.thread_starter.you_creator",
     "You started {game}. The game is in the thread below."),
    ("error.not_your_turn.you_name",
     "It is not your turn; it is the turn of the player named You."),
    ("error.user_games_limit.you_name",
     "You are already playing {count} games, the most one person may. Finish or resign one "
     "first."),
    ("error.user_games_limit.one.you_name",
     "You are already playing a game, the most one person may. Finish or resign it first."),
    ("game.abandoned_by.you_name", "You abandoned the game."),
    ("game.joined.you_name", "You joined the game."),
    ("game.over.win.you_name", "Game over: you win ({reason})."),
    ("game.resigned.you_name", "You resigned."),
    ("hint.taken.you_name", "💡 You took a hint: this game's result is not counted."),
    ("lgame.danger.all.you_other",
     "⚠ {name}: each of your {total} moves lets your opponent trap your L next turn."),
    ("lgame.danger.all.one.you_other",
     "⚠ {name}: your only move lets your opponent trap your L next turn."),
    ("lgame.danger.some.you_other",
     "⚠ {name}: {trapped} of your {total} moves let your opponent trap your L next turn."),
    ("lgame.danger.some.one.you_other",
     "⚠ {name}: 1 of your {total} moves lets your opponent trap your L next turn."),
    ("reason.resigned.you_loser", "you resigned"),
    ("reason.no_l_move.you_loser", "you had no legal L move"),
    ("replay.hand.you_name", "🂠 Your hand: {cards}"),
    ("replay.lgame.mistake.you_name", "⚠️ You turned {before} into {after}. Better: {better}."),
    ("replay.resigned.you_name", "You resign"),
    ("rithmo.capture.flipped.you_name", "{equation} → {cell} captured: it is yours now"),
    ("rithmo.end.no_moves.you_name", "You cannot move."),
    ("rithmo.end.no_pyramid.you_names", "You have no Pyramid left."),
    ("rithmo.end.win.you_name", "Game over: you win, a {label} victory ({won} to {lost})."),
    ("rithmo.event.moved.you_name", "You moved {piece} {from_cell} → {to_cell}."),
    ("rithmo.event.placed.you_name", "You placed {piece} on {cell}."),
    ("rithmo.unplaced.you_name", "You still place: {values}"),
    ("stats.none.you_name", "You have no finished games yet."),
    ("stats.title.you_name", "📊 Your results"),
    ("timer.everyone_out.you_names",
     "⌛ You ran out of time; with nobody left playing, the game ends without a result."),
    ("timer.forfeit.you_name", "⌛ You ran out of time and lose the game."),
    ("timer.stand_in.you_name", "⌛ You ran out of time; the computer played {move} for you."),
    ("timer.stand_in_hidden.you_name", "⌛ You ran out of time; the computer moved for you."),
    ("turing.outcome.last_standing.you_names",
     "You win as the last player still in the game; the code was {code}."),
    ("turing.outcome.solved.you_names", "You cracked the code {code} in {rounds} and {tests}."),
)

FORM_TEXTS = dict(FORMS)


def second_person_key(key: str, params: dict[str, object], reader: str) -> str:
    """``key``'s second-person form for the first person placeholder whose value is
    ``reader`` (the language's word for the reader, any case), when it has one; else
    ``key``."""
    for placeholder in PERSON_PLACEHOLDERS:
        value = params.get(placeholder)
        if isinstance(value, str) and value.strip().casefold() == reader:
            form = f"{key}.you_{placeholder}"
            if form in FORM_TEXTS:
                return form
    return key
