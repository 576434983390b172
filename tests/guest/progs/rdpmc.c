// SPDX-License-Identifier: GPL-2.0
/*
 * rdpmc: RDPMC from user space.
 *
 *   rdpmc raw ECX           execute RDPMC with ECX; print the value, or
 *                           "fault" and exit 3 if it faults (SIGSEGV)
 *   rdpmc self TYPE CONFIG  open TYPE/CONFIG (user mode only) on this task,
 *                           mmap its page, and print cap_user_rdpmc, the
 *                           counter index, and the count read both ways
 *                           (RDPMC through the page, then read())
 *   rdpmc redirect TYPE CONFIG
 *                           mmap a cpu-clock event's page, send TYPE/CONFIG's
 *                           output there (PERF_EVENT_IOC_SET_OUTPUT), and
 *                           print what the page offers and whether RDPMC
 *                           through it faults (exit 3)
 */
#include <linux/perf_event.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

static sigjmp_buf env;

static void on_segv(int sig)
{
	(void)sig;
	siglongjmp(env, 1);
}

static uint64_t rdpmc(uint32_t ecx)
{
	uint32_t lo, hi;

	asm volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(ecx));
	return (uint64_t)hi << 32 | lo;
}

/* RDPMC with ECX into *VAL; -1 if it faulted (SIGSEGV). */
static int try_rdpmc(uint32_t ecx, uint64_t *val)
{
	signal(SIGSEGV, on_segv);
	if (sigsetjmp(env, 1))
		return -1;
	*val = rdpmc(ecx);
	return 0;
}

static int raw(uint32_t ecx)
{
	uint64_t val;

	if (try_rdpmc(ecx, &val)) {
		printf("fault\n");
		return 3;
	}
	printf("%llu\n", (unsigned long long)val);
	return 0;
}

/* A user-mode event of this task, or -1 with the error printed. */
static int open_user_event(uint32_t type, uint64_t config)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr), .type = type, .config = config,
		.exclude_kernel = 1, .exclude_hv = 1,
	};
	int fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);

	if (fd < 0)
		perror("perf_event_open");
	return fd;
}

static int self(uint32_t type, uint64_t config)
{
	struct perf_event_mmap_page *pc;
	uint64_t count = 0, via_read;
	uint32_t seq, idx = 0;
	int fd;

	fd = open_user_event(type, config);
	if (fd < 0)
		return 1;
	pc = mmap(NULL, sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, fd, 0);
	if (pc == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	do {
		seq = pc->lock;
		asm volatile("" ::: "memory");
		idx = pc->index;
		count = pc->offset;
		if (pc->cap_user_rdpmc && idx) {
			unsigned int w = pc->pmc_width;
			uint64_t c;

			if (try_rdpmc(idx - 1, &c)) {
				printf("fault\n");
				return 3;
			}
			c <<= 64 - w;
			count += (int64_t)c >> (64 - w);
		}
		asm volatile("" ::: "memory");
	} while (pc->lock != seq);
	if (read(fd, &via_read, sizeof(via_read)) != sizeof(via_read)) {
		perror("read");
		return 1;
	}
	printf("cap_user_rdpmc=%u index=%u rdpmc=%llu read=%llu\n",
	       (unsigned int)pc->cap_user_rdpmc, idx,
	       (unsigned long long)count, (unsigned long long)via_read);
	return 0;
}

static int redirect(uint32_t type, uint64_t config)
{
	struct perf_event_mmap_page *pc;
	uint32_t cap = 0, idx = 0, seq;
	int sw_fd, fd, tries;
	uint64_t val;

	sw_fd = open_user_event(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK);
	fd = open_user_event(type, config);
	if (sw_fd < 0 || fd < 0)
		return 1;
	pc = mmap(NULL, 2 * sysconf(_SC_PAGESIZE), PROT_READ | PROT_WRITE,
		  MAP_SHARED, sw_fd, 0);
	if (pc == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, sw_fd)) {
		perror("PERF_EVENT_IOC_SET_OUTPUT");
		return 1;
	}
	/*
	 * A reset updates the page from the redirected event. A context
	 * switch after it lets the cpu-clock event's add() write the page
	 * last (cap_user_rdpmc=0): read again until the redirected event's
	 * write is the one seen.
	 */
	for (tries = 0; tries < 100; tries++) {
		ioctl(fd, PERF_EVENT_IOC_RESET, 0);
		do {
			seq = pc->lock;
			asm volatile("" ::: "memory");
			cap = pc->cap_user_rdpmc;
			idx = pc->index;
			asm volatile("" ::: "memory");
		} while (pc->lock != seq);
		if (cap)
			break;
	}
	printf("cap_user_rdpmc=%u index=%u ", cap, idx);
	if (!cap || !idx) {
		printf("rdpmc=none\n");
		return 0;
	}
	if (try_rdpmc(idx - 1, &val)) {
		printf("rdpmc=fault\n");
		return 3;
	}
	printf("rdpmc=%llu\n", (unsigned long long)val);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "raw"))
		return raw(strtoul(argv[2], NULL, 0));
	if (argc == 4 && !strcmp(argv[1], "self"))
		return self(strtoul(argv[2], NULL, 0), strtoull(argv[3], NULL, 0));
	if (argc == 4 && !strcmp(argv[1], "redirect"))
		return redirect(strtoul(argv[2], NULL, 0), strtoull(argv[3], NULL, 0));
	fprintf(stderr, "usage: rdpmc raw ECX | rdpmc self TYPE CONFIG | rdpmc redirect TYPE CONFIG\n");
	return 2;
}
