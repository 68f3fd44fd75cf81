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

/* Writes `s` as a JSON string that is valid UTF-8 whatever the bytes of s (RFC 8259 with
 * RFC 3629), so any strict parser reads it: '"' and '\\' escaped; control bytes as \n, \r,
 * \t, \b, \f, or \u00XX (DEL and the C1 controls U+0080-U+009F too: the same characters);
 * other valid UTF-8 as it is. A byte that is not part of valid UTF-8 (a stray continuation
 * byte, a truncated sequence, an overlong form such as C0 AF, a surrogate such as CESU-8's
 * ED A0 80, a code point above U+10FFFF) becomes the four characters \xNN (upper-case hex,
 * written "\\xNN" in the JSON text): the string reads as fusebench's messages show the same
 * bytes (common/text.h). That one case is not reversible: a label typed as the text \xFF
 * reads the same; the CSV keeps the original bytes. */
void fb_json_write_string(FILE *out, const char *s);

/* Writes the plan (its enabled variants) as one JSON object and a newline. Returns 0, or -1
 * when writing failed (ferror). */
int fb_plan_json_write(FILE *out, const struct fb_plan *plan);

#endif
