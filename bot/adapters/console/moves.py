"""The console's move prompt: one step of a move's menu, numbered, and what a line typed
at it does.

Only the options that can be taken now are numbered (a menu may offer a move the rules
refuse, as bOOleO's referee does to teach why; here it is shown, marked, without a
number). 0 goes one step back and nothing else; ``h`` asks for a hint after a yes/no
question, since a hint leaves the game's result uncounted; ``resign`` and ``abandon`` ask
first too. Enter alone is refused with what is expected: a move has no default, and
taking one (once "board", which went back to the move's first step) undid a step without a
word. A refused step returns to the step it was taken at, not to the move's start.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass

from bot.hints import hint_refusal
from bot.payloads import Payload
from bot.service import Board, Button, Hand, Place, Reply, Service, User
from engines.base import GRID_TOKEN, GameError
from engines.registry import get_game

QUIT_WORDS = frozenset({"quit", "exit", "q"})
HINT_WORDS = frozenset({"h", "hint"})
# A choice or a move is a few words: a longer line (a paste gone wrong) is refused
# without being echoed back.
LONGEST_LINE = 200
# The mark of an option that cannot be taken now (the engines' "no place now" mark).
NO_PLACE_MARK = "✖"


class MovePrompt(ABC):
    """The move prompt of ``bot.adapters.console.ConsoleSession``, which provides what is
    declared here."""

    service: Service
    place: Place
    write: Callable[[str], None]
    # Whose hand the last reply's ``hand`` is (see ``ConsoleSession.hand_for``).
    hand_of: str
    last_board: str
    last_hand: str

    @abstractmethod
    def t(self, key: str, **params: object) -> str: ...

    @abstractmethod
    def refuse(self, text: str) -> None: ...

    @abstractmethod
    async def confirm(self, title: str) -> bool: ...

    @abstractmethod
    async def answer_word(self, word: str, user: User | None = None) -> bool: ...

    async def refused_now(self, menu: Board | Hand, user: User) -> frozenset[str]:
        """The payloads of the menu's buttons that would complete a move the rules refuse
        now. A chat menu offers them on purpose (bOOleO's referee explains why a gate does
        not fit); at a keyboard they are shown, marked, without a number, so that a
        number never leads to a refusal that throws the move's steps away."""
        parsed = [Payload.parse(button.payload) for button in menu.buttons]
        steps = {payload.path[:-1] for payload in parsed if payload is not None}
        record = await self.service.running_record(self.place)
        if len(steps) != 1 or record is None:
            return frozenset()
        seat = self.service.seat_of(record, user)
        if seat is None:
            return frozenset()
        state = get_game(record.game).State.from_dict(record.state)
        try:
            leaves = {choice.token: choice.action for choice in state.menu(seat, steps.pop())
                      if choice.action is not None}
            legal = set(state.legal_actions(seat)) if leaves else set()
        except GameError:
            return frozenset()
        return frozenset(button.payload for button, payload in zip(menu.buttons, parsed,
                                                                   strict=True)
                         if payload is not None and payload.last_token in leaves
                         and leaves[payload.last_token] not in legal)

    def write_step(self, step: MoveStep) -> None:
        """The options that can be taken numbered from 1, those that cannot now listed
        without a number, then 0 for back and h for a hint where they apply."""
        for number, button in enumerate(step.options, 1):
            # A card marked as fitting nowhere is still offered for its discard: say so,
            # or its number reads as a placement the marks said was impossible.
            label = (self.t("console.no_place_discard", label=button.label)
                     if button.label.startswith(NO_PLACE_MARK) else button.label)
            self.write(f"  {number:>2}) {label}")
        for button in step.unavailable:
            marked = button.label.startswith(NO_PLACE_MARK)
            self.write(f"      {button.label if marked else f'{NO_PLACE_MARK} {button.label}'}")
        if step.back is not None:
            self.write(f"   0) {step.back.label}")
        if step.hint is not None:
            # Once a hint is taken the game counts for nothing already: no question then.
            key = "console.hint_option_again" if step.hinted else "console.hint_option"
            self.write(f"   h) {self.t(key, label=step.hint.label)}")

    async def take_line(self, line: str | None, reply: Reply, step: MoveStep, user: User
                        ) -> Reply | None:
        """What one line at a move's prompt does: the reply to show next (``reply`` itself
        when nothing changed), or None when the player quits."""
        word = line.strip().lower() if line is not None else "quit"
        if word in QUIT_WORDS:
            self.write(self.t("console.saved"))
            return None
        assert line is not None
        if len(word) > LONGEST_LINE:
            self.refuse(self.t("console.line_too_long", length=len(word)))
            return reply
        if not word:
            # Enter chose "board" once, which silently undid the step taken before it.
            self.refuse(f"{self.t('console.move_has_no_default')} {self.pick_text(step)}")
            return reply
        picked = menu_number(word)
        if picked is not None:
            chosen = (step.back if picked == 0 else
                      step.options[picked - 1] if 1 <= picked <= len(step.options) else None)
            if chosen is None:
                self.refuse(self.pick_text(step))
                return reply
            return await self.press(user, chosen)
        if word in HINT_WORDS:
            return await self.take_hint(reply, user)
        if word == "resign":
            if await self.confirm(self.t("console.resign_confirm")):
                return await self.service.resign(self.place, user)
            self.write(self.t("console.nothing_changed"))
            return reply
        if word == "abandon":
            if await self.confirm(self.t("console.abandon_confirm")):
                return await self.service.abandon(self.place, user)
            self.write(self.t("console.nothing_changed"))
            return reply
        if word == "board":
            self.last_board = self.last_hand = ""  # printed again, at the same step
            return reply
        if await self.answer_word(word, user):
            return reply
        self.hand_of = user.id
        return await self.service.move(self.place, user, line.strip())

    def pick_text(self, step: MoveStep) -> str:
        if step.back is not None:
            return self.t("console.pick_step", count=len(step.options))
        return self.t("console.pick_move", count=len(step.options))

    async def press(self, user: User, chosen: Button) -> Reply:
        """Press a menu button. A refused step goes back to the step it was taken at, so
        that one wrong pick does not throw away the steps before it."""
        self.hand_of = user.id
        answer = await self.service.press(self.place, user, chosen.payload)
        parsed = Payload.parse(chosen.payload)
        if answer.ok or parsed is None or parsed.kind != "m" or len(parsed.path) < 2:
            return answer
        again = await self.service.press(self.place, user, parsed.parent().encode())
        if not again.ok:
            return answer
        again.ok, again.notice = False, answer.notice
        return again

    async def take_hint(self, reply: Reply, user: User) -> Reply:
        """A hint. Where it would leave the game's result uncounted the service asks
        first (``Reply.confirm``, ``bot.hints``): asked here as a yes/no question, whose
        yes is the service's own yes button."""
        record = await self.service.running_record(self.place)
        if record is None:
            return reply
        refusal = hint_refusal(record, self.place.language)
        if refusal is not None:
            self.refuse(refusal)
            return reply
        self.hand_of = user.id
        asked = await self.service.hint(self.place, user)
        if asked.confirm is None:
            return asked  # the hint (nothing left to void), or why there is none
        if not await self.confirm(self.t("console.hint_confirm")):
            self.write(self.t("console.nothing_changed"))
            return reply
        return await self.service.press(self.place, user, asked.confirm.payload)


@dataclass(frozen=True)
class MoveStep:
    """One step of a move's menu as the console offers it: the options that can be taken
    (numbered), those that cannot now (shown, not numbered), back (0) and the hint (h)."""

    options: tuple[Button, ...]
    unavailable: tuple[Button, ...]
    back: Button | None
    hint: Button | None
    # Whether a hint was taken in this game already (the next one asks nothing).
    hinted: bool = False

    @classmethod
    def of(cls, menu: Board | Hand, refused: frozenset[str] = frozenset(),
           hinted: bool = False) -> MoveStep:
        """The step of ``menu``; ``refused``: payloads of its options that cannot be
        taken now although the menu offers them (``ConsoleSession.refused_now``)."""
        # The board's grid is for tapping; at a keyboard the numbered list (or a typed
        # move) is quicker.
        navigation = [b for b in menu.navigation if not opens_grid(b)]
        kinds = [Payload.parse(b.payload) for b in navigation]
        back = next((b for b, kind in zip(navigation, kinds, strict=True)
                     if kind is not None and kind.kind == "m"), None)
        hint = next((b for b, kind in zip(navigation, kinds, strict=True)
                     if kind is not None and kind.kind == "i"), None)
        def takes(button: Button) -> bool:
            return not button.disabled and button.payload not in refused
        return cls(tuple(b for b in menu.buttons if takes(b)),
                   tuple(b for b in menu.buttons if not takes(b)), back, hint, hinted)


def opens_grid(button: Button) -> bool:
    payload = Payload.parse(button.payload)
    return payload is not None and payload.path == (GRID_TOKEN,)


def menu_number(text: str) -> int | None:
    """A typed option number; only ASCII digits count (``²`` is a digit to Python)."""
    return int(text) if text.isascii() and text.isdigit() and len(text) < 6 else None
