/* Loading a configuration: inih reads each line (comment, "[section]" or "key = value", with
 * its inline comment and blanks removed), the key table (keys.c) and the chain parser
 * (chain.c) check the values, and this file adds what an INI parser does not give: the line
 * number of every line, every structural error (not only the first), duplicates, the
 * sections' own rules ([chain NAME]), the checks that need the whole file (sizes expand with
 * the final points_per_decade; min <= max rules) and the content hash. Messages read
 * "path:line: [section] key: message", one per problem, in line order. */
#include "config/config.h"

#include <ctype.h>
#include <stdbool.h>
#include <errno.h>
#include <fcntl.h>
#include <ini.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/checked.h"
#include "common/text.h"
#include "config/keys.h"
#include "config/suggest.h"
#include "config/chain.h"

#define CFG_DEFAULT_SIZES "8..100M"
/* The largest config file read: configs/default.ini is 3 KB; anything near this is not a
 * config (a log, a data file, /dev/zero through a symlink) and is refused before it fills
 * memory. */
#define CFG_FILE_MAX (4u << 20)

void fb_config_defaults(struct fb_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    snprintf(cfg->sizes_spec, sizeof cfg->sizes_spec, "%s", CFG_DEFAULT_SIZES);
    cfg->points_per_decade = 6;
    cfg->variants.all = true;
    cfg->dtypes[0] = FB_DTYPE_FP32;
    cfg->n_dtypes = 1;
    cfg->stores[0] = FB_STORES_NORMAL;
    cfg->n_stores = 1;
    cfg->backend = FB_BACKEND_AUTO;
    cfg->device = 0;
    cfg->cpu_threads = 0;
    cfg->warmup = 3;
    cfg->min_reps = 8; /* below 8 samples the median's 95% interval is not resolvable (stats.h) */
    cfg->max_reps = 200;
    cfg->min_time_s = 0.02;
    cfg->max_time_s = 1.5; /* room for 8 undisturbed samples of a 100M call (~60 ms on 2 CPU
                            * cores) when some are retaken; configs/default.ini in ~2 minutes */
    cfg->target_noise = 0.02;
    cfg->gpu_min_clock = 0.75;  /* FB_DISTURB_MIN_CLOCK_FRACTION */
    cfg->gpu_other_processes = 0;
    cfg->cache = FB_CACHE_WARM;
    cfg->cupti_activity = true;
    cfg->cupti_counters = true;
    snprintf(cfg->csv_path, sizeof cfg->csv_path, "out/{backend}-{device}/default.csv");
    cfg->plot_dir[0] = '\0'; /* beside the results CSV */
    cfg->report = false;
    /* The default text always expands (checked by the tests), so the result is ignored. */
    char msg[CFG_MSG_MAX];
    (void)cfg_expand_sizes(cfg, msg, sizeof msg);
}

/* FNV-1a, 64 bits: h = (h XOR byte) * 1099511628211, from 14695981039346656037. */
static uint64_t cfg_fnv1a64(const unsigned char *p, size_t n)
{
    uint64_t h = 14695981039346656037ULL;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 1099511628211ULL;
    }
    return h;
}

/* ---- the parse state ------------------------------------------------------------------ */

struct cfg_parse {
    struct fb_config *cfg;
    const char *path;
    FILE *diag;
    int errors;

    int line;           /* the line being parsed (1-based) */
    char section[64];   /* the current section, as inih read its header */
    int section_state;  /* 0: none yet, 1: known, 2: a [chain NAME], -1: wrong (reported) */
    int section_line;   /* the line of the current section's header */
    int chain;          /* in a [chain NAME]: its index in cfg->chains */
    bool chain_bad;     /* that chain's ops were refused, or a line of its section was: its
                           later "ops +=" lines and its end say nothing more */

    int key_line[32];   /* per cfg_keys[] entry: the line that set it, 0 if not set */
    int chain_line[FB_MAX_CHAINS]; /* per chain: the line of its header */

    /* Messages are held until the end and written in line order, since the whole-file
     * checks (sizes, min <= max) only run after the last line. */
    struct cfg_msg *msgs;
    size_t n_msgs, cap_msgs;
    int out_of_memory;
};

struct cfg_msg {
    int line;
    size_t seq; /* order of discovery, to keep messages of one line in that order */
    char text[CFG_MSG_MAX + 256];
};

static void cfg_report(struct cfg_parse *p, int line, const char *section, const char *key,
                       const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

static void cfg_report(struct cfg_parse *p, int line, const char *section, const char *key,
                       const char *fmt, ...)
{
    p->errors++;
    if (!p->diag || p->out_of_memory)
        return;
    if (p->n_msgs == p->cap_msgs) {
        size_t cap = p->cap_msgs ? 2 * p->cap_msgs : 16, bytes;
        struct cfg_msg *m = fb_mul_size(cap, sizeof *m, &bytes) ? realloc(p->msgs, bytes)
                                                                 : NULL;
        if (!m) {
            p->out_of_memory = 1;
            return;
        }
        p->msgs = m;
        p->cap_msgs = cap;
    }
    struct cfg_msg *m = &p->msgs[p->n_msgs];
    m->line = line;
    m->seq = p->n_msgs++;
    int len = snprintf(m->text, sizeof m->text, "%s:%d: ", p->path, line);
    if (section && *section && len >= 0 && (size_t)len < sizeof m->text)
        len += snprintf(m->text + len, sizeof m->text - (size_t)len, "[%s] ", section);
    if (key && len >= 0 && (size_t)len < sizeof m->text)
        len += snprintf(m->text + len, sizeof m->text - (size_t)len, "%s: ", key);
    if (len >= 0 && (size_t)len < sizeof m->text) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(m->text + len, sizeof m->text - (size_t)len, fmt, ap);
        va_end(ap);
    }
    /* The message quotes file text: control bytes in it must not reach the terminal raw. */
    fb_text_escape_in_place(m->text, sizeof m->text);
}

static int cfg_msg_cmp(const void *a, const void *b)
{
    const struct cfg_msg *x = a, *y = b;
    if (x->line != y->line)
        return (x->line > y->line) - (x->line < y->line);
    return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Writes the held messages to diag in line order and frees them. */
static void cfg_flush_messages(struct cfg_parse *p)
{
    if (p->n_msgs)
        qsort(p->msgs, p->n_msgs, sizeof *p->msgs, cfg_msg_cmp);
    for (size_t i = 0; i < p->n_msgs; i++)
        fprintf(p->diag, "%s\n", p->msgs[i].text);
    if (p->out_of_memory)
        fprintf(p->diag, "%s: (out of memory: some messages were lost)\n", p->path);
    free(p->msgs);
    p->msgs = NULL;
    p->n_msgs = p->cap_msgs = 0;
}

/* ---- one line through inih ----------------------------------------------------------- */

/* What inih made of one line (cfg_split_line). */
struct cfg_split {
    enum { CFG_LINE_EMPTY, CFG_LINE_SECTION, CFG_LINE_KEY, CFG_LINE_ERROR } kind;
    char section[64]; /* CFG_LINE_SECTION: the name between the brackets */
    char name[INI_MAX_LINE]; /* CFG_LINE_KEY: the key and its value, trimmed, inline comment
                                gone */
    char value[INI_MAX_LINE];
};

/* The stream of one inih call: the lines handed out in turn, then the end. */
struct cfg_stream {
    const char *lines[3];
    int next;
};

/* The probe: a key line after the line under test, so that the handler hears which section
 * inih is in after it (a header changes it; nothing else does). */
#define CFG_PROBE "fusebench_probe = 1"

static char *cfg_stream_read(char *str, int num, void *user)
{
    struct cfg_stream *st = user;
    if (st->next == 3 || !st->lines[st->next])
        return NULL;
    snprintf(str, (size_t)num, "%s\n", st->lines[st->next++]);
    return str;
}

struct cfg_calls {
    int count;
    char section[2][64];
    char name[INI_MAX_LINE];
    char value[INI_MAX_LINE];
};

static int cfg_stream_key(void *user, const char *section, const char *name, const char *value)
{
    struct cfg_calls *c = user;
    if (c->count < 2) {
        snprintf(c->section[c->count], sizeof c->section[0], "%s", section);
        if (c->count == 0) {
            snprintf(c->name, sizeof c->name, "%s", name);
            snprintf(c->value, sizeof c->value, "%s", value);
        }
    }
    c->count++;
    return 1;
}

/* Splits one line the way inih reads it, by asking inih. inih returns only the first error
 * line of a stream, and (built without INI_CALL_HANDLER_ON_NEW_SECTION, as Debian's is)
 * tells the handler nothing on a section header; so each line is its own stream, followed
 * by a probe key that reports the section the line left inih in, and a header with an
 * empty name ("[]", which leaves the section "" as a comment does) is told apart by a second
 * stream that starts in a section. A line alone never continues a previous value, so
 * indented lines are plain lines (the format has no multi-line values). */
static void cfg_split_line(const char *line, struct cfg_split *out)
{
    memset(out, 0, sizeof *out);
    struct cfg_calls calls = {0};
    struct cfg_stream st = {{line, CFG_PROBE, NULL}, 0};
    if (ini_parse_stream(cfg_stream_read, &st, cfg_stream_key, &calls) != 0) {
        out->kind = CFG_LINE_ERROR;
        return;
    }
    if (calls.count == 2) { /* the line's key, then the probe */
        out->kind = CFG_LINE_KEY;
        snprintf(out->name, sizeof out->name, "%s", calls.name);
        snprintf(out->value, sizeof out->value, "%s", calls.value);
        return;
    }
    if (calls.section[0][0]) {
        out->kind = CFG_LINE_SECTION;
        snprintf(out->section, sizeof out->section, "%s", calls.section[0]);
        return;
    }
    struct cfg_calls again = {0};
    struct cfg_stream st2 = {{"[x]", line, CFG_PROBE}, 0};
    (void)ini_parse_stream(cfg_stream_read, &st2, cfg_stream_key, &again);
    out->kind = again.count == 1 && again.section[0][0] == '\0' ? CFG_LINE_SECTION
                                                                  : CFG_LINE_EMPTY;
}

/* ---- sections and keys ---------------------------------------------------------------- */

/* Keeps the line of a [plot] key (0: the command line) for the checks of later stages. */
static void cfg_plot_line(struct fb_config_plot *plot, const char *key, int line)
{
    if (strcmp(key, "charts") == 0)
        plot->charts_line = line;
    else if (strcmp(key, "size") == 0)
        plot->size_line = line;
    else if (strcmp(key, "formats") == 0)
        plot->formats_line = line;
}

#define CFG_VALID_SECTIONS "[sweep], [backend], [measure], [cupti], [output], [plot] or [chain NAME]"

/* A [chain ...] header: the name after "chain" and its blanks, or NULL for another section. */
static const char *cfg_chain_name(const char *section)
{
    if (strncmp(section, "chain", 5) != 0 || (section[5] && !isspace((unsigned char)section[5])))
        return NULL;
    const char *name = section + 5;
    while (isspace((unsigned char)*name))
        name++;
    return name;
}

/* The end of a section: a [chain NAME] must have given its ops. */
static void cfg_end_section(struct cfg_parse *p)
{
    if (p->section_state == 2 && !p->chain_bad && p->cfg->chains[p->chain].chain.n_ops == 0 &&
        p->cfg->chains[p->chain].line == 0)
        cfg_report(p, p->section_line, p->section, "ops",
                   "missing: a chain section needs \"ops = op, op, ...\"");
    p->section_state = 0;
}

static void cfg_begin_chain(struct cfg_parse *p, const char *name)
{
    struct fb_config *cfg = p->cfg;
    char msg[CFG_MSG_MAX];
    p->section_state = -1;
    if (cfg_chain_name_check(name, msg, sizeof msg) != 0) {
        cfg_report(p, p->line, p->section, NULL, "%s", msg);
        return;
    }
    for (size_t i = 0; i < cfg->n_chains; i++)
        if (strcmp(cfg->chains[i].name, name) == 0) {
            cfg_report(p, p->line, p->section, NULL, "duplicate chain name (first defined on "
                       "line %d)", p->chain_line[i]);
            return;
        }
    if (cfg->n_chains == FB_MAX_CHAINS) {
        cfg_report(p, p->line, p->section, NULL, "too many chains: at most %d (FB_MAX_CHAINS)",
                   FB_MAX_CHAINS);
        return;
    }
    p->chain = (int)cfg->n_chains++;
    memset(&cfg->chains[p->chain], 0, sizeof cfg->chains[p->chain]);
    memcpy(cfg->chains[p->chain].name, name, strlen(name) + 1); /* fits: checked above */
    p->chain_line[p->chain] = p->line;
    p->section_state = 2;
    p->chain_bad = false;
}

static void cfg_on_section(struct cfg_parse *p, const char *section)
{
    cfg_end_section(p);
    snprintf(p->section, sizeof p->section, "%s", section);
    p->section_line = p->line;
    const char *chain = cfg_chain_name(section);
    if (chain) {
        char name[sizeof p->section];
        size_t len = strlen(chain);
        while (len > 0 && isspace((unsigned char)chain[len - 1])) /* "[chain x ]" is x */
            len--;
        memcpy(name, chain, len);
        name[len] = '\0';
        cfg_begin_chain(p, name);
        return;
    }
    if (cfg_section_known(section)) {
        p->section_state = 1;
        return;
    }
    p->section_state = -1;
    const char *near = cfg_suggest(section, cfg_sections, cfg_section_count);
    const char *space = strchr(section, ' ');
    char word[16];
    snprintf(word, sizeof word, "%.*s", space ? (int)(space - section) : 15, section);
    const char *chain_word[] = {"chain"};
    if (!near && space && cfg_suggest(word, chain_word, 1))
        cfg_report(p, p->line, section, NULL, "unknown section; did you mean [chain%s]?", space);
    else if (near)
        cfg_report(p, p->line, section, NULL, "unknown section; did you mean [%s]?", near);
    else
        cfg_report(p, p->line, section, NULL, "unknown section (valid: " CFG_VALID_SECTIONS ")");
}

/* Whether name is that of a "KEY += value" line: inih splits at the '=' and drops the blanks
 * before it, so the name is "KEY +" (or "KEY+"). Puts KEY in key. */
static bool cfg_is_append(const char *name, char *key, size_t size)
{
    size_t len = strlen(name);
    if (len == 0 || name[len - 1] != '+')
        return false;
    len--;
    while (len > 0 && isspace((unsigned char)name[len - 1]))
        len--;
    snprintf(key, size, "%.*s", (int)len, name);
    return true;
}

/* "ops += ...": the chain's list goes on (see cfg_chain_append). */
static void cfg_on_chain_append(struct cfg_parse *p, const char *value)
{
    struct fb_config_chain *cc = &p->cfg->chains[p->chain];
    char msg[CFG_MSG_MAX];
    if (p->chain_bad)
        return; /* the list was refused above: what it continues is unknown */
    if (cc->line == 0) {
        cfg_report(p, p->line, p->section, "ops", "\"ops +=\" continues a list that "
                   "\"ops = ...\" starts: give that line first");
        p->chain_bad = true;
        return;
    }
    if (cfg_chain_append(value, &cc->chain, msg, sizeof msg) != 0) {
        cfg_report(p, p->line, p->section, "ops", "%s", msg);
        p->chain_bad = true;
    }
}

static void cfg_on_chain_key(struct cfg_parse *p, const char *name, const char *value)
{
    struct fb_config_chain *cc = &p->cfg->chains[p->chain];
    char msg[CFG_MSG_MAX], key[INI_MAX_LINE];
    if (cfg_is_append(name, key, sizeof key) && strcmp(key, "ops") == 0) {
        cfg_on_chain_append(p, value);
        return;
    }
    if (strcmp(name, "ops") != 0) {
        const char *ops[] = {"ops"};
        const char *near = cfg_suggest(name, ops, 1);
        cfg_report(p, p->line, p->section, name, "unknown key; %s", near
                   ? "did you mean \"ops\"?" : "a chain section has only \"ops\"");
        return;
    }
    if (cc->line) {
        cfg_report(p, p->line, p->section, name, "duplicate key (first set on line %d)",
                   cc->line);
        return;
    }
    cc->line = p->line;
    if (cfg_chain_parse(value, &cc->chain, msg, sizeof msg) != 0) {
        cfg_report(p, p->line, p->section, name, "%s", msg);
        p->chain_bad = true;
    }
}

static void cfg_on_key(struct cfg_parse *p, const char *name, const char *value)
{
    char msg[CFG_MSG_MAX];
    if (p->section_state == -1)
        return; /* the section header was already reported */
    if (*name == '\0') {
        cfg_report(p, p->line, p->section_state ? p->section : NULL, NULL,
                   "expected \"key = value\": the key name is missing");
        return;
    }
    if (p->section_state == 0) {
        const struct cfg_key *k = cfg_key_find(NULL, name);
        if (k)
            cfg_report(p, p->line, NULL, name, "key outside any section; it belongs in [%s]",
                       k->section);
        else
            cfg_report(p, p->line, NULL, name,
                       "key outside any section (start one with " CFG_VALID_SECTIONS ")");
        return;
    }
    if (p->section_state == 2) {
        cfg_on_chain_key(p, name, value);
        return;
    }
    char key[INI_MAX_LINE];
    if (cfg_is_append(name, key, sizeof key) && cfg_key_find(p->section, key)) {
        cfg_report(p, p->line, p->section, key, "\"+=\" continues only a chain's ops "
                   "([chain NAME] ops += ...); give %s once, as \"%s = ...\"", key, key);
        return;
    }
    if (strcmp(p->section, "plot") == 0 && strncmp(name, "label.", 6) == 0) {
        for (size_t i = 0; i < p->cfg->plot.n_labels; i++)
            if (strcmp(p->cfg->plot.labels[i].variant, name + 6) == 0) {
                cfg_report(p, p->line, p->section, name, "duplicate key (first set on line "
                           "%d)", p->cfg->plot.labels[i].line);
                return;
            }
        if (cfg_set_plot_label(p->cfg, name + 6, value, p->line, msg, sizeof msg) != 0)
            cfg_report(p, p->line, p->section, name, "%s", msg);
        return;
    }
    const struct cfg_key *k = cfg_key_find(p->section, name);
    if (!k) {
        cfg_key_hint(p->section, name, msg, sizeof msg);
        cfg_report(p, p->line, p->section, name, "unknown key%s", msg);
        return;
    }
    size_t idx = (size_t)(k - cfg_keys);
    if (p->key_line[idx]) {
        cfg_report(p, p->line, p->section, name, "duplicate key (first set on line %d)",
                   p->key_line[idx]);
        return;
    }
    p->key_line[idx] = p->line;
    if (k->set(p->cfg, value, msg, sizeof msg) != 0) {
        cfg_report(p, p->line, p->section, name, "%s", msg);
        return;
    }
    if (strcmp(k->section, "plot") == 0)
        cfg_plot_line(&p->cfg->plot, k->name, p->line);
    if (strcmp(k->name, "sizes") == 0)
        p->cfg->sizes_line = p->line;
    else if (strcmp(k->name, "csv") == 0)
        p->cfg->csv_line = p->line;
    else if (strcmp(k->name, "variants") == 0)
        p->cfg->variants.line = p->line;
}

/* One physical line (without its line feed). Our part is what no INI parser does: the line
 * number, lines too long for inih's buffer (inih would cut them and read the tail as a line
 * of its own) and NUL bytes (a C string ends there). */
static void cfg_parse_line(struct cfg_parse *p, const char *start, size_t len)
{
    /* A line refused here may have been its chain's ops: the chain says nothing more. */
    if (len + 2 > INI_MAX_LINE) { /* the text, its line feed and the NUL */
        cfg_report(p, p->line, NULL, NULL, "line is %zu characters long; a line may have at "
                   "most %d (FB_CONFIG_LINE_MAX)%s", len, FB_CONFIG_LINE_MAX,
                   p->section_state == 2 ? ": write a long chain over several lines, "
                   "\"ops = op, op, ...\" then \"ops += op, ...\"" : "");
        p->chain_bad = p->chain_bad || p->section_state == 2;
        return;
    }
    if (memchr(start, '\0', len)) {
        cfg_report(p, p->line, NULL, NULL, "line holds a NUL byte (not a text file?)");
        p->chain_bad = p->chain_bad || p->section_state == 2;
        return;
    }
    char text[INI_MAX_LINE];
    memcpy(text, start, len);
    text[len] = '\0';
    struct cfg_split split;
    cfg_split_line(text, &split);
    char *shown = text, *end = text + len;
    while (isspace((unsigned char)*shown))
        shown++;
    while (end > shown && isspace((unsigned char)end[-1]))
        *--end = '\0';
    switch (split.kind) {
    case CFG_LINE_EMPTY:
        break;
    case CFG_LINE_SECTION:
        cfg_on_section(p, split.section);
        break;
    case CFG_LINE_KEY:
        cfg_on_key(p, split.name, split.value);
        break;
    case CFG_LINE_ERROR:
        /* inih refuses a line that is neither a comment, a "[section]" nor "key = value" */
        if (*shown == '[') {
            cfg_report(p, p->line, NULL, NULL, "section header \"%s\" has no closing ']'",
                       shown);
            cfg_end_section(p);
            p->section_state = -1;
        } else {
            cfg_report(p, p->line, p->section_state > 0 ? p->section : NULL, NULL,
                       "expected \"key = value\", got \"%s\"", shown);
            p->chain_bad = p->chain_bad || p->section_state == 2;
        }
        break;
    }
}

/* Splits the file into lines (at line feeds: what fgets does for inih) and parses each. */
static void cfg_parse_text(struct cfg_parse *p, const char *data, size_t size)
{
    size_t pos = 0;
    while (pos < size) {
        const char *start = data + pos;
        const char *nl = memchr(start, '\n', size - pos);
        size_t len = nl ? (size_t)(nl - start) : size - pos;
        pos += len + (nl ? 1 : 0);
        p->line++;
        cfg_parse_line(p, start, len);
    }
    cfg_end_section(p);
}

static int cfg_line_of(const struct cfg_parse *p, const char *name)
{
    const struct cfg_key *k = cfg_key_find(NULL, name);
    return k ? p->key_line[k - cfg_keys] : 0;
}

/* The checks that need the whole file. A min/max conflict is reported on the line of the
 * key that was set in the file (the later one when both were). */
static void cfg_check_whole(struct cfg_parse *p)
{
    struct fb_config *cfg = p->cfg;
    char msg[CFG_MSG_MAX];
    if (cfg_expand_sizes(cfg, msg, sizeof msg) != 0) {
        int line = cfg->sizes_line ? cfg->sizes_line : cfg_line_of(p, "points_per_decade");
        cfg_report(p, line, "sweep", "sizes", "%s", msg);
    }
    if (cfg->min_reps > cfg->max_reps) {
        int a = cfg_line_of(p, "min_reps"), b = cfg_line_of(p, "max_reps");
        cfg_report(p, a > b ? a : b, "measure", a > b ? "min_reps" : "max_reps",
                   "min_reps (%d) is more than max_reps (%d)", cfg->min_reps, cfg->max_reps);
    }
    if (cfg->min_time_s > cfg->max_time_s) {
        int a = cfg_line_of(p, "min_time"), b = cfg_line_of(p, "max_time");
        cfg_report(p, a > b ? a : b, "measure", a > b ? "min_time" : "max_time",
                   "min_time (%g s) is more than max_time (%g s)", cfg->min_time_s,
                   cfg->max_time_s);
    }
}

static const char *cfg_file_kind(mode_t mode)
{
    return S_ISDIR(mode) ? "a directory" : S_ISFIFO(mode) ? "a FIFO" : S_ISCHR(mode) ?
           "a character device" : S_ISBLK(mode) ? "a block device" : S_ISSOCK(mode) ?
           "a socket" : "not a regular file";
}

/* Reads the whole file. Only regular files of at most CFG_FILE_MAX bytes: the open does not
 * block (O_NONBLOCK: a FIFO without a writer would otherwise hang the run before any
 * message), and the size is checked both by fstat and while reading (the file may grow).
 * FB_ERR_USAGE for a file that is not a config, FB_ERR_RUNTIME when it cannot be read. */
static int cfg_read_file(const char *path, char **data, size_t *size, struct fb_error *err)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
    if (fd < 0)
        return fb_fail(err, FB_ERR_RUNTIME, "%s: cannot open: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return fb_fail(err, FB_ERR_RUNTIME, "%s: cannot stat: %s", path, strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return fb_fail(err, FB_ERR_USAGE, "%s: is %s, not a config file (a regular file)", path,
                       cfg_file_kind(st.st_mode));
    }
    if ((uint64_t)st.st_size > CFG_FILE_MAX) {
        close(fd);
        return fb_fail(err, FB_ERR_USAGE, "%s: is %lld bytes; a config file may have at most "
                       "%u (is this the right file?)", path, (long long)st.st_size,
                       CFG_FILE_MAX);
    }
    size_t cap = (size_t)st.st_size + 1, n = 0;
    char *buf = malloc(cap);
    if (!buf) {
        close(fd);
        return fb_fail(err, FB_ERR_RUNTIME, "%s: out of memory reading it", path);
    }
    for (;;) {
        if (n == cap) {
            if (cap > CFG_FILE_MAX) {
                free(buf);
                close(fd);
                return fb_fail(err, FB_ERR_USAGE, "%s: grew past %u bytes while being read; "
                               "a config file may have at most that", path, CFG_FILE_MAX);
            }
            size_t bigger_cap = cap * 2 > CFG_FILE_MAX + 1 ? CFG_FILE_MAX + 1 : cap * 2;
            char *bigger = realloc(buf, bigger_cap);
            if (!bigger) {
                free(buf);
                close(fd);
                return fb_fail(err, FB_ERR_RUNTIME, "%s: out of memory reading it", path);
            }
            buf = bigger;
            cap = bigger_cap;
        }
        ssize_t got = read(fd, buf + n, cap - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            int e = errno;
            free(buf);
            close(fd);
            return fb_fail(err, FB_ERR_RUNTIME, "%s: read error: %s", path, strerror(e));
        }
        if (got == 0)
            break;
        n += (size_t)got;
    }
    close(fd);
    *data = buf;
    *size = n;
    return FB_OK;
}

int fb_config_load(struct fb_config *cfg, const char *path, FILE *diag, struct fb_error *err)
{
    fb_config_defaults(cfg);
    const size_t path_len = strlen(path);
    if (path_len >= sizeof cfg->path)
        return fb_fail(err, FB_ERR_RUNTIME, "config path is too long (%zu characters)",
                       path_len);
    memcpy(cfg->path, path, path_len + 1);

    char *data = NULL;
    size_t size = 0;
    struct fb_error read_err;
    int rc = cfg_read_file(path, &data, &size, &read_err);
    if (rc != FB_OK) {
        fb_text_escape_in_place(read_err.msg, sizeof read_err.msg); /* the path is user text */
        if (rc == FB_ERR_USAGE && diag) /* reported like the file's own errors */
            fprintf(diag, "%s\n", read_err.msg);
        return fb_fail(err, rc, "%s", read_err.msg);
    }
    cfg->content_hash = cfg_fnv1a64((const unsigned char *)data, size);

    struct cfg_parse p = {.cfg = cfg, .path = path, .diag = diag};
    _Static_assert(sizeof p.key_line / sizeof p.key_line[0] >= 19, "key_line too small");
    _Static_assert(FB_CONFIG_LINE_MAX == INI_MAX_LINE - 2, "inih's line buffer changed");
    cfg_parse_text(&p, data, size);
    free(data);

    cfg_check_whole(&p);
    if (p.diag)
        cfg_flush_messages(&p);
    if (p.errors)
        return fb_fail(err, FB_ERR_USAGE, "%s: %d error%s in the configuration", path, p.errors,
                       p.errors == 1 ? "" : "s");
    return FB_OK;
}

/* The "did you mean" message for an override naming no key. */
static int cfg_unknown_override(const char *key, struct fb_error *err)
{
    const char *names[64];
    size_t n = 0;
    for (size_t i = 0; i < cfg_key_count && n < 63; i++)
        names[n++] = cfg_keys[i].name;
    names[n++] = "output";
    const char *near = cfg_suggest(key, names, n);
    if (near)
        return fb_fail(err, FB_ERR_USAGE, "--%s: unknown option; did you mean --%s?", key, near);
    return fb_fail(err, FB_ERR_USAGE, "--%s: unknown option", key);
}

/* Of the overrides that set key a or key b, the one given last (its index), or -1. */
static int cfg_last_of(const struct fb_config_setting *settings, size_t count, const char *a,
                       const char *b)
{
    int last = -1;
    for (size_t i = 0; i < count; i++) {
        const char *name = strcmp(settings[i].key, "output") == 0 ? "csv" : settings[i].key;
        if (strcmp(name, a) == 0 || (b && strcmp(name, b) == 0))
            last = (int)i;
    }
    return last;
}

/* Applies the overrides in order, then checks the rules that tie keys together against the
 * final values, so that "--set max_reps=2 --set min_reps=1" is judged as a whole (each step
 * alone would have min_reps 8 > max_reps 2). A failed rule names the override that took part
 * in it last. */
static int cfg_override_all(struct fb_config *next, const struct fb_config_setting *settings,
                            size_t count, struct fb_error *err)
{
    char msg[CFG_MSG_MAX];
    bool sizes_changed = false;
    for (size_t i = 0; i < count; i++) {
        const char *key = settings[i].key;
        const char *name = strcmp(key, "output") == 0 ? "csv" : key;
        if (strncmp(name, "label.", 6) == 0) {
            if (cfg_set_plot_label(next, name + 6, settings[i].value, 0, msg, sizeof msg) != 0)
                return fb_fail(err, FB_ERR_USAGE, "--%s: %s", key, msg);
            continue;
        }
        const struct cfg_key *k = cfg_key_find(NULL, name);
        if (!k)
            return cfg_unknown_override(key, err);
        if (k->set(next, settings[i].value, msg, sizeof msg) != 0)
            return fb_fail(err, FB_ERR_USAGE, "--%s: %s", key, msg);
        if (strcmp(k->section, "plot") == 0)
            cfg_plot_line(&next->plot, k->name, 0);
        if (strcmp(k->name, "sizes") == 0 || strcmp(k->name, "points_per_decade") == 0)
            sizes_changed = true;
        if (strcmp(k->name, "sizes") == 0)
            next->sizes_line = 0;
        else if (strcmp(k->name, "csv") == 0)
            next->csv_line = 0;
    }
    if (sizes_changed && cfg_expand_sizes(next, msg, sizeof msg) != 0) {
        int who = cfg_last_of(settings, count, "sizes", "points_per_decade");
        return fb_fail(err, FB_ERR_USAGE, "--%s: %s", settings[who].key, msg);
    }
    if (next->min_reps > next->max_reps) {
        int who = cfg_last_of(settings, count, "min_reps", "max_reps");
        if (who >= 0)
            return fb_fail(err, FB_ERR_USAGE,
                           "--%s: min_reps (%d) would be more than max_reps (%d)",
                           settings[who].key, next->min_reps, next->max_reps);
    }
    if (next->min_time_s > next->max_time_s) {
        int who = cfg_last_of(settings, count, "min_time", "max_time");
        if (who >= 0)
            return fb_fail(err, FB_ERR_USAGE,
                           "--%s: min_time (%g s) would be more than max_time (%g s)",
                           settings[who].key, next->min_time_s, next->max_time_s);
    }
    return FB_OK;
}

int fb_config_override_all(struct fb_config *cfg, const struct fb_config_setting *settings,
                           size_t count, struct fb_error *err)
{
    /* Work on a copy so that cfg stays as it was when a value is wrong. */
    struct fb_config *next = malloc(sizeof *next);
    if (!next)
        return fb_fail(err, FB_ERR_RUNTIME, "out of memory applying the overrides");
    *next = *cfg;
    struct fb_error e;
    int rc = cfg_override_all(next, settings, count, &e);
    if (rc == FB_OK)
        *cfg = *next;
    else {
        fb_text_escape_in_place(e.msg, sizeof e.msg); /* it quotes the user's values */
        fb_fail(err, rc, "%s", e.msg);
    }
    free(next);
    return rc;
}

int fb_config_override(struct fb_config *cfg, const char *key, const char *value,
                       struct fb_error *err)
{
    const struct fb_config_setting one = {key, value};
    return fb_config_override_all(cfg, &one, 1, err);
}

size_t fb_config_format_count(const struct fb_config *cfg)
{
    return cfg->n_dtypes * cfg->n_stores;
}

bool fb_config_has_stores(const struct fb_config *cfg, enum fb_store_kind stores)
{
    for (size_t i = 0; i < cfg->n_stores; i++)
        if (cfg->stores[i] == stores)
            return true;
    return false;
}

struct fb_format fb_config_format(const struct fb_config *cfg, size_t i)
{
    if (cfg->n_stores == 0 || i >= fb_config_format_count(cfg))
        return FB_FORMAT_DEFAULT;
    return (struct fb_format){cfg->dtypes[i / cfg->n_stores], cfg->stores[i % cfg->n_stores]};
}
