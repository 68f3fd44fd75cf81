#include "backends/cpu/cpu_info.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void fb_cpu_model_name(char *name, size_t size)
{
    snprintf(name, size, "unknown CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) != 0)
            continue;
        char *colon = strchr(line, ':');
        if (!colon)
            break;
        colon++;
        while (*colon == ' ' || *colon == '\t')
            colon++;
        colon[strcspn(colon, "\n")] = '\0';
        snprintf(name, size, "%s", colon);
        break;
    }
    fclose(f);
}

static int read_sys_line(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    int ok = fgets(buf, (int)size, f) != NULL;
    fclose(f);
    if (ok)
        buf[strcspn(buf, "\n")] = '\0';
    return ok;
}

uint64_t fb_cpu_last_level_cache(char *name, size_t size)
{
    uint64_t best_bytes = 0;
    int best_level = 0;
    for (int index = 0; index < 16; index++) {
        char path[128], level[16], type[32], bytes[32];
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", index);
        if (!read_sys_line(path, level, sizeof level))
            break;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/type", index);
        if (!read_sys_line(path, type, sizeof type) || strcmp(type, "Instruction") == 0)
            continue;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", index);
        if (!read_sys_line(path, bytes, sizeof bytes))
            continue;
        /* "32768K" or "32M" */
        char *end;
        uint64_t value = strtoull(bytes, &end, 10);
        if (*end == 'K')
            value <<= 10;
        else if (*end == 'M')
            value <<= 20;
        int lvl = atoi(level);
        if (lvl > best_level) {
            best_level = lvl;
            best_bytes = value;
        }
    }
    if (name && size)
        snprintf(name, size, best_level ? "L%d" : "", best_level);
    return best_bytes;
}

void fb_cpu_memory(uint64_t *total, uint64_t *available)
{
    *total = *available = 0;
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f)
        return;
    char line[256];
    unsigned long long kb;
    while (fgets(line, sizeof line, f)) {
        if (sscanf(line, "MemTotal: %llu kB", &kb) == 1)
            *total = (uint64_t)kb * 1024;
        else if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
            *available = (uint64_t)kb * 1024;
    }
    fclose(f);
}

double fb_cpu_timer_resolution(void)
{
    double best = 1.0;
    for (int i = 0; i < 1000; i++) {
        struct timespec a, b;
        clock_gettime(CLOCK_MONOTONIC, &a);
        do
            clock_gettime(CLOCK_MONOTONIC, &b);
        while (a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec);
        double step = (double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec);
        if (step < best)
            best = step;
    }
    return best;
}
