"""Render ANSI-coloured terminal output to a PNG (the README screenshot of `onepass run`).

    onepass run --preset triage --color always "..." > out.ansi
    .venv/bin/python scripts/render_terminal.py out.ansi docs/run-triage.png --command 'onepass run --preset triage "..."'

Understands the SGR codes `onepass run` writes (reset, bold, dim, the 8 colours, bright black); draws block
elements as exact rectangles so bars have no seams; uses DejaVu Sans Mono (shipped with matplotlib).
"""

from __future__ import annotations

import argparse
import os
import re

import matplotlib
from PIL import Image, ImageDraw, ImageFont

FONTS = os.path.join(os.path.dirname(matplotlib.__file__), "mpl-data", "fonts", "ttf")
BG, FG = (24, 26, 33), (220, 223, 228)
PALETTE = {30: (90, 94, 104), 31: (240, 113, 120), 32: (125, 206, 130), 33: (229, 192, 123), 34: (97, 175, 239),
           35: (198, 120, 221), 36: (86, 182, 194), 37: (220, 223, 228), 90: (118, 124, 138)}
SGR = re.compile(r"\x1b\[([0-9;]*)m")
EIGHTHS = {chr(0x2588): 8, **{chr(0x2590 - k): k for k in range(1, 8)}}  # █ and ▏..▉ (1/8 .. 7/8 of a cell)


def spans(line: str):
    """(text, colour, bold, dim) pieces of one line."""
    colour, bold, dim = FG, False, False
    pos = 0
    for match in SGR.finditer(line):
        if match.start() > pos:
            yield line[pos:match.start()], colour, bold, dim
        for code in [int(c) for c in (match.group(1) or "0").split(";") if c]:
            if code == 0:
                colour, bold, dim = FG, False, False
            elif code == 1:
                bold = True
            elif code == 2:
                dim = True
            elif code in PALETTE:
                colour = PALETTE[code]
        pos = match.end()
    if pos < len(line):
        yield line[pos:], colour, bold, dim


def render(lines: list[str], out: str, size: int = 17, pad: int = 22) -> None:
    regular = ImageFont.truetype(os.path.join(FONTS, "DejaVuSansMono.ttf"), size)
    bold_font = ImageFont.truetype(os.path.join(FONTS, "DejaVuSansMono-Bold.ttf"), size)
    cell_w = regular.getlength("M")
    line_h = int(size * 1.55)
    columns = max(len(SGR.sub("", line)) for line in lines)
    chrome = 34
    width = int(pad * 2 + columns * cell_w)
    height = chrome + pad + len(lines) * line_h + pad
    image = Image.new("RGB", (width, height), BG)
    draw = ImageDraw.Draw(image)
    draw.rectangle([0, 0, width, chrome], fill=(36, 39, 48))
    for i, dot in enumerate([(237, 106, 94), (245, 191, 79), (98, 197, 84)]):
        draw.ellipse([16 + i * 22, 11, 28 + i * 22, 23], fill=dot)
    y = chrome + pad
    for line in lines:
        x = float(pad)
        for text, colour, bold, dim in spans(line):
            if dim:
                colour = tuple(int(c * 0.6 + b * 0.4) for c, b in zip(colour, BG))
            font = bold_font if bold else regular
            for ch in text:
                if ch in EIGHTHS:
                    top, bottom = y + line_h * 0.18, y + line_h * 0.82
                    draw.rectangle([x, top, x + cell_w * EIGHTHS[ch] / 8 - 0.01, bottom], fill=colour)
                elif ch == "·":
                    draw.text((x, y + (line_h - size) / 2 - 1), ch, font=font, fill=tuple(int(c * 0.7 + b * 0.3) for c, b in zip(colour, BG)))
                else:
                    draw.text((x, y + (line_h - size) / 2 - 1), ch, font=font, fill=colour)
                x += cell_w
        y += line_h
    image.save(out, optimize=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ansi", help="captured output with ANSI colours")
    parser.add_argument("png")
    parser.add_argument("--command", help="shown first, after a $ prompt")
    args = parser.parse_args()
    lines = open(args.ansi, encoding="utf-8").read().rstrip("\n").split("\n")
    if args.command:
        lines = ["\x1b[32m$\x1b[0m \x1b[1m" + args.command + "\x1b[0m", ""] + lines
    render(lines, args.png)


if __name__ == "__main__":
    main()
