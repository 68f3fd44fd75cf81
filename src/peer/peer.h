/* fusebench inside another program's process: the C entry point of libfbpeer.so, loaded by
 * tools/torch_inprocess.py through ctypes, so that our variants and a peer's (PyTorch's) are
 * verified against the same reference and timed in the same interleaved rounds, under the same
 * stop rule and timer, by the runner's own code (measure/runner.h: fb_call_verify,
 * fb_sweep_time_calls), and written to one results file whose derived columns fusebench
 * computes (measure/pairing.h: speedup, and ours_ratio for the peer's rows). A peer's function
 * that no variant of ours mirrors (tools/torch_audit.py: a user's function) is timed in the
 * same rounds with the model the peer gives, and its DRAM traffic counted by the same CUPTI
 * range profiler as ours.
 *
 * Plain C types only (pointers, int, int64_t, double, char *), so that a ctypes declaration
 * is one line per function. Every function that can fail returns FBP_OK (0) or a negative
 * fb_status (common/error.h: -1 runtime, -2 usage, -3 verification, -4 unavailable,
 * -5 interrupted) and leaves
 * the message in fbp_error(). One session at a time per thread; nothing here is thread-safe.
 *
 * Misuse: a NULL session makes every function return FB_ERR_USAGE (-2) (or what it says it
 * returns for it: NULL, -1, or nothing), with no message to fetch (fbp_error(NULL) is "no
 * session"); a NULL string or output pointer is FB_ERR_USAGE with a message. From inside a
 * peer's callback only fbp_interrupt, fbp_close, fbp_error and the read-only queries (backend,
 * device, stream, sizes, cpu_threads, input, result) may be called; the others return
 * FB_ERR_USAGE there. What cannot be checked is the caller's to keep: after fbp_close the
 * session is freed, and any call with it, a second fbp_close included, is undefined (set the
 * handle to NULL: fbp_close(NULL) does nothing).
 *
 * A run:
 *   fbp_open(config)                          the config's backend, stop rule, sizes, variants
 *   fbp_results_open(path, force)             the results file, judged and locked
 *   for each size n:
 *     fbp_size_begin(n)                       buffers, fresh random fp32 inputs
 *     fbp_input(0 / 1)                        the inputs (host copies) for the peer to copy
 *     fbp_add_ours(variant) ...               verified, or recorded failed
 *     fbp_add_peer(..., output, calls, user)  the peer's first output checked against the
 *                                             reference of the variant it mirrors
 *     fbp_add_peer_unmirrored(..., calls, user)  or one that mirrors none: its role, launches
 *                                             and model bytes the peer's, its output checked
 *                                             by the peer (the row says so)
 *     fbp_measure_traffic(calls, user, ...)   (optional, GPU) one call's DRAM bytes, CUPTI
 *     fbp_set_kernel_time(i, seconds)         (optional) what the peer's profiler counted
 *     fbp_time_round_robin()                  all the verified ones in interleaved rounds
 *     fbp_size_end()                          rows stored (and written to NAME.partial)
 *   fbp_results_finish()                      NAME.partial renamed over NAME
 *   fbp_close()
 * The peer's calls run on the backend's queue: on the CPU in the calling thread, on a GPU on
 * the stream fbp_stream() returns (the peer must enqueue there, e.g. torch.cuda.ExternalStream),
 * so that the backend's timer marks bracket exactly the peer's calls, as they do ours. */
#ifndef FB_PEER_PEER_H
#define FB_PEER_PEER_H

#include <stddef.h>
#include <stdint.h>

#define FBP_OK 0
/* Bumped when a signature below changes; the Python side refuses another version. */
#define FBP_ABI_VERSION 4
/* The most contestants (ours and the peer's) one size may have. */
#define FBP_MAX_CONTESTANTS 32

struct fbp_session;

/* The peer's call, enqueued `calls` times back to back on the backend's queue without
 * waiting for it (the timer waits). Returns 0, or non-zero when a call failed (the size then
 * fails with FB_ERR_RUNTIME). calls may be 0 (fbp_open measures the cost of an empty call). */
typedef int (*fbp_calls_fn)(void *user, int64_t calls);

/* FBP_ABI_VERSION of the library loaded. */
int fbp_abi_version(void);

/* Opens a session on the config at config_path (its diagnostics go to stderr), with the
 * command line's overrides settings[0..n_settings-1], each "key=value" as fusebench's own
 * (e.g. "sizes=1K,1M", "max_time=0.5"; config/config.h, struct fb_config_setting): its backend
 * (`auto`: the GPU when one answers, else the CPU), its [measure] stop rule, warm-up and cache
 * mode. *out is NULL on failure, and msg (msg_size bytes, may be NULL) says why. settings may
 * be NULL when n_settings is 0. Returns FBP_OK or FB_ERR_USAGE (a bad config, a backend that
 * cannot run, a NULL config_path or out, NULL settings with n_settings > 0) or FB_ERR_RUNTIME. */
int fbp_open(const char *config_path, const char *const *settings, int n_settings,
             struct fbp_session **out, char *msg, size_t msg_size);

/* Ends the session: frees the size in progress, releases the results file's lock (leaving
 * NAME.partial when fbp_results_finish was not called), stops the backend, frees s. NULL:
 * nothing. From inside a peer's callback it asks the rounds to stop (fbp_interrupt) and s is
 * closed when the call that runs the callback returns (fbp_time_round_robin with
 * FB_ERR_INTERRUPTED, fbp_empty_call_s with -1): s must not be used after that call. */
void fbp_close(struct fbp_session *s);

/* The last error's message ("" when none). Valid until the next call on s. */
const char *fbp_error(const struct fbp_session *s);

/* The backend's name ("cpu", "cuda") and device name, as the rows carry them; NULL for a
 * NULL session. */
const char *fbp_backend(const struct fbp_session *s);
const char *fbp_device(const struct fbp_session *s);
/* The queue the peer must enqueue on: a cudaStream_t on the CUDA backend, NULL on the CPU
 * (and for a NULL session). */
void *fbp_stream(const struct fbp_session *s);
/* The config's sizes: their count (FB_ERR_USAGE for a NULL session), and size i (0-based; -1
 * when out of range or for a NULL session). */
int fbp_size_count(const struct fbp_session *s);
int64_t fbp_size(const struct fbp_session *s, int i);
/* The config's [backend] cpu_threads (0: all cores), for the peer's own thread count;
 * FB_ERR_USAGE for a NULL session. */
int fbp_cpu_threads(const struct fbp_session *s);

/* Judges, locks and opens the results file at path (results/results.h: what a sweep does with
 * its own; force: replace a file fusebench did not write), with the run's metadata. */
int fbp_results_open(struct fbp_session *s, const char *path, int force);
/* Sets metadata key (no ':' or whitespace) to value, written with the next rows. */
int fbp_set_meta(struct fbp_session *s, const char *key, const char *value);
/* The run is complete: renames NAME.partial over NAME. */
int fbp_results_finish(struct fbp_session *s);

/* Starts size n (> 0): allocates the buffers and draws fresh random fp32 inputs (uniform in
 * [-1, 1), measure/reference.h) into the backend. A size still open is ended first. */
int fbp_size_begin(struct fbp_session *s, int64_t n);
/* The inputs of the open size as the backend got them: which 0 is a, 1 is b; n floats, valid
 * until fbp_size_end. NULL when no size is open, which is neither or s is NULL. */
const float *fbp_input(const struct fbp_session *s, int which);

/* Adds our variant (by name; the config must enable it) at the open size: verified now
 * (runner.h, fb_call_verify, and its launch count against the declared one). Returns its
 * index (>= 0) when it will be timed; FB_ERR_VERIFY when it is wrong (its row is recorded
 * failed, with the reason); FB_ERR_USAGE for an unknown or disabled variant or a full size. */
int fbp_add_ours(struct fbp_session *s, const char *variant);

/* Adds a peer's variant at the open size. backend: its rows' backend ("torch"); name: its
 * variant; mirror: our variant it does the same work as (enabled in the config: its role,
 * model bytes and reference are the peer's); pair: the peer variant its speedup is taken
 * against ("" none); launches: the kernels per call the peer counted (-1 unknown). output:
 * the n floats of one call's result (into an output poisoned by the peer where it writes a
 * preallocated one), compared with the mirror's reference as ours are (bit for bit, or within
 * the mirror's ULP bound). Returns its index (>= 0) when it will be timed; FB_ERR_VERIFY when
 * the output is wrong (its row is recorded failed); FB_ERR_USAGE for a bad argument. */
int fbp_add_peer(struct fbp_session *s, const char *backend, const char *name,
                 const char *mirror, const char *pair, int64_t launches, const float *output,
                 fbp_calls_fn calls, void *user);
/* Records a peer's variant that could not be run at the open size as failed (status, reason),
 * e.g. a compile error or an allocation by an _out variant. */
int fbp_add_failed(struct fbp_session *s, const char *backend, const char *name,
                   const char *mirror, const char *pair, const char *reason);

/* A peer's contestant that no variant of ours mirrors (a user's function audited by
 * tools/torch_audit.py) at the open size: its role ("eager" or "fused": which kind of row it
 * is), pair (the peer variant its speedup is taken against, "" or NULL none), launches per
 * call (-1 unknown) and the predicted bytes per call (read + written, model_bytes > 0,
 * rounded to whole bytes: the row's bytes_model, whence its bandwidth) are the caller's.
 * backend and name as for fbp_add_peer. Its output is checked by the caller, not here (the
 * library has no reference for it): the row's verified is 0 and its reason begins "output
 * checked by the peer, not by fusebench", whatever else it says; it has no mirror, so no
 * ours_ratio. Timed with the others by fbp_time_round_robin; fbp_set_kernel_time applies.
 * Returns its index (>= 0), or FB_ERR_USAGE for a bad argument (another role, model_bytes not
 * > 0 or not finite, a NULL calls, a bad name), no size open or a full size. */
int fbp_add_peer_unmirrored(struct fbp_session *s, const char *backend, const char *name,
                            const char *role, const char *pair, int64_t launches,
                            double model_bytes, fbp_calls_fn calls, void *user);

/* The kernel time per call the peer measured for its contestant i of the open size (e.g. its
 * profiler's summed kernel durations on a GPU), before fbp_time_round_robin: written as the
 * row's kernel_time_s, and launch_overhead_s = time_median_s - kernel_time_s once timed (as
 * the runner's kernel pass does for ours). FB_ERR_USAGE for ours, a contestant recorded
 * failed or already timed, no such contestant, or a time that is negative or not finite. */
int fbp_set_kernel_time(struct fbp_session *s, int i, double kernel_time_s);

/* Times every contestant of the open size added so far and verified, in interleaved rounds
 * (runner.h, fb_sweep_time_calls). */
int fbp_time_round_robin(struct fbp_session *s);

/* The row of contestant i of the open size (after fbp_time_round_robin): median time per call
 * in seconds, its noise, reps and batch (none of the four may be NULL). FB_ERR_VERIFY for a
 * contestant recorded failed; FB_ERR_USAGE when there is no such contestant, a NULL output or
 * session (no message: s is not written). */
int fbp_result(const struct fbp_session *s, int i, double *median_s, double *noise,
               int64_t *reps, int64_t *batch);

/* Ends the open size: its rows go into the results (derived columns recomputed, NAME.partial
 * rewritten when a results file is open). */
int fbp_size_end(struct fbp_session *s);

/* Asks the rounds in progress to stop (a Ctrl-C seen by the peer, e.g. in its callback): the
 * runner stops before its next sample and fbp_time_round_robin returns FB_ERR_INTERRUPTED
 * (-5); the sizes already ended stay in NAME.partial. Safe to call from a callback. NULL:
 * nothing. */
void fbp_interrupt(struct fbp_session *s);

/* Seconds per sample an empty peer call costs (the calls callback with calls = 0, timed as a
 * sample is: the ctypes round trip included in every peer sample), median of 101; measured
 * once by the first call. Negative on failure (a NULL session or calls, a failed call, or from
 * inside a callback). */
double fbp_empty_call_s(struct fbp_session *s, fbp_calls_fn calls, void *user);

/* DRAM bytes read and written by one call (calls(user, 1), waited for) as the GPU counted
 * them with fusebench's CUPTI range profiler (cupti/cupti_session.h,
 * fb_cupti_measure_traffic), outside any timing and in the config's cache mode (cold: an L2
 * flush before the call; warm: one call before it). It opens CUPTI for this call only and
 * closes it again, so no other CUPTI client (torch.profiler) may be active during it. Needs
 * no open size. FB_OK with both set; FB_ERR_UNAVAILABLE (-4) with the reason in fbp_error()
 * where nothing can be counted ("the CPU backend has no DRAM counters"; [cupti] counters =
 * false; CUPTI's own reason where it is absent or refuses, or no DRAM metric on the chip):
 * the caller prints NA with that reason; FB_ERR_RUNTIME when the peer's call or a CUDA or
 * CUPTI call failed (its message names it); FB_ERR_USAGE for a NULL calls or output, or from
 * inside a callback. Both outputs are NaN on any failure but FB_ERR_USAGE. */
int fbp_measure_traffic(struct fbp_session *s, fbp_calls_fn calls, void *user,
                        double *dram_read_bytes, double *dram_write_bytes);

/* The regimes of fbp_fit_model (measure/fit.h, enum fb_fit_regime: the same values). */
#define FBP_REGIME_MEMORY 0  /* beyond the cache, or the cache not known: B */
#define FBP_REGIME_CACHE 1   /* within the cache, with B_c: B_c */
#define FBP_REGIME_BETWEEN 2 /* in between: B, and the model holds at neither end */

/* fusebench's fitted model of one call, t = launches x L + bytes / bandwidth (measure/fit.h,
 * fb_fit_model_call): the call's launches and bytes (>= 0), the fit's L (launch_s > 0,
 * seconds), B and B_c (bytes per second; cache_bandwidth NaN when not fitted) and the cache
 * (cache_bytes; 0 or NaN: not known). Sets *model_s (t), *launch_share and *traffic_share
 * (each term over t; NaN when t is 0), *bandwidth_used (B_c or B, bytes per second) and
 * *regime (FBP_REGIME_*: which bandwidth, and whether the model holds). Needs no session,
 * so it leaves no message: FBP_OK, or FB_ERR_USAGE for an input out of range or a NULL
 * output (the outputs that are not NULL are then NaN and FBP_REGIME_MEMORY). */
int fbp_fit_model(double launches, double bytes, double launch_s, double bandwidth,
                  double cache_bandwidth, double cache_bytes, double *model_s,
                  double *launch_share, double *traffic_share, double *bandwidth_used,
                  int *regime);

/* A regime of fbp_fit_model in words ("memory-bound", "cache-resident", "between the cache
 * and memory: the model holds at neither end"), "?" for another value. Static storage. */
const char *fbp_fit_regime_name(int regime);

#endif
