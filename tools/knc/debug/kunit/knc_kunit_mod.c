// SPDX-License-Identifier: GPL-2.0
/*
 * The module that carries the knc KUnit suites to a kernel built with
 * CONFIG_KUNIT; the suites register themselves (kunit_test_suite()).
 */
#include <linux/module.h>

MODULE_DESCRIPTION("KUnit suites of the Knights Corner PMU driver (knc_logic, knc_sim_model)");
MODULE_LICENSE("GPL");
