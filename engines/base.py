"""The contract every game engine fulfils.

Engines are pure: no I/O, no asyncio, no databases, no chat platforms. A game is a
``GameState`` object that can be serialised with ``to_dict`` and rebuilt with
``from_dict``, and replayed exactly from its seed and its list of actions.

Players are seat numbers ``0 .. n-1``; mapping seats to people is the service's job.
Actions are strings in the game's canonical notation, so that action logs, button
payloads and JSON all carry them without a second encoding.
"""

from __future__ import annotations

import random
import re
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, NamedTuple, Protocol, Self, TypeVar

JSON = dict[str, Any]
Action = str
Event = dict[str, Any]


class Message(str):
    """A user-facing text an engine builds at run time, kept translatable.

    Engines know no languages, yet some of their words reach players inside other texts: a
    menu label (``Discard AND1``), the notation hint an error quotes, a shape's name. A
    ``Message`` *is* its English text, so every consumer that only shows, compares or
    serialises it keeps working unchanged (the same idea as ``zope.i18nmessageid``), and it
    also carries the catalogue ``key``, the English ``default`` template and the ``params``
    that fill it, so ``renderers.i18n.translate`` can render it in any language. Params may
    be ``Message``s themselves; they are translated too.
    """

    key: str
    default: str
    params: dict[str, Any]

    def __new__(cls, key: str, default: str, /, **params: Any) -> Self:
        self = super().__new__(cls, _format(default, params))
        self.key, self.default, self.params = key, default, params
        return self

    def __getnewargs_ex__(self) -> tuple[tuple[str, str], dict[str, Any]]:
        # copy and pickle rebuild a str subclass from these, not from the English text.
        return (self.key, self.default), self.params

    def __repr__(self) -> str:
        return f"Message({self.key!r}, {str(self)!r})"


def _format(template: str, params: dict[str, Any]) -> str:
    """``template`` filled with ``params``, or the template itself when they do not fit:
    a malformed message must never become a crash."""
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        return template


class GameError(Exception):
    """Base of every error a player can cause.

    ``key`` names the message in the translation catalogue; ``default`` is the English
    template, used when a catalogue has no entry, so that a new engine message is readable
    before anyone translates it. ``params`` fill the template's ``{placeholders}``.
    """

    def __init__(self, key: str, default: str, **params: Any) -> None:
        self.key = key
        self.default = default
        self.params = params
        # No message argument: the English text is formatted only when something reads it
        # (``str``, ``args``, ``repr``), for a refusal is often built and dropped unread.
        super().__init__()
        self._given_args: tuple[Any, ...] | None = None

    @property
    def args(self) -> tuple[Any, ...]:
        """``(text,)`` as BaseException's would be, unless something set other args."""
        return (self.render(),) if self._given_args is None else self._given_args

    @args.setter
    def args(self, value: tuple[Any, ...]) -> None:
        self._given_args = tuple(value)

    # BaseException reads the args it was given, not the property: shown as it shows them.
    def __str__(self) -> str:
        return str(BaseException(*self.args))

    def __repr__(self) -> str:
        return type(self).__name__ + repr(BaseException(*self.args)).removeprefix("BaseException")

    def render(self, template: str | None = None) -> str:
        try:
            return (template or self.default).format(**self.params)
        except (KeyError, IndexError, ValueError):
            return self.default

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its attributes (key, default, params, args set since, notes, a
        subclass's own), not as BaseException's ``(type, args)``: ``args`` is the formatted
        text, which no ``__init__`` here takes, so a refusal raised in a worker process
        could not be rebuilt and broke the pool. Made again without calling ``__init__``,
        so a subclass with a signature of its own round-trips too (``copy`` uses this as
        well)."""
        return _unfilled_error, (type(self),), dict(self.__dict__)


def _unfilled_error(kind: type[GameError]) -> GameError:
    """A ``kind`` made without ``__init__``, which unpickling fills with the attributes
    ``GameError.__reduce__`` saved."""
    return kind.__new__(kind)


class InvalidMove(GameError):
    """The text was not understood as a move at all."""


class IllegalMove(GameError):
    """The move was understood but is not allowed in this position."""


class NotYourTurn(GameError):
    """The player may not act now."""


class StateError(ValueError):
    """A serialised state failed validation on load (corrupt or from an unknown version)."""


@dataclass(frozen=True)
class Outcome:
    """The end of a game. ``winners`` is empty for a draw or an abandoned game."""

    winners: tuple[int, ...]
    reason: str
    detail: JSON = field(default_factory=dict)

    @property
    def is_draw(self) -> bool:
        return not self.winners

    def to_dict(self) -> JSON:
        return {"winners": list(self.winners), "reason": self.reason, "detail": self.detail}

    @classmethod
    def from_dict(cls, data: JSON) -> Outcome:
        return cls(tuple(int(w) for w in data["winners"]), str(data["reason"]),
                   dict(data.get("detail", {})))


@dataclass(frozen=True)
class Choice:
    """One option of a move menu: a button, a select option or a numbered console line.

    ``token`` is appended to the menu path when the option is chosen. When choosing it
    completes a move, ``action`` holds that move in canonical notation. A fixed ``label`` is
    looked up as ``<game>.choice.<label>``; a label with run-time parts (``Discard AND1``)
    is a ``Message`` with its own key, and notation (``2b3``, ``▲1``) stays as it is.
    """

    token: str
    label: str
    action: Action | None = None
    # Options of one group belong together and are shown together (a select of their own
    # on Discord, rows of their own on Telegram): the Turing code pad, Rithmomachia's
    # pushes. Empty for an ordinary option.
    group: str = ""
    # Why the option cannot be taken now (a card that fits nowhere), or None. It stays on
    # the menu so the player sees it: Discord draws it disabled, and a press of it (from
    # Telegram, which has no disabled buttons, or forged) is refused with this reason.
    unavailable: Message | None = None


# The first token of a menu path that shows the menu as the board's grid (``offers_grid``),
# and the group of a grid's cells: ``grid<width>``, laid out as rows of that many buttons.
GRID_TOKEN = "G"
GRID_GROUP_PREFIX = "grid"


def grid_group(width: int) -> str:
    return f"{GRID_GROUP_PREFIX}{width}"


def grid_width(group: str) -> int | None:
    """The row width of a grid group (``grid4`` → 4); None for any other group."""
    if group.startswith(GRID_GROUP_PREFIX) and group[len(GRID_GROUP_PREFIX):].isdigit():
        return int(group[len(GRID_GROUP_PREFIX):])
    return None


@dataclass(frozen=True)
class OptionSpec:
    """A game option that players may set when they start a game.

    A ``str`` option with ``choices`` may also be typed as the bare choice (``hard`` for
    ``difficulty=hard``); one with ``pattern`` takes a bare word matching it, so that a
    pasted puzzle code needs no option name. ``check``, for a ``str`` option, is a cheap
    test of a value given, run wherever options are parsed: it raises the player's
    ``GameError``, so a bad value is refused before the game is made (in a worker process,
    for a game whose creation is costly).
    """

    name: str
    kind: type[bool] | type[int] | type[str]
    default: bool | int | str
    help: str
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()
    pattern: str = ""
    check: Callable[[str], None] | None = None


class GameState(ABC):
    """A running game. Subclasses implement the rules of one game."""

    game_name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    schema_version: ClassVar[int] = 1
    # The game's menu can be shown as its board's grid at some point (``offers_grid``),
    # even where it cannot now (Rithmomachia's placement): a platform whose message kind
    # cannot change afterwards (Discord's Components V2) draws the board in the kind that
    # holds the grid from its first message.
    has_grid: ClassVar[bool] = False

    @abstractmethod
    def to_dict(self) -> JSON: ...

    @classmethod
    @abstractmethod
    def from_dict(cls, data: JSON) -> Self: ...

    @abstractmethod
    def to_move(self) -> list[int]:
        """Seats that may act now; empty once the game is over."""

    @abstractmethod
    def legal_actions(self, player: int) -> list[Action]: ...

    @abstractmethod
    def apply(self, player: int, action: Action) -> list[Event]:
        """Play ``action`` for ``player``; raise a ``GameError`` and change nothing if refused."""

    @abstractmethod
    def parse_action(self, text: str, player: int) -> Action:
        """Turn typed notation into a canonical, legal action, or raise a ``GameError``."""

    @abstractmethod
    def action_text(self, action: Action) -> str:
        """Human-readable notation of a canonical action."""

    @abstractmethod
    def view(self, player: int | None) -> JSON:
        """What ``player`` (or the public, for ``None``) may see; renderers get only this."""

    @abstractmethod
    def outcome(self) -> Outcome | None: ...

    @abstractmethod
    def menu(self, player: int, path: tuple[str, ...]) -> list[Choice]:
        """The options after choosing ``path`` so far, so that moves never need typing.

        Raises ``InvalidMove`` when the path is not one the menu offers.
        """

    @abstractmethod
    def resign(self, player: int) -> list[Event]: ...

    def offers_grid(self) -> bool:
        """Whether the menu can be shown now as the board's grid of cells, each a button
        (issue 23's "boards you tap"): the menu path starting with ``GRID_TOKEN``. The
        list menu stays the quick way; the grid is its second view."""
        return False

    def menu_prompt(self, player: int, path: tuple[str, ...]) -> Message | None:
        """What to do at menu ``path``, when the game says it better than the labels of
        the choices made so far (the grid's "tap the squares of your new L")."""
        return None

    def seat_version(self, seat: int) -> int | None:
        """A per-seat counter for games where players act at once; None uses the game's
        version, which every move raises."""
        return None

    def resize(self, players: int) -> None:
        """Seat ``players`` while the game waits for players; fixed-size games cannot."""
        if players != self.min_players or players != self.max_players:
            raise InvalidMove("error.player_count", "This game is for {count} players.",
                              count=self.min_players)

    @abstractmethod
    def abandon(self) -> list[Event]: ...


class Agent(ABC):
    """A computer player. ``choose`` is CPU work: callers run it off the event loop."""

    def __init__(self, level: str, rng: random.Random) -> None:
        self.level = level
        self.rng = rng

    @abstractmethod
    def choose(self, state: GameState, player: int) -> Action: ...


class GamePreset(NamedTuple):
    """A named set of options offered as one choice when a game is set up; a game's first
    preset is the one offered first (to newcomers, a teaching game)."""

    name: str
    options: str
    label: Message


@dataclass(frozen=True)
class GameInfo:
    """What the bot must know about a game before it plays it, declared once in the game's
    module as ``INFO`` and read through the registry.

    * ``aliases``: other names players may type for it;
    * ``levels``: the computer's levels; ``quick_levels``: those cheap enough (about a
      millisecond a move) to play on the bot's event loop instead of a worker process;
    * ``hidden_information``: players hold what others may not see, so the move menu is
      shown privately, never on the public board;
    * ``simultaneous``: players act at the same time, each seat with its own version;
    * ``solo``: "against the computer" means alone against the machine's score, with no
      computer player seated;
    * ``costly_new_game``: creating a game is CPU work (a generated puzzle), done in the
      bot's worker pool rather than on its event loop;
    * ``agents``: the module whose ``make_agent(level, rng)`` makes the computer players,
      when it is not the game's own; the game's rules then never import their players,
      whose search imports the rules;
    * ``presets``: named option sets offered as buttons when a game is set up, the first
      offered first;
    * ``beginner_options``: option text a game against the computer's first (weakest)
      level starts from, such as a learner's aid; options its creator typed come after
      and win.
    """

    name: str
    title: str
    aliases: tuple[str, ...] = ()
    levels: tuple[str, ...] = ()
    quick_levels: frozenset[str] = frozenset()
    hidden_information: bool = False
    simultaneous: bool = False
    solo: bool = False
    costly_new_game: bool = False
    agents: str = ""
    presets: tuple[GamePreset, ...] = ()
    beginner_options: str = ""


class GameModule(Protocol):
    """What the registry needs from each game's module."""

    NAME: str
    ALIASES: tuple[str, ...]
    TITLE: str
    LEVELS: tuple[str, ...]
    OPTIONS: tuple[OptionSpec, ...]
    INFO: GameInfo
    State: type[GameState]

    def new_game(self, options: JSON, players: int, seed: int) -> GameState: ...


def not_in_menu() -> InvalidMove:
    """The answer to a menu path the game did not offer: a forged or stale button."""
    return InvalidMove("error.not_in_menu", "That option is not on the menu.")


def follow_menu(path: tuple[str, ...], deepest: int, top: Callable[[], list[Choice]],
                submenu: Callable[[tuple[str, ...]], list[Choice]]) -> list[Choice]:
    """The menu after ``path``: each token must be an offered option that does not already
    complete a move, and a path longer than ``deepest`` is refused before any work."""
    if len(path) > deepest:
        raise not_in_menu()
    level = top()
    for depth, token in enumerate(path):
        choice = next((c for c in level if c.token == token), None)
        if choice is None or choice.action is not None:
            raise not_in_menu()
        level = submenu(path[:depth + 1])
    return level


def check_level(level: str, levels: tuple[str, ...]) -> None:
    """Refuse an agent level the game does not have, naming the ones it has."""
    if level not in levels:
        raise InvalidMove("error.unknown_level", "Unknown level '{level}'. Levels: {levels}.",
                          level=level, levels=", ".join(levels))


TurnState = TypeVar("TurnState", bound=GameState)


def play_actions(state: TurnState, actions: list[Action]) -> TurnState:
    """Apply a turn-based game's action log, each by the one seat to move: a replay."""
    for action in actions:
        (seat,) = state.to_move()
        state.apply(seat, action)
    return state


# What "Unknown option ... Options: {known}." lists for a game without options.
NO_OPTIONS = Message("error.no_options", "none")


def validate_options(specs: tuple[OptionSpec, ...], given: JSON) -> JSON:
    """Fill defaults and check types and ranges; unknown names are an error, not ignored."""
    known = {spec.name: spec for spec in specs}
    for name in given:
        if name not in known:
            raise InvalidMove(
                "error.unknown_option",
                "Unknown option '{name}'. Options: {known}.",
                name=name,
                known=", ".join(known) or NO_OPTIONS,
            )
    result: JSON = {}
    for spec in specs:
        value = given.get(spec.name, spec.default)
        if spec.kind is bool:
            if not isinstance(value, bool):
                raise InvalidMove("error.option_not_bool",
                                  "Option '{name}' is on or off, not {value!r}.",
                                  name=spec.name, value=value)
        elif spec.kind is str:
            if not isinstance(value, str) or (spec.choices and value not in spec.choices):
                raise InvalidMove("error.option_choice",
                                  "Option '{name}' is one of {choices}, not {value!r}.",
                                  name=spec.name, choices=", ".join(spec.choices),
                                  value=value)
            if len(value) > 60:
                raise InvalidMove("error.option_too_long", "Option '{name}' is too long.",
                                  name=spec.name)
            if spec.check is not None and value != spec.default:
                spec.check(value)
        else:
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidMove("error.option_not_int",
                                  "Option '{name}' needs a whole number, not {value!r}.",
                                  name=spec.name, value=value)
            low = spec.minimum if spec.minimum is not None else value
            high = spec.maximum if spec.maximum is not None else value
            if not low <= value <= high:
                raise InvalidMove("error.option_range",
                                  "Option '{name}' must be between {low} and {high}.",
                                  name=spec.name, low=spec.minimum, high=spec.maximum)
        result[spec.name] = value
    return result


def parse_option_text(specs: tuple[OptionSpec, ...], text: str) -> JSON:
    """Parse ``"sudden_death move_limit=50"`` style option text typed by a user."""
    known = {spec.name: spec for spec in specs}
    result: JSON = {}
    for word in _option_words(text):
        bare = _bare_choice(specs, word)
        if bare is not None:
            result[bare.name] = word.lower() if bare.choices else word
            continue
        name, _, raw = word.partition("=")
        name = name.strip().lower().replace("-", "_")
        spec = known.get(name)
        if spec is None:
            raise InvalidMove("error.unknown_option",
                              "Unknown option '{name}'. Options: {known}.",
                              name=name, known=", ".join(known) or NO_OPTIONS)
        if spec.kind is str:
            result[name] = raw.lower() if spec.choices else raw
        elif spec.kind is bool:
            if raw == "" or raw.lower() in {"on", "yes", "true", "1"}:
                result[name] = True
            elif raw.lower() in {"off", "no", "false", "0"}:
                result[name] = False
            else:
                raise InvalidMove("error.option_not_bool",
                                  "Option '{name}' is on or off, not {value!r}.",
                                  name=name, value=raw)
        else:
            try:
                result[name] = int(raw)
            except ValueError:
                raise InvalidMove("error.option_not_int",
                                  "Option '{name}' needs a whole number, not {value!r}.",
                                  name=name, value=raw) from None
    return validate_options(specs, result)


def _option_words(text: str) -> list[str]:
    """Words of option text; commas separate options except inside a ``name=a,b`` value."""
    words: list[str] = []
    for word in text.split():
        if "=" in word:
            words.append(word.rstrip(","))
        else:
            words.extend(part for part in word.split(",") if part)
    return words


def _bare_choice(specs: tuple[OptionSpec, ...], word: str) -> OptionSpec | None:
    for spec in specs:
        if spec.kind is str and spec.choices and word.lower() in spec.choices:
            return spec
        if spec.kind is str and spec.pattern and re.fullmatch(spec.pattern, word, re.I):
            return spec
    return None
