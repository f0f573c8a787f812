#!/usr/bin/env python3
"""Damages a copy of an OTF2 archive, the same way for the same seed:

    damage.py ARCHIVE_DIR OUT_DIR SEED [FILE [KIND]]

FILE (default: one the seed picks) is a path inside the archive: an event
file (traces/N.evt), the global definitions (traces.def) or the anchor
(traces.otf2).  KIND (default: one the seed picks) is one of
  flip     1 to 8 bits flipped at random places
  cut      the file cut at a random length
  zero32, zero64   that many bytes zeroed at a random place
  insert   1 to 16 random bytes inserted at a random place
Prints "FILE KIND" (what was done), for the test's messages."""
import os
import random
import shutil
import sys


def main():
    src, dst, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
    rnd = random.Random(seed)
    if os.path.exists(dst):
        shutil.rmtree(dst)
    shutil.copytree(src, dst)
    if len(sys.argv) > 4:
        name = sys.argv[4]
    else:
        evts = sorted(os.path.join("traces", f) for f in os.listdir(os.path.join(dst, "traces"))
                      if f.endswith(".evt"))
        # mostly event files, where the hangs were; sometimes the others
        name = rnd.choice(evts * 4 + ["traces.def", "traces.otf2"])
    kind = sys.argv[5] if len(sys.argv) > 5 else rnd.choice(
        ["flip", "cut", "zero32", "zero64", "insert"])
    path = os.path.join(dst, name)
    with open(path, "rb") as f:
        d = bytearray(f.read())
    n = len(d)
    if kind == "flip":
        for _ in range(rnd.randint(1, 8)):
            d[rnd.randrange(n)] ^= 1 << rnd.randrange(8)
    elif kind == "cut":
        d = d[:rnd.randrange(n)]
    elif kind in ("zero32", "zero64"):
        k = int(kind[4:])
        i = rnd.randrange(max(1, n - k))
        d[i:i + k] = bytes(len(d[i:i + k]))
    elif kind == "insert":
        i = rnd.randrange(n)
        d[i:i] = bytes(rnd.randrange(256) for _ in range(rnd.randint(1, 16)))
    else:
        sys.exit("damage.py: unknown kind %r" % kind)
    with open(path, "wb") as f:
        f.write(d)
    print(name, kind)


if __name__ == "__main__":
    main()
