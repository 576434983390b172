// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for knc_logic's encoding: the register layout (the MSRs,
 * their reserved and defined bits, the widths), config validation
 * (knc_config_check()) and the EvtSel a config makes (knc_evtsel()).
 */
#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/kernel.h>

#include "knc_logic.h"
#include "knc_logic_test.h"
#include "knc_test.h"

/* ------------------------------------------------------------------ */
/* Register layout                                                     */
/* ------------------------------------------------------------------ */

void test_layout_msrs(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, KNC_MSR_PERFCTR0, 0x20);
	KUNIT_EXPECT_EQ(test, KNC_MSR_EVNTSEL0, 0x28);
	KUNIT_EXPECT_EQ(test, KNC_MSR_SPFLT_CTRL, 0x2c);
	KUNIT_EXPECT_EQ(test, KNC_MSR_GLOBAL_STATUS, 0x2d);
	KUNIT_EXPECT_EQ(test, KNC_MSR_GLOBAL_OVF_CTRL, 0x2e);
	KUNIT_EXPECT_EQ(test, KNC_MSR_GLOBAL_CTRL, 0x2f);
	KUNIT_EXPECT_EQ(test, KNC_NUM_COUNTERS, 2);
}

/* Tables 1-4, 1-5, 1-7, 1-9, 1-10: what a WRMSR may not set. */
void test_layout_reserved_bits(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, KNC_CNTVAL_RESERVED, 0xffffff0000000000ULL);
	KUNIT_EXPECT_EQ(test, KNC_EVTSEL_RESERVED, 0xffffffff00080000ULL);
	KUNIT_EXPECT_EQ(test, KNC_SPFLT_RESERVED, 0x7ffffffffffffffcULL);
	KUNIT_EXPECT_EQ(test, KNC_GLOBAL_RESERVED, 0xfffffffffffffffcULL);
}

void test_layout_evtsel_bits(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, KNC_EVTSEL_EVENT, 0xff);
	KUNIT_EXPECT_EQ(test, KNC_EVTSEL_UMASK, 0xff00);
	KUNIT_EXPECT_EQ(test, KNC_EVTSEL_USR, T_USR);
	KUNIT_EXPECT_EQ(test, KNC_EVTSEL_OS, T_OS);
	KUNIT_EXPECT_EQ(test, KNC_EVTSEL_EDGE, T_EDGE);
	KUNIT_EXPECT_EQ(test, KNC_EVTSEL_INT, T_INT);
	KUNIT_EXPECT_EQ(test, KNC_EVTSEL_ANY, T_ANY);
	KUNIT_EXPECT_EQ(test, KNC_EVTSEL_EN, T_EN);
	KUNIT_EXPECT_EQ(test, KNC_EVTSEL_INV, T_INV);
	KUNIT_EXPECT_EQ(test, KNC_EVTSEL_CMASK, 0xff000000ULL);
	KUNIT_EXPECT_EQ(test, KNC_SPFLT_USER_PREF, T_SPFLT_USER_PREF);
	/* sysfs format: event 0-7, umask 8-15, edge 18, any 21, inv 23, cmask 24-31 */
	KUNIT_EXPECT_EQ(test, KNC_CONFIG_MASK, 0xffa4ffffULL);
}

void test_layout_widths(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, KNC_CNTVAL_BITS, 40);
	KUNIT_EXPECT_EQ(test, KNC_CNTVAL_MASK, T_CTR_MASK);
	KUNIT_EXPECT_EQ(test, KNC_MAX_PERIOD, T_MAX_PERIOD);
	KUNIT_EXPECT_EQ(test, KNC_COUNTERS_MASK, 0x3);
}


/* ------------------------------------------------------------------ */
/* knc_config_check                                                    */
/* ------------------------------------------------------------------ */

void test_config_zero_is_data_read(struct kunit *test)
{
	int idx = knc_config_check(0);

	KUNIT_EXPECT_TRUE(test, idx >= 0);
	if (idx >= 0)
		KUNIT_EXPECT_STREQ(test, knc_events[idx].name, "data_read");
}

void test_config_driver_bits_rejected(struct kunit *test)
{
	static const unsigned int bits[] = { 16, 17, 19, 20, 22 };
	static const unsigned int pairs[][2] = {
		{ 0x00, 0x00 }, { 0xcb, 0x10 }, { 0x18, 0x20 },
	};
	unsigned int i, p;
	char ctx[128] = "";

	for (p = 0; p < ARRAY_SIZE(pairs); p++)
		for (i = 0; i < ARRAY_SIZE(bits); i++) {
			snprintf(ctx, sizeof(ctx), "config %#llx | bit %u",
				  cfg(pairs[p][0], pairs[p][1]), bits[i]);
			KUNIT_EXPECT_EQ_MSG(test, knc_config_check(cfg(pairs[p][0], pairs[p][1]) |
						    1ULL << bits[i]), -EINVAL, "%s", ctx);
		}
	snprintf(ctx, sizeof(ctx), "%s", "");
	KUNIT_EXPECT_EQ_MSG(test, knc_config_check(T_USR | T_OS | 0x2a), -EINVAL, "%s", ctx);
	KUNIT_EXPECT_EQ_MSG(test, knc_config_check(T_EN | T_INT | 0x2a), -EINVAL, "%s", ctx);
}

void test_config_high_bits_rejected(struct kunit *test)
{
	unsigned int b;
	char ctx[128] = "";

	for (b = 32; b < 64; b++) {
		snprintf(ctx, sizeof(ctx), "bit %u", b);
		KUNIT_EXPECT_EQ_MSG(test, knc_config_check(1ULL << b), -EINVAL, "%s", ctx);
		KUNIT_EXPECT_EQ_MSG(test, knc_config_check(cfg(0xcb, 0x10) | 1ULL << b), -EINVAL,
				    "%s", ctx);
	}
	snprintf(ctx, sizeof(ctx), "%s", "");
	KUNIT_EXPECT_EQ_MSG(test, knc_config_check(~0ULL), -EINVAL, "%s", ctx);
	KUNIT_EXPECT_EQ_MSG(test, knc_config_check(0xffffffff00000000ULL), -EINVAL, "%s", ctx);
}

void test_config_pairs_exhaustive(struct kunit *test)
{
	unsigned int ev, um;
	char ctx[128] = "";

	for (um = 0; um < 256; um++)
		for (ev = 0; ev < 256; ev++) {
			int s = knc_spec_find(ev, um), idx = knc_config_check(cfg(ev, um));

			if (s < 0 && idx == -EINVAL)
				continue;
			snprintf(ctx, sizeof(ctx), "event %#x umask %#x", ev, um);
			if (s < 0) {
				KUNIT_EXPECT_EQ_MSG(test, idx, -EINVAL, "%s", ctx);
				continue;
			}
			KUNIT_EXPECT_TRUE_MSG(test, idx >= 0 && (unsigned int)idx < knc_num_events,
					      "%s", ctx);
			if (!(idx >= 0 && (unsigned int)idx < knc_num_events))
				continue;
			KUNIT_EXPECT_STREQ_MSG(test, knc_events[idx].name, knc_spec_events[s].name,
					       "%s", ctx);
		}
}

void test_config_format_bits_accepted(struct kunit *test)
{
	static const unsigned long long extra[] = {
		T_EDGE, T_INV, T_CMASK(1), T_CMASK(0x80), T_CMASK(0xff),
		T_EDGE | T_INV, T_INV | T_CMASK(3), T_EDGE | T_INV | T_CMASK(0xff),
		T_ANY, T_ANY | T_EDGE | T_INV | T_CMASK(0xff),
	};
	int want = knc_table_find_name("l2_read_miss");
	unsigned int i;
	char ctx[128] = "";

	for (i = 0; i < ARRAY_SIZE(extra); i++) {
		snprintf(ctx, sizeof(ctx), "0x10cb | %#llx", extra[i]);
		KUNIT_EXPECT_EQ_MSG(test, knc_config_check(cfg(0xcb, 0x10) | extra[i]), want,
				    "%s", ctx);
	}
	snprintf(ctx, sizeof(ctx), "%s", "");
	KUNIT_EXPECT_EQ_MSG(test, knc_config_check(T_EDGE | T_INV | T_CMASK(0xff)),
			    knc_table_find_name("data_read"), "%s", ctx);
	/* the format bits alone do not make an undefined pair valid */
	KUNIT_EXPECT_EQ_MSG(test, knc_config_check(cfg(0x05, 0x00) | T_CMASK(1)), -EINVAL,
			    "%s", ctx);
}

/* ------------------------------------------------------------------ */
/* knc_evtsel                                                          */
/* ------------------------------------------------------------------ */

void test_evtsel_mode_flags(struct kunit *test)
{
	static const unsigned long long configs[] = {
		0x0, 0x10cb, 0x2018, 0x12 | T_EDGE | T_INV | T_CMASK(2),
	};
	unsigned int i, m;
	char ctx[128] = "";

	for (i = 0; i < ARRAY_SIZE(configs); i++)
		for (m = 0; m < 4; m++) {
			bool usr = m & 1, os = m & 2;
			unsigned long long exp = configs[i] | T_EN | T_INT |
				(usr ? T_USR : 0) | (os ? T_OS : 0);

			snprintf(ctx, sizeof(ctx), "config %#llx usr %d os %d",
				 configs[i], usr, os);
			KUNIT_EXPECT_EQ_MSG(test, knc_evtsel(configs[i], usr, os), exp, "%s", ctx);
		}
}

void test_evtsel_format_bits_kept(struct kunit *test)
{
	/* every format bit set: event ff, umask ff, edge, any, inv, cmask ff */
	KUNIT_EXPECT_EQ(test, knc_evtsel(0xffa4ffffULL, true, true),
			0xffa4ffffULL | T_EN | T_INT | T_USR | T_OS);
	KUNIT_EXPECT_EQ(test, knc_evtsel(0xffa4ffffULL, false, false),
			0xffa4ffffULL | T_EN | T_INT);
}

void test_evtsel_never_sets_driver_bits(struct kunit *test)
{
	/* bit 19 reserved, 63:32 reserved */
	unsigned long long v = knc_evtsel(~0ULL, false, false);

	KUNIT_EXPECT_EQ(test, v & (1ULL << 19), 0);
	KUNIT_EXPECT_EQ(test, v & T_USR, 0);
	KUNIT_EXPECT_EQ(test, v & T_OS, 0);
	KUNIT_EXPECT_EQ(test, v >> 32, 0);
}
