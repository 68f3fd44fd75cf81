/* Provenance written into published charts (contract in provenance.h). */
#define _GNU_SOURCE
#include "chart/provenance.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "chart/chart_file.h"
#include "common/text.h"
#include "results/csv.h"
#include "fb_build_config.h"

/* The fields in the order they are written, with their names in the SVG's <desc> and as keys
 * of the PDF's information dictionary. */
static void fields(const struct fb_chart_provenance *p, const char *values[6])
{
    values[0] = p->source, values[1] = p->commit, values[2] = p->config_hash;
    values[3] = p->device, values[4] = p->date, values[5] = FB_VERSION;
}
static const char *const field_names[6][2] = {
    {"source", "Source"}, {"commit", "Commit"}, {"config_hash", "ConfigHash"},
    {"device", "Device"}, {"date", "Date"},     {"producer", "Producer"},
};

/* text (escaped first: control bytes and bytes outside UTF-8 as \xNN) as XML character data
 * or an attribute value. */
static void put_xml(FILE *out, const char *text)
{
    char safe[FB_PROVENANCE_TEXT_MAX * 4];
    fb_text_escape(safe, sizeof safe, text);
    for (const char *c = safe; *c; c++) {
        switch (*c) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&apos;", out); break;
        default: fputc(*c, out);
        }
    }
}

/* text (escaped first, as above) as a PDF text string: a literal string with \, ( and )
 * escaped when it is ASCII, else UTF-16BE with its byte order mark, in hex. */
static void put_pdf(FILE *out, const char *text)
{
    char safe[FB_PROVENANCE_TEXT_MAX * 4];
    fb_text_escape(safe, sizeof safe, text);
    const unsigned char *c = (const unsigned char *)safe;
    bool ascii = true;
    for (size_t i = 0; c[i]; i++)
        ascii &= c[i] < 0x80;
    if (ascii) {
        fputc('(', out);
        for (; *c; c++)
            fprintf(out, strchr("\\()", *c) ? "\\%c" : "%c", *c);
        fputc(')', out);
        return;
    }
    fputs("<FEFF", out);
    while (*c) { /* valid UTF-8 after fb_text_escape */
        size_t n = fb_text_utf8_char((const char *)c);
        uint32_t u = n == 1 ? c[0] : n == 2 ? c[0] & 0x1Fu : n == 3 ? c[0] & 0x0Fu : c[0] & 0x07u;
        for (size_t k = 1; k < n; k++)
            u = u << 6 | (c[k] & 0x3Fu);
        if (u >= 0x10000)
            fprintf(out, "%04X%04X", 0xD800 + ((u - 0x10000) >> 10), 0xDC00 + (u & 0x3FF));
        else
            fprintf(out, "%04X", u);
        c += n ? n : 1;
    }
    fputc('>', out);
}

/* The whole file, NUL-terminated after its size bytes, in *data (free it). */
static int read_all(int dirfd, const char *name, size_t max_size, char **data, size_t *size,
                    char *why, size_t why_size)
{
    int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || (uintmax_t)st.st_size > max_size) {
        if (fd >= 0)
            close(fd);
        return fb_chart_wrong(why, why_size, "cannot read it to add its provenance");
    }
    *size = (size_t)st.st_size;
    *data = malloc(*size + 1);
    size_t got = 0;
    ssize_t r = 1;
    while (*data && got < *size && (r = read(fd, *data + got, *size - got)) > 0)
        got += (size_t)r;
    close(fd);
    if (!*data || got != *size) {
        free(*data);
        return fb_chart_wrong(why, why_size, "cannot read it to add its provenance");
    }
    (*data)[*size] = '\0';
    return 0;
}

static int stamp_svg(int dirfd, const char *name, const struct fb_chart_provenance *p,
                     const char *data, size_t size, char *why, size_t why_size)
{
    const char *svg = strstr(data, "<svg");
    const char *open_end = svg ? strchr(svg, '>') : NULL;
    if (!open_end)
        return fb_chart_wrong(why, why_size, "no <svg> element to add its provenance to");
    const char *rest = open_end + 1;
    /* gnuplot's "<title>Gnuplot</title>" gives way to the chart's own */
    const char *gp = rest + strspn(rest, "\r\n\t ");
    const char *gp_title = "<title>Gnuplot</title>";
    if (strncmp(gp, gp_title, strlen(gp_title)) == 0)
        rest = gp + strlen(gp_title);
    char tmp[] = ".stamp.svg";
    int fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    FILE *out = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!out) {
        if (fd >= 0)
            close(fd);
        return fb_chart_wrong(why, why_size, "cannot write its provenance: %s", strerror(errno));
    }
    const char *values[6];
    fields(p, values);
    fwrite(data, 1, (size_t)(open_end + 1 - data), out);
    fputs("\n<title>", out);
    put_xml(out, p->title);
    fputs("</title>\n<desc>", out);
    for (size_t i = 0; i < 6; i++) {
        if (!values[i][0]) /* a chart not drawn from a results file has no source */
            continue;
        fprintf(out, "%s: %s", field_names[i][0], i == 5 ? "fusebench " : "");
        put_xml(out, values[i]);
        fputs(i < 5 ? "\n" : "", out);
    }
    fputs("</desc>", out);
    fwrite(rest, 1, size - (size_t)(rest - data), out);
    int failed = ferror(out);
    if (fclose(out) != 0 || failed || renameat(dirfd, tmp, dirfd, name) != 0) {
        unlinkat(dirfd, tmp, 0);
        return fb_chart_wrong(why, why_size, "cannot write its provenance: %s", strerror(errno));
    }
    return 0;
}

/* The last occurrence of word in data[0..end). */
static const char *find_last(const char *data, size_t end, const char *word)
{
    size_t n = strlen(word);
    for (size_t i = end >= n ? end - n + 1 : 0; i-- > 0;)
        if (memcmp(data + i, word, n) == 0)
            return data + i;
    return NULL;
}

static int stamp_pdf(int dirfd, const char *name, const struct fb_chart_provenance *p,
                     const char *data, size_t size, char *why, size_t why_size)
{
    /* cairo's trailer: its xref table's offset, the next free object number, the catalog */
    const char *sx = find_last(data, size, "startxref");
    const char *tr = sx ? find_last(data, (size_t)(sx - data), "trailer") : NULL;
    const char *sz = tr ? strstr(tr, "/Size") : NULL, *root = tr ? strstr(tr, "/Root") : NULL;
    unsigned long prev, objects, root_obj, root_gen;
    char r;
    if (!sz || !root || sz > sx || root > sx ||
        sscanf(sx + 9, "%lu", &prev) != 1 || sscanf(sz + 5, "%lu", &objects) != 1 ||
        sscanf(root + 5, " %lu %lu %c", &root_obj, &root_gen, &r) != 3 || r != 'R')
        return fb_chart_wrong(why, why_size, "no trailer with /Size and /Root before "
                                             "startxref to add its provenance after");
    char *update = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&update, &len);
    if (!out)
        return fb_chart_wrong(why, why_size, "out of memory adding its provenance");
    const bool newline = size && data[size - 1] == '\n';
    if (!newline)
        fputc('\n', out);
    const size_t info_at = size + !newline;
    fprintf(out, "%lu 0 obj\n<< /Title ", objects);
    put_pdf(out, p->title);
    fputs("\n   /Creator (gnuplot, pdfcairo terminal)", out);
    char subject[FB_PROVENANCE_TEXT_MAX * 4];
    /* in full in the keys below; cut here to fit */
    snprintf(subject, sizeof subject, "drawn from %.150s (commit %.150s, config hash %.150s, "
             "%.150s, %.150s)",
             p->source, p->commit, p->config_hash, p->device, p->date);
    if (p->source[0]) {
        fputs("\n   /Subject ", out);
        put_pdf(out, subject);
    }
    const char *values[6];
    fields(p, values);
    for (size_t i = 0; i < 6; i++) {
        if (!values[i][0])
            continue;
        char value[FB_PROVENANCE_TEXT_MAX + 16];
        snprintf(value, sizeof value, "%s%s", i == 5 ? "fusebench " : "", values[i]);
        fprintf(out, "\n   /%s ", field_names[i][1]);
        put_pdf(out, value);
    }
    fputs("\n>>\nendobj\n", out);
    fflush(out);
    const size_t xref_at = size + len;
    fprintf(out, "xref\n0 1\n0000000000 65535 f \n%lu 1\n%010zu 00000 n \n"
                 "trailer\n<< /Size %lu /Root %lu %lu R /Info %lu 0 R /Prev %lu >>\n"
                 "startxref\n%zu\n%%%%EOF\n",
            objects, info_at, objects + 1, root_obj, root_gen, objects, prev, xref_at);
    if (fclose(out) != 0) {
        free(update);
        return fb_chart_wrong(why, why_size, "out of memory adding its provenance");
    }
    int fd = openat(dirfd, name, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW);
    ssize_t w = fd >= 0 ? write(fd, update, len) : -1;
    int e = errno;
    free(update);
    if (fd < 0 || close(fd) != 0 || w != (ssize_t)len)
        return fb_chart_wrong(why, why_size, "cannot write its provenance: %s",
                              strerror(e ? e : EIO));
    return 0;
}

/* A run's value of a field: its file's name (key NULL) or its # key, "" when absent. */
static const char *value_of(const struct fb_csv_table *t, const char *path, const char *key)
{
    const char *slash = strrchr(path, '/'), *v = key ? fb_csv_meta_get(t, key) : NULL;
    return !key ? (slash ? slash + 1 : path) : v ? v : "";
}

void fb_chart_provenance_of(const struct fb_csv_table *t, const char *const *paths, size_t n,
                            struct fb_chart_provenance *p)
{
    const char *keys[] = {NULL, "git_commit", "config_hash", "device", "date"};
    char *to[] = {p->source, p->commit, p->config_hash, p->device, p->date};
    for (size_t i = 0; i < 5; i++) {
        bool any = false;
        for (size_t k = 0; k < n; k++)
            any |= value_of(&t[k], paths[k], keys[i])[0] != '\0';
        size_t len = 0;
        to[i][0] = '\0';
        for (size_t k = 0; any && k < n && len < FB_PROVENANCE_TEXT_MAX; k++) {
            const char *v = value_of(&t[k], paths[k], keys[i]);
            len += (size_t)snprintf(to[i] + len, FB_PROVENANCE_TEXT_MAX - len, "%s%s",
                                    k ? " vs " : "", v[0] ? v : "unknown");
        }
    }
}

int fb_chart_stamp(int dirfd, const char *name, const char *format,
                   const struct fb_chart_provenance *p, size_t max_size, char *why,
                   size_t why_size)
{
    const bool svg = strcmp(format, "svg") == 0;
    if (!svg && strcmp(format, "pdf") != 0)
        return 0;
    char *data = NULL;
    size_t size = 0;
    if (read_all(dirfd, name, max_size, &data, &size, why, why_size) != 0)
        return -1;
    int rc = svg ? stamp_svg(dirfd, name, p, data, size, why, why_size)
                 : stamp_pdf(dirfd, name, p, data, size, why, why_size);
    free(data);
    return rc;
}
