#include "config/config.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

void fb_slugify(char *out, size_t size, const char *text)
{
    if (size == 0)
        return;
    size_t j = 0;
    bool dash = false;
    for (const char *p = text; *p && j + 1 < size && j < 40; p++) {
        if (!isalnum((unsigned char)*p)) {
            dash = true;
            continue;
        }
        if (dash && j > 0 && j + 2 < size)
            out[j++] = '-';
        out[j++] = (char)tolower((unsigned char)*p);
        dash = false;
    }
    if (j == 0 && size > 1)
        out[j++] = 'x';
    out[j] = '\0';
    /* "...-processor" says nothing about the machine */
    char *tail = strstr(out, "-processor");
    if (tail && tail[10] == '\0')
        *tail = '\0';
}

int fb_config_expand_path(const char *pattern, const char *backend, const char *device,
                          char *out, size_t out_size, struct fb_error *err)
{
    size_t len = 0;
    const char *p = pattern;
    while (*p) {
        char piece[64];
        const char *text;
        size_t text_len;
        if (*p == '{') {
            const char *close = strchr(p, '}');
            size_t name_len = close ? (size_t)(close - p - 1) : 0;
            if (close && name_len == 7 && strncmp(p + 1, "backend", 7) == 0) {
                text = backend;
            } else if (close && name_len == 6 && strncmp(p + 1, "device", 6) == 0) {
                fb_slugify(piece, sizeof piece, device);
                text = piece;
            } else if (close) {
                return fb_fail(err, FB_ERR_USAGE,
                               "unknown placeholder {%.*s} (known: {backend}, {device})",
                               (int)name_len, p + 1);
            } else {
                return fb_fail(err, FB_ERR_USAGE, "unclosed '{' in \"%s\"", pattern);
            }
            text_len = strlen(text);
            p = close + 1;
        } else {
            text = p;
            text_len = 1;
            p++;
        }
        if (len + text_len >= out_size)
            return fb_fail(err, FB_ERR_USAGE, "path \"%s\" is too long once expanded (max %zu)",
                           pattern, out_size - 1);
        memcpy(out + len, text, text_len);
        len += text_len;
    }
    if (out_size == 0)
        return fb_fail(err, FB_ERR_USAGE, "no room for the path");
    out[len] = '\0';
    return FB_OK;
}
