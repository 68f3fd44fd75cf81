/* The format of a point: what its arrays are stored as (dtype) and how its outputs are
 * written (stores). A sweep runs every variant at every size in every format of the config
 * ([sweep] dtype and [measure] stores are lists, like sizes); the CSV's dtype and stores
 * columns say which format a row was measured in.
 *
 *   dtype   fp32 (4 bytes), fp16 (2: IEEE binary16), bf16 (2: bfloat16). The arrays are
 *           stored in it; the arithmetic is fp32 with one rounding at the store.
 *   stores  normal: ordinary stores, which on a CPU read each output line before writing it
 *           (write-allocate); streaming: non-temporal stores, which write whole lines
 *           without reading them.
 *
 * Plain C, included by config, plan, the backends and the runner (no CUDA types). */
#ifndef FB_COMMON_FORMAT_H
#define FB_COMMON_FORMAT_H

#include <stdbool.h>
#include <stddef.h>

enum fb_dtype { FB_DTYPE_FP32, FB_DTYPE_FP16, FB_DTYPE_BF16 };
#define FB_DTYPE_COUNT 3

enum fb_store_kind { FB_STORES_NORMAL, FB_STORES_STREAMING };
#define FB_STORES_COUNT 2

struct fb_format {
    enum fb_dtype dtype;
    enum fb_store_kind stores;
};

/* How the caches stand when a call starts ([measure] cache): warm (the data where the
 * previous call left it) or cold (the backend's cache flush before every call). */
enum fb_cache_mode { FB_CACHE_WARM, FB_CACHE_COLD };
/* "warm", "cold" (as the config and the CSV write them); "?" for a value out of range. */
const char *fb_cache_mode_name(enum fb_cache_mode c);

/* Which backend a run asks for ([backend] backend): auto (the GPU when one answers, else the
 * CPU), cpu or cuda. */
enum fb_backend_choice { FB_BACKEND_AUTO, FB_BACKEND_CPU, FB_BACKEND_CUDA };
/* "auto", "cpu", "cuda" (as the config writes them); "?" for a value out of range. */
const char *fb_backend_choice_name(enum fb_backend_choice b);

/* The format every older results file and every default run has: fp32, normal stores. */
#define FB_FORMAT_DEFAULT ((struct fb_format){FB_DTYPE_FP32, FB_STORES_NORMAL})

/* "fp32", "fp16", "bf16"; "?" for a value out of range. */
const char *fb_dtype_name(enum fb_dtype dtype);
/* Bytes per element: 4, 2, 2. */
size_t fb_dtype_size(enum fb_dtype dtype);
/* "normal", "streaming"; "?" for a value out of range. */
const char *fb_store_kind_name(enum fb_store_kind stores);

/* The dtype or store kind spelled `name` (exactly as the names above). False when none. */
bool fb_dtype_parse(const char *name, enum fb_dtype *dtype);
bool fb_store_kind_parse(const char *name, enum fb_store_kind *stores);

/* Names as read from a results file, spelled the way fusebench writes them, so that keys
 * compare equal: a dtype alias ("float32" -> "fp32", PyTorch's names, which older files and
 * the torch peer wrote); a store kind "" (a file from before the stores column) -> "normal".
 * Other names as given. */
const char *fb_dtype_canonical(const char *dtype);
const char *fb_stores_canonical(const char *stores);

#endif
