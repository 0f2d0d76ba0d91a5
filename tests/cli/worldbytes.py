"""worldbytes.py — hand-built MP1 bytes for the world tests (tests/cli/e2e_world*.sh): a PAK
(docs/formats.md §2), a STRG of version 0 (§12) and an MLVL of version 0x11 (§11), written here
from the byte layout, independently of ancsdb's encoders."""
import struct


def pak(entries):
    """MP1 PAK: header, no names, resource table, data at 32-aligned offsets.
    entries: [(type as 4 bytes, asset ID, body bytes)]"""
    head = struct.pack(">IIII", 0x00030005, 0, 0, len(entries))
    off = len(head) + 20 * len(entries)
    off = (off + 31) & ~31
    table, data = b"", b""
    for typ, aid, body in entries:
        body = body + b"\xff" * ((-len(body)) % 32)
        table += struct.pack(">I4sIII", 0, typ, aid, len(body), off + len(data))
        data += body
    out = head + table
    return out + b"\xff" * (((len(out) + 31) & ~31) - len(out)) + data


def strg_v0(texts):
    """STRG version 0, one language ENGL (docs/formats.md §12)."""
    enc = [t.encode("utf-16-be") + b"\0\0" for t in texts]
    offs, o = [], 4 * len(texts)
    for e in enc:
        offs.append(o)
        o += len(e)
    table = b"".join(struct.pack(">I", x) for x in offs) + b"".join(enc)
    return (struct.pack(">IIII", 0x87654321, 0, 1, len(texts)) + b"ENGL" + struct.pack(">I", 0)
            + struct.pack(">I", len(table)) + table)


def mlvl_v11(name_strg, areas, savw=0x5A000001, skybox=0xFFFFFFFF, mapw=0x5A000002):
    """MLVL version 0x11 (MP1, docs/formats.md §11.1-11.3), no memory relays, audio groups or
    docks. areas: [{"name_strg", "mrea", "area_id", "attached": [i], "layers": [(name, active,
    [(FourCC str, id)])], "own": [(FourCC str, id)]}]"""
    out = struct.pack(">IIIII", 0xDEAFBABE, 0x11, name_strg, savw, skybox)
    out += struct.pack(">I", 0)                      # memory relays
    out += struct.pack(">II", len(areas), 1)         # area count, the constant 1
    for a in areas:
        out += struct.pack(">I", a["name_strg"])
        out += struct.pack(">12f", 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0)
        out += struct.pack(">6f", -1, -1, -1, 1, 1, 1)
        out += struct.pack(">II", a["mrea"], a["area_id"])
        out += struct.pack(">I", len(a["attached"])) + b"".join(
            struct.pack(">H", i) for i in a["attached"])
        out += struct.pack(">I", 0)
        deps, offs = [], []
        for _, _, ds in a["layers"]:
            offs.append(len(deps))
            deps += ds
        offs.append(len(deps))
        deps += a["own"]
        out += struct.pack(">I", len(deps)) + b"".join(
            struct.pack(">I4s", i, t.encode()) for t, i in deps)
        out += struct.pack(">I", len(offs)) + b"".join(struct.pack(">I", o) for o in offs)
        out += struct.pack(">I", 0)                  # docks
    out += struct.pack(">IBI", mapw, 0, 0)
    out += struct.pack(">I", 0) + b"\0"              # audio groups, the empty string
    out += struct.pack(">I", len(areas))
    for a in areas:
        flags = (1 << 64) - 1
        for i, (_, active, _) in enumerate(a["layers"]):
            if not active:
                flags &= ~(1 << i)
        out += struct.pack(">IQ", len(a["layers"]), flags)
    names = [n for a in areas for n, _, _ in a["layers"]]
    out += struct.pack(">I", len(names)) + b"".join(n.encode() + b"\0" for n in names)
    first, offs = 0, []
    for a in areas:
        offs.append(first)
        first += len(a["layers"])
    out += struct.pack(">I", len(offs)) + b"".join(struct.pack(">I", o) for o in offs)
    return out + b"\xff" * ((-len(out)) % 32)
