/* Test helpers for the config tests: write an INI text to a temporary file and load it,
 * capturing the diagnostics. */
#ifndef FB_TESTS_CONFIG_FIXTURE_H
#define FB_TESTS_CONFIG_FIXTURE_H

#include "config/config.h"

struct fixture_result {
    int rc;
    char diag[8192];  /* everything fb_config_load wrote to diag */
    int diag_lines;   /* number of lines in diag */
    char path[256];   /* the temporary file's path (already removed) */
    struct fb_error err;
};

/* Writes text to a fresh temporary file, loads it into cfg, removes the file.
 * Aborts the test (cmocka fail) when the file cannot be written. */
void fixture_load(const char *text, struct fb_config *cfg, struct fixture_result *res);

/* Whether diag holds a line exactly equal to "<path>:<line>: <rest>". */
int fixture_has_line(const struct fixture_result *res, int line, const char *rest);

/* Whether diag holds a line for `line` containing `fragment`. */
int fixture_line_contains(const struct fixture_result *res, int line, const char *fragment);

/* $FB_SOURCE_DIR/<rel>, or NULL (with a printed reason) when the variable is unset. */
const char *fixture_source_path(const char *rel, char *buf, size_t size);

#endif
