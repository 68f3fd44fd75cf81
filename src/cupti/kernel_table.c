/* Grouping a trace by kernel name. Few distinct names (a variant has 1 or 2 kernels), so
 * a linear search per record is simpler than a hash and just as fast here. */
#include "cupti/kernel_table.h"

#include <stdlib.h>
#include <string.h>

static int by_total_desc(const void *pa, const void *pb)
{
    const struct fb_kernel_table_row *a = pa, *b = pb;
    if (a->total_s != b->total_s)
        return a->total_s > b->total_s ? -1 : 1;
    return strcmp(a->name, b->name);
}

static struct fb_kernel_table_row *find_or_add(struct fb_kernel_table *tab, size_t *cap,
                                               const char *name)
{
    for (size_t i = 0; i < tab->count; i++)
        if (strcmp(tab->rows[i].name, name) == 0)
            return &tab->rows[i];
    if (tab->count == *cap) {
        size_t c = *cap ? 2 * *cap : 8;
        struct fb_kernel_table_row *p = realloc(tab->rows, c * sizeof(*p));
        if (!p)
            return NULL;
        tab->rows = p;
        *cap = c;
    }
    struct fb_kernel_table_row *row = &tab->rows[tab->count++];
    memset(row, 0, sizeof(*row));
    size_t len = strlen(name);
    if (len > sizeof(row->name) - 1)
        len = sizeof(row->name) - 1;
    memcpy(row->name, name, len); /* memset above left the terminator */
    return row;
}

int fb_kernel_table_build(const struct fb_kernel_trace *t, struct fb_kernel_table *out,
                          struct fb_error *err)
{
    memset(out, 0, sizeof(*out));
    size_t cap = 0;
    for (size_t i = 0; i < t->count; i++) {
        const struct fb_kernel_record *r = &t->items[i];
        const bool kernel = r->kind == FB_TRACE_KERNEL &&
                            (t->stream_id == FB_STREAM_ANY || r->stream_id == t->stream_id);
        if (!kernel && r->kind != FB_TRACE_PLATFORM)
            continue;
        struct fb_kernel_table_row *row = find_or_add(out, &cap, r->name);
        if (!row)
            return fb_fail(err, FB_ERR_RUNTIME, "kernel table: out of memory");
        double s = r->end_ns > r->start_ns ? (double)(r->end_ns - r->start_ns) * 1e-9 : 0.0;
        if (row->calls == 0 || s < row->min_s)
            row->min_s = s;
        if (row->calls == 0 || s > row->max_s)
            row->max_s = s;
        row->calls++;
        row->total_s += s;
    }
    for (size_t i = 0; i < out->count; i++) {
        out->rows[i].avg_s = out->rows[i].total_s / (double)out->rows[i].calls;
        out->total_s += out->rows[i].total_s;
    }
    for (size_t i = 0; i < out->count; i++)
        out->rows[i].percent = out->total_s > 0 ? 100.0 * out->rows[i].total_s / out->total_s
                                                : 0.0;
    if (out->count > 1) /* qsort's array must not be NULL, even for 0 rows */
        qsort(out->rows, out->count, sizeof(*out->rows), by_total_desc);
    return FB_OK;
}

void fb_kernel_table_free(struct fb_kernel_table *table)
{
    free(table->rows);
    memset(table, 0, sizeof(*table));
}
