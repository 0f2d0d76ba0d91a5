#!/usr/bin/env python3
"""gen_container_seeds.py — writes the seeds of tests/fuzz/corpus/gcz/ and corpus/ciso/: the
disc seeds one_file and nested (tests/fuzz/corpus/disc/) wrapped in GCZ (blocks of 0x100
bytes, every other one stored; Adler-32 of the stored bytes) and CISO (blocks of 0x40 bytes,
blocks of zeros absent), written from docs/formats.md §13.3/§13.4. Run once by hand from the
repository's root: python3 tests/fuzz/tools/gen_container_seeds.py"""
import os
import struct
import zlib

ROOT = "tests/fuzz/corpus"


def gcz(disc, bs):
    n = (len(disc) + bs - 1) // bs
    ptrs, hashes, data = [], [], b""
    for i in range(n):
        blk = disc[i * bs:(i + 1) * bs].ljust(bs, b"\0")
        z = zlib.compress(blk, 9)
        stored = i % 2 == 1 or len(z) >= bs
        out = blk if stored else z
        ptrs.append(len(data) | (1 << 63 if stored else 0))
        hashes.append(zlib.adler32(out))
        data += out
    head = struct.pack("<IIQQII", 0xB10BC001, 0, len(data), len(disc), bs, n)
    return head + b"".join(struct.pack("<Q", p) for p in ptrs) + \
        b"".join(struct.pack("<I", h) for h in hashes) + data


def ciso(disc, bs):
    n = (len(disc) + bs - 1) // bs
    blocks = [disc[i * bs:(i + 1) * bs].ljust(bs, b"\0") for i in range(n)]
    present = [any(b) for b in blocks]
    head = (b"CISO" + struct.pack("<I", bs) + bytes(present)).ljust(0x8000, b"\0")
    return head + b"".join(b for b, p in zip(blocks, present) if p)


for kind, fn, bs in (("gcz", gcz, 0x100), ("ciso", ciso, 0x40)):
    os.makedirs(os.path.join(ROOT, kind), exist_ok=True)
    for name in ("one_file", "nested"):
        disc = open(os.path.join(ROOT, "disc", name), "rb").read()
        with open(os.path.join(ROOT, kind, name), "wb") as f:
            f.write(fn(disc, bs))
