/* The plan of a run as JSON (fusebench CONFIG --print-plan), for tools that follow fusebench
 * instead of re-implementing it (tools/torch_peer.py): the sizes, the enabled variants with
 * their ops, the [measure] stop rule, dtype, cache and the CSV columns in the file's order.
 *
 * Shape (one object; numbers in JSON notation, parameters as written by %.9g):
 *   {"fusebench": VERSION, "config": PATH, "dtype": "fp32" (the first of dtypes),
 *    "dtypes": ["fp32", ...], "stores": ["normal", ...], "cache": "warm"|"cold",
 *    "label": TEXT, "cpu_threads": N (0 = all cores), "sizes": [8, ...],
 *    "measure": {"warmup": N, "min_reps": N, "max_reps": N, "min_time": S, "max_time": S,
 *                "target_noise": X},
 *    "variants": [{"name": ..., "role": "copy_ceiling"|"platform_reference"|"eager"|"fused",
 *                  "pair": "" or the fused variant's name, "launches": N (kernels),
 *                  "host_launches": N (launches the host issues: 1 when one_launch),
 *                  "one_launch": true|false (its kernels run in one launch: a CUDA graph,
 *                  one CPU parallel region; plan/variants.h),
 *                  "elements_moved": N, "chain": NAME or "" (a [chain NAME] of the config),
 *                  "ops": [{"op": "threshold", "arity": 1, "ulp_bound": 0,
 *                           "params": [0, 0], "param_names": ["threshold", "value"]}, ...]},
 *                 ...],
 *    "columns": ["backend", ...]}
 * "ops" is the chain the variant computes, in order (every step's ops; the handwritten
 * fused_add_relu computes add, relu; memcpy: none); arity and ulp_bound are the op table's
 * (kernels/op_table.h: 0 = exact, else a transcendental op). The column list is read from the CSV
 * schema table at run time, so a column added there appears here by itself. */
#ifndef FB_OUTPUT_PLAN_JSON_H
#define FB_OUTPUT_PLAN_JSON_H

#include <stdio.h>

struct fb_plan;


/* Writes the plan (its enabled variants) as one JSON object and a newline. Returns 0, or -1
 * when writing failed (ferror). */
int fb_plan_json_write(FILE *out, const struct fb_plan *plan);

#endif
