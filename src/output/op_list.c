/* The op table as a markdown page (contract in op_list.h). */
#include "output/op_list.h"

#include "op_table.h"

int fb_op_list_markdown(FILE *out)
{
    fputs("# The elementwise ops\n\n"
          "Generated from the op table, [kernels/op_table.h](../kernels/op_table.h), by\n"
          "`build/fusebench --list-ops > docs/ops.md`: do not edit by hand.\n\n"
          "| op | arity | parameters | ULP bound | exact |\n"
          "|---|---|---|---|---|\n", out);
    for (int i = 0; i < FB_OPID_COUNT; i++) {
        const struct fb_op_info *op = &fb_op_infos[i];
        fprintf(out, "| `%s` | %d (%s) | %s | %d | %s |\n", op->name, op->arity,
                op->arity == 2 ? "binary" : "unary", op->n_params ? op->param_names : "-",
                op->ulp_bound, op->ulp_bound == 0 ? "yes" : "no");
    }
    fputs("\n"
          "- **arity**: a binary op reads a and b, a unary op x; in a chain only the first op\n"
          "  may be binary, the others take the previous result.\n"
          "- **parameters**: written in parentheses in a config, `ops = mul, bias(0.5), relu`.\n"
          "- **ULP bound** and **exact**: an exact op (bound 0) gives the same bits on every\n"
          "  backend; the others call a transcendental function (expf) and are checked\n"
          "  within the bound, in units in the last place of fp32, of a double-precision\n"
          "  reference (the rule:\n"
          "  [kernels/elementwise_contract.h](../kernels/elementwise_contract.h); each bound's\n"
          "  reasons are under the table).\n"
          "- Each op's formula is the comment beside its function `fb_op_NAME` in\n"
          "  [kernels/elementwise_ops.h](../kernels/elementwise_ops.h). Adding an op:\n"
          "  [adding-an-op.md](adding-an-op.md).\n", out);
    return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}
