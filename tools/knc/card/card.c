// SPDX-License-Identifier: GPL-2.0
/*
 * The shared part of knc-stat and knc-check on top of nolibc (card.h):
 * what a signal handler returns through, exit with the output flushed,
 * strings nolibc does not have, errno's names, the formatting of counts,
 * buffered output, files, time, and the PMU's events.
 */
#include "card.h"
#include "knc_events.h"

/* the program, as its messages name it */
const char *card_prog = "knc-stat";

/* A signal handler returns through card_sigreturn (SA_RESTORER). */
#define STR(x) #x
#define XSTR(x) STR(x)
asm(".pushsection .text\n"
	".globl card_sigreturn\n"
	"card_sigreturn:\n"
	"	mov $" XSTR(__NR_rt_sigreturn) ", %eax\n"
	"	syscall\n"
	".popsection\n");

/* fn handles signal sig (in place of its default action) */
void card_signal(int sig, void (*fn)(int sig))
{
	struct {
		void (*handler)(int sig);
		u64 flags;
		void (*restorer)(void);
		u64 mask;
	} sa = { fn, SA_RESTORER, card_sigreturn, 0 };

	sys4(SYS_rt_sigaction, sig, &sa, 0, sizeof(sa.mask));
}

/* nolibc's exit() does not flush; main()'s return runs the destructors */
static __attribute__((destructor)) void flush_at_exit(void)
{
	out_flush();
}

void sys_exit(int status)
{
	out_flush();
	for (;;)
		sys1(SYS_exit_group, status);
}

int seq_nocase(const char *a, const char *b)
{
	while (*a && tolower(*a) == tolower(*b))
		a++, b++;
	return tolower(*a) == tolower(*b);
}

/* A decimal or 0x hexadecimal number, the whole string: 0, else -1. */
int parse_u64(const char *s, u64 *v)
{
	u64 x = 0;
	int base = 10, d;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		base = 16, s += 2;
	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (base == 16 && tolower(*s) >= 'a' && tolower(*s) <= 'f')
			d = tolower(*s) - 'a' + 10;
		else
			return -1;
		x = x * base + d;
	}
	*v = x;
	return 0;
}

const char *errname(int err)
{
	static const struct { int n; const char *s; } names[] = {
		{ EPERM, "EPERM" }, { ENOENT, "ENOENT" }, { ESRCH, "ESRCH" },
		{ EINTR, "EINTR" }, { E2BIG, "E2BIG" }, { EBADF, "EBADF" },
		{ EAGAIN, "EAGAIN" }, { ENOMEM, "ENOMEM" },
		{ EACCES, "EACCES" }, { EBUSY, "EBUSY" }, { ENODEV, "ENODEV" },
		{ EINVAL, "EINVAL" }, { EMFILE, "EMFILE" }, { ENOSPC, "ENOSPC" },
		{ ENOSYS, "ENOSYS" }, { EOPNOTSUPP, "EOPNOTSUPP" },
	};
	static char other[16];
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].n == err)
			return names[i].s;
	fmt(other, sizeof(other), "errno %d", err);
	return other;
}

/* ------------------------------------------------------------ formatting */

struct sink {
	char *buf;
	size_t size, n;
};

static void put(struct sink *k, char c)
{
	if (k->n + 1 < k->size)
		k->buf[k->n] = c;
	k->n++;
}

/* DIGITS (len n) right-aligned (or left with '-') in width w */
static void put_field(struct sink *k, const char *s, size_t n, int w, int left)
{
	size_t i;

	for (i = n; !left && (int)i < w; i++)
		put(k, ' ');
	for (i = 0; i < n; i++)
		put(k, s[i]);
	for (i = n; left && (int)i < w; i++)
		put(k, ' ');
}

/* x in decimal, with a comma every three digits if sep; into d */
static size_t dec(char *d, u64 x, int sep)
{
	char t[32];
	size_t n = 0, i;

	do {
		if (sep && n % 4 == 3)
			t[n++] = ',';
		t[n++] = (char)('0' + x % 10);
		x /= 10;
	} while (x);
	for (i = 0; i < n; i++)
		d[i] = t[n - 1 - i];
	return n;
}

/* nolibc's snprintf() of one conversion, into what is left of k */
static __attribute__((format(printf, 2, 3))) void put_conv(struct sink *k, const char *spec, ...)
{
	size_t room = k->n < k->size ? k->size - k->n : 0;
	va_list ap;

	va_start(ap, spec);
	k->n += vsnprintf(room ? k->buf + k->n : NULL, room, spec, ap);
	va_end(ap);
}

/*
 * A small printf: %s %c %d %u %x (int), %ld %lu %lx (long), with a width
 * (or *) and '-', by nolibc's snprintf(); and knc's for counts: %N (u64,
 * thousands separated), %F (u64 hundredths as "12.34"), %T (u64
 * nanoseconds as seconds, "1.234567890"); %% is '%'.
 */
int vfmt(char *buf, size_t size, const char *f, va_list ap)
{
	struct sink k = { buf, size, 0 };
	char d[48];
	size_t n;
	int w, left, is_long;
	u64 u;

	for (; *f; f++) {
		if (*f != '%') {
			put(&k, *f);
			continue;
		}
		f++;
		left = *f == '-';
		if (left)
			f++;
		for (w = 0; *f >= '0' && *f <= '9'; f++)
			w = w * 10 + *f - '0';
		if (*f == '*')
			w = va_arg(ap, int), f++;
		is_long = *f == 'l';
		if (is_long)
			f++;
		switch (*f) {
		case 's':
			put_conv(&k, "%*s", left ? -w : w, va_arg(ap, const char *));
			break;
		case 'c':
			put_conv(&k, "%*c", left ? -w : w, va_arg(ap, int));
			break;
		case 'd':
			if (is_long)
				put_conv(&k, "%*ld", left ? -w : w, va_arg(ap, long));
			else
				put_conv(&k, "%*d", left ? -w : w, va_arg(ap, int));
			break;
		case 'u':
			if (is_long)
				put_conv(&k, "%*lu", left ? -w : w, va_arg(ap, unsigned long));
			else
				put_conv(&k, "%*u", left ? -w : w, va_arg(ap, unsigned int));
			break;
		case 'x':
			if (is_long)
				put_conv(&k, "%*lx", left ? -w : w, va_arg(ap, unsigned long));
			else
				put_conv(&k, "%*x", left ? -w : w, va_arg(ap, unsigned int));
			break;
		case 'N':
			u = va_arg(ap, u64);
			put_field(&k, d, dec(d, u, 1), w, left);
			break;
		case 'F':
		case 'T': {
			u64 unit = *f == 'F' ? 100 : 1000000000;
			size_t digits = *f == 'F' ? 2 : 9, i;
			u64 frac;

			u = va_arg(ap, u64);
			n = dec(d, u / unit, 0);
			d[n++] = '.';
			frac = u % unit;
			for (i = digits; i > 0; i--, frac /= 10)
				d[n + i - 1] = (char)('0' + frac % 10);
			put_field(&k, d, n + digits, w, left);
			break;
		}
		case '%':
			put(&k, '%');
			break;
		default:
			put(&k, '%');
			put(&k, *f);
			break;
		}
	}
	if (size)
		buf[k.n < size ? k.n : size - 1] = 0;
	return (int)k.n;
}

int fmt(char *buf, size_t size, const char *f, ...)
{
	va_list ap;
	int n;

	va_start(ap, f);
	n = vfmt(buf, size, f, ap);
	va_end(ap);
	return n;
}

static char outbuf[8192];
static size_t outn;
static int outfd = 1;

/* pr() writes to fd from now on (standard output until then) */
void out_to(int fd)
{
	out_flush();
	outfd = fd;
}

static void write_all(int fd, const char *s, size_t n)
{
	long r;

	while (n) {
		r = sys3(SYS_write, fd, s, n);
		if (r == -EINTR)
			continue;
		if (r <= 0)
			return;
		s += r;
		n -= r;
	}
}

void out_flush(void)
{
	write_all(outfd, outbuf, outn);
	outn = 0;
}

/* printf to standard output, or out_to()'s (buffered: out_flush(), at exit too) */
void pr(const char *f, ...)
{
	char line[4096];
	va_list ap;
	int n;

	va_start(ap, f);
	n = vfmt(line, sizeof(line), f, ap);
	va_end(ap);
	if (n >= (int)sizeof(line))
		n = sizeof(line) - 1;
	if (outn + n > sizeof(outbuf))
		out_flush();
	memcpy(outbuf + outn, line, n);
	outn += n;
}

static void veprint(const char *f, va_list ap)
{
	char line[4096];
	int n;

	n = vfmt(line, sizeof(line), f, ap);
	if (n >= (int)sizeof(line))
		n = sizeof(line) - 1;
	out_flush();
	write_all(2, line, n);
}

/* printf to standard error, after what standard output has */
void epr(const char *f, ...)
{
	va_list ap;

	va_start(ap, f);
	veprint(f, ap);
	va_end(ap);
}

void die(const char *f, ...)
{
	va_list ap;

	va_start(ap, f);
	veprint(f, ap);
	va_end(ap);
	sys_exit(255);
}

/* ------------------------------------------------------ files, time, math */

/* The file's contents, NUL-terminated: its length, or -errno. */
long read_file(const char *path, char *buf, size_t size)
{
	long fd, n, got = 0;

	fd = sys4(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC, 0);
	if (fd < 0)
		return fd;
	while ((size_t)got + 1 < size) {
		n = sys3(SYS_read, fd, buf + got, size - 1 - got);
		if (n == -EINTR)
			continue;
		if (n <= 0)
			break;
		got += n;
	}
	sys1(SYS_close, fd);
	buf[got] = 0;
	return got;
}

/* A file holding one (possibly negative) decimal number: 0, else -1. */
int read_s64(const char *path, s64 *v)
{
	char buf[64], *p = buf;
	int neg;
	u64 u;

	if (read_file(path, buf, sizeof(buf)) <= 0)
		return -1;
	buf[slen(buf) - (buf[slen(buf) - 1] == '\n')] = 0;
	neg = *p == '-';
	if (parse_u64(p + neg, &u))
		return -1;
	*v = neg ? -(s64)u : (s64)u;
	return 0;
}

u64 now_ns(void)
{
	struct timespec ts = { 0, 0 };

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, ms % 1000 * 1000000 };

	nanosleep(&ts, NULL);
}

/* a * b / c without overflow of the product (0 if c is 0; saturates) */
u64 muldiv(u64 a, u64 b, u64 c)
{
	u64 hi, lo, q, r;

	if (!c)
		return 0;
	asm("mulq %3" : "=a"(lo), "=d"(hi) : "a"(a), "rm"(b));
	if (hi >= c)
		return ~0ULL;
	asm("divq %4" : "=a"(q), "=d"(r) : "a"(lo), "d"(hi), "rm"(c));
	(void)r;
	return q;
}

/*
 * perf_event_open(2), the file closed on exec. Kernels before 3.14
 * (MPSS's card kernel is 2.6.38) refuse PERF_FLAG_FD_CLOEXEC with EINVAL:
 * then without it, and FD_CLOEXEC set by fcntl(), from then on.
 */
long perf_open(struct perf_attr *a, int pid, int cpu, int group, unsigned long flags)
{
	static unsigned long cloexec = PERF_FLAG_FD_CLOEXEC;
	long fd;

	a->size = sizeof(*a);
	fd = sys5(SYS_perf_event_open, a, pid, cpu, group, flags | cloexec);
	if (fd == -EINVAL && cloexec) {
		fd = sys5(SYS_perf_event_open, a, pid, cpu, group, flags);
		if (fd >= 0)
			cloexec = 0;
	}
	if (fd >= 0 && !cloexec)
		sys3(__NR_fcntl, fd, F_SETFD, FD_CLOEXEC);
	return fd;
}

/* The online CPUs (/sys/devices/system/cpu/online: "0-3,8"): how many. */
int online_cpus(int *cpus, int max)
{
	char buf[1024], *p = buf;
	u64 a, b;
	int n = 0;

	if (read_file("/sys/devices/system/cpu/online", buf, sizeof(buf)) <= 0)
		return -1;
	while (*p && *p != '\n') {
		char num[16];
		size_t i = 0;

		for (i = 0; *p >= '0' && *p <= '9' && i < sizeof(num) - 1; p++)
			num[i++] = *p;
		num[i] = 0;
		if (parse_u64(num, &a))
			return -1;
		b = a;
		if (*p == '-') {
			for (p++, i = 0; *p >= '0' && *p <= '9' && i < sizeof(num) - 1; p++)
				num[i++] = *p;
			num[i] = 0;
			if (parse_u64(num, &b))
				return -1;
		}
		for (; a <= b && n < max; a++)
			cpus[n++] = (int)a;
		if (*p == ',')
			p++;
	}
	return n;
}

/*
 * Start CMD (argv) stopped before its execve: it waits to read one byte
 * from *go, and writes execve's -errno to *execfail if that fails. Its pid.
 */
int start_cmd(char **argv, int *go, int *execfail)
{
	int gopipe[2], errpipe[2];
	long pid;

	if (sys2(SYS_pipe2, gopipe, O_CLOEXEC) || sys2(SYS_pipe2, errpipe, O_CLOEXEC))
		die("%s: pipe2 failed\n", card_prog);
	pid = sys0(SYS_fork);
	if (pid < 0)
		die("%s: fork: %s\n", card_prog, errname(-pid));
	if (pid == 0) {
		char c, path[512];
		const char *pathvar = "/bin:/usr/bin", *s;
		long err = -ENOENT;
		char **e;
		int status = 127;

		sys1(SYS_close, gopipe[1]);
		sys1(SYS_close, errpipe[0]);
		if (sys3(SYS_read, gopipe[0], &c, 1) != 1)
			sys1(SYS_exit_group, 127);
		for (e = environ; *e; e++)
			if (starts(*e, "PATH="))
				pathvar = *e + 5;
		if (schr(argv[0], '/')) {
			err = sys3(SYS_execve, argv[0], argv, environ);
		} else {
			for (s = pathvar; *s; s += *s == ':') {
				size_t n = 0;

				while (s[n] && s[n] != ':')
					n++;
				if (n + slen(argv[0]) + 2 < sizeof(path)) {
					memcpy(path, s, n);
					path[n] = 0;
					scat(path, "/", sizeof(path));
					scat(path, argv[0], sizeof(path));
					err = sys3(SYS_execve, path, argv, environ);
					if (err != -ENOENT && err != -EACCES)
						break;
				}
				s += n;
			}
		}
		if (err == -EACCES)
			status = 126;
		sys3(SYS_write, errpipe[1], &err, sizeof(err));
		sys1(SYS_exit_group, status);
	}
	sys1(SYS_close, gopipe[0]);
	sys1(SYS_close, errpipe[1]);
	*go = gopipe[1];
	*execfail = errpipe[0];
	return (int)pid;
}

/*
 * Let CMD (pid, from start_cmd()) go on to its execve: -1 when it runs;
 * when it cannot, its exit status (127, 126), and the reason printed.
 */
int cmd_go(const char *name, int pid, int go, int execfail)
{
	long err = 0, r;
	int status = 0;

	sys3(SYS_write, go, "g", 1);
	sys1(SYS_close, go);
	while ((r = sys3(SYS_read, execfail, &err, sizeof(err))) == -EINTR)
		;
	sys1(SYS_close, execfail);
	if (r != sizeof(err))
		return -1;
	while (sys4(SYS_wait4, pid, &status, 0, 0) == -EINTR)
		;
	epr("%s: cannot run %s: %s\n", card_prog, name, errname(-err));
	return status >> 8 & 0xff;
}

/* The threads of process pid (/proc/PID/task) into tids: how many, -errno, -E2BIG past max */
int proc_threads(int pid, int *tids, int max)
{
	char path[64], buf[4096];
	long fd, n, off;
	int nt = 0;

	fmt(path, sizeof(path), "/proc/%d/task", pid);
	fd = sys4(SYS_openat, AT_FDCWD, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
	if (fd < 0)
		return (int)fd;
	while ((n = sys3(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
		for (off = 0; off < n;) {
			/* struct linux_dirent64: ino, off, reclen, type, name */
			u16 reclen = *(u16 *)(buf + off + 16);
			const char *name = buf + off + 19;
			u64 tid;

			if (!parse_u64(name, &tid)) {
				if (nt == max) {
					sys1(SYS_close, fd);
					return -E2BIG;
				}
				tids[nt++] = (int)tid;
			}
			off += reclen;
		}
	}
	sys1(SYS_close, fd);
	return nt;
}

/*
 * The soft limit of file descriptors raised to the hard one: knc-stat -a's
 * events times CPUs (times 2 with fillers), knc-record -p's CPUs times
 * threads, are more than 1024
 */
void raise_nofile(void)
{
	struct {
		u64 cur, max;
	} rl;

	if (!sys4(__NR_prlimit64, 0, RLIMIT_NOFILE, 0, &rl) && rl.cur < rl.max) {
		rl.cur = rl.max;
		sys4(__NR_prlimit64, 0, RLIMIT_NOFILE, &rl, 0);
	}
}

/* --------------------------------------------------------- the PMU, events */

/* The running kernel's release (uname -r) */
const char *kernel_release(void)
{
	static struct utsname u;

	if (uname(&u) < 0)
		return "unknown";
	return u.release;
}

/* The CPU's family and model, from /proc/cpuinfo (-1 where unknown). */
static void cpu_id(long *family, long *model)
{
	static char buf[4096];
	char *p = buf, *colon, num[8];
	size_t i;
	u64 x;

	*family = *model = -1;
	if (read_file("/proc/cpuinfo", buf, sizeof(buf)) <= 0)
		return;
	while (*p && (*family < 0 || *model < 0) && (colon = schr(p, ':'))) {
		for (i = 0; colon[2 + i] >= '0' && colon[2 + i] <= '9' && i < sizeof(num) - 1; i++)
			num[i] = colon[2 + i];
		num[i] = 0;
		if (starts(p, "cpu family") && !parse_u64(num, &x))
			*family = (long)x;
		else if (starts(p, "model\t") && !parse_u64(num, &x))
			*model = (long)x;
		while (*p && *p != '\n')
			p++;
		if (*p)
			p++;
	}
}

/*
 * knc_pmu.ko's knc PMU when it is loaded, else Linux's cpu PMU
 * (arch/x86/events/intel/knc.c on a Knights Corner, family 11 model 1;
 * elsewhere another CPU's): 0, or -1 when there is neither (p's name
 * then empty). The CPU's family and model in p either way.
 */
int pmu_find(struct pmu *p)
{
	s64 type;

	memset(p, 0, sizeof(*p));
	cpu_id(&p->family, &p->model);
	p->is_knc_cpu = p->family == 11 && p->model == 1;

	if (!read_s64(SYSFS_PMUS "knc/type", &type)) {
		p->type = (u32)type;
		p->knc = 1;
		scpy(p->name, "knc", sizeof(p->name));
		return 0;
	}
	if (!read_s64(SYSFS_PMUS "cpu/type", &type)) {
		p->type = (u32)type;
		p->knc = 0;
		scpy(p->name, "cpu", sizeof(p->name));
		return 0;
	}
	return -1;
}

const struct card_event *event_lookup(const char *name)
{
	size_t i;

	for (i = 0; i < CARD_NUM_EVENTS; i++)
		if (seq_nocase(card_events[i].name, name))
			return &card_events[i];
	return NULL;
}

/* perf's software events: they take no counter */
static const struct { const char *name; u64 id; } sw_events[] = {
	{ "cpu-clock", 0 }, { "task-clock", 1 }, { "page-faults", 2 },
	{ "context-switches", 3 }, { "cpu-migrations", 4 },
};
#define NUM_SW (sizeof(sw_events) / sizeof(sw_events[0]))

/* Levenshtein distance of two names, without case */
static int distance(const char *a, const char *b)
{
	int row[64], i, j, diag, up, n = (int)slen(b);

	if (n >= 64)
		return 64;
	for (j = 0; j <= n; j++)
		row[j] = j;
	for (i = 1; a[i - 1]; i++) {
		diag = row[0];
		row[0] = i;
		for (j = 1; j <= n; j++) {
			up = row[j];
			row[j] = diag + (tolower(a[i - 1]) != tolower(b[j - 1]));
			if (up + 1 < row[j])
				row[j] = up + 1;
			if (row[j - 1] + 1 < row[j])
				row[j] = row[j - 1] + 1;
			diag = up;
		}
	}
	return row[n];
}

/* Print the known names nearest to name (edit distance), up to five. */
void nearest_names(const char *name)
{
	int best = 1000, d, shown = 0;
	size_t i, total = CARD_NUM_EVENTS + NUM_SW;

	for (i = 0; i < total; i++) {
		d = distance(name, i < CARD_NUM_EVENTS ? card_events[i].name :
			     sw_events[i - CARD_NUM_EVENTS].name);
		if (d < best)
			best = d;
	}
	epr("  nearest names:");
	for (i = 0; i < total && shown < 5; i++) {
		const char *n = i < CARD_NUM_EVENTS ? card_events[i].name :
			sw_events[i - CARD_NUM_EVENTS].name;

		if (distance(name, n) == best) {
			epr(" %s", n);
			shown++;
		}
	}
	epr("\n  (knc-stat -l lists them all)\n");
}

/*
 * Kernels before 3.4 (MPSS's 2.6.38) have no format/ directory: Linux's
 * cpu PMU on a KNC then takes its EvtSel's layout, as intel/knc.c's
 * format/ would give it. 1 when term is one of them (buf its format).
 */
static int knc_format(const struct pmu *p, const char *term, char *buf, size_t size)
{
	static const struct { const char *term, *format; } evtsel[] = {
		{ "event", "config:0-7" }, { "umask", "config:8-15" }, { "edge", "config:18" },
		{ "inv", "config:23" }, { "cmask", "config:24-31" },
	};
	char dir[96];
	size_t i;

	fmt(dir, sizeof(dir), SYSFS_PMUS "%s/format", p->name);
	if (p->knc || !p->is_knc_cpu || read_file(dir, buf, size) != -ENOENT)
		return 0;
	for (i = 0; i < sizeof(evtsel) / sizeof(evtsel[0]); i++) {
		if (seq(term, evtsel[i].term)) {
			scpy(buf, evtsel[i].format, size);
			return 1;
		}
	}
	return 0;
}

/*
 * A format term of the PMU's sysfs format/ directory ("config:0-7",
 * "config1:0", "config:0-7,32-35"): put value into its bits of attr.
 */
static int apply_term(const struct pmu *p, const char *term, u64 value, struct perf_attr *a)
{
	char path[128], buf[128], *s = buf;
	u64 *field, lo, hi, used = 0;

	if (!p->name[0]) {
		epr("%s: '%s': no knc or cpu PMU in " SYSFS_PMUS " to take format terms\n", card_prog, term);
		return -1;
	}
	fmt(path, sizeof(path), SYSFS_PMUS "%s/format/%s", p->name, term);
	if (read_file(path, buf, sizeof(buf)) <= 0 && !knc_format(p, term, buf, sizeof(buf))) {
		epr("%s: the %s PMU has no format term '%s' (%s)\n", card_prog, p->name, term, path);
		return -1;
	}
	if (starts(s, "config:"))
		field = &a->config, s += 7;
	else if (starts(s, "config1:"))
		field = &a->config1, s += 8;
	else if (starts(s, "config2:"))
		field = &a->config2, s += 8;
	else
		return epr("%s: %s: unknown format '%s'\n", card_prog, path, buf), -1;
	while (*s >= '0' && *s <= '9') {
		for (lo = 0; *s >= '0' && *s <= '9'; s++)
			lo = lo * 10 + *s - '0';
		hi = lo;
		if (*s == '-')
			for (s++, hi = 0; *s >= '0' && *s <= '9'; s++)
				hi = hi * 10 + *s - '0';
		for (; lo <= hi && lo < 64; lo++, used++)
			if (value >> used & 1)
				*field |= 1ULL << lo;
		if (*s == ',')
			s++;
	}
	if (used < 64 && value >> used) {
		epr("%s: %s=0x%lx does not fit the %lu bits of %s\n", card_prog, term,
		    (unsigned long)value, (unsigned long)used, path);
		return -1;
	}
	return 0;
}

/* "event=0x16,umask=0,edge" into attr's config fields */
static int apply_terms(const struct pmu *p, const char *terms, struct perf_attr *a)
{
	char t[64], *eq;
	const char *s = terms;
	u64 v;
	size_t n;

	while (*s) {
		for (n = 0; s[n] && s[n] != ','; n++)
			;
		if (n == 0 || n >= sizeof(t))
			return epr("%s: bad term in '%s'\n", card_prog, terms), -1;
		memcpy(t, s, n);
		t[n] = 0;
		s += n + (s[n] == ',');
		eq = schr(t, '=');
		v = 1;
		if (eq) {
			*eq = 0;
			if (parse_u64(eq + 1, &v))
				return epr("%s: bad value in '%s=%s'\n", card_prog, t, eq + 1), -1;
		}
		if (apply_term(p, t, v, a))
			return -1;
	}
	return 0;
}

/* ":u", ":k", ":uk" (or "u" after a "pmu/.../"): the privilege levels */
static int apply_mods(const char *m, struct perf_attr *a)
{
	int u = 0, k = 0;

	for (; *m; m++) {
		if (*m == 'u')
			u = 1;
		else if (*m == 'k')
			k = 1;
		else
			return -1;
	}
	if (u && !k)
		a->flags |= ATTR_EXCLUDE_KERNEL | ATTR_EXCLUDE_HV;
	if (k && !u)
		a->flags |= ATTR_EXCLUDE_USER | ATTR_EXCLUDE_HV;
	return 0;
}

/*
 * An event as knc-stat takes it: a name of the JSON (any case) or a
 * generic or software name, "pmu/terms/", a term list
 * "event=0x16,umask=0x00", or "rUUEE" (umask, event in hex); each with
 * ":u" or ":k". On the knc PMU a KNC name and a generic one are knc
 * events; on the cpu PMU the generic ones are PERF_TYPE_HARDWARE, the
 * others PERF_TYPE_RAW.
 */
int ev_parse(const struct pmu *p, const char *spec, struct ev *e)
{
	char body[80], *colon;
	const struct card_event *ce;
	size_t i, n = slen(spec);
	u64 v;

	memset(e, 0, sizeof(*e));
	scpy(e->name, spec, sizeof(e->name));
	if (n >= sizeof(body))
		return epr("%s: event '%s' is too long\n", card_prog, spec), -1;
	scpy(body, spec, sizeof(body));
	e->attr.type = p->type;
	e->hw = 1;
	if (schr(body, '/')) {
		/* pmu/terms/[mods] or /terms/ */
		char *a = schr(body, '/'), *b = schr(a + 1, '/');

		if (!b)
			return epr("%s: '%s': no closing '/'\n", card_prog, spec), -1;
		*a = 0, *b = 0;
		if (body[0] && !p->name[0]) {
			epr("%s: '%s': no %s PMU: neither knc_pmu.ko's knc PMU nor a cpu PMU in "
			    SYSFS_PMUS "\n", card_prog, spec, body);
			return -1;
		}
		if (body[0] && !seq(body, p->name)) {
			epr("%s: '%s': the PMU in use is %s, not %s\n", card_prog, spec, p->name, body);
			return -1;
		}
		if (apply_mods(b[1] == ':' ? b + 2 : b + 1, &e->attr))
			return epr("%s: '%s': bad modifier\n", card_prog, spec), -1;
		ce = event_lookup(a + 1);
		if (ce) {
			e->attr.config = ce->code | (u64)ce->umask << 8;
			return 0;
		}
		return apply_terms(p, a + 1, &e->attr);
	}
	colon = schr(body, ':');
	if (colon) {
		*colon = 0;
		if (apply_mods(colon + 1, &e->attr))
			return epr("%s: '%s': bad modifier\n", card_prog, spec), -1;
	}
	if (schr(body, '='))
		return apply_terms(p, body, &e->attr);
	for (i = 0; i < NUM_SW; i++) {
		if (seq(body, sw_events[i].name)) {
			e->attr.type = PERF_TYPE_SOFTWARE;
			e->attr.config = sw_events[i].id;
			e->hw = 0;
			return 0;
		}
	}
	ce = event_lookup(body);
	if (ce && !p->knc && p->name[0] && !p->is_knc_cpu && ce->hw_id < 0) {
		epr("%s: %s is a Knights Corner event, and this CPU (family %ld, model %ld) is\n"
		    "  not one: its cpu PMU would count another event under that code\n", card_prog,
		    body, p->family, p->model);
		return -1;
	}
	if (ce) {
		if (ce->hw_id >= 0 && !p->knc) {
			e->attr.type = PERF_TYPE_HARDWARE;
			e->attr.config = (u64)ce->hw_id;
		} else {
			e->attr.config = ce->code | (u64)ce->umask << 8;
		}
		return 0;
	}
	if (body[0] == 'r' && body[1]) {
		/* perf's rUUEE: hexadecimal without 0x */
		char hex[80] = "0x";

		scat(hex, body + 1, sizeof(hex));
		if (!parse_u64(hex, &v)) {
			e->attr.config = v;
			return 0;
		}
	}
	if (body[0] == '0' && (body[1] == 'x' || body[1] == 'X') && !parse_u64(body, &v)) {
		/* a raw code as Intel's tables write it: 0x10cb, umask 0x10, event 0xcb */
		e->attr.config = v;
		return 0;
	}
	epr("%s: unknown event '%s'\n", card_prog, body);
	nearest_names(body);
	return -1;
}

/* A table event by name (knc-check), with the attr flags given */
void ev_knc(const struct pmu *p, const char *name, u64 flags, struct ev *e)
{
	const struct card_event *ce = event_lookup(name);

	memset(e, 0, sizeof(*e));
	scpy(e->name, name, sizeof(e->name));
	e->attr.type = p->type;
	e->attr.config = ce ? ce->code | (u64)ce->umask << 8 : 0;
	e->attr.flags = flags;
	e->hw = 1;
}

/*
 * What an open's errno means here, and what to do: who may hold the
 * counters (EBUSY), what perf_event_paranoid allows (EACCES, EPERM) to an
 * event of a task counting kernel mode (cpu_wide 0), of a CPU (1), or of
 * a task in user mode only (2).
 */
void explain_open_error(int err, const struct pmu *p, const char *what, int cpu_wide)
{
	s64 v;

	epr("%s: perf_event_open failed: %s\n", what, errname(err));
	switch (err) {
	case EBUSY:
		epr("  The PMU's two counters are held by someone else:\n");
		if (!read_s64("/proc/sys/kernel/nmi_watchdog", &v))
			epr("  - the NMI watchdog: /proc/sys/kernel/nmi_watchdog is %ld%s\n", (long)v,
			    v ? " (it holds a counter for good: echo 0 > /proc/sys/kernel/nmi_watchdog,"
				" or boot with nmi_watchdog=0)" : " (not the watchdog)");
		if (p->knc)
			epr("  - the cpu PMU's events (perf, PAPI): with knc_pmu.ko loaded, they and\n"
			    "    knc events exclude each other until the last of them is closed;\n");
		else
			epr("  - another PMU's events: knc_pmu.ko's knc events hold the counters\n"
			    "    while any is open (its dmesg line: \"knc events hold the counters\");\n");
		epr("  - a pinned or exclusive event of another session on the same counters.\n");
		break;
	case EACCES:
	case EPERM:
		if (read_s64("/proc/sys/kernel/perf_event_paranoid", &v))
			v = 2;
		epr("  /proc/sys/kernel/perf_event_paranoid is %ld.\n", (long)v);
		if (cpu_wide == 2) {
			/* user mode only: the task is not ours to count */
			epr("  Counting another user's task needs CAP_PERFMON (or root), or that\n"
			    "  ptrace may attach to it; perf_event_paranoid 3 and up forbids all.\n");
			break;
		}
		epr("  Counting %s needs CAP_PERFMON (or root) or perf_event_paranoid <= %d:\n"
		    "  echo %d > /proc/sys/kernel/perf_event_paranoid.\n",
		    cpu_wide ? "all tasks of a CPU (-a)" : "kernel mode too", cpu_wide ? 0 : 1,
		    cpu_wide ? 0 : 1);
		if (!cpu_wide)
			epr("  User mode of your own tasks needs <= 2 (add :u to the event).\n");
		break;
	case ENOSYS:
		epr("  This kernel has no perf_event_open(): built without CONFIG_PERF_EVENTS, or the\n"
		    "  program runs under an emulator that does not pass the call on (qemu-user).\n");
		break;
	case ENOENT:
		epr("  The %s PMU does not have this event (a generic event it does not map).\n", p->name);
		break;
	case EINVAL:
		epr("  The %s PMU refuses this configuration: a group that does not fit the two\n"
		    "  counters (two counter-0-only events), a reserved bit, or an event that is\n"
		    "  not in its table.\n", p->name);
		break;
	case EOPNOTSUPP:
		epr("  The PMU cannot sample (knc_pmu.ko loaded with sampling=0?).\n");
		break;
	case EMFILE:
		epr("  Too many open files: raise ulimit -n.\n");
		break;
	default:
		break;
	}
}
