/* The op table as a markdown page (fusebench --list-ops): the one list of the ops that the
 * docs hold, docs/ops.md, is this page as printed, so it cannot drift from the table
 * (tests/docs/test_ops_doc.py compares them byte for byte). */
#ifndef FB_OUTPUT_OP_LIST_H
#define FB_OUTPUT_OP_LIST_H

#include <stdio.h>

/* Writes to out a header saying the page is generated and by which command, then one table
 * row per op of kernels/op_table.h in table order (op, arity, parameters, ULP bound, exact:
 * what the table holds), then what the columns mean, with links relative to docs/. Returns 0,
 * or -1 when a write failed (ferror after a flush). */
int fb_op_list_markdown(FILE *out);

#endif
