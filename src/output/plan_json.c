/* The plan as JSON (contract and shape in plan_json.h). */
#include "output/plan_json.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "common/json.h"
#include "fb_build_config.h"
#include "op_table.h"
#include "results/csv_schema.h"
#include "plan/plan.h"

/* The table's "threshold, value" as a JSON list of names. */
static void write_param_names(FILE *out, const char *names)
{
    fputc('[', out);
    const char *p = names;
    for (int first = 1; *p; first = 0) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)len, p);
        if (!first)
            fputs(", ", out);
        fb_json_write_string(out, name);
        p += len;
        while (*p == ',' || *p == ' ')
            p++;
    }
    fputc(']', out);
}

static void write_op(FILE *out, const struct fb_chain_op *op, int first)
{
    const struct fb_op_info *info = &fb_op_infos[op->op];
    fputs(first ? "" : ", ", out);
    fputs("{\"op\": ", out);
    fb_json_write_string(out, info->name);
    fprintf(out, ", \"arity\": %d, \"ulp_bound\": %d, \"params\": [", info->arity,
            info->ulp_bound);
    for (int i = 0; i < info->n_params; i++) {
        fputs(i ? ", " : "", out);
        /* %.9g: a float's value, round-trippable. */
        if (isfinite(op->params.v[i]))
            fprintf(out, "%.9g", (double)op->params.v[i]);
        else
            fputs("null", out);
    }
    fputs("], \"param_names\": ", out);
    write_param_names(out, info->param_names);
    fputc('}', out);
}

/* The ops the variant computes, in order, over all its steps. */
static void write_ops(FILE *out, const struct fb_variant *v)
{
    fputc('[', out);
    int written = 0;
    for (int s = 0; s < v->n_steps; s++) {
        const struct fb_step *step = &v->steps[s];
        if (step->kind == FB_STEP_MEMCPY)
            continue;
        for (int k = 0; k < step->chain.n_ops; k++)
            write_op(out, &step->chain.ops[k], written++ == 0);
    }
    fputc(']', out);
}

int fb_plan_json_write(FILE *out, const struct fb_plan *plan)
{
    fputs("{\"fusebench\": ", out);
    fb_json_write_string(out, FB_VERSION);
    fputs(",\n \"config\": ", out);
    fb_json_write_string(out, plan->config_path);
    /* "dtype": the first of the list, for readers older than the list */
    fputs(",\n \"dtype\": ", out);
    fb_json_write_string(out, fb_dtype_name(plan->dtypes[0]));
    fputs(",\n \"dtypes\": [", out);
    for (size_t i = 0; i < plan->n_dtypes; i++) {
        fputs(i ? ", " : "", out);
        fb_json_write_string(out, fb_dtype_name(plan->dtypes[i]));
    }
    fputs("],\n \"stores\": [", out);
    for (size_t i = 0; i < plan->n_stores; i++) {
        fputs(i ? ", " : "", out);
        fb_json_write_string(out, fb_store_kind_name(plan->stores[i]));
    }
    fputs("]", out);
    fputs(",\n \"cache\": ", out);
    fb_json_write_string(out, fb_cache_mode_name(plan->measure.cache));
    fputs(",\n \"label\": ", out);
    fb_json_write_string(out, plan->label);
    fprintf(out, ",\n \"cpu_threads\": %d", plan->cpu_threads);
    fputs(",\n \"sizes\": [", out);
    for (size_t i = 0; i < plan->n_sizes; i++)
        fprintf(out, "%s%" PRIu64, i ? ", " : "", plan->sizes[i]);
    fprintf(out, "],\n \"measure\": {\"warmup\": %d, \"min_reps\": %d, \"max_reps\": %d, "
                 "\"min_time\": ",
            plan->measure.warmup, plan->measure.min_reps, plan->measure.max_reps);
    fb_json_write_number(out, plan->measure.min_time_s);
    fputs(", \"max_time\": ", out);
    fb_json_write_number(out, plan->measure.max_time_s);
    fputs(", \"target_noise\": ", out);
    fb_json_write_number(out, plan->measure.target_noise);
    fputs("},\n \"variants\": [", out);
    int written = 0;
    for (size_t i = 0; i < plan->set.count; i++) {
        if (!plan->enabled[i])
            continue;
        const struct fb_variant *v = &plan->set.v[i];
        fputs(written++ ? ",\n  {\"name\": " : "\n  {\"name\": ", out);
        fb_json_write_string(out, v->name);
        fputs(", \"role\": ", out);
        fb_json_write_string(out, fb_variant_role_name(v->role));
        fputs(", \"pair\": ", out);
        fb_json_write_string(out, v->pair);
        fprintf(out, ", \"launches\": %d, \"host_launches\": %d, \"one_launch\": %s, "
                "\"elements_moved\": %d, \"chain\": ",
                v->launches, v->host_launches, v->one_launch ? "true" : "false",
                v->elements_moved);
        fb_json_write_string(out, plan->chain[i]);
        fputs(", \"ops\": ", out);
        write_ops(out, v);
        fputc('}', out);
    }
    fputs("],\n \"columns\": [", out);
    for (size_t i = 0; i < fb_csv_schema_count; i++) {
        fputs(i ? ", " : "", out);
        fb_json_write_string(out, fb_csv_schema[i].name);
    }
    fputs("]}\n", out);
    return ferror(out) ? -1 : 0;
}
