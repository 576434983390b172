// SPDX-License-Identifier: GPL-2.0
/*
 * knc-stat: count a command's events on a Knights Corner card, as perf
 * stat does, with no perf, no libc and no SSE (tools/knc/card/card.h).
 *
 *   knc-stat [-e EV,...]... [-p PID] [-a] [-x SEP] [-o FILE] [-l] [--] CMD [ARG...]
 */
#include "card.h"
#include "knc_events.h"

#define MAX_EVENTS	16
#define MAX_TARGETS	512	/* threads of -p, CPUs of -a */
#define NUM_COUNTERS	2

static const char usage[] =
"usage: knc-stat [-e EV,...]... [-p PID] [-a] [-x SEP] [-o FILE] [-l] [--] CMD [ARG...]\n"
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
"  -p PID     count the threads of PID (and what they start) until it exits,\n"
"             or while CMD runs\n"
"  -a         count every CPU while CMD runs\n"
"  -x SEP     CSV: value SEP unit SEP event SEP ns running SEP % running SEP\n"
"             exact|estimate|not counted\n"
"  -o FILE    the counts into FILE (default: standard error, as perf stat)\n"
"  -l         list the event names\n"
"Up to two events share the PMU's two counters as one group: their counts\n"
"are exact. With more, the kernel rotates them over the counters: each is\n"
"counted part of the time and scaled by time enabled / time running, an\n"
"estimate, and knc-stat says so. On Linux's intel/knc.c without patch 1 of\n"
"make linux-fixes, which never starts counter 1, each event is counted on\n"
"counter 0 (one at a time: estimates if more than one), or, when counter 0\n"
"is held (the NMI watchdog), knc-stat counts nothing and says why.\n"
"Exits with CMD's status (128 + N if signal N ended it), 255 on its own\n"
"errors.\n";

struct counter {
	struct ev ev;
	int fd[MAX_TARGETS];
	int filler[MAX_TARGETS];	/* counter 1's event beside it, never read */
	u64 value, scaled, enabled, running;
	int grouped;
};

static struct counter ctrs[MAX_EVENTS];
static int nctr;
static int targets[MAX_TARGETS];	/* pids (tids) or CPUs */
static int ntargets;
static volatile int interrupted;
static int attach_pid;		/* -p */

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
static u32 raw_type;		/* the PMU's perf type, for the fillers */
/* the kernel has no perf_event_open() (ENOSYS): CMD runs, nothing is counted */
static int no_perf;
#define PROBE_N		10000UL	/* the probe loop's iterations */

/* SIGINT: stop waiting (-p), print what was counted */
static void on_sigint(int sig)
{
	(void)sig;
	interrupted = 1;
}


/* Split -e's list at the commas that end an event (see usage). */
static void add_events(const struct pmu *p, const char *list)
{
	char spec[80], key[32];
	const char *s = list, *t;
	size_t n, k;
	int in_slash;

	while (*s) {
		n = 0;
		in_slash = 0;
		spec[0] = 0;
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
		if (nctr == MAX_EVENTS)
			die("knc-stat: at most %d events\n", MAX_EVENTS);
		if (ev_parse(p, spec, &ctrs[nctr].ev))
			sys_exit(255);
		nctr++;
	}
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
	char path[64], buf[4096];
	long fd, n, off;

	fmt(path, sizeof(path), "/proc/%d/task", pid);
	fd = sys4(SYS_openat, AT_FDCWD, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
	if (fd < 0)
		die("knc-stat: -p %d: %s: %s\n", pid, path, errname(-fd));
	while ((n = sys3(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
		for (off = 0; off < n;) {
			/* struct linux_dirent64: ino, off, reclen, type, name */
			u16 reclen = *(u16 *)(buf + off + 16);
			const char *name = buf + off + 19;
			u64 tid;

			if (!parse_u64(name, &tid)) {
				if (ntargets == MAX_TARGETS)
					die("knc-stat: more than %d threads\n", MAX_TARGETS);
				targets[ntargets++] = (int)tid;
			}
			off += reclen;
		}
	}
	sys1(SYS_close, fd);
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
 * Open every counter on target i (a task, or a CPU when cpu_wide): up to
 * NUM_COUNTERS PMU events as one group, so that they count together on
 * the counters; more each on its own, rotated by the kernel. Returns 0,
 * or the errno of the open that failed.
 */
static int open_target(int i, int cpu_wide, int group, u64 flags)
{
	long fd, leader = -1;
	int c;

	for (c = 0; c < nctr; c++) {
		struct perf_attr *a = &ctrs[c].ev.attr;
		int in_group = group && ctrs[c].ev.hw;

		a->read_format = FORMAT_TOTAL_TIME_ENABLED | FORMAT_TOTAL_TIME_RUNNING;
		a->flags |= flags;
		if (in_group && leader >= 0)
			a->flags &= ~(ATTR_DISABLED | ATTR_ENABLE_ON_EXEC);
		fd = perf_open(a, cpu_wide ? -1 : targets[i], cpu_wide ? targets[i] : -1,
			       in_group ? (int)leader : -1, 0);
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
		ctrs[c].grouped = in_group;
		if (in_group && leader < 0)
			leader = fd;
		if (counter1 == C1_BROKEN && ctrs[c].ev.hw) {
			/* the event leads a group of two: on counter 0, a filler on 1 */
			struct perf_attr f = { .type = raw_type, .config = 0x16,
					       .flags = a->flags & (ATTR_EXCLUDE_KERNEL | ATTR_EXCLUDE_USER |
								    ATTR_EXCLUDE_HV | ATTR_INHERIT) };

			fd = perf_open(&f, cpu_wide ? -1 : targets[i], cpu_wide ? targets[i] : -1, (int)fd, 0);
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

	for (i = 0; i < upto; i++)
		for (c = 0; c < nctr; c++)
			if (ctrs[c].fd[i] > 0)
				sys1(SYS_close, ctrs[c].fd[i]);
	for (i = 0; i < upto; i++)
		for (c = 0; c < nctr; c++)
			if (ctrs[c].filler[i] > 0)
				sys1(SYS_close, ctrs[c].filler[i]);
	for (c = 0; c < nctr; c++) {
		memset(ctrs[c].fd, 0, sizeof(ctrs[c].fd));
		memset(ctrs[c].filler, 0, sizeof(ctrs[c].filler));
	}
}

/* Open on every target; on EINVAL for the group, again ungrouped. */
static void open_all(const struct pmu *p, int cpu_wide, int attach, u64 flags, int *pid_to_kill)
{
	int nhw = 0, c, i, err = 0, group;

	for (c = 0; c < nctr; c++)
		nhw += ctrs[c].ev.hw;
	/* where counter 1 does not count, every event alone on counter 0 */
	group = nhw > 1 && nhw <= NUM_COUNTERS && counter1 == C1_OK;
	for (i = 0; i < ntargets; i++) {
		err = open_target(i, cpu_wide, group, flags);
		if (err == EINVAL && group) {
			epr("knc-stat: the events do not fit the two counters together (two counter-0-only\n"
			    "  events?): counting them one by one, rotated (estimates)\n");
			close_all(i + 1);
			group = 0;
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

/* Start CMD stopped before its execve (it waits to read one byte from go). */
static int start_cmd(char **argv, int *go, int *execfail)
{
	int gopipe[2], errpipe[2];
	long pid;

	if (sys2(SYS_pipe2, gopipe, O_CLOEXEC) || sys2(SYS_pipe2, errpipe, O_CLOEXEC))
		die("knc-stat: pipe2 failed\n");
	pid = sys0(SYS_fork);
	if (pid < 0)
		die("knc-stat: fork: %s\n", errname(-pid));
	if (pid == 0) {
		char c, path[512];
		const char *pathvar = "/bin:/usr/bin", *s;
		long err = -ENOENT;
		char **e;
		int status = 127;

		sys1(SYS_close, gopipe[1]);
		sys1(SYS_close, errpipe[0]);
		if (sys3(SYS_read, gopipe[0], &c, 1) != 1)
			sys1(SYS_exit_group, 127);
		for (e = environ; *e; e++)
			if (starts(*e, "PATH="))
				pathvar = *e + 5;
		if (schr(argv[0], '/')) {
			err = sys3(SYS_execve, argv[0], argv, environ);
		} else {
			for (s = pathvar; *s; s += *s == ':') {
				size_t n = 0;

				while (s[n] && s[n] != ':')
					n++;
				if (n + slen(argv[0]) + 2 < sizeof(path)) {
					memcpy(path, s, n);
					path[n] = 0;
					scat(path, "/", sizeof(path));
					scat(path, argv[0], sizeof(path));
					err = sys3(SYS_execve, path, argv, environ);
					if (err != -ENOENT && err != -EACCES)
						break;
				}
				s += n;
			}
		}
		if (err == -EACCES)
			status = 126;
		sys3(SYS_write, errpipe[1], &err, sizeof(err));
		sys1(SYS_exit_group, status);
	}
	sys1(SYS_close, gopipe[0]);
	sys1(SYS_close, errpipe[1]);
	*go = gopipe[1];
	*execfail = errpipe[0];
	return (int)pid;
}

/* Read every counter: the sums over the targets, and the estimates. */
static void read_all(void)
{
	struct { u64 value, enabled, running; } r;
	int c, i;

	for (c = 0; c < nctr; c++) {
		struct counter *k = &ctrs[c];

		for (i = 0; i < ntargets; i++) {
			if (k->fd[i] <= 0 || sys3(SYS_read, k->fd[i], &r, sizeof(r)) != sizeof(r))
				continue;
			k->value += r.value;
			k->enabled += r.enabled;
			k->running += r.running;
			k->scaled += r.running == r.enabled ? r.value :
				     muldiv(r.value, r.enabled, r.running);
		}
	}
}

/* spaces after an event's name up to the column of what follows */
static int name_pad(const struct counter *k)
{
	int n = (int)slen(k->ev.name);

	return n < 28 ? 28 - n : 0;
}

static int is_exact(const struct counter *k)
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

static void print_counts(const struct pmu *p, char **cmd, const char *sep, u64 elapsed)
{
	int c, nhw = 0, estimates = 0, ins = -1, cyc = -1;
	char what[256] = "";

	for (c = 0; c < nctr; c++) {
		nhw += ctrs[c].ev.hw;
		if (event_is(&ctrs[c], 1, 0x16) && ins < 0)
			ins = c;
		if (event_is(&ctrs[c], 0, 0x2a) && cyc < 0)
			cyc = c;
	}
	if (sep) {
		for (c = 0; c < nctr; c++) {
			struct counter *k = &ctrs[c];
			u64 pct = k->enabled ? muldiv(k->running, 10000, k->enabled) : 0;

			if (no_perf)
				pr("<not supported>%s%s%s%s0%s0.00%snot supported\n", sep, sep, k->ev.name,
				   sep, sep, sep);
			else if (!k->running)
				pr("<not counted>%s%s%s%s0%s0.00%snot counted\n", sep, sep, k->ev.name,
				   sep, sep, sep);
			else
				pr("%lu%s%s%s%s%lu%s%F%s%s\n", (unsigned long)k->scaled, sep, sep,
				   k->ev.name, sep, (unsigned long)k->running, sep, pct, sep,
				   is_exact(k) ? "exact" : "estimate");
		}
		return;
	}
	for (c = 0; cmd && cmd[c]; c++) {
		if (c)
			scat(what, " ", sizeof(what));
		scat(what, cmd[c], sizeof(what));
	}
	if (!cmd)
		fmt(what, sizeof(what), "process %d", attach_pid);
	if (!p->name[0])
		pr("\n Performance counter stats for '%s' (no PMU):\n\n", what);
	else if (p->knc || p->is_knc_cpu)
		pr("\n Performance counter stats for '%s' (%s PMU: %s):\n\n", what, p->name,
		   p->knc ? "knc_pmu.ko" : "Linux's intel/knc.c");
	else
		pr("\n Performance counter stats for '%s' (cpu PMU of a family %ld model %ld CPU, not a\n"
		   " Knights Corner):\n\n", what, p->family, p->model);
	for (c = 0; c < nctr; c++) {
		struct counter *k = &ctrs[c];

		if (no_perf) {
			pr("%20s      %s\n", "<not supported>", k->ev.name);
			continue;
		}
		if (!k->running) {
			pr("%20s      %-28s (not counted: it never got a counter)\n", "<not counted>",
			   k->ev.name);
			continue;
		}
		pr("%20N      %s", k->scaled, k->ev.name);
		if (!is_exact(k)) {
			estimates++;
			pr("%*s (estimate: counted %F%% of the time, %T of %T s)", name_pad(k), "",
			   muldiv(k->running, 10000, k->enabled), k->running, k->enabled);
		}
		if (c == ins && cyc >= 0 && ctrs[cyc].scaled)
			pr("%*s # %F instructions per cycle", is_exact(k) ? name_pad(k) : 0, "",
			   muldiv(k->scaled, 100, ctrs[cyc].scaled));
		pr("\n");
	}
	pr("\n%20T seconds time elapsed\n\n", elapsed);
	if (no_perf) {
		pr(" Not counted: this kernel has no perf_event_open() (ENOSYS).\n");
		return;
	}
	if (counter1 == C1_BROKEN && nhw)
		pr(" Counter 1 does not count on this kernel (Linux's intel/knc.c without patch 1 of\n"
		   " make linux-fixes): each event was counted on counter 0%s.\n",
		   nhw > 1 ? ", one at a time" : "");
	for (c = 0; c < nctr && ctrs[c].running; c++)
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

int main(int argc, char **argv)
{
	const char *sep = NULL, *output = NULL;
	static char events[4096];
	int i, all = 0, attach = 0, pid = 0, go = -1, execfail = -1, status = 0, nhw = 0;
	long outfd = 2;
	int cpus[MAX_TARGETS];
	char **cmd = NULL;
	struct pmu p;
	u64 t0, flags;
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
		} else if ((a[1] == 'e' || a[1] == 'p' || a[1] == 'x' || a[1] == 'o') &&
			   (a[2] || i + 1 < argc)) {
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
			} else if (a[1] == 'x')
				sep = val;
			else if (parse_u64(val, &v) || !v)
				die("knc-stat: -p wants a process id\n");
			else
				attach = attach_pid = (int)v;
		} else {
			epr("knc-stat: unknown option %s\n%s", a, usage);
			return 255;
		}
	}
	if (i < argc)
		cmd = argv + i;
	if (!cmd && !attach) {
		epr("%s", usage);
		return 255;
	}
	if (all && attach)
		die("knc-stat: -a and -p exclude each other\n");
	pmu_find(&p);
	add_events(&p, events[0] ? events : "cycles,instructions");
	for (i = 0; i < nctr; i++) {
		if (ctrs[i].ev.hw && !p.name[0])
			die("knc-stat: %s: no PMU: neither knc_pmu.ko's knc PMU nor a cpu PMU in %s\n",
			    ctrs[i].ev.name, SYSFS_PMUS);
		nhw += ctrs[i].ev.hw;
	}
	if (output) {
		outfd = sys4(SYS_openat, AT_FDCWD, output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (outfd < 0)
			die("knc-stat: -o %s: %s\n", output, errname((int)-outfd));
	}
	raw_type = p.type;
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

	card_signal(SIGINT, on_sigint);
	flags = ATTR_DISABLED;
	if (all) {
		ntargets = online_cpus(cpus, MAX_TARGETS);
		if (ntargets <= 0)
			die("knc-stat: cannot read /sys/devices/system/cpu/online\n");
		memcpy(targets, cpus, sizeof(int) * ntargets);
	} else if (attach) {
		add_threads(attach);
		flags = ATTR_INHERIT | ATTR_DISABLED;
	}
	if (cmd) {
		pid = start_cmd(cmd, &go, &execfail);
		if (!all && !attach) {
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
		long err = 0, r;

		sys3(SYS_write, go, "g", 1);
		sys1(SYS_close, go);
		r = sys3(SYS_read, execfail, &err, sizeof(err));
		while (sys4(SYS_wait4, pid, &status, 0, 0) == -EINTR)
			;
		if (r == sizeof(err)) {
			epr("knc-stat: cannot run %s: %s\n", cmd[0], errname(-err));
			return status >> 8 & 0xff;
		}
	} else {
		char path[32];
		char buf[8];

		fmt(path, sizeof(path), "/proc/%d/stat", attach);
		while (!interrupted && read_file(path, buf, sizeof(buf)) > 0)
			sleep_ms(100);
	}
	read_all();
	out_to((int)outfd);
	print_counts(&p, cmd, sep, now_ns() - t0);
	out_flush();
	if ((status & 0x7f) && cmd)
		return 128 + (status & 0x7f);
	return cmd ? status >> 8 & 0xff : 0;
}
