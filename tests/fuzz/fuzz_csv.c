/* libFuzzer target: the CSV reader behind --resume and --plot, and what --resume does with
 * its rows: fb_csv_read, then the results store's load (duplicate merge, point index), a
 * lookup of every row, and the terminal summary. Crashes, sanitizer reports and leaks are
 * the findings; the checks abort on rows that passed the reader but break its contract. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/results.h"
#include "results/csv.h"
#include "output/summary.h"
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_row(const struct fb_record *r)
{
    /* the reader's promises: counts >= 0 or -1 (empty); times finite >= 0 or NaN (empty) */
    if (r->n < 0 || r->launches < -1 || r->reps < -1)
        abort();
    const double times[] = {r->time_median_s, r->time_min_s, r->time_max_s, r->time_p10_s,
                            r->time_p90_s, r->kernel_time_s, r->bandwidth_gbps};
    for (size_t i = 0; i < sizeof times / sizeof times[0]; i++)
        if (!isnan(times[i]) && !(isfinite(times[i]) && times[i] >= 0))
            abort();
    if (!memchr(r->backend, '\0', sizeof r->backend) || !memchr(r->cache, '\0', sizeof r->cache))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_scratch_file(".csv", data, size);
    struct fb_csv_table t;
    struct fb_error err;
    if (fb_csv_read(path, &t, &err) == FB_OK) {
        for (size_t i = 0; i < t.n_records; i++)
            check_row(&t.records[i]);
        (void)fb_csv_meta_get(&t, "config_hash");
        fb_csv_table_free(&t);
    }

    struct fb_results *res = malloc(sizeof *res);
    struct fb_plan *plan = calloc(1, sizeof *plan); /* what the store reads of it */
    if (res && plan) {
        struct fb_device_info dev = {.name = "fuzz device"};
        fb_results_init(res, path, plan, "cpu", &dev, 1, "n/a");
        size_t loaded = 0;
        if (fb_results_load(res, &loaded, &err) == FB_OK) {
            if (loaded != res->count)
                abort();
            /* every kept row is found by its own key, and the keys are unique */
            for (size_t i = 0; i < res->count; i++)
                if (fb_results_find(res, &res->records[i]) != &res->records[i])
                    abort();
            fb_summary_print(fuzz_devnull(), res->records, res->count);
        }
        fb_results_free(res);
    }
    free(res);
    free(plan);
    return 0;
}

__attribute__((destructor)) static void fuzz_csv_cleanup(void)
{
    fuzz_scratch_remove(fuzz_scratch_file(".csv", (const unsigned char *)"", 0));
}
