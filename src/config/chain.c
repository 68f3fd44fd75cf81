/* [chain NAME] sections: names and ops lists, checked against the op table. */
#include "config/chain.h"

#include <ctype.h>
#include <float.h>
#include <stdio.h>
#include <string.h>

#include "config/config.h"
#include "config/keys.h"
#include "config/suggest.h"

/* The one copy of this list (config.h says why it is here). */
const char *const fb_builtin_variant_names[] = {
    "copy", "memcpy", "eager_add_relu", "eager_add_threshold", "fused_add_relu",
    "fused_generic_add_relu", "eager_add_relu_graph",
};
const size_t fb_builtin_variant_name_count =
    sizeof fb_builtin_variant_names / sizeof fb_builtin_variant_names[0];

int cfg_chain_name_check(const char *name, char *msg, size_t n)
{
    size_t len = strlen(name);
    if (len == 0) {
        snprintf(msg, n, "a chain needs a name: [chain NAME]");
        return -1;
    }
    if (len >= FB_CHAIN_NAME_MAX) {
        snprintf(msg, n, "the name is %zu characters long; at most %d", len,
                 FB_CHAIN_NAME_MAX - 1);
        return -1;
    }
    for (const char *c = name; *c; c++)
        if (!(islower((unsigned char)*c) || isdigit((unsigned char)*c) || *c == '_')) {
            snprintf(msg, n, "the name may hold lower-case letters, digits and '_' only (it "
                     "names the variants eager_%s and fused_%s)", name, name);
            return -1;
        }
    for (size_t i = 0; i < fb_builtin_variant_name_count; i++) {
        const char *b = fb_builtin_variant_names[i];
        const char *rest = strncmp(b, "eager_", 6) == 0   ? b + 6
                           : strncmp(b, "fused_", 6) == 0 ? b + 6
                                                           : NULL;
        if (rest && strcmp(rest, name) == 0) {
            snprintf(msg, n, "the name is taken: its variant would be the built-in %s", b);
            return -1;
        }
    }
    return 0;
}

/* [a, b) without the blanks around it. */
static void trim(const char **a, const char **b)
{
    while (*a < *b && isspace((unsigned char)**a))
        (*a)++;
    while (*b > *a && isspace((unsigned char)(*b)[-1]))
        (*b)--;
}

/* "threshold(threshold, value)": how an op is written, for messages. */
static void op_usage(const struct fb_op_info *info, char *buf, size_t size)
{
    if (info->n_params == 0)
        snprintf(buf, size, "%s", info->name);
    else
        snprintf(buf, size, "%s(%s)", info->name, info->param_names);
}

static int unknown_op(const char *name, char *msg, size_t n)
{
    const char *names[FB_OPID_COUNT];
    for (int i = 0; i < FB_OPID_COUNT; i++)
        names[i] = fb_op_infos[i].name;
    const char *near = cfg_suggest(name, names, FB_OPID_COUNT);
    int len = snprintf(msg, n, "unknown op \"%s\"", name);
    if (near && len >= 0 && (size_t)len < n)
        len += snprintf(msg + len, n - (size_t)len, " (did you mean \"%s\"?)", near);
    for (int i = 0; i < FB_OPID_COUNT && len >= 0 && (size_t)len < n; i++) {
        char usage[64];
        op_usage(&fb_op_infos[i], usage, sizeof usage);
        len += snprintf(msg + len, n - (size_t)len, "%s%s", i ? ", " : "; ops: ", usage);
    }
    return -1;
}

/* One item of the list, [a, b) trimmed: "bias(0.5)". */
static int parse_op(const char *a, const char *b, int index, struct fb_chain_op *out, char *msg,
                    size_t n)
{
    char item[160];
    snprintf(item, sizeof item, "%.*s", (int)(b - a), a);
    const char *open = memchr(a, '(', (size_t)(b - a));
    const char *name_end = open ? open : b;
    const char *na = a;
    trim(&na, &name_end);
    char name[64];
    if ((size_t)(name_end - na) >= sizeof name) {
        snprintf(msg, n, "op %d: \"%s\" is not an op name", index + 1, item);
        return -1;
    }
    snprintf(name, sizeof name, "%.*s", (int)(name_end - na), na);
    if (!*name) {
        snprintf(msg, n, "op %d: \"%s\" has no op name", index + 1, item);
        return -1;
    }
    enum fb_op_id id;
    const struct fb_op_info *info = fb_op_lookup(name, &id);
    if (!info)
        return unknown_op(name, msg, n);

    struct fb_chain_op op = {.op = id};
    int given = 0;
    if (open) {
        if (b[-1] != ')') {
            snprintf(msg, n, "op %d: \"%s\" has no closing ')' (or text after it)", index + 1,
                     item);
            return -1;
        }
        const char *p = open + 1, *close = b - 1;
        const char *pa = p, *pb = close;
        trim(&pa, &pb);
        while (pa < pb) { /* "()" gives no parameters */
            const char *comma = memchr(p, ',', (size_t)(close - p));
            const char *end = comma ? comma : close;
            const char *ta = p, *tb = end;
            trim(&ta, &tb);
            char text[64];
            snprintf(text, sizeof text, "%.*s", (int)(tb - ta), ta);
            if (!*text) {
                snprintf(msg, n, "op %d: empty parameter in \"%s\"", index + 1, item);
                return -1;
            }
            if (given < FB_OP_MAX_PARAMS) {
                double v;
                char why[CFG_MSG_MAX];
                /* An fp32 parameter: any finite value a float holds. */
                if (cfg_parse_real(text, -FLT_MAX, 0, FLT_MAX, &v, why, sizeof why) != 0) {
                    snprintf(msg, n, "%s: %s", info->name, why);
                    return -1;
                }
                op.params.v[given] = (float)v;
            }
            given++;
            if (!comma)
                break;
            p = comma + 1;
        }
    }
    if (given != info->n_params) {
        char usage[64];
        op_usage(info, usage, sizeof usage);
        if (info->n_params == 0)
            snprintf(msg, n, "%s takes no parameters, got %d", info->name, given);
        else
            snprintf(msg, n, "%s takes %d parameter%s (%s), got %d: write %s", info->name,
                     info->n_params, info->n_params == 1 ? "" : "s", info->param_names, given,
                     usage);
        return -1;
    }
    if (index > 0 && info->arity == 2) {
        snprintf(msg, n, "op %d, %s: only the first op may be binary (it reads a and b); the "
                 "others take the previous op's result", index + 1, info->name);
        return -1;
    }
    *out = op;
    return 0;
}

/* The ops of value, after the `have` ops of *chain (0 for a chain's first line): the list
 * of cfg_chain_parse, numbered on from have + 1. */
static int parse_list(const char *value, struct fb_chain *chain, int have, char *msg, size_t n)
{
    struct fb_chain c = *chain;
    const char *all_a = value, *all_b = value + strlen(value);
    trim(&all_a, &all_b);
    if (all_a == all_b) {
        snprintf(msg, n, "empty list (give ops separated by commas, e.g. "
                 "\"mul, bias(0.5), relu\")");
        return -1;
    }
    /* Items end at a comma outside parentheses (the commas inside separate parameters). */
    int count = have;
    for (const char *p = value;;) {
        const char *end = p;
        int depth = 0;
        while (*end && !(*end == ',' && depth == 0)) {
            depth += *end == '(' ? 1 : *end == ')' ? -1 : 0;
            end++;
        }
        const char *a = p, *b = end;
        trim(&a, &b);
        if (a == b) {
            snprintf(msg, n, "op %d is empty (give ops separated by commas)", count + 1);
            return -1;
        }
        if (count == FB_CHAIN_MAX_OPS) {
            snprintf(msg, n, "more than %d ops; a chain has at most %d (FB_CHAIN_MAX_OPS)",
                     FB_CHAIN_MAX_OPS, FB_CHAIN_MAX_OPS);
            return -1;
        }
        if (parse_op(a, b, count, &c.ops[count], msg, n) != 0)
            return -1;
        count++;
        if (!*end)
            break;
        p = end + 1;
    }
    c.n_ops = count;
    *chain = c;
    return 0;
}

int cfg_chain_parse(const char *value, struct fb_chain *chain, char *msg, size_t n)
{
    struct fb_chain c = {.n_ops = 0};
    if (parse_list(value, &c, 0, msg, n) != 0)
        return -1;
    *chain = c;
    return 0;
}

int cfg_chain_append(const char *value, struct fb_chain *chain, char *msg, size_t n)
{
    return parse_list(value, chain, chain->n_ops, msg, n);
}
