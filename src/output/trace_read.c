/* Reading fusebench's own traces back (contract in trace_read.h). */
#include "output/trace_read.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/text.h"
#include "results/atomic_file.h"

/* How deep objects nest: fusebench writes two levels (an event and its args); the bound keeps
 * the recursive parser's stack small whatever a line holds (50,000 levels overflowed it). */
#define MAX_DEPTH 8

/* The fields of one line that the reader uses, whatever their order. */
struct event {
    char name[FB_KERNEL_NAME_MAX], cat[16], ph[4];
    char arg_name[FB_KERNEL_NAME_MAX], arg_labels[FB_KERNEL_NAME_MAX];
    long long pid, tid, call;
    bool has_pid, has_ts, has_dur;
    uint64_t ts_ns, dur_ns;
    /* otherData */
    char version[64], backend[32], device[256], timing[256];
    long long n, calls;
};

struct parser {
    const char *p;
    struct event *ev;
    int depth;       /* objects open around p */
    const char *why; /* why the line was refused, when not for its JSON */
};

static void skip_space(struct parser *j)
{
    while (*j->p == ' ' || *j->p == '\t' || *j->p == '\r')
        j->p++;
}

/* Appends the UTF-8 of code point cp to out (len so far, size bytes). */
static void put_utf8(char *out, size_t size, size_t *len, unsigned cp)
{
    char b[4];
    size_t n = 0;
    if (cp < 0x80) {
        b[n++] = (char)cp;
    } else if (cp < 0x800) {
        b[n++] = (char)(0xC0 | cp >> 6);
        b[n++] = (char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        b[n++] = (char)(0xE0 | cp >> 12);
        b[n++] = (char)(0x80 | (cp >> 6 & 0x3F));
        b[n++] = (char)(0x80 | (cp & 0x3F));
    } else {
        b[n++] = (char)(0xF0 | cp >> 18);
        b[n++] = (char)(0x80 | (cp >> 12 & 0x3F));
        b[n++] = (char)(0x80 | (cp >> 6 & 0x3F));
        b[n++] = (char)(0x80 | (cp & 0x3F));
    }
    if (*len + n < size) {
        memcpy(out + *len, b, n);
        *len += n;
    }
}

static bool hex4(const char *p, unsigned *v)
{
    *v = 0;
    for (int i = 0; i < 4; i++) {
        if (!isxdigit((unsigned char)p[i]))
            return false;
        *v = *v * 16 + (unsigned)(isdigit((unsigned char)p[i]) ? p[i] - '0'
                                                               : (tolower(p[i]) - 'a' + 10));
    }
    return true;
}

/* A JSON string into out (cut to size - 1 bytes, NUL-terminated). */
static bool parse_string(struct parser *j, char *out, size_t size)
{
    size_t len = 0;
    if (*j->p != '"')
        return false;
    j->p++;
    while (*j->p && *j->p != '"') {
        unsigned char c = (unsigned char)*j->p;
        if (c < 0x20)
            return false;
        if (c != '\\') {
            if (len + 1 < size)
                out[len++] = (char)c;
            j->p++;
            continue;
        }
        const char e = j->p[1];
        const char *simple = strchr("\"\\/bfnrt", e);
        if (e && simple) {
            static const char decoded[] = "\"\\/\b\f\n\r\t";
            if (len + 1 < size)
                out[len++] = decoded[simple - "\"\\/bfnrt"];
            j->p += 2;
            continue;
        }
        unsigned cp, low;
        if (e != 'u' || !hex4(j->p + 2, &cp))
            return false;
        j->p += 6;
        if (cp >= 0xD800 && cp < 0xDC00 && j->p[0] == '\\' && j->p[1] == 'u' &&
            hex4(j->p + 2, &low) && low >= 0xDC00 && low < 0xE000) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            j->p += 6;
        } else if (cp >= 0xD800 && cp < 0xE000) {
            return false; /* a lone surrogate */
        }
        put_utf8(out, size, &len, cp);
    }
    if (*j->p != '"')
        return false;
    j->p++;
    out[size ? (len < size ? len : size - 1) : 0] = '\0';
    return true;
}

/* A JSON number's text; *ns its value times 1000 when it is a non-negative decimal of at
 * most 15 digits and 3 decimals (the writer's microseconds, read back exactly as ns), else
 * *exact false (then a ts or dur is refused). */
static bool parse_number(struct parser *j, double *value, uint64_t *ns, bool *exact)
{
    const char *start = j->p;
    char *end;
    /* JSON's numbers only: strtod also takes "nan", "inf" and hexadecimal */
    const char *first = start + (*start == '-');
    if (!isdigit((unsigned char)first[0]) || (first[0] == '0' && (first[1] | 0x20) == 'x'))
        return false;
    errno = 0;
    *value = strtod(start, &end);
    if (end == start || errno == ERANGE)
        return false;
    *exact = false;
    uint64_t whole = 0, frac = 0;
    int digits = 0, decimals = -1;
    const char *p = start;
    /* at most 15 digits of us (31 years): ts + dur in ns stays far below 2^64 */
    for (; isdigit((unsigned char)*p) && digits < 15; p++, digits++)
        whole = whole * 10 + (uint64_t)(*p - '0');
    if (p > start && (*p == '.' || p == end)) {
        if (*p == '.')
            for (p++, decimals = 0; isdigit((unsigned char)*p) && decimals < 3; p++, decimals++)
                frac = frac * 10 + (uint64_t)(*p - '0');
        if (p == end) {
            for (int d = decimals < 0 ? 0 : decimals; d < 3; d++)
                frac *= 10;
            *ns = whole * 1000 + frac;
            *exact = true;
        }
    }
    j->p = end;
    return true;
}

static bool parse_object(struct parser *j, const char *path);

/* v as a long long into *out when it is one (no cast outside the range: undefined; 2^63 is
 * exact in a double, so the bounds are too); else the line is refused. */
static bool integer(struct parser *j, double v, long long *out)
{
    if (!(v >= -9223372036854775808.0 && v < 9223372036854775808.0)) {
        j->why = "a number out of the range of its field";
        return false;
    }
    *out = (long long)v;
    return true;
}

/* One value at path ("name", "args.call", "otherData.device"), kept when the event uses it. */
static bool parse_value(struct parser *j, const char *path)
{
    struct event *ev = j->ev;
    skip_space(j);
    if (*j->p == '{')
        return parse_object(j, path);
    if (*j->p == '"') {
        char scratch[2];
        char *out = scratch;
        size_t size = sizeof scratch;
        static const struct {
            const char *key;
            size_t offset, size;
        } strings[] = {
            {"name", offsetof(struct event, name), sizeof ((struct event *)0)->name},
            {"cat", offsetof(struct event, cat), sizeof ((struct event *)0)->cat},
            {"ph", offsetof(struct event, ph), sizeof ((struct event *)0)->ph},
            {"args.name", offsetof(struct event, arg_name), sizeof ((struct event *)0)->arg_name},
            {"args.labels", offsetof(struct event, arg_labels),
             sizeof ((struct event *)0)->arg_labels},
            {"otherData.version", offsetof(struct event, version),
             sizeof ((struct event *)0)->version},
            {"otherData.backend", offsetof(struct event, backend),
             sizeof ((struct event *)0)->backend},
            {"otherData.device", offsetof(struct event, device), sizeof ((struct event *)0)->device},
            {"otherData.timing", offsetof(struct event, timing), sizeof ((struct event *)0)->timing},
        };
        for (size_t i = 0; i < sizeof strings / sizeof strings[0]; i++)
            if (strcmp(path, strings[i].key) == 0) {
                out = (char *)ev + strings[i].offset;
                size = strings[i].size;
            }
        return parse_string(j, out, size);
    }
    double v;
    uint64_t ns = 0;
    bool exact;
    if (!parse_number(j, &v, &ns, &exact))
        return false;
    if (strcmp(path, "pid") == 0)
        return ev->has_pid = integer(j, v, &ev->pid);
    else if (strcmp(path, "tid") == 0)
        return integer(j, v, &ev->tid);
    else if (strcmp(path, "args.call") == 0)
        return integer(j, v, &ev->call);
    else if (strcmp(path, "otherData.n") == 0)
        return integer(j, v, &ev->n);
    else if (strcmp(path, "otherData.calls") == 0)
        return integer(j, v, &ev->calls);
    else if (strcmp(path, "ts") == 0)
        ev->ts_ns = ns, ev->has_ts = exact;
    else if (strcmp(path, "dur") == 0)
        ev->dur_ns = ns, ev->has_dur = exact;
    return true;
}

static bool parse_object(struct parser *j, const char *path)
{
    if (*j->p != '{')
        return false;
    if (++j->depth > MAX_DEPTH) {
        j->why = "objects nested deeper than a fusebench trace nests them";
        return false;
    }
    j->p++;
    skip_space(j);
    if (*j->p == '}') {
        j->p++;
        j->depth--;
        return true;
    }
    for (;;) {
        skip_space(j);
        char key[32], sub[72];
        if (!parse_string(j, key, sizeof key))
            return false;
        skip_space(j);
        if (*j->p != ':')
            return false;
        j->p++;
        snprintf(sub, sizeof sub, "%s%s%s", path, path[0] ? "." : "", key);
        if (!parse_value(j, sub))
            return false;
        skip_space(j);
        if (*j->p == ',') {
            j->p++;
            continue;
        }
        if (*j->p != '}')
            return false;
        j->p++;
        j->depth--;
        return true;
    }
}

/* One event line ("{...}" or "{...},") into *ev. On false, *why says why when the line is
 * JSON fusebench does not write (else NULL: not JSON). */
static bool parse_line(const char *line, const char *path, struct event *ev, const char **why)
{
    memset(ev, 0, sizeof *ev);
    ev->call = -1;
    struct parser j = {line, ev, 0, NULL};
    *why = NULL;
    if (!parse_object(&j, path)) {
        *why = j.why;
        return false;
    }
    skip_space(&j);
    if (*j.p == ',')
        j.p++;
    skip_space(&j);
    return *j.p == '\0' || *j.p == '\n';
}

static int fail_at(struct fb_error *err, const char *path, long line, const char *why)
{
    char shown[1024];
    return fb_fail(err, FB_ERR_USAGE, "%s:%ld: %s", fb_text_escape(shown, sizeof shown, path),
                   line, why);
}

/* Applies one event of a fusebench trace. */
static int apply(struct fb_trace_read *t, const struct event *ev, const char *path, long line,
                 size_t *events, struct fb_error *err)
{
    if (!ev->has_pid || ev->pid < 0 || ev->pid > FB_TRACE_READ_MAX_TRACKS)
        return fail_at(err, path, line, "an event without a process of the trace");
    if (ev->pid == 0)
        return FB_OK; /* the trace's own name */
    const size_t k = (size_t)ev->pid - 1;
    if (strcmp(ev->ph, "M") == 0) {
        if (strcmp(ev->name, "process_name") == 0) {
            if (k != t->count)
                return fail_at(err, path, line, "the processes are not numbered 1, 2, ...");
            snprintf(t->names[k], sizeof t->names[k], "%s", ev->arg_name);
            fb_kernel_trace_init(&t->traces[k], FB_STREAM_ANY);
            t->count++;
        } else if (k < t->count && strcmp(ev->name, "process_labels") == 0) {
            snprintf(t->descriptions[k], sizeof t->descriptions[k], "%s", ev->arg_labels);
        } else if (k < t->count && strcmp(ev->name, "thread_name") == 0 &&
                   ev->tid == FB_TRACE_TID_KERNELS) {
            snprintf(t->kernels_names[k], sizeof t->kernels_names[k], "%s", ev->arg_name);
        }
        return FB_OK;
    }
    if (k >= t->count)
        return fail_at(err, path, line, "an event of a process not named before it");
    struct fb_kernel_record r = {.stream_id = 0, .correlation_id = (uint32_t)ev->call};
    if (strcmp(ev->ph, "i") == 0 && strcmp(ev->cat, "launch") == 0 && ev->has_ts) {
        r.kind = FB_TRACE_LAUNCH;
        r.start_ns = r.end_ns = ev->ts_ns;
    } else if (strcmp(ev->ph, "X") == 0 && ev->has_ts && ev->has_dur &&
               (strcmp(ev->cat, "kernel") == 0 || strcmp(ev->cat, "platform") == 0)) {
        r.kind = ev->cat[0] == 'k' ? FB_TRACE_KERNEL : FB_TRACE_PLATFORM;
        r.start_ns = ev->ts_ns;
        r.end_ns = ev->ts_ns + ev->dur_ns;
    } else {
        return fail_at(err, path, line, "an event that is not one of fusebench's (a kernel, "
                       "platform call or launch with its time)");
    }
    if (ev->call < 0 || ev->call > UINT32_MAX)
        return fail_at(err, path, line, "an event without its call (args.call)");
    if (++*events > FB_TRACE_READ_MAX_EVENTS)
        return fail_at(err, path, line, "more events than a fusebench trace holds");
    snprintf(r.name, sizeof r.name, "%s", ev->name);
    return fb_kernel_trace_append(&t->traces[k], &r, err);
}

/* Opens path into *f when it is a regular file of at most FB_TRACE_READ_MAX_BYTES. The open
 * does not block (O_NONBLOCK: a FIFO without a writer would hang it) and a device, FIFO or
 * directory is refused before a byte is read (a link to /dev/zero grew without bound). */
static int open_trace(const char *path, FILE **f, struct fb_error *err)
{
    char shown[1024];
    fb_text_escape(shown, sizeof shown, path);
    const int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    struct stat st;
    int rc;
    if (fd < 0 || fstat(fd, &st) != 0)
        rc = fb_fail(err, FB_ERR_USAGE, "%s: cannot open the trace: %s", shown, strerror(errno));
    else if (!S_ISREG(st.st_mode))
        rc = fb_fail(err, FB_ERR_USAGE, "%s: is %s, not a trace (a regular file)", shown,
                     fb_file_kind(&st));
    else if ((unsigned long long)st.st_size > FB_TRACE_READ_MAX_BYTES)
        rc = fb_fail(err, FB_ERR_USAGE, "%s: is %lld bytes; a fusebench trace has at most %llu",
                     shown, (long long)st.st_size, (unsigned long long)FB_TRACE_READ_MAX_BYTES);
    else if ((*f = fdopen(fd, "rb")) != NULL)
        return FB_OK;
    else
        rc = fb_fail(err, FB_ERR_RUNTIME, "%s: cannot open the trace: %s", shown, strerror(errno));
    if (fd >= 0)
        close(fd);
    return rc;
}

int fb_trace_read(const char *path, struct fb_trace_read *t, struct fb_error *err)
{
    memset(t, 0, sizeof *t);
    FILE *f;
    const int opened = open_trace(path, &f, err);
    if (opened != FB_OK)
        return opened;
    char shown[1024];
    struct event *ev = malloc(sizeof *ev);
    char *line = NULL;
    const char *why = NULL; /* parse_line's, when the line got that far */
    size_t cap = 0, events = 0, bytes = 0;
    long number = 0;
    int rc = ev ? FB_OK : fb_fail(err, FB_ERR_RUNTIME, "trace: out of memory");
    ssize_t got;
    errno = 0;
    while (rc == FB_OK && (got = getline(&line, &cap, f)) >= 0) {
        number++;
        bytes += (size_t)got;
        if (bytes > FB_TRACE_READ_MAX_BYTES) /* the file grew while being read */
            rc = fail_at(err, path, number, "more bytes than a fusebench trace holds");
        else if (memchr(line, '\0', (size_t)got))
            rc = fail_at(err, path, number, "a NUL byte: not a fusebench trace");
        else if (number == 1) {
            const size_t sig = strlen(FB_TRACE_JSON_SIGNATURE), head = strlen("{\"otherData\": ");
            if (strncmp(line, FB_TRACE_JSON_SIGNATURE, sig) != 0 ||
                !parse_line(line + head, "otherData", ev, &why)) {
                rc = fail_at(err, path, number, why ? why : "not a trace fusebench wrote (its "
                             "first line is not fusebench's otherData)");
                break;
            }
            snprintf(t->version, sizeof t->version, "%s", ev->version);
            snprintf(t->backend, sizeof t->backend, "%s", ev->backend);
            snprintf(t->device, sizeof t->device, "%s", ev->device);
            snprintf(t->timing, sizeof t->timing, "%s", ev->timing);
            t->info = (struct fb_trace_info){t->version, t->backend, t->device, ev->n,
                                             (int)(ev->calls > 0 && ev->calls < 1000000
                                                   ? ev->calls : 1), t->timing};
        } else if (line[0] == '{') {
            rc = parse_line(line, "", ev, &why) ? apply(t, ev, path, number, &events, err)
                                               : fail_at(err, path, number,
                                                         why ? why : "not a JSON object");
        }
        /* the lines between: "displayTimeUnit", "traceEvents": [ and the closing ]} */
    }
    /* a failed read first: it is not an empty file */
    if (rc == FB_OK && ferror(f))
        rc = fb_fail(err, FB_ERR_RUNTIME, "%s: cannot read the trace: %s",
                     fb_text_escape(shown, sizeof shown, path), strerror(errno ? errno : EIO));
    if (rc == FB_OK && number == 0)
        rc = fail_at(err, path, 1, "an empty file, not a trace");
    free(line);
    free(ev);
    fclose(f);
    for (size_t k = 0; k < t->count; k++)
        t->tracks[k] = (struct fb_trace_track){t->names[k], t->descriptions[k],
                                               t->kernels_names[k], &t->traces[k]};
    return rc;
}

void fb_trace_read_free(struct fb_trace_read *t)
{
    for (size_t k = 0; k < t->count; k++)
        fb_kernel_trace_free(&t->traces[k]);
    t->count = 0;
}
