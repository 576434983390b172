// SPDX-License-Identifier: GPL-2.0
/*
 * evopen: open knc events with perf_event_open(2) and report the result
 * as an errno name, so that the guest tests can check exact errors.
 *
 *   evopen [-g] [-s PERIOD] [-x user|kernel] [-t TYPE] [-p PID | -c CPU] CONFIG...
 *
 * Opens each CONFIG (a number) as a knc event counting this process (or
 * an event of perf type TYPE, e.g. 0 for PERF_TYPE_HARDWARE); with -g as
 * one group led by the first; with -p counting task PID instead, with -c
 * counting CPU (CPU-wide). Prints "ok" or the errno name of the
 * first failure, and exits 0 or 1.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static const char *errname(int err)
{
	switch (err) {
	case EINVAL: return "EINVAL";
	case ENOENT: return "ENOENT";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case ENODEV: return "ENODEV";
	case EBUSY: return "EBUSY";
	case EACCES: return "EACCES";
	default: return strerror(err);
	}
}

static int knc_type(void)
{
	FILE *f = fopen("/sys/bus/event_source/devices/knc/type", "r");
	int type = -1;

	if (!f || fscanf(f, "%d", &type) != 1) {
		fprintf(stderr, "evopen: no knc PMU in sysfs\n");
		exit(2);
	}
	fclose(f);
	return type;
}

int main(int argc, char **argv)
{
	struct perf_event_attr attr = { .size = sizeof(attr) };
	int opt, group = 0, leader = -1, i, pid = 0, cpu = -1;

	attr.type = knc_type();
	while ((opt = getopt(argc, argv, "gs:t:x:p:c:")) != -1) {
		switch (opt) {
		case 'p':
			pid = atoi(optarg);
			break;
		case 'c':
			cpu = atoi(optarg);
			pid = -1;
			break;
		case 'g':
			group = 1;
			break;
		case 's':
			attr.sample_period = strtoull(optarg, NULL, 0);
			break;
		case 't':
			attr.type = strtoul(optarg, NULL, 0);
			break;
		case 'x':
			if (!strcmp(optarg, "user"))
				attr.exclude_user = 1;
			else
				attr.exclude_kernel = 1;
			break;
		default:
			fprintf(stderr, "usage: evopen [-g] [-s PERIOD] [-x user|kernel] [-t TYPE] [-p PID | -c CPU] CONFIG...\n");
			return 2;
		}
	}
	for (i = optind; i < argc; i++) {
		int fd;

		attr.config = strtoull(argv[i], NULL, 0);
		fd = syscall(SYS_perf_event_open, &attr, pid, cpu,
			     group ? leader : -1, 0);
		if (fd < 0) {
			printf("%s\n", errname(errno));
			return 1;
		}
		if (leader < 0)
			leader = fd;
	}
	printf("ok\n");
	return 0;
}
