/* The CSV reader: round trip with the writer, older and foreign layouts (columns by name),
 * quotes, errors that name file:line, and finding a record by its key. */
/* nftw() (temporary directory cleanup in csv_test_util.h) is an XSI extension. */
#define _XOPEN_SOURCE 700

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/format.h"
#include "results/csv.h"
#include "csv_test_util.h"

/* Doubles go through %.9g (9 significant digits), bandwidth through %.4f. */
static void assert_same_double(double got, double want, double rel, double abs_tol,
                               const char *what)
{
    if (isnan(want) || isnan(got)) {
        if (isnan(want) != isnan(got)) {
            print_error("%s: got %.17g, want %.17g\n", what, got, want);
            fail();
        }
        return;
    }
    if (isinf(want) || isinf(got)) {
        if (got != want) {
            print_error("%s: got %.17g, want %.17g\n", what, got, want);
            fail();
        }
        return;
    }
    if (!(fabs(got - want) <= rel * fabs(want) + abs_tol)) {
        print_error("%s: got %.17g, want %.17g\n", what, got, want);
        fail();
    }
}

/* Writes `text` to NAME in the test's directory and reads it back: the read must succeed
 * (its message printed when it does not). The table is the caller's to free. */
static void read_text(void **state, const char *name, const char *text, struct fb_csv_table *t)
{
    char path[256];
    in_dir(path, sizeof path, state, name);
    spew(path, text);
    struct fb_error err = {{0}};
    int rc = fb_csv_read(path, t, &err);
    if (rc != FB_OK)
        print_error("%s: %s\n", name, err.msg);
    assert_int_equal(rc, FB_OK);
}

static void assert_same_record(const struct fb_record *got, const struct fb_record *want)
{
    assert_string_equal(got->backend, want->backend);
    assert_string_equal(got->device, want->device);
    assert_string_equal(got->variant, want->variant);
    assert_string_equal(got->dtype, want->dtype);
    assert_int_equal(got->n, want->n);
    assert_int_equal(got->launches, want->launches);
    assert_int_equal(got->bytes_model, want->bytes_model);
    assert_int_equal(got->reps, want->reps);
    assert_int_equal(got->batch, want->batch);
    assert_same_double(got->time_median_s, want->time_median_s, 1e-8, 0, "time_median_s");
    assert_same_double(got->time_min_s, want->time_min_s, 1e-8, 0, "time_min_s");
    assert_same_double(got->time_max_s, want->time_max_s, 1e-8, 0, "time_max_s");
    assert_same_double(got->time_p10_s, want->time_p10_s, 1e-8, 0, "time_p10_s");
    assert_same_double(got->time_p90_s, want->time_p90_s, 1e-8, 0, "time_p90_s");
    assert_same_double(got->noise, want->noise, 1e-8, 0, "noise");
    assert_same_double(got->bandwidth_gbps, want->bandwidth_gbps, 0, 5e-5, "bandwidth_gbps");
    assert_same_double(got->copy_fraction, want->copy_fraction, 1e-8, 0, "copy_fraction");
    assert_same_double(got->kernel_time_s, want->kernel_time_s, 1e-8, 0, "kernel_time_s");
    assert_same_double(got->launch_overhead_s, want->launch_overhead_s, 1e-8, 0,
                       "launch_overhead_s");
    assert_int_equal(got->dram_read_bytes, want->dram_read_bytes);
    assert_int_equal(got->dram_write_bytes, want->dram_write_bytes);
    assert_int_equal(got->l2_bytes, want->l2_bytes);
    assert_same_double(got->dram_bytes_per_element, want->dram_bytes_per_element, 1e-8, 0,
                       "dram_bytes_per_element");
    assert_string_equal(got->cache, want->cache);
    assert_int_equal(got->verified, want->verified);
    assert_int_equal(got->status, want->status);
    assert_string_equal(got->reason, want->reason);
    assert_string_equal(got->role, want->role);
    assert_string_equal(got->pair, want->pair);
    assert_same_double(got->speedup, want->speedup, 1e-8, 0, "speedup");
    assert_same_double(got->preempted, want->preempted, 1e-8, 0, "preempted");
    assert_string_equal(got->stores, want->stores);
    assert_int_equal(got->host_launches, want->host_launches);
    assert_same_double(got->speedup_lo, want->speedup_lo, 1e-8, 0, "speedup_lo");
    assert_same_double(got->speedup_hi, want->speedup_hi, 1e-8, 0, "speedup_hi");
    assert_int_equal(got->speedup_rounds, want->speedup_rounds);
}

static struct fb_record make(const char *backend, const char *variant, int64_t n)
{
    struct fb_record r;
    fb_record_init(&r);
    strcpy(r.backend, backend);
    strcpy(r.device, "NVIDIA H200");
    strcpy(r.variant, variant);
    strcpy(r.dtype, "float32");
    r.n = n;
    return r;
}

static void round_trip_gives_the_same_records_and_metadata(void **state)
{
    char path[256];
    in_dir(path, sizeof path, state, "r.csv");
    struct fb_record rec[4];
    /* A fully measured GPU point. */
    rec[0] = make("cuda", "fused_add_relu", 100000000);
    rec[0].launches = 1;
    rec[0].bytes_model = 1200000000;
    rec[0].reps = 57;
    rec[0].batch = 1;
    rec[0].time_median_s = 2.8765432109e-4;
    rec[0].time_min_s = 2.80001e-4;
    rec[0].time_max_s = 3.1e-4;
    rec[0].time_p10_s = 2.81e-4;
    rec[0].time_p90_s = 2.95e-4;
    rec[0].noise = 0.00412345678;
    rec[0].bandwidth_gbps = 4171.6893;
    rec[0].copy_fraction = 0.912345678;
    strcpy(rec[0].role, "eager");
    strcpy(rec[0].pair, "fused_mul_relu");
    rec[0].speedup = 1.712345678;
    rec[0].speedup_lo = 1.70123457;
    rec[0].speedup_hi = 1.72987654;
    rec[0].speedup_rounds = 57;
    rec[0].kernel_time_s = 2.7e-4;
    rec[0].launch_overhead_s = 1.765e-5;
    rec[0].dram_read_bytes = 800001024;
    rec[0].dram_write_bytes = 400000512;
    rec[0].l2_bytes = 1200001536;
    rec[0].dram_bytes_per_element = 3.00000384;
    strcpy(rec[0].cache, "warm");
    strcpy(rec[0].stores, "streaming");
    rec[0].verified = true;
    rec[0].status = FB_POINT_OK;
    /* A CPU point without counters (NaN / -1 cells) and one sample (infinite noise). */
    rec[1] = make("cpu", "eager_add_relu", 8);
    strcpy(rec[1].device, "AMD EPYC 9654, 96-Core");
    rec[1].launches = 2;
    rec[1].host_launches = 1; /* two kernels in one launch (a CUDA graph) */
    rec[1].reps = 1;
    rec[1].batch = 4096;
    rec[1].time_median_s = 3.5e-8;
    rec[1].time_min_s = rec[1].time_max_s = rec[1].time_p10_s = rec[1].time_p90_s = 3.5e-8;
    rec[1].noise = INFINITY;
    rec[1].bandwidth_gbps = 0.0046;
    strcpy(rec[1].cache, "cold");
    strcpy(rec[1].stores, "normal");
    rec[1].verified = true;
    rec[1].status = FB_POINT_OK;
    rec[1].preempted = 0.0;
    /* A failed point with a reason that needs quoting. */
    rec[2] = make("cuda", "eager_add_threshold", 1024);
    rec[2].status = FB_POINT_FAILED;
    strcpy(rec[2].reason, "element 7: got 1, want 0 (\"threshold\", NaN case)");
    /* A noisy point: most samples disturbed by another program. */
    rec[3] = make("cpu", "fused_add_relu", 1000);
    rec[3].reps = 2;
    rec[3].time_median_s = 0.016;
    rec[3].preempted = 0.9;
    rec[3].verified = true;
    rec[3].status = FB_POINT_NOISY;
    strcpy(rec[3].reason, "18 of 20 samples disturbed by other programs");
    const struct fb_csv_meta meta[] = {
        {"fusebench", "0.1.0"},
        {"git_commit", "0123456789ab"},
        {"date", "2025-01-31T12:00:00Z"},
        {"peak_bandwidth_gbps", ""},
        {"label", "h200, run 2: \"warm\""},
    };
    assert_int_equal(fb_csv_write(path, meta, 5, rec, 4, NULL), FB_OK);

    struct fb_csv_table t;
    struct fb_error err = {{0}};
    int rc = fb_csv_read(path, &t, &err);
    if (rc != FB_OK)
        print_error("%s\n", err.msg);
    assert_int_equal(rc, FB_OK);
    assert_int_equal(t.n_meta, 5);
    for (size_t i = 0; i < 5; i++) {
        assert_string_equal(t.meta[i].key, meta[i].key);
        assert_string_equal(t.meta[i].value, meta[i].value);
    }
    assert_int_equal(t.n_records, 4);
    for (size_t i = 0; i < 4; i++)
        assert_same_record(&t.records[i], &rec[i]);
    assert_string_equal(fb_csv_meta_get(&t, "git_commit"), "0123456789ab");
    assert_null(fb_csv_meta_get(&t, "host"));
    fb_csv_table_free(&t);
    assert_null(t.records);
}

/* An older file: fewer columns, another order, an extra unknown column, CRLF line ends, a
 * comment line and blank lines. */
static void reads_an_older_csv_with_fewer_columns_in_another_order(void **state)
{
    struct fb_csv_table t;
    read_text(state, "old.csv", "# fusebench: 0.0.1\r\n"
                                "# a free comment without a colon\r\n"
                                "\r\n"
                                "n,variant,extra,dtype,backend,time_median_s,status\r\n"
                                "4096,copy,zzz,float32,cpu,1.25e-06,ok\r\n"
                                "# a comment among rows\r\n"
                                "8,fused_add_relu,,float32,cpu,,failed\r\n", &t);
    assert_int_equal(t.n_meta, 1);
    assert_string_equal(fb_csv_meta_get(&t, "fusebench"), "0.0.1");
    assert_int_equal(t.n_records, 2);
    const struct fb_record *r = &t.records[0];
    assert_string_equal(r->backend, "cpu");
    assert_string_equal(r->device, ""); /* missing column */
    assert_string_equal(r->variant, "copy");
    assert_int_equal(r->n, 4096);
    assert_same_double(r->time_median_s, 1.25e-6, 0, 0, "time_median_s");
    assert_true(isnan(r->time_min_s));
    assert_true(isnan(r->bandwidth_gbps));
    assert_int_equal(r->launches, -1);
    assert_int_equal(r->dram_read_bytes, -1);
    assert_true(isnan(r->preempted)); /* a file from before the preempted column */
    assert_string_equal(r->stores, ""); /* before the stores column: normal stores */
    assert_string_equal(fb_stores_canonical(r->stores), "normal");
    assert_int_equal(r->host_launches, -1); /* and from before host_launches */
    /* and from before the speedup's interval: none, never a made-up one */
    assert_true(isnan(r->speedup_lo) && isnan(r->speedup_hi));
    assert_int_equal(r->speedup_rounds, -1);
    assert_int_equal(r->status, FB_POINT_OK);
    assert_int_equal(t.records[1].status, FB_POINT_FAILED);
    assert_true(isnan(t.records[1].time_median_s));
    fb_csv_table_free(&t);
}

static void missing_status_column_reads_as_skipped(void **state)
{
    char path[256];
    in_dir(path, sizeof path, state, "old.csv");
    spew(path, "backend,variant,dtype,n\ncpu,copy,float32,8\n");
    struct fb_csv_table t;
    assert_int_equal(fb_csv_read(path, &t, NULL), FB_OK);
    assert_int_equal(t.n_records, 1);
    assert_int_equal(t.records[0].status, FB_POINT_SKIPPED);
    fb_csv_table_free(&t);
}

static void expect_error_at(void **state, const char *text, int line, const char *detail);

/* An older schema without status, verified and cache columns: rows with a time were
 * measured, verified and warm, and stay so (issue 10 item 7: they used to read as skipped,
 * unverified, so --resume measured them again and the charts dropped them). */
static void older_schema_rows_keep_their_meaning(void **state)
{
    struct fb_csv_table t;
    read_text(state, "old.csv", "# fusebench: 0.0.9\n"
                                "variant,n,backend,device,dtype,time_median_s,launches\n"
                                "copy,8,cpu,X,float32,2.0e-06,1\n"
                                "copy,16,cpu,X,float32,,\n", &t);
    assert_int_equal(t.n_records, 2);
    assert_int_equal(t.records[0].status, FB_POINT_OK);
    assert_true(t.records[0].verified);
    assert_string_equal(t.records[0].cache, "warm");
    assert_int_equal(t.records[1].status, FB_POINT_SKIPPED); /* no time: never measured */
    assert_false(t.records[1].verified);
    fb_csv_table_free(&t);
}

static void non_finite_or_negative_times_are_errors_at_their_line(void **state)
{
    expect_error_at(state, "backend,variant,dtype,n,time_median_s\ncpu,copy,fp32,8,1e-6\n"
                           "cpu,copy,fp32,16,nan\n", 3,
                    "column time_median_s: 'nan' is not a finite number >= 0");
    expect_error_at(state, "backend,variant,dtype,n,time_p90_s\ncpu,copy,fp32,8,inf\n", 2,
                    "column time_p90_s");
    expect_error_at(state, "backend,variant,dtype,n,kernel_time_s\ncpu,copy,fp32,8,-1e-6\n", 2,
                    "column kernel_time_s");
    expect_error_at(state, "backend,variant,dtype,n,bandwidth_gbps\ncpu,copy,fp32,8,-nan\n", 2,
                    "column bandwidth_gbps");
}

static void error_messages_escape_control_bytes_from_the_file(void **state)
{
    char path[256];
    in_dir(path, sizeof path, state, "ctl.csv");
    spew(path, "backend,variant,dtype,n\ncpu,copy,fp32,8\x1b[2J\n");
    struct fb_csv_table t;
    struct fb_error err = {{0}};
    assert_int_equal(fb_csv_read(path, &t, &err), FB_ERR_USAGE);
    assert_null(strchr(err.msg, 0x1b));
    assert_non_null(strstr(err.msg, "'8\\x1B[2J'"));
}

/* pandas writes an integer column with gaps as floats: "1024.0" (the torch peer's files). */
static void whole_numbers_written_as_floats_read_as_counts(void **state)
{
    struct fb_csv_table t;
    read_text(state, "torch.csv", "backend,variant,dtype,n,launches\ntorch-eager,copy,float32,1e+08,2.0\n", &t);
    assert_int_equal(t.records[0].n, 100000000);
    assert_int_equal(t.records[0].launches, 2);
    fb_csv_table_free(&t);
}

static void quoted_fields_keep_commas_and_doubled_quotes(void **state)
{
    struct fb_csv_table t;
    read_text(state, "q.csv", "backend,variant,dtype,n,reason,device\n"
                              "cpu,copy,float32,8,\"a, \"\"b\"\", c\",\"\"\n", &t);
    assert_int_equal(t.n_records, 1);
    assert_string_equal(t.records[0].reason, "a, \"b\", c");
    assert_string_equal(t.records[0].device, "");
    fb_csv_table_free(&t);
}

/* Reads `text` from a file and expects failure with a message starting "<path>:<line>:" and
 * containing `detail`. */
static void expect_error_at(void **state, const char *text, int line, const char *detail)
{
    char path[256], prefix[300];
    in_dir(path, sizeof path, state, "bad.csv");
    spew(path, text);
    struct fb_csv_table t;
    struct fb_error err = {{0}};
    assert_int_equal(fb_csv_read(path, &t, &err), FB_ERR_USAGE);
    snprintf(prefix, sizeof prefix, "%s:%d: ", path, line);
    if (strncmp(err.msg, prefix, strlen(prefix)) != 0 || !strstr(err.msg, detail)) {
        print_error("message '%s', expected '%s...%s'\n", err.msg, prefix, detail);
        fail();
    }
    assert_null(t.records);
    assert_int_equal(t.n_records, 0);
}

static void row_with_a_wrong_field_count_is_an_error_at_its_line(void **state)
{
    expect_error_at(state,
                    "# fusebench: 0.1.0\n"
                    "backend,variant,dtype,n\n"
                    "cpu,copy,float32,8\n"
                    "cpu,copy,float32\n",
                    4, "3 fields, but the header has 4");
}

static void bad_number_is_an_error_naming_the_column(void **state)
{
    expect_error_at(state,
                    "backend,variant,dtype,n,time_median_s\n"
                    "\n"
                    "cpu,copy,float32,8,1.5 ms\n",
                    3, "column time_median_s: '1.5 ms' is not a number");
}

static void bad_count_and_status_are_errors(void **state)
{
    expect_error_at(state, "backend,variant,dtype,n\ncpu,copy,float32,-8\n", 2, "column n");
    expect_error_at(state, "backend,variant,dtype,n\ncpu,copy,float32,8.5\n", 2, "column n");
    expect_error_at(state, "backend,variant,dtype,n,status\ncpu,copy,float32,8,done\n", 2,
                    "not ok, failed, skipped or noisy");
}

static void unterminated_quote_is_an_error(void **state)
{
    expect_error_at(state, "backend,variant,dtype,n,reason\ncpu,copy,float32,8,\"open\n", 2,
                    "unterminated quoted field");
}

static void header_without_a_required_column_is_an_error(void **state)
{
    expect_error_at(state, "# x: y\nbackend,variant,n\ncpu,copy,8\n", 2,
                    "required column dtype");
}

static void file_without_a_header_is_an_error(void **state)
{
    expect_error_at(state, "# fusebench: 0.1.0\n", 1, "no header row");
}

static void too_long_text_is_an_error_not_a_truncation(void **state)
{
    char text[512];
    snprintf(text, sizeof text, "backend,variant,dtype,n\n%040d,copy,float32,8\n", 0);
    expect_error_at(state, text, 2, "column backend");
}

static void missing_file_error_names_it(void **state)
{
    char path[256];
    in_dir(path, sizeof path, state, "nope.csv");
    struct fb_csv_table t;
    struct fb_error err = {{0}};
    assert_int_equal(fb_csv_read(path, &t, &err), FB_ERR_RUNTIME);
    assert_non_null(strstr(err.msg, path));
}

static void find_record_matches_the_whole_key(void **state)
{
    (void)state;
    struct fb_record rec[4];
    rec[0] = make("cuda", "copy", 1024);
    rec[1] = make("cuda", "copy", 2048);
    rec[2] = make("cpu", "copy", 1024);
    rec[3] = make("cuda", "fused_add_relu", 1024);
    const struct fb_record *r = fb_csv_find_record(rec, 4, "cuda", "NVIDIA H200", "copy",
                                                   "float32", 2048);
    assert_ptr_equal(r, &rec[1]);
    r = fb_csv_find_record(rec, 4, "cpu", "NVIDIA H200", "copy", "float32", 1024);
    assert_ptr_equal(r, &rec[2]);
    assert_null(fb_csv_find_record(rec, 4, "cuda", "NVIDIA H100", "copy", "float32", 1024));
    assert_null(fb_csv_find_record(rec, 4, "cuda", "NVIDIA H200", "copy", "float16", 1024));
    assert_null(fb_csv_find_record(rec, 4, "cuda", "NVIDIA H200", "copy", "float32", 4096));
    assert_null(fb_csv_find_record(rec, 0, "cuda", "NVIDIA H200", "copy", "float32", 1024));
}

static void find_record_prefers_the_last_duplicate(void **state)
{
    (void)state;
    struct fb_record rec[3];
    rec[0] = make("cuda", "copy", 8);
    rec[1] = make("cuda", "copy", 16);
    rec[2] = make("cuda", "copy", 8);
    assert_ptr_equal(fb_csv_find_record(rec, 3, "cuda", "NVIDIA H200", "copy", "float32", 8),
                     &rec[2]);
}

/* A file of `# k: v` lines: each pair costs ~1 KB in memory, so a 20 MB flood took 3.3 GB.
 * The reader stops at the first pair past either cap, naming its line. */
static void metadata_flood_is_an_error_at_the_first_line_past_the_cap(void **state)
{
    size_t size = (1024 + 2) * 16 + 64, len = 0;
    char *text = malloc(size);
    assert_non_null(text);
    for (int i = 0; i <= 1024; i++)
        len += (size_t)snprintf(text + len, size - len, "# k%d: v\n", i);
    snprintf(text + len, size - len, "backend,variant,dtype,n\ncpu,copy,fp32,8\n");
    expect_error_at(state, text, 1025, "more than 1024 metadata lines");

    /* 1,000-byte values: the byte cap (256 KiB) comes first, at pair 262. */
    size = 300 * 1010 + 64;
    text = realloc(text, size);
    assert_non_null(text);
    len = 0;
    for (int i = 0; i < 300; i++)
        len += (size_t)snprintf(text + len, size - len, "# k: %01000d\n", i);
    snprintf(text + len, size - len, "backend,variant,dtype,n\ncpu,copy,fp32,8\n");
    expect_error_at(state, text, 262, "bytes of metadata");
    free(text);
}

/* Order statistics of one set of samples: a median 1,000x with p10 and p90 unchanged was
 * read, and --compare's verdict then said "0 regressed". */
static void times_out_of_order_are_an_error_at_their_line(void **state)
{
    const char *head = "backend,variant,dtype,n,time_min_s,time_p10_s,time_median_s,time_p90_s,"
                       "time_max_s\ncpu,copy,fp32,8,1,2,3,4,5\n";
    char text[512];
    snprintf(text, sizeof text, "%scpu,copy,fp32,16,1,2,3000,4,5\n", head);
    expect_error_at(state, text, 3, "time_median_s 3000 exceeds time_p90_s 4");
    snprintf(text, sizeof text, "%scpu,copy,fp32,16,6,2,3,4,5\n", head);
    expect_error_at(state, text, 3, "time_min_s 6 exceeds time_p10_s 2");
    /* Unwritten times are not compared; equal ones are in order. */
    struct fb_csv_table t;
    snprintf(text, sizeof text, "%scpu,copy,fp32,16,,,3,3,\ncpu,copy,fp32,32,2,2,2,2,2\n", head);
    read_text(state, "ok.csv", text, &t);
    assert_int_equal(t.n_records, 3);
    fb_csv_table_free(&t);
}

/* Issue 34, item 20: a CR-only file read as one line was "metadata value too long for key
 * fusebench"; a UTF-16 one "header lacks the required column backend". */
static void cr_only_and_utf16_files_are_named_as_such(void **state)
{
    expect_error_at(state, "# fusebench: 0.1.0\rbackend,variant,dtype,n\rcpu,copy,fp32,8\r", 1,
                    "line breaks are CR only");
    /* "# fusebench: 0.1.0\nbackend,..." in UTF-16, with and without its byte order mark */
    static const char text[] = "# fusebench: 0.1.0\nbackend,variant,dtype,n\ncpu,copy,fp32,8\n";
    for (int bom = 0; bom < 2; bom++) {
        char path[256];
        in_dir(path, sizeof path, state, "u16.csv");
        FILE *f = fopen(path, "wb");
        assert_non_null(f);
        if (bom)
            fputs("\xFF\xFE", f);
        for (const char *p = text; *p; p++) {
            fputc(*p, f);
            fputc(0, f);
        }
        assert_int_equal(fclose(f), 0);
        struct fb_csv_table t;
        struct fb_error err = {{0}};
        assert_int_equal(fb_csv_read(path, &t, &err), FB_ERR_USAGE);
        if (!strstr(err.msg, ":1: ") || !strstr(err.msg, "UTF-16")) {
            print_error("message '%s'\n", err.msg);
            fail();
        }
    }
}

#define T(f) cmocka_unit_test_setup_teardown(f, tmpdir_setup, tmpdir_teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(round_trip_gives_the_same_records_and_metadata),
        T(reads_an_older_csv_with_fewer_columns_in_another_order),
        T(missing_status_column_reads_as_skipped),
        T(older_schema_rows_keep_their_meaning),
        T(non_finite_or_negative_times_are_errors_at_their_line),
        T(error_messages_escape_control_bytes_from_the_file),
        T(whole_numbers_written_as_floats_read_as_counts),
        T(quoted_fields_keep_commas_and_doubled_quotes),
        T(row_with_a_wrong_field_count_is_an_error_at_its_line),
        T(bad_number_is_an_error_naming_the_column),
        T(bad_count_and_status_are_errors),
        T(unterminated_quote_is_an_error),
        T(header_without_a_required_column_is_an_error),
        T(file_without_a_header_is_an_error),
        T(too_long_text_is_an_error_not_a_truncation),
        T(missing_file_error_names_it),
        T(metadata_flood_is_an_error_at_the_first_line_past_the_cap),
        T(times_out_of_order_are_an_error_at_their_line),
        T(cr_only_and_utf16_files_are_named_as_such),
        cmocka_unit_test(find_record_matches_the_whole_key),
        cmocka_unit_test(find_record_prefers_the_last_duplicate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
