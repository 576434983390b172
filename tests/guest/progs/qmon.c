// SPDX-License-Identifier: GPL-2.0
/*
 * qmon: talk to QEMU's monitor from inside a knc-vm guest, through the
 * second serial port (/dev/ttyS1) that tools/knc/knc-vm-relay serves.
 *
 *   qmon hmp 'COMMAND'
 *	run one HMP command, print its output, exit 0 (1 if it said Error)
 *   qmon inject EVENT COUNT [EVENT COUNT]... [--user|--kernel|--any] [--per-cycle N]
 *	    [--rounds R]
 *	knc-pmu-inject on the vCPU this runs on (EVENT: umask<<8|code), each
 *	pair in turn, one request right after the other; the whole list R
 *	times (default 1)
 *
 * A request is a line "TAG COMMAND"; the relay answers with the output and
 * a line "TAG END STATUS". qmon pins itself to its CPU and waits by
 * spinning, never sleeping, so that it stays the task that vCPU runs while
 * QEMU delivers an injection (at the vCPU's next user-mode instruction).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define PORT		"/dev/ttyS1"
#define TIMEOUT_S	60

static int usage(void)
{
	fprintf(stderr,
		"usage: qmon hmp 'COMMAND'\n"
		"       qmon inject EVENT COUNT [EVENT COUNT]... [--user|--kernel|--any]\n"
		"            [--per-cycle N] [--rounds R]\n");
	return 2;
}

static int open_port(void)
{
	struct termios t;
	int fd = open(PORT, O_RDWR | O_NOCTTY | O_NONBLOCK);

	if (fd < 0) {
		fprintf(stderr, "qmon: %s: %s (not in a knc-vm guest?)\n",
			PORT, strerror(errno));
		return -1;
	}
	if (tcgetattr(fd, &t) == 0) {
		cfmakeraw(&t);
		tcsetattr(fd, TCSANOW, &t);
	}
	tcflush(fd, TCIOFLUSH);
	return fd;
}

static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno != EAGAIN && errno != EINTR)
			return -1;
		if (n > 0) {
			buf += n;
			len -= n;
		}
	}
	return 0;
}

/* Send "TAG CMD", print the answer; return its status, or -1. */
static int request(const char *cmd)
{
	char tag[64], line[8192], end[80];
	size_t len = 0, endlen;
	time_t deadline = time(NULL) + TIMEOUT_S;
	int fd = open_port(), status = -1;
	char *req;

	if (fd < 0)
		return -1;
	snprintf(tag, sizeof(tag), "qmon-%d-%ld", getpid(), (long)time(NULL));
	endlen = snprintf(end, sizeof(end), "%s END ", tag);
	if (asprintf(&req, "%s %s\n", tag, cmd) < 0 ||
	    write_all(fd, req, strlen(req))) {
		fprintf(stderr, "qmon: cannot write to %s\n", PORT);
		close(fd);
		return -1;
	}
	free(req);
	for (;;) {
		char c;
		ssize_t n = read(fd, &c, 1);

		if (n <= 0) {
			if (n < 0 && errno != EAGAIN && errno != EINTR)
				break;
			if (time(NULL) > deadline) {
				fprintf(stderr, "qmon: no answer in %d s (is knc-vm's relay running?)\n",
					TIMEOUT_S);
				break;
			}
			continue;	/* spin: stay on this vCPU */
		}
		if (c == '\r')
			continue;
		if (c != '\n') {
			if (len < sizeof(line) - 1)
				line[len++] = c;
			continue;
		}
		line[len] = '\0';
		len = 0;
		if (!strncmp(line, end, endlen)) {
			status = atoi(line + endlen);
			break;
		}
		if (!strncmp(line, tag, strlen(tag)))
			continue;
		printf("%s\n", line);
	}
	close(fd);
	return status;
}

static int pin_here(void)
{
	cpu_set_t set;
	int cpu = sched_getcpu();

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (cpu < 0 || sched_setaffinity(0, sizeof(set), &set)) {
		perror("qmon: sched_setaffinity");
		return -1;
	}
	/* the pin may have moved us: we are where the set says now */
	return sched_getcpu();
}

/* A whole unsigned number (0x.. or decimal): no sign, nothing after it. */
static int parse_u64(const char *s, unsigned long long *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno || end == s || *end || strchr(s, '-') ? -1 : 0;
}

#define MAX_EVENTS	16

int main(int argc, char **argv)
{
	const char *mode = "user";
	unsigned long long event[MAX_EVENTS], count[MAX_EVENTS], per_cycle = 1, rounds = 1, r;
	char cmd[256];
	int cpu, i, n = 0, status = 0;

	if (argc == 3 && !strcmp(argv[1], "hmp")) {
		status = request(argv[2]);
		return status < 0 ? 1 : status;
	}
	if (argc < 4 || strcmp(argv[1], "inject"))
		return usage();
	for (i = 2; i + 1 < argc && argv[i][0] != '-'; i += 2) {
		if (n == MAX_EVENTS) {
			fprintf(stderr, "qmon: at most %d events\n", MAX_EVENTS);
			return 2;
		}
		if (parse_u64(argv[i], &event[n]) || event[n] > 0xffff) {
			fprintf(stderr, "qmon: bad event '%s' (umask<<8|code)\n", argv[i]);
			return 2;
		}
		if (parse_u64(argv[i + 1], &count[n]) || !count[n]) {
			fprintf(stderr, "qmon: bad count '%s'\n", argv[i + 1]);
			return 2;
		}
		n++;
	}
	if (!n)
		return usage();
	for (; i < argc; i++) {
		if (!strcmp(argv[i], "--user"))
			mode = "user";
		else if (!strcmp(argv[i], "--kernel"))
			mode = "kernel";
		else if (!strcmp(argv[i], "--any"))
			mode = "any";
		else if (!strcmp(argv[i], "--rounds") && i + 1 < argc) {
			if (parse_u64(argv[++i], &rounds) || !rounds)
				return usage();
		} else if (!strcmp(argv[i], "--per-cycle") && i + 1 < argc) {
			if (parse_u64(argv[++i], &per_cycle) || !per_cycle || per_cycle > 0xffffffff)
				return usage();
		} else {
			return usage();
		}
	}
	for (i = 0; i < n; i++) {
		if (count[i] % per_cycle) {
			fprintf(stderr, "qmon: --per-cycle must divide COUNT\n");
			return 2;
		}
	}
	cpu = pin_here();
	if (cpu < 0)
		return 1;
	for (r = 0; r < rounds && !status; r++) {
		for (i = 0; i < n && !status; i++) {
			snprintf(cmd, sizeof(cmd), "knc-pmu-inject %d %llu %llu %s %llu",
				 cpu, event[i], count[i], mode, per_cycle);
			status = request(cmd);
		}
	}
	return status < 0 ? 1 : status;
}
