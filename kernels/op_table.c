#include "op_table.h"

#include <stdio.h>
#include <string.h>

const struct fb_op_info fb_op_infos[FB_OPID_COUNT] = {
#define FB_OP_INFO_ENTRY(op_name, op_arity, op_n_params, op_param_names, op_ulp)               \
    [FB_OPID_##op_name] = {.name = #op_name,                                                   \
                           .arity = (op_arity),                                                \
                           .n_params = (op_n_params),                                          \
                           .param_names = (op_param_names),                                    \
                           .ulp_bound = (op_ulp)},
    FB_OP_TABLE(FB_OP_INFO_ENTRY)
#undef FB_OP_INFO_ENTRY
};

const struct fb_op_info *fb_op_lookup(const char *name, enum fb_op_id *id)
{
    for (int i = 0; i < FB_OPID_COUNT; i++) {
        if (strcmp(fb_op_infos[i].name, name) == 0) {
            if (id)
                *id = (enum fb_op_id)i;
            return &fb_op_infos[i];
        }
    }
    return NULL;
}

int fb_chain_is_exact(const struct fb_chain *chain)
{
    return fb_chain_ulp_bound(chain) == 0;
}

int fb_chain_ulp_bound(const struct fb_chain *chain)
{
    int sum = 0;
    for (int k = 0; k < chain->n_ops && k < FB_CHAIN_MAX_OPS; k++)
        if ((unsigned)chain->ops[k].op < FB_OPID_COUNT)
            sum += fb_op_infos[chain->ops[k].op].ulp_bound;
    return sum;
}

int fb_chain_check(const struct fb_chain *chain, char *msg, unsigned long size)
{
    if (chain->n_ops < 1 || chain->n_ops > FB_CHAIN_MAX_OPS) {
        snprintf(msg, size, "a chain has 1 to %d ops, not %d", FB_CHAIN_MAX_OPS, chain->n_ops);
        return -1;
    }
    for (int k = 0; k < chain->n_ops; k++) {
        if ((unsigned)chain->ops[k].op >= FB_OPID_COUNT) {
            snprintf(msg, size, "op %d: unknown op id %d", k + 1, (int)chain->ops[k].op);
            return -1;
        }
        if (k > 0 && fb_op_infos[chain->ops[k].op].arity != 1) {
            snprintf(msg, size, "op %d: %s is binary; only the first op may be", k + 1,
                     fb_op_infos[chain->ops[k].op].name);
            return -1;
        }
    }
    return 0;
}
