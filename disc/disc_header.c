/* disc_header.c — the GameCube disc header (boot.bin, docs/formats.md §10), the region of a game
 * code, and recognising the disc containers that are not plain GameCube images. */
#include <iconv.h>
#include <stdio.h>
#include <string.h>

#include "disc.h"

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

const char *disc_region_of(char letter)
{
    switch (letter) {
    case 'E':
    case 'N': /* Japanese games released in America */
    case 'Z':
        return "NTSC-U";
    case 'J':
        return "NTSC-J";
    case 'K':
    case 'Q': /* Korea, Japanese language */
    case 'T': /* Korea, English language */
        return "NTSC-K";
    case 'P':
    case 'D':
    case 'F':
    case 'H':
    case 'I':
    case 'L': /* Japanese games released in Europe */
    case 'M':
    case 'S':
    case 'U':
    case 'X':
    case 'Y':
        return "PAL";
    default:
        return NULL;
    }
}

disc_kind disc_sniff(const uint8_t *head, size_t head_len, uint64_t file_size)
{
    if (head_len > file_size)
        head_len = (size_t)file_size;
    if (head_len >= 4) {
        if (memcmp(head, "RVZ\x01", 4) == 0)
            return DISC_KIND_RVZ;
        if (memcmp(head, "WIA\x01", 4) == 0)
            return DISC_KIND_WIA;
        if (le32(head) == 0xB10BC001u)
            return DISC_KIND_GCZ;
        if (memcmp(head, "CISO", 4) == 0)
            return DISC_KIND_CISO;
        if (memcmp(head, "WBFS", 4) == 0)
            return DISC_KIND_WBFS;
    }
    /* NKit keeps the disc header (GameCube or Wii magic) and marks itself at 0x200. */
    if (head_len >= 0x204 && memcmp(head + 0x200, "NKIT", 4) == 0 &&
        (be32(head + 0x1C) == DISC_MAGIC || be32(head + 0x18) == DISC_WII_MAGIC))
        return DISC_KIND_NKIT;
    if (head_len >= 0x1C && be32(head + 0x18) == DISC_WII_MAGIC)
        return DISC_KIND_WII;
    if (head_len >= 0x20 && be32(head + 0x1C) == DISC_MAGIC)
        return DISC_KIND_GCM;
    return DISC_KIND_UNKNOWN;
}

const char *disc_kind_name(disc_kind k)
{
    switch (k) {
    case DISC_KIND_GCM:
        return "GameCube disc image";
    case DISC_KIND_WII:
        return "Wii disc";
    case DISC_KIND_NKIT:
        return "NKit";
    case DISC_KIND_RVZ:
        return "RVZ";
    case DISC_KIND_WIA:
        return "WIA";
    case DISC_KIND_GCZ:
        return "GCZ";
    case DISC_KIND_CISO:
        return "CISO";
    case DISC_KIND_WBFS:
        return "WBFS";
    default:
        return "unknown";
    }
}

int disc_kind_refused(disc_kind k)
{
    return k == DISC_KIND_WBFS || k == DISC_KIND_NKIT || k == DISC_KIND_WII;
}

int disc_kind_container(disc_kind k)
{
    return k == DISC_KIND_RVZ || k == DISC_KIND_WIA || k == DISC_KIND_GCZ || k == DISC_KIND_CISO;
}

const char *disc_kind_refusal(disc_kind k)
{
    switch (k) {
    case DISC_KIND_WII:
        return "a Wii disc (0x5D1C9EA3 at 0x18); ancsdb reads GameCube discs only";
    case DISC_KIND_NKIT:
        return "an NKit image (a disc with its padding removed, \"NKIT\" at 0x200); ancsdb reads "
               "GameCube discs as full images (ISO/GCM, RVZ, WIA, GCZ, CISO): restore it with NKit";
    case DISC_KIND_WBFS:
        return "a WBFS file (a Wii disc store); ancsdb reads GameCube discs only";
    default:
        return NULL;
    }
}

/* Title bytes to UTF-8 (see disc_header.title). ASCII is copied; every other character is
 * converted alone (one byte, or a two-byte Shift-JIS pair), so one bad byte costs one '?'. */
static void title_to_utf8(char *out, size_t cap, const uint8_t *in, size_t n, int japanese)
{
    iconv_t cd = iconv_open("UTF-8", japanese ? "CP932" : "CP1252");
    size_t o = 0, i = 0;
    while (i < n && o + 1 < cap) {
        if (in[i] < 0x80) {
            out[o++] = (char)in[i++];
            continue;
        }
        size_t used = 0;
        for (size_t k = 1; cd != (iconv_t)-1 && !used && k <= 2 && k <= n - i; k++) {
            char *ip = (char *)(uintptr_t)(in + i), *op = out + o;
            size_t il = k, ol = cap - 1 - o;
            iconv(cd, NULL, NULL, NULL, NULL);
            if (iconv(cd, &ip, &il, &op, &ol) != (size_t)-1 && il == 0) {
                o = (size_t)(op - out);
                used = k;
            }
        }
        if (!used) {
            out[o++] = '?';
            used = 1;
        }
        i += used;
    }
    out[o] = '\0';
    if (cd != (iconv_t)-1)
        iconv_close(cd);
}

static int is_code_char(uint8_t c)
{
    return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

int disc_parse_header(disc_header *out, const uint8_t *buf, size_t len, util_err *err)
{
    /* out is written only once every check passed (disc_open_src passes NULL with len short) */
    disc_kind kind = disc_sniff(buf, len, len);
    if (disc_kind_refused(kind))
        return util_fail(err, UTIL_EFORMAT,
                         kind == DISC_KIND_WII    ? 0x18
                         : kind == DISC_KIND_NKIT ? 0x200
                                                  : 0,
                         "%s", disc_kind_refusal(kind));
    if (disc_kind_container(kind))
        return util_fail(err, UTIL_EFORMAT, 0,
                         "%s container where a plain disc image was expected (open it with "
                         "disc_container_open)",
                         disc_kind_name(kind));
    if (len < DISC_HEADER_SIZE)
        return util_fail(err, UTIL_ETRUNC, len, "disc header needs 0x%x bytes, only %zu are there",
                         DISC_HEADER_SIZE, len);
    uint32_t magic = be32(buf + 0x1C);
    if (magic != DISC_MAGIC)
        return util_fail(err, UTIL_EFORMAT, 0x1C,
                         "no GameCube disc magic at 0x1c (0x%08x, expected 0x%08x)", magic,
                         DISC_MAGIC);
    for (size_t i = 0; i < 6; i++)
        if (!is_code_char(buf[i]))
            return util_fail(err, UTIL_EFORMAT, i,
                             "game code byte 0x%02x at 0x%zx is not an upper-case letter or "
                             "digit",
                             buf[i], i);
    memset(out, 0, sizeof *out);
    memcpy(out->game_code, buf, 6);
    memcpy(out->game_id, buf, 4);
    memcpy(out->maker, buf + 4, 2);
    out->disc_number = buf[6];
    out->revision = buf[7];
    out->region_letter = (char)buf[3];
    out->region = disc_region_of(out->region_letter);
    snprintf(out->label, sizeof out->label, "%s_%02u", out->game_code, (unsigned)out->revision);
    /* The title ends at its first zero byte, or fills the whole field. */
    const uint8_t *t = buf + 0x20;
    size_t n = 0;
    while (n < DISC_TITLE_SIZE && t[n] != 0)
        n++;
    memcpy(out->title_raw, t, n);
    out->title_raw[n] = '\0';
    title_to_utf8(out->title, sizeof out->title, t, n, out->region_letter == 'J');
    out->dol_offset = be32(buf + 0x420);
    out->fst_offset = be32(buf + 0x424);
    out->fst_size = be32(buf + 0x428);
    out->fst_max_size = be32(buf + 0x42C);
    return 0;
}

int disc_sniff_src(disc_kind *out, const util_src *src, util_err *err)
{
    uint8_t head[DISC_SNIFF_SIZE];
    uint64_t size = util_src_size(src);
    size_t n = size < sizeof head ? (size_t)size : sizeof head;
    *out = DISC_KIND_UNKNOWN;
    int rc = util_src_read(src, head, 0, n, err);
    if (rc == 0)
        *out = disc_sniff(head, n, size);
    return rc;
}
