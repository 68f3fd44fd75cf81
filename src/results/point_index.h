/* The identity of a measured point, and a hash index over an array of records by it.
 *
 * Two rows measure the same point when every key field is equal: backend, device, variant,
 * dtype (aliases such as "float32" = "fp32" compare equal), n, cache mode and stores (a file
 * without the column reads as "normal"). The fields are
 * one table in point_index.c: a new axis of the plan is one line there, and
 * --resume, the results store and the summary all follow. */
#ifndef FB_OUTPUT_POINT_INDEX_H
#define FB_OUTPUT_POINT_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/format.h"
#include "measure/record.h"

/* Whether a and b are the same point (all key fields equal). */
bool fb_point_key_equal(const struct fb_record *a, const struct fb_record *b);

/* Whether a and b are the same point except for the variant: the rows a speedup or a copy
 * fraction may pair. */
bool fb_point_key_equal_but_variant(const struct fb_record *a, const struct fb_record *b);

/* A 64-bit hash of the key fields (equal keys hash equal). */
uint64_t fb_point_key_hash(const struct fb_record *r);

/* fb_dtype_canonical, fb_stores_canonical: common/format.h */

/* An open-addressing hash table of indices into a caller-owned record array. The array may
 * be reallocated freely (the index holds positions, not pointers); a record whose key
 * changes must be removed and re-added, which the users here never need. */
struct fb_point_index {
    size_t *slots; /* record position + 1; 0 = empty */
    size_t cap;    /* a power of two, or 0 */
    size_t used;
};

/* Empty index (no allocation until the first insert). */
void fb_point_index_init(struct fb_point_index *ix);
void fb_point_index_free(struct fb_point_index *ix);

/* Position of the record in records[] with the same key as `key`, or -1 (as ptrdiff_t). */
ptrdiff_t fb_point_index_find(const struct fb_point_index *ix, const struct fb_record *records,
                              const struct fb_record *key);

/* Records that records[pos] holds its key (replacing the position stored for an equal key).
 * Returns 0, or -1 when out of memory (the index is then unchanged). Expected O(1). */
int fb_point_index_put(struct fb_point_index *ix, const struct fb_record *records, size_t pos);

#endif
