/* The kernel table as text, in the spirit of torch.profiler's table():
 *
 *   Kernel                      Calls     Total      Avg      Min      Max  % total
 *   add                           100  1.234 ms  12.34 us  ...
 *   -----
 *   Total                         200  2.345 ms
 *
 * Times use the unit that suits the value (ns, us, ms, s), three significant decimals. */
#ifndef FB_CUPTI_KERNEL_TABLE_PRINT_H
#define FB_CUPTI_KERNEL_TABLE_PRINT_H

#include <stdio.h>

#include "cupti/kernel_table.h"

/* Writes `table` to f; names longer than name_width (>= 8) are cut with "..." at the end.
 * Returns 0, or -1 if writing failed (ferror). */
int fb_kernel_table_print(FILE *f, const struct fb_kernel_table *table, int name_width);

/* Formats seconds s into buf with a unit (e.g. "12.345 us"); buf of at least 16 bytes. */
void fb_format_duration(char *buf, size_t size, double s);

#endif
