/* Reading the results files of a chart (contract in read.h). */
#include "chart/read.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "chart/derive.h"

int fb_chart_read_tables(const char *const *paths, size_t n, struct fb_csv_table *tables,
                         struct fb_error *err)
{
    for (size_t i = 0; i < n; i++)
        memset(&tables[i], 0, sizeof tables[i]);
    if (n > FB_CHART_MAX_FILES)
        return fb_fail(err, FB_ERR_USAGE, "at most %d results files, not %zu",
                       FB_CHART_MAX_FILES, n);
    int rc = FB_OK;
    for (size_t i = 0; i < n && rc == FB_OK; i++) {
        struct stat st;
        if (stat(paths[i], &st) != 0)
            rc = fb_fail(err, errno == ENOENT ? FB_ERR_USAGE : FB_ERR_RUNTIME,
                         "cannot read results CSV '%s': %s", paths[i], strerror(errno));
        else if (S_ISDIR(st.st_mode))
            rc = fb_fail(err, FB_ERR_USAGE, "'%s' is a directory, not a results CSV", paths[i]);
        else if (!S_ISREG(st.st_mode))
            rc = fb_fail(err, FB_ERR_USAGE, "'%s' is not a regular file (a FIFO, socket or "
                         "device is never read)", paths[i]);
        else
            rc = fb_csv_read_bounded(paths[i], FB_CHART_MAX_ROWS, &tables[i], err);
    }
    if (rc != FB_OK)
        for (size_t i = 0; i < n; i++)
            fb_csv_table_free(&tables[i]);
    return rc;
}
