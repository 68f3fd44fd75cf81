/* [chain NAME] sections: the chain's name and its `ops` list, checked against the op table
 * (kernels/op_table.h). Internal to src/config. */
#ifndef FB_CONFIG_CHAIN_H
#define FB_CONFIG_CHAIN_H

#include <stddef.h>

#include "op_table.h"

/* Checks a chain's NAME (the text after "chain " in the section header): 1 to
 * FB_CHAIN_NAME_MAX - 1 characters of lower-case letters, digits and '_', and not a name
 * whose variants (eager_NAME, fused_NAME) would be a built-in variant's name
 * (fb_builtin_variant_names). Returns 0, or -1 with the reason in msg. */
int cfg_chain_name_check(const char *name, char *msg, size_t n);

/* Parses an ops value, "mul, bias(0.5), relu": ops of the table separated by commas, each
 * with its parameters in parentheses (as many as the table says, real numbers with the
 * syntax of every real value), blanks allowed around every item. At least one op, at most
 * FB_CHAIN_MAX_OPS, only the first binary. Returns 0 with the chain in *chain, or -1 with
 * the first problem in msg (and *chain unchanged). */
int cfg_chain_parse(const char *value, struct fb_chain *chain, char *msg, size_t n);

/* Parses the value of an `ops += ...` line, which continues the chain: its ops are added after
 * the chain's (at most FB_CHAIN_MAX_OPS in all, none binary, numbered on in messages: "op 9:
 * ..."). Returns 0 with *chain longer, or -1 with the first problem in msg (*chain unchanged). */
int cfg_chain_append(const char *value, struct fb_chain *chain, char *msg, size_t n);

#endif
