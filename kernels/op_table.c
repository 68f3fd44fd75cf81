#include "op_table.h"

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
