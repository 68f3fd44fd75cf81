/* Helpers shared by the tests of src/cupti. */
#ifndef FB_TESTS_CUPTI_TEST_UTIL_H
#define FB_TESTS_CUPTI_TEST_UTIL_H

#include <math.h>
#include <stdio.h>

/* cmocka 1.1.5 has assert_float_equal (float precision) but no double version. */
#define assert_close(actual, expected, tolerance)                                             \
    do {                                                                                      \
        double a_ = (actual), e_ = (expected);                                                \
        if (!(fabs(a_ - e_) <= (tolerance)))                                                  \
            fail_msg("%s = %.12g, expected %.12g (+- %g)", #actual, a_, e_,                  \
                     (double)(tolerance));                                                    \
    } while (0)

#endif
