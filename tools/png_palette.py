#!/usr/bin/env python3
"""png_palette.py IN.png OUT.png [COLOURS]: rewrite an 8-bit RGB or RGBA PNG
(a Chromium screenshot) as a palette PNG of at most COLOURS (default 256)
colours, so that a screenshot committed under docs/ stays small.

Standard library only (zlib).  The palette is the most frequent colours
of the image after merging colours that differ by less than one step of
16 per channel; every pixel takes the nearest palette colour (squared
distance).  Flat page colours and text stay exact or nearly so; only the
anti-aliased edges of glyphs move by a shade.
"""
import struct
import sys
import zlib
from collections import Counter


def chunks(data):
    pos = 8
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        yield kind, data[pos + 8:pos + 8 + length]
        pos += 12 + length


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def decode(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"{path}: not a PNG")
    idat = b""
    for kind, body in chunks(data):
        if kind == b"IHDR":
            width, height, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
    if depth != 8 or ctype not in (2, 6) or interlace != 0:
        sys.exit(f"{path}: only 8-bit RGB or RGBA, not interlaced")
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev, pos = [], bytearray(stride), 0
    for _ in range(height):
        f = raw[pos]
        line = bytearray(raw[pos + 1:pos + 1 + stride])
        pos += 1 + stride
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + ((a + b) >> 1)) & 255
            elif f == 4:
                line[i] = (line[i] + paeth(a, b, c)) & 255
        rows.append(bytes(line) if bpp == 3 else bytes(x for k, x in enumerate(line) if k % 4 != 3))
        prev = line
    return width, height, rows


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    colours = int(sys.argv[3]) if len(sys.argv) == 4 else 256
    width, height, rows = decode(sys.argv[1])
    count = Counter()
    for row in rows:
        count.update(row[i:i + 3] for i in range(0, len(row), 3))
    # merge near colours (16 steps per channel) into their most frequent member
    buckets = {}
    for colour, n in count.most_common():
        key = (colour[0] >> 4, colour[1] >> 4, colour[2] >> 4)
        if key not in buckets:
            buckets[key] = [colour, 0]
        buckets[key][1] += n
    palette = [c for c, _ in sorted(buckets.values(), key=lambda x: -x[1])[:colours]]
    index = {}
    for colour in count:
        r, g, b = colour
        best, dist = 0, None
        for k, p in enumerate(palette):
            d = (r - p[0]) ** 2 + (g - p[1]) ** 2 + (b - p[2]) ** 2
            if dist is None or d < dist:
                best, dist = k, d
                if d == 0:
                    break
        index[colour] = best
    raw = bytearray()
    for row in rows:
        raw.append(0)
        raw.extend(index[row[i:i + 3]] for i in range(0, len(row), 3))

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    out = b"\x89PNG\r\n\x1a\n"
    out += chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0))
    out += chunk(b"PLTE", b"".join(palette))
    out += chunk(b"IDAT", zlib.compress(bytes(raw), 9))
    out += chunk(b"IEND", b"")
    open(sys.argv[2], "wb").write(out)


if __name__ == "__main__":
    main()
