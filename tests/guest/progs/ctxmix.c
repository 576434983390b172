// SPDX-License-Identifier: GPL-2.0
/*
 * ctxmix: one task that uses the cpu PMU, then, in the same perf context,
 * the knc PMU. On Linux 6.1 both share perf_hw_context, and a task keeps
 * its context, whose pmu is the PMU that created it, for its whole life:
 * this checks that knc events count exactly in a context the cpu PMU made.
 *
 *   ctxmix FIFO
 *
 * 1. counts its own loop with the cpu PMU (raw 0x16, user mode) and prints
 *    "cpu COUNT";
 * 2. reads knc's PMU type from FIFO (the caller loads knc_pmu.ko first);
 * 3. prints "cpu-idle COUNT" for its loop on the cpu PMU again (knc has no
 *    event: the counters are free), then, with a knc event open,
 *    "cpu-open ERRNO" for a new cpu event (EBUSY: knc reserved the counters),
 *    "knc COUNT" for its loop on knc, and "group COUNT NSEC" for a group
 *    of knc instructions and the task-clock software event.
 *
 * The loop is 1000000 times (dec, jnz) plus a mov: 2000001 instructions;
 * the counts add the few instructions of the ioctl wrappers around it.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* group: -2 alone, -1 a group leader, else the leader's fd */
static int open_ev(uint32_t type, uint64_t config, int group)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr), .type = type, .config = config,
		.exclude_kernel = 1, .exclude_hv = 1, .disabled = group < 0,
		.read_format = group == -1 ? PERF_FORMAT_GROUP : 0,
	};

	return syscall(SYS_perf_event_open, &attr, 0, -1, group < 0 ? -1 : group, 0);
}

static void loop(void)
{
	asm volatile("mov $1000000, %%ecx\n1: dec %%ecx\njnz 1b" ::: "ecx", "cc");
}

static long long count_loop(int fd)
{
	long long v;

	ioctl(fd, PERF_EVENT_IOC_RESET, 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	loop();
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (read(fd, &v, sizeof(v)) != sizeof(v))
		return -1;
	return v;
}

int main(int argc, char **argv)
{
	unsigned int knc_type;
	unsigned long long g[3];
	FILE *fifo;
	int fd, kfd, lead, mem;

	if (argc != 2) {
		fprintf(stderr, "usage: ctxmix FIFO\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IONBF, 0);
	fd = open_ev(PERF_TYPE_RAW, 0x16, -2);
	if (fd < 0) {
		printf("cpu-open %s\n", strerror(errno));
		return 1;
	}
	printf("cpu %lld\n", count_loop(fd));
	close(fd);

	fifo = fopen(argv[1], "r");
	if (!fifo || fscanf(fifo, "%u", &knc_type) != 1) {
		fprintf(stderr, "ctxmix: no knc type on %s\n", argv[1]);
		return 1;
	}
	fd = open_ev(PERF_TYPE_RAW, 0x16, -2);
	if (fd < 0) {
		printf("cpu-idle %s\n", strerror(errno));
		return 1;
	}
	printf("cpu-idle %lld\n", count_loop(fd));
	close(fd);

	kfd = open_ev(knc_type, 0x16, -2);
	if (kfd < 0) {
		printf("knc-open %s\n", strerror(errno));
		return 1;
	}
	fd = open_ev(PERF_TYPE_RAW, 0x16, -2);
	printf("cpu-open %s\n", fd < 0 ? (errno == EBUSY ? "EBUSY" : strerror(errno)) : "ok");
	if (fd >= 0)
		close(fd);
	printf("knc %lld\n", count_loop(kfd));
	close(kfd);

	lead = open_ev(knc_type, 0x16, -1);
	mem = open_ev(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, lead);
	if (lead < 0 || mem < 0) {
		printf("group-open %s\n", strerror(errno));
		return 1;
	}
	ioctl(lead, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	loop();
	ioctl(lead, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	if (read(lead, g, sizeof(g)) != sizeof(g))
		return 1;
	printf("group %llu %llu\n", g[1], g[2]);
	return 0;
}
