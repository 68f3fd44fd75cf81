/* The one quoting routine for text in charts (contract in label.h). */
#include "chart/label.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/text.h"

/* The length of the UTF-8 character at s (escaped text: every byte >= 0x80 belongs to a
 * valid sequence), 1 for ASCII. */
static size_t char_length(const unsigned char *s)
{
    if (*s < 0x80)
        return 1;
    size_t len = *s >= 0xF0 ? 4 : *s >= 0xE0 ? 3 : 2;
    for (size_t i = 1; i < len; i++)
        if ((s[i] & 0xC0) != 0x80)
            return i;
    return len;
}

/* Appends piece (len bytes) when it fits with the NUL; returns whether it did. */
static int put(char *out, size_t size, size_t *o, const char *piece, size_t len)
{
    if (*o + len >= size)
        return 0;
    memcpy(out + *o, piece, len);
    *o += len;
    return 1;
}

char *fb_chart_label(char *out, size_t size, const char *in)
{
    if (size == 0)
        return out;
    out[0] = '\0';
    /* Every input byte becomes at most 4 escaped bytes. */
    size_t room = strlen(in) * 4 + 1;
    char *escaped = malloc(room);
    if (!escaped) {
        snprintf(out, size, "?");
        return out;
    }
    fb_text_escape(escaped, room, in);
    const unsigned char *s = (const unsigned char *)escaped;
    size_t o = 0, chars = 0;
    int ok = 1;
    while (*s && ok) {
        if (chars == FB_CHART_LABEL_CHARS) {
            put(out, size, &o, "\xE2\x80\xA6", 3); /* U+2026 */
            break;
        }
        size_t len = char_length(s);
        if (*s == '"') {
            ok = put(out, size, &o, "''", 2);
        } else if (*s == '\\') {
            ok = put(out, size, &o, "\\\\", 2);
        } else if (*s == '>' && o >= 2 && out[o - 1] == ']' && out[o - 2] == ']') {
            ok = put(out, size, &o, " >", 2);
        } else {
            ok = put(out, size, &o, (const char *)s, len);
        }
        s += len;
        chars++;
    }
    out[o] = '\0';
    if (o == 0)
        snprintf(out, size, "-");
    free(escaped);
    return out;
}

void fb_chart_n_text(double n, char *out, size_t size)
{
    if (n >= 1e6 && fmod(n, 1e6) == 0)
        snprintf(out, size, "%gM", n / 1e6);
    else if (n >= 1e3 && fmod(n, 1e3) == 0)
        snprintf(out, size, "%gK", n / 1e3);
    else
        snprintf(out, size, "%.6g", n);
}
