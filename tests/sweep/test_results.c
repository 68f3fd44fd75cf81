/* The results store: copy_fraction and speedup filled from the same run's rows, the up-front
 * check that the output is writable, and --resume's lookups: one row per point (every key
 * axis), reruns replacing their row, files of older layouts read as a table of cases, another
 * config warned about, a second lock refused (another process, another session, a hard link
 * at the lock file), and 200k rows in linear time. Every test gets
 * a private directory (the fixture), removed with all that the store wrote there. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <time.h>

#include "../common/test_tmpdir.h"
#include "results/results.h"
#include "measure/pairing.h"
#include "output/summary.h"

/* The fixture: *state is the test's directory ("$TMPDIR/fb-results-XXXXXX"). */
static int make_dir(void **state)
{
    char *dir = malloc(96);
    assert_non_null(dir);
    fb_test_mkdtemp(dir, 96, "fb-results");
    *state = dir;
    return 0;
}

static int remove_dir(void **state)
{
    fb_test_rmtree(*state); /* the files, their .partial and .lock with it */
    free(*state);
    return 0;
}

static void in_dir(char *path, size_t size, void **state, const char *name)
{
    const int n = snprintf(path, size, "%s/%s", (const char *)*state, name);
    assert_true(n > 0 && (size_t)n < size);
}

static void write_file(void **state, const char *name, const char *text)
{
    char path[256];
    in_dir(path, sizeof path, state, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

/* A fresh store for NAME in the test's directory with the default config (hash `hash`). */
static void open_store(struct fb_results *res, void **state, const char *name, uint64_t hash)
{
    char path[256];
    in_dir(path, sizeof path, state, name);
    struct fb_plan *plan = calloc(1, sizeof *plan); /* what the store reads of it */
    assert_non_null(plan);
    snprintf(plan->config_path, sizeof plan->config_path, "configs/test-%llu.ini",
             (unsigned long long)hash);
    plan->config_hash = hash;
    struct fb_device_info dev = {.name = "test cpu"};
    fb_results_init(res, path, plan, "cpu", &dev, 1, "n/a");
    free(plan);
}

/* open_store, then --resume's load of what NAME holds: the number of rows loaded. */
static size_t load_store(struct fb_results *res, void **state, const char *name, uint64_t hash)
{
    open_store(res, state, name, hash);
    struct fb_error err = {{0}};
    size_t loaded = 0;
    const int rc = fb_results_load(res, &loaded, &err);
    if (rc != FB_OK)
        print_error("%s: %s\n", name, err.msg);
    assert_int_equal(rc, FB_OK);
    return loaded;
}

static struct fb_record point(const char *variant, int64_t n, double gbps)
{
    struct fb_record r;
    fb_record_init(&r);
    snprintf(r.backend, sizeof r.backend, "cpu");
    snprintf(r.device, sizeof r.device, "test cpu");
    snprintf(r.variant, sizeof r.variant, "%s", variant);
    fb_pairing_fill_builtin_roles(&r, 1); /* role and pair as the runner fills them */
    snprintf(r.dtype, sizeof r.dtype, "fp32");
    r.n = n;
    r.bandwidth_gbps = gbps;
    r.status = FB_POINT_OK;
    snprintf(r.cache, sizeof r.cache, "warm");
    return r;
}

static struct fb_record cached(const char *variant, int64_t n, const char *cache)
{
    struct fb_record r = point(variant, n, 1.0);
    snprintf(r.cache, sizeof r.cache, "%s", cache);
    return r;
}

static struct fb_record stored(const char *variant, int64_t n, double gbps, const char *stores)
{
    struct fb_record r = point(variant, n, gbps);
    snprintf(r.stores, sizeof r.stores, "%s", stores);
    return r;
}

static void add(struct fb_results *res, const struct fb_record *r)
{
    struct fb_error err = {{0}};
    const int rc = fb_results_add(res, r, &err);
    if (rc != FB_OK)
        print_error("adding %s n=%lld: %s\n", r->variant, (long long)r->n, err.msg);
    assert_int_equal(rc, FB_OK);
}

/* One --resume lookup (backend cpu, device "test cpu", fp32) and whether the store has it. */
struct lookup {
    const char *variant;
    int64_t n;
    const char *cache, *stores;
    bool has_ok;
};

static void assert_lookups(const struct fb_results *res, const struct lookup *l, size_t count,
                           const char *what)
{
    for (size_t i = 0; i < count; i++) {
        const bool got = fb_results_has_ok(res, "cpu", "test cpu", l[i].variant, "fp32", l[i].n,
                                           l[i].cache, l[i].stores);
        if (got != l[i].has_ok) {
            print_error("%s: lookup %s n=%lld %s %s: has_ok %d, want %d\n", what, l[i].variant,
                        (long long)l[i].n, l[i].cache, l[i].stores, got, l[i].has_ok);
            fail();
        }
    }
}

#define LOOKUPS(res, ...)                                                                      \
    do {                                                                                       \
        const struct lookup lookups_[] = {__VA_ARGS__};                                        \
        assert_lookups(res, lookups_, sizeof lookups_ / sizeof lookups_[0], __func__);         \
    } while (0)

static void assert_close(double got, double want, double tol, const char *what)
{
    if (!(fabs(got - want) <= tol)) {
        print_error("%s: got %.17g, want %.17g\n", what, got, want);
        fail();
    }
}

static void copy_fraction_comes_from_the_copy_row_at_the_same_size(void **state)
{
    struct fb_results res;
    open_store(&res, state, "r.csv", 7);
    const struct fb_record copy = point("copy", 100, 10.0);
    const struct fb_record fused = point("fused_add_relu", 100, 8.0);
    const struct fb_record lonely = point("fused_add_relu", 200, 8.0);
    add(&res, &copy);
    add(&res, &fused);
    add(&res, &lonely);
    assert_close(res.records[1].copy_fraction, 0.8, 1e-12, "copy_fraction at 100");
    assert_true(isnan(res.records[2].copy_fraction)); /* no copy row at 200 */
    LOOKUPS(&res, {"fused_add_relu", 100, "warm", "normal", true},
            {"eager_add_relu", 100, "warm", "normal", false});
    fb_results_free(&res);

    /* what was written reads back the same */
    assert_int_equal(load_store(&res, state, "r.csv", 7), 3);
    assert_close(res.records[1].copy_fraction, 0.8, 1e-6, "copy_fraction read back");
    fb_results_free(&res);
}

/* The speedup is filled once both rows of a pair are in, whichever came first (files before
 * the speedup column: the legacy_files table). */
static void speedup_is_derived_as_rows_arrive(void **state)
{
    struct fb_results res;
    open_store(&res, state, "r.csv", 7);
    struct fb_record eager = point("eager_add_relu", 100, 5.0);
    struct fb_record fused = point("fused_add_relu", 100, 6.0);
    eager.time_median_s = 3e-6;
    fused.time_median_s = 2e-6;
    add(&res, &eager);
    assert_true(isnan(res.records[0].speedup)); /* its pair is not measured yet */
    add(&res, &fused);
    assert_close(res.records[0].speedup, 1.5, 1e-12, "speedup");
    fb_results_free(&res);
}

static void unwritable_output_is_a_usage_error_naming_the_path(void **state)
{
    write_file(state, "file", "");
    char file[256], path[288];
    in_dir(file, sizeof file, state, "file");
    snprintf(path, sizeof path, "%s/results.csv", file); /* parent is a regular file */
    struct fb_error err;
    struct fb_results_target target;
    assert_int_equal(fb_results_judge(path, false, &target, &err), FB_ERR_USAGE);
    assert_non_null(strstr(err.msg, file));
}

/* Issue 10 item 5: resume warm, cold, warm used to give 6, 12, 18 rows (the lookup saw the
 * newest row only, of whatever cache mode). */
static void resume_across_cache_modes_keeps_one_row_per_point(void **state)
{
    const char *modes[] = {"warm", "cold", "warm", "cold"};
    const size_t want[] = {3, 6, 6, 6};
    for (int run = 0; run < 4; run++) {
        struct fb_results res;
        load_store(&res, state, "r.csv", 7);
        for (int64_t n = 8; n <= 32; n *= 2) {
            if (fb_results_has_ok(&res, "cpu", "test cpu", "copy", "fp32", n, modes[run], "normal"))
                continue;
            const struct fb_record r = cached("copy", n, modes[run]);
            add(&res, &r);
        }
        assert_int_equal(res.count, want[run]);
        assert_string_equal(res.resume_warning, ""); /* same config */
        fb_results_free(&res);
    }
}

/* The store kind is an axis of the point: a streaming row never stands in for a normal one
 * on --resume, nor replaces it; pairs (copy_fraction) stay within a kind (a file from before
 * the stores column: the legacy_files table). */
static void resume_and_pairs_tell_store_kinds_apart(void **state)
{
    struct fb_results res;
    open_store(&res, state, "r.csv", 7);
    const struct fb_record copy_n = stored("copy", 64, 10.0, "normal");
    const struct fb_record fused_n = stored("fused_add_relu", 64, 11.0, "normal");
    const struct fb_record copy_s = stored("copy", 64, 16.0, "streaming");
    const struct fb_record fused_s = stored("fused_add_relu", 64, 15.0, "streaming");
    add(&res, &copy_n);
    add(&res, &fused_n);
    LOOKUPS(&res, {"copy", 64, "warm", "streaming", false});
    add(&res, &copy_s);
    add(&res, &fused_s);
    assert_int_equal(res.count, 4); /* one row per (variant, stores), none replaced */
    LOOKUPS(&res, {"copy", 64, "warm", "streaming", true}, {"copy", 64, "warm", "normal", true});
    /* each fused row against the copy row of its own store kind */
    for (size_t i = 0; i < res.count; i++) {
        const struct fb_record *r = &res.records[i];
        if (strcmp(r->variant, "fused_add_relu") != 0)
            continue;
        const double want = strcmp(r->stores, "streaming") == 0 ? 15.0 / 16.0 : 11.0 / 10.0;
        assert_close(r->copy_fraction, want, 1e-12, r->stores);
    }
    fb_results_free(&res);
}

static void a_rerun_replaces_its_row(void **state)
{
    struct fb_results res;
    open_store(&res, state, "r.csv", 7);
    struct fb_record failed = cached("fused_add_relu", 8, "warm");
    failed.status = FB_POINT_FAILED;
    const struct fb_record other = cached("copy", 8, "warm");
    struct fb_record ok = cached("fused_add_relu", 8, "warm");
    ok.time_median_s = 3e-6;
    add(&res, &failed);
    add(&res, &other);
    add(&res, &ok); /* the rerun */
    assert_int_equal(res.count, 2);
    assert_string_equal(res.records[0].variant, "fused_add_relu"); /* in the old row's place */
    assert_int_equal(res.records[0].status, FB_POINT_OK);
    /* the same key written as dtype float32 (older files) is the same point */
    struct fb_record alias = cached("copy", 8, "warm");
    snprintf(alias.dtype, sizeof alias.dtype, "float32");
    add(&res, &alias);
    assert_int_equal(res.count, 2);
    fb_results_free(&res);
}

/* What one row of a loaded file must hold; NULL or NOT_CHECKED: whatever it holds. */
#define NOT_CHECKED (-1.0) /* no time, speedup or fraction is negative */
struct row_want {
    const char *variant, *cache, *role, *pair;
    double time_median_s, speedup, copy_fraction;
};

/* A file an older run (or an older fusebench) left: what --resume loads from it. */
struct legacy_file {
    const char *what, *csv;
    size_t loaded;
    struct row_want rows[3];
    struct lookup lookups[2];
};

#define OLD_HEADER "backend,device,variant,dtype,n,time_median_s,cache,verified,status\n"

static const struct legacy_file legacy_files[] = {
    {"no stores column: its rows are normal-stores rows",
     OLD_HEADER "cpu,test cpu,copy,fp32,8,1e-6,warm,1,ok\n",
     1,
     {{"copy", "warm", NULL, NULL, 1e-6, NOT_CHECKED, NOT_CHECKED}},
     {{"copy", 8, "warm", "normal", true}, {"copy", 8, "warm", "streaming", false}}},
    {"duplicate rows: the later row of each point wins, in the first one's place",
     OLD_HEADER "cpu,test cpu,copy,fp32,8,1e-6,warm,1,ok\n"
                "cpu,test cpu,copy,fp32,8,1e-6,cold,1,ok\n"
                "cpu,test cpu,copy,fp32,8,2e-6,warm,1,ok\n",
     2,
     {{"copy", "warm", NULL, NULL, 2e-6, NOT_CHECKED, NOT_CHECKED},
      {"copy", "cold", NULL, NULL, 1e-6, NOT_CHECKED, NOT_CHECKED}},
     {{"copy", 8, "warm", "normal", true}, {"copy", 8, "cold", "normal", true}}},
    {"no role, pair or speedup column: filled from the built-ins",
     "# fusebench: 0.0.9\n"
     "backend,device,variant,dtype,n,time_median_s,bandwidth_gbps,cache,verified,status\n"
     "cpu,test cpu,copy,fp32,100,1e-6,10,warm,1,ok\n"
     "cpu,test cpu,fused_add_relu,fp32,100,2e-6,8,warm,1,ok\n"
     "cpu,test cpu,eager_add_threshold,fp32,100,5e-6,4,warm,1,ok\n",
     3,
     {{"copy", "warm", "copy_ceiling", NULL, 1e-6, NOT_CHECKED, NOT_CHECKED},
      {"fused_add_relu", "warm", NULL, NULL, 2e-6, NOT_CHECKED, 0.8},
      {"eager_add_threshold", "warm", "eager", "fused_add_relu", 5e-6, 2.5, NOT_CHECKED}},
     {{"fused_add_relu", 100, "warm", "normal", true},
      {"eager_add_relu", 100, "warm", "normal", false}}},
};

static void assert_text(const char *got, const char *want, const char *what, size_t row,
                        const char *field)
{
    if (want && strcmp(got, want) != 0) {
        print_error("%s: row %zu %s: \"%s\", want \"%s\"\n", what, row, field, got, want);
        fail();
    }
}

static void assert_number(double got, double want, const char *what, size_t row,
                          const char *field)
{
    if (want != NOT_CHECKED && !(fabs(got - want) <= 1e-12 * want)) {
        print_error("%s: row %zu %s: got %.17g, want %.17g\n", what, row, field, got, want);
        fail();
    }
}

static void each_legacy_file_loads_as_its_case_says(void **state)
{
    for (size_t i = 0; i < sizeof legacy_files / sizeof legacy_files[0]; i++) {
        const struct legacy_file *k = &legacy_files[i];
        print_message("case: %s\n", k->what);
        char name[32];
        snprintf(name, sizeof name, "legacy-%zu.csv", i);
        write_file(state, name, k->csv);
        struct fb_results res;
        assert_int_equal(load_store(&res, state, name, 7), k->loaded);
        for (size_t r = 0; r < k->loaded; r++) {
            const struct fb_record *got = &res.records[r];
            const struct row_want *want = &k->rows[r];
            assert_text(got->variant, want->variant, k->what, r, "variant");
            assert_text(got->cache, want->cache, k->what, r, "cache");
            assert_text(got->role, want->role, k->what, r, "role");
            assert_text(got->pair, want->pair, k->what, r, "pair");
            assert_number(got->time_median_s, want->time_median_s, k->what, r, "time_median_s");
            assert_number(got->speedup, want->speedup, k->what, r, "speedup");
            assert_number(got->copy_fraction, want->copy_fraction, k->what, r, "copy_fraction");
        }
        assert_lookups(&res, k->lookups, sizeof k->lookups / sizeof k->lookups[0], k->what);
        fb_results_free(&res);
    }
}

static void resume_from_another_config_warns_and_records_both_hashes(void **state)
{
    struct fb_results res;
    open_store(&res, state, "r.csv", 0x1111);
    const struct fb_record r = cached("copy", 8, "warm");
    add(&res, &r);
    fb_results_free(&res);

    assert_int_equal(load_store(&res, state, "r.csv", 0x2222), 1);
    assert_non_null(strstr(res.resume_warning, "another config"));
    assert_non_null(strstr(res.resume_warning, "0000000000001111"));
    assert_non_null(strstr(res.resume_warning, "configs/test-4369.ini"));
    bool old_hash = false, new_hash = false;
    for (size_t i = 0; i < res.n_meta; i++) {
        old_hash |= strcmp(res.meta[i].key, "resumed_config_hash") == 0 &&
                    strcmp(res.meta[i].value, "0000000000001111") == 0;
        new_hash |= strcmp(res.meta[i].key, "config_hash") == 0 &&
                    strcmp(res.meta[i].value, "0000000000002222") == 0;
    }
    assert_true(old_hash);
    assert_true(new_hash);
    fb_results_free(&res);
}

static double seconds_since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + 1e-9 * (double)(t.tv_nsec - t0->tv_nsec);
}

/* Issue 10: --resume of a 200k-row file took over 60 s (a linear search per lookup and per
 * summary size). Load, look every point up, add one, summarize: a second or two, under ASan
 * too, where the quadratic version needs minutes. The clock decides nothing here: a run past
 * the expected time is reported ("slow:"), and the quadratic version meets meson's timeout
 * for this test (120 s, the hang guard). */
static void resume_of_200k_rows_is_not_quadratic(void **state)
{
    enum { ROWS = 200000 };
    const double expected_s = 10.0;
    char path[256];
    in_dir(path, sizeof path, state, "big.csv");
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("backend,device,variant,dtype,n,launches,time_median_s,bandwidth_gbps,cache,"
          "verified,status\n", f);
    const char *variants[] = {"copy", "eager_add_relu", "fused_add_relu", "memcpy"};
    for (int i = 0; i < ROWS; i++)
        fprintf(f, "cpu,test cpu,%s,fp32,%d,1,%.6g,1.5,warm,1,ok\n", variants[i % 4],
                8 + i / 4, 1e-6 + 1e-9 * i);
    assert_int_equal(fclose(f), 0);

    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    struct fb_results res;
    assert_int_equal(load_store(&res, state, "big.csv", 7), ROWS);
    size_t found = 0;
    for (int i = 0; i < ROWS; i++)
        found += fb_results_has_ok(&res, "cpu", "test cpu", variants[i % 4], "fp32",
                                   8 + i / 4, "warm", "normal");
    assert_int_equal(found, ROWS);
    const struct fb_record r = cached("copy", 1, "warm");
    add(&res, &r);
    FILE *devnull = fopen("/dev/null", "w");
    assert_non_null(devnull);
    fb_summary_print(devnull, res.records, res.count);
    fclose(devnull);
    double took = seconds_since(&t0);
    print_message("200k-row resume path: %.2f s\n", took);
    if (took > expected_s)
        print_message("slow: the 200k-row resume path took %.1f s (expected under %.0f s)\n",
                      took, expected_s);
    fb_results_free(&res);
}

/* A second lock on one results file is refused, naming the holder's pid; the holder is
 * another process (POSIX record locks never conflict within one process). */
static void a_second_lock_is_refused_naming_the_holder(void **state)
{
    char path[256], lockfile[288];
    in_dir(path, sizeof path, state, "r.csv");
    snprintf(lockfile, sizeof lockfile, "%s.lock", path);
    int ready[2], done[2];
    assert_int_equal(pipe(ready), 0);
    assert_int_equal(pipe(done), 0);
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) { /* holds the lock until the parent has tried */
        struct fb_results_lock held;
        char c = fb_results_lock(&held, path, NULL) == FB_OK ? 'y' : 'n';
        if (write(ready[1], &c, 1) != 1 || read(done[0], &c, 1) != 1)
            _exit(1);
        fb_results_unlock(&held);
        _exit(0);
    }
    char c = 0;
    assert_int_equal(read(ready[0], &c, 1), 1);
    assert_int_equal(c, 'y');
    struct fb_results_lock mine;
    struct fb_error err = {{0}};
    assert_int_equal(fb_results_lock(&mine, path, &err), FB_ERR_USAGE);
    char pid[32];
    snprintf(pid, sizeof pid, "pid %ld", (long)child);
    assert_non_null(strstr(err.msg, pid));
    assert_int_equal(write(done[1], "x", 1), 1);
    int status = 0;
    assert_int_equal(waitpid(child, &status, 0), child);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    /* released (and its file removed): now it is ours */
    assert_int_equal(access(lockfile, F_OK), -1);
    assert_int_equal(fb_results_lock(&mine, path, &err), FB_OK);
    assert_int_equal(access(lockfile, F_OK), 0);
    fb_results_unlock(&mine);
    assert_int_equal(access(lockfile, F_OK), -1);
    for (int i = 0; i < 2; i++) {
        close(ready[i]);
        close(done[i]);
    }
}

/* Whether another process may take the lock on target now (a child tries and releases it). */
static bool free_for_another_process(const char *target)
{
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) {
        struct fb_results_lock l;
        const bool got = fb_results_lock(&l, target, NULL) == FB_OK;
        if (got)
            fb_results_unlock(&l);
        _exit(got ? 0 : 3);
    }
    int status = 0;
    assert_int_equal(waitpid(child, &status, 0), child);
    assert_true(WIFEXITED(status));
    return WEXITSTATUS(status) == 0;
}

/* Two sessions of one process (libfbpeer) on one results file: the second is refused, also
 * by another spelling of the path, and its refusal leaves the first's lock and lock file in
 * place (record locks never conflict within a process, and the second's unlock unlinked the
 * first's lock file, so another run went on to write the same file). */
static void a_second_lock_in_one_process_is_refused(void **state)
{
    char path[256], other[272], lockfile[288];
    in_dir(path, sizeof path, state, "r.csv");
    in_dir(other, sizeof other, state, "./r.csv");
    snprintf(lockfile, sizeof lockfile, "%s.lock", path);
    struct fb_results_lock first, second;
    struct fb_error err = {{0}};
    assert_int_equal(fb_results_lock(&first, path, &err), FB_OK);
    assert_int_equal(fb_results_lock(&second, path, &err), FB_ERR_USAGE);
    assert_non_null(strstr(err.msg, "this process is writing these results already"));
    fb_results_unlock(&second); /* not held: harmless */
    assert_int_equal(fb_results_lock(&second, other, &err), FB_ERR_USAGE);
    fb_results_unlock(&second);
    assert_int_equal(access(lockfile, F_OK), 0);
    assert_false(free_for_another_process(path));
    fb_results_unlock(&first);
    assert_int_equal(access(lockfile, F_OK), -1);
    /* released: a new session takes it */
    assert_int_equal(fb_results_lock(&second, other, &err), FB_OK);
    assert_false(free_for_another_process(path));
    fb_results_unlock(&second);
    assert_true(free_for_another_process(path));
}

/* A hard link planted at NAME.lock is refused, and the file it names keeps its content (it
 * was truncated and got the pid written into it). */
static void a_hard_link_at_the_lock_file_is_never_written(void **state)
{
    char path[256], lockfile[288], victim[256];
    in_dir(path, sizeof path, state, "r.csv");
    in_dir(victim, sizeof victim, state, "precious.txt");
    snprintf(lockfile, sizeof lockfile, "%s.lock", path);
    write_file(state, "precious.txt", "keep me\n");
    assert_int_equal(link(victim, lockfile), 0);
    struct fb_results_lock l;
    struct fb_error err = {{0}};
    assert_int_equal(fb_results_lock(&l, path, &err), FB_ERR_USAGE);
    assert_non_null(strstr(err.msg, "has other names (a hard link)"));
    FILE *f = fopen(victim, "r");
    assert_non_null(f);
    char text[64] = "";
    assert_non_null(fgets(text, sizeof text, f));
    fclose(f);
    assert_string_equal(text, "keep me\n");
}

#define IN_DIR(fn) cmocka_unit_test_setup_teardown(fn, make_dir, remove_dir)

int main(void)
{
    const struct CMUnitTest tests[] = {
        IN_DIR(resume_across_cache_modes_keeps_one_row_per_point),
        IN_DIR(resume_and_pairs_tell_store_kinds_apart),
        IN_DIR(a_rerun_replaces_its_row),
        IN_DIR(each_legacy_file_loads_as_its_case_says),
        IN_DIR(resume_from_another_config_warns_and_records_both_hashes),
        IN_DIR(resume_of_200k_rows_is_not_quadratic),
        IN_DIR(copy_fraction_comes_from_the_copy_row_at_the_same_size),
        IN_DIR(speedup_is_derived_as_rows_arrive),
        IN_DIR(unwritable_output_is_a_usage_error_naming_the_path),
        IN_DIR(a_second_lock_is_refused_naming_the_holder),
        IN_DIR(a_second_lock_in_one_process_is_refused),
        IN_DIR(a_hard_link_at_the_lock_file_is_never_written),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
