/* Choosing and starting the backend a run asks for (the plan's [backend] settings). */
#ifndef FB_BACKENDS_OPEN_H
#define FB_BACKENDS_OPEN_H

#include "backends/backend.h"
#include "plan/plan.h"

/* Starts the plan's backend: cpu, cuda, or for auto the GPU when one answers, else the CPU
 * (saying why on stderr). FB_ERR_USAGE when cuda is asked for and cannot run here, and also
 * under auto when a GPU answers that this build has no code for (a CPU run would hide a
 * wrong build: the message gives the rebuild command). When auto falls back to the CPU in a
 * build that has the CUDA backend, `note` (note_size bytes; may be NULL) says so and why, for
 * the run's summary and CSV metadata (struct fb_device_info, backend_note); "" otherwise. */
int fb_backend_open(const struct fb_plan *plan, const struct fb_backend_ops **ops,
                    void **state, char *note, size_t note_size, struct fb_error *err);

#endif
