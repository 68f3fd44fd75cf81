/* The model behind a results row, as the charts and the summaries draw it: the traffic and
 * launches of plan/variants.h read back from a row (bytes_model, launches, host_launches,
 * role), and what they predict for a pair of rows. The formulas live here and nowhere else:
 * the chart scripts draw the numbers these functions give (chart/tables.h).
 *
 *   elements  = bytes_model / n / sizeof(dtype): arrays of n moved per call (eager add, relu
 *               5, fused 3, copy 2; a chain of k ops whose first is binary 3 + 2 (k - 1))
 *   stores    = the kernels counted (launches): each kernel writes one array
 *   traffic   = elements, plus one array read per store where the hardware write-allocates
 *               (a CPU with normal stores reads every output line before writing it;
 *               streaming stores and the GPU's L2 do not): eager add, relu 5 + 2 = 7, fused
 *               3 + 1 = 4, copy 2 + 1 = 3
 *   for an eager row over its pair (its fused variant):
 *     launch limit   = host_launches_eager / host_launches_fused   (2; a chain of k ops: k;
 *                      eager_add_relu_graph 1: "bytes only")
 *     traffic ratio  = traffic_eager / traffic_fused   (5/3; with write-allocate 7/4; a chain
 *                      of k ops: (1 + 2k) / 3, with write-allocate (1 + 3k) / 4)
 *   for a fused row over the copy ceiling (copy_fraction, both at one memory rate):
 *     (elements_fused / traffic_fused) / (elements_copy / traffic_copy)
 *                    = 1 without write-allocate, (3/4) / (2/3) = 9/8 with it
 *   the fit (measure/fit.h): t(n) = launches * L + elements * sizeof * n / B. */
#ifndef FB_CHART_MODEL_H
#define FB_CHART_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#include "measure/record.h"

/* Bytes per element of a dtype as a results file spells it (fp32, float16, ...): 4 for
 * fp32 and for a name fusebench does not know, 2 for fp16 and bf16. */
size_t fb_model_element_size(const char *dtype);

/* Arrays of n moved per call: bytes_model / n / element size; NaN when unknown. */
double fb_model_elements(const struct fb_record *r);

/* The kernels the model gives a variant of `role` (a record's role column) moving `elements`
 * arrays: copy_ceiling and fused 1, platform_reference 0 (the platform's copy is none of
 * ours), eager one per op, floor(elements / 2) (3 + 2 (k - 1) or 2k elements for k ops);
 * -1 when the role is unknown or an eager row's elements are. */
int fb_model_launches(const char *role, double elements);

/* Whether stores write-allocate for a row of backend (the run's, "cpu" or "cuda") and store
 * kind ("normal", "streaming", "" = normal): only a CPU with normal stores. */
bool fb_model_write_allocate(const char *backend, const char *stores);

/* The arrays moved per call, counting one extra read per store when write_allocate. */
double fb_model_traffic(double elements, double stores, bool write_allocate);

/* The arrays an eager chain of `kernels` kernels moving `elements` arrays touches: its
 * inputs (elements - 2 kernels + 1: 1 or 2), its temporaries (at most 2: plan/variants.h's
 * ping-pong) and its output; 4 for eager add, relu. 0 when the numbers fit no chain. */
int fb_model_eager_arrays(double elements, int kernels);

/* The fitted model's time per call: launches * launch_s + bytes / bytes_per_s. */
double fb_model_time(double launches, double launch_s, double bytes, double bytes_per_s);

#endif
