"""The phone-width pages of benchmarks/ux_screens.py: the bot's own text and buttons drawn
as the platforms draw them (Markdown or HTML, code blocks, button rows), so that the
screenshots in docs/ux.md can be made again. Chromium is not needed: only the HTML is
checked, and the screenshots are the script's business."""

from __future__ import annotations

import re

from benchmarks import ux_screens
from benchmarks.ux_screens import Bubble, Control, Scene, Screen


def test_discord_markdown_keeps_code_blocks_and_the_escaped_prose_literal() -> None:
    content = ("```\n4 ■1011 <b> .\n  a   b\n```\nA \\| B \\* moved \\_x\\_ · **bold** *it*\n"
               "🔔 <@42:alice>, it is your turn.")
    drawn = ux_screens.discord_markdown(content)
    # The fenced block is a monospace block, verbatim: spaces, HTML escaped, no emoji spans.
    assert '<pre class="code">4 ■1011 &lt;b&gt; .\n  a   b</pre>' in drawn
    # The adapter's escapes show as the characters; real Markdown is set.
    assert "A | B * moved _x_ · <b>bold</b> <i>it</i>" in drawn
    assert '<span class="e">🔔</span> <span class="mention">@alice</span>' in drawn
    assert drawn.count('<div class="prose">') == 1


def test_discord_mentions_get_the_names_of_the_people() -> None:
    assert ux_screens.with_names("🔔 <@7>, go", {7: "bob"}) == "🔔 <@7:bob>, go"


def test_telegram_html_keeps_its_pre_blocks_and_tags() -> None:
    text = ('<pre>Level 4\n1 □1110 &lt; .</pre>\n○ Circle &amp; co\n<b>▶ Ben: Choose.</b>\n'
            '🔔 <a href="tg://user?id=3002">Ben</a>, <i>it is</i> your turn.')
    drawn = ux_screens.telegram_markup(text)
    # The line break after the block is the block's edge, not an empty line.
    assert '<pre class="code">Level 4\n1 □1110 &lt; .</pre>○ Circle &amp; co\n' in drawn
    assert "<b>▶ Ben: Choose.</b>" in drawn and "<i>it is</i>" in drawn
    assert '<span class="mention">Ben</span>' in drawn


def test_emoji_are_found_as_the_apps_draw_them() -> None:
    spans = re.findall(r'<span class="e">(.*?)</span>',
                       ux_screens.emoji_spans("4️⃣⬜🟦 🇦\u200b🇧 ▶️ ▶ ○ ■ 🂠 🃏 ∧ 👍🏽"))
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
    page = ux_screens.page("discord", [scene("discord")], seed=1)
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
    page = ux_screens.page("telegram", [scene("telegram")], seed=1)
    assert '<section id="rithmomachia">' in page
    assert page.count('<div class="row">') == 3
    assert page.count('class="button primary"') == 4
    assert '<span class="corner">↗</span>' in page  # a link button's corner arrow
    assert "edited 12:00" in page and "rithmomachia table" in page
    assert "bot · private chat with Ben" in page and 'class="message private"' in page


async def test_a_discord_scene_is_captured_from_the_fake() -> None:
    captured = await ux_screens.capture("discord", "lgame", seed=1, moves=1)
    [screen] = captured.screens
    board = screen.bubbles[0]
    # The second player's turn: the board with its move buttons, then the cue naming them.
    assert captured.viewer == "bob" and captured.moves == 1
    assert board.header == "alice used /play" and board.rows and board.edited
    assert any(c.style == "primary" for row in board.rows for c in row)
    assert screen.bubbles[-1].text.startswith("🔔 <@") and ":bob>" in screen.bubbles[-1].text
    assert '<section id="lgame">' in ux_screens.page("discord", [captured], seed=1)
