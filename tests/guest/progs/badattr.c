// SPDX-License-Identifier: GPL-2.0
/*
 * badattr: every perf_event_attr field with an invalid value, opened on
 * a PMU, and the errno each gives.
 *
 *   badattr knc      the knc PMU (its sysfs type); compare with the knc column
 *   badattr cpu      the x86 core PMU, as PERF_TYPE_RAW (Linux's own KNC
 *                    driver on the QEMU model); compare with the x86 column
 *   badattr --rst    the table as reStructuredText (Documentation/knc-pmu.rst
 *                    holds it; tests/host/docs.t checks that it is current)
 *
 * Each row starts from one valid counting event (l2_read_miss, raw 0x10cb)
 * and changes one thing. The valid event must open first, and open again
 * after every row, or the row fails too. Prints TAP; exits 1 when a row
 * gives another errno than its column says.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define BASE_CONFIG	0x10cb	/* l2_read_miss */
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

struct open_args {
	struct perf_event_attr attr;
	char tail[512];		/* bytes past the attr a too-big size covers */
	int pid, cpu, group_fd;
	unsigned long flags;
	int group_size;		/* open this many events in one group */
};

struct row {
	const char *field;
	const char *value;
	void (*change)(struct open_args *a);
	int knc, x86;		/* the errno expected on each; 0: it opens */
	const char *why;
};

#define FIELD_SET(fn, stmt) \
	static void fn(struct open_args *a) { stmt; }

FIELD_SET(size_small, a->attr.size = 8)
/* past every field a kernel knows: the uapi header's attr may be older */
FIELD_SET(size_big, a->attr.size = sizeof(a->attr) + sizeof(a->tail);
	  a->tail[sizeof(a->tail) - 1] = 1)
FIELD_SET(type_none, a->attr.type = 1000000)
FIELD_SET(cfg_bit16, a->attr.config |= 1ULL << 16)
FIELD_SET(cfg_bit22, a->attr.config |= 1ULL << 22)
FIELD_SET(cfg_bit32, a->attr.config |= 1ULL << 32)
FIELD_SET(cfg_event, a->attr.config = 0x05)
FIELD_SET(cfg_umask, a->attr.config = 0x1016)
FIELD_SET(cfg_hw_id, a->attr.type = PERF_TYPE_HARDWARE; a->attr.config = 99)
FIELD_SET(cfg_cache, a->attr.type = PERF_TYPE_HW_CACHE; a->attr.config = 0x7)
FIELD_SET(config1, a->attr.config1 = 2)
FIELD_SET(config2, a->attr.config2 = 1)
FIELD_SET(spflt_inherit, a->attr.config1 = 1; a->attr.inherit = 1)
FIELD_SET(period_63, a->attr.sample_period = 1ULL << 63)
FIELD_SET(freq_high, a->attr.freq = 1; a->attr.sample_freq = 100000000)
FIELD_SET(stype_bad, a->attr.sample_period = 1000;
	  a->attr.sample_type = 1ULL << 63)
FIELD_SET(stype_weight, a->attr.sample_period = 1000;
	  a->attr.sample_type = PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)
FIELD_SET(stype_branch, a->attr.sample_period = 1000;
	  a->attr.sample_type = PERF_SAMPLE_BRANCH_STACK;
	  a->attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY)
FIELD_SET(stack_user, a->attr.sample_period = 1000;
	  a->attr.sample_type = PERF_SAMPLE_STACK_USER;
	  a->attr.sample_stack_user = 4097)
FIELD_SET(regs_user, a->attr.sample_period = 1000;
	  a->attr.sample_type = PERF_SAMPLE_REGS_USER;
	  a->attr.sample_regs_user = 1ULL << 24)
FIELD_SET(regs_xmm, a->attr.sample_period = 1000;
	  a->attr.sample_type = PERF_SAMPLE_REGS_USER;
	  a->attr.sample_regs_user = 1ULL << 63)
FIELD_SET(regs_intr_xmm, a->attr.sample_period = 1000;
	  a->attr.sample_type = PERF_SAMPLE_REGS_INTR;
	  a->attr.sample_regs_intr = 1ULL << 32)
FIELD_SET(read_fmt, a->attr.read_format = 1ULL << 63)
FIELD_SET(precise1, a->attr.precise_ip = 1)
FIELD_SET(precise3, a->attr.precise_ip = 3)
FIELD_SET(inh_thread, a->attr.inherit_thread = 1)
FIELD_SET(rm_enable, a->attr.remove_on_exec = 1; a->attr.enable_on_exec = 1)
FIELD_SET(sigtrap, a->attr.sigtrap = 1)
FIELD_SET(clockid, a->attr.use_clockid = 1; a->attr.clockid = 99)
FIELD_SET(aux_output, a->attr.aux_output = 1)
FIELD_SET(reserved, a->attr.__reserved_2 = 1)
FIELD_SET(pid_none, a->pid = 0x3ffffff0)
FIELD_SET(cpu_none, a->cpu = 100000)
FIELD_SET(pid_cpu_any, a->pid = -1; a->cpu = -1)
FIELD_SET(group_fd_closed, a->group_fd = 1000)
FIELD_SET(group_fd_file, a->group_fd = open("/dev/null", O_RDONLY))
FIELD_SET(flags_bad, a->flags = 1UL << 20)
FIELD_SET(cgroup_not_dir, a->flags = PERF_FLAG_PID_CGROUP;
	  a->pid = open("/dev/null", O_RDONLY);
	  a->cpu = 0)
FIELD_SET(group_three, a->group_size = 3)
FIELD_SET(no_mode, a->attr.exclude_user = 1; a->attr.exclude_kernel = 1)
FIELD_SET(exclude_hv, a->attr.exclude_hv = 1; a->attr.exclude_idle = 1;
	  a->attr.exclude_host = 1; a->attr.exclude_guest = 1)

static const struct row rows[] = {
	{ "size", "8 (below the first version's 64)", size_small, E2BIG, E2BIG,
	  "perf_copy_attr() writes the size it knows back" },
	{ "size", "512 bytes past its own size, the last byte set", size_big, E2BIG, E2BIG,
	  "the kernel cannot ignore fields it does not know" },
	{ "type", "a number no PMU has", type_none, ENOENT, ENOENT,
	  "no PMU takes it" },
	{ "config", "bit 16 (USR)", cfg_bit16, EINVAL, 0,
	  "exclude_user says it; x86 drops the bit silently" },
	{ "config", "bit 22 (EN)", cfg_bit22, EINVAL, 0,
	  "the driver enables; x86 drops the bit silently" },
	{ "config", "bit 32 (above the EvtSel layout)", cfg_bit32, EINVAL, 0,
	  "x86 drops the bit silently" },
	{ "config", "event 0x05 (not in the table)", cfg_event, EINVAL, 0,
	  "knc counts only the table's events; x86 programs any code" },
	{ "config", "event 0x16 with umask 0x10", cfg_umask, EINVAL, 0,
	  "umasks only where the table has them" },
	{ "config", "PERF_TYPE_HARDWARE id 99", cfg_hw_id, EINVAL, EINVAL,
	  "no such generic event" },
	{ "config", "PERF_TYPE_HW_CACHE cache id 7", cfg_cache, EINVAL, EINVAL,
	  "no such cache" },
	{ "config1", "2", config1, EINVAL, 0,
	  "only bit 0 (spflt) is defined; x86 ignores config1 without extra registers" },
	{ "config2", "1", config2, EINVAL, 0, "knc uses no config2" },
	{ "config1 + inherit", "spflt with inherit", spflt_inherit, EINVAL, 0,
	  "an spflt event keeps its task's USER_PREF; perf swaps inherited contexts without a switch" },
	{ "sample_period", "bit 63 set", period_63, EINVAL, EINVAL,
	  "the core's limit" },
	{ "sample_freq", "100000000 (above perf_event_max_sample_rate)",
	  freq_high, EINVAL, EINVAL, "the core's limit" },
	{ "sample_type", "bit 63", stype_bad, EINVAL, EINVAL, "no such bit" },
	{ "sample_type", "WEIGHT and WEIGHT_STRUCT", stype_weight, EINVAL,
	  EINVAL, "one or the other" },
	{ "sample_type", "BRANCH_STACK", stype_branch, EOPNOTSUPP, 0,
	  "KNC has no branch records; x86 opens it and samples none" },
	{ "sample_stack_user", "4097 (not 8-byte aligned)", stack_user, EINVAL,
	  EINVAL, "the core's rule" },
	{ "sample_regs_user", "bit 24", regs_user, EINVAL, EINVAL,
	  "no such register" },
	{ "sample_regs_user", "bit 63 (XMM15)", regs_xmm, EINVAL, EINVAL,
	  "no XMM registers in user register samples" },
	{ "sample_regs_intr", "bit 32 (XMM0)", regs_intr_xmm, EINVAL, EINVAL,
	  "XMM registers come only from PEBS, which KNC lacks" },
	{ "read_format", "bit 63", read_fmt, EINVAL, EINVAL, "no such bit" },
	{ "precise_ip", "1", precise1, EOPNOTSUPP, EOPNOTSUPP,
	  "KNC has no precise sampling" },
	{ "precise_ip", "3", precise3, EOPNOTSUPP, EOPNOTSUPP, "as 1" },
	{ "inherit_thread", "1 without inherit", inh_thread, EINVAL, EINVAL,
	  "the core's rule" },
	{ "remove_on_exec", "1 with enable_on_exec", rm_enable, EINVAL, EINVAL,
	  "the core's rule" },
	{ "sigtrap", "1 without remove_on_exec", sigtrap, EINVAL, EINVAL,
	  "the core's rule" },
	{ "clockid", "99 with use_clockid", clockid, EINVAL, EINVAL,
	  "no such clock" },
	{ "aux_output", "1", aux_output, EOPNOTSUPP,
	  EOPNOTSUPP, "neither PMU writes to an AUX area" },
	{ "__reserved_2", "1", reserved, EINVAL, EINVAL, "reserved" },
	{ "exclude_user, exclude_kernel", "both", no_mode, 0, 0,
	  "opens and counts nothing, as on x86" },
	{ "exclude_hv, _idle, _host, _guest", "all 1", exclude_hv, 0, 0,
	  "KNC has no hypervisor or guests; idle time is counted, as on x86" },
	{ "pid", "a task that does not exist", pid_none, ESRCH, ESRCH,
	  "no such task" },
	{ "cpu", "100000", cpu_none, EINVAL, EINVAL, "no such CPU" },
	{ "pid, cpu", "-1, -1", pid_cpu_any, EINVAL, EINVAL,
	  "an event needs a task or a CPU" },
	{ "group_fd", "a closed descriptor", group_fd_closed, EBADF, EBADF,
	  "no such file" },
	{ "group_fd", "/dev/null (not a perf event)", group_fd_file, EBADF, EBADF,
	  "not a perf event" },
	{ "flags", "bit 20", flags_bad, EINVAL, EINVAL, "no such flag" },
	{ "flags", "PERF_FLAG_PID_CGROUP, pid /dev/null", cgroup_not_dir,
	  EBADF, EBADF, "not a cgroup directory" },
	{ "group", "three events", group_three, EINVAL, EINVAL,
	  "two counters; x86 also refuses at open" },
};

static int perf_open(struct open_args *a, int group_fd)
{
	return syscall(SYS_perf_event_open, &a->attr, a->pid, a->cpu, group_fd,
		       a->flags);
}

/* Open the row's event(s): 0, or the errno of the first failure. */
static int try_row(const struct open_args *base, const struct row *r)
{
	struct open_args a = *base;
	int fds[4], n, size, err = 0;

	if (r)
		r->change(&a);
	/* A group's members join its first; a lone event, group_fd. */
	size = a.group_size ? a.group_size : 1;
	for (n = 0; n < size; n++) {
		fds[n] = perf_open(&a, n ? fds[0] : a.group_fd);
		if (fds[n] < 0) {
			err = errno;
			break;
		}
	}
	while (n--)
		close(fds[n]);
	return err;
}

/* Does the row ask for a generic type (hardware or cache event)? */
static int is_generic(const struct open_args *base, const struct row *r)
{
	struct open_args a = *base;

	r->change(&a);
	return a.attr.type == PERF_TYPE_HARDWARE ||
	       a.attr.type == PERF_TYPE_HW_CACHE;
}

static const char *errname(int err)
{
	static const char *const names[] = {
		[0] = "ok", [E2BIG] = "E2BIG", [EBADF] = "EBADF",
		[EINVAL] = "EINVAL", [ENOENT] = "ENOENT", [ESRCH] = "ESRCH",
		[EOPNOTSUPP] = "EOPNOTSUPP", [EACCES] = "EACCES",
		[EBUSY] = "EBUSY", [EPERM] = "EPERM",
	};

	if (err >= 0 && err < (int)ARRAY_SIZE(names) &&
	    names[err])
		return names[err];
	return strerror(err);
}

static int pmu_type(const char *pmu)
{
	char path[128];
	FILE *f;
	int type = -1;

	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type",
		 pmu);
	f = fopen(path, "r");
	if (!f || fscanf(f, "%d", &type) != 1) {
		fprintf(stderr, "badattr: no %s PMU in sysfs\n", pmu);
		exit(2);
	}
	fclose(f);
	return type;
}

static void print_rst(void)
{
	size_t i;

	puts(".. list-table::\n   :header-rows: 1\n");
	puts("   * - field\n     - value\n     - knc\n     - Linux's knc.c\n     - why");
	for (i = 0; i < ARRAY_SIZE(rows); i++)
		printf("   * - %s\n     - %s\n     - %s\n     - %s\n     - %s\n",
		       rows[i].field, rows[i].value, errname(rows[i].knc),
		       errname(rows[i].x86), rows[i].why);
}

int main(int argc, char **argv)
{
	struct open_args base = { .pid = 0, .cpu = -1, .group_fd = -1 };
	int x86, generic, failed = 0, err;
	size_t i, n = ARRAY_SIZE(rows);

	if (argc == 2 && !strcmp(argv[1], "--rst")) {
		print_rst();
		return 0;
	}
	if (argc != 2 || (strcmp(argv[1], "knc") && strcmp(argv[1], "cpu"))) {
		fprintf(stderr, "usage: badattr knc|cpu|--rst\n");
		return 2;
	}
	x86 = !strcmp(argv[1], "cpu");
	base.attr.size = sizeof(base.attr);
	base.attr.type = x86 ? PERF_TYPE_RAW : pmu_type("knc");
	base.attr.config = BASE_CONFIG;

	/* knc takes the generic types only where no core PMU does. */
	generic = x86 || access("/sys/bus/event_source/devices/cpu", F_OK);

	printf("1..%zu\n", n);
	for (i = 0; i < n; i++) {
		int want = x86 ? rows[i].x86 : rows[i].knc;

		if (!generic && is_generic(&base, &rows[i])) {
			printf("ok %zu - %s %s # SKIP the cpu PMU takes generic types here\n",
			       i + 1, rows[i].field, rows[i].value);
			continue;
		}
		err = try_row(&base, &rows[i]);
		if (try_row(&base, NULL)) {
			printf("not ok %zu - %s %s: the valid event no longer opens\n",
			       i + 1, rows[i].field, rows[i].value);
			failed++;
		} else if (err != want) {
			printf("not ok %zu - %s %s: %s, expected %s\n", i + 1,
			       rows[i].field, rows[i].value, errname(err),
			       errname(want));
			failed++;
		} else {
			printf("ok %zu - %s %s: %s\n", i + 1, rows[i].field,
			       rows[i].value, errname(err));
		}
	}
	return failed ? 1 : 0;
}
