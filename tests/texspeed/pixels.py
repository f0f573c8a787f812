#!/usr/bin/env python3
"""pixels.py IMAGE.ppm RRGGBB [TOLERANCE]: how many pixels of a binary PPM
(pdftoppm's default output) are within TOLERANCE (default 8) of the colour
RRGGBB in each channel.  Prints the count."""
import sys


def read_ppm(path):
    data = open(path, "rb").read()
    fields, i = [], 0
    while len(fields) < 4:
        while data[i:i + 1].isspace():
            i += 1
        if data[i:i + 1] == b"#":
            while data[i:i + 1] != b"\n":
                i += 1
            continue
        j = i
        while not data[j:j + 1].isspace():
            j += 1
        fields.append(data[i:j])
        i = j
    if fields[0] != b"P6" or fields[3] != b"255":
        raise SystemExit("pixels.py: %s: not an 8-bit P6 PPM" % path)
    w, h = int(fields[1]), int(fields[2])
    return data[i + 1:i + 1 + 3 * w * h]


def main():
    px = read_ppm(sys.argv[1])
    rgb = int(sys.argv[2], 16)
    want = (rgb >> 16 & 255, rgb >> 8 & 255, rgb & 255)
    tol = int(sys.argv[3]) if len(sys.argv) > 3 else 8
    n = 0
    for k in range(0, len(px), 3):
        if (abs(px[k] - want[0]) <= tol and abs(px[k + 1] - want[1]) <= tol
                and abs(px[k + 2] - want[2]) <= tol):
            n += 1
    print(n)


if __name__ == "__main__":
    main()
