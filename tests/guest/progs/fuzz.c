// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz: a perf_event_open fuzzer aimed at the knc PMU, for the guest
 * suites. For SECONDS it opens events with random perf_event_attr fields
 * (knc's type mostly, built from the sysfs format fields and event aliases
 * that the JSON tables generate, then the generic and raw types, then
 * anything), in random groups, on itself, on children and CPU-wide, and
 * drives them with ioctl, read, mmap, fork and close, and, on the
 * simulator, with injected events that overflow them. It checks nothing
 * itself beyond not hanging: the suite checks the kernel log and that
 * counting is exact afterwards.
 *
 *   fuzz [-s SEED] [-t SECONDS] [-v]
 *
 * Prints one summary line: opens tried, opened, ops, and errno counts.
 * Without a knc PMU (the baseline) it fuzzes the generic types only.
 */
#include <errno.h>
#include <dirent.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define KNC_DIR		"/sys/bus/event_source/devices/knc"
#define INJECT		"/sys/kernel/debug/knc_sim/inject"
#define MAX_FDS		48
#define MAX_FIELDS	16
#define MAX_ALIASES	128

struct field {
	int word;		/* 0: config, 1: config1, 2: config2 */
	int lo, hi;
};

static struct field fields[MAX_FIELDS];
static int nfields;
static char alias_name[MAX_ALIASES][256];
static uint64_t alias_config[MAX_ALIASES];
static int naliases;
static int knc_type = -1;
static int ncpus;
static uint64_t rng;
static int fds[MAX_FDS];
static void *maps[MAX_FDS];
static size_t map_len[MAX_FDS];
static unsigned long errs[140], opens, opened, ops;
static int verbose;

static uint64_t rnd(void)
{
	/* xorshift64* */
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545f4914f6cdd1dULL;
}

static uint64_t below(uint64_t n)
{
	return n ? rnd() % n : 0;
}

static int chance(int percent)
{
	return (int)below(100) < percent;
}

static uint64_t field_mask(const struct field *f)
{
	int w = f->hi - f->lo + 1;

	return (w >= 64 ? ~0ULL : (1ULL << w) - 1) << f->lo;
}

static void read_formats(void)
{
	DIR *d = opendir(KNC_DIR "/format");
	struct dirent *e;

	while (d && (e = readdir(d)) && nfields < MAX_FIELDS) {
		char path[300], word[16];
		struct field f;
		FILE *fp;
		int n;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), KNC_DIR "/format/%s", e->d_name);
		fp = fopen(path, "r");
		if (!fp)
			continue;
		n = fscanf(fp, "%15[a-z0-9]:%d-%d", word, &f.lo, &f.hi);
		fclose(fp);
		if (n < 2)
			continue;
		if (n == 2)
			f.hi = f.lo;
		f.word = !strcmp(word, "config1") ? 1 : !strcmp(word, "config2") ? 2 : 0;
		fields[nfields++] = f;
	}
	if (d)
		closedir(d);
}

static void read_aliases(void)
{
	DIR *d = opendir(KNC_DIR "/events");
	struct dirent *e;

	while (d && (e = readdir(d)) && naliases < MAX_ALIASES) {
		char path[300];
		unsigned int ev = 0, um = 0;
		FILE *fp;

		if (e->d_name[0] == '.' || strchr(e->d_name, '.'))
			continue;
		snprintf(path, sizeof(path), KNC_DIR "/events/%s", e->d_name);
		fp = fopen(path, "r");
		if (!fp)
			continue;
		if (fscanf(fp, "event=%x,umask=%x", &ev, &um) >= 1) {
			snprintf(alias_name[naliases], sizeof(alias_name[0]), "%s",
				 e->d_name);
			alias_config[naliases++] = ev | (uint64_t)um << 8;
		}
		fclose(fp);
	}
	if (d)
		closedir(d);
}

static void read_type(void)
{
	FILE *fp = fopen(KNC_DIR "/type", "r");

	if (fp && fscanf(fp, "%d", &knc_type) != 1)
		knc_type = -1;
	if (fp)
		fclose(fp);
}

/* A value that is often on an edge: 0, 1, a small number, all ones, ... */
static uint64_t edgy(void)
{
	switch (below(8)) {
	case 0: return 0;
	case 1: return 1;
	case 2: return below(16);
	case 3: return below(100000);
	case 4: return ~0ULL >> below(64);
	case 5: return 1ULL << below(64);
	case 6: return (1ULL << 39) - below(3);
	default: return rnd();
	}
}

static void knc_config(struct perf_event_attr *a)
{
	__u64 *word[3] = { &a->config, &a->config1, &a->config2 };
	int i;

	a->type = knc_type;
	if (naliases && chance(90))
		a->config = alias_config[below(naliases)];
	/* random values in the format's fields */
	for (i = 0; i < nfields; i++)
		if (chance(15))
			*word[fields[i].word] = (*word[fields[i].word] &
						 ~field_mask(&fields[i])) |
						(rnd() << fields[i].lo &
						 field_mask(&fields[i]));
	if (chance(5))
		a->config |= 1ULL << below(64);
	if (chance(3))
		a->config1 = edgy();
	if (chance(2))
		a->config2 = edgy();
}

static void random_attr(struct perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	switch (below(knc_type >= 0 ? 10 : 4)) {
	case 0:
		a->type = PERF_TYPE_HARDWARE;
		a->config = below(12);
		break;
	case 1:
		a->type = PERF_TYPE_HW_CACHE;
		a->config = below(8) | below(4) << 8 | below(3) << 16;
		break;
	case 2:
		a->type = PERF_TYPE_RAW;
		a->config = naliases && chance(70) ? alias_config[below(naliases)] : edgy();
		break;
	case 3:
		a->type = chance(50) ? PERF_TYPE_SOFTWARE : (uint32_t)edgy();
		a->config = below(12);
		break;
	default:
		knc_config(a);
	}
	a->disabled = chance(30);
	a->inherit = chance(20);
	a->pinned = chance(10);
	a->exclusive = chance(5);
	a->exclude_user = chance(15);
	a->exclude_kernel = chance(40);
	a->exclude_hv = chance(20);
	a->exclude_idle = chance(5);
	a->mmap = chance(10);
	a->comm = chance(10);
	a->inherit_stat = chance(5);
	a->enable_on_exec = chance(5);
	a->task = chance(5);
	a->watermark = chance(10);
	a->precise_ip = chance(10) ? below(4) : 0;
	a->sample_id_all = chance(20);
	a->exclude_host = chance(5);
	a->exclude_guest = chance(5);
	a->exclude_callchain_kernel = chance(5);
	a->exclude_callchain_user = chance(5);
	a->freq = chance(15);
	if (a->freq)
		a->sample_freq = edgy() % 200000;
	else if (chance(60))
		a->sample_period = edgy();
	if (chance(40))
		a->sample_type = rnd() & ((PERF_SAMPLE_MAX - 1) &
					  ~(PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_AUX));
	if (chance(5))
		a->sample_type |= PERF_SAMPLE_BRANCH_STACK;
	if (chance(30))
		a->read_format = rnd() & 0x1f;
	if (chance(10))
		a->wakeup_events = below(8);
	if (chance(5))
		a->sample_regs_user = edgy();
	if (chance(5))
		a->sample_regs_intr = edgy();
	if (chance(5))
		a->sample_max_stack = below(200);
	if (chance(2))
		a->size = chance(50) ? below(sizeof(*a)) : sizeof(*a) + 8;
}

static int slot_free(void)
{
	int i;

	for (i = 0; i < MAX_FDS; i++)
		if (fds[i] < 0)
			return i;
	return -1;
}

static int some_fd(void)
{
	int i, start = below(MAX_FDS);

	for (i = 0; i < MAX_FDS; i++)
		if (fds[(start + i) % MAX_FDS] >= 0)
			return (start + i) % MAX_FDS;
	return -1;
}

static pid_t child = -1;

static void spawn_child(void)
{
	child = fork();
	if (child == 0) {
		volatile unsigned long n = 0;
		struct timespec ts = { 0, 20 * 1000 * 1000 };

		while (n < 200000)
			n++;
		nanosleep(&ts, NULL);
		_exit(0);
	}
}

static void reap(void)
{
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
}

static void close_slot(int s)
{
	if (maps[s]) {
		munmap(maps[s], map_len[s]);
		maps[s] = NULL;
	}
	close(fds[s]);
	fds[s] = -1;
}

static void do_open(void)
{
	struct perf_event_attr a;
	int s = slot_free(), g = -1, fd, cpu = -1;
	pid_t pid = 0;

	if (s < 0) {
		close_slot(some_fd());
		s = slot_free();
	}
	random_attr(&a);
	if (chance(30) && some_fd() >= 0)
		g = fds[some_fd()];
	switch (below(6)) {
	case 0:
		pid = -1;
		cpu = below(ncpus + 1);	/* one past the last: EINVAL/ENODEV */
		break;
	case 1:
		if (child > 0)
			pid = child;
		break;
	case 2:
		cpu = below(ncpus);
		break;
	default:
		break;
	}
	opens++;
	fd = syscall(SYS_perf_event_open, &a, pid, cpu, g,
		     chance(10) ? PERF_FLAG_FD_CLOEXEC : 0);
	if (fd < 0) {
		errs[errno < 140 ? errno : 0]++;
		return;
	}
	opened++;
	fds[s] = fd;
	if (verbose)
		fprintf(stderr, "open type %u config %#llx fd %d\n", a.type,
			(unsigned long long)a.config, fd);
}

static void inject(void)
{
	FILE *fp;

	if (!naliases || access(INJECT, W_OK))
		return;
	fp = fopen(INJECT, "w");
	if (!fp)
		return;
	fprintf(fp, "%s %llu%s\n", alias_name[below(naliases)],
		(unsigned long long)below(chance(10) ? 100000 : 5000),
		chance(30) ? " kernel" : "");
	fclose(fp);	/* errors (an odd count) are the simulator's to refuse */
}

static void self_read(struct perf_event_mmap_page *pc)
{
	uint32_t seq;
	int n = 0;

	/* the mmap page's read protocol, with rdpmc only where it is allowed */
	do {
		seq = pc->lock;
		__sync_synchronize();
		if (pc->cap_user_rdpmc && pc->index) {
			uint32_t lo, hi;

			asm volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(pc->index - 1));
		}
		__sync_synchronize();
	} while (pc->lock != seq && ++n < 100);
}

static void do_op(void)
{
	int s = some_fd(), fd;
	uint64_t buf[64], v;

	if (s < 0) {
		do_open();
		return;
	}
	fd = fds[s];
	ops++;
	switch (below(14)) {
	case 0:
		ioctl(fd, PERF_EVENT_IOC_ENABLE, chance(30) ? PERF_IOC_FLAG_GROUP : 0);
		break;
	case 1:
		ioctl(fd, PERF_EVENT_IOC_DISABLE, chance(30) ? PERF_IOC_FLAG_GROUP : 0);
		break;
	case 2:
		ioctl(fd, PERF_EVENT_IOC_RESET, chance(30) ? PERF_IOC_FLAG_GROUP : 0);
		break;
	case 3:
		ioctl(fd, PERF_EVENT_IOC_REFRESH, (int)below(4));
		break;
	case 4:
		v = edgy();
		ioctl(fd, PERF_EVENT_IOC_PERIOD, &v);
		break;
	case 5:
		if (some_fd() >= 0)
			ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, chance(20) ? -1 : fds[some_fd()]);
		break;
	case 6:
		ioctl(fd, PERF_EVENT_IOC_ID, &v);
		ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, (int)below(2));
		break;
	case 7:
	case 8:
		if (read(fd, buf, below(sizeof(buf)) + 1) < 0)
			errs[errno < 140 ? errno : 0]++;
		break;
	case 9:
		if (!maps[s]) {
			size_t len = (1 + (1 << below(3))) * sysconf(_SC_PAGESIZE);
			void *p = mmap(NULL, len, PROT_READ | (chance(80) ? PROT_WRITE : 0),
				       MAP_SHARED, fd, 0);

			if (p != MAP_FAILED) {
				maps[s] = p;
				map_len[s] = len;
			}
		} else {
			self_read(maps[s]);
		}
		break;
	case 10:
		close_slot(s);
		break;
	case 11:
		if (child <= 0 || waitpid(child, NULL, WNOHANG) != 0)
			spawn_child();
		break;
	case 12:
		inject();
		break;
	default:
		do_open();
	}
}

int main(int argc, char **argv)
{
	unsigned long long seed = time(NULL);
	int opt, seconds = 30, i;
	time_t end;

	while ((opt = getopt(argc, argv, "s:t:v")) != -1) {
		switch (opt) {
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 't':
			seconds = atoi(optarg);
			break;
		case 'v':
			verbose = 1;
			break;
		default:
			fprintf(stderr, "usage: fuzz [-s SEED] [-t SECONDS] [-v]\n");
			return 2;
		}
	}
	rng = seed * 2 + 1;
	ncpus = sysconf(_SC_NPROCESSORS_CONF);
	read_type();
	read_formats();
	read_aliases();
	for (i = 0; i < MAX_FDS; i++)
		fds[i] = -1;
	signal(SIGTRAP, SIG_IGN);
	signal(SIGIO, SIG_IGN);
	signal(SIGCHLD, SIG_DFL);
	/* a hang in user space is a failure too */
	alarm(seconds + 60);
	end = time(NULL) + seconds;
	while (time(NULL) < end) {
		for (i = 0; i < 50; i++)
			do_op();
		reap();
	}
	for (i = 0; i < MAX_FDS; i++)
		if (fds[i] >= 0)
			close_slot(i);
	while (wait(NULL) > 0)
		;
	printf("fuzz: seed %llu, %ds, knc %s: %lu opens, %lu opened, %lu ops; errno",
	       seed, seconds, knc_type >= 0 ? "present" : "absent", opens, opened, ops);
	for (i = 0; i < 140; i++)
		if (errs[i])
			printf(" %d:%lu", i, errs[i]);
	printf("\n");
	return opened ? 0 : 1;
}
