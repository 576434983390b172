// SPDX-License-Identifier: GPL-2.0
/*
 * ovfsig: overflow signals from a knc sampling event.
 *
 *   ovfsig CONFIG PERIOD REFRESH COUNT [PERIOD2 REFRESH2 COUNT2]
 *
 * Opens CONFIG on this process with PERIOD, asks for a real-time signal
 * per overflow (fcntl F_SETSIG), enables it for REFRESH overflows with
 * PERF_EVENT_IOC_REFRESH, injects COUNT occurrences through the simulator
 * and prints the number of signals. With the second triple it then
 * changes the period with PERF_EVENT_IOC_PERIOD, refreshes and injects
 * again, and prints that phase's count too.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static volatile sig_atomic_t signals;

static void on_signal(int sig)
{
	(void)sig;
	signals++;
}

static int knc_type(void)
{
	FILE *f = fopen("/sys/bus/event_source/devices/knc/type", "r");
	int type = -1;

	if (!f || fscanf(f, "%d", &type) != 1)
		exit(2);
	fclose(f);
	return type;
}

static void inject(unsigned long long config, unsigned long long count)
{
	char buf[128];
	int fd = open("/sys/kernel/debug/knc_sim/inject", O_WRONLY);
	int len = snprintf(buf, sizeof(buf), "event=%#llx,umask=%#llx %llu\n",
			   config & 0xff, (config >> 8) & 0xff, count);

	if (fd < 0 || write(fd, buf, len) != len) {
		perror("ovfsig: inject");
		exit(2);
	}
	close(fd);
}

/* Signals are queued; let any still in flight arrive. */
static int settle(void)
{
	int last;

	do {
		last = signals;
		usleep(20000);
	} while (signals != last);
	return signals;
}

int main(int argc, char **argv)
{
	struct perf_event_attr attr = { .size = sizeof(attr) };
	struct sigaction sa = { .sa_handler = on_signal };
	int fd;

	if (argc != 5 && argc != 8) {
		fprintf(stderr, "usage: ovfsig CONFIG PERIOD REFRESH COUNT [PERIOD2 REFRESH2 COUNT2]\n");
		return 2;
	}
	sigaction(SIGRTMIN, &sa, NULL);
	attr.type = knc_type();
	attr.config = strtoull(argv[1], NULL, 0);
	attr.sample_period = strtoull(argv[2], NULL, 0);
	attr.disabled = 1;
	attr.wakeup_events = 1;
	fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd < 0) {
		perror("ovfsig: perf_event_open");
		return 2;
	}
	fcntl(fd, F_SETFL, O_ASYNC);
	fcntl(fd, F_SETSIG, SIGRTMIN);
	fcntl(fd, F_SETOWN, getpid());

	ioctl(fd, PERF_EVENT_IOC_REFRESH, atoi(argv[3]));
	inject(attr.config, strtoull(argv[4], NULL, 0));
	printf("%d\n", settle());

	if (argc == 8) {
		unsigned long long period = strtoull(argv[5], NULL, 0);

		signals = 0;
		if (ioctl(fd, PERF_EVENT_IOC_PERIOD, &period)) {
			perror("ovfsig: PERF_EVENT_IOC_PERIOD");
			return 2;
		}
		ioctl(fd, PERF_EVENT_IOC_REFRESH, atoi(argv[6]));
		inject(attr.config, strtoull(argv[7], NULL, 0));
		printf("%d\n", settle());
	}
	return 0;
}
