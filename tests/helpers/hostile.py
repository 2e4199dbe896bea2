"""Hostile inputs for the fuzz tests, and the oracles that judge the bot's answers to them.

The strategies make what a modified client, a careless paste or a malicious user can send:
random and oversized text, bytes that are not UTF-8 (decoded with ``surrogateescape``, so
lone surrogates reach the code as a Python str would carry them), and button payloads
forged from real ones by changing their kind, game id, version or path, or cutting them.

The oracles are shared by the service, Discord and Telegram fuzz tests: a snapshot of every
stored game (a refusal must leave all of them as they were), whether a press or a typed
move could legitimately change the game (only then may it), and what a clear answer is
(non-empty, and never the internal-error apology, which means something crashed).
"""

from __future__ import annotations

import asyncio
import json
import string
from collections.abc import Callable, Coroutine, Iterable
from typing import Any, TypeVar

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from bot.payloads import Payload
from bot.service import Opponent, Place, Service, User
from bot.store import GameRecord, SQLiteStore
from engines.base import GameError, GameState
from engines.registry import game_names, get_game
from renderers.i18n import CATALOGUE, supported_languages, translate

Result = TypeVar("Result")

# Each game with options that make a new game quick to create: the Turing Machine gets a
# fixed puzzle (TM-C4E-23NNR2QV is the booklet's first challenge), so no puzzle is searched.
TURING_PUZZLE = "TM-C4E-23NNR2QV"
GAME_OPTIONS: dict[str, str] = {
    "lgame": "",
    "rithmomachia": "move_limit=40",
    "booleo": "bits=4",
    "digitalo": "",
    "turing": f"puzzle={TURING_PUZZLE}",
}
assert set(GAME_OPTIONS) == set(game_names()), "every game is fuzzed"

# Every fuzzed game gets this seed: an example then depends only on what hypothesis drew,
# which hypothesis needs to replay it.
SEED = 7

# What the service says when a command crashed; a hostile input must never cause it.
INTERNAL_APOLOGIES = frozenset(translate(language, "error.internal")
                               for language in supported_languages())
LANGUAGES = tuple(supported_languages())

# Inputs that have broken chat bots before: markup, mentions, format fields, control and
# bidirectional characters, separators of our own payloads, numbers at the edges.
NASTY: tuple[str, ...] = (
    "", " ", "\x00", "\t\n\r", "\u202e", "\ufeff", "\u200b", "💥" * 40, "<b>x</b>",
    "</code>", "</pre>", "&amp;", "&", "<", "*bold*", "_x_", "~~x~~", "||x||", "`x`", "```",
    "@everyone", "@here", "<@123>", "<#1>", "[a](http://x)", "{name}", "{0}", "%s", "%(x)s",
    "{", "}", "\\", "m:", ":", "::::", "m:1:1:", "-1", "0", "9" * 30, "1e9", "NaN", "\udc80",
    "\ud800", "İ", "ß", "ǅ", "ﬁ", "Ⅻ", "١٢٣", "a" * 5000, " " * 300, "\n" * 50,
)
LEGAL_ALPHABET = string.ascii_letters + string.digits + " -.:=,/"

# Hypothesis settings: fixed examples (derandomised, no example database) for the normal
# suite, more for the slow run. Each example talks to SQLite or an offline chat world.
FAST_EXAMPLES = 50
SLOW_EXAMPLES = 1500


def fuzz_settings(examples: int) -> settings:
    return settings(max_examples=examples, derandomize=True, database=None, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow,
                                           HealthCheck.function_scoped_fixture,
                                           HealthCheck.data_too_large])


# ------------------------------------------------------------------ strategies
def draw_table(data: st.DataObject) -> tuple[str, bool, list[int]]:
    """What the adapter fuzzers set a table up with: a game, whether a seat stays open,
    and the seeds of up to five legal moves played before the hostile input."""
    game = data.draw(st.sampled_from(game_names()), label="game")
    open_seat = data.draw(st.booleans(), label="open seat")
    moves = data.draw(st.lists(st.integers(0, 10**6), max_size=5), label="moves")
    return game, open_seat, moves


def undecodable_text(max_size: int = 80) -> st.SearchStrategy[str]:
    """Bytes that need not be UTF-8, as a str carries them after a lenient decode."""
    return st.binary(max_size=max_size).map(lambda raw: raw.decode("utf-8", "surrogateescape"))


def oversized_text() -> st.SearchStrategy[str]:
    return st.builds(lambda unit, count: unit * count,
                     st.sampled_from(["x", "1b1-2b1 ", "AND1 ", "é", "💥", "<b>", ":"]),
                     st.integers(100, 6000))


@st.composite
def hostile_payload(draw: st.DrawFn, real: list[str]) -> str:
    """Half well-formed forgeries of ``real`` payloads, which reach the service's deeper
    checks (game, version, seat, turn, menu path), half broken ones and junk. (An explicit
    draw: ``one_of`` leans towards its later branches.)"""
    choice = draw(st.integers(0, 3))
    if choice == 3:
        return draw(hostile_text())
    return draw(forged_payload(real, well_formed=choice < 2))


def hostile_text(max_size: int = 120) -> st.SearchStrategy[str]:
    return st.one_of(
        st.text(max_size=max_size),
        st.text(alphabet=LEGAL_ALPHABET, max_size=40),
        undecodable_text(),
        st.sampled_from(NASTY),
        oversized_text(),
    )


def near_miss(texts: Iterable[str]) -> st.SearchStrategy[str]:
    """Real inputs (moves, options, names) slightly wrong: cut, cased, padded, spliced."""
    pool = sorted(set(texts)) or ["x"]

    @st.composite
    def mutate(draw: st.DrawFn) -> str:
        text = draw(st.sampled_from(pool))
        how = draw(st.sampled_from(["same", "cut", "upper", "pad", "splice", "double",
                                    "drop"]))
        if how == "cut":
            return text[:draw(st.integers(0, max(0, len(text) - 1)))]
        if how == "upper":
            return text.upper()
        if how == "pad":
            return f"  {text} \n"
        if how == "splice":
            at = draw(st.integers(0, len(text)))
            return text[:at] + draw(hostile_text(12)) + text[at:]
        if how == "double":
            return f"{text} {text}"
        if how == "drop" and text:
            at = draw(st.integers(0, len(text) - 1))
            return text[:at] + text[at + 1:]
        return text
    return mutate()


TOKEN_ALPHABET = string.ascii_letters + string.digits + "-"
BREAKS = ("kind", "game", "version", "token", "many", "cut", "append", "separator", "whole")


@st.composite
def forged_payload(draw: st.DrawFn, real: list[str], well_formed: bool = False) -> str:
    """A payload made from a real one: first changes that keep it well-formed (another
    kind, game id, version, or menu path, which only the service's checks can refuse),
    then, unless ``well_formed``, maybe one change that breaks its form (a bad field, too
    many tokens, cut short, padded, other separators, or something else entirely)."""
    base = draw(st.sampled_from(real)) if real else "m:1:1:"
    parts = base.split(":", 3)
    if len(parts) != 4:
        return base
    kind, game, version, path = parts
    tokens = [t for t in path.split(".") if t]
    known = sorted({t for payload in real for t in payload.split(":", 3)[-1].split(".") if t})
    token = st.one_of(st.sampled_from(known or ["a1"]),
                      st.text(alphabet=TOKEN_ALPHABET, min_size=1, max_size=8))
    game_number = int(game) if game.isdigit() else 1
    version_number = int(version) if version.isdigit() else 1
    for _ in range(draw(st.integers(0, 3))):
        field = draw(st.sampled_from(["kind", "game", "version", "path", "path"]))
        if field == "kind":
            kind = draw(st.sampled_from("mhjge"))
        elif field == "game":
            game = draw(st.sampled_from([str(game_number + 1), str(max(0, game_number - 1)),
                                         "0", f"0{game_number}", "9" * 12]))
        elif field == "version":
            version = draw(st.sampled_from([str(version_number + 1),
                                            str(max(0, version_number - 1)),
                                            str(version_number + 2), "0", f"0{version_number}",
                                            "9" * 9]))
        else:
            change = draw(st.sampled_from(["add", "drop", "replace", "swap"]))
            if change == "add" and len(tokens) < 6:
                tokens.append(draw(token))
            elif change == "drop" and tokens:
                tokens.pop(draw(st.integers(0, len(tokens) - 1)))
            elif change == "replace" and tokens:
                tokens[draw(st.integers(0, len(tokens) - 1))] = draw(token)
            elif tokens:
                tokens.reverse()
    payload = f"{kind}:{game}:{version}:{'.'.join(tokens)}"
    if well_formed:
        return payload
    broken = draw(st.sampled_from([None, *BREAKS]))
    if broken == "kind":
        return payload.replace(kind, draw(st.sampled_from(["x", "M", "", "mm", "p", "r", "s",
                                                           "daily"])), 1)
    if broken == "game":
        return f"{kind}:{draw(st.sampled_from(['9' * 13, '-1', '', ' 1', '١']))}:{version}:" \
               f"{'.'.join(tokens)}"
    if broken == "version":
        return f"{kind}:{game}:{draw(st.sampled_from(['9' * 10, '', '-1', '1.0']))}:" \
               f"{'.'.join(tokens)}"
    if broken == "token":
        return f"{payload}{'.' if tokens else ''}{draw(hostile_text(10))}"
    if broken == "many":
        return f"{kind}:{game}:{version}:{'.'.join(tokens + [draw(token)] * 7)}"
    if broken == "cut":
        return payload[:draw(st.integers(0, len(payload)))]
    if broken == "append":
        return payload + draw(hostile_text(20))
    if broken == "separator":
        return payload.replace(":", draw(st.sampled_from([";", "::", "", " ", "："])),
                               draw(st.integers(1, 3)))
    if broken == "whole":
        return draw(hostile_text())
    return payload


# --------------------------------------------------------------------- oracles
def snapshot_of(records: Iterable[GameRecord]) -> dict[int, tuple[int, str, str, str]]:
    return {r.id: (r.version, r.status, json.dumps(r.state, sort_keys=True),
                   json.dumps(r.players, sort_keys=True)) for r in records}


async def snapshot(store: SQLiteStore, near: Iterable[int] = ()
                   ) -> dict[int, tuple[int, str, str, str]]:
    """The running games, and those with an id in ``near`` (the ones a forged payload or
    an off-by-one could reach), as (version, status, state, players). Ended games are left
    out otherwise, so that the check stays quick however many examples ran before."""
    records = await store.games_with_status("waiting", "active")
    for game_id in set(near) - {record.id for record in records}:
        record = await store.get_game(game_id) if 0 < game_id < 2**62 else None
        if record is not None:
            records.append(record)
    return snapshot_of(records)


def ids_near(game_id: int, payload: str = "") -> set[int]:
    """Game ids a press could reach: the game's neighbours and the id the payload names."""
    near = {game_id - 2, game_id - 1, game_id, game_id + 1, game_id + 2}
    parsed = Payload.parse(payload)
    if parsed is not None:
        near.add(parsed.game_id)
    return near


def changed_games(before: dict[int, Any], after: dict[int, Any]) -> set[int]:
    return {game for game in before.keys() | after.keys()
            if before.get(game) != after.get(game)}


def state_of(record: GameRecord) -> GameState:
    return get_game(record.game).State.from_dict(record.state)


def press_may_change(record: GameRecord | None, user: User, payload: str) -> bool:
    """Whether pressing ``payload`` in the channel of ``record`` (its running game) may
    change that game: a join or lobby start that is open to the user, or a menu path that
    the user may take now, at the current version. Anything else must change nothing."""
    parsed = Payload.parse(payload)
    if parsed is None or record is None or parsed.game_id != record.id:
        return False
    kind, version, path = parsed.kind, parsed.version, parsed.path
    seat = Service.seat_of(record, user)
    if kind == "j":
        return record.status == "waiting" and seat is None
    if kind == "g":  # only games for more than two players have a lobby to start
        return record.status == "waiting" and seat is not None and Service.is_lobby_game(record)
    if kind != "m" or seat is None or record.status != "active" or not path:
        return False
    state = state_of(record)
    if seat not in state.to_move() or version != Service.menu_version(record, state, seat):
        return False
    for depth, token in enumerate(path):
        try:
            offered = {choice.token: choice for choice in state.menu(seat, path[:depth])}
        except GameError:
            return False
        choice = offered.get(token)
        if choice is None:
            return False
        if choice.action is not None:
            return depth == len(path) - 1
    # A step whose following steps have one option each completes the move: the service
    # takes those steps without a tap (``Moves._resolve_press``).
    try:
        following = state.menu(seat, path)
        while len(following) == 1:
            if following[0].action is not None:
                return True
            path = (*path, following[0].token)
            following = state.menu(seat, path)
    except GameError:
        return False
    return False


def move_may_change(record: GameRecord | None, user: User, text: str) -> bool:
    """Whether typing ``text`` may change the channel's game: only its player to move, with
    text the engine understands or a legal move's text as the bot shows it."""
    if record is None or record.status != "active":
        return False
    seat = Service.seat_of(record, user)
    state = state_of(record)
    if seat is None or seat not in state.to_move():
        return False
    wanted = " ".join(text.split()).lower()
    if wanted and any(" ".join(str(state.action_text(action)).split()).lower() == wanted
                      for action in state.legal_actions(seat)):
        return True  # a move as the bot itself suggests it (see the xfail in the tests)
    try:
        state.parse_action(text, seat)
    except GameError:
        return False
    except Exception:  # the service will report this crash; the oracle must not hide it
        return False
    return True


def _untranslated() -> dict[str, frozenset[str]]:
    """Per language, the English texts (those without placeholders) that the language
    translates: seeing one of them in that language means a missed translation."""
    english = CATALOGUE["en"]
    return {language: frozenset(text for key, text in english.items()
                                if "{" not in text and CATALOGUE[language].get(key)
                                and CATALOGUE[language][key] != text)
            for language in LANGUAGES if language != "en"}


UNTRANSLATED = _untranslated()


def assert_clear(text: str | None, what: object, language: str = "en") -> None:
    """An answer a person can act on: something to read, in their language, and no crash
    behind it."""
    assert text is not None and text.strip(), f"no answer to {what!r}"
    assert not any(apology in text for apology in INTERNAL_APOLOGIES), \
        f"internal error on {what!r}: {text!r}"
    assert text not in UNTRANSLATED.get(language, ()), \
        f"English answer to {what!r} in {language}: {text!r}"


# ------------------------------------------------------------- worlds and threads
# The chat worlds are async context managers bound to one task, while hypothesis drives
# synchronous examples. So the test's coroutine keeps the world and hands the loop to a
# worker thread that runs hypothesis: every draw happens in that thread, and each step
# that talks to the world is sent back to the loop and waited for.
STEP_TIMEOUT_SECONDS = 60.0


def on_loop(loop: asyncio.AbstractEventLoop, work: Coroutine[Any, Any, Result]) -> Result:
    return asyncio.run_coroutine_threadsafe(work, loop).result(STEP_TIMEOUT_SECONDS)


async def run_in_thread(examples: Callable[[], None]) -> None:
    await asyncio.get_running_loop().run_in_executor(None, examples)


# ------------------------------------------------------------------ set-ups
async def start_fuzzed_game(service: Service, place: Place, players: tuple[User, User],
                            game: str, open_seat: bool, moves: list[int]) -> int:
    """A new game of ``game`` in ``place``: the first player against the second (or an
    open seat), then up to ``len(moves)`` legal moves, each picked by an index drawn in
    advance (so that the game depends only on the draws). Returns the game id."""
    creator, rival = players
    reply = await service.start_game(place, creator, game,
                                     Opponent("open") if open_seat else Opponent("user",
                                                                                 user=rival),
                                     GAME_OPTIONS[game])
    assert reply.ok and reply.board is not None, reply.notice
    for pick in [] if open_seat else moves:
        record = await service.store.running_game(place.platform, place.channel)
        if record is None or record.status != "active":
            break
        state = state_of(record)
        seat = state.to_move()[0]
        actions = state.legal_actions(seat)
        action = actions[pick % len(actions)]
        trial = type(state).from_dict(state.to_dict())
        trial.apply(seat, action)
        if trial.outcome() is not None:
            break  # the fuzzing needs a running game
        moved = await service.move(place, players[seat], action)
        assert moved.ok, moved.notice
    return reply.board.game_id


async def visible_payloads(service: Service, place: Place, players: Iterable[User]
                           ) -> list[str]:
    """Every payload the players can see now (the board and each hand) and the menu one
    step further down, so that forgeries start from payloads that are nearly right."""
    replies = [await service.board(place)]
    replies += [await service.hand(place, person) for person in players]
    payloads: list[str] = []
    for reply in replies:
        buttons = []
        if reply.board is not None:
            buttons += [*reply.board.buttons, *reply.board.navigation]
            if reply.board.hand_button is not None:
                buttons.append(reply.board.hand_button)
        if reply.hand is not None:
            buttons += [*reply.hand.buttons, *reply.hand.navigation]
        payloads += [button.payload for button in buttons]
    record = await service.store.running_game(place.platform, place.channel)
    if record is not None and record.status == "active":
        state = state_of(record)
        for seat in state.to_move():
            version = Service.menu_version(record, state, seat)
            for choice in state.menu(seat, ())[:3]:
                if choice.action is None:
                    payloads += [Service.payload(record, (choice.token, sub.token),
                                                 version=version)
                                 for sub in state.menu(seat, (choice.token,))[:5]]
    return sorted(set(payloads))


async def move_texts(service: Service, place: Place) -> list[str]:
    """The legal moves of the players to move, in canonical notation and as the bot shows
    them, to mutate into near misses."""
    record = await service.store.running_game(place.platform, place.channel)
    if record is None or record.status != "active":
        return []
    state = state_of(record)
    actions = [action for seat in state.to_move() for action in state.legal_actions(seat)]
    return [text for action in actions[:100]
            for text in (action, str(state.action_text(action)))]


def option_texts() -> list[str]:
    """Each game's options written as a user would, and just out of range."""
    texts = [options for options in GAME_OPTIONS.values() if options]
    for name in game_names():
        for spec in get_game(name).OPTIONS:
            texts.append(spec.name if spec.kind is bool else f"{spec.name}={spec.default}")
            if spec.minimum is not None:
                texts.append(f"{spec.name}={spec.minimum - 1}")
            if spec.maximum is not None:
                texts.append(f"{spec.name}={spec.maximum + 1}")
    return texts


# Options that start real work (a puzzle search) are fine for the bot but too slow for a
# fuzz example: set-ups naming them are only checked, not started.
SLOW_OPTION_WORDS = ("difficulty", "verifiers", "mode", "handicap", "cards", "code", "daily",
                     "hard", "extreme", "nightmare", "standard", "easy", "turing", "tm",
                     "puzzle")


def slow_set_up(game: str, options: str) -> bool:
    text = f"{game} {options}".lower()
    return any(word in text for word in SLOW_OPTION_WORDS)
