#include "results/point_index.h"

#include <stdlib.h>
#include <string.h>

#include "common/checked.h"

/* ---- the key: one line per axis ---------------------------------------------------------- */

enum key_kind { KEY_TEXT, KEY_DTYPE, KEY_STORES, KEY_INT64 };

struct key_field {
    enum key_kind kind;
    size_t offset; /* offsetof(struct fb_record, field) */
    bool is_variant;
};

#define TEXT(f) {KEY_TEXT, offsetof(struct fb_record, f), false}
static const struct key_field key_fields[] = {
    TEXT(backend),
    TEXT(device),
    {KEY_TEXT, offsetof(struct fb_record, variant), true},
    {KEY_DTYPE, offsetof(struct fb_record, dtype), false},
    {KEY_INT64, offsetof(struct fb_record, n), false},
    TEXT(cache),
    {KEY_STORES, offsetof(struct fb_record, stores), false},
};
#undef TEXT
#define KEY_FIELDS (sizeof key_fields / sizeof key_fields[0])

static bool field_equal(const struct key_field *f, const struct fb_record *a,
                        const struct fb_record *b)
{
    const char *x = (const char *)a + f->offset, *y = (const char *)b + f->offset;
    switch (f->kind) {
    case KEY_TEXT: return strcmp(x, y) == 0;
    case KEY_DTYPE: return strcmp(fb_dtype_canonical(x), fb_dtype_canonical(y)) == 0;
    case KEY_STORES: return strcmp(fb_stores_canonical(x), fb_stores_canonical(y)) == 0;
    case KEY_INT64: return memcmp(x, y, sizeof(int64_t)) == 0;
    }
    return false;
}

static bool key_equal(const struct fb_record *a, const struct fb_record *b, bool with_variant)
{
    for (size_t i = 0; i < KEY_FIELDS; i++)
        if ((with_variant || !key_fields[i].is_variant) && !field_equal(&key_fields[i], a, b))
            return false;
    return true;
}

bool fb_point_key_equal(const struct fb_record *a, const struct fb_record *b)
{
    return key_equal(a, b, true);
}

bool fb_point_key_equal_but_variant(const struct fb_record *a, const struct fb_record *b)
{
    return key_equal(a, b, false);
}

/* FNV-1a over the key fields, each followed by a 0xFF separator so that ("ab","c") and
 * ("a","bc") differ. */
static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *s = p;
    for (size_t i = 0; i < n; i++) {
        h ^= s[i];
        h *= 1099511628211ULL;
    }
    h ^= 0xFF;
    return h * 1099511628211ULL;
}

uint64_t fb_point_key_hash(const struct fb_record *r)
{
    uint64_t h = 14695981039346656037ULL;
    for (size_t i = 0; i < KEY_FIELDS; i++) {
        const char *x = (const char *)r + key_fields[i].offset;
        switch (key_fields[i].kind) {
        case KEY_TEXT: h = fnv(h, x, strlen(x)); break;
        case KEY_DTYPE: x = fb_dtype_canonical(x); h = fnv(h, x, strlen(x)); break;
        case KEY_STORES: x = fb_stores_canonical(x); h = fnv(h, x, strlen(x)); break;
        case KEY_INT64: h = fnv(h, x, sizeof(int64_t)); break;
        }
    }
    return h;
}

/* ---- the index: linear probing, kept at most half full ------------------------------------ */

void fb_point_index_init(struct fb_point_index *ix)
{
    memset(ix, 0, sizeof *ix);
}

void fb_point_index_free(struct fb_point_index *ix)
{
    free(ix->slots);
    memset(ix, 0, sizeof *ix);
}

/* The slot holding key, or the empty slot where it would go. */
static size_t slot_of(const struct fb_point_index *ix, const struct fb_record *records,
                      const struct fb_record *key)
{
    size_t mask = ix->cap - 1, i = (size_t)fb_point_key_hash(key) & mask;
    while (ix->slots[i] && !fb_point_key_equal(&records[ix->slots[i] - 1], key))
        i = (i + 1) & mask;
    return i;
}

ptrdiff_t fb_point_index_find(const struct fb_point_index *ix, const struct fb_record *records,
                              const struct fb_record *key)
{
    if (ix->cap == 0)
        return -1;
    size_t i = slot_of(ix, records, key);
    return ix->slots[i] ? (ptrdiff_t)(ix->slots[i] - 1) : -1;
}

static int grow(struct fb_point_index *ix, const struct fb_record *records)
{
    size_t cap = ix->cap ? ix->cap * 2 : 64, bytes;
    if (!fb_mul_size(cap, sizeof *ix->slots, &bytes))
        return -1;
    size_t *slots = calloc(1, bytes);
    if (!slots)
        return -1;
    struct fb_point_index bigger = {slots, cap, 0};
    for (size_t i = 0; i < ix->cap; i++)
        if (ix->slots[i]) {
            bigger.slots[slot_of(&bigger, records, &records[ix->slots[i] - 1])] = ix->slots[i];
            bigger.used++;
        }
    free(ix->slots);
    *ix = bigger;
    return 0;
}

int fb_point_index_put(struct fb_point_index *ix, const struct fb_record *records, size_t pos)
{
    if ((ix->used + 1) * 2 > ix->cap && grow(ix, records) != 0)
        return -1;
    size_t i = slot_of(ix, records, &records[pos]);
    if (!ix->slots[i])
        ix->used++;
    ix->slots[i] = pos + 1;
    return 0;
}
