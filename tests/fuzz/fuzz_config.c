/* libFuzzer target: the config reader and the command line's config values.
 *
 * Input: INI text, optionally followed by a NUL byte and command-line arguments, one per
 * line (e.g. "--set", "max_reps=2", "--sizes", "8..1M", "--profile", "1K"). The INI text
 * goes through fb_config_load (line reader, inih, key table, whole-file checks, message
 * formatting and escaping); the arguments through fb_cli_parse and then
 * fb_config_override_all on the loaded (or default) config, the way main applies them, and
 * a --profile value through fb_sizes_parse as main reads it; the variants list through
 * fb_plan_check_variants; the final csv pattern through fb_config_expand_path. Crashes,
 * sanitizer reports and leaks are the findings; the checks below abort on a config that
 * passed validation but breaks its own invariants. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "config/config.h"
#include "plan/select.h"
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ARGS 40

/* Sizes sorted ascending, unique, within [1, 1e12]; reps and times ordered; the dtypes and
 * the store kinds non-empty lists of distinct valid ones; every chain 1 to FB_CHAIN_MAX_OPS
 * ops (its "ops +=" lines included), only the first binary; the csv pattern ending in a file
 * name (not '/', "." or ".."). */
static void check_invariants(const struct fb_config *cfg)
{
    for (size_t i = 0; i < cfg->n_chains; i++) {
        const struct fb_chain *c = &cfg->chains[i].chain;
        if (c->n_ops < 1 || c->n_ops > FB_CHAIN_MAX_OPS)
            abort();
        for (int k = 1; k < c->n_ops; k++)
            if (fb_op_infos[c->ops[k].op].arity != 1)
                abort();
    }
    const char *slash = strrchr(cfg->csv_path, '/');
    const char *name = slash ? slash + 1 : cfg->csv_path;
    if (!*name || strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
        abort();
    if (cfg->n_sizes == 0 || cfg->n_sizes > FB_MAX_SIZES)
        abort();
    for (size_t i = 0; i < cfg->n_sizes; i++) {
        if (cfg->sizes[i] < 1 || cfg->sizes[i] > 1000000000000ULL)
            abort();
        if (i > 0 && cfg->sizes[i] <= cfg->sizes[i - 1])
            abort();
    }
    if (cfg->min_reps > cfg->max_reps || cfg->min_time_s > cfg->max_time_s)
        abort();
    if (!(cfg->target_noise >= 0.0 && cfg->target_noise <= 1.0))
        abort();
    if (cfg->n_dtypes == 0 || cfg->n_dtypes > FB_DTYPE_COUNT)
        abort();
    for (size_t i = 0; i < cfg->n_dtypes; i++) {
        if ((unsigned)cfg->dtypes[i] >= FB_DTYPE_COUNT)
            abort();
        for (size_t j = 0; j < i; j++)
            if (cfg->dtypes[j] == cfg->dtypes[i])
                abort();
    }
    if (cfg->n_stores == 0 || cfg->n_stores > FB_STORES_COUNT)
        abort();
    for (size_t i = 0; i < cfg->n_stores; i++) {
        if ((unsigned)cfg->stores[i] >= FB_STORES_COUNT)
            abort();
        for (size_t j = 0; j < i; j++)
            if (cfg->stores[j] == cfg->stores[i])
                abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *nul = memchr(data, '\0', size);
    size_t ini_size = nul ? (size_t)(nul - data) : size;
    const char *path = fuzz_scratch_file(".ini", data, ini_size);

    struct fb_config *cfg = malloc(sizeof *cfg);
    if (!cfg)
        return 0;
    struct fb_error err;
    int rc = fb_config_load(cfg, path, fuzz_devnull(), &err);
    if (rc == FB_OK)
        check_invariants(cfg);
    else
        fb_config_defaults(cfg);

    if (nul) {
        /* the arguments: a writable copy, split at line feeds */
        size_t tail_size = size - ini_size - 1;
        char *tail = malloc(tail_size + 1);
        if (!tail) {
            free(cfg);
            return 0;
        }
        memcpy(tail, nul + 1, tail_size);
        tail[tail_size] = '\0';
        char *argv[MAX_ARGS + 3];
        int argc = 0;
        argv[argc++] = (char *)"fusebench";
        argv[argc++] = (char *)"fuzz.ini";
        for (char *p = tail; argc < MAX_ARGS + 2;) {
            argv[argc++] = p;
            char *nl = strchr(p, '\n');
            if (!nl)
                break;
            *nl = '\0';
            p = nl + 1;
        }
        argv[argc] = NULL;
        struct fb_cli cli;
        if (fb_cli_parse(argc, argv, &cli, fuzz_devnull()) == 0 && !cli.help && !cli.version) {
            if (fb_config_override_all(cfg, cli.overrides, (size_t)cli.n_overrides, &err) == FB_OK)
                check_invariants(cfg);
            if (cli.profile_size) {
                uint64_t one[2];
                size_t count = 0;
                if (fb_sizes_parse(cli.profile_size, cfg->points_per_decade, one, 2, &count,
                                   &err) == FB_OK &&
                    (count == 0 || count > 2 || one[0] < 1 || one[0] > 1000000000000ULL))
                    abort();
            }
        }
        free(tail);
    }
    /* the variants list against the plan's names, as main checks it before a run */
    (void)fb_plan_check_variants(cfg, &err);
    for (size_t i = 0; i < cfg->n_chains; i++)
        if (cfg->n_chains > FB_MAX_CHAINS || cfg->chains[i].chain.n_ops > FB_CHAIN_MAX_OPS)
            abort();
    char out[FB_PATH_MAX];
    (void)fb_config_expand_path(cfg->csv_path, "cuda", "NVIDIA H200 \x1b[0m", out, sizeof out,
                                &err);
    free(cfg);
    return 0;
}

__attribute__((destructor)) static void fuzz_config_cleanup(void)
{
    fuzz_scratch_remove(fuzz_scratch_file(".ini", (const unsigned char *)"", 0));
}
