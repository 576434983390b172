// SPDX-License-Identifier: GPL-2.0
/*
 * knc-stat: count a command's events on a Knights Corner card, as perf
 * stat does, with no perf, no libc and no SSE (tools/knc/card/card.h).
 *
 *   knc-stat [-e EV,...]... [-p PID] [-a] [-x SEP] [-o FILE] [-l] [--] CMD [ARG...]
 *   knc-stat --view [-A] [-I MS] [-n N] [-b | -x SEP]: the card, a row per core
 */
#include "card.h"
#include "knc_events.h"

#include <linux/wait.h>

#define MAX_EVENTS	16
#define MAX_TARGETS	512	/* threads of -p, CPUs of -a */
#define MAX_RUNS	1000	/* -r */
#define MIN_INTERVAL	10	/* -I, ms */
#define NUM_COUNTERS	2

static const char usage[] =
"usage: knc-stat [-e EV,...]... [-p PID] [-a [-A|--per-core]] [-I MS [-n N]] [-r N] [-x SEP]\n"
"                [-o FILE] [-l] [--] [CMD [ARG...]]\n"
"       knc-stat --view [-A] [-I MS] [-n N] [-b | -x SEP] [-o FILE] [[--] CMD [ARG...]]\n"
"Counts CMD's events, and those of every thread and child it starts, on\n"
"the Knights Corner PMU: knc_pmu.ko's knc PMU when it is loaded, else\n"
"Linux's cpu PMU (arch/x86/events/intel/knc.c).\n"
"  -e EV,...  the events (default: cycles,instructions): a name of the KNC\n"
"             event list (any case; -l lists them), a generic name (cycles,\n"
"             instructions, cache-references, cache-misses, branches,\n"
"             branch-misses), a software one (task-clock, ...), format terms\n"
"             of the PMU's sysfs format/ (event=0x16,umask=0,cmask=2, or\n"
"             knc/event=0x16,inv/), or a raw code (0x10cb, or perf's r10cb:\n"
"             umask 0x10, event 0xcb); each with :u (user mode only) or :k.\n"
"             A repeated term starts a new event. -e may be given again.\n"
"             {EV,EV} is a group, as perf writes it: counted together (at\n"
"             most 2 PMU events, the PMU's counters; exact, if never rotated)\n"
"  -p PID     count the threads of PID (and what they start) until it exits,\n"
"             or while CMD runs\n"
"  -a         count every CPU while CMD runs; without CMD, until SIGINT\n"
"  -A         with -a: a line per CPU (CPU12), no sum\n"
"  --per-core with -a: a line per core, its hardware threads summed\n"
"             (S0-D0-C12, then how many CPUs)\n"
"  -I MS      print the counts of every MS milliseconds (10 or more), each\n"
"             line after its time; the last interval ends with CMD, no totals\n"
"  -n N       with -I: stop after N intervals (CMD too: SIGTERM)\n"
"  -r N       run CMD N times (up to 1000): the mean of each count and its\n"
"             spread, ( +- 0.52% ), the standard deviation of the mean\n"
"  -x SEP     CSV: value SEP unit SEP event SEP ns running SEP % running SEP\n"
"             exact|estimate|not counted; with -r the spread after the event;\n"
"             the time (-I), the CPU (-A), the core and its CPUs (--per-core)\n"
"             first\n"
"  -o FILE    the counts into FILE (default: standard error, as perf stat)\n"
"  -l         list the event names\n"
"  --view     the whole card: every CPU counted, and every interval (-I, default\n"
"             1000 ms) a row per core (per CPU with -A) and one for the card:\n"
"             cycles, instructions, IPC, L2 read misses per 1000 instructions\n"
"             (L2 MPKI), L2 read hits per L2 read (E, M and S hits and misses),\n"
"             VPU elements active per VPU instruction (lanes used of 16), and\n"
"             the share of the interval the row's events were counted (the\n"
"             least): its 9 events take turns on the 2 counters, 6 groups,\n"
"             so every figure is an estimate (marked ~); each ratio but the\n"
"             hit ratio is of two events counted together. Until CMD ends, -n\n"
"             intervals, or SIGINT. On a terminal each table replaces the\n"
"             last; -b (batch) appends them, for logs; -x SEP prints a line\n"
"             per row: time, core (or CPU), its CPUs, cycles, instructions,\n"
"             IPC, L2 MPKI, L2 hit %, VPU lanes, % counted, exact|estimate\n"
"             (a figure whose events were not counted in the interval empty)\n"
"Without braces, up to two events share the PMU's two counters as one group:\n"
"their counts are exact. With braces, each group is as written and every\n"
"other event a group of its own. With more PMU events than counters, the\n"
"kernel rotates them over the counters: each is counted part of the time and\n"
"scaled by time enabled / time running, an estimate, and knc-stat says so.\n"
"On Linux's intel/knc.c without patch 1 of make linux-fixes, which never\n"
"starts counter 1, each event is counted on counter 0 (one at a time:\n"
"estimates if more than one), a group of two PMU events not at all (exit\n"
"255), or, when counter 0 is held (the NMI watchdog), knc-stat counts\n"
"nothing and says why.\n"
"Exits with CMD's status (its last run's; 128 + N if signal N ended it), 0\n"
"after SIGINT without CMD, 255 on its own errors.\n";

struct reading {
	u64 value, enabled, running;
};

/* a count summed over targets (and runs), scaled per target */
struct count {
	u64 value, scaled, enabled, running;
};

struct counter {
	struct ev ev;
	int fd[MAX_TARGETS];
	int filler[MAX_TARGETS];	/* counter 1's event beside it, never read */
	int leader;		/* the counter that leads its group; -1: alone */
};

static struct counter ctrs[MAX_EVENTS];
static int nctr;
static int batch;		/* -b */
static int user_groups;		/* -e has braces: its groups as written */
static int targets[MAX_TARGETS];	/* pids (tids) or CPUs */
static int ntargets;
static volatile int interrupted;
static int attach_pid;		/* -p */

/* each target's reading, and at the last interval's end (-I) */
static struct reading cur[MAX_EVENTS][MAX_TARGETS], prev[MAX_EVENTS][MAX_TARGETS];
/* the sums over the runs (and the targets), and each run's (-r) */
static struct count total[MAX_EVENTS];
static u64 run_scaled[MAX_RUNS][MAX_EVENTS], run_elapsed[MAX_RUNS];
static int nruns;

/* -A: a unit per CPU; --per-core: per core; else one, every target */
enum aggr { AGGR_GLOBAL, AGGR_CPU, AGGR_CORE };
static enum aggr aggr;
static int unit_of[MAX_TARGETS];
static struct {
	char label[24];
	int ncpus;
} units[MAX_TARGETS];
static int nunits;

/*
 * Counter 1 on Linux's intel/knc.c before patch 1 of make linux-fixes
 * ("Write counter 1's event select to its own MSR"): its event select is
 * written to MSR 0x2a, which is not counter 1's, so an event the kernel
 * puts there counts nothing while the kernel says it ran. Where that
 * happens, counts would be wrong without a sign of it (the public report's
 * instructions 0), so knc-stat finds out before it counts (probe_counter1)
 * and keeps every event off counter 1.
 */
enum counter1 {
	C1_OK,		/* counter 1 counts, or is not ours to use */
	C1_BROKEN,	/* it never counts: each event on counter 0, a filler on 1 */
	C1_ONLY,	/* it never counts, and it is the only counter free */
};
static enum counter1 counter1 = C1_OK;
/* the kernel has no perf_event_open() (ENOSYS): CMD runs, nothing is counted */
static int no_perf;
#define PROBE_N		10000UL	/* the probe loop's iterations */

/* SIGINT: stop waiting (-p, -a without CMD), print what was counted */
static void on_sigint(int sig)
{
	(void)sig;
	interrupted = 1;
}

/* SIGCHLD (-I): CMD ended; the handler's return ends the wait's sleep */
static void on_sigchld(int sig)
{
	(void)sig;
}

/* {a,b} of counter c's group, for what knc-stat says of it */
static const char *group_name(int lead)
{
	static char s[256];
	int c;

	scpy(s, "{", sizeof(s));
	for (c = lead; c < nctr && ctrs[c].leader == lead; c++) {
		if (c > lead)
			scat(s, ",", sizeof(s));
		scat(s, ctrs[c].ev.name, sizeof(s));
	}
	scat(s, "}", sizeof(s));
	return s;
}

/*
 * Split -e's list at the commas that end an event (see usage); braces
 * around events make them a group, as perf writes it: {cycles,instructions}.
 */
static void add_events(const struct pmu *p, const char *list)
{
	char spec[80], key[32];
	const char *s = list, *t;
	size_t n, k;
	int in_slash, lead = -1, opens, closes;

	while (*s) {
		n = 0;
		in_slash = 0;
		spec[0] = 0;
		opens = *s == '{';
		if (opens) {
			if (lead >= 0)
				die("knc-stat: -e '%s': unbalanced braces (a group in a group)\n", list);
			s++;
			user_groups = 1;
		}
		for (;;) {
			for (t = s; *t && (in_slash || *t != ','); t++)
				if (*t == '/')
					in_slash = !in_slash;
			if (n + (size_t)(t - s) + 2 >= sizeof(spec))
				die("knc-stat: event too long in '%s'\n", list);
			if (n)
				spec[n++] = ',';
			memcpy(spec + n, s, t - s);
			n += t - s;
			spec[n] = 0;
			s = *t ? t + 1 : t;
			/* terms continue while the next is a new key=value */
			if (!schr(spec, '=') || schr(spec, '/') || !*s)
				break;
			for (k = 0; s[k] && s[k] != '=' && s[k] != ','; k++)
				;
			if (s[k] != '=' || k + 2 >= sizeof(key))
				break;
			memcpy(key, s, k);
			key[k] = '=';
			key[k + 1] = 0;
			if (starts(spec, key))
				break;
			{
				char pat[34] = ",";

				scat(pat, key, sizeof(pat));
				for (t = spec; *t && !starts(t, pat); t++)
					;
				if (*t)
					break;
			}
		}
		n = slen(spec);
		closes = n && spec[n - 1] == '}';
		if (closes)
			spec[--n] = 0;
		if (closes && lead < 0 && !opens)
			die("knc-stat: -e '%s': unbalanced braces (a '}' without its '{')\n", list);
		t = schr(spec, '}');
		if (t && t[1] == ':')
			die("knc-stat: -e '%s': a group's modifier ('}%s') is not supported: give it to\n"
			    "  each event of the group\n", list, t + 1);
		if (t || schr(spec, '{'))
			die("knc-stat: -e '%s': unbalanced braces\n", list);
		if (!n)
			die("knc-stat: -e '%s': an empty event or group\n", list);
		if (nctr == MAX_EVENTS)
			die("knc-stat: at most %d events\n", MAX_EVENTS);
		if (ev_parse(p, spec, &ctrs[nctr].ev))
			sys_exit(255);
		if (opens)
			lead = nctr;
		ctrs[nctr].leader = lead;
		nctr++;
		if (closes)
			lead = -1;
	}
	if (lead >= 0)
		die("knc-stat: -e '%s': unbalanced braces (a '{' without its '}')\n", list);
}

/* PMU events in the group that counter lead leads */
static int group_hw(int lead)
{
	int c, n = 0;

	for (c = lead; c < nctr && ctrs[c].leader == lead; c++)
		n += ctrs[c].ev.hw;
	return n;
}

/*
 * The groups of braces against the PMU: no more PMU events than its
 * counters; where counter 1 never counts (C1_BROKEN), at most one.
 */
static void check_groups(int c1_broken)
{
	int c;

	for (c = 0; c < nctr; c++) {
		if (ctrs[c].leader != c)
			continue;
		if (group_hw(c) > NUM_COUNTERS)
			die("knc-stat: the group %s has %d PMU events: it cannot count on the PMU's %d\n"
			    "  counters together (at most %d in a group)\n", group_name(c), group_hw(c),
			    NUM_COUNTERS, NUM_COUNTERS);
		if (c1_broken && group_hw(c) > 1)
			die("knc-stat: the group %s cannot be counted right on this kernel: counter 1\n"
			    "  does not count (Linux's intel/knc.c without patch 1 of make linux-fixes\n"
			    "  writes its event select to MSR 0x2a), and two PMU events together need it.\n"
			    "  Count them without braces (they take turns on counter 0: estimates), or\n"
			    "  load knc_pmu.ko, or apply the patch; knc-check tells which defects this\n"
			    "  kernel has.\n", group_name(c));
	}
}

/* fd is a terminal: it answers TCGETS */
static int is_tty(int fd)
{
	char termios[64];

	return sys3(SYS_ioctl, fd, TCGETS, termios) == 0;
}

static int nmi_watchdog_on(void)
{
	s64 v;

	return !read_s64("/proc/sys/kernel/nmi_watchdog", &v) && v;
}

static void list_events(void)
{
	size_t i;

	pr("KNC events (tools/perf/pmu-events/knc), and the generic names:\n");
	for (i = 0; i < CARD_NUM_EVENTS; i++)
		pr("  %-36s event=0x%x,umask=0x%x%s\n", card_events[i].name,
		   card_events[i].code, card_events[i].umask,
		   card_events[i].counters == 1 ? "  (counter 0 only)" : "");
	pr("Software events: cpu-clock task-clock page-faults context-switches cpu-migrations\n");
}

/* The threads of pid, from /proc/PID/task */
static void add_threads(int pid)
{
	int n = proc_threads(pid, targets + ntargets, MAX_TARGETS - ntargets);

	if (n == -E2BIG)
		die("knc-stat: more than %d threads\n", MAX_TARGETS);
	if (n < 0)
		die("knc-stat: -p %d: /proc/%d/task: %s\n", pid, pid, errname(-n));
	ntargets += n;
}

/*
 * Which counters count: instructions:u over a loop, first alone (the
 * kernel puts it on the lowest counter free), then two in a group (on
 * counters 0 and 1). An event that ran the whole loop and counted nothing
 * was on a counter that does not count. Only Linux's driver on a KNC is
 * probed: knc_pmu.ko writes each counter's own select.
 */
static enum counter1 probe_counter1(const struct pmu *p)
{
	struct { u64 value, enabled, running; } r[2];
	struct perf_attr a[2];
	long fd[2];
	int n, i;

	if (p->knc || !p->name[0] || !p->is_knc_cpu)
		return C1_OK;
	for (n = 1; n <= 2; n++) {
		memset(a, 0, sizeof(a));
		memset(r, 0, sizeof(r));
		for (i = 0; i < n; i++) {
			a[i].type = p->type;
			a[i].config = 0x16;	/* INSTRUCTIONS_EXECUTED */
			a[i].read_format = FORMAT_TOTAL_TIME_ENABLED | FORMAT_TOTAL_TIME_RUNNING;
			a[i].flags = ATTR_EXCLUDE_KERNEL | ATTR_EXCLUDE_HV | (i ? 0 : ATTR_DISABLED);
			fd[i] = perf_open(&a[i], 0, -1, i ? (int)fd[0] : -1, 0);
			if (fd[i] < 0)
				break;
		}
		if (i == n) {
			sys3(SYS_ioctl, fd[0], IOC_ENABLE, 0);
			knc_loop(PROBE_N);
			sys3(SYS_ioctl, fd[0], IOC_DISABLE, 0);
			for (i = 0; i < n; i++)
				sys3(SYS_read, fd[i], &r[i], sizeof(r[i]));
		}
		while (i--)
			sys1(SYS_close, fd[i]);
		if (n == 1 && r[0].running && !r[0].value)
			return C1_ONLY;
		if (n == 2 && r[0].value && r[1].running && !r[1].value)
			return C1_BROKEN;
	}
	return C1_OK;
}

/*
 * Open every counter on target i (a task, or a CPU when cpu_wide), each
 * in its group (ctrs[].leader): the leader first, the others with its fd.
 * Returns 0, or the errno of the open that failed.
 */
static int open_target(const struct pmu *p, int i, int cpu_wide, u64 flags)
{
	long fd;
	int c;

	for (c = 0; c < nctr; c++) {
		struct perf_attr *a = &ctrs[c].ev.attr;
		int lead = ctrs[c].leader, member = lead >= 0 && lead != c;

		a->read_format = FORMAT_TOTAL_TIME_ENABLED | FORMAT_TOTAL_TIME_RUNNING;
		a->flags |= flags;
		if (member)
			a->flags &= ~(ATTR_DISABLED | ATTR_ENABLE_ON_EXEC);
		fd = perf_open(a, cpu_wide ? -1 : targets[i], cpu_wide ? targets[i] : -1,
			       member ? ctrs[lead].fd[i] : -1, 0);
		if (fd < 0) {
			/* perf stat's fallback: user mode only where kernel mode is not allowed */
			if ((fd == -EACCES || fd == -EPERM) &&
			    !(a->flags & (ATTR_EXCLUDE_KERNEL | ATTR_EXCLUDE_USER)) && !cpu_wide) {
				a->flags |= ATTR_EXCLUDE_KERNEL | ATTR_EXCLUDE_HV;
				if (!schr(ctrs[c].ev.name, ':'))
					scat(ctrs[c].ev.name, ":u", sizeof(ctrs[c].ev.name));
				c--;
				continue;
			}
			return (int)-fd;
		}
		ctrs[c].fd[i] = (int)fd;
		if (counter1 == C1_BROKEN && ctrs[c].ev.hw) {
			/* the event's group gets a filler, on counter 1 */
			struct perf_attr f = { .type = p->type, .config = 0x16,
					       .flags = a->flags & (ATTR_EXCLUDE_KERNEL | ATTR_EXCLUDE_USER |
								    ATTR_EXCLUDE_HV | ATTR_INHERIT) };

			fd = perf_open(&f, cpu_wide ? -1 : targets[i], cpu_wide ? targets[i] : -1,
				       lead >= 0 ? ctrs[lead].fd[i] : (int)fd, 0);
			if (fd < 0)
				return (int)-fd;
			ctrs[c].filler[i] = (int)fd;
		}
	}
	return 0;
}

static void close_all(int upto)
{
	int c, i;

	for (i = 0; i < upto; i++) {
		for (c = 0; c < nctr; c++) {
			if (ctrs[c].fd[i] > 0)
				sys1(SYS_close, ctrs[c].fd[i]);
			if (ctrs[c].filler[i] > 0)
				sys1(SYS_close, ctrs[c].filler[i]);
		}
	}
	for (c = 0; c < nctr; c++) {
		memset(ctrs[c].fd, 0, sizeof(ctrs[c].fd));
		memset(ctrs[c].filler, 0, sizeof(ctrs[c].filler));
	}
}

/* auto: without braces, up to NUM_COUNTERS PMU events as one group */
static void auto_group(int on)
{
	int c, lead = -1;

	for (c = 0; c < nctr; c++) {
		if (on && ctrs[c].ev.hw && lead < 0)
			lead = c;
		ctrs[c].leader = on && ctrs[c].ev.hw ? lead : -1;
	}
}

/* Open on every target; on EINVAL for the automatic group, again ungrouped. */
static void open_all(const struct pmu *p, int cpu_wide, int attach, u64 flags, int *pid_to_kill)
{
	int nhw = 0, c, i, err = 0, group = 0;

	for (c = 0; c < nctr; c++)
		nhw += ctrs[c].ev.hw;
	/* where counter 1 does not count, every event alone on counter 0 */
	if (!user_groups) {
		group = nhw > 1 && nhw <= NUM_COUNTERS && counter1 == C1_OK;
		auto_group(group);
	}
	for (i = 0; i < ntargets; i++) {
		err = open_target(p, i, cpu_wide, flags);
		if (err == EINVAL && group) {
			epr("knc-stat: the events do not fit the two counters together (two counter-0-only\n"
			    "  events?): counting them one by one, rotated (estimates)\n");
			close_all(i + 1);
			group = 0;
			auto_group(0);
			i = -1;
			continue;
		}
		if (err == ESRCH && attach)
			continue;	/* a thread of -p ended meanwhile */
		if (err)
			break;
	}
	if (!err)
		return;
	if (err == ENOSYS) {
		/* as perf stat does for an event it cannot open: <not supported>, and CMD runs */
		epr("knc-stat: perf_event_open: ENOSYS: this kernel has no perf events (built without\n"
		    "  CONFIG_PERF_EVENTS), or an emulator (qemu-user) does not pass the call on:\n"
		    "  nothing is counted\n");
		close_all(i + 1);
		no_perf = 1;
		return;
	}
	for (c = 0; c < nctr && ctrs[c].fd[i] > 0; c++)
		;
	explain_open_error(err, p, c < nctr ? ctrs[c].ev.name : "knc-stat",
			   cpu_wide ? 1 : c < nctr && (ctrs[c].ev.attr.flags & ATTR_EXCLUDE_KERNEL) ? 2 : 0);
	if ((err == ENOENT || err == EINVAL) && c < nctr)
		epr("  (event '%s': type %u, config 0x%lx)\n", ctrs[c].ev.name,
		    ctrs[c].ev.attr.type, (unsigned long)ctrs[c].ev.attr.config);
	if (*pid_to_kill > 0) {
		sys2(SYS_kill, *pid_to_kill, SIGKILL);
		sys4(SYS_wait4, *pid_to_kill, 0, 0, 0);
	}
	sys_exit(255);
}

/* Read every counter on every target, into cur */
static void read_all(void)
{
	struct reading r;
	int c, i;

	for (c = 0; c < nctr; c++)
		for (i = 0; i < ntargets; i++) {
			if (ctrs[c].fd[i] <= 0 || sys3(SYS_read, ctrs[c].fd[i], &r, sizeof(r)) != sizeof(r))
				memset(&r, 0, sizeof(r));
			cur[c][i] = r;
		}
}

static u64 since(u64 now, u64 then)
{
	return now > then ? now - then : 0;
}

/*
 * The counts of unit u (-1: of every target) into out[nctr]: since the
 * last interval's end (delta), or since they were opened; scaled target by
 * target, by its time enabled / time running.
 */
static void aggregate(int u, int delta, struct count *out)
{
	int c, i;

	memset(out, 0, sizeof(*out) * nctr);
	for (c = 0; c < nctr; c++)
		for (i = 0; i < ntargets; i++) {
			const struct reading *r = &cur[c][i], *q = &prev[c][i];
			u64 v = delta ? since(r->value, q->value) : r->value;
			u64 e = delta ? since(r->enabled, q->enabled) : r->enabled;
			u64 n = delta ? since(r->running, q->running) : r->running;

			if (u >= 0 && unit_of[i] != u)
				continue;
			out[c].value += v;
			out[c].enabled += e;
			out[c].running += n;
			out[c].scaled += n == e ? v : muldiv(v, e, n);
		}
}

/* the core (and package) of each CPU of -a, for --per-core */
static void core_units(void)
{
	static u64 key[MAX_TARGETS];
	u64 last = 0, next;
	char path[80];
	int i, first = 1;

	for (i = 0; i < ntargets; i++) {
		s64 core, pkg;

		fmt(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/core_id", targets[i]);
		if (read_s64(path, &core))
			die("knc-stat: --per-core: cannot read %s\n", path);
		fmt(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/physical_package_id",
		    targets[i]);
		if (read_s64(path, &pkg))
			pkg = 0;
		key[i] = (u64)(u32)pkg << 32 | (u32)core;
	}
	/* the units in the order of (package, core) */
	for (;;) {
		next = ~0ULL;
		for (i = 0; i < ntargets; i++)
			if ((first || key[i] > last) && key[i] < next)
				next = key[i];
		if (next == ~0ULL && !first)
			break;
		for (i = 0; i < ntargets; i++)
			if (key[i] == next) {
				unit_of[i] = nunits;
				units[nunits].ncpus++;
			}
		fmt(units[nunits].label, sizeof(units[nunits].label), "S%u-D0-C%u",
		    (unsigned int)(next >> 32), (unsigned int)(u32)next);
		nunits++;
		last = next;
		first = 0;
		if (next == ~0ULL)
			break;
	}
}

/* The units of -A and --per-core: a CPU, a core */
static void make_units(void)
{
	int i;

	if (aggr == AGGR_CORE) {
		core_units();
		return;
	}
	for (i = 0; aggr == AGGR_CPU && i < ntargets; i++) {
		unit_of[i] = i;
		units[i].ncpus = 1;
		fmt(units[i].label, sizeof(units[i].label), "CPU%d", targets[i]);
		nunits++;
	}
}

/* spaces after an event's name up to the column of what follows */
static int name_pad(const char *name)
{
	int n = (int)slen(name);

	return n < 28 ? 28 - n : 0;
}

static int is_exact(const struct count *k)
{
	return k->running && k->running == k->enabled;
}

/* an event of KNC's instructions or unhalted cycles, for the IPC */
static int event_is(const struct counter *k, u64 hw_id, u64 knc_config)
{
	const struct perf_attr *a = &k->ev.attr;

	if (a->type == PERF_TYPE_HARDWARE)
		return a->config == hw_id;
	return a->type != PERF_TYPE_SOFTWARE && a->config == knc_config;
}

static int ins_ctr = -1, cyc_ctr = -1;	/* the IPC's counters */

static u64 isqrt(u64 x)
{
	u64 r = 0, b = 1ULL << 62;

	while (b > x)
		b >>= 2;
	for (; b; b >>= 2) {
		if (x >= r + b) {
			x -= r + b;
			r = (r >> 1) + b;
		} else {
			r >>= 1;
		}
	}
	return r;
}

/*
 * perf stat's "( +- 0.52% )" of -r, in integers: the standard deviation of
 * the mean of x[0], x[stride], ... (n of them) relative to their mean, in
 * hundredths of a percent. Each deviation in parts per million of the
 * mean (at most 10,000%, so that 1000 squares fit 64 bits).
 */
static u64 spread(const u64 *x, size_t stride, int n, u64 mean)
{
	u64 sum = 0, d, ppm;
	int i;

	if (n < 2 || !mean)
		return 0;
	for (i = 0; i < n; i++) {
		d = x[i * stride] > mean ? x[i * stride] - mean : mean - x[i * stride];
		ppm = muldiv(d, 1000000, mean);
		if (ppm > 100000000)
			ppm = 100000000;
		sum += ppm * ppm;
	}
	return (isqrt(sum / ((u64)n * (u64)(n - 1))) + 50) / 100;
}

/* What comes before a count: the interval's end (-I), the CPU or core. */
static void pr_prefix(const char *sep, const u64 *time, int u)
{
	if (time)
		pr(sep ? "%T%s" : "%16T ", *time, sep);
	if (u < 0)
		return;
	if (sep && aggr == AGGR_CORE)
		pr("%s%s%d%s", units[u].label, sep, units[u].ncpus, sep);
	else if (sep)
		pr("%s%s", units[u].label, sep);
	else if (aggr == AGGR_CORE)
		pr("%-12s%4d", units[u].label, units[u].ncpus);
	else
		pr("%-8s", units[u].label);
}

/*
 * Counter c's line: v[c] (v: every counter's, for the IPC), of unit u or
 * the sum (-1); with -r, v[c] is the mean of the runs (their number:
 * runs), its times their sums, spread its spread (hundredths of a
 * percent); else spread is -1.
 */
static void print_line(const char *sep, const u64 *time, int u, const struct count *v, int c,
		       int runs, s64 spread)
{
	const struct count *k = &v[c];
	const char *name = ctrs[c].ev.name;
	/* an interval in which the task never ran: nothing to count, 0 */
	int idle = time && !k->enabled && !k->running;
	int exact = is_exact(k) || idle;
	u64 pct = idle ? 10000 : k->enabled ? muldiv(k->running, 10000, k->enabled) : 0;
	char sp[32] = "";
	int pad = name_pad(name);

	pr_prefix(sep, time, u);
	if (sep) {
		if (spread >= 0)
			fmt(sp, sizeof(sp), "%s%F%%", sep, (u64)spread);
		if (no_perf)
			pr("<not supported>%s%s%s%s%s0%s0.00%snot supported\n", sep, sep, name, sp, sep,
			   sep, sep);
		else if (!k->running && !idle)
			pr("<not counted>%s%s%s%s%s0%s0.00%snot counted\n", sep, sep, name, sp, sep, sep,
			   sep);
		else
			pr("%lu%s%s%s%s%s%lu%s%F%s%s\n", (unsigned long)k->scaled, sep, sep, name, sp,
			   sep, (unsigned long)(k->running / runs), sep, pct, sep,
			   exact ? "exact" : "estimate");
		return;
	}
	if (no_perf) {
		pr("%20s      %s\n", "<not supported>", name);
		return;
	}
	if (!k->running && !idle) {
		pr("%20s      %-28s (not counted: it never got a counter)\n", "<not counted>", name);
		return;
	}
	pr("%20N      %s", k->scaled, name);
	if (!exact) {
		pr("%*s (estimate: counted %F%% of the time, %T of %T s)", pad, "", pct,
		   k->running / runs, k->enabled / runs);
		pad = 0;
	}
	if (c == ins_ctr && cyc_ctr >= 0 && v[cyc_ctr].scaled) {
		pr("%*s # %F instructions per cycle", pad, "", muldiv(k->scaled, 100, v[cyc_ctr].scaled));
		pad = 0;
	}
	if (spread >= 0)
		pr("%*s ( +- %F%% )", pad, "", (u64)spread);
	pr("\n");
}

/* Every unit's lines (or the sum's): since the interval's start (time), or the start */
static void print_lines(const char *sep, const u64 *time)
{
	static struct count v[MAX_EVENTS];
	int u, c;

	for (u = aggr == AGGR_GLOBAL ? -1 : 0; u < nunits; u++) {
		aggregate(u, time != NULL, v);
		for (c = 0; c < nctr; c++)
			print_line(sep, time, u, v, c, 1, -1);
	}
}

/*
 * --view: the card at a glance, a row per core as PCM prints it. The L2
 * events count on counter 0 only, so each is in a group of its own; six
 * groups take turns on the two counters. Each ratio but the L2 hit ratio
 * is of two events in one group, counted over the same time.
 */
static const char view_groups[] =
	"{cpu_clk_unhalted,instructions_executed},{vpu_elements_active,vpu_instructions_executed},"
	"{l2_read_miss,instructions_executed},l2_read_hit_e,l2_read_hit_m,l2_read_hit_s";
/* where counter 1 does not count: the same events, each alone on counter 0 */
static const char view_alone[] =
	"cpu_clk_unhalted,instructions_executed,vpu_elements_active,vpu_instructions_executed,"
	"l2_read_miss,instructions_executed,l2_read_hit_e,l2_read_hit_m,l2_read_hit_s";
/* the counters of --view, in the order of its events */
enum { V_CYC, V_INS, V_VEL, V_VIN, V_MISS, V_MINS, V_HE, V_HM, V_HS, V_NUM };

static int view;		/* --view */
static int screen;		/* --view on a terminal: each table replaces the last */
static u64 max_intervals;	/* -n */
static u64 intervals;		/* printed so far */

/*
 * a count in 8 columns: as it is below 10^5, else in K, M, G or T, 2
 * decimals; "-" if it was never counted
 */
static void pr_count(const struct count *k)
{
	static const char unit[] = "KMGT";
	u64 div = 1000, v = k->scaled;
	int i = 0;

	if (!k->running) {
		pr(" %8s", "-");
		return;
	}
	if (v < 100000) {
		pr(" %8lu", (unsigned long)v);
		return;
	}
	while (i < 3 && v / div >= 1000) {
		div *= 1000;
		i++;
	}
	pr(" %7F%c", muldiv(v, 100, div), unit[i]);
}

/*
 * hundredths of a * scale / b, into *q; 0 (no figure: its events did not
 * count, or what it divides by is 0) or 1
 */
static int view_ratio(const struct count *v, int a, int b, u64 scale, u64 *q)
{
	if (!v[a].running || !v[b].running || !v[b].scaled)
		return 0;
	*q = muldiv(v[a].scaled, scale * 100, v[b].scaled);
	return 1;
}

/* one row of --view: a core, a CPU or the card (u < 0) */
static void view_row(const char *sep, u64 t, int u, const struct count *v)
{
	/* the ratios' columns: IPC, L2 MPKI, L2 hit %, VPU lanes */
	static const struct {
		int width;
		const char *unit;
	} col[4] = { { 6, "" }, { 8, "" }, { 6, "%" }, { 6, "/16" } };
	const char *label = u < 0 ? "card" : units[u].label;
	int ncpus = u < 0 ? ntargets : units[u].ncpus;
	struct count hits = v[V_HE], reads;
	u64 fig[4] = { 0 }, share = 10000, s;
	int has[4], c, exact = 1;

	for (c = 0; c < V_NUM; c++) {
		s = v[c].enabled ? muldiv(v[c].running, 10000, v[c].enabled) : 0;
		if (s < share)
			share = s;
		exact &= is_exact(&v[c]);
	}
	for (c = V_HM; c <= V_HS; c++) {
		hits.scaled += v[c].scaled;
		hits.running = hits.running && v[c].running;
	}
	reads = hits;
	reads.scaled += v[V_MISS].scaled;
	reads.running = reads.running && v[V_MISS].running;
	has[0] = view_ratio(v, V_INS, V_CYC, 1, &fig[0]);
	has[1] = view_ratio(v, V_MISS, V_MINS, 1000, &fig[1]);
	has[2] = view_ratio((const struct count[]){ hits, reads }, 0, 1, 100, &fig[2]);
	has[3] = view_ratio(v, V_VEL, V_VIN, 1, &fig[3]);
	if (sep) {
		/* the counts, then the ratios; empty where not counted */
		char f[6][24] = { "", "", "", "", "", "" };

		for (c = 0; c < 2; c++)
			if (v[c ? V_INS : V_CYC].running)
				fmt(f[c], sizeof(f[c]), "%lu", (unsigned long)v[c ? V_INS : V_CYC].scaled);
		for (c = 0; c < 4; c++)
			if (has[c])
				fmt(f[c + 2], sizeof(f[c + 2]), "%F", fig[c]);
		pr("%T%s%s%s%d", t, sep, label, sep, ncpus);
		for (c = 0; c < 6; c++)
			pr("%s%s", sep, f[c]);
		pr("%s%F%s%s\n", sep, share, sep, exact ? "exact" : "estimate");
		return;
	}
	if (aggr == AGGR_CORE || u < 0)
		pr("%-12s %4d", label, ncpus);
	else
		pr("%-17s", label);
	pr_count(&v[V_CYC]);
	pr_count(&v[V_INS]);
	for (c = 0; c < 4; c++) {
		if (has[c])
			pr(" %*F%s", col[c].width, fig[c], col[c].unit);
		else
			pr(" %*s", col[c].width + (int)slen(col[c].unit), "-");
	}
	pr(" %6F%%%s\n", share, exact ? "" : "~");
}

/* --view: the table of the interval that ends t ns after the start */
static void print_view(const char *sep, u64 t, const struct pmu *p)
{
	static struct count v[MAX_EVENTS];
	int u, c, uncounted = 0;

	if (!sep) {
		if (screen)
			pr("\033[H\033[2J");
		else if (intervals)
			pr("\n");
		pr("# %T s: %d CPUs, %s PMU (%s); ~: estimates, counted part of the time\n", t,
		   ntargets, p->name, p->knc ? "knc_pmu.ko" : "Linux's intel/knc.c");
		if (aggr == AGGR_CPU)
			pr("%-17s", "CPU");
		else
			pr("%-12s %4s", "core", "cpus");
		pr(" %8s %8s %6s %8s %7s %9s %7s\n", "cycles", "instrs", "IPC", "L2 MPKI", "L2 hit",
		   "VPU lanes", "counted");
	}
	for (u = 0; u < nunits; u++) {
		aggregate(u, 1, v);
		view_row(sep, t, u, v);
	}
	aggregate(-1, 1, v);
	view_row(sep, t, -1, v);
	for (c = 0; c < V_NUM; c++)
		uncounted += v[c].enabled && !v[c].running;
	if (uncounted && !sep)
		pr("# %d of the %d events never got a counter%s\n", uncounted, V_NUM,
		   nmi_watchdog_on() ? ": the NMI watchdog holds one (echo 0 > /proc/sys/kernel/nmi_watchdog)" :
		   " (another perf user holds one)");
}

/* -I: the counts of the interval that ends t ns after the start */
static void print_interval(const char *sep, u64 t, const struct pmu *p)
{
	static int header;

	if (view) {
		print_view(sep, t, p);
		intervals++;
		memcpy(prev, cur, sizeof(prev));
		out_flush();
		return;
	}
	intervals++;
	if (!sep && !header++) {
		pr("#%15s ", "time");
		if (aggr == AGGR_CORE)
			pr("%-12s%4s", "core", "cpus");
		else if (aggr == AGGR_CPU)
			pr("%-8s", "CPU");
		pr("%20s      %s\n", "counts", "event");
	}
	print_lines(sep, &t);
	memcpy(prev, cur, sizeof(prev));
	out_flush();
}

static void print_counts(const struct pmu *p, char **cmd, const char *sep, u64 elapsed, int repeat)
{
	static struct count mean[MAX_EVENTS];
	int c, nhw = 0, estimates = 0;
	char what[256] = "", runs[24] = "";

	for (c = 0; c < nctr; c++) {
		nhw += ctrs[c].ev.hw;
		mean[c] = total[c];
		mean[c].value /= nruns;
		mean[c].scaled /= nruns;
	}
	if (repeat > 1) {
		fmt(runs, sizeof(runs), ", %d runs", nruns);
		elapsed /= nruns;
	}
	if (sep) {
		if (repeat <= 1) {
			print_lines(sep, NULL);
			return;
		}
		for (c = 0; c < nctr; c++)
			print_line(sep, NULL, -1, mean, c, nruns,
				   (s64)spread(&run_scaled[0][c], MAX_EVENTS, nruns, mean[c].scaled));
		return;
	}
	for (c = 0; cmd && cmd[c]; c++) {
		if (c)
			scat(what, " ", sizeof(what));
		scat(what, cmd[c], sizeof(what));
	}
	if (!cmd && attach_pid)
		fmt(what, sizeof(what), "process %d", attach_pid);
	else if (!cmd)
		scpy(what, "system wide", sizeof(what));
	if (!p->name[0])
		pr("\n Performance counter stats for '%s' (no PMU%s):\n\n", what, runs);
	else if (p->knc || p->is_knc_cpu)
		pr("\n Performance counter stats for '%s' (%s PMU: %s%s):\n\n", what, p->name,
		   p->knc ? "knc_pmu.ko" : "Linux's intel/knc.c", runs);
	else
		pr("\n Performance counter stats for '%s' (cpu PMU of a family %ld model %ld CPU, not a\n"
		   " Knights Corner%s):\n\n", what, p->family, p->model, runs);
	if (repeat > 1)
		for (c = 0; c < nctr; c++)
			print_line(NULL, NULL, -1, mean, c, nruns,
				   (s64)spread(&run_scaled[0][c], MAX_EVENTS, nruns, mean[c].scaled));
	else
		print_lines(NULL, NULL);
	for (c = 0; c < nctr; c++)
		estimates += total[c].running && !is_exact(&total[c]);
	if (repeat > 1)
		pr("\n%20T seconds time elapsed  ( +- %F%% )\n\n", elapsed,
		   spread(run_elapsed, 1, nruns, elapsed));
	else
		pr("\n%20T seconds time elapsed\n\n", elapsed);
	if (no_perf) {
		pr(" Not counted: this kernel has no perf_event_open() (ENOSYS).\n");
		return;
	}
	if (counter1 == C1_BROKEN && nhw)
		pr(" Counter 1 does not count on this kernel (Linux's intel/knc.c without patch 1 of\n"
		   " make linux-fixes): each event was counted on counter 0%s.\n",
		   nhw > 1 ? ", one at a time" : "");
	for (c = 0; c < nctr && total[c].running; c++)
		;
	if (c < nctr && nmi_watchdog_on())
		pr(" Not counted: the NMI watchdog holds a counter (/proc/sys/kernel/nmi_watchdog is 1):\n"
		   " echo 0 > /proc/sys/kernel/nmi_watchdog, or boot with nmi_watchdog=0.\n");
	if (estimates)
		pr(" Estimates: %d PMU events %s; each marked was counted only part of\n"
		   " the time and scaled by time enabled / time running, which assumes the work was the\n"
		   " same all along. Count %s at a time for exact counts.\n", nhw,
		   counter1 == C1_BROKEN ? "take turns on counter 0" : "share the 2 counters",
		   counter1 == C1_BROKEN ? "one event" : "at most 2 events");
	else if (nhw && counter1 == C1_BROKEN)
		pr(" Exact: the event was counted all the time, on counter 0.\n");
	else if (nhw)
		pr(" Exact: %s counted all the time on the PMU's %d counters.\n",
		   nhw == 1 ? "the event was" : "the events were", NUM_COUNTERS);
}

/*
 * Until CMD (pid) ends, its wait status in *status; without CMD until
 * -p's process ends, or SIGINT. With -I (interval ns), the counts of
 * each interval printed as it ends.
 */
static void wait_for(int pid, int *status, u64 t0, u64 interval, const char *sep,
		     const struct pmu *p)
{
	u64 next = t0 + interval, now;
	char path[32], buf[8];
	long r;

	fmt(path, sizeof(path), "/proc/%d/stat", attach_pid);
	for (;;) {
		if (pid) {
			r = sys4(SYS_wait4, pid, status, interval ? WNOHANG : 0, 0);
			if (r == pid || (r < 0 && r != -EINTR))
				return;
		} else if (interrupted || (attach_pid && read_file(path, buf, sizeof(buf)) <= 0)) {
			return;
		}
		if (!interval) {
			if (!pid)
				sleep_ms(100);
			continue;
		}
		now = now_ns();
		if (now >= next) {
			read_all();
			print_interval(sep, now - t0, p);
			if (max_intervals && intervals >= max_intervals) {
				/* -n: done; CMD with it, as at SIGTERM */
				if (pid) {
					sys2(SYS_kill, pid, SIGTERM);
					sys4(SYS_wait4, pid, status, 0, 0);
				}
				return;
			}
			while (next <= now)
				next += interval;
			continue;
		}
		/* SIGCHLD or SIGINT ends the sleep early */
		r = (long)((next - now + 999999) / 1000000);
		sleep_ms(r < 100 ? r : 100);
	}
}

int main(int argc, char **argv)
{
	const char *sep = NULL, *output = NULL;
	static char events[4096];
	static int cpus[MAX_TARGETS];
	int i, all = 0, attach = 0, pid = 0, go = -1, execfail = -1, status = 0, nhw = 0;
	int repeat = 1, run;
	long outfd = 2;
	char **cmd = NULL;
	struct pmu p;
	u64 t0, flags, interval = 0, elapsed = 0;
	u64 v;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (seq(a, "--")) {
			i++;
			break;
		}
		if (a[0] != '-')
			break;
		if (seq(a, "-h") || seq(a, "--help")) {
			pr("%s", usage);
			return 0;
		} else if (seq(a, "-l")) {
			list_events();
			return 0;
		} else if (seq(a, "-a")) {
			all = 1;
		} else if (seq(a, "--view")) {
			view = 1;
		} else if (seq(a, "-b")) {
			batch = 1;
		} else if (seq(a, "-A") || seq(a, "--per-core")) {
			enum aggr want = a[1] == 'A' ? AGGR_CPU : AGGR_CORE;

			if (aggr && aggr != want)
				die("knc-stat: -A and --per-core exclude each other\n");
			aggr = want;
		} else if (a[1] && schr("epxoIrn", a[1]) && (a[2] || i + 1 < argc)) {
			/* -e EV or -eEV, as getopt takes them */
			const char *val = a[2] ? a + 2 : argv[++i];

			if (a[1] == 'e') {
				if (!*val || slen(events) + slen(val) + 2 > sizeof(events))
					die("knc-stat: -e '%s': empty, or too many events\n", val);
				if (events[0])
					scat(events, ",", sizeof(events));
				scat(events, val, sizeof(events));
			} else if (a[1] == 'o') {
				output = val;
			} else if (a[1] == 'x') {
				sep = val;
			} else if (a[1] == 'I') {
				if (parse_u64(val, &v) || v < MIN_INTERVAL || v > 86400000)
					die("knc-stat: -I '%s': the interval wants milliseconds, %d or more\n",
					    val, MIN_INTERVAL);
				interval = v * 1000000;
			} else if (a[1] == 'r') {
				if (parse_u64(val, &v) || !v || v > MAX_RUNS)
					die("knc-stat: -r '%s': the runs want a number from 1 to %d\n", val,
					    MAX_RUNS);
				repeat = (int)v;
			} else if (a[1] == 'n') {
				if (parse_u64(val, &v) || !v)
					die("knc-stat: -n '%s': the intervals want a number, 1 or more\n", val);
				max_intervals = v;
			} else if (parse_u64(val, &v) || !v) {
				die("knc-stat: -p wants a process id\n");
			} else {
				attach = attach_pid = (int)v;
			}
		} else {
			epr("knc-stat: unknown option %s\n%s", a, usage);
			return 255;
		}
	}
	if (i < argc)
		cmd = argv + i;
	if (view && (events[0] || attach || repeat > 1))
		die("knc-stat: --view counts its own events on every CPU: not with %s\n",
		    events[0] ? "-e" : attach ? "-p" : "-r");
	if (batch && (!view || sep))
		die("knc-stat: -b is --view's, without -x\n");
	if (max_intervals && !interval && !view)
		die("knc-stat: -n counts -I's intervals: give -I\n");
	if (view) {
		all = 1;
		if (!aggr)
			aggr = AGGR_CORE;
		if (!interval)
			interval = 1000000000;
	}
	if (!cmd && !attach && !all) {
		epr("%s", usage);
		return 255;
	}
	if (all && attach)
		die("knc-stat: -a and -p exclude each other\n");
	if (aggr && !all)
		die("knc-stat: %s counts CPU by CPU: with -a\n", aggr == AGGR_CPU ? "-A" : "--per-core");
	if (repeat > 1 && !cmd)
		die("knc-stat: -r repeats CMD: give one\n");
	if (repeat > 1 && interval)
		die("knc-stat: -r and -I exclude each other\n");
	if (repeat > 1 && aggr)
		die("knc-stat: -r prints the means of the sums: not with %s\n",
		    aggr == AGGR_CPU ? "-A" : "--per-core");
	pmu_find(&p);
	if (view && !p.knc && !p.is_knc_cpu)
		die("knc-stat: --view counts the Knights Corner PMU's events: no knc PMU, and %s\n",
		    p.name[0] ? "the cpu PMU is not a Knights Corner's" : "no cpu PMU");
	add_events(&p, view ? view_groups : events[0] ? events : "cycles,instructions");
	check_groups(0);
	for (i = 0; i < nctr; i++) {
		if (ctrs[i].ev.hw && !p.name[0])
			die("knc-stat: %s: no PMU: neither knc_pmu.ko's knc PMU nor a cpu PMU in %s\n",
			    ctrs[i].ev.name, SYSFS_PMUS);
		nhw += ctrs[i].ev.hw;
		if (event_is(&ctrs[i], 1, 0x16) && ins_ctr < 0)
			ins_ctr = i;
		if (event_is(&ctrs[i], 0, 0x2a) && cyc_ctr < 0)
			cyc_ctr = i;
	}
	if (output) {
		outfd = sys4(SYS_openat, AT_FDCWD, output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (outfd < 0)
			die("knc-stat: -o %s: %s\n", output, errname((int)-outfd));
	}
	if (nhw)
		counter1 = probe_counter1(&p);
	if (counter1 == C1_ONLY)
		die("knc-stat: no count would be right here: counter 1 does not count on this kernel\n"
		    "  (Linux's intel/knc.c without patch 1 of make linux-fixes writes its event select\n"
		    "  to MSR 0x2a), and counter 0 is held%s.\n"
		    "  Free counter 0 (echo 0 > /proc/sys/kernel/nmi_watchdog), or load knc_pmu.ko, or\n"
		    "  apply the patch; knc-check tells which defects this kernel has.\n",
		    nmi_watchdog_on() ? " by the NMI watchdog (/proc/sys/kernel/nmi_watchdog is 1)" :
		    " (by another perf event)");
	if (view && counter1 == C1_BROKEN) {
		/* no groups of two on this kernel: each event alone */
		memset(ctrs, 0, sizeof(ctrs));
		nctr = 0;
		user_groups = 0;
		add_events(&p, view_alone);
	}
	check_groups(counter1 == C1_BROKEN);

	card_signal(SIGINT, on_sigint);
	if (interval && cmd)
		card_signal(SIGCHLD, on_sigchld);
	flags = ATTR_DISABLED;
	if (all) {
		ntargets = online_cpus(cpus, MAX_TARGETS);
		if (ntargets <= 0)
			die("knc-stat: cannot read /sys/devices/system/cpu/online\n");
		memcpy(targets, cpus, sizeof(int) * ntargets);
		raise_nofile();
	} else if (attach) {
		add_threads(attach);
		flags = ATTR_INHERIT | ATTR_DISABLED;
	}
	make_units();
	out_to((int)outfd);
	screen = view && !sep && !batch && is_tty((int)outfd);
	for (run = 0; run < repeat && !(run && interrupted); run++) {
		static struct count c1[MAX_EVENTS];

		if (cmd) {
			pid = start_cmd(cmd, &go, &execfail);
			if (!all && !attach) {
				ntargets = 0;
				targets[ntargets++] = pid;
				flags = ATTR_INHERIT | ATTR_DISABLED | ATTR_ENABLE_ON_EXEC;
			}
		}
		open_all(&p, all, attach, flags, &pid);
		if (!(flags & ATTR_ENABLE_ON_EXEC))
			for (i = 0; i < nctr; i++) {
				int t;

				for (t = 0; t < ntargets; t++)
					if (ctrs[i].fd[t] > 0)
						sys3(SYS_ioctl, ctrs[i].fd[t], IOC_ENABLE, 0);
			}
		t0 = now_ns();
		if (cmd) {
			int failed = cmd_go(cmd[0], pid, go, execfail);

			if (failed >= 0)
				return failed;
		}
		wait_for(pid, &status, t0, interval, sep, &p);
		read_all();
		elapsed = now_ns() - t0;
		if (interval && !(max_intervals && intervals >= max_intervals))
			print_interval(sep, elapsed, &p);
		aggregate(-1, 0, c1);
		for (i = 0; i < nctr; i++) {
			run_scaled[run][i] = c1[i].scaled;
			total[i].value += c1[i].value;
			total[i].scaled += c1[i].scaled;
			total[i].enabled += c1[i].enabled;
			total[i].running += c1[i].running;
		}
		run_elapsed[run] = elapsed;
		nruns++;
		if (run + 1 < repeat)
			close_all(ntargets);
	}
	if (!interval) {
		u64 sum = 0;

		for (i = 0; i < nruns; i++)
			sum += run_elapsed[i];
		print_counts(&p, cmd, sep, repeat > 1 ? sum : elapsed, repeat);
	}
	out_flush();
	if ((status & 0x7f) && cmd)
		return 128 + (status & 0x7f);
	return cmd ? status >> 8 & 0xff : 0;
}
