/* Chart file checks (contracts in chart_file.h). */
#include "chart/chart_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const struct fb_chart_format fb_chart_formats[] = {
    {"png", fb_chart_check_png},
    {"svg", fb_chart_check_svg},
    {"pdf", fb_chart_check_pdf},
};
const size_t fb_chart_format_count = sizeof fb_chart_formats / sizeof fb_chart_formats[0];

const struct fb_chart_format *fb_chart_format_find(const char *name)
{
    for (size_t i = 0; i < fb_chart_format_count; i++)
        if (strcmp(fb_chart_formats[i].name, name) == 0)
            return &fb_chart_formats[i];
    return NULL;
}

static int wrong(char *why, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (why && n)
        vsnprintf(why, n, fmt, ap);
    va_end(ap);
    return -1;
}

/* --- PNG ------------------------------------------------------------------------------- */

/* CRC-32 (ISO 3309, polynomial 0xEDB88320 reflected), as PNG's chunks carry it. */
static uint32_t crc32_update(uint32_t crc, const unsigned char *p, size_t n)
{
    static uint32_t table[256];
    static bool ready;
    if (!ready) {
        for (uint32_t i = 0; i < 256; i++) {
            uint32_t c = i;
            for (int k = 0; k < 8; k++)
                c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            table[i] = c;
        }
        ready = true;
    }
    for (size_t i = 0; i < n; i++)
        crc = table[(crc ^ p[i]) & 0xFF] ^ (crc >> 8);
    return crc;
}

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

int fb_chart_check_png(const unsigned char *data, size_t size, char *why, size_t why_size)
{
    static const unsigned char signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    if (size < 8 || memcmp(data, signature, 8) != 0)
        return wrong(why, why_size, "no PNG signature");
    size_t at = 8;
    bool idat = false;
    for (int chunk = 0;; chunk++) {
        if (size - at < 12)
            return wrong(why, why_size, "truncated at byte %zu (no IEND chunk)", at);
        uint32_t len = be32(data + at);
        const unsigned char *type = data + at + 4;
        if (len > 0x7FFFFFFFu || size - at - 12 < len)
            return wrong(why, why_size, "truncated: the chunk at byte %zu runs past the end "
                         "of the file", at);
        for (int i = 0; i < 4; i++)
            if (!((type[i] >= 'A' && type[i] <= 'Z') || (type[i] >= 'a' && type[i] <= 'z')))
                return wrong(why, why_size, "chunk at byte %zu has no valid type", at);
        uint32_t crc = crc32_update(0xFFFFFFFFu, type, 4 + (size_t)len) ^ 0xFFFFFFFFu;
        if (crc != be32(data + at + 8 + len))
            return wrong(why, why_size, "CRC mismatch in the %.4s chunk at byte %zu",
                         (const char *)type, at);
        if (chunk == 0 && (memcmp(type, "IHDR", 4) != 0 || len != 13))
            return wrong(why, why_size, "the first chunk is not IHDR");
        if (memcmp(type, "IDAT", 4) == 0)
            idat = true;
        at += 12 + (size_t)len;
        if (memcmp(type, "IEND", 4) == 0) {
            if (!idat)
                return wrong(why, why_size, "no IDAT chunk (no image data)");
            if (at != size)
                return wrong(why, why_size, "%zu bytes after IEND", size - at);
            return 0;
        }
    }
}

/* --- SVG (well-formed XML) --------------------------------------------------------------- */

struct xml {
    const unsigned char *p, *end, *start;
    char *why;
    size_t why_size;
};

static int xml_wrong(struct xml *x, const char *what)
{
    if (x->p >= x->end)
        return wrong(x->why, x->why_size, "truncated: the file ends inside a tag or "
                     "reference (%s)", what);
    return wrong(x->why, x->why_size, "%s at byte %zu", what, (size_t)(x->p - x->start));
}

/* The length of the valid UTF-8 character at s (s < end), 0 when none (RFC 3629: no
 * overlong forms, surrogates or code points above U+10FFFF). */
static size_t utf8_length(const unsigned char *s, const unsigned char *end)
{
    unsigned c = s[0], cp, min;
    size_t len;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF)
        len = 2, cp = c & 0x1F, min = 0x80;
    else if (c >= 0xE0 && c <= 0xEF)
        len = 3, cp = c & 0x0F, min = 0x800;
    else if (c >= 0xF0 && c <= 0xF4)
        len = 4, cp = c & 0x07, min = 0x10000;
    else
        return 0;
    if ((size_t)(end - s) < len)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        cp = cp << 6 | (s[i] & 0x3F);
    }
    return cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) ? 0 : len;
}

static bool starts(const struct xml *x, const char *s)
{
    size_t n = strlen(s);
    return (size_t)(x->end - x->p) >= n && memcmp(x->p, s, n) == 0;
}

static bool name_start(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || c == ':' || c >= 0x80;
}

static bool name_char(unsigned char c)
{
    return name_start(c) || (c >= '0' && c <= '9') || c == '-' || c == '.';
}

static bool space(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static void skip_space(struct xml *x)
{
    while (x->p < x->end && space(*x->p))
        x->p++;
}

/* A name at x->p: its length (x->p advanced), 0 when none. */
static size_t read_name(struct xml *x)
{
    const unsigned char *s = x->p;
    if (x->p >= x->end || !name_start(*x->p))
        return 0;
    while (x->p < x->end && name_char(*x->p))
        x->p++;
    return (size_t)(x->p - s);
}

/* An entity reference at x->p ('&'): &lt; &gt; &amp; &quot; &apos; &#N; &#xH; */
static int read_entity(struct xml *x)
{
    static const char *const named[] = {"&lt;", "&gt;", "&amp;", "&quot;", "&apos;"};
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++)
        if (starts(x, named[i])) {
            x->p += strlen(named[i]);
            return 0;
        }
    const unsigned char *s = x->p + 1;
    if (s < x->end && *s == '#') {
        s++;
        bool hex = s < x->end && *s == 'x';
        s += hex;
        const unsigned char *digits = s;
        while (s < x->end && ((*s >= '0' && *s <= '9') ||
                              (hex && ((*s >= 'a' && *s <= 'f') || (*s >= 'A' && *s <= 'F')))))
            s++;
        if (s > digits && s - digits <= 8 && s < x->end && *s == ';') {
            x->p = s + 1;
            return 0;
        }
    }
    return xml_wrong(x, "a '&' that starts no entity");
}

/* Character data up to the next '<' (or the end), checked: entities, no "]]>". */
static int read_text(struct xml *x, bool *non_space)
{
    while (x->p < x->end && *x->p != '<') {
        if (*x->p == '&') {
            if (read_entity(x))
                return -1;
            *non_space = true;
            continue;
        }
        if (starts(x, "]]>"))
            return xml_wrong(x, "\"]]>\" in text");
        if (!space(*x->p))
            *non_space = true;
        x->p++;
    }
    return 0;
}

/* Skips to just after `close` ("-->", "?>", "]]>"); -1 when it never comes. */
static int skip_past(struct xml *x, const char *close, const char *what)
{
    while (x->p < x->end && !starts(x, close))
        x->p++;
    if (x->p >= x->end)
        return xml_wrong(x, what);
    x->p += strlen(close);
    return 0;
}

/* A start tag at x->p ('<' + name): its name and length, and whether it ends in "/>". */
static int read_start_tag(struct xml *x, const unsigned char **name, size_t *len, bool *empty)
{
    x->p++;
    *empty = false;
    *name = x->p;
    if (!(*len = read_name(x)))
        return xml_wrong(x, "a '<' that starts no tag");
    for (;;) {
        bool spaced = x->p < x->end && space(*x->p);
        skip_space(x);
        if (x->p >= x->end)
            return xml_wrong(x, "a tag cut off by the end of the file");
        if (*x->p == '>') {
            x->p++;
            *empty = false;
            return 0;
        }
        if (starts(x, "/>")) {
            x->p += 2;
            *empty = true;
            return 0;
        }
        if (!spaced || !read_name(x))
            return xml_wrong(x, "a malformed attribute");
        skip_space(x);
        if (x->p >= x->end || *x->p != '=')
            return xml_wrong(x, "an attribute without '='");
        x->p++;
        skip_space(x);
        if (x->p >= x->end || (*x->p != '"' && *x->p != '\''))
            return xml_wrong(x, "an unquoted attribute value");
        unsigned char quote = *x->p++;
        while (x->p < x->end && *x->p != quote) {
            if (*x->p == '<')
                return xml_wrong(x, "a '<' in an attribute value");
            if (*x->p == '&') {
                if (read_entity(x))
                    return -1;
            } else {
                x->p++;
            }
        }
        if (x->p >= x->end)
            return xml_wrong(x, "an attribute value cut off by the end of the file");
        x->p++;
    }
}

enum { XML_MAX_DEPTH = 256 };

int fb_chart_check_svg(const unsigned char *data, size_t size, char *why, size_t why_size)
{
    struct xml x = {data, data + size, data, why, why_size};
    /* Bytes first: valid UTF-8, no control byte but TAB, LF, CR. */
    for (const unsigned char *s = data; s < x.end;) {
        size_t len = utf8_length(s, x.end);
        if (!len) {
            x.p = s;
            return xml_wrong(&x, "a byte that is not UTF-8");
        }
        if (len == 1 && ((*s < 0x20 && *s != '\t' && *s != '\n' && *s != '\r') || *s == 0x7F)) {
            x.p = s;
            return xml_wrong(&x, "a control byte");
        }
        s += len;
    }
    struct { const unsigned char *name; size_t len; } stack[XML_MAX_DEPTH];
    size_t depth = 0;
    bool root_seen = false;
    while (x.p < x.end) {
        if (*x.p != '<') {
            bool non_space = false;
            const unsigned char *at = x.p;
            if (read_text(&x, &non_space))
                return -1;
            if (depth == 0 && non_space) {
                x.p = at;
                return xml_wrong(&x, "text outside the root element");
            }
            continue;
        }
        if (starts(&x, "<!--")) {
            if (skip_past(&x, "-->", "an unclosed comment"))
                return -1;
        } else if (starts(&x, "<?")) {
            if (skip_past(&x, "?>", "an unclosed processing instruction"))
                return -1;
        } else if (starts(&x, "<![CDATA[")) {
            if (depth == 0)
                return xml_wrong(&x, "CDATA outside the root element");
            if (skip_past(&x, "]]>", "an unclosed CDATA section"))
                return -1;
        } else if (starts(&x, "<!DOCTYPE")) {
            if (root_seen || depth > 0)
                return xml_wrong(&x, "a DOCTYPE after the root element");
            int brackets = 0;
            while (x.p < x.end && (*x.p != '>' || brackets > 0)) {
                brackets += *x.p == '[' ? 1 : *x.p == ']' ? -1 : 0;
                x.p++;
            }
            if (x.p >= x.end)
                return xml_wrong(&x, "an unclosed DOCTYPE");
            x.p++;
        } else if (starts(&x, "</")) {
            x.p += 2;
            const unsigned char *name = x.p;
            size_t len = read_name(&x);
            skip_space(&x);
            if (!len || x.p >= x.end || *x.p != '>')
                return xml_wrong(&x, "a malformed end tag");
            if (depth == 0 || stack[depth - 1].len != len ||
                memcmp(stack[depth - 1].name, name, len) != 0)
                return xml_wrong(&x, "an end tag that closes no open element");
            depth--;
            x.p++;
        } else {
            if (depth == 0 && root_seen)
                return xml_wrong(&x, "a second root element");
            const unsigned char *name;
            size_t len;
            bool empty;
            if (read_start_tag(&x, &name, &len, &empty))
                return -1;
            if (depth == 0 && !(len == 3 && memcmp(name, "svg", 3) == 0))
                return xml_wrong(&x, "a root element that is not <svg>");
            root_seen = true;
            if (!empty) {
                if (depth == XML_MAX_DEPTH)
                    return xml_wrong(&x, "elements nested too deep");
                stack[depth].name = name;
                stack[depth].len = len;
                depth++;
            }
        }
    }
    if (depth > 0)
        return wrong(why, why_size, "truncated: <%.*s> is still open at the end of the file",
                     (int)(stack[depth - 1].len < 40 ? stack[depth - 1].len : 40),
                     (const char *)stack[depth - 1].name);
    if (!root_seen)
        return wrong(why, why_size, "no <svg> element");
    return 0;
}

/* --- PDF ------------------------------------------------------------------------------- */

/* The last occurrence of needle (n bytes) in data[0..size), or NULL. */
static const unsigned char *find_last(const unsigned char *data, size_t size, const char *needle)
{
    size_t n = strlen(needle);
    for (size_t at = size >= n ? size - n + 1 : 0; at-- > 0;)
        if (memcmp(data + at, needle, n) == 0)
            return data + at;
    return NULL;
}

static bool pdf_blank(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == 0;
}

int fb_chart_check_pdf(const unsigned char *data, size_t size, char *why, size_t why_size)
{
    if (size < 8 || memcmp(data, "%PDF-", 5) != 0 || data[5] < '1' || data[5] > '2' ||
        data[6] != '.' || data[7] < '0' || data[7] > '9')
        return wrong(why, why_size, "no %%PDF-1.x header");
    /* the end: "%%EOF", then nothing but blanks */
    size_t end = size;
    while (end > 0 && pdf_blank(data[end - 1]))
        end--;
    if (end < 5 || memcmp(data + end - 5, "%%EOF", 5) != 0)
        return wrong(why, why_size, "truncated: no %%%%EOF at the end");
    const unsigned char *sx = find_last(data, end - 5, "startxref");
    if (!sx)
        return wrong(why, why_size, "truncated: no startxref before %%%%EOF");
    const unsigned char *p = sx + 9, *stop = data + end - 5;
    while (p < stop && pdf_blank(*p))
        p++;
    uint64_t offset = 0;
    const unsigned char *digits = p;
    while (p < stop && *p >= '0' && *p <= '9' && p - digits < 19)
        offset = offset * 10 + (uint64_t)(*p++ - '0');
    if (p == digits)
        return wrong(why, why_size, "startxref at byte %zu gives no offset",
                     (size_t)(sx - data));
    while (p < stop && pdf_blank(*p))
        p++;
    if (p != stop)
        return wrong(why, why_size, "text between startxref's offset and %%%%EOF");
    if (offset >= (uint64_t)(sx - data))
        return wrong(why, why_size, "startxref points to byte %llu, past the table's place",
                     (unsigned long long)offset);
    const unsigned char *x = data + offset;
    size_t left = (size_t)(sx - x);
    bool table = left >= 4 && memcmp(x, "xref", 4) == 0;
    bool stream = false;
    if (!table) { /* an xref stream: "N G obj" */
        const unsigned char *q = x;
        while (q < sx && *q >= '0' && *q <= '9')
            q++;
        stream = q > x && (size_t)(sx - q) > 6 && q[0] == ' ';
        if (stream) {
            q++;
            while (q < sx && *q >= '0' && *q <= '9')
                q++;
            stream = (size_t)(sx - q) > 4 && memcmp(q, " obj", 4) == 0;
        }
    }
    if (!table && !stream)
        return wrong(why, why_size, "startxref's offset %llu holds no cross-reference table",
                     (unsigned long long)offset);
    if (!find_last(data, offset, "endobj"))
        return wrong(why, why_size, "no object before the cross-reference table");
    return 0;
}

/* --- files ------------------------------------------------------------------------------- */

int fb_chart_check_file(int dirfd, const char *name, const struct fb_chart_format *format,
                        size_t max_size, char *why, size_t why_size)
{
    int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0)
        return wrong(why, why_size, "cannot open it: %s", strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return wrong(why, why_size, "not a regular file");
    }
    if ((uintmax_t)st.st_size > max_size) {
        close(fd);
        return wrong(why, why_size, "%jd bytes, more than a chart may have (%zu)",
                     (intmax_t)st.st_size, max_size);
    }
    size_t size = (size_t)st.st_size;
    unsigned char *data = malloc(size ? size : 1);
    if (!data) {
        close(fd);
        return wrong(why, why_size, "out of memory reading it");
    }
    size_t got = 0;
    while (got < size) {
        ssize_t r = read(fd, data + got, size - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    close(fd);
    int rc = got == size ? format->check(data, size, why, why_size)
                         : wrong(why, why_size, "cannot read it: %s", strerror(errno ? errno : EIO));
    free(data);
    return rc;
}
