#include "output/progress.h"

#include <inttypes.h>
#include <math.h>
#include <unistd.h>

#include "common/clock.h"

double fb_progress_weight(int64_t n)
{
    return 1.0 + (double)n / 1e6;
}

void fb_progress_begin(struct fb_progress *p, FILE *out, bool quiet, int total_points,
                       double total_work)
{
    p->out = out;
    p->quiet = quiet;
    p->terminal = isatty(fileno(out));
    p->total_points = total_points;
    p->total_work = total_work;
    p->done_points = 0;
    p->done_work = 0.0;
    p->start_s = fb_now_s();
}

static void format_eta(char *buf, size_t size, double seconds)
{
    if (!isfinite(seconds) || seconds < 0)
        snprintf(buf, size, "--:--");
    else
        snprintf(buf, size, "%d:%02d", (int)seconds / 60, (int)seconds % 60);
}

void fb_progress_point_started(struct fb_progress *p, const char *variant, int64_t n)
{
    if (p->quiet || !p->terminal)
        return;
    const int width = 30;
    double fraction = p->total_work > 0 ? p->done_work / p->total_work : 0.0;
    double elapsed = fb_now_s() - p->start_s;
    double eta = fraction > 0.02 ? elapsed * (1.0 - fraction) / fraction : NAN;
    char eta_text[16];
    format_eta(eta_text, sizeof eta_text, eta);
    int filled = (int)(fraction * width);
    char bar[64];
    for (int i = 0; i < width; i++)
        bar[i] = i < filled ? '#' : '.';
    bar[width] = '\0';
    fprintf(p->out, "\r[%s] %3d/%d  ETA %s  %-20s n=%-10" PRId64 "\033[K", bar,
            p->done_points, p->total_points, eta_text, variant, n);
    fflush(p->out);
}

void fb_progress_point_done(struct fb_progress *p, const struct fb_record *r)
{
    p->done_points++;
    p->done_work += fb_progress_weight(r->n);
    if (p->quiet)
        return;
    if (p->terminal) {
        /* the bar is redrawn at the next point; a failure must stay on screen */
        if (r->status != FB_POINT_OK)
            fprintf(p->out, "\r\033[K%s n=%" PRId64 " %s: %s\n", r->variant, r->n,
                    fb_point_status_name(r->status), r->reason);
        return;
    }
    if (r->status == FB_POINT_OK)
        fprintf(p->out, "[%3d/%d] %-20s n=%-10" PRId64 " %.4g s/call  %.1f GB/s  %" PRId64
                        " launch%s\n",
                p->done_points, p->total_points, r->variant, r->n, r->time_median_s,
                r->bandwidth_gbps, r->launches, r->launches == 1 ? "" : "es");
    else
        fprintf(p->out, "[%3d/%d] %-20s n=%-10" PRId64 " %s: %s\n", p->done_points,
                p->total_points, r->variant, r->n, fb_point_status_name(r->status), r->reason);
    fflush(p->out);
}

void fb_progress_end(struct fb_progress *p)
{
    if (p->quiet)
        return;
    if (p->terminal)
        fprintf(p->out, "\r\033[K");
    fprintf(p->out, "%d point%s in %.1f s\n", p->done_points, p->done_points == 1 ? "" : "s",
            fb_now_s() - p->start_s);
}
