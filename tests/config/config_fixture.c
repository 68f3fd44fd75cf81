#include "config_fixture.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

void fixture_load(const char *text, struct fb_config *cfg, struct fixture_result *res)
{
    memset(res, 0, sizeof *res);
    const char *tmp = getenv("TMPDIR");
    snprintf(res->path, sizeof res->path, "%s/fb-config-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemp(res->path);
    assert_true(fd >= 0);
    size_t len = strlen(text);
    assert_int_equal(write(fd, text, len), (ssize_t)len);
    close(fd);

    char *buf = NULL;
    size_t size = 0;
    FILE *diag = open_memstream(&buf, &size);
    assert_non_null(diag);
    res->rc = fb_config_load(cfg, res->path, diag, &res->err);
    fclose(diag);
    snprintf(res->diag, sizeof res->diag, "%s", buf ? buf : "");
    free(buf);
    unlink(res->path);
    for (const char *p = res->diag; *p; p++)
        res->diag_lines += *p == '\n';
}

int fixture_has_line(const struct fixture_result *res, int line, const char *rest)
{
    char want[2300];
    snprintf(want, sizeof want, "%s:%d: %s\n", res->path, line, rest);
    if (strstr(res->diag, want))
        return 1;
    /* Shown on failure: the assertion only says which line was missing. */
    print_message("no line \"%s\" in diag:\n%s", want, res->diag);
    return 0;
}

int fixture_line_contains(const struct fixture_result *res, int line, const char *fragment)
{
    char prefix[300];
    snprintf(prefix, sizeof prefix, "%s:%d: ", res->path, line);
    size_t plen = strlen(prefix);
    /* Several problems may share a line: look at each diag line in turn. */
    for (const char *p = res->diag; *p;) {
        const char *end = strchr(p, '\n');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        char one[2048];
        snprintf(one, sizeof one, "%.*s", (int)n, p);
        if (strncmp(one, prefix, plen) == 0 && strstr(one + plen, fragment))
            return 1;
        p += n + (end ? 1 : 0);
    }
    print_message("no line %d containing \"%s\" in diag:\n%s", line, fragment, res->diag);
    return 0;
}

const char *fixture_source_path(const char *rel, char *buf, size_t size)
{
    const char *dir = getenv("FB_SOURCE_DIR");
    if (!dir || !*dir) {
        print_message("FB_SOURCE_DIR is not set (run through meson test)\n");
        return NULL;
    }
    snprintf(buf, size, "%s/%s", dir, rel);
    return buf;
}
