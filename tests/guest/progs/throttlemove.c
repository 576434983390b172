// SPDX-License-Identifier: GPL-2.0
/*
 * throttlemove: a throttled sampling event moved to the other counter.
 *
 *   throttlemove [-i INJECT-FILE] CPU PERIOD
 *
 * Pinned to CPU, leaves counter 1 holding another event's value, opens E, a CPU-wide sampling event of that CPU
 * (knc/instructions_executed/u, PERIOD, a ring buffer), which takes
 * counter 0. Its first overflow throttles it: run under
 * perf_event_max_sample_rate 1, every PMI that samples does. As soon as the
 * PERF_RECORD_THROTTLE is in the buffer, this task enables a per-task
 * knc/l2_read_miss/ of its own, opened disabled beforehand, which only
 * counter 0 can count: the driver moves E, stopped, to counter 1. E is
 * read just before and just after. An enable is the cheapest way in (an
 * open costs an allocation and more, which on a debug kernel under TCG
 * can take longer than the tick's 4 ms every time).
 * Then, perf core having unthrottled E at a tick, PERIOD more events
 * must overflow it again.
 *
 * The events come from this task's user mode: it spins in a loop (the QEMU
 * model counts executed instructions), and with -i it also writes
 * "instructions_executed PERIOD user" to INJECT-FILE, the simulator's
 * injection file, once per overflow wanted.
 *
 * The tick must not unthrottle E before the second read: the records'
 * times (CLOCK_MONOTONIC) show whether it did, and the whole try starts
 * again if so, up to 50 times. Prints
 *   tries N          the tries it took
 *   throttled C0     E's count when throttled, before the move
 *   moved C1         E's count after the move, still throttled
 *   next C2          E's count at its next overflow, once unthrottled, as
 *                    that overflow's sample read it (PERF_SAMPLE_READ: a
 *                    tick may unthrottle E again before a read() could)
 *                    (0: none came within 5 s)
 * and exits 0, or 1 with a message.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* EvtSel event and umask (tools/perf/pmu-events/knc/) */
#define DATA_READ		0x00
#define INSTRUCTIONS_EXECUTED	0x16
#define L2_READ_MISS		0x10cb	/* counter 0 only */
#define DATA_PAGES		8
#define TRIES			50
#define WAIT_NS			(5 * 1000000000LL)

static const char *inject_file;
static uint64_t period;
static long page_size;
static void *ring;
static uint64_t tail;
/* what the records seen so far say */
static int nsamples, nthrottle, nunthrottle;
static uint64_t throttle_ns, unthrottle_ns;
/* E's count at its first two samples (PERF_SAMPLE_READ) */
static uint64_t sample_count[2];

static void die(const char *what)
{
	fprintf(stderr, "throttlemove: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void fail(const char *what)
{
	fprintf(stderr, "throttlemove: %s\n", what);
	exit(1);
}

static int knc_type(void)
{
	FILE *f = fopen("/sys/bus/event_source/devices/knc/type", "r");
	int type = -1;

	if (!f || fscanf(f, "%d", &type) != 1)
		fail("no knc PMU in sysfs");
	fclose(f);
	return type;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static uint64_t count_of(int fd)
{
	uint64_t v;

	if (read(fd, &v, sizeof(v)) != sizeof(v))
		die("read");
	return v;
}

/* Copy LEN bytes at OFFSET of the ring's data area, which may wrap. */
static void ring_copy(void *to, uint64_t offset, size_t len)
{
	char *data = (char *)ring + page_size;
	uint64_t size = DATA_PAGES * page_size;
	size_t i;

	for (i = 0; i < len; i++)
		((char *)to)[i] = data[(offset + i) % size];
}

/* Take in the records written since the last call. */
static void ring_scan(void)
{
	struct perf_event_mmap_page *pg = ring;
	uint64_t head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	struct perf_event_header h;
	uint64_t time;

	while (tail < head) {
		ring_copy(&h, tail, sizeof(h));
		/* THROTTLE, UNTHROTTLE and SAMPLE (PERF_SAMPLE_TIME) start so */
		ring_copy(&time, tail + sizeof(h), sizeof(time));
		switch (h.type) {
		case PERF_RECORD_SAMPLE:
			/* then PERF_SAMPLE_READ's value */
			if (nsamples < 2)
				ring_copy(&sample_count[nsamples], tail + sizeof(h) + sizeof(time),
					  sizeof(sample_count[0]));
			nsamples++;
			break;
		case PERF_RECORD_THROTTLE:
			nthrottle++;
			throttle_ns = time;
			break;
		case PERF_RECORD_UNTHROTTLE:
			nunthrottle++;
			unthrottle_ns = time;
			break;
		}
		tail += h.size;
	}
	__atomic_store_n(&pg->data_tail, tail, __ATOMIC_RELEASE);
}

/*
 * Make E count PERIOD events in this task's user mode, and wait until it
 * has taken sample number WANT, spinning meanwhile.
 * Return: 0, or -1 when the sample did not come.
 */
static int overflow(int want)
{
	uint64_t start = now_ns();
	char line[64];
	int fd, len;

	if (inject_file) {
		fd = open(inject_file, O_WRONLY);
		if (fd < 0)
			die(inject_file);
		len = snprintf(line, sizeof(line), "instructions_executed %" PRIu64 " user\n",
			       period);
		if (write(fd, line, len) != len)
			die("inject");
		close(fd);
	}
	for (;;) {
		ring_scan();
		if (nsamples >= want)
			return 0;
		if (now_ns() - start > WAIT_NS)
			return -1;
	}
}

static int open_event(struct perf_event_attr *attr, pid_t pid, int cpu)
{
	int fd = syscall(SYS_perf_event_open, attr, pid, cpu, -1, 0);

	if (fd < 0)
		die("perf_event_open");
	return fd;
}

/*
 * Leave counter 1 as an earlier event leaves it, holding a value of its
 * own: two counting events of this task take both counters and go.
 */
static void leave_counter_1(int type)
{
	struct perf_event_attr c = {
		.size = sizeof(c),
		.type = type,
		.config = DATA_READ,
	};
	int fd0 = open_event(&c, 0, -1), fd1 = open_event(&c, 0, -1);

	close(fd1);
	close(fd0);
}

/* One try. Return: 1 when the tick left E throttled until after the move. */
static int try_move(int cpu, uint64_t counts[3])
{
	struct perf_event_attr e = {
		.size = sizeof(e),
		.type = knc_type(),
		.config = INSTRUCTIONS_EXECUTED,
		.sample_type = PERF_SAMPLE_TIME | PERF_SAMPLE_READ,
		.exclude_kernel = 1,
		.exclude_hv = 1,
		.use_clockid = 1,
		.clockid = CLOCK_MONOTONIC,
	}, l = {
		.size = sizeof(l),
		.type = e.type,
		.config = L2_READ_MISS,
		.disabled = 1,
	};
	uint64_t moved_ns, start;
	int efd, lfd, held;

	e.sample_period = period;
	leave_counter_1(e.type);
	lfd = open_event(&l, 0, -1);
	efd = open_event(&e, -1, cpu);
	ring = mmap(NULL, (DATA_PAGES + 1) * page_size, PROT_READ | PROT_WRITE,
		    MAP_SHARED, efd, 0);
	if (ring == MAP_FAILED)
		die("mmap");
	tail = 0;
	nsamples = nthrottle = nunthrottle = 0;

	if (overflow(1))
		fail("no overflow after the first period's events");
	if (!nthrottle)
		fail("the first overflow did not throttle (perf_event_max_sample_rate 1?)");
	counts[0] = count_of(efd);
	if (ioctl(lfd, PERF_EVENT_IOC_ENABLE, 0))
		die("PERF_EVENT_IOC_ENABLE");
	counts[1] = count_of(efd);
	moved_ns = now_ns();

	/* perf core unthrottles E at the next tick */
	start = now_ns();
	while (ring_scan(), !nunthrottle)
		if (now_ns() - start > WAIT_NS)
			fail("E was never unthrottled");
	held = unthrottle_ns > moved_ns;
	/* none: the period was not restored */
	if (held && overflow(2))
		counts[2] = 0;
	else if (held)
		counts[2] = sample_count[1];
	close(lfd);
	munmap(ring, (DATA_PAGES + 1) * page_size);
	close(efd);
	return held;
}

int main(int argc, char **argv)
{
	uint64_t counts[3];
	cpu_set_t set;
	int opt, cpu, tries;

	while ((opt = getopt(argc, argv, "i:")) != -1) {
		if (opt != 'i')
			return 2;
		inject_file = optarg;
	}
	if (argc - optind != 2) {
		fprintf(stderr, "usage: throttlemove [-i INJECT-FILE] CPU PERIOD\n");
		return 2;
	}
	cpu = atoi(argv[optind]);
	period = strtoull(argv[optind + 1], NULL, 0);
	page_size = sysconf(_SC_PAGESIZE);
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");

	for (tries = 1; !try_move(cpu, counts); tries++)
		if (tries == TRIES)
			fail("the tick unthrottled E before the move in every try");
	printf("tries %d\nthrottled %" PRIu64 "\nmoved %" PRIu64 "\nnext %" PRIu64 "\n",
	       tries, counts[0], counts[1], counts[2]);
	return 0;
}
