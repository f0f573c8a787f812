#!/usr/bin/env python3
"""damage.py IN OUT SEED - a damaged copy of an XPlane file, for
tests/fuzz/xplane_damage.sh and tests/xplane: the SEED picks one damage
(a cut at a random byte, 1-8 flipped bytes, 16 or 64 zeroed bytes, a run
of inserted bytes, a length varint made larger) and where it goes.
Prints what it did.  A gzip'd input is damaged as it is (its inflated
bytes, then gzip'd again when SEED is odd, so both the inflater and the
reader see damage)."""
import gzip
import random
import sys


def main():
    src, out, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
    rnd = random.Random(seed)
    b = bytearray(open(src, 'rb').read())
    gz = b[:2] == b'\x1f\x8b'
    if gz:
        b = bytearray(gzip.decompress(bytes(b)))
    n = len(b)
    kind = rnd.choice(['cut', 'flip', 'zero', 'insert', 'length'])
    at = rnd.randrange(n)
    if kind == 'cut':
        b = b[:at]
    elif kind == 'flip':
        for _ in range(rnd.randint(1, 8)):
            i = rnd.randrange(n)
            b[i] ^= 1 << rnd.randrange(8)
    elif kind == 'zero':
        k = rnd.choice([16, 64])
        b[at:at + k] = bytes(min(k, n - at))
    elif kind == 'insert':
        b[at:at] = bytes(rnd.randrange(256) for _ in range(rnd.randint(1, 32)))
    else:
        # a varint byte made to continue: a length (or any varint) grows
        i = at
        while i < n and b[i] & 0x80:
            i += 1
        if i < n:
            b[i] |= 0x80
    data = bytes(b)
    if gz and seed % 2:
        data = gzip.compress(data, mtime=0)
    open(out, 'wb').write(data)
    print('%s at byte %d of %d' % (kind, at, n))


if __name__ == '__main__':
    main()
