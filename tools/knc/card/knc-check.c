// SPDX-License-Identifier: GPL-2.0
/*
 * knc-check: a self-check of a Knights Corner card's PMU and the driver
 * that drives it, to run once and send back. No perf, no libc, no SSE
 * (tools/knc/card/card.h); the workloads are tools/knc/card/loops.S.
 *
 *   knc-check [--exact] [-h]
 *
 * Each check prints PASS, FAIL or SKIP and why; a FAIL names the defect
 * and what fixes it: a patch of `make linux-fixes` (tools/knc/linux-fixes)
 * for Linux's arch/x86/events/intel/knc.c, or loading knc_pmu.ko. Exit
 * status: 0 all passed, 1 a defect was found, 2 something could not be
 * checked (or nothing could).
 */
#include "card.h"

/* user-mode instructions of knc_loop_counted() (loops.S) */
#define LOOP_INSNS(n)		(2 * (n) + 3)
/* of knc_threads_wait() after its read returns, over every thread */
#define THREADS_INSNS(t, n)	((t) * (2 * (n) + 18) + 3)

#define LOOP_N		1000000UL
#define SAMPLE_PERIOD	50000UL
#define SAMPLES		50
#define THREADS		128
#define THREAD_N	10000UL
/* multiplexed estimates vs counted alone, beyond which knc-check says they drift */
#define MUX_BOUND_PCT	10
#define MUX_MS		1000	/* how long the multiplexed loop runs: many turns */

static const char usage[] =
"usage: knc-check [--exact]\n"
"Checks the Knights Corner PMU and its driver (knc_pmu.ko's knc PMU when it\n"
"is loaded, else Linux's cpu PMU): counters 0 and 1 each count a loop of\n"
"known instruction count exactly, two events count together, sampling\n"
"delivers an interrupt every period, RDPMC is offered only where it works,\n"
"three events multiplexed on the two counters count the loop twice together,\n"
"and a count inherited by 128 threads is their sum. Prints PASS, FAIL or\n"
"SKIP for each, the defect a FAIL shows and what fixes it. It runs on one\n"
"CPU and leaves its PMU as it found it (as root, with /dev/cpu/N/msr: an\n"
"unpatched handler's overflow bits cleared). Exit status: 0 all passed,\n"
"1 a defect found, 2 something could not be checked.\n"
"A count passes when it is the loop's, or above it by no more than the\n"
"interrupts the CPU took meanwhile (/proc/interrupts): an instruction an\n"
"interrupt or exception stops may be counted again when it runs again.\n"
"  --exact  only the loop's count passes (an exact model of the PMU)\n";

/*
 * the patches of make linux-fixes (tools/knc/linux-fixes/000N-*.msg), by
 * number: 1 to 3 fix knc.c, 4 changes no behaviour, 5 and 6 are its RDPMC
 * series (perf core's order, then the x86 core's offer)
 */
static const char *const patch[] = {
	"",
	"perf/x86/knc: Write counter 1's event select to its own MSR",
	"perf/x86/knc: Keep the counters off on an NMI while the PMU is disabled",
	"perf/x86/knc: Unmask the LVT performance entry in the PMI handler",
	"perf/x86/knc: Use the x86 core's event select helpers",
	"perf/core: Count a new buffer's mapping before writing its user page",
	"perf/x86: Offer RDPMC only on the page of an event that is mapped",
};

static struct pmu pmu;
static int npass, nfail, nskip;
static int counter1_broken, counter_held;
static int exact;	/* --exact */
static int cpu = -1;	/* the CPU every check runs on */

/* ------------------------------------------- the CPU and its interrupts */

/* Run on one CPU from now on (the one this runs on): 0, or -1. */
static int pin_cpu(void)
{
	unsigned long mask[4] = { 0 };	/* up to 256 CPUs */
	unsigned int c = 0;

	if (sys3(__NR_getcpu, &c, 0, 0) < 0 || c >= 8 * sizeof(mask))
		return -1;
	mask[c / 64] = 1UL << (c % 64);
	if (sys3(__NR_sched_setaffinity, 0, sizeof(mask), mask) < 0)
		return -1;
	cpu = (int)c;
	return 0;
}

/*
 * The interrupts the CPU has taken since boot, all kinds (the column of
 * /proc/interrupts headed CPU<cpu>): 0 when unknown.
 */
static u64 cpu_interrupts(void)
{
	static char buf[256 * 1024];
	char want[16], *p, *line, *end;
	u64 sum = 0, v;
	int col = -1, i;

	if (cpu < 0 || read_file("/proc/interrupts", buf, sizeof(buf)) <= 0)
		return 0;
	fmt(want, sizeof(want), "CPU%d", cpu);
	/* the header: which column is ours */
	for (p = buf, i = 0; *p && *p != '\n'; i++) {
		char name[16];
		size_t n = 0;

		while (*p == ' ')
			p++;
		while (*p && *p != ' ' && *p != '\n' && n + 1 < sizeof(name))
			name[n++] = *p++;
		name[n] = 0;
		if (seq(name, want))
			col = i;
	}
	if (col < 0)
		return 0;
	for (line = schr(buf, '\n'); line && *line; line = end) {
		end = schr(line + 1, '\n');
		p = schr(line + 1, ':');
		if (!p || (end && p > end))
			continue;
		p++;
		for (i = 0; i <= col; i++) {
			char num[24];
			size_t n = 0;

			while (*p == ' ')
				p++;
			while (*p >= '0' && *p <= '9' && n + 1 < sizeof(num))
				num[n++] = *p++;
			num[n] = 0;
			if (!n)
				break;
			if (i == col && !parse_u64(num, &v))
				sum += v;
		}
	}
	return sum;
}

/*
 * Whether count passes for a workload of want instructions during which
 * the CPU took ints interrupts; what it is, in word.
 */
static int count_ok(u64 count, u64 want, u64 ints, const char **word)
{
	if (count == want) {
		*word = "exact";
		return 1;
	}
	if (!exact && count > want && count - want <= ints) {
		*word = "within the interrupts taken";
		return 1;
	}
	*word = "off";
	return 0;
}

/*
 * One check's verdict: PASS, FAIL (with the defect and its patch of make
 * linux-fixes, 0 for none known) or SKIP, and what was seen.
 */
static void verdict(const char *v, const char *check, const char *seen,
		    const char *defect, int fix)
{
	pr("%-4s %s\n     %s\n", v, check, seen);
	if (v[0] == 'P')
		npass++;
	else if (v[0] == 'S')
		nskip++;
	else
		nfail++;
	if (v[0] != 'F')
		return;
	pr("     defect: %s\n", defect);
	if (pmu.knc)
		pr("     fix: none known: a defect of knc_pmu.ko; please send this report\n");
	else if (fix == 6)
		pr("     fix: the RDPMC series of make linux-fixes, \"%s\"\n"
		   "          and \"%s\",\n"
		   "          or load knc_pmu.ko (its knc PMU does not have it)\n", patch[5], patch[6]);
	else if (fix)
		pr("     fix: patch %d of make linux-fixes, \"%s\",\n"
		   "          or load knc_pmu.ko (its knc PMU does not have it)\n", fix, patch[fix]);
	else
		pr("     fix: none known; loading knc_pmu.ko may avoid it; please send this report\n");
}

static char seen[512];

/* name, user mode only, with its times; of task pid (0: this one) */
static long open_ev_on(const char *name, u64 flags, int group, int pid, struct ev *e)
{
	ev_knc(&pmu, name, flags | ATTR_EXCLUDE_KERNEL | ATTR_EXCLUDE_HV, e);
	e->attr.read_format = FORMAT_TOTAL_TIME_ENABLED | FORMAT_TOTAL_TIME_RUNNING;
	return perf_open(&e->attr, pid, -1, group, 0);
}

static long open_ev(const char *name, u64 flags, int group, struct ev *e)
{
	return open_ev_on(name, flags, group, 0, e);
}

struct reading {
	u64 value, enabled, running;
};

static void read_ev(long fd, struct reading *r)
{
	memset(r, 0, sizeof(*r));
	sys3(SYS_read, fd, r, sizeof(*r));
}

/* The counter a mapped event is on (its page's index - 1), or -1. */
static int counter_of(const struct perf_page *pg)
{
	return pg && (pg->capabilities & CAP_USER_RDPMC) && pg->index ? (int)pg->index - 1 : -1;
}

static struct perf_page *map_page(long fd)
{
	long a = sys6(SYS_mmap, 0, PAGE_SIZE, PROT_READ, MAP_SHARED, fd, 0);

	return a < 0 && a > -4096 ? NULL : (struct perf_page *)a;
}

/* cannot go on: an event does not open (EBUSY: who holds the counters) */
static void cannot_run(long err, const char *what)
{
	explain_open_error((int)-err, &pmu, what, 0);
	pr("\nknc-check: cannot run: %s did not open (%s)\n", what, errname((int)-err));
	sys_exit(2);
}

/*
 * Counters 0 and 1: a group of n events of name (n = 1 or 2), the last
 * of which the check is about: with the counters free the x86 core and
 * knc_pmu.ko both put a group's leader on counter 0 and the next event
 * on counter 1. The group's counters, read on the mmap pages while it
 * runs, say where each went.
 */
static void check_counter(int which)
{
	struct ev e[2];
	long fd[2] = { -1, -1 };
	struct perf_page *pg[2];
	struct reading r[2];
	u64 want = LOOP_INSNS(LOOP_N), ints;
	int i, n = which + 1, ctr[2], ok;
	const char *word;
	char title[96];

	fmt(title, sizeof(title), "counter %d counts a loop's user-mode instructions exactly", which);
	for (i = 0; i < n; i++) {
		fd[i] = open_ev("instructions_executed", i ? 0 : ATTR_DISABLED | ATTR_PINNED,
				i ? (int)fd[0] : -1, &e[i]);
		if (fd[i] < 0)
			cannot_run(fd[i], "instructions_executed:u");
		pg[i] = map_page(fd[i]);
	}
	/* where the group goes: enable it, read its pages, stop it */
	sys3(SYS_ioctl, fd[0], IOC_ENABLE, 0);
	for (i = 0; i < n; i++)
		ctr[i] = counter_of(pg[i]);
	sys3(SYS_ioctl, fd[0], IOC_DISABLE, 0);
	for (i = 0; i < n; i++)
		sys3(SYS_ioctl, fd[i], IOC_RESET, 0);

	ints = cpu_interrupts();
	knc_loop_counted((int)fd[0], LOOP_N);
	ints = cpu_interrupts() - ints;
	for (i = 0; i < n; i++)
		read_ev(fd[i], &r[i]);
	i = which;
	ok = count_ok(r[i].value, want, ints, &word);
	fmt(seen, sizeof(seen), "instructions_executed:u %N, expected %N, %N interrupts (%s); on counter %s%s",
	    r[i].value, want, ints, word,
	    ctr[i] < 0 ? "unknown (no index on the mmap page)" : ctr[i] ? "1" : "0",
	    r[i].running != r[i].enabled ? "; not on a counter all the time" : "");
	if (!r[i].running) {
		scat(seen, "; it never got a counter: the NMI watchdog or another event holds one",
		     sizeof(seen));
		verdict("SKIP", title, seen, "", 0);
		counter_held = 1;
	} else if (ctr[i] >= 0 && ctr[i] != which) {
		char more[160];

		fmt(more, sizeof(more), "; expected counter %d: the NMI watchdog or another event holds it?", which);
		scat(seen, more, sizeof(seen));
		verdict("SKIP", title, seen, "", 0);
		counter_held = 1;
	} else if (ok) {
		verdict("PASS", title, seen, "", 0);
	} else if (which == 1 && r[i].value == 0) {
		counter1_broken = 1;
		verdict("FAIL", title, seen,
			"counter 1 never counts: Linux's knc.c writes its event select to MSR 0x2a\n"
			"             (config_base + idx), which KNC does not have", 1);
	} else {
		verdict("FAIL", title, seen, "the count is not the loop's", 0);
	}
	/*
	 * Unmapped, not only closed: while a page of an event that offers
	 * RDPMC stays mapped, RDPMC is allowed in this mm, and fork() copies
	 * that to a child (mm->context.perf_rdpmc_allowed) without the page
	 * (VM_DONTCOPY), where check_rdpmc() needs RDPMC to fault.
	 */
	for (i = 0; i < n; i++) {
		if (pg[i])
			sys2(SYS_munmap, pg[i], PAGE_SIZE);
		sys1(SYS_close, fd[i]);
	}
}

/* The public report's two-event run: cycles first, instructions second. */
static void check_two_events(void)
{
	struct ev e[2];
	long fd[2];
	struct reading r[2];
	const char *title = "two events together both count (cpu_clk_unhalted, instructions_executed)";
	u64 want = LOOP_INSNS(LOOP_N), ints;
	const char *word;
	int ok;

	fd[0] = open_ev("cpu_clk_unhalted", ATTR_DISABLED, -1, &e[0]);
	if (fd[0] < 0)
		cannot_run(fd[0], "cpu_clk_unhalted:u");
	fd[1] = open_ev("instructions_executed", 0, (int)fd[0], &e[1]);
	if (fd[1] < 0)
		cannot_run(fd[1], "instructions_executed:u");
	ints = cpu_interrupts();
	knc_loop_counted((int)fd[0], LOOP_N);
	ints = cpu_interrupts() - ints;
	read_ev(fd[0], &r[0]);
	read_ev(fd[1], &r[1]);
	ok = count_ok(r[1].value, want, ints, &word);
	fmt(seen, sizeof(seen), "cpu_clk_unhalted:u %N, instructions_executed:u %N (expected %N, %N interrupts: %s)",
	    r[0].value, r[1].value, want, ints, word);
	if (!r[0].running)
		verdict("SKIP", title, "the pair never got the counters: the NMI watchdog or another event holds one",
			"", 0);
	else if (r[0].value && ok)
		verdict("PASS", title, seen, "", 0);
	else if (r[0].value && !r[1].value)
		verdict("FAIL", title, seen, "the second event, on counter 1, reads 0", 1);
	else
		verdict("FAIL", title, seen, "an event of the pair does not count as it should", 0);
	sys1(SYS_close, fd[0]);
	sys1(SYS_close, fd[1]);
}

/*
 * Sampling: an overflow interrupt every SAMPLE_PERIOD instructions over
 * SAMPLES periods and a half, each a PERF_RECORD_SAMPLE in the buffer.
 */
static void check_sampling(void)
{
	const char *title = "sampling: a PMI at every period, over many periods";
	u64 n = (SAMPLES * SAMPLE_PERIOD + SAMPLE_PERIOD / 2 - 3) / 2;
	struct ev e;
	struct perf_page *pg;
	long fd, a;
	u64 head, off, samples = 0, lost = 0, throttled = 0;
	struct reading r;

	ev_knc(&pmu, "instructions_executed", ATTR_DISABLED | ATTR_EXCLUDE_KERNEL | ATTR_EXCLUDE_HV, &e);
	e.attr.sample_period = SAMPLE_PERIOD;
	e.attr.sample_type = SAMPLE_IP;
	fd = perf_open(&e.attr, 0, -1, -1, 0);
	if (fd == -EOPNOTSUPP) {
		verdict("SKIP", title, "the PMU does not sample (EOPNOTSUPP: knc_pmu.ko sampling=0?)", "", 0);
		return;
	}
	if (fd < 0)
		cannot_run(fd, "instructions_executed:u, sampling");
	a = sys6(SYS_mmap, 0, 9 * PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (a < 0 && a > -4096) {
		fmt(seen, sizeof(seen), "mmap of the ring buffer failed: %s", errname((int)-a));
		verdict("SKIP", title, seen, "", 0);
		sys1(SYS_close, fd);
		return;
	}
	pg = (struct perf_page *)a;
	knc_loop_counted((int)fd, n);
	read_ev(fd, &r);
	head = *(volatile u64 *)&pg->data_head;
	for (off = 0; off + 8 <= head && off < 8 * PAGE_SIZE;) {
		const u8 *rec = (const u8 *)pg + PAGE_SIZE + off;
		u32 type = *(const u32 *)rec;
		u16 size = *(const u16 *)(rec + 6);

		if (type == 9)
			samples++;
		else if (type == 2)
			lost++;
		else if (type == 5)
			throttled++;
		if (!size)
			break;
		off += size;
	}
	fmt(seen, sizeof(seen), "%lu samples of %d due in %N instructions (period %lu)%s%s",
	    (unsigned long)samples, SAMPLES, r.value, (unsigned long)SAMPLE_PERIOD,
	    lost ? "; records lost" : "", throttled ? "; throttled (perf_event_max_sample_rate)" : "");
	if (samples == SAMPLES)
		verdict("PASS", title, seen, "", 0);
	else if (throttled)
		verdict("SKIP", title, seen, "", 0);
	else if (samples < SAMPLES / 2)
		verdict("FAIL", title, seen,
			"PMIs stop after the first: the handler never unmasks the LVT performance\n"
			"             entry, which the APIC masks on each PMI", 3);
	else
		verdict("FAIL", title, seen, "samples are missing", 0);
	sys2(SYS_munmap, a, 9 * PAGE_SIZE);
	sys1(SYS_close, fd);
}

static u64 rdpmc(u32 ecx)
{
	u32 lo, hi;

	asm volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(ecx));
	return (u64)hi << 32 | lo;
}

/* what a child that may die of RDPMC's #GP saw, in a shared page */
struct rdpmc_seen {
	int stage;		/* 1: about to RDPMC; 2: done */
	u32 cap, index;
	u64 rdpmc;
	long read_ret;		/* what read() returned */
	struct reading read;
};

/* the exit status of a child whose RDPMC faulted */
#define RDPMC_FAULTED	4

/* RDPMC's #GP: a SIGSEGV handled, which the kernel does not log as a trap */
static void rdpmc_fault(int sig)
{
	(void)sig;
	sys1(SYS_exit_group, RDPMC_FAULTED);
}

/* Run fn in a child; 1 if RDPMC faulted there (SIGSEGV), else 0. */
static int in_child(void (*fn)(struct rdpmc_seen *), struct rdpmc_seen **out)
{
	long a, pid;
	int status = 0;

	a = sys6(SYS_mmap, 0, PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (a < 0 && a > -4096)
		die("knc-check: mmap: %s\n", errname((int)-a));
	*out = (struct rdpmc_seen *)a;
	out_flush();
	pid = sys0(SYS_fork);
	if (pid == 0) {
		card_signal(SIGSEGV, rdpmc_fault);
		fn(*out);
		sys1(SYS_exit_group, 0);
	}
	while (sys4(SYS_wait4, pid, &status, 0, 0) == -EINTR)
		;
	return (status & 0x7f) == 0 && (status >> 8 & 0xff) == RDPMC_FAULTED;
}

/* The counter through the page and RDPMC (the documented protocol). */
static void rdpmc_read_page(struct perf_page *pg, struct rdpmc_seen *s)
{
	volatile struct perf_page *v = pg;
	u32 lock;
	u64 pmc;
	int w;

	do {
		lock = v->lock;
		asm volatile("" ::: "memory");
		s->cap = !!(v->capabilities & CAP_USER_RDPMC);
		s->index = v->index;
		s->rdpmc = (u64)v->offset;
		if (s->cap && s->index) {
			s->stage = 1;
			w = v->pmc_width;
			pmc = rdpmc(s->index - 1);
			pmc <<= 64 - w;
			s->rdpmc += (u64)((s64)pmc >> (64 - w));
		}
		asm volatile("" ::: "memory");
	} while (v->lock != lock);
	s->stage = 2;
}

static void rdpmc_self(struct rdpmc_seen *s)
{
	struct ev e;
	long fd = open_ev("instructions_executed", 0, -1, &e);
	struct perf_page *pg = fd < 0 ? NULL : map_page(fd);

	if (!pg)
		sys1(SYS_exit_group, 3);
	knc_loop(LOOP_N);
	rdpmc_read_page(pg, s);
	/* all of read_format's fields: a shorter buffer is ENOSPC */
	s->read_ret = sys3(SYS_read, fd, &s->read, sizeof(s->read));
}

/* RDPMC of counter 0 with no event mapped: faults, unless RDPMC is always allowed */
static void rdpmc_unmapped(struct rdpmc_seen *s)
{
	s->stage = 1;
	s->rdpmc = rdpmc(0);
	s->stage = 2;
}

/* an event whose output goes to a cpu-clock event's buffer */
static void rdpmc_redirected(struct rdpmc_seen *s)
{
	struct perf_attr sw = { .type = PERF_TYPE_SOFTWARE, .config = 0,
				.flags = ATTR_EXCLUDE_KERNEL | ATTR_EXCLUDE_HV };
	volatile struct perf_page *v;
	long swfd, fd, a;
	struct ev e;
	int tries;

	swfd = perf_open(&sw, 0, -1, -1, 0);
	fd = open_ev("instructions_executed", 0, -1, &e);
	if (swfd < 0 || fd < 0)
		sys1(SYS_exit_group, 3);
	a = sys6(SYS_mmap, 0, 2 * PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, swfd, 0);
	if ((a < 0 && a > -4096) || sys3(SYS_ioctl, fd, IOC_SET_OUTPUT, swfd))
		sys1(SYS_exit_group, 3);
	v = (volatile struct perf_page *)a;
	/* a reset writes the page from the redirected event; a context switch may overwrite it */
	for (tries = 0; tries < 100; tries++) {
		sys3(SYS_ioctl, fd, IOC_RESET, 0);
		if (v->capabilities & CAP_USER_RDPMC)
			break;
	}
	rdpmc_read_page((struct perf_page *)a, s);
}

static void check_rdpmc(void)
{
	const char *title = "RDPMC: offered on an event's mmap page only where it works";
	const char *title2 = "RDPMC: not offered on the page of an event whose output is redirected";
	struct rdpmc_seen *s;
	int faulted;

	faulted = in_child(rdpmc_self, &s);
	if (faulted) {
		fmt(seen, sizeof(seen), "cap_user_rdpmc=%u index=%u, and RDPMC faulted", s->cap, s->index);
		verdict("FAIL", title, seen, "RDPMC offered where it faults", 0);
	} else if (s->stage != 2) {
		verdict("SKIP", title, "the event did not open or map", "", 0);
	} else if (!s->cap || !s->index) {
		fmt(seen, sizeof(seen), "not offered (cap_user_rdpmc=%u index=%u): read() it is", s->cap, s->index);
		verdict("PASS", title, seen, "", 0);
	} else {
		int agree = s->rdpmc <= s->read.value && s->read.value - s->rdpmc < 10000;

		fmt(seen, sizeof(seen), "cap_user_rdpmc=1 index=%u: RDPMC %N, then read() %N", s->index,
		    s->rdpmc, s->read.value);
		if (s->read_ret != sizeof(s->read)) {
			fmt(seen, sizeof(seen), "cap_user_rdpmc=1 index=%u: RDPMC %N, and read() failed (%s)",
			    s->index, s->rdpmc, s->read_ret < 0 ? errname((int)-s->read_ret) : "short");
			verdict("SKIP", title, seen, "", 0);
		} else if (agree && s->rdpmc >= 2 * LOOP_N) {
			verdict("PASS", title, seen, "", 0);
		} else if (agree) {
			scat(seen, "; they agree, but the event did not count the loop (see the counter checks)",
			     sizeof(seen));
			verdict("SKIP", title, seen, "", 0);
		} else {
			verdict("FAIL", title, seen, "RDPMC's count and read()'s disagree", 0);
		}
	}
	/*
	 * The redirected page's defect shows as RDPMC faulting in an mm
	 * where no event is mapped: where RDPMC works without one (cpu/rdpmc
	 * 2), there is nothing to see.
	 */
	if (!in_child(rdpmc_unmapped, &s) && s->stage == 2) {
		fmt(seen, sizeof(seen), "RDPMC works in a process with no event mapped (%N): cpu/rdpmc 2?",
		    s->rdpmc);
		verdict("SKIP", title2, seen, "", 0);
		return;
	}
	faulted = in_child(rdpmc_redirected, &s);
	if (faulted) {
		fmt(seen, sizeof(seen), "cap_user_rdpmc=%u index=%u on the cpu-clock event's page, and RDPMC faulted",
		    s->cap, s->index);
		verdict("FAIL", title2, seen,
			"RDPMC offered on the page of an event that is not mapped itself\n"
			"             (PERF_EVENT_IOC_SET_OUTPUT), in an mm where RDPMC faults", 6);
	} else if (s->stage != 2) {
		verdict("SKIP", title2, "the events did not open or map", "", 0);
	} else {
		fmt(seen, sizeof(seen), "cap_user_rdpmc=%u index=%u%s", s->cap, s->index,
		    s->cap && s->index ? ", and RDPMC works" : ": read() it is");
		verdict("PASS", title2, seen, "", 0);
	}
}

/*
 * Multiplexing: three events on two counters, each opened alone, rotated
 * by the kernel over a long loop. Three times the executed instructions:
 * their count of a loop is the same from run to run (the unhalted cycles
 * of a loop are not, where the machine is shared or its clock is
 * virtual). In every turn two of them are on the counters, so their raw
 * counts add up to twice the loop's, whatever the rate the machine ran
 * at; with a counter that does not count, to less. Each scaled estimate
 * is also compared with the event counted alone over the same loop: on a
 * machine whose rate varies (shared, or virtual) estimates drift, and
 * beyond MUX_BOUND_PCT that is said, not failed.
 */
#define MUX 3
static const char *const mux_names[MUX] = {
	"instructions_executed", "instructions_executed", "instructions_executed",
};

/*
 * The events first..first+count-1 over loops of MUX_CHUNK: with chunks 0,
 * as many as take MUX_MS of the clock (many turns of the rotation, however
 * slowly the machine runs), else that many. Return: the chunks run.
 */
#define MUX_CHUNK	(LOOP_N / 10)
static u64 mux_run(int first, int count, u64 chunks, struct reading *r)
{
	struct ev e;
	long fd[MUX];
	u64 t0, done;
	int i;

	for (i = first; i < first + count; i++) {
		fd[i] = open_ev(mux_names[i], ATTR_DISABLED, -1, &e);
		if (fd[i] < 0)
			cannot_run(fd[i], mux_names[i]);
	}
	for (i = first; i < first + count; i++)
		sys3(SYS_ioctl, fd[i], IOC_ENABLE, 0);
	t0 = now_ns();
	for (done = 0; chunks ? done < chunks : now_ns() - t0 < MUX_MS * 1000000ULL; done++) {
		if (chunks)
			now_ns();	/* the same instructions in both runs */
		knc_loop(MUX_CHUNK);
	}
	for (i = first; i < first + count; i++)
		sys3(SYS_ioctl, fd[i], IOC_DISABLE, 0);
	for (i = first; i < first + count; i++) {
		read_ev(fd[i], &r[i]);
		sys1(SYS_close, fd[i]);
	}
	return done;
}

static void check_multiplexing(void)
{
	char title[128], one[160];
	struct reading mux[MUX], alone;
	u64 est, d, sum = 0, worst = 0;
	int i, rotated = 0, ok;

	fmt(title, sizeof(title), "multiplexing: %d events on 2 counters count the loop twice together",
	    MUX);
	mux_run(0, 1, mux_run(0, MUX, 0, mux), &alone);
	seen[0] = 0;
	for (i = 0; i < MUX; i++) {
		est = mux[i].running ? muldiv(mux[i].value, mux[i].enabled, mux[i].running) : 0;
		rotated |= mux[i].running != mux[i].enabled;
		sum += mux[i].value;
		d = est > alone.value ? est - alone.value : alone.value - est;
		d = muldiv(d, 100, alone.value ? alone.value : 1);
		worst = d > worst ? d : worst;
		fmt(one, sizeof(one), "%s:u %N, estimated %N (counted %F%% of the time)\n     ",
		    mux_names[i], mux[i].value, est,
		    mux[i].enabled ? muldiv(mux[i].running, 10000, mux[i].enabled) : 0);
		scat(seen, one, sizeof(seen));
	}
	/* the few instructions between the enables and between the disables aside */
	d = sum > 2 * alone.value ? sum - 2 * alone.value : 2 * alone.value - sum;
	ok = alone.value && muldiv(d, 1000, 2 * alone.value) < 5;
	fmt(one, sizeof(one), "together %N, twice the count alone %N; estimates within %u%% of it%s", sum,
	    2 * alone.value, (unsigned int)worst,
	    !ok || worst < MUX_BOUND_PCT ? "" : " (a machine whose rate varies: estimates drift)");
	scat(seen, one, sizeof(seen));
	if (!rotated)
		verdict("SKIP", title, seen, "", 0);
	else if (ok)
		verdict("PASS", title, seen, "", 0);
	else if (counter1_broken)
		verdict("FAIL", title, seen,
			"the counts are short and scaled estimates wrong: each event counts nothing\n"
			"             during its turns on counter 1, which never counts", 1);
	else
		verdict("FAIL", title, seen, "the counts of the turns do not add up to the loop's", 0);
}

/*
 * Inheritance: a child process starts THREADS threads, each running a
 * loop of known count; an inherited event on it counts their sum.
 */
static void check_threads(void)
{
	char title[96], state[256], path[48];
	long stacks, pid, fd;
	struct reading r;
	u64 want = THREADS_INSNS((u64)THREADS, THREAD_N), ints;
	const char *word;
	int ok;
	int go[2], status = 0, i;
	struct ev e;

	fmt(title, sizeof(title), "an inherited count over %d threads is the sum of the threads'", THREADS);
	stacks = sys6(SYS_mmap, 0, THREADS * PAGE_SIZE, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if ((stacks < 0 && stacks > -4096) || sys2(SYS_pipe2, go, O_CLOEXEC))
		die("knc-check: no memory or pipe for the threads\n");
	out_flush();
	pid = sys0(SYS_fork);
	if (pid == 0) {
		sys1(SYS_close, go[1]);
		knc_threads_wait(go[0], THREADS, THREAD_N, (char *)stacks + PAGE_SIZE, PAGE_SIZE);
	}
	sys1(SYS_close, go[0]);
	/* the child's own code must not count: wait until it sleeps in read */
	fmt(path, sizeof(path), "/proc/%ld/stat", pid);
	for (i = 0; i < 1000; i++) {
		char *p = read_file(path, state, sizeof(state)) > 0 ? schr(state, ')') : NULL;

		if (p && p[1] && p[2] == 'S')
			break;
		sleep_ms(10);
	}
	fd = open_ev_on("instructions_executed", ATTR_INHERIT, -1, (int)pid, &e);
	if (fd < 0) {
		sys2(SYS_kill, pid, SIGKILL);
		sys4(SYS_wait4, pid, &status, 0, 0);
		cannot_run(fd, "instructions_executed:u, inherited");
	}
	ints = cpu_interrupts();
	sys3(SYS_write, go[1], "g", 1);
	while (sys4(SYS_wait4, pid, &status, 0, 0) == -EINTR)
		;
	ints = cpu_interrupts() - ints;
	read_ev(fd, &r);
	ok = count_ok(r.value, want, ints, &word);
	fmt(seen, sizeof(seen), "instructions_executed:u %N, the threads' sum %N, %N interrupts (%s)", r.value,
	    want, ints, word);
	if (ok)
		verdict("PASS", title, seen, "", 0);
	else
		verdict("FAIL", title, seen, "the threads' counts are not all in the total", 0);
	sys1(SYS_close, fd);
	sys1(SYS_close, go[1]);
	sys2(SYS_munmap, stacks, THREADS * PAGE_SIZE);
}

/*
 * The PMU as knc-check found it. A PMI masks the LVT performance entry;
 * a handler without patch 3 of make linux-fixes never unmasks it, and
 * the overflows after it set GLOBAL_STATUS bits that nothing clears: they
 * hold the PMI line, so that no later overflow on this CPU raises a PMI.
 * Clear them through GLOBAL_OVF_CONTROL (as root, /dev/cpu/N/msr), then
 * have the kernel unmask the LVT entry: the x86 core writes it whenever
 * it programs a newly added event (x86_pmu_enable(), perf_events_lapic_init()).
 */
#define MSR_PERF_GLOBAL_STATUS		0x2d
#define MSR_PERF_GLOBAL_OVF_CTRL	0x2e

static int msr_fd(void)
{
	char path[48];

	fmt(path, sizeof(path), "/dev/cpu/%d/msr", cpu);
	return (int)sys4(SYS_openat, AT_FDCWD, path, O_RDWR | O_CLOEXEC, 0);
}

static void restore_pmu(void)
{
	u64 status = 0, v;
	struct ev e;
	long fd;
	int m = cpu < 0 ? -ENODEV : msr_fd();

	if (m >= 0 && sys4(__NR_pread64, m, &status, 8, MSR_PERF_GLOBAL_STATUS) == 8 && status & 3) {
		v = status & 3;
		sys4(__NR_pwrite64, m, &v, 8, MSR_PERF_GLOBAL_OVF_CTRL);
	}
	/* a counting event added on this CPU: the kernel rewrites the LVT entry */
	fd = open_ev("instructions_executed", 0, -1, &e);
	if (fd >= 0) {
		knc_loop(1000);
		sys1(SYS_close, fd);
	}
	if (m < 0) {
		pr("pmu: left as found? GLOBAL_STATUS unread (/dev/cpu/%d/msr: %s; as root: modprobe msr):\n"
		   "     an unpatched handler leaves overflow bits set, and PMIs on CPU %d stop until they\n"
		   "     are cleared (wrmsr -p %d 0x2e 3)\n", cpu, errname(-m), cpu, cpu);
		return;
	}
	v = ~0ULL;
	sys4(__NR_pread64, m, &v, 8, MSR_PERF_GLOBAL_STATUS);
	sys1(SYS_close, m);
	pr("pmu: CPU %d, GLOBAL_STATUS 0x%lx after the checks%s\n", cpu, (unsigned long)v,
	   status & 3 ? " (overflow bits left by the handler, cleared; the LVT entry unmasked again)" : "");
}

/* Which driver drives the PMU; 0, or -1 when there is none to check. */
static int show_driver(void)
{
	char buf[4096];
	s64 v;
	int found = !pmu_find(&pmu);

	pr("kernel: %s\n", kernel_release());
	pr("cpu: family %ld model %ld%s\n", pmu.family, pmu.model,
	   pmu.is_knc_cpu ? " (Knights Corner)" : " (not a Knights Corner)");
	if (!found) {
		pr("driver: none (no knc or cpu PMU in " SYSFS_PMUS ")\n");
		return -1;
	}
	if (pmu.knc) {
		int sim = read_file("/sys/module/knc_sim/initstate", buf, sizeof(buf)) > 0;

		pr("driver: knc_pmu.ko, the knc PMU (type %u)%s\n", pmu.type,
		   sim ? ", on knc_sim.ko's simulated PMU" : "");
		if (sim)
			return -1;
	} else {
		char name[64];

		if (read_file(SYSFS_PMUS "cpu/caps/pmu_name", name, sizeof(name)) > 0)
			name[slen(name) - (name[slen(name) - 1] == '\n')] = 0;
		else
			scpy(name, "no caps/pmu_name", sizeof(name));
		pr("driver: Linux's cpu PMU (type %u, %s)%s\n", pmu.type, name,
		   pmu.is_knc_cpu ? ", arch/x86/events/intel/knc.c" : "");
	}
	if (!read_s64("/proc/sys/kernel/nmi_watchdog", &v))
		pr("nmi_watchdog: %ld%s\n", (long)v, v ? " (it holds a counter)" : "");
	if (!read_s64("/proc/sys/kernel/perf_event_paranoid", &v))
		pr("perf_event_paranoid: %ld\n", (long)v);
	if (!read_s64(SYSFS_PMUS "cpu/rdpmc", &v))
		pr("cpu/rdpmc: %ld\n", (long)v);
	pr("\n");
	return pmu.is_knc_cpu ? 0 : -1;
}

int main(int argc, char **argv)
{
	if (argc == 2 && seq(argv[1], "--exact")) {
		exact = 1;
	} else if (argc > 1) {
		pr("%s", usage);
		return seq(argv[1], "-h") || seq(argv[1], "--help") ? 0 : 2;
	}
	pr("knc-check: the Knights Corner PMU and its driver\n\n");
	if (show_driver()) {
		pr("knc-check: cannot run: no Knights Corner PMU to check\n");
		return 2;
	}
	if (pin_cpu())
		pr("knc-check: cannot stay on one CPU: the counts' bounds and the PMU's state are unknown\n\n");
	else
		pr("cpu %d: every check runs here%s\n\n", cpu,
		   exact ? "; --exact: only the loop's count passes" : "");
	check_counter(0);
	if (counter_held) {
		/* every check after would see one counter, or none */
		pr("\nknc-check: cannot run: a counter is held: by the NMI watchdog (echo 0 >\n"
		   "/proc/sys/kernel/nmi_watchdog, or boot with nmi_watchdog=0) or by other perf\n"
		   "events (end them); then run knc-check again\n");
		return 2;
	}
	check_counter(1);
	check_two_events();
	check_rdpmc();
	check_multiplexing();
	check_threads();
	/* last: an unpatched handler leaves the LVT entry masked behind it */
	check_sampling();
	restore_pmu();
	pr("\n%d passed, %d failed, %d skipped", npass, nfail, nskip);
	if (nfail)
		pr(": a defect found%s\n", pmu.knc ? "" : "; patch 2 of make linux-fixes has no check here");
	else if (nskip)
		pr(": not everything could be checked\n");
	else
		pr(": the PMU and its driver work\n");
	return nfail ? 1 : nskip ? 2 : 0;
}
