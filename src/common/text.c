#include "common/text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t fb_text_utf8_char(const char *text)
{
    const unsigned char *s = (const unsigned char *)text;
    unsigned char c = s[0];
    size_t len;
    unsigned min;
    unsigned cp;
    if (c >= 0x01 && c <= 0x7F)
        return 1;
    if (c >= 0xC2 && c <= 0xDF) {
        len = 2, cp = c & 0x1Fu, min = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3, cp = c & 0x0Fu, min = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4, cp = c & 0x07u, min = 0x10000;
    } else {
        return 0;
    }
    for (size_t i = 1; i < len; i++) { /* a NUL ends the loop: it is no continuation byte */
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3Fu);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return len;
}

bool fb_text_is_c1(const char *text)
{
    const unsigned char *s = (const unsigned char *)text;
    return s[0] == 0xC2 && s[1] >= 0x80 && s[1] <= 0x9F;
}

char *fb_text_escape(char *out, size_t size, const char *in)
{
    if (size == 0)
        return out;
    const unsigned char *s = (const unsigned char *)in;
    size_t o = 0;
    while (*s) {
        char piece[8];
        size_t len;
        /* a multi-byte character, C1 controls excepted: some terminals take those as the
         * start of an escape sequence */
        size_t seq = *s >= 0x80 && !fb_text_is_c1((const char *)s)
                         ? fb_text_utf8_char((const char *)s) : 0;
        if (*s >= 0x20 && *s < 0x7F) {
            piece[0] = (char)*s;
            len = 1;
        } else if (seq) {
            memcpy(piece, s, seq);
            len = seq;
        } else if (*s == '\t' || *s == '\n' || *s == '\r') {
            piece[0] = '\\';
            piece[1] = *s == '\t' ? 't' : *s == '\n' ? 'n' : 'r';
            len = 2;
        } else {
            snprintf(piece, sizeof piece, "\\x%02X", *s);
            len = 4;
        }
        if (o + len >= size)
            break;
        memcpy(out + o, piece, len);
        o += len;
        s += seq ? seq : 1;
    }
    out[o] = '\0';
    return out;
}

void fb_text_escape_in_place(char *msg, size_t size)
{
    char *copy = strdup(msg);
    if (!copy) { /* no memory for a copy: blank what cannot be shown safely */
        for (unsigned char *p = (unsigned char *)msg; *p; p++)
            if (*p < 0x20 || *p == 0x7F || *p >= 0x80)
                *p = '?';
        return;
    }
    fb_text_escape(msg, size, copy);
    free(copy);
}

char *fb_text_shell_word(char *out, size_t size, const char *in)
{
    if (size == 0)
        return out;
    static const char plain[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                "0123456789_-./+,:=@%";
    if (*in && strspn(in, plain) == strlen(in))
        return fb_text_escape(out, size, in);
    /* '...' with each ' as '\'' (close, an escaped quote, reopen) */
    size_t len = strlen(in), quotes = 0;
    for (const char *p = in; *p; p++)
        quotes += *p == '\'';
    char *quoted = malloc(len + 3 * quotes + 3);
    if (!quoted) {
        snprintf(out, size, "'...'");
        return out;
    }
    char *q = quoted;
    *q++ = '\'';
    for (const char *p = in; *p; p++) {
        if (*p == '\'') {
            memcpy(q, "'\\''", 4);
            q += 4;
        } else {
            *q++ = *p;
        }
    }
    *q++ = '\'';
    *q = '\0';
    fb_text_escape(out, size, quoted);
    free(quoted);
    return out;
}

void fb_text_print(FILE *out, const char *prefix, const char *text)
{
    char shown[4096];
    fprintf(out, "%s%s\n", prefix, fb_text_escape(shown, sizeof shown, text));
}

void fb_text_bytes(char *buf, size_t size, uint64_t bytes)
{
    if (bytes >= (1ull << 30))
        snprintf(buf, size, "%.1f GiB", (double)bytes / (double)(1ull << 30));
    else
        snprintf(buf, size, "%.1f MiB", (double)bytes / (double)(1ull << 20));
}

char *fb_text_markdown(char *out, size_t size, const char *in)
{
    if (size == 0)
        return out;
    char escaped[4096];
    fb_text_escape(escaped, sizeof escaped, in ? in : "");
    size_t o = 0;
    for (const char *p = escaped; *p;) {
        /* escaped is valid UTF-8, so len >= 1; the guard keeps the loop moving regardless */
        size_t len = fb_text_utf8_char(p);
        len = len ? len : 1;
        bool mark = len == 1 && strchr("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", *p);
        if (o + mark + len >= size)
            break;
        if (mark)
            out[o++] = '\\';
        memcpy(out + o, p, len);
        o += len;
        p += len;
    }
    out[o] = '\0';
    return out;
}
