/* The JSON writer's pieces (contract in json.h). */
#include "common/json.h"

#include <math.h>

#include "common/text.h"

void fb_json_write_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (const char *p = s; *p;) {
        const unsigned char c = (unsigned char)*p;
        const size_t len = fb_text_utf8_char(p);
        switch (c) {
        case '"': fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\n': fputs("\\n", out); break;
        case '\r': fputs("\\r", out); break;
        case '\t': fputs("\\t", out); break;
        case '\b': fputs("\\b", out); break;
        case '\f': fputs("\\f", out); break;
        default:
            if (c < 0x20 || c == 0x7f)
                fprintf(out, "\\u%04x", c);
            else if (fb_text_is_c1(p)) /* the same character, escaped: no terminal acts on it */
                fprintf(out, "\\u%04x", (unsigned char)p[1]);
            else if (len == 0) /* not UTF-8: the four characters \xNN, as in messages */
                fprintf(out, "\\\\x%02X", c);
            else
                fwrite(p, 1, len, out);
        }
        p += len ? len : 1;
    }
    fputc('"', out);
}

void fb_json_write_number(FILE *out, double x)
{
    if (isfinite(x))
        fprintf(out, "%.17g", x);
    else
        fputs("null", out);
}
