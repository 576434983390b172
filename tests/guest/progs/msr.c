// SPDX-License-Identifier: GPL-2.0
/*
 * msr: read or write one MSR through the msr driver (/dev/cpu/CPU/msr),
 * which uses the _safe accessors: a #GP is an error (EIO), not an oops.
 *
 *   msr CPU MSR           print the MSR's value in hex ("0" for zero)
 *   msr CPU MSR VALUE     write VALUE
 *
 * MSR and VALUE are numbers in C syntax (0x... for hex). Exits 1 on any
 * failure, with the reason on stderr. One program where the shell needed
 * dd, od and tr: in a debug guest under TCG each program run costs a good
 * part of a second.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int number(const char *s, unsigned long long *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno || !*s || *end ? -1 : 0;
}

int main(int argc, char **argv)
{
	unsigned long long cpu, reg, val;
	uint64_t v;
	char dev[64];
	ssize_t n;
	int fd;

	if ((argc != 3 && argc != 4) || number(argv[1], &cpu) || number(argv[2], &reg) ||
	    (argc == 4 && number(argv[3], &val))) {
		fprintf(stderr, "usage: msr CPU MSR [VALUE]\n");
		return 1;
	}
	snprintf(dev, sizeof(dev), "/dev/cpu/%llu/msr", cpu);
	fd = open(dev, argc == 4 ? O_WRONLY : O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "msr: %s: %s\n", dev, strerror(errno));
		return 1;
	}
	if (argc == 4) {
		v = val;
		n = pwrite(fd, &v, sizeof(v), reg);
	} else {
		n = pread(fd, &v, sizeof(v), reg);
	}
	if (n != sizeof(v)) {
		fprintf(stderr, "msr: %s MSR %#llx on CPU %llu: %s\n",
			argc == 4 ? "write" : "read", reg, cpu,
			n < 0 ? strerror(errno) : "short transfer");
		return 1;
	}
	close(fd);
	if (argc == 3)
		printf("%#llx\n", (unsigned long long)v);
	return 0;
}
