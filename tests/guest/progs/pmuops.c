// SPDX-License-Identifier: GPL-2.0
/*
 * pmuops: repeat one PMU operation, so that the register accesses each
 * costs can be counted (tests/guest/lib/accesses.sh reads the access counters
 * of the QEMU model or of the simulator around two runs of different
 * lengths and divides the difference).
 *
 *   pmuops [-a] [-e TYPE:CONFIG]... [-p PERIOD] [-f FILE -l LINE] OP N
 *
 * The events (at most two, the second in the first's group, so that they
 * start together) are per-task events of this task, user mode only,
 * enabled from the start; -p makes them sampling events of that period
 * (no ring buffer: samples are dropped, the PMIs still come). With -a
 * they are CPU-wide events instead, one set on every online CPU, as
 * `perf stat -a` opens them (read reads every CPU's).
 * OP is one of:
 *   switch  N round trips through pipes with a partner task that has no
 *           events, forked first: this task is switched out and in N times
 *   read    N read()s of the first event
 *   open    N opens and closes of the events (not counted in "switches")
 *   loop    N times (dec, jnz) in user mode: 2N instructions
 *   write   write LINE to FILE N times, as one write(2) each (the
 *           simulator's inject file: the events happen in this task)
 * and pmuops prints "switches S", the context switches of this task
 * (getrusage) while it ran OP, and "ns T", the time OP took. Run it
 * pinned to one CPU, SCHED_FIFO. It holds a software event of its own
 * throughout, so that its opens do not wait (hold_sched_events()).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_EVENTS 2
#define MAX_CPUS 1024

static struct perf_event_attr attrs[MAX_EVENTS];
static int fds[MAX_CPUS][MAX_EVENTS], nev;
/* -a: CPU-wide events on CPUs 0..ncpus-1; else this task's, ncpus 1 */
static int cpu_wide, ncpus = 1;

static void die(const char *what)
{
	fprintf(stderr, "pmuops: %s: %s\n", what, strerror(errno));
	exit(1);
}

static int usage(void)
{
	fprintf(stderr,
		"usage: pmuops [-a] [-e TYPE:CONFIG]... [-p PERIOD] switch|read|open|loop N\n"
		"       pmuops [-a] [-e TYPE:CONFIG]... [-p PERIOD] -f FILE -l LINE write N\n");
	return 2;
}

static void open_events(void)
{
	int c, i;

	/* A group starts when its leader is enabled: after the siblings. */
	attrs[0].disabled = nev > 1;
	for (c = 0; c < ncpus; c++) {
		int *fd = fds[c];

		for (i = 0; i < nev; i++) {
			fd[i] = syscall(SYS_perf_event_open, &attrs[i],
					cpu_wide ? -1 : 0, cpu_wide ? c : -1,
					i ? fd[0] : -1, 0);
			if (fd[i] < 0)
				die("perf_event_open");
		}
		if (nev > 1 && ioctl(fd[0], PERF_EVENT_IOC_ENABLE, 0))
			die("PERF_EVENT_IOC_ENABLE");
	}
}

static void close_events(void)
{
	int c, i;

	for (c = 0; c < ncpus; c++)
		for (i = nev - 1; i >= 0; i--)
			close(fds[c][i]);
}

/*
 * The first per-task event on the system switches its opener out:
 * account_event() waits in synchronize_rcu() to enable perf's scheduling
 * hooks, which the last one's close lets go a second later. Holding a
 * software event of this task from before the operation keeps its opens
 * from waiting there: that switch costs no accesses, and taken off at a
 * switch's cost it would skew the figure.
 */
static void hold_sched_events(void)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(a),
		.config = PERF_COUNT_SW_DUMMY,
		.exclude_kernel = 1,
	};

	if (syscall(SYS_perf_event_open, &a, 0, -1, -1, 0) < 0)
		die("perf_event_open of a dummy event");
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static long switches(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_nvcsw + ru.ru_nivcsw;
}

static void ping_pong(long n)
{
	int to[2], from[2];
	long i;
	char c = 0;
	pid_t pid;

	if (pipe(to) || pipe(from))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		close(to[1]);
		while (read(to[0], &c, 1) == 1)
			if (write(from[1], &c, 1) != 1)
				_exit(1);
		_exit(0);
	}
	close(to[0]);
	open_events();
	for (i = 0; i < n; i++)
		if (write(to[1], &c, 1) != 1 || read(from[0], &c, 1) != 1)
			die("ping-pong");
	close_events();
	close(to[1]);
	waitpid(pid, NULL, 0);
}

int main(int argc, char **argv)
{
	const char *op, *file = NULL, *line = NULL;
	uint64_t period = 0;
	uint64_t t0;
	long n, i, s0;
	int opt;

	while ((opt = getopt(argc, argv, "ae:p:f:l:")) != -1) {
		struct perf_event_attr *a = &attrs[nev];
		char *end;

		switch (opt) {
		case 'a':
			cpu_wide = 1;
			ncpus = sysconf(_SC_NPROCESSORS_ONLN);
			if (ncpus < 1 || ncpus > MAX_CPUS)
				return usage();
			break;
		case 'e':
			if (nev == MAX_EVENTS)
				return usage();
			a->size = sizeof(*a);
			a->type = strtoul(optarg, &end, 0);
			if (*end != ':')
				return usage();
			a->config = strtoull(end + 1, &end, 0);
			if (*end)
				return usage();
			a->exclude_kernel = 1;
			a->exclude_hv = 1;
			nev++;
			break;
		case 'p':
			period = strtoull(optarg, NULL, 0);
			break;
		case 'f':
			file = optarg;
			break;
		case 'l':
			line = optarg;
			break;
		default:
			return usage();
		}
	}
	if (argc - optind != 2 || !nev)
		return usage();
	op = argv[optind];
	n = atol(argv[optind + 1]);
	if (n < 1)
		return usage();
	for (i = 0; i < nev; i++)
		attrs[i].sample_period = period;

	hold_sched_events();
	s0 = switches();
	t0 = now_ns();
	if (!strcmp(op, "switch") && !cpu_wide) {
		ping_pong(n);
	} else if (!strcmp(op, "open")) {
		for (i = 0; i < n; i++) {
			open_events();
			close_events();
		}
	} else if (!strcmp(op, "read")) {
		uint64_t v;
		int c;

		open_events();
		for (i = 0; i < n; i++)
			for (c = 0; c < ncpus; c++)
				if (read(fds[c][0], &v, sizeof(v)) != sizeof(v))
					die("read");
		close_events();
	} else if (!strcmp(op, "loop")) {
		open_events();
		asm volatile("1: dec %0\n jnz 1b" : "+r"(n) : : "cc");
		close_events();
	} else if (!strcmp(op, "write") && file && line) {
		int fd = open(file, O_WRONLY);

		if (fd < 0)
			die(file);
		open_events();
		for (i = 0; i < n; i++)
			if (write(fd, line, strlen(line)) < 0)
				die("write");
		close_events();
		close(fd);
	} else {
		return usage();
	}
	t0 = now_ns() - t0;
	printf("switches %ld\nns %llu\n", switches() - s0,
	       (unsigned long long)t0);
	return 0;
}
