#include "common/format.h"

#include <string.h>

static const char *const dtype_names[FB_DTYPE_COUNT] = {"fp32", "fp16", "bf16"};
static const size_t dtype_sizes[FB_DTYPE_COUNT] = {4, 2, 2};
static const char *const store_names[FB_STORES_COUNT] = {"normal", "streaming"};

const char *fb_dtype_name(enum fb_dtype dtype)
{
    return (unsigned)dtype < FB_DTYPE_COUNT ? dtype_names[dtype] : "?";
}

size_t fb_dtype_size(enum fb_dtype dtype)
{
    return (unsigned)dtype < FB_DTYPE_COUNT ? dtype_sizes[dtype] : 0;
}

const char *fb_store_kind_name(enum fb_store_kind stores)
{
    return (unsigned)stores < FB_STORES_COUNT ? store_names[stores] : "?";
}

bool fb_dtype_parse(const char *name, enum fb_dtype *dtype)
{
    for (int i = 0; i < FB_DTYPE_COUNT; i++)
        if (strcmp(name, dtype_names[i]) == 0) {
            *dtype = (enum fb_dtype)i;
            return true;
        }
    return false;
}

bool fb_store_kind_parse(const char *name, enum fb_store_kind *stores)
{
    for (int i = 0; i < FB_STORES_COUNT; i++)
        if (strcmp(name, store_names[i]) == 0) {
            *stores = (enum fb_store_kind)i;
            return true;
        }
    return false;
}

const char *fb_dtype_canonical(const char *dtype)
{
    /* Older fusebench files and the torch peer write PyTorch's names. */
    static const char *const alias[][2] = {
        {"float32", "fp32"}, {"float16", "fp16"}, {"bfloat16", "bf16"}, {"float64", "fp64"},
    };
    for (size_t i = 0; i < sizeof alias / sizeof alias[0]; i++)
        if (strcmp(dtype, alias[i][0]) == 0)
            return alias[i][1];
    return dtype;
}

const char *fb_stores_canonical(const char *stores)
{
    /* Files written before the stores axis have no column: their stores were normal. */
    return stores[0] ? stores : "normal";
}

const char *fb_cache_mode_name(enum fb_cache_mode c)
{
    switch (c) {
    case FB_CACHE_WARM: return "warm";
    case FB_CACHE_COLD: return "cold";
    }
    return "?";
}

const char *fb_backend_choice_name(enum fb_backend_choice b)
{
    switch (b) {
    case FB_BACKEND_AUTO: return "auto";
    case FB_BACKEND_CPU: return "cpu";
    case FB_BACKEND_CUDA: return "cuda";
    }
    return "?";
}
