/* Helpers shared by the CSV tests: a private temporary directory per test, whole-file reads
 * and writes. Test code only (asserts through cmocka). Include after cmocka.h. */
#ifndef FB_TESTS_CSV_TEST_UTIL_H
#define FB_TESTS_CSV_TEST_UTIL_H

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct tmpdir {
    char path[64];
};

/* Creates a fresh directory under /tmp for one test; teardown removes it and its content. */
static inline int tmpdir_setup(void **state)
{
    struct tmpdir *d = calloc(1, sizeof *d);
    assert_non_null(d);
    strcpy(d->path, "/tmp/fb_csv_test_XXXXXX");
    assert_non_null(mkdtemp(d->path));
    *state = d;
    return 0;
}

static inline int rm_entry(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(p);
}

static inline int tmpdir_teardown(void **state)
{
    struct tmpdir *d = *state;
    /* FTW_PHYS: delete symlinks themselves, never follow them (one points at /dev/full). */
    nftw(d->path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    free(d);
    return 0;
}

/* dir + "/" + name into buf (static size, enough for these tests). */
static inline const char *in_dir(char *buf, size_t size, void **state, const char *name)
{
    const struct tmpdir *d = *state;
    int n = snprintf(buf, size, "%s/%s", d->path, name);
    assert_true(n > 0 && (size_t)n < size);
    return buf;
}

/* Whole file as a NUL-terminated malloc'ed string; the caller frees it. */
static inline char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char *buf = NULL;
    size_t len = 0, cap = 0;
    int c;
    while ((c = fgetc(f)) != EOF) {
        if (len + 2 > cap) {
            cap = cap ? cap * 2 : 4096;
            buf = realloc(buf, cap);
            assert_non_null(buf);
        }
        buf[len++] = (char)c;
    }
    fclose(f);
    if (!buf)
        buf = malloc(1);
    assert_non_null(buf);
    buf[len] = '\0';
    return buf;
}

static inline void spew(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fputs(text, f) >= 0, 1);
    assert_int_equal(fclose(f), 0);
}

static inline int exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

#endif
