"""The pages of ``benchmarks/ux_screens.py``: the captured scenes drawn as HTML that imitates
each platform's phone app at 360 CSS pixels (message bubbles, button rows, Discord's
Components V2 blocks), its CSS, and the script with which the page measures itself."""

from __future__ import annotations

import html

from benchmarks.ux_markup import discord_markdown, emoji_spans, telegram_markup
from benchmarks.ux_scene import Block, Bubble, Control, Scene, Screen

PHONE_WIDTH = 360  # CSS pixels: a common Android phone in portrait


def control_html(control: Control, platform: str) -> str:
    label = emoji_spans(control.label)
    disabled = " disabled" if control.disabled else ""
    if control.kind == "select":
        count = len(control.options)
        return (f'<div class="select{disabled}" title="{count} options">'
                f'<span class="placeholder">{label}</span><span class="chevron">⌄</span>'
                "</div>")
    corner = '<span class="corner">↗</span>' if control.kind == "link" else ""
    return (f'<div class="button {control.style or "plain"}{disabled}">'
            f'<span class="label">{label}</span>{corner}</div>')


def rows_html(rows: list[list[Control]], platform: str) -> str:
    if not rows:
        return ""
    lines = "".join('<div class="row">' + "".join(control_html(c, platform) for c in row)
                    + "</div>" for row in rows)
    return f'<div class="keyboard">{lines}</div>'


def blocks_html(blocks: list[Block]) -> str:
    """A Components V2 message's blocks as the app draws them, top to bottom: text as
    message text, a section's text with its accessory on the right, consecutive action
    rows as one keyboard, a container as a box around its own blocks."""
    out: list[str] = []
    rows: list[list[Control]] = []
    for block in blocks:
        if block.kind == "row":
            rows += [block.controls] if block.controls else []
            continue
        out.append(rows_html(rows, "discord"))
        rows = []
        if block.kind == "text":
            out.append(f'<div class="v2-text">{discord_markdown(block.text)}</div>')
        elif block.kind == "section":
            beside = "".join(control_html(c, "discord") for c in block.controls)
            out.append(f'<div class="v2-section"><div class="v2-section-text">'
                       f'{discord_markdown(block.text)}</div>'
                       f'<div class="accessory">{beside}</div></div>')
        elif block.kind == "container":
            accent = (f' style="border-left-color: #{block.accent:06x}"'
                      if block.accent is not None else "")
            out.append(f'<div class="container"{accent}>{blocks_html(block.children)}</div>')
        elif block.kind == "separator":
            out.append('<hr class="separator">' if block.divider
                       else '<div class="spacer"></div>')
        else:
            out.append(f'<div class="prose subtext">(component of type '
                       f"{html.escape(block.text)}, not drawn)</div>")
    out.append(rows_html(rows, "discord"))
    return f'<div class="v2">{"".join(out)}</div>'


def initials(name: str) -> str:
    return html.escape(name[:1].upper() or "?")


def files_html(files: list[str]) -> str:
    """Attached files as the apps draw them: a box with a document icon and the name."""
    return "".join(f'<div class="file"><span class="file-icon">📄</span>'
                   f'<span class="file-name">{html.escape(name)}</span></div>'
                   for name in files)


def discord_bubbles(bubbles: list[Bubble]) -> str:
    parts: list[str] = []
    previous = ""
    for bubble in bubbles:
        grouped = bubble.author == previous and not bubble.header and not bubble.private
        previous = bubble.author
        body = blocks_html(bubble.blocks) if bubble.blocks else discord_markdown(bubble.text)
        if bubble.edited:  # after the last line of text, or under a closing code block
            mark = '<span class="edited">(edited)</span>'
            body = (body[:-len("</div>")] + mark + "</div>"
                    if body.endswith("</div>") and not bubble.blocks
                    else body + f'<div class="prose">{mark}</div>')
        classes = "message" + (" ephemeral" if bubble.private else "") + \
            (" grouped" if grouped else "")
        head = ""
        if bubble.header:
            head += f'<div class="reply">{html.escape(bubble.header)}</div>'
        if not grouped:
            tag = '<span class="tag">APP</span>' if bubble.bot else ""
            head += (f'<div class="name">{html.escape(bubble.author)}{tag}'
                     '<span class="time">Today at 12:00</span></div>')
        avatar = "" if grouped else f'<div class="avatar">{initials(bubble.author)}</div>'
        foot = ('<div class="only-you">👁 Only you can see this · '
                '<span class="link">Dismiss message</span></div>') if bubble.private else ""
        parts.append(f'<div class="{classes}">{avatar}<div class="body">{head}'
                     f"{body}{files_html(bubble.files)}{rows_html(bubble.rows, 'discord')}"
                     f"{foot}</div></div>")
    return "".join(parts)


def telegram_bubbles(bubbles: list[Bubble], group: bool) -> str:
    parts: list[str] = []
    for index, bubble in enumerate(bubbles):
        following = bubbles[index + 1] if index + 1 < len(bubbles) else None
        last_of_run = following is None or following.author != bubble.author
        first_of_run = index == 0 or bubbles[index - 1].author != bubble.author
        name = (f'<div class="name">{html.escape(bubble.author)}</div>'
                if group and first_of_run else "")
        stamp = ("edited " if bubble.edited else "") + "12:00"
        avatar = ""
        if group:
            avatar = (f'<div class="avatar">{initials(bubble.author)}</div>'
                      if last_of_run else '<div class="avatar blank"></div>')
        wide = " wide" if bubble.rows else ""
        wide += "" if group else " private"
        parts.append(f'<div class="message{wide}">{avatar}<div class="column">'
                     f'<div class="bubble">{name}{files_html(bubble.files)}'
                     f'{telegram_markup(bubble.text)}'
                     f'<span class="time">{stamp}</span></div>'
                     f"{rows_html(bubble.rows, 'telegram')}</div></div>")
    return "".join(parts)


COMMON_CSS = f"""
* {{ box-sizing: border-box; }}
html, body {{ margin: 0; padding: 0; }}
body {{ width: {PHONE_WIDTH}px; -webkit-font-smoothing: antialiased; }}
body:has(section:target) section:not(:target) {{ display: none; }}
section {{ width: {PHONE_WIDTH}px; overflow: hidden; }}
.prose {{ white-space: pre-wrap; overflow-wrap: anywhere; }}
pre.code {{ white-space: pre-wrap; word-break: break-all; margin: 0;
  font-family: "DejaVu Sans Mono", Menlo, "Roboto Mono", monospace; }}
.e {{ font-family: "Noto Color Emoji", "Apple Color Emoji", sans-serif; }}
.keyboard {{ display: flex; flex-direction: column; }}
.row {{ display: flex; }}
.button, .select {{ overflow: hidden; white-space: nowrap; position: relative; }}
.label {{ overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }}
.caption {{ font: 12px/1.4 Roboto, "DejaVu Sans", sans-serif; padding: 6px 10px; }}
"""

DISCORD_CSS = """
body, section { background: #1a1a1e; color: #dfe0e2;
  font: 16px/1.375 Roboto, "gg sans", "Noto Sans", "DejaVu Sans", sans-serif; }
.bar { display: flex; align-items: center; height: 52px; padding: 0 14px;
  border-bottom: 1px solid #2c2d32; background: #1a1a1e; }
.bar .title { font-weight: 700; font-size: 17px; color: #fff; }
.bar .sub { font-size: 13px; color: #9b9ca3; margin-left: 8px; }
.messages { padding: 8px 0 12px; }
.message { display: flex; padding: 2px 12px 2px 12px; margin-top: 14px; }
.message.grouped { margin-top: 2px; padding-left: 64px; }
.message.ephemeral { background: rgba(88, 101, 242, 0.08); padding-top: 4px;
  padding-bottom: 6px; }
.avatar { flex: 0 0 40px; height: 40px; border-radius: 50%; background: #5865f2;
  color: #fff; font-weight: 700; display: flex; align-items: center;
  justify-content: center; margin-right: 12px; margin-top: 2px; }
.body { flex: 1 1 auto; min-width: 0; }
.reply { font-size: 13px; color: #9b9ca3; margin: -4px 0 2px; }
.reply::before { content: "╭ "; color: #4e5058; }
.name { font-weight: 600; color: #fff; font-size: 16px; }
.tag { background: #5865f2; color: #fff; font-size: 10px; font-weight: 600;
  border-radius: 4px; padding: 1px 4px; margin-left: 6px; vertical-align: 2px; }
.time { color: #949ba4; font-size: 12px; font-weight: 400; margin-left: 8px; }
.e { font-size: 1.375em; line-height: 1; vertical-align: -0.2em; }
pre.code { font-size: 14px; line-height: 18px; background: #232428;
  border: 1px solid #2f3035; border-radius: 6px; padding: 7px; margin: 4px 0;
  color: #dfe0e2; }
code { font-family: "DejaVu Sans Mono", monospace; font-size: 85%;
  background: #232428; border-radius: 3px; padding: 0 3px; }
.mention { background: rgba(88, 101, 242, 0.3); color: #c9cdfb; border-radius: 3px;
  padding: 0 2px; font-weight: 500; }
.edited { font-size: 11px; color: #949ba4; margin-left: 4px; }
.keyboard { gap: 8px; margin-top: 8px; }
.row { flex-wrap: wrap; gap: 8px; }
.button { height: 36px; padding: 0 14px; border-radius: 8px; display: flex;
  align-items: center; max-width: 100%; font-size: 14px; font-weight: 600;
  color: #fff; background: #4e5058; }
.button.primary { background: #5865f2; }
.button.success { background: #248046; }
.button.danger { background: #da373c; }
.button.disabled { opacity: 0.5; }
.select { width: 100%; height: 44px; border-radius: 8px; background: #232428;
  border: 1px solid #2f3035; display: flex; align-items: center;
  justify-content: space-between; padding: 0 12px; color: #949ba4; font-size: 15px; }
.chevron { font-size: 18px; color: #dfe0e2; }
.v2 { display: flex; flex-direction: column; gap: 8px; }
.v2 .keyboard { margin-top: 0; }
.v2-section { display: flex; align-items: center; gap: 12px; }
.v2-section-text { flex: 1 1 auto; min-width: 0; }
.accessory { flex: 0 1 auto; max-width: 60%; display: flex; }
.container { display: flex; flex-direction: column; gap: 8px; padding: 12px;
  background: #232428; border: 1px solid #2f3035; border-left: 4px solid #4e5058;
  border-radius: 8px; }
.separator { width: 100%; border: 0; border-top: 1px solid #3f4147; margin: 4px 0; }
.spacer { height: 8px; }
.only-you { font-size: 12px; color: #949ba4; margin-top: 4px; }
.only-you .link { color: #00a8fc; }
.subtext { font-size: 13px; color: #949ba4; }
.quote { border-left: 4px solid #4e5058; padding-left: 8px; }
.prose .link { color: #00a8fc; overflow-wrap: anywhere; }
.system { color: #949ba4; font-size: 14px; }
.caption { color: #949ba4; border-top: 1px solid #2c2d32; }
.file { display: flex; align-items: center; gap: 10px; background: #232428;
  border: 1px solid #2f3035; border-radius: 8px; padding: 10px 12px; margin-top: 6px; }
.file-icon { font-size: 28px; }
.file-name { color: #00a8fc; font-size: 15px; overflow-wrap: anywhere; }
"""

TELEGRAM_CSS = """
body, section { background: #9fb98c; color: #000;
  font: 16px/1.35 Roboto, "DejaVu Sans", sans-serif; }
.bar { display: flex; align-items: center; height: 56px; padding: 0 12px;
  background: #517da2; color: #fff; }
.bar .avatar { width: 40px; height: 40px; margin: 0 12px 0 0; background: #6fb0e0; }
.bar .title { font-weight: 500; font-size: 18px; }
.bar .sub { font-size: 13px; color: #d5e4f0; }
.messages { padding: 8px 0 10px; }
.message { display: flex; align-items: flex-end; padding: 2px 8px; margin-top: 4px; }
.message.wide .column { flex: 1 1 auto; }
.column { max-width: 296px; min-width: 0; display: flex; flex-direction: column; }
.avatar { flex: 0 0 34px; height: 34px; border-radius: 50%; background: #e0803d;
  color: #fff; font-weight: 500; display: flex; align-items: center;
  justify-content: center; margin-right: 6px; font-size: 15px; }
.avatar.blank { background: none; }
.message.private .column { max-width: 320px; }
.message.wide .bubble { margin-bottom: 0; }
.bubble { background: #fff; border-radius: 12px 12px 12px 4px; padding: 6px 9px 7px;
  box-shadow: 0 1px 1px rgba(0, 0, 0, 0.15); position: relative; }
.name { color: #3a8dce; font-weight: 500; font-size: 15px; margin-bottom: 1px; }
.time { float: right; font-size: 12px; color: #99a2aa; margin: 6px 0 -4px 10px; }
.e { font-size: 1.2em; line-height: 1; }
pre.code { font-size: 14px; line-height: 18px; background: #eef4fa;
  border-left: 3px solid #3a8dce; border-radius: 4px; padding: 5px 6px; margin: 3px 0;
  color: #2d3c4b; }
code { font-family: "DejaVu Sans Mono", monospace; font-size: 90%; color: #2d3c4b; }
.mention, .link { color: #2678b6; }
blockquote { margin: 2px 0; border-left: 3px solid #3a8dce; padding-left: 7px; }
.keyboard { gap: 3px; margin-top: 3px; }
.row { gap: 3px; }
.button { flex: 1 1 0; min-width: 0; height: 40px; border-radius: 8px;
  background: rgba(40, 58, 30, 0.38); color: #fff; font-size: 14px; font-weight: 500;
  display: flex; align-items: center; justify-content: center; padding: 0 6px; }
.button.primary { background: #3e88d6; }
.button.success { background: #3aa757; }
.button.danger { background: #e0523e; }
.corner { position: absolute; top: 2px; right: 5px; font-size: 10px; }
.caption { color: #2d3a24; background: #b7cba8; }
.file { display: flex; align-items: center; gap: 10px; margin: 2px 0 4px; }
.file-icon { font-size: 24px; background: #3e88d6; border-radius: 50%; width: 44px;
  height: 44px; display: flex; align-items: center; justify-content: center; }
.file-name { font-weight: 500; font-size: 15px; overflow-wrap: anywhere; }
"""


def screen_html(screen: Screen, platform: str) -> str:
    if platform == "discord":
        bar = (f'<div class="bar"><span class="title">{html.escape(screen.title)}</span>'
               f'<span class="sub">{html.escape(screen.subtitle)}</span></div>')
        inner = discord_bubbles(screen.bubbles)
    else:
        group = not screen.subtitle.startswith("bot")
        bar = (f'<div class="bar"><div class="avatar">{initials(screen.title)}</div>'
               f'<div><div class="title">{html.escape(screen.title)}</div>'
               f'<div class="sub">{html.escape(screen.subtitle)}</div></div></div>')
        inner = telegram_bubbles(screen.bubbles, group)
    return f'<div class="screen">{bar}<div class="messages">{inner}</div></div>'


def page(platform: str, scenes: list[Scene], seed: int, captions: bool = True) -> str:
    """One platform's page: each scene a section (``page.html#game`` shows it alone),
    with a caption under it unless ``captions`` is False."""
    css = COMMON_CSS + (DISCORD_CSS if platform == "discord" else TELEGRAM_CSS)
    sections = []
    for scene in scenes:
        screens = "".join(screen_html(screen, platform) for screen in scene.screens)
        caption = html.escape(scene.caption) if scene.caption else (
            f"{html.escape(scene.game)} on {platform}, seed {seed}, after "
            f"{scene.moves} moves, as {html.escape(scene.viewer)} sees it "
            f"({PHONE_WIDTH} px wide).")
        under = (f'<div class="caption">{caption}<span class="columns"></span></div>'
                 if captions else "")
        sections.append(f'<section id="{html.escape(scene.anchor)}">{screens}{under}'
                        "</section>")
    title = f"logic-bot on {platform}, at phone width"
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width={PHONE_WIDTH}">'
            f"<title>{html.escape(title)}</title><style>{css}</style></head>\n"
            f"<body>{''.join(sections)}<script>{MEASURE}</script></body></html>\n")


# Run by the page once loaded: in each section shown, how many monospace columns a code
# block in the first message (the board) has before a line wraps, written into the
# caption; and the height of what is shown, which the screenshot's window is given.
MEASURE = """
window.addEventListener('load', () => {
  const found = [];
  for (const section of document.querySelectorAll('section')) {
    if (!section.getBoundingClientRect().height) continue;
    const box = section.querySelector('.wide .bubble, .message .body, .bubble');
    if (!box) continue;
    const probe = document.createElement('pre');
    probe.className = 'code';
    const ruler = document.createElement('span');
    ruler.textContent = '0'.repeat(20);
    probe.appendChild(ruler);
    box.appendChild(probe);
    const style = getComputedStyle(probe);
    const inner = probe.clientWidth - parseFloat(style.paddingLeft)
      - parseFloat(style.paddingRight);
    const columns = Math.floor(inner / (ruler.getBoundingClientRect().width / 20));
    probe.remove();
    const board = section.querySelector('.message').getBoundingClientRect().height;
    const slot = section.querySelector('.columns');  // none without a caption
    if (slot) slot.textContent = ' The board message with its '
      + 'buttons is ' + Math.round(board) + ' px tall; a code block in it shows '
      + columns + ' columns a line.';
    found.push(section.id + ':' + columns + ':' + Math.round(board));
  }
  document.body.dataset.columns = found.join(' ');
  document.body.dataset.height = Math.ceil(document.body.getBoundingClientRect().height);
});
"""
