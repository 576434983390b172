// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for knc_assign(), the counter assignment: every mask and
 * hint combination against a brute-force search and against the
 * backtracking search it replaced, the cases the core relies on, and
 * every pair of table events.
 */
#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "knc_logic.h"
#include "knc_logic_test.h"

/*
 * Brute force, independent of knc_assign(): the largest number of events
 * that can stay on their hinted counter, or -1 when no assignment exists.
 */
static int best_kept(const u8 *mask, const int *hint, int n)
{
	int best = -1, code, limit = 1, i;

	for (i = 0; i < n; i++)
		limit *= 2;
	for (code = 0; code < limit; code++) {
		unsigned int used = 0;
		int kept = 0;
		bool ok = true;

		for (i = 0; i < n && ok; i++) {
			int c = (code >> i) & 1;

			if (!(mask[i] >> c & 1) || (used >> c & 1))
				ok = false;
			used |= 1u << c;
			if (hint && hint[i] == c)
				kept++;
		}
		if (ok && kept > best)
			best = kept;
	}
	return best;
}

static void check_assignment(struct kunit *test, const char *ctx,
			     const u8 *mask, const int *hint, int n)
{
	int assign[3] = { -7, -7, -7 }, ret, exp_kept, i, kept = 0;
	unsigned int used = 0;

	exp_kept = n > 2 ? -1 : best_kept(mask, hint, n);
	ret = knc_assign(mask, hint, n, assign);
	if (exp_kept < 0) {
		KUNIT_EXPECT_EQ_MSG(test, ret, -ENOSPC, "%s", ctx);
		return;
	}
	KUNIT_EXPECT_EQ_MSG(test, ret, 0, "%s", ctx);
	if (ret)
		return;
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_TRUE_MSG(test, assign[i] >= 0 && assign[i] < 2, "%s", ctx);
		if (!(assign[i] >= 0 && assign[i] < 2))
			return;
		/* allowed, and not shared */
		KUNIT_EXPECT_TRUE_MSG(test, mask[i] >> assign[i] & 1, "%s", ctx);
		KUNIT_EXPECT_TRUE_MSG(test, !(used >> assign[i] & 1), "%s", ctx);
		used |= 1u << assign[i];
		if (hint && hint[i] == assign[i])
			kept++;
	}
	for (i = n; i < 3; i++)
		KUNIT_EXPECT_EQ_MSG(test, assign[i], -7, "%s", ctx);	/* nothing written past n */
	KUNIT_EXPECT_EQ_MSG(test, kept, exp_kept, "%s", ctx);
}

void test_assign_all_combinations(struct kunit *test)
{
	/* masks 0x1 and 0x3 (the table's), plus 0x2 and 0 for generality */
	static const u8 masks[] = { 0x1, 0x3, 0x2, 0x0 };
	int n, code, limit;
	char ctx[128] = "";

	for (n = 0; n <= 3; n++) {
		limit = 1;
		for (code = 0; code < n; code++)
			limit *= 4;
		for (code = 0; code < limit; code++) {
			u8 mask[3];
			int i, c = code;

			for (i = 0; i < n; i++, c /= 4)
				mask[i] = masks[c % 4];
			snprintf(ctx, sizeof(ctx), "n %d masks %#x %#x %#x, no hints", n,
				  n > 0 ? mask[0] : 0, n > 1 ? mask[1] : 0,
				  n > 2 ? mask[2] : 0);
			check_assignment(test, ctx, mask, NULL, n);
		}
	}
}

void test_assign_all_combinations_hints(struct kunit *test)
{
	static const u8 masks[] = { 0x1, 0x3, 0x2 };
	static const int hints[] = { -1, 0, 1 };
	int n, code, limit;
	char ctx[128] = "";

	for (n = 0; n <= 3; n++) {
		limit = 1;
		for (code = 0; code < n; code++)
			limit *= 9;
		for (code = 0; code < limit; code++) {
			u8 mask[3] = { 0 };
			int hint[3] = { -1, -1, -1 }, i, c = code;

			for (i = 0; i < n; i++, c /= 9) {
				mask[i] = masks[c % 3];
				hint[i] = hints[c / 3 % 3];
			}
			snprintf(ctx, sizeof(ctx), "n %d masks %#x %#x %#x hints %d %d %d", n,
				  mask[0], mask[1], mask[2],
				  hint[0], hint[1], hint[2]);
			check_assignment(test, ctx, mask, hint, n);
		}
	}
}

void test_assign_counter0_only_pair_fails(struct kunit *test)
{
	const u8 mask[2] = { 0x1, 0x1 };
	const int hint[2] = { 0, -1 };
	int assign[2];

	KUNIT_EXPECT_EQ(test, knc_assign(mask, NULL, 2, assign), -ENOSPC);
	KUNIT_EXPECT_EQ(test, knc_assign(mask, hint, 2, assign), -ENOSPC);
}

void test_assign_evicts_via_hint(struct kunit *test)
{
	/* an unconstrained event on counter 0; a counter-0-only one arrives */
	const u8 mask_a[2] = { 0x3, 0x1 };
	const int hint_a[2] = { 0, -1 };
	const u8 mask_b[2] = { 0x1, 0x3 };
	const int hint_b[2] = { -1, 0 };
	int assign[2] = { -7, -7 };

	KUNIT_EXPECT_EQ(test, knc_assign(mask_a, hint_a, 2, assign), 0);
	KUNIT_EXPECT_EQ(test, assign[0], 1);
	KUNIT_EXPECT_EQ(test, assign[1], 0);

	assign[0] = -7;
	assign[1] = -7;
	KUNIT_EXPECT_EQ(test, knc_assign(mask_b, hint_b, 2, assign), 0);
	KUNIT_EXPECT_EQ(test, assign[0], 0);
	KUNIT_EXPECT_EQ(test, assign[1], 1);
}

void test_assign_keeps_hints(struct kunit *test)
{
	const u8 mask[2] = { 0x3, 0x3 };
	const int h10[2] = { 1, 0 }, h1n[2] = { 1, -1 }, hn0[2] = { -1, 0 };
	const int h01[2] = { 0, 1 }, h11[2] = { 1, 1 };
	const u8 one = 0x3;
	const int h1 = 1;
	int a[2];

	KUNIT_EXPECT_EQ(test, knc_assign(mask, h10, 2, a), 0);
	KUNIT_EXPECT_EQ(test, a[0], 1);
	KUNIT_EXPECT_EQ(test, a[1], 0);
	KUNIT_EXPECT_EQ(test, knc_assign(mask, h1n, 2, a), 0);
	KUNIT_EXPECT_EQ(test, a[0], 1);
	KUNIT_EXPECT_EQ(test, a[1], 0);
	KUNIT_EXPECT_EQ(test, knc_assign(mask, hn0, 2, a), 0);
	KUNIT_EXPECT_EQ(test, a[0], 1);
	KUNIT_EXPECT_EQ(test, a[1], 0);
	KUNIT_EXPECT_EQ(test, knc_assign(mask, h01, 2, a), 0);
	KUNIT_EXPECT_EQ(test, a[0], 0);
	KUNIT_EXPECT_EQ(test, a[1], 1);
	/* conflicting hints: one of them stays */
	KUNIT_EXPECT_EQ(test, knc_assign(mask, h11, 2, a), 0);
	KUNIT_EXPECT_TRUE(test, a[0] == 1 || a[1] == 1);
	KUNIT_EXPECT_TRUE(test, a[0] != a[1]);
	/* a single event stays on counter 1 */
	KUNIT_EXPECT_EQ(test, knc_assign(&one, &h1, 1, a), 0);
	KUNIT_EXPECT_EQ(test, a[0], 1);
}

void test_assign_bounds(struct kunit *test)
{
	const u8 mask[3] = { 0x3, 0x3, 0x3 };
	int a[3];

	KUNIT_EXPECT_EQ(test, knc_assign(mask, NULL, 0, a), 0);
	KUNIT_EXPECT_EQ(test, knc_assign(mask, NULL, 3, a), -ENOSPC);
	KUNIT_EXPECT_EQ(test, knc_assign(mask, NULL, -1, a), -ENOSPC);
}

/*
 * The backtracking search knc_assign() replaced, kept as its reference:
 * every counter for each event in turn, the first assignment that keeps
 * the most hints.
 */
struct ref_assign_state {
	const u8 *cntmask;
	const int *hint;
	int n;
	int cur[2];
	int best[2];
	int best_kept;
};

static void ref_assign_search(struct ref_assign_state *st, int i,
			      unsigned int used, int kept)
{
	int c;

	if (i == st->n) {
		if (kept > st->best_kept) {
			st->best_kept = kept;
			memcpy(st->best, st->cur, sizeof(st->best));
		}
		return;
	}
	for (c = 0; c < 2; c++) {
		if (!(st->cntmask[i] & (1u << c)) || (used & (1u << c)))
			continue;
		st->cur[i] = c;
		ref_assign_search(st, i + 1, used | (1u << c),
				  kept + (st->hint && st->hint[i] == c));
	}
}

static int ref_assign(const u8 *cntmask, const int *hint, int n, int *assign)
{
	struct ref_assign_state st = {
		.cntmask = cntmask, .hint = hint, .n = n, .best_kept = -1,
	};

	if (n < 0 || n > 2)
		return -ENOSPC;
	ref_assign_search(&st, 0, 0, 0);
	if (st.best_kept < 0)
		return -ENOSPC;
	memcpy(assign, st.best, n * sizeof(*assign));
	return 0;
}

/*
 * knc_assign() places every combination as the search did: n from -1 to 3,
 * each of the first two events' masks any of bits 0-2 (bit 2, no counter,
 * must not matter), each hint -1, 0, 1 or 2, or no hints at all.
 */
void test_assign_matches_search(struct kunit *test)
{
	static const int hints[] = { -1, 0, 1, 2 };
	int n, code, limit, i, compared = 0;

	for (n = -1; n <= 3; n++) {
		/* a third event's mask and hint cannot matter: -ENOSPC */
		int k = n < 0 ? 0 : n > 2 ? 2 : n;

		/* per event: 8 masks, 5 hint choices (4 values, or none) */
		limit = 1;
		for (i = 0; i < k; i++)
			limit *= 8 * 4;
		for (code = 0; code < limit * 2; code++) {
			u8 mask[3] = { 0 };
			int hint[3] = { -1, -1, -1 }, c = code / 2;
			int got[3] = { -7, -7, -7 }, want[3] = { -7, -7, -7 };
			const int *h = code % 2 ? hint : NULL;
			int ret, ref;

			for (i = 0; i < k; i++, c /= 32) {
				mask[i] = c % 8;
				hint[i] = hints[c / 8 % 4];
			}
			ret = knc_assign(mask, h, n, got);
			ref = ref_assign(mask, h, n, want);
			KUNIT_EXPECT_EQ_MSG(test, ret, ref,
					    "n %d masks %#x %#x hints %d %d%s", n,
					    mask[0], mask[1], hint[0], hint[1],
					    h ? "" : " (none)");
			for (i = 0; i < 3; i++)
				KUNIT_EXPECT_EQ_MSG(test, got[i], want[i],
						    "n %d masks %#x %#x hints %d %d%s: event %d",
						    n, mask[0], mask[1], hint[0],
						    hint[1], h ? "" : " (none)", i);
			compared++;
		}
	}
	/* n -1 and 0: 2 each; 1: 64; 2 and 3: 2048 each */
	KUNIT_EXPECT_EQ(test, compared, 2 + 2 + 64 + 2048 + 2048);
}

void test_assign_table_pairs(struct kunit *test)
{
	unsigned int i, j;
	char ctx[128] = "";

	for (i = 0; i < knc_num_events; i++)
		for (j = 0; j < knc_num_events; j++) {
			const u8 mask[2] = { knc_events[i].cntmask,
					     knc_events[j].cntmask };
			bool both = knc_spec_counter0_only(knc_events[i].event) &&
				    knc_spec_counter0_only(knc_events[j].event);
			int a[2] = { -7, -7 }, ret = knc_assign(mask, NULL, 2, a);

			if (ret == (both ? -ENOSPC : 0) &&
			    (both || (a[0] != a[1] &&
				      (!knc_spec_counter0_only(knc_events[i].event) || a[0] == 0) &&
				      (!knc_spec_counter0_only(knc_events[j].event) || a[1] == 0))))
				continue;
			snprintf(ctx, sizeof(ctx), "%s + %s", knc_events[i].name,
				 knc_events[j].name);
			KUNIT_EXPECT_EQ_MSG(test, ret, both ? -ENOSPC : 0, "%s", ctx);
			if (!both) {
				KUNIT_EXPECT_TRUE_MSG(test, a[0] != a[1], "%s", ctx);
				if (knc_spec_counter0_only(knc_events[i].event))
					KUNIT_EXPECT_EQ_MSG(test, a[0], 0, "%s", ctx);
				if (knc_spec_counter0_only(knc_events[j].event))
					KUNIT_EXPECT_EQ_MSG(test, a[1], 0, "%s", ctx);
			}
		}
}
