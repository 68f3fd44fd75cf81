/* Whether this CUPTI answers at all on a machine without an NVIDIA driver, for the tests
 * whose premise is that its host side does (CUPTI builds only). CUPTI 13.0 does; CUPTI
 * 13.4.92 (the nvidia-cuda-cupti wheel) looks for libcuda.so.1 and returns
 * CUPTI_ERROR_UNKNOWN (999) from every call without it, cuptiGetVersion included (checked
 * with the CI's CUDA 13.5 stage). Such a test skips, saying so. */
#ifndef FB_TESTS_CUPTI_CUPTI_DRIVERLESS_H
#define FB_TESTS_CUPTI_CUPTI_DRIVERLESS_H

#include <cupti.h>
#include <stdbool.h>
#include <stdio.h>

static inline bool fb_test_cupti_answers(void)
{
    uint32_t version = 0;
    CUptiResult r = cuptiGetVersion(&version);
    if (r == CUPTI_SUCCESS)
        return true;
    printf("skip: this CUPTI answers nothing here (cuptiGetVersion returned %d; CUPTI 13.4+ "
           "needs an NVIDIA driver even for its host side)\n", (int)r);
    return false;
}

#endif
