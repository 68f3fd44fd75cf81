/* Quoting untrusted text (config values, CSV cells, file names) in messages for a terminal. */
#ifndef FB_COMMON_TEXT_H
#define FB_COMMON_TEXT_H

#include <stddef.h>

/* Copies `in` to out (size bytes, always NUL-terminated when size > 0), writing every byte a
 * terminal could act on as a visible escape: tab, line feed and carriage return as "\t", "\n",
 * "\r"; other control bytes (0x00-0x1F, 0x7F), C1 control characters (U+0080-U+009F, which
 * some terminals take as the start of an escape sequence) and bytes that are not part of valid
 * UTF-8 as "\xNN" per byte. Valid UTF-8 text (accents, CJK) and backslashes are kept, so paths
 * read as typed. A result that does not fit is cut before the first piece that does not fit,
 * never in the middle of an escape or a character. Returns out. */
char *fb_text_escape(char *out, size_t size, const char *in);

/* Escapes msg (a NUL-terminated string in a buffer of `size` bytes) in place. */
void fb_text_escape_in_place(char *msg, size_t size);

#endif
