/* A private directory for one test, and its removal with everything the code under test wrote
 * into it (a results file's NAME.partial and NAME.lock, temporaries): tests leave nothing.
 * Made under $TMPDIR when set (tests/run gives every test its own), else /tmp. Test code
 * only (asserts through cmocka): include after cmocka.h. */
#ifndef FB_TESTS_COMMON_TEST_TMPDIR_H
#define FB_TESTS_COMMON_TEST_TMPDIR_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Creates "$TMPDIR/PREFIX-XXXXXX" into buf (size bytes); fails the test when it cannot. */
static inline void fb_test_mkdtemp(char *buf, size_t size, const char *prefix)
{
    const char *tmp = getenv("TMPDIR");
    int n = snprintf(buf, size, "%s/%s-XXXXXX", tmp && *tmp ? tmp : "/tmp", prefix);
    assert_true(n > 0 && (size_t)n < size);
    assert_non_null(mkdtemp(buf));
}

/* Removes path and, for a directory, its content; symlinks are removed, never followed. */
static inline void fb_test_rmtree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return;
    if (S_ISDIR(st.st_mode)) {
        DIR *d = opendir(path);
        if (d) {
            struct dirent *e;
            while ((e = readdir(d)) != NULL) {
                if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                    continue;
                char child[4096];
                int n = snprintf(child, sizeof child, "%s/%s", path, e->d_name);
                if (n > 0 && (size_t)n < sizeof child)
                    fb_test_rmtree(child);
            }
            closedir(d);
        }
    }
    remove(path);
}

#endif
