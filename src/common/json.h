/* The one JSON writer's pieces, for every JSON fusebench writes (--print-plan, --derive, the
 * trace): strings that any strict parser reads, and numbers. */
#ifndef FB_COMMON_JSON_H
#define FB_COMMON_JSON_H

#include <stdio.h>

/* Writes `s` as a JSON string that is valid UTF-8 whatever the bytes of s (RFC 8259 with
 * RFC 3629), so any strict parser reads it: '"' and '\\' escaped; control bytes as \n, \r,
 * \t, \b, \f, or \u00XX (DEL and the C1 controls U+0080-U+009F too: the same characters);
 * other valid UTF-8 as it is. A byte that is not part of valid UTF-8 (a stray continuation
 * byte, a truncated sequence, an overlong form such as C0 AF, a surrogate such as CESU-8's
 * ED A0 80, a code point above U+10FFFF) becomes the four characters \xNN (upper-case hex,
 * written "\\xNN" in the JSON text): the string reads as fusebench's messages show the same
 * bytes (common/text.h). That one case is not reversible: a label typed as the text \xFF
 * reads the same; the CSV keeps the original bytes. */
void fb_json_write_string(FILE *out, const char *s);

/* A double as a JSON number, %.17g (round-trips); JSON has no NaN or infinity: null. */
void fb_json_write_number(FILE *out, double x);

#endif
