#include "backends/host_disturbance.h"

#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

void fb_disturbance_reading_clear(struct fb_disturbance_reading *r)
{
    *r = (struct fb_disturbance_reading){.involuntary_switches = -1,
                                         .run_delay_s = NAN,
                                         .compute_processes = -1};
}

/* The run delay of the thread whose /proc/self/task entry is `tid`, in ns, or -1.
 * schedstat holds "on-cpu-ns run-delay-ns timeslices". */
static long long thread_run_delay_ns(int dir_fd, const char *tid)
{
    char path[300], text[128]; /* d_name is at most 255 bytes */
    snprintf(path, sizeof path, "%s/schedstat", tid);
    int fd = openat(dir_fd, path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1; /* the thread has just exited: it waits no more */
    ssize_t len = read(fd, text, sizeof text - 1);
    close(fd);
    if (len <= 0)
        return -1;
    text[len] = '\0';
    unsigned long long on_cpu, delay;
    if (sscanf(text, "%llu %llu", &on_cpu, &delay) != 2)
        return -1;
    return (long long)delay;
}

/* The sum over every thread of the process, in seconds; NaN when no thread answered. */
static double process_run_delay_s(DIR *dir)
{
    rewinddir(dir); /* /proc re-lists the threads that exist now */
    long long total = 0;
    int answered = 0;
    for (struct dirent *e; (e = readdir(dir)) != NULL;) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        long long ns = thread_run_delay_ns(dirfd(dir), e->d_name);
        if (ns >= 0) {
            total += ns;
            answered++;
        }
    }
    return answered ? (double)total * 1e-9 : NAN;
}

void fb_host_disturbance_open(struct fb_host_disturbance *h)
{
    h->task_dir = opendir("/proc/self/task");
    h->run_delay_ok = false;
    if (h->task_dir) {
        /* A kernel without scheduler statistics has no schedstat file (or, before 5.x,
         * one that reads 0 0 0 for ever: this thread has waited at least once by now, for
         * the exec that started it, so a zero total means "not counted"). */
        double delay = process_run_delay_s(h->task_dir);
        h->run_delay_ok = !isnan(delay) && delay > 0;
    }
}

void fb_host_disturbance_close(struct fb_host_disturbance *h)
{
    if (h->task_dir)
        closedir(h->task_dir);
    h->task_dir = NULL;
    h->run_delay_ok = false;
}

void fb_host_disturbance_read(struct fb_host_disturbance *h, struct fb_disturbance_reading *r)
{
    struct rusage ru;
    r->involuntary_switches = getrusage(RUSAGE_SELF, &ru) == 0 ? (int64_t)ru.ru_nivcsw : -1;
    r->run_delay_s = h->run_delay_ok ? process_run_delay_s(h->task_dir) : NAN;
}

void fb_host_disturbance_describe(const struct fb_host_disturbance *h, char *out, size_t size)
{
    snprintf(out, size, "%s",
             h->run_delay_ok
                 ? "host: threads' run delay (/proc/self/task/*/schedstat) and involuntary "
                   "context switches (getrusage) per sample"
                 : "host: involuntary context switches (getrusage) per sample; no run delay "
                   "(/proc/self/task/*/schedstat unreadable)");
}
