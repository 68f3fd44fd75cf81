/* Untrusted text (config values, CSV cells, file names): quoting it in messages for a
 * terminal or as markdown text, and telling valid UTF-8 from bytes that are not (the JSON
 * writer's escapes). */
#ifndef FB_COMMON_TEXT_H
#define FB_COMMON_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The length in bytes (1-4) of the valid UTF-8 character that text starts with, or 0 when it
 * starts none: a NUL, a stray continuation byte, a truncated sequence, an overlong form
 * ("\xC0\xAF"), a UTF-16 surrogate (CESU-8's "\xED\xA0\x80") or a code point above
 * U+10FFFF (RFC 3629). ASCII bytes (control bytes included) are 1. Reads at most 4 bytes, and
 * none past a NUL. */
size_t fb_text_utf8_char(const char *text);

/* Whether text starts with a C1 control character (U+0080-U+009F, "\xC2\x80".."\xC2\x9F"):
 * valid UTF-8 that some terminals take as the start of an escape sequence. */
bool fb_text_is_c1(const char *text);

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

/* Writes prefix (fusebench's own text, as it is), text escaped (fb_text_escape: an error
 * message that quotes paths and values; escaping twice changes nothing) and a line feed.
 * Text beyond about 1000 characters (4 KiB escaped) is cut. */
void fb_text_print(FILE *out, const char *prefix, const char *text);

/* Writes `in` as one word of a POSIX shell command line printed for the user to copy (a
 * "redraw with: ./sweep --plot FILE" hint): as it is when it holds only characters no shell
 * treats specially (letters, digits and _ - . / + , : = @ %), else in single quotes with each
 * ' written '\''; then escaped as fb_text_escape does, so a control byte shows as \xNN (that
 * word no longer pastes as the same bytes, but never acts on the terminal). fusebench itself
 * never hands text to a shell. Returns out (size bytes, NUL-terminated when size > 0). */
char *fb_text_shell_word(char *out, size_t size, const char *in);

/* "12.3 GiB" (from 1 GiB up) or "45.6 MiB" into buf (size bytes). */
void fb_text_bytes(char *buf, size_t size, uint64_t bytes);

/* The most a fb_text_markdown result can need, NUL included: 4 KiB escaped, each byte of it
 * at most doubled. */
#define FB_TEXT_MARKDOWN_MAX 8192

/* Copies `in` (NULL reads as "") to out as literal markdown text: first escaped as
 * fb_text_escape does (control bytes and bytes outside UTF-8 as \xNN, so a line break from
 * data cannot start a new block), then every ASCII punctuation character preceded by a
 * backslash (CommonMark: any ASCII punctuation may be escaped so, and an escaped character is
 * only ever itself: no emphasis, code, link, image, HTML tag, entity or table cell border; nor
 * a GFM autolink, whose "www." and "://" then never appear unescaped). The one escaper of
 * text from data for every markdown page (the --report page, the --compare table). Text
 * beyond about 1000 characters (4 KiB escaped) is cut; a result that does not fit in size
 * bytes is cut before the first piece that does not fit (an escaped pair, a character), never
 * after a lone backslash. Returns out (NUL-terminated when size > 0). */
char *fb_text_markdown(char *out, size_t size, const char *in);

#endif
