"""What a player sees on a phone: screenshots of a 360-pixel-wide imitation of each platform.

Run from the repository root. It needs the dev extras (simcord), like
``benchmarks/ux_walk.py``, whose tables it reuses; progress goes to stderr::

    python benchmarks/ux_screens.py [--seed 1] [--games lgame,turing] [--platforms telegram]
                                    [--moves 4] [--first-tap] [--board text]
                                    [--out docs/screens]

Each game is played a few moves (``SCENES``, or ``--moves``) through the real adapters, as
``ux_walk.py`` plays it: Discord through simcord, Telegram through the loopback Bot API
fake. Then the messages the fakes hold are captured as they stand, seen by the player
whose turn is next: the board message with its buttons, the turn cue, and the player's
private hand where the game has one (Discord's ephemeral message, opened with "My hand"
if it is not open yet; Telegram's private chat). With ``--first-tap`` that player also
taps the first step of their next move, so the menu's second step shows.

The captured text and components are drawn, unchanged, as one HTML page per platform
(``discord.html``, ``telegram.html``) that imitates the platform's phone app at 360 CSS
pixels: message bubbles, Discord's Markdown (fenced code blocks, bold, italic, escapes,
mentions) and Telegram's HTML (``<pre>``, ``<b>``, ``<i>``, links), and the buttons in the
rows the adapter sent them (Discord's action rows and selects, Telegram's inline keyboard
rows). A Discord Components V2 message (bOOleO's and Digitalo's card hands) has no content:
it is drawn from its components in order, each text display as message text (the same
Markdown), each section as its text with its accessory button beside it on the right (a
disabled one greyed), action rows as rows, a container as a box holding its own
components, a separator as a line. Nothing is re-rendered from the game: the boards are the
bot's own text.

When ``chromium`` is on the PATH each game's part of each page is screenshotted
(``<platform>-<game>.png``, its height fitted to the content, measured first with
``--dump-dom``); otherwise the script says where the pages are. The imitation's fonts:
Roboto for text, DejaVu Sans Mono for code (close to iOS's Menlo), Noto Color Emoji; with
Debian's ``fonts-roboto-unhinted`` and ``fonts-noto-color-emoji`` installed the
screenshots use them. If ``pngquant`` is on the PATH the PNGs are quantised (smaller
files for the docs).
"""

from __future__ import annotations

import argparse
import asyncio
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import ux_walk
from benchmarks.progress import Progress
from benchmarks.ux_capture import capture
from benchmarks.ux_pages import PHONE_WIDTH, page
from benchmarks.ux_scene import Scene

# Moves played before the capture: early enough that the boards are still busy with
# choices, late enough that each game has a last move and a cue to show.
SCENES: dict[str, int] = {"lgame": 2, "booleo": 3, "digitalo": 3, "turing": 1,
                          "rithmomachia": 3}
assert set(SCENES) == set(ux_walk.GAMES), "every game has a scene"
DEFAULT_OUT = Path("docs/screens")


# ------------------------------------------------------------------ screenshots
def chromium_command() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


def chromium(binary: str, profile: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    command = [binary, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
               f"--user-data-dir={profile}", "--force-device-scale-factor=1",
               *arguments]
    return subprocess.run(command, capture_output=True, text=True, timeout=90, check=False)


def screenshot(binary: str, url: str, png: Path, profile: Path) -> tuple[int, int, int]:
    """Screenshot ``url`` at phone width, the window as tall as the content; returns the
    height used, and the monospace columns and the board's height the page measured."""
    dom = chromium(binary, profile, f"--window-size={PHONE_WIDTH},800", "--dump-dom", url)
    found = re.search(r'data-height="(\d+)"', dom.stdout)
    height = int(found[1]) if found else 1600
    measured = re.search(r'data-columns="[^":]*:(\d+):(\d+)', dom.stdout)
    done = chromium(binary, profile, f"--screenshot={png}",
                    f"--window-size={PHONE_WIDTH},{height}", url)
    if not png.exists():
        raise RuntimeError(f"chromium made no screenshot of {url}: {done.stderr[-500:]}")
    quantiser = shutil.which("pngquant")
    if quantiser:
        subprocess.run([quantiser, "--force", "--skip-if-larger", "--strip", "--quality",
                        "70-95", "--output", str(png), str(png)], check=False,
                       capture_output=True, timeout=60)
    return height, *((int(measured[1]), int(measured[2])) if measured else (0, 0))


# ------------------------------------------------------------------ main
def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", default=",".join(ux_walk.GAMES),
                        help="comma-separated games (default: all five)")
    parser.add_argument("--platforms", default=",".join(ux_walk.PLATFORMS),
                        help="comma-separated: discord, telegram")
    parser.add_argument("--moves", type=int, default=None,
                        help="moves before the capture, in every game (default: SCENES)")
    parser.add_argument("--board", choices=("emoji", "text"), default="emoji",
                        help="the board style (the bot's default: emoji; text draws the "
                             "boards as code blocks)")
    parser.add_argument("--first-tap", action="store_true",
                        help="the next player also taps the first step of their move")
    parser.add_argument("--grid", type=int, default=None, metavar="TAPS",
                        help="the next player opens the board's grid (L-game, "
                             "Rithmomachia) and taps TAPS steps of their move on it")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT,
                        help="folder for the pages and PNGs (default: docs/screens)")
    parser.add_argument("--no-screenshots", action="store_true",
                        help="write the pages only, even if chromium is installed")
    args = parser.parse_args()
    for name, known in (("games", ux_walk.GAMES), ("platforms", ux_walk.PLATFORMS)):
        chosen = [word.strip() for word in getattr(args, name).split(",") if word.strip()]
        unknown = sorted(set(chosen) - set(known))
        if unknown or not chosen:
            parser.error(f"--{name}: choose from {', '.join(known)}")
        setattr(args, name, chosen)
    return args


async def capture_all(platforms: list[str], games: list[str], seed: int,
                      moves: int | None, first_tap: bool, board: str,
                      progress: Progress, grid: int | None = None
                      ) -> dict[str, list[Scene]]:
    scenes: dict[str, list[Scene]] = {}
    for platform in platforms:
        for game in games:
            scene = await capture(platform, game, seed,
                                  SCENES[game] if moves is None else moves, first_tap, board,
                                  grid)
            scenes.setdefault(platform, []).append(scene)
            progress.say(f"{platform} {game}: captured after {scene.moves} moves, "
                         f"{sum(len(s.bubbles) for s in scene.screens)} messages")
    return scenes


def main() -> None:
    args = arguments()
    began = time.perf_counter()
    progress = Progress("ux screens")
    scenes = asyncio.run(capture_all(args.platforms, args.games, args.seed, args.moves,
                                     args.first_tap, args.board, progress, args.grid))
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    pages = {}
    for platform, shown in scenes.items():
        pages[platform] = out / f"{platform}.html"
        pages[platform].write_text(page(platform, shown, args.seed), encoding="utf-8")
        progress.say(f"wrote {pages[platform]}")
    binary = None if args.no_screenshots else chromium_command()
    if binary is None:
        print("No chromium on the PATH (or --no-screenshots): open the pages in a browser "
              "at 360 px width:", file=sys.stderr)
        for path in pages.values():
            print(f"  {path}", file=sys.stderr)
        return
    with tempfile.TemporaryDirectory() as profile:
        for platform, shown in scenes.items():
            for scene in shown:
                png = out / f"{platform}-{scene.game}.png"
                png.unlink(missing_ok=True)
                url = f"{pages[platform].resolve().as_uri()}#{scene.anchor}"
                height, columns, board = screenshot(binary, url, png, Path(profile))
                progress.say(f"{png}: {PHONE_WIDTH}x{height}, "
                             f"{png.stat().st_size // 1024} KB; the board message "
                             f"{board} px tall, its code blocks {columns} columns wide")
    print(f"{time.perf_counter() - began:.0f} s; pages and screenshots in {out}",
          file=sys.stderr)


if __name__ == "__main__":
    main()
