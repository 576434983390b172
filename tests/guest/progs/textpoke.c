// SPDX-License-Identifier: GPL-2.0
/*
 * textpoke: make the kernel patch the code another CPU is running, as fast
 * as it will. Opening the first perf event on the sched:sched_switch
 * tracepoint enables the tracepoint's static key and static call, and
 * closing the last one disables them: each is a text_poke_bp() of
 * __schedule() and of the static call's trampoline (an int3, then the new
 * bytes, then the first byte). Two tasks ping-pong a byte through pipes on
 * CPU 1, so CPU 1 runs __schedule() all the time, while this one opens
 * and closes the event on CPU 0.
 *
 *   textpoke [SECONDS]
 *
 * Runs SECONDS (default 60), prints "textpoke: FLIPS flips" (event opens
 * and closes) and exits 0. Under QEMU 7.2's multi-threaded TCG, CPU 1 can keep
 * executing an int3 that CPU 0 has already replaced: then the guest stops
 * (Linux 6.1) or dies of "Oops: int3" (6.12). It needs 2 CPUs and root
 * (or perf_event_paranoid <= 1) and tracefs at /sys/kernel/tracing.
 */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define TP_ID "/sys/kernel/tracing/events/sched/sched_switch/id"

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("textpoke: sched_setaffinity");
		exit(2);
	}
}

/* ping-pong one byte between in and out until killed, on CPU 1 */
static void pong(int in, int out, int first)
{
	char c = 0;

	pin(1);
	if (first && write(out, &c, 1) != 1)
		exit(2);
	for (;;) {
		if (read(in, &c, 1) != 1 || write(out, &c, 1) != 1)
			exit(0);
	}
}

static pid_t spawn(int in, int out, int first)
{
	pid_t pid = fork();

	if (pid < 0) {
		perror("textpoke: fork");
		exit(2);
	}
	if (pid == 0)
		pong(in, out, first);
	return pid;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	struct perf_event_attr attr = { .size = sizeof(attr) };
	double secs = argc > 1 ? atof(argv[1]) : 60, end;
	unsigned long long id, flips = 0;
	int ab[2], ba[2];
	pid_t a, b;
	FILE *f;

	f = fopen(TP_ID, "r");
	if (!f || fscanf(f, "%llu", &id) != 1) {
		perror("textpoke: " TP_ID);
		return 2;
	}
	fclose(f);
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.config = id;

	if (pipe(ab) || pipe(ba)) {
		perror("textpoke: pipe");
		return 2;
	}
	a = spawn(ba[0], ab[1], 1);
	b = spawn(ab[0], ba[1], 0);
	pin(0);
	end = now() + secs;
	while (now() < end) {
		int fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);

		if (fd < 0) {
			perror("textpoke: perf_event_open");
			break;
		}
		close(fd);
		flips++;
	}
	kill(a, SIGKILL);
	kill(b, SIGKILL);
	waitpid(a, NULL, 0);
	waitpid(b, NULL, 0);
	printf("textpoke: %llu flips\n", flips);
	return flips ? 0 : 1;
}
