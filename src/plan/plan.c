/* The plan of a run (contract in plan.h): the only place the config's grid of sizes, formats
 * and variants is walked. */
#include "plan/plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/checked.h"
#include "config/config.h"

static void copy_origin(struct fb_plan *plan, const struct fb_config *cfg)
{
    snprintf(plan->config_path, sizeof plan->config_path, "%s", cfg->path);
    snprintf(plan->label, sizeof plan->label, "%s", cfg->label);
    if (cfg->sizes_line > 0)
        snprintf(plan->sizes_origin, sizeof plan->sizes_origin, "%s:%d: [sweep] sizes",
                 cfg->path, cfg->sizes_line);
    else
        snprintf(plan->sizes_origin, sizeof plan->sizes_origin,
                 "sizes (--sizes, or the default of %s)", cfg->path);
    plan->config_hash = cfg->content_hash;
    plan->backend = cfg->backend;
    plan->device = cfg->device;
    plan->cpu_threads = cfg->cpu_threads;
    plan->cupti_activity = cfg->cupti_activity;
    plan->cupti_counters = cfg->cupti_counters;
    plan->n_dtypes = cfg->n_dtypes;
    memcpy(plan->dtypes, cfg->dtypes, sizeof plan->dtypes);
    plan->n_stores = cfg->n_stores;
    memcpy(plan->stores, cfg->stores, sizeof plan->stores);
    plan->measure = (struct fb_plan_measure){
        cfg->warmup,     cfg->min_reps,     cfg->max_reps,      cfg->min_time_s,
        cfg->max_time_s, cfg->target_noise, cfg->cache,         cfg->gpu_min_clock,
        cfg->gpu_other_processes};
}

/* Which variants run, the chain each came from, and the order the variants list names the
 * enabled ones in (each once; the names were checked when the config was loaded). */
static void choose_variants(struct fb_plan *plan, const struct fb_config *cfg)
{
    const struct fb_variant_set *set = &plan->set;
    for (size_t i = 0; i < set->count; i++) {
        plan->enabled[i] = fb_variant_set_enabled(cfg, set, i);
        plan->n_enabled += plan->enabled[i];
        for (size_t c = 0; c < cfg->n_chains; c++) {
            const char *name = set->v[i].name, *chain = cfg->chains[c].name;
            const char *rest = strncmp(name, "eager_", 6) == 0   ? name + 6
                               : strncmp(name, "fused_", 6) == 0 ? name + 6
                                                                 : "";
            if (strcmp(rest, chain) == 0)
                snprintf(plan->chain[i], sizeof plan->chain[i], "%s", chain);
        }
    }
    if (cfg->variants.all) {
        for (size_t i = 0; i < set->count; i++)
            plan->named[plan->n_named++] = (uint32_t)i;
        return;
    }
    for (size_t k = 0; k < cfg->variants.n_names; k++) {
        const struct fb_variant *v = fb_variant_set_find(set, cfg->variants.names[k]);
        if (!v)
            continue;
        const uint32_t index = (uint32_t)(v - set->v);
        bool seen = false;
        for (size_t j = 0; j < plan->n_named; j++)
            seen |= plan->named[j] == index;
        if (!seen)
            plan->named[plan->n_named++] = index;
    }
}

/* The buffers the enabled variants use, the widest element and the bytes at the largest
 * size: a, b, the outputs and temporaries on the backend; a, b, the downloaded output and the
 * reference output on the host besides. */
static void count_memory(struct fb_plan *plan)
{
    uint64_t arrays = 0;
    for (int b = 0; b < FB_BUF_COUNT; b++) {
        for (size_t i = 0; i < plan->set.count; i++)
            plan->buffer_used[b] |= plan->enabled[i] &&
                                    fb_variant_uses_buffer(&plan->set.v[i], (enum fb_buffer)b);
        arrays += plan->buffer_used[b];
    }
    for (size_t f = 0; f < plan->n_formats; f++) {
        const size_t s = fb_dtype_size(plan->formats[f].dtype);
        plan->element_bytes = s > plan->element_bytes ? s : plan->element_bytes;
    }
    if (!plan->element_bytes)
        plan->element_bytes = sizeof(float);
    const uint64_t largest = plan->n_sizes ? plan->sizes[plan->n_sizes - 1] : 0;
    /* Saturating products (common/checked.h): a size past any memory reads as "too big". */
    const uint64_t per_array = fb_mul_u64_saturating(largest, plan->element_bytes);
    plan->backend_bytes = fb_mul_u64_saturating(arrays, per_array);
    plan->memory_bytes = fb_mul_u64_saturating(arrays + 4, per_array);
}

int fb_plan_build(const struct fb_config *cfg, unsigned flags, struct fb_plan **out,
                  struct fb_error *err)
{
    struct fb_plan *plan = calloc(1, sizeof *plan);
    *out = NULL;
    if (!plan)
        return fb_fail(err, FB_ERR_RUNTIME, "out of memory for the plan");
    copy_origin(plan, cfg);
    int rc = fb_variant_set_build(cfg, &plan->set, err);
    if (rc != FB_OK) {
        fb_plan_free(plan);
        return rc;
    }
    choose_variants(plan, cfg);
    plan->n_formats = fb_config_format_count(cfg);
    if (flags & FB_PLAN_FIRST_FORMAT && plan->n_formats > 1)
        plan->n_formats = 1;
    for (size_t f = 0; f < plan->n_formats; f++)
        plan->formats[f] = fb_config_format(cfg, f);
    if (flags & FB_PLAN_DEFAULT_FORMAT) {
        plan->n_formats = 1;
        plan->formats[0] = FB_FORMAT_DEFAULT;
    }
    plan->n_sizes = cfg->n_sizes;
    plan->sizes = malloc((cfg->n_sizes ? cfg->n_sizes : 1) * sizeof *plan->sizes);
    plan->points = malloc((plan->n_enabled * cfg->n_sizes * plan->n_formats + 1) *
                          sizeof *plan->points);
    if (!plan->sizes || !plan->points) {
        fb_plan_free(plan);
        return fb_fail(err, FB_ERR_RUNTIME, "out of memory for the plan's points");
    }
    memcpy(plan->sizes, cfg->sizes, cfg->n_sizes * sizeof *plan->sizes);
    /* The one walk of the grid, in the runner's order (plan.h). */
    for (size_t s = 0; s < plan->n_sizes; s++)
        for (size_t f = 0; f < plan->n_formats; f++)
            for (size_t v = 0; v < plan->set.count; v++)
                if (plan->enabled[v])
                    plan->points[plan->n_points++] =
                        (struct fb_plan_point){(uint32_t)v, (uint32_t)s, (uint32_t)f, true};
    count_memory(plan);
    *out = plan;
    return FB_OK;
}

void fb_plan_free(struct fb_plan *plan)
{
    if (!plan)
        return;
    free(plan->sizes);
    free(plan->points);
    free(plan);
}

size_t fb_plan_todo(const struct fb_plan *plan, double (*weight)(int64_t n), double *work)
{
    size_t count = 0;
    if (work)
        *work = 0.0;
    for (size_t i = 0; i < plan->n_points; i++) {
        const struct fb_plan_point *p = &plan->points[i];
        if (!p->todo)
            continue;
        count++;
        if (work && weight)
            *work += weight(fb_plan_n(plan, p));
    }
    return count;
}

const struct fb_variant *fb_plan_variant(const struct fb_plan *plan,
                                         const struct fb_plan_point *p)
{
    return &plan->set.v[p->variant];
}

int64_t fb_plan_n(const struct fb_plan *plan, const struct fb_plan_point *p)
{
    return (int64_t)plan->sizes[p->size];
}
