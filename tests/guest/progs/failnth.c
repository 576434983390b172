// SPDX-License-Identifier: GPL-2.0
/*
 * failnth: make one system call fail at each of its allocations in turn,
 * through /proc/thread-self/fail-nth (CONFIG_FAULT_INJECTION; failslab and
 * fail_page_alloc set up by tests/guest/fault.sh), until it goes through
 * without a fault.
 *
 *   failnth [-m MAX | -r FIRST-LAST | -c] CALL ARG...
 *
 *   load KO NAME             finit_module(KO); NAME unloaded after a load
 *   open-count CONFIG        perf_event_open() of a knc event, this task
 *   open-sample CONFIG       the same, sampling every 10000 events
 *   open-group CONFIG CONFIG the second as a member of the first's group
 *                            (the leader opened without faults)
 *   open-spflt CONFIG        the same as open-count, with spflt=1
 *   mmap CONFIG              the ring buffer of a sampling event (opened
 *                            without faults)
 *   online CPU               CPU online (it is taken offline first, with a
 *                            CPU-wide knc event open on it and one on CPU 0)
 *
 * For N = 1, 2, ..., writes N to fail-nth, makes the call and reads
 * fail-nth back: 0 means the Nth allocation failed. A call that fails must
 * fail with ENOMEM; one that succeeds despite its fault is undone (close,
 * unload, offline) and counted. The sweep ends at the first N the call no
 * longer reaches, which must succeed. Prints one line:
 *   CALL: N injection points, N failed with ENOMEM, N succeeded
 * and exits 0, or prints what went wrong and exits 1.
 *
 * -r FIRST-LAST fails only the points FIRST to LAST, then makes the call
 * without a fault (it must succeed) and prints
 *   CALL: N injection points, FIRST to LAST failed: N with ENOMEM, N succeeded
 * -c makes the call once without a fault, undoes it and prints
 *   CALL: N injection points
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MMAP_PAGES (1 + 8)
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static int fail_nth_fd;
static struct perf_event_attr attr = { .size = sizeof(attr) };
static const char *call;
static char **args;
static int knc_fd = -1;	/* the group leader, the sampling event */
static int file_fd = -1;	/* the module, the online file */
static int held[2] = { -1, -1 };	/* the online sweep's events */
static long page;

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "failnth: %s: ", call);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void set_fail_nth(unsigned int n)
{
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%u", n);

	if (pwrite(fail_nth_fd, buf, len, 0) != len)
		die("fail-nth: %s", strerror(errno));
}

/* fail-nth after the call: 0 once the Nth allocation failed */
static unsigned int fail_nth_left(void)
{
	char buf[16] = "";

	if (pread(fail_nth_fd, buf, sizeof(buf) - 1, 0) <= 0)
		die("fail-nth: %s", strerror(errno));
	return strtoul(buf, NULL, 10);
}

static int knc_type(void)
{
	FILE *f = fopen("/sys/bus/event_source/devices/knc/type", "r");
	int type = -1;

	if (!f || fscanf(f, "%d", &type) != 1)
		die("no knc PMU in sysfs");
	fclose(f);
	return type;
}

static int event_open(int cpu, int group)
{
	return syscall(SYS_perf_event_open, &attr, cpu < 0 ? 0 : -1, cpu, group, 0);
}

static void write_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0 || write(fd, val, strlen(val)) != (ssize_t)strlen(val))
		die("%s <- %s: %s", path, val, strerror(errno));
	close(fd);
}

static char online_path[64];

/* What each call needs in place before its sweep, without faults. */
static void setup(void)
{
	if (!strcmp(call, "load")) {
		file_fd = open(args[0], O_RDONLY | O_CLOEXEC);
		if (file_fd < 0)
			die("%s: %s", args[0], strerror(errno));
		return;
	}
	attr.type = knc_type();
	attr.config = strtoull(args[0], NULL, 0);
	if (!strcmp(call, "open-sample") || !strcmp(call, "mmap")) {
		attr.sample_period = 10000;
		attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	}
	if (!strcmp(call, "open-spflt"))
		attr.config1 = 1;
	if (!strcmp(call, "open-group") || !strcmp(call, "mmap")) {
		knc_fd = event_open(-1, -1);
		if (knc_fd < 0)
			die("the leader: %s", strerror(errno));
		if (!strcmp(call, "open-group"))
			attr.config = strtoull(args[1], NULL, 0);
	}
	if (!strcmp(call, "online")) {
		int cpu = atoi(args[0]);

		snprintf(online_path, sizeof(online_path),
			 "/sys/devices/system/cpu/cpu%d/online", cpu);
		held[0] = event_open(0, -1);
		held[1] = event_open(cpu, -1);
		if (held[0] < 0 || held[1] < 0)
			die("the CPU-wide events: %s", strerror(errno));
		write_file(online_path, "0");
		file_fd = open(online_path, O_WRONLY | O_CLOEXEC);
		if (file_fd < 0)
			die("%s: %s", online_path, strerror(errno));
	}
}

/* One try: 0 or an errno; *undo what a success left to undo. */
static int try_call(void **undo)
{
	int ret;

	if (!strcmp(call, "load"))
		return syscall(SYS_finit_module, file_fd, "", 0) ? errno : 0;
	if (!strcmp(call, "mmap")) {
		void *p = mmap(NULL, MMAP_PAGES * page, PROT_READ | PROT_WRITE,
			       MAP_SHARED, knc_fd, 0);

		if (p == MAP_FAILED)
			return errno;
		*undo = p;
		return 0;
	}
	if (!strcmp(call, "online"))
		return pwrite(file_fd, "1", 1, 0) == 1 ? 0 : errno;
	ret = event_open(-1, !strcmp(call, "open-group") ? knc_fd : -1);
	if (ret < 0)
		return errno;
	*undo = (void *)(long)ret;
	return 0;
}

/* fail-nth for a call that must not reach its fault */
#define NO_FAULT (1U << 30)

/* The call without a fault, which must succeed: its injection points. */
static unsigned int clean_call(void **undo)
{
	unsigned int left;
	int err;

	set_fail_nth(NO_FAULT);
	err = try_call(undo);
	left = fail_nth_left();
	set_fail_nth(0);
	if (err)
		die("fails without a fault: %s", strerror(err));
	return NO_FAULT - left;
}

static void undo_call(void *undo)
{
	if (!strcmp(call, "load")) {
		if (syscall(SYS_delete_module, args[1], O_NONBLOCK))
			die("unloading %s: %s", args[1], strerror(errno));
	} else if (!strcmp(call, "mmap")) {
		munmap(undo, MMAP_PAGES * page);
	} else if (!strcmp(call, "online")) {
		write_file(online_path, "0");
	} else {
		close((int)(long)undo);
	}
}

int main(int argc, char **argv)
{
	static const struct { const char *name; int nargs; } calls[] = {
		{ "load", 2 }, { "open-count", 1 }, { "open-sample", 1 },
		{ "open-group", 2 }, { "open-spflt", 1 }, { "mmap", 1 },
		{ "online", 1 },
	};
	unsigned int n, first = 1, last = 100000, nomem = 0, succeeded = 0, total = 0;
	bool ranged = false, count = false;
	void *undo = NULL;
	int opt, i;

	while ((opt = getopt(argc, argv, "m:r:c")) != -1) {
		if (opt == 'm') {
			last = strtoul(optarg, NULL, 0);
		} else if (opt == 'r') {
			if (sscanf(optarg, "%u-%u", &first, &last) != 2 ||
			    !first || first > last)
				goto usage;
			ranged = true;
		} else if (opt == 'c') {
			count = true;
		} else {
			goto usage;
		}
	}
	if (optind >= argc)
		goto usage;
	call = argv[optind];
	args = argv + optind + 1;
	for (i = 0; i < (int)ARRAY_SIZE(calls); i++)
		if (!strcmp(call, calls[i].name) && argc - optind - 1 == calls[i].nargs)
			break;
	if (i == (int)ARRAY_SIZE(calls))
		goto usage;
	page = sysconf(_SC_PAGESIZE);
	fail_nth_fd = open("/proc/thread-self/fail-nth", O_RDWR);
	if (fail_nth_fd < 0)
		die("/proc/thread-self/fail-nth: %s (no CONFIG_FAULT_INJECTION?)",
		    strerror(errno));
	setup();

	if (count) {
		n = clean_call(&undo);
		undo_call(undo);
		printf("%s: %u injection points\n", call, n);
		return 0;
	}
	for (n = first; n <= last; n++) {
		unsigned int left;
		int err;

		undo = NULL;
		set_fail_nth(n);
		err = try_call(&undo);
		left = fail_nth_left();
		set_fail_nth(0);
		if (left) {
			/* the call has n - 1 points: this try had no fault */
			if (err)
				die("fails without a fault: %s", strerror(err));
			total = n - left;
			break;
		}
		if (!err) {
			succeeded++;
			undo_call(undo);
		} else if (err == ENOMEM) {
			nomem++;
		} else {
			die("allocation %u failed: the call returned %s, not ENOMEM",
			    n, strerror(err));
		}
	}
	if (!ranged) {
		if (n > last)
			die("more than %u injection points", last);
		printf("%s: %u injection points, %u failed with ENOMEM, %u succeeded\n",
		       call, n - 1, nomem, succeeded);
		return 0;
	}
	if (n == first)
		die("%u injection points: none from %u", total, first);
	if (n > last)
		total = clean_call(&undo);
	printf("%s: %u injection points, %u to %u failed: %u with ENOMEM, %u succeeded\n",
	       call, total, first, n - 1, nomem, succeeded);
	return 0;
usage:
	fprintf(stderr, "usage: failnth [-m MAX | -r FIRST-LAST | -c] load KO NAME | open-count CONFIG |\n"
		"       open-sample CONFIG | open-group CONFIG CONFIG | open-spflt CONFIG | mmap CONFIG |\n"
		"       online CPU\n");
	return 2;
}
