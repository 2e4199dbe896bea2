"""The phone-width pages of benchmarks/ux_screens.py: the bot's own text and buttons drawn
as the platforms draw them (Markdown or HTML, code blocks, button rows, Discord's
Components V2 hands with each card's button beside its line), so that the
screenshots in docs/ux.md can be made again. Chromium is not needed: only the HTML is
checked, and the screenshots are the script's business."""

from __future__ import annotations

import re
from typing import Any

import discord

from benchmarks import ux_capture, ux_markup, ux_pages
from benchmarks.ux_scene import Bubble, Control, Scene, Screen
from bot.adapters.discord.components import build_view
from bot.adapters.discord.hands import hand_layout
from bot.replies import Button, CardLine, Hand


def test_discord_markdown_keeps_code_blocks_and_the_escaped_prose_literal() -> None:
    content = ("```\n4 ■1011 <b> .\n  a   b\n```\nA \\| B \\* moved \\_x\\_ · **bold** *it*\n"
               "🔔 <@42:alice>, it is your turn.")
    drawn = ux_markup.discord_markdown(content)
    # The fenced block is a monospace block, verbatim: spaces, HTML escaped, no emoji spans.
    assert '<pre class="code">4 ■1011 &lt;b&gt; .\n  a   b</pre>' in drawn
    # The adapter's escapes show as the characters; real Markdown is set.
    assert "A | B * moved _x_ · <b>bold</b> <i>it</i>" in drawn
    assert '<span class="e">🔔</span> <span class="mention">@alice</span>' in drawn
    assert drawn.count('<div class="prose">') == 1


def test_discord_mentions_get_the_names_of_the_people() -> None:
    assert ux_capture.with_names("🔔 <@7>, go", {7: "bob"}) == "🔔 <@7:bob>, go"


def test_telegram_html_keeps_its_pre_blocks_and_tags() -> None:
    text = ('<pre>Level 4\n1 □1110 &lt; .</pre>\n○ Circle &amp; co\n<b>▶ Ben: Choose.</b>\n'
            '🔔 <a href="tg://user?id=3002">Ben</a>, <i>it is</i> your turn.')
    drawn = ux_markup.telegram_markup(text)
    # The line break after the block is the block's edge, not an empty line.
    assert '<pre class="code">Level 4\n1 □1110 &lt; .</pre>○ Circle &amp; co\n' in drawn
    assert "<b>▶ Ben: Choose.</b>" in drawn and "<i>it is</i>" in drawn
    assert '<span class="mention">Ben</span>' in drawn


def test_emoji_are_found_as_the_apps_draw_them() -> None:
    spans = re.findall(r'<span class="e">(.*?)</span>',
                       ux_markup.emoji_spans("4️⃣⬜🟦 🇦\u200b🇧 ▶️ ▶ ○ ■ 🂠 🃏 ∧ 👍🏽"))
    assert spans == ["4️⃣", "⬜", "🟦", "🇦", "🇧", "▶️", "🃏", "👍🏽"]


def scene(platform: str) -> Scene:
    if platform == "discord":
        rows = [[Control("button", "L on a1 b1 b2 b3", "primary"),
                 Control("button", "↩ back", "secondary")],
                [Control("select", "Choose… (1–25)", options=[f"o{n}" for n in range(25)])]]
        board = Bubble("Logic Bot", "```\n· ·\n```\nTo move: alice.", rows, edited=True,
                       header="alice used /play")
        hand = Bubble("Logic Bot", "🂠 Your hand", [[Control("button", "AND→1", "primary")]],
                      private=True)
        cue = Bubble("Logic Bot", "🔔 <@1:alice>, it is your turn.")
        return Scene("discord", "lgame", "alice", 2,
                     [Screen("# lgame-0", "Class 3B", [board, hand, cue])])
    keyboard = [[Control("button", f"{n}", "primary") for n in range(3)],
                [Control("button", "4b2⇒3b3 push", "primary")],
                [Control("link", "⬅ Back to the group", "link")]]
    board = Bubble("Logic Bot", "<pre>· ·</pre>\n<b>▶ Ben</b>", keyboard, edited=True)
    return Scene("telegram", "rithmomachia", "Ben", 3,
                 [Screen("rithmomachia table", "3 members",
                         [board, Bubble("Logic Bot", "🔔 it is your turn.")]),
                  Screen("Logic Bot", "bot · private chat with Ben",
                         [Bubble("Logic Bot", "<i>🂠 Your hand</i>")])])


def test_a_discord_page_draws_rows_selects_and_ephemeral_messages() -> None:
    page = ux_pages.page("discord", [scene("discord")], seed=1)
    assert page.startswith("<!DOCTYPE html>") and "width: 360px" in page
    assert '<section id="lgame">' in page and "after 2 moves, as alice sees it" in page
    # The adapter's rows stay rows: two buttons, then a select showing its placeholder.
    keyboards = re.findall(r'<div class="keyboard">(.*?)</div></div></div>', page)
    assert keyboards[0].count('<div class="row">') == 2
    assert keyboards[0].count('class="button primary"') == 1
    assert 'class="button secondary"' in keyboards[0]
    assert '<div class="select" title="25 options">' in keyboards[0]
    assert "Choose… (1–25)" in keyboards[0]
    assert "alice used /play" in page and "Only you can see this" in page
    assert page.count('class="message ephemeral"') == 1
    # The cue follows the bot's own message without a name of its own: one group.
    assert page.count("Today at 12:00") == 2
    assert "(edited)" in page and "<script>" in page


def test_a_telegram_page_draws_the_keyboard_rows_and_the_private_chat() -> None:
    page = ux_pages.page("telegram", [scene("telegram")], seed=1)
    assert '<section id="rithmomachia">' in page
    assert page.count('<div class="row">') == 3
    assert page.count('class="button primary"') == 4
    assert '<span class="corner">↗</span>' in page  # a link button's corner arrow
    assert "edited 12:00" in page and "rithmomachia table" in page
    assert "bot · private chat with Ben" in page and 'class="message private"' in page


async def test_a_discord_scene_is_captured_from_the_fake() -> None:
    captured = await ux_capture.capture("discord", "lgame", seed=1, moves=1)
    [screen] = captured.screens
    board = screen.bubbles[0]
    # The second player's turn: the board with its move buttons, then the cue naming them.
    assert captured.viewer == "bob" and captured.moves == 1
    # The L-game's board is a Components V2 message: its text in text displays, its
    # buttons in action-row blocks (a classic board would have them in ``rows``).
    assert board.header == "alice used /play" and board.edited and not board.rows
    assert "Last move by alice" in board.text
    rows = [block.controls for block in board.blocks if block.kind == "row"]
    assert rows and any(c.style == "primary" for row in rows for c in row)
    assert screen.bubbles[-1].text.startswith("🔔 <@") and ":bob>" in screen.bubbles[-1].text
    assert '<section id="lgame">' in ux_pages.page("discord", [captured], seed=1)


def v2_hand_components() -> list[dict[str, Any]]:
    """A Digitalo-like card hand as the adapter sends it (Components V2): its text, a
    section per card (the second card unavailable), the prompt, then the other options."""
    cards = [("AND→1", "goes where both inputs are 1"), ("INV", "flips a bit card for both"
                                                         " players"),
             ("NAND→1 ×2", "goes where an input is 0")]
    buttons = [Button(name, f"m:1:1:C{n}", disabled=n == 1)
               for n, (name, _) in enumerate(cards)]
    lines = [f"• {name}: {meaning}" for name, meaning in cards]
    hand = Hand("\n".join(["🂠 Your hand (South):", *lines]),
                [*buttons, Button("Discard", "m:1:1:D")], [Button("💡 Hint", "i:1:1:")],
                "Choose your move.",
                [CardLine(line, button) for line, button in zip(lines, buttons, strict=True)])
    view = build_view(hand_layout(hand, "en"))
    assert isinstance(view, discord.ui.LayoutView)
    return [dict(component) for component in view.to_components()]


def test_a_discord_v2_hand_draws_each_card_beside_its_button() -> None:
    components = v2_hand_components()
    assert [c["type"] for c in components] == [10, 9, 9, 9, 10, 1, 1]
    blocks = ux_capture.discord_blocks(components, {})
    hand = Bubble("Logic Bot", ux_capture.blocks_text(blocks), blocks=blocks, private=True)
    page = ux_pages.page("discord", [Scene("discord", "digitalo", "alice", 3,
                                             [Screen("# digitalo-0", "Class 3B", [hand])])],
                           seed=1)
    assert "🂠 Your hand (South):" in hand.text and "Choose your move." in hand.text
    # Each card's line and meaning, then the button that plays it on the right of it.
    for name, meaning, disabled in (("AND→1", "goes where both inputs are 1", False),
                                    ("INV", "flips a bit card for both players", True),
                                    ("NAND→1 ×2", "goes where an input is 0", False)):
        greyed = "secondary disabled" if disabled else "primary"  # as the adapter sends it
        assert (f'<div class="v2-section"><div class="v2-section-text"><div class="prose">'
                f"• {name}: {meaning}</div></div><div class=\"accessory\">"
                f'<div class="button {greyed}"><span class="label">{name}</span>'
                ) in page
    assert page.count('class="v2-section"') == 3
    # The text displays are message text; the other options (Discard, then the navigation)
    # one keyboard of two rows under the prompt.
    assert '<div class="v2-text"><div class="prose">Choose your move.</div></div>' in page
    [keyboard] = re.findall(r'<div class="keyboard">(.*?)</div></div></div>', page)
    assert keyboard.count('<div class="row">') == 2
    assert "Discard" in keyboard and "💡" in keyboard and "AND→1" not in keyboard
    assert page.index("Choose your move.") < page.index('<div class="keyboard">')
    # No V2 message is drawn as content with rows of sections.
    assert '<div class="row"><div class="button primary"><span class="label">AND→1' \
        not in page


def test_a_container_draws_its_components_inside_it() -> None:
    container = {"type": 17, "accent_color": 0x5865F2,
                 "components": [*v2_hand_components(), {"type": 14, "divider": True}]}
    blocks = ux_capture.discord_blocks([container, {"type": 10, "content": "after"}], {})
    assert [b.kind for b in blocks] == ["container", "text"]
    assert [b.kind for b in blocks[0].children] == ["text", "section", "section", "section",
                                                    "text", "row", "row", "separator"]
    drawn = ux_pages.blocks_html(blocks)
    assert drawn.startswith('<div class="v2"><div class="container" '
                            'style="border-left-color: #5865f2">')
    inside = drawn[:drawn.index("after")]
    assert inside.count('class="v2-section"') == 3 and '<hr class="separator">' in inside
    assert ux_capture.blocks_text(blocks).endswith("Choose your move.\nafter")


async def test_a_discord_card_hand_is_captured_as_sections() -> None:
    captured = await ux_capture.capture("discord", "booleo", seed=1, moves=3)
    [screen] = captured.screens
    [hand] = [bubble for bubble in screen.bubbles if bubble.private]
    sections = [block for block in hand.blocks if block.kind == "section"]
    assert len(sections) >= 3 and not hand.rows
    page = ux_pages.page("discord", [captured], seed=1)
    for section in sections:
        # "• AND→1: goes where both inputs are 1" beside the button "AND→1".
        found = re.fullmatch(r"• (\S+)(?: ×\d)?: (.+)", section.text)
        assert found, section.text
        [button] = section.controls
        assert button.kind == "button" and found[1] in button.label
        line = ux_markup.discord_markdown(section.text)
        assert (f'<div class="v2-section-text">{line}</div><div class="accessory">'
                f'<div class="button {button.style}') in page
        assert ux_markup.emoji_spans(found[2]) in line
