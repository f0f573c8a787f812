#!/usr/bin/python3
"""pngcmp.py A.png B.png W H: exit 0 when the top-left W x H pixels of two
8-bit RGB/RGBA PNGs (as Chromium writes them) are identical, else 1 with
the count of differing pixels.  Standard library only."""
import struct
import sys
import zlib


def read_png(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(path + ": not a PNG")
    pos, idat, w, h, ctype = 8, b"", 0, 0, 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            if depth != 8 or ctype not in (2, 6):
                raise ValueError(path + ": only 8-bit RGB(A) PNGs")
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(h):
        f = raw[i]
        line = bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def main():
    a, b, w, h = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    wa, ha, ba, ra = read_png(a)
    wb, hb, bb, rb = read_png(b)
    w, h = min(w, wa, wb), min(h, ha, hb)
    diff = 0
    for y in range(h):
        for x in range(w):
            if ra[y][x * ba:x * ba + 3] != rb[y][x * bb:x * bb + 3]:
                diff += 1
    if diff:
        print("pngcmp: %d of %d pixels differ" % (diff, w * h))
        return 1
    return 0


sys.exit(main())
