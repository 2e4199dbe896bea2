"""How the service draws a game: the public board with its move menu, a player's private
hand, the buttons' payloads and an ended game's panel, and the help and rules texts.
Pure functions of a stored record and its state (the texts are kept per record, see
``Presenter.texts``); the ``Presenter`` is the service's collaborator that every other
one draws through, and ``Service`` shows its public part to the adapters.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from bot.hints import hint_refusal
from bot.payloads import END_ACTIONS, Kind, Payload
from bot.replies import Board, Button, CardLine, Hand, Place, Reply
from bot.service.dangers import DangerMarks
from bot.store import GameRecord
from engines.base import GRID_TOKEN, Choice, GameState, Message
from engines.registry import game_info, game_names, get_game, resolve_name
from renderers import renderer_for
from renderers.i18n import localise, translate

# Fixed menu labels kept translated (``Presenter._choice_label``): the five games' fixed
# labels in three languages are a few hundred; past this the dict starts again.
LABELS_KEPT = 4096
# Games whose menus and views stay built (``Presenter._built_for``). At 430 moves a
# second about a hundred games are between the first and the last press of a move.
GAMES_BUILT_KEPT = 256


@dataclass(eq=False)
class Built:
    """The menus and views built from one record and state (identity, not equality: any
    save makes a new record object)."""

    record: GameRecord
    state: GameState
    menus: dict[tuple[int, tuple[str, ...]], list[Choice]] = field(default_factory=dict)
    views: dict[int | None, dict[str, Any]] = field(default_factory=dict)


def t(place: Place, key: str, default: str | None = None, **params: Any) -> str:
    """The catalogue's ``key`` in ``place``'s language."""
    return translate(place.language, key, default, **params)


def player_names(record: GameRecord) -> list[str]:
    return [str(p.get("name", "?")) for p in record.players]


def ai_seat_to_move(record: GameRecord, state: GameState) -> int | None:
    if record.status != "active":
        return None
    for seat in state.to_move():
        if record.players[seat].get("kind") == "ai":
            return seat
    return None


def hides_hands(record: GameRecord) -> bool:
    return game_info(record.game).hidden_information


def is_lobby_game(record: GameRecord) -> bool:
    """Games for more than two take players until one of them presses Start."""
    return get_game(record.game).State.max_players > 2


def menu_version(record: GameRecord, state: GameState, seat: int) -> int:
    """The version a menu button carries: the seat's own count of actions where players
    act at once (another player's move must not outdate my menu), else the game's."""
    own = state.seat_version(seat)
    return record.version if own is None else own


def payload(record: GameRecord, path: tuple[str, ...], kind: Kind = "m",
            version: int | None = None) -> str:
    stamp = record.version if version is None else version
    return Payload(kind, record.id, stamp, path).encode()


def last_token(button: Button) -> str:
    """The menu token a button of ``Presenter.menu`` adds to the path."""
    parsed = Payload.parse(button.payload)
    return parsed.last_token if parsed is not None else ""


class Presenter:
    """Draws the service's games, keeping what it drew: the texts per game, language and
    style (``texts``), and the menus and views of the last games moved (``built``). The
    core drops a game's (``forget``) whenever it drops the game, and all of them after a
    crash (``clear``)."""

    def __init__(self, dangers: DangerMarks) -> None:
        self.dangers = dangers  # the learner's danger marks drawn into the view
        # The texts last drawn per game: (seat or None for the board, language, emoji) ->
        # (record, state, text). A menu step or a hand press changes neither the record nor
        # the state object, so it reuses the text instead of rendering the whole board
        # again; most presses are such steps. Any save makes a new record object, so a hit
        # needs the very objects the text was drawn from.
        self.texts: dict[int, dict[tuple[int | None, str, bool],
                                   tuple[GameRecord, GameState, str]]] = {}
        # The boards last drawn at the menu's first step per game: (language, emoji) ->
        # (record, state, board). A game with hidden hands draws the same board at every
        # press of a move (the hand, each menu step), and every reader of a version gets
        # the same one; like ``texts``, a hit needs the very objects it was drawn from.
        # The boards are shared: nobody changes a drawn board (``Core.changed_reply``
        # replaces one to add a prompt).
        self.boards: dict[int, dict[tuple[str, bool], tuple[GameRecord, GameState, Board]]] = {}
        # The menus and views built for the games moved last (``menu_at``).
        self.built: OrderedDict[int, Built] = OrderedDict()
        # Fixed menu labels per (language, game, label) in the reader's language.
        self.labels: dict[tuple[str, str, str], str] = {}

    def forget(self, game_id: int) -> None:
        """Forget what was drawn of a game, so that its next board and hand are drawn
        again (it was saved, dropped, or its danger marks came after them)."""
        self.texts.pop(game_id, None)
        self.boards.pop(game_id, None)
        self.built.pop(game_id, None)

    def clear(self) -> None:
        self.texts.clear()
        self.boards.clear()
        self.built.clear()

    # ------------------------------------------------------------------ texts
    @staticmethod
    def help_text(place: Place, commands_key: str = "help.commands") -> str:
        """General help; ``commands_key`` names the adapter's own list of commands."""
        titles = ", ".join(f"{get_game(n).TITLE} ({n})" for n in game_names())
        return "\n".join([t(place, "help.title"), t(place, "help.games", games=titles),
                          t(place, commands_key), t(place, "help.buttons")])

    @staticmethod
    def rules_text(place: Place, game: str) -> str:
        name = resolve_name(game)
        return translate(place.language, f"rules.{name}",
                         getattr(renderer_for(name), "RULES", name))

    # ------------------------------------------------------------------ boards
    def _built_for(self, record: GameRecord, state: GameState) -> Built:
        """What was built for this record and state, kept for the last ``GAMES_BUILT_KEPT``
        games: enough for every move in progress, without holding a thousand games' menus
        (that cost 28 MB and doubled the young collections at 1000 tables)."""
        built = self.built.get(record.id)
        if built is None or built.record is not record or built.state is not state:
            self.built.pop(record.id, None)  # a new version goes to the back of the line
            built = self.built[record.id] = Built(record, state)
            if len(self.built) > GAMES_BUILT_KEPT:
                self.built.popitem(last=False)
        else:
            self.built.move_to_end(record.id)
        return built

    def menu_at(self, record: GameRecord, state: GameState, seat: int,
                path: tuple[str, ...]) -> list[Choice]:
        """``state.menu(seat, path)``, built once per record and state. A reply draws the
        menu, the press that follows resolves its path through the same menus (every step
        from the first), and a card game's menu judges each card in the hand against each
        slot: without this a move built each of its menus three to five times. The lists
        are shared: callers read them and never change them."""
        menus = self._built_for(record, state).menus
        choices = menus.get((seat, path))
        if choices is None:
            choices = menus[(seat, path)] = state.menu(seat, path)
        return choices

    def _view(self, record: GameRecord, state: GameState, seat: int | None) -> dict[str, Any]:
        """``seat``'s view (None: the public one) with the danger marks, built once per
        record and state like the menus: a hand's card lines read it at every press."""
        views = self._built_for(record, state).views
        view = views.get(seat)
        if view is None:
            view = views[seat] = {**state.view(seat), **self.dangers.view_extra(record)}
        return view

    def _choice_label(self, language: str, game: str, label: str) -> str:
        # A label with run-time parts is a Message with its own key; a fixed one is
        # looked up by the key the extraction gives it, once per language and game
        # (``labels``): a menu's thirty labels are drawn at every move.
        if isinstance(label, Message):
            return localise(language, label)
        kept = self.labels.get((language, game, label))
        if kept is None:
            if len(self.labels) >= LABELS_KEPT:
                self.labels.clear()
            kept = self.labels[(language, game, label)] = localise(
                language, label, f"{game}.choice.{label}")
        return kept

    def menu(self, place: Place, record: GameRecord, state: GameState, seat: int,
             path: tuple[str, ...]) -> tuple[list[Button], list[Button], str]:
        """Buttons, back-navigation and prompt for ``seat`` at menu ``path``."""
        version = menu_version(record, state, seat)
        choices = self.menu_at(record, state, seat, path)
        payloads = Payload("m", record.id, version, path).children(c.token for c in choices)
        language, game = place.language, record.game
        buttons = [Button(self._choice_label(language, game, c.label), data, c.group,
                          disabled=c.unavailable is not None)
                   for c, data in zip(choices, payloads, strict=True)]
        if not path:
            # A practice game (against the computer, or a puzzle) offers a hint at the
            # menu's first step; a game that counts has none (``bot.hints``).
            hint = ([Button(t(place, "menu.hint", "💡 Hint"),
                            payload(record, (), kind="i", version=version))]
                    if hint_refusal(record, place.language) is None else [])
            # A board of cells can also be tapped: the menu as the grid (issue 23).
            grid = ([Button(t(place, "menu.grid", "▦ Tap the board"),
                            payload(record, (GRID_TOKEN,), version=version))]
                    if state.offers_grid() and buttons else [])
            return buttons, [*grid, *hint], t(place, "menu.choose")
        back = [Button(t(place, "menu.back"),
                       payload(record, path[:-1], version=version))]
        told = state.menu_prompt(seat, path)
        prompt = (localise(place.language, told) if told is not None
                  else t(place, "menu.choose_step",
                         path=" · ".join(self._path_labels(record, state, seat, path,
                                                                   place.language))))
        return buttons, back, prompt

    def render_board(self, place: Place, record: GameRecord, state: GameState,
                     path: tuple[str, ...] = ()) -> Board:
        """The board text plus the menu for the player to move, at menu ``path``; at the
        first step drawn once per record, state, language and style (``boards``)."""
        if path:
            return self._draw_board(place, record, state, path)
        boards = self.boards.setdefault(record.id, {})
        key = (place.language, place.emoji)
        drawn = boards.get(key)
        if drawn is not None and drawn[0] is record and drawn[1] is state:
            return drawn[2]
        board = self._draw_board(place, record, state, path)
        boards[key] = (record, state, board)
        return board

    def _draw_board(self, place: Place, record: GameRecord, state: GameState,
                    path: tuple[str, ...]) -> Board:
        text = self._text(place, record, state, None)
        buttons: list[Button] = []
        navigation: list[Button] = []
        hand_button: Button | None = None
        prompt = ""
        if record.status == "waiting":
            title = get_game(record.game).TITLE
            if is_lobby_game(record):
                seated = [p["name"] for p in record.players if p.get("kind") == "human"]
                prompt = t(place, "game.lobby", game=title, players=", ".join(seated))
            else:
                prompt = t(place, "game.waiting", game=title)
            navigation.append(Button(t(place, "menu.join"),
                                     payload(record, (), kind="j")))
            if is_lobby_game(record):
                navigation.append(Button(t(place, "menu.start_now"),
                                         payload(record, (), kind="g")))
        elif record.status == "active":
            humans = [s for s in state.to_move() if record.players[s].get("kind") == "human"]
            if hides_hands(record):
                hand_button = Button(t(place, "menu.hand"),
                                     payload(record, (), kind="h"))
                if humans:
                    prompt = t(place, "menu.choose_privately",
                               name=", ".join(player_names(record)[s] for s in humans))
            elif humans:
                buttons, navigation, prompt = self.menu(place, record, state, humans[0], path)
        elif record.status in ("finished", "abandoned"):
            # "Play again" as the one main action, the rest beside it as navigation.
            panel = self._end_buttons(place, record)
            buttons = [b for b in panel if b.payload.endswith(":again")]
            navigation = [b for b in panel if not b.payload.endswith(":again")]
        to_move = ([dict(record.players[s]) for s in state.to_move()]
                   if record.status == "active" else [])
        return Board(record.id, record.version, text, not place.emoji, buttons, navigation,
                     prompt, to_move, hand_button, grid=type(state).has_grid)

    def _end_buttons(self, place: Place, record: GameRecord) -> list[Button]:
        """An ended game's panel: play it again, the presser's results, the rules, and
        the replay. A daily challenge has no second attempt, and its replay would show
        the day's solution to those still playing it."""
        labels = {"again": t(place, "end.again", "🔁 Play again"),
                  "stats": t(place, "end.stats", "📊 My results"),
                  "rules": t(place, "end.rules", "📖 Rules"),
                  "replay": t(place, "end.replay", "🔎 Replay")}
        daily = bool(record.options.get("daily"))
        tournament = bool(record.options.get("tournament"))  # its next round is paired
        return [Button(labels[action], payload(record, (action,), kind="e"))
                for action in END_ACTIONS
                if not (daily and action in ("again", "replay"))
                and not (tournament and action == "again")]

    def render_hand(self, place: Place, record: GameRecord, state: GameState, seat: int,
                    path: tuple[str, ...] = ()) -> Hand:
        """``seat``'s private view, with the move menu when that seat may act now."""
        text, view = self._drawn(place, record, state, seat)
        if record.status == "active" and seat in state.to_move():
            buttons, navigation, prompt = self.menu(place, record, state, seat, path)
        else:
            buttons, navigation, prompt = [], [], ""
        private_cards = getattr(renderer_for(record.game), "private_cards", None)
        cards: list[CardLine] | None = None
        if private_cards is not None:
            # Each card's line with the button that plays it, at the menu's first step
            # (``Hand.cards``); at a later step no card is pressable, so none.
            cards = []
            if not path and buttons:
                if view is None:  # the text was drawn before
                    view = self._view(record, state, seat)
                by_token = {last_token(b): b for b in buttons}
                cards = [CardLine(line, by_token.get(token))
                         for token, line in private_cards(view, place.language)]
        return Hand(text, buttons, navigation, prompt, cards)

    def _text(self, place: Place, record: GameRecord, state: GameState,
              seat: int | None) -> str:
        """The board (``seat`` None) or ``seat``'s private view as text, drawn once per
        record and state (see ``_texts``)."""
        return self._drawn(place, record, state, seat)[0]

    def _drawn(self, place: Place, record: GameRecord, state: GameState, seat: int | None
               ) -> tuple[str, dict[str, Any] | None]:
        """``_text``, with the view it was drawn from when it was drawn now (None when the
        text was kept from before)."""
        texts = self.texts.setdefault(record.id, {})
        key = (seat, place.language, place.emoji)
        drawn = texts.get(key)
        if drawn is not None and drawn[0] is record and drawn[1] is state:
            return drawn[2], None
        renderer = renderer_for(record.game)
        players = player_names(record)
        render_private = getattr(renderer, "render_private", None) if seat is not None else None
        view = self._view(record, state, seat)
        text = (render_private(view, players, place.language, place.emoji)
                if render_private is not None
                else renderer.render(view, players, place.language, place.emoji))
        texts[key] = (record, state, text)
        return text, view

    def _path_labels(self, record: GameRecord, state: GameState, seat: int,
                     path: tuple[str, ...], language: str) -> list[str]:
        """The labels of the choices along ``path`` in ``language``, as ``_choice_label``
        shows them."""
        labels = []
        for depth, token in enumerate(path):
            offered = {c.token: c.label
                       for c in self.menu_at(record, state, seat, path[:depth])}
            label = offered.get(token, token)
            labels.append(localise(language, label, f"{state.game_name}.choice.{label}"))
        return labels

    def board_reply(self, place: Place, record: GameRecord, state: GameState,
                    notice: str | None = None, ok: bool = True,
                    path: tuple[str, ...] = ()) -> Reply:
        return Reply(ok=ok, board=self.render_board(place, record, state, path), notice=notice,
                     ai_to_move=ai_seat_to_move(record, state) is not None,
                     finished=not record.running)
