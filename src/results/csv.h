/* The results file: `# key: value` metadata lines, a header row, one row per struct fb_record.
 *
 * Columns, in this order (the names are struct fb_record's fields):
 *   backend,device,variant,dtype,n,launches,bytes_model,reps,batch,time_median_s,time_min_s,
 *   time_max_s,time_p10_s,time_p90_s,noise,bandwidth_gbps,copy_fraction,kernel_time_s,
 *   launch_overhead_s,dram_read_bytes,dram_write_bytes,l2_bytes,dram_bytes_per_element,cache,
 *   verified,status,reason,role,pair,speedup,preempted,stores,host_launches,mirror,ours_ratio,
 *   ours_ratio_lo,ours_ratio_hi,speedup_lo,speedup_hi,speedup_rounds
 * (role, pair and speedup were appended later, measure/pairing.h defines them; then
 * preempted, the fraction of disturbed samples; stores, the point's store kind
 * (common/format.h); then host_launches, the launches the host
 * issues per call, which differs from launches, the kernels, for a variant that runs its
 * kernels in one launch: plan/variants.h; then mirror and ours_ratio(_lo, _hi), on the rows of a
 * peer measured in the same process as ours: measure/pairing.h; then speedup_lo, speedup_hi and
 * speedup_rounds, the speedup's confidence interval from the interleaved rounds:
 * measure/interval.h.)
 * Cells: an empty cell is "not measured" (a NaN double, a negative count); times and other
 * doubles are written with %.9g (9 significant digits: sub-ns resolution for anything under a
 * second), bandwidth_gbps with %.4f; an infinite noise (one sample) as "inf"; verified as 1/0;
 * status as ok, failed, skipped or noisy; preempted (the fraction of a point's samples that
 * another program disturbed, measure/disturbance.h) with %.9g, empty in files older than it.
 * Text cells containing a comma or a double quote are quoted RFC 4180 style ("a ""b"", c");
 * line breaks in text become spaces so one row stays one line (gnuplot and line-based tools
 * read it).
 *
 * Numbers are formatted and parsed in the C locale's notation ('.' decimal point): nothing in
 * fusebench may call setlocale(LC_NUMERIC, ...) with another locale.
 *
 * This module only formats and parses: no measuring code lives here. */
#ifndef FB_OUTPUT_CSV_H
#define FB_OUTPUT_CSV_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "measure/record.h"

/* One `# key: value` line. Keys: non-empty, no ':' and no whitespace; values: any text (line
 * breaks are written as spaces). The sizes bound what the reader accepts. */
struct fb_csv_meta {
    char key[64];
    char value[1024];
};

/* The most metadata a reader keeps from one file: pairs, and key plus value bytes. A file of
 * fusebench's writes fewer than 50 pairs (FB_RESULTS_MAX_META) of a few KB in all. */
#define FB_CSV_MAX_META 1024
#define FB_CSV_MAX_META_BYTES (256 * 1024)

/* A results file read back: metadata in file order, then the rows in file order.
 * Owned by the caller; release with fb_csv_table_free(). */
struct fb_csv_table {
    struct fb_csv_meta *meta;
    size_t n_meta;
    struct fb_record *records;
    size_t n_records;
};

/* The number of columns (40) and the name of column i (0-based) in header order, or NULL when
 * i >= fb_csv_column_count(). For tests and tools that check the schema. */
size_t fb_csv_column_count(void);
const char *fb_csv_column_name(size_t i);

/* Creates every missing directory above `path` (mkdir -p of its dirname, mode 0777 & umask).
 * A path without '/' needs nothing. Returns FB_OK, or FB_ERR_RUNTIME with a message naming the
 * directory that could not be made and the output path it was for (e.g. when a component
 * exists as a regular file). Does not create `path` itself. */
int fb_csv_make_parent_dirs(const char *path, struct fb_error *err);

/* The longest output path the writer handles (Linux's PATH_MAX). */
#define FB_CSV_PATH_MAX 4096

/* The symlink and file-type policy of the results file, in one place. Follows `path` through
 * symlinks (a relative link target is taken relative to the link's directory, at most 40
 * hops) to the file that is really written, and puts that path in out: `path` itself when it
 * is a regular file or does not exist yet. Writing the target keeps the link a link.
 * Returns FB_OK, or FB_ERR_USAGE with a message naming the path when the target exists and is
 * not a regular file (a directory, FIFO, socket or device node, e.g. /dev/null: never
 * replaced), when a symlink loops, or when it cannot be examined (e.g. a component of the
 * path is a regular file). */
int fb_csv_output_target(const char *path, char *out, size_t size, struct fb_error *err);

/* Writes meta (n_meta pairs, in order) and records (n_records rows, in order) to the file
 * `path` names (through symlinks: see fb_csv_output_target), atomically: the whole file goes
 * to a new, uniquely named "<target>.tmp.XXXXXX" (mkstemp) in the target's directory, which
 * gets the old file's permissions (0666 less the umask for a new file), is fflush'ed,
 * fsync'ed and closed, then rename()d onto the target. Every write, flush, sync and close is
 * checked. Readers see the old file or the new one, never a torn one; two writers never share
 * a temporary file. On any failure the temporary file is removed, a file already at the
 * target is left exactly as it was, and the function returns FB_ERR_RUNTIME (I/O; the message
 * names the file and the system error) or FB_ERR_USAGE (a target that is not a regular file,
 * checked before writing and again right before the rename, or a metadata key that is empty
 * or contains ':' or whitespace). Parent directories are not created: see
 * fb_csv_make_parent_dirs(). */
int fb_csv_write(const char *path, const struct fb_csv_meta *meta, size_t n_meta,
                 const struct fb_record *records, size_t n_records, struct fb_error *err);

/* Reads a results file written by fb_csv_write() or by an older or foreign writer (the torch
 * peer): `#` lines before the header are metadata (`# key: value`; other `#` lines and blank
 * lines are skipped), the first other line is the header, and each later line is a row.
 * Columns are found by header name: unknown columns are ignored, missing ones leave the field
 * "not measured" (fb_record_init), except backend, variant, dtype and n, which must be there.
 * An older schema keeps its rows' meaning: without a status column a row with a time is ok
 * (else skipped); without a verified column an ok row is verified; without a cache column
 * the cache is "warm".
 * Counts written as whole floats ("1024.0", "1e+08", as pandas writes integer columns with
 * gaps) are accepted. Times (time_*_s, kernel_time_s), bandwidth_gbps, copy_fraction and
 * dram_bytes_per_element must be finite and >= 0 when written ("nan", "inf", "-1" are
 * errors at their line); other real-valued cells (noise: "inf" for one sample) take any
 * number. A row whose written times break min <= p10 <= median <= p90 <= max is an error at
 * its line, and so is metadata past FB_CSV_MAX_META pairs or FB_CSV_MAX_META_BYTES bytes.
 * Messages escape control bytes quoted from the file (fb_text_escape).
 * On success fills *out (which the caller frees with fb_csv_table_free) and returns FB_OK.
 * On failure *out is empty and it returns FB_ERR_RUNTIME (the file cannot be opened or read)
 * or FB_ERR_USAGE (the content is malformed), with a message "path:line: what is wrong". */
int fb_csv_read(const char *path, struct fb_csv_table *out, struct fb_error *err);

/* fb_csv_read() refusing a file of more than max_records rows: FB_ERR_USAGE with
 * "path:line: more than N rows" at the first row past them, having read no further (a
 * command that must end in bounded time on any input: --plot, --derive). */
int fb_csv_read_bounded(const char *path, size_t max_records, struct fb_csv_table *out,
                        struct fb_error *err);

/* Releases what fb_csv_read() allocated and empties *t. Safe on an empty or zeroed table. */
void fb_csv_table_free(struct fb_csv_table *t);

/* The value of metadata `key` in t, or NULL when absent (the first one when repeated). */
const char *fb_csv_meta_get(const struct fb_csv_table *t, const char *key);

/* The value of metadata `key` as a finite number, or NaN when absent or not wholly one. */
double fb_csv_meta_number(const struct fb_csv_table *t, const char *key);

/* The record among records[0..count-1] whose backend, device, variant, dtype and n all equal
 * the arguments (strings compared exactly), or NULL. When several match, the last one (the
 * most recent row) is returned. */
const struct fb_record *fb_csv_find_record(const struct fb_record *records, size_t count,
                                           const char *backend, const char *device,
                                           const char *variant, const char *dtype, int64_t n);

#endif
