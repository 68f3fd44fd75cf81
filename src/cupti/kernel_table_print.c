/* Text formatting of the kernel table (the numbers come from kernel_table.c). */
#include "cupti/kernel_table_print.h"

#include <string.h>

void fb_format_duration(char *buf, size_t size, double s)
{
    static const struct { double scale; const char *unit; } units[] = {
        {1.0, "s"}, {1e-3, "ms"}, {1e-6, "us"}, {1e-9, "ns"},
    };
    size_t i = 0;
    while (i + 1 < sizeof(units) / sizeof(units[0]) && s < units[i].scale)
        i++;
    snprintf(buf, size, "%.3f %s", s / units[i].scale, units[i].unit);
}

static void cut_name(char *dst, size_t width, const char *name)
{
    size_t len = strlen(name);
    if (len <= width) {
        memcpy(dst, name, len + 1);
        return;
    }
    memcpy(dst, name, width - 3);
    memcpy(dst + width - 3, "...", 4);
}

int fb_kernel_table_print(FILE *f, const struct fb_kernel_table *table, int name_width)
{
    if (name_width < 8)
        name_width = 8;
    if (name_width > FB_KERNEL_NAME_MAX - 1)
        name_width = FB_KERNEL_NAME_MAX - 1;
    char name[FB_KERNEL_NAME_MAX];
    char tot[32], avg[32], mn[32], mx[32];
    int64_t calls = 0;

    fprintf(f, "%-*s %8s %12s %12s %12s %12s %8s\n", name_width, "Kernel", "Calls", "Total",
            "Avg", "Min", "Max", "% total");
    for (size_t i = 0; i < table->count; i++) {
        const struct fb_kernel_table_row *r = &table->rows[i];
        cut_name(name, (size_t)name_width, r->name);
        fb_format_duration(tot, sizeof(tot), r->total_s);
        fb_format_duration(avg, sizeof(avg), r->avg_s);
        fb_format_duration(mn, sizeof(mn), r->min_s);
        fb_format_duration(mx, sizeof(mx), r->max_s);
        fprintf(f, "%-*s %8lld %12s %12s %12s %12s %7.1f%%\n", name_width, name,
                (long long)r->calls, tot, avg, mn, mx, r->percent);
        calls += r->calls;
    }
    for (int i = 0; i < name_width + 9 + 4 * 13 + 9; i++)
        fputc('-', f);
    fputc('\n', f);
    fb_format_duration(tot, sizeof(tot), table->total_s);
    fprintf(f, "%-*s %8lld %12s\n", name_width, "Total", (long long)calls, tot);
    return ferror(f) ? -1 : 0;
}
