// SPDX-License-Identifier: GPL-2.0
/*
 * knc-record: sample a command on a Knights Corner card, as perf record
 * does, with no perf, no libc and no SSE (tools/knc/card/card.h), into a
 * perf.data file that stock perf reads (perf report, perf script).
 *
 *   knc-record [-e EV] [-c N | -F HZ] [-g] [-m PAGES] [-o FILE] [-a | -p PID] [[--] CMD [ARG...]]
 *
 * The file is perf's own format (tools/perf/Documentation/
 * perf.data-file-format.txt): the header, one attr with its ids, the data
 * (the mmap ring's records as the kernel wrote them, each drain followed
 * by a PERF_RECORD_FINISHED_ROUND, as perf record writes it), then the
 * feature sections.
 */
#include "card.h"

#include <linux/wait.h>
#include <asm-generic/poll.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#define DEFAULT_PAGES	128	/* the ring's data pages: 512 KiB */
#define MAX_PAGES	4096
#define DEFAULT_FREQ	1000
#define MAX_CPUS	512
#define MAX_THREADS	512	/* of -p's process */
#define MAX_FDS		8192	/* an event a CPU and thread */
#define MAX_FILES	256	/* the files mapped executable, for their build ids */

/* struct perf_event_attr's bit fields knc-record sets, beside card.h's */
#define ATTR_MMAP		(1ULL << 8)
#define ATTR_COMM		(1ULL << 9)
#define ATTR_FREQ		(1ULL << 10)
#define ATTR_TASK		(1ULL << 13)
#define ATTR_WATERMARK		(1ULL << 14)
#define ATTR_SAMPLE_ID_ALL	(1ULL << 18)
#define ATTR_MMAP2		(1ULL << 23)
#define ATTR_COMM_EXEC		(1ULL << 24)

/* perf's own record type (tools/lib/perf/include/perf/event.h) */
#define PERF_RECORD_FINISHED_ROUND	68
/* a build id record's size is in it (perf's build_id_event) */
#define MISC_BUILD_ID_SIZE		(1 << 15)
#define MISC_MMAP_BUILD_ID		(1 << 14)

/* the feature bits of the header knc-record writes (perf's header.h) */
enum {
	HEADER_BUILD_ID = 2,
	HEADER_HOSTNAME = 3,
	HEADER_OSRELEASE = 4,
	HEADER_VERSION = 5,
	HEADER_ARCH = 6,
	HEADER_NRCPUS = 7,
	HEADER_CPUDESC = 8,
	HEADER_CPUID = 9,
	HEADER_TOTAL_MEM = 10,
	HEADER_CMDLINE = 11,
	HEADER_EVENT_DESC = 12,
	HEADER_PMU_MAPPINGS = 16,
	HEADER_LAST,
};

static const char usage[] =
"usage: knc-record [-e EV] [-c N | -F HZ] [-g] [-m PAGES] [-o FILE] [-a | -p PID]\n"
"                  [[--] CMD [ARG...]]\n"
"Samples CMD, and every thread and child it starts, on the Knights Corner\n"
"PMU (knc_pmu.ko's knc PMU when it is loaded, else Linux's cpu PMU), into a\n"
"perf.data file in perf's own format: perf report and perf script read it.\n"
"  -e EV      the event (default: cycles), as knc-stat takes it: a KNC name,\n"
"             a generic or software name, format terms, a raw code; :u, :k\n"
"  -c N       a sample every N events\n"
"  -F HZ      about HZ samples a second, the period adjusted by the kernel\n"
"             (the default: 1000)\n"
"  -g         the call chains too (user code built with frame pointers)\n"
"  -m PAGES   the ring's data pages, a power of two (default: 128, 512 KiB)\n"
"  -o FILE    the perf.data file (default: perf.data)\n"
"  -a         sample every CPU, every task, while CMD runs; without CMD\n"
"             until SIGINT\n"
"  -p PID     sample the threads of PID (and what they start) from now until\n"
"             it exits or SIGINT, in place of CMD\n"
"Says on exit how many samples it wrote, and how many the kernel lost or\n"
"throttled. Exits with CMD's status (128 + N if signal N ended it), 0\n"
"without CMD, 255 on its own errors.\n";

/* perf's struct perf_file_header and struct perf_file_attr */
struct file_section {
	u64 offset, size;
};

struct file_header {
	char magic[8];
	u64 size;
	u64 attr_size;
	struct file_section attrs, data, event_types;
	u64 flags[4];
};

struct file_attr {
	struct perf_attr attr;
	struct file_section ids;
};

struct rec_header {
	u32 type;
	u16 misc;
	u16 size;
};

static struct ev ev;
static int out;
static u64 out_pos;
static u64 nsamples, nlost, nlost_records, nlost_samples, nthrottle, nunthrottle;
static char ring_copy[MAX_PAGES * PAGE_SIZE];
static volatile int interrupted;

static void on_signal(int sig)
{
	interrupted = sig;
}

static void write_at(u64 pos, const void *buf, size_t n)
{
	const char *p = buf;

	while (n) {
		long r = sys4(__NR_pwrite64, out, p, n, pos);

		if (r == -EINTR)
			continue;
		if (r <= 0)
			die("knc-record: write: %s\n", errname(r ? (int)-r : ENOSPC));
		p += r, pos += (u64)r, n -= (size_t)r;
	}
}

/* the output, at the end of what is written */
static void put(const void *buf, size_t n)
{
	write_at(out_pos, buf, n);
	out_pos += n;
}

static void put_u32(u32 v)
{
	put(&v, sizeof(v));
}

static void put_u64(u64 v)
{
	put(&v, sizeof(v));
}

/* perf's struct perf_header_string: its length (NUL and padding to 64 bytes in) */
static void put_string(const char *s)
{
	static const char zeros[64];
	u32 n = (u32)slen(s) + 1, len = (n + 63) & ~63U;

	put_u32(len);
	put(s, n);
	put(zeros, len - n);
}

/* ------------------------------------------------------------- build ids */

static char files[MAX_FILES][256];
static int nfiles;

/* a file the kernel mapped executable (a name of at most n bytes), once */
static void add_file(const char *name, size_t n)
{
	char f[256];
	int i;

	if (n >= sizeof(f))
		n = sizeof(f) - 1;
	memcpy(f, name, n);
	f[n] = 0;
	if (f[0] != '/' || nfiles == MAX_FILES)
		return;
	for (i = 0; i < nfiles; i++)
		if (seq(files[i], f))
			return;
	scpy(files[nfiles++], f, sizeof(files[0]));
}

/* the GNU build id in the ELF notes of buf (n bytes) into id: its size, 0 if none */
static size_t note_build_id(const u8 *buf, size_t n, u8 *id)
{
	size_t i = 0;

	while (i + 12 <= n) {
		const u32 *w = (const u32 *)(buf + i);
		size_t name = (w[0] + 3) & ~3U, desc = (w[1] + 3) & ~3U;

		if (w[2] == 3 && w[0] == 4 && !memcmp(buf + i + 12, "GNU", 4) && w[1] <= 20 &&
		    i + 12 + name + w[1] <= n) {
			memcpy(id, buf + i + 12 + name, w[1]);
			return w[1];
		}
		i += 12 + name + desc;
	}
	return 0;
}

/* the build id of an ELF file (its PT_NOTE segments): its size, 0 if none */
static size_t file_build_id(const char *path, u8 *id)
{
	static u8 buf[4096];
	u8 ehdr[64];
	long fd = sys4(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC, 0);
	size_t got = 0;
	u64 phoff;
	u16 phnum, i;

	if (fd < 0)
		return 0;
	if (sys4(__NR_pread64, fd, ehdr, sizeof(ehdr), 0) != sizeof(ehdr) || memcmp(ehdr, "\177ELF", 4) ||
	    ehdr[4] != 2)
		goto out;
	memcpy(&phoff, ehdr + 32, 8);
	memcpy(&phnum, ehdr + 56, 2);
	for (i = 0; i < phnum && !got; i++) {
		u8 ph[56];
		u32 type;
		u64 off, size;

		if (sys4(__NR_pread64, fd, ph, sizeof(ph), phoff + (u64)i * 56) != sizeof(ph))
			break;
		memcpy(&type, ph, 4);
		memcpy(&off, ph + 8, 8);
		memcpy(&size, ph + 32, 8);
		if (type != 4 || size > sizeof(buf))	/* PT_NOTE */
			continue;
		if (sys4(__NR_pread64, fd, buf, size, off) == (long)size)
			got = note_build_id(buf, size, id);
	}
out:
	sys1(SYS_close, fd);
	return got;
}

/* perf's build_id_event: pid -1 (the host), the id and its size, the name */
static void put_build_id(u16 misc, const u8 *id, size_t size, const char *name)
{
	static const char zeros[64];
	struct {
		struct rec_header h;
		s32 pid;
		u8 id[20], size, pad[3];
	} b;
	u32 n = (u32)slen(name) + 1, len = (n + 63) & ~63U;

	memset(&b, 0, sizeof(b));
	b.h.misc = misc | MISC_BUILD_ID_SIZE;
	b.h.size = (u16)(sizeof(b) + len);
	b.pid = -1;
	memcpy(b.id, id, size);
	b.size = (u8)size;
	put(&b, sizeof(b));
	put(name, n);
	put(zeros, len - n);
}

/* the kernel's (/sys/kernel/notes), then each file's that has one */
static void put_build_ids(void)
{
	static u8 notes[4096];
	u8 id[20];
	size_t size;
	long n;
	int i;

	n = read_file("/sys/kernel/notes", (char *)notes, sizeof(notes));
	size = n > 0 ? note_build_id(notes, (size_t)n, id) : 0;
	if (size)
		put_build_id(PERF_RECORD_MISC_KERNEL, id, size, "[kernel.kallsyms]");
	for (i = 0; i < nfiles; i++) {
		size = file_build_id(files[i], id);
		if (size)
			put_build_id(PERF_RECORD_MISC_USER, id, size, files[i]);
	}
}

/* ------------------------------------------------------------- the ring */

/*
 * One event and ring a CPU, following CMD: the kernel maps no ring of an
 * inherited event of a task on every CPU (cpu -1), as perf record finds.
 */
static int ncpus, cpus[MAX_CPUS], nfds;
static long fds[MAX_FDS], ring_fds[MAX_CPUS];
static struct perf_page *rings[MAX_CPUS];
static u64 ids[MAX_FDS];
static u64 ring_size;

/*
 * The records the kernel wrote since the last drain, into the file as
 * they are, counted; a FINISHED_ROUND after them. x86 orders the loads of
 * data_head and the records, and the records and the store of data_tail,
 * as they are written (no fence, which a KNC core does not have): the
 * compiler is kept from moving them.
 */
static int drain_ring(struct perf_page *page)
{
	const char *data = (const char *)page + PAGE_SIZE;
	u64 head = *(volatile u64 *)&page->data_head, tail = page->data_tail, n, off, i;

	asm volatile("" ::: "memory");
	n = head - tail;
	if (!n)
		return 0;
	off = tail & (ring_size - 1);
	if (off + n <= ring_size) {
		memcpy(ring_copy, data + off, n);
	} else {
		memcpy(ring_copy, data + off, ring_size - off);
		memcpy(ring_copy + ring_size - off, data, n - (ring_size - off));
	}
	asm volatile("" ::: "memory");
	*(volatile u64 *)&page->data_tail = head;
	for (i = 0; i + sizeof(struct rec_header) <= n;) {
		const struct rec_header *h = (const void *)(ring_copy + i);
		const u64 *body = (const void *)(h + 1);

		if (h->size < sizeof(*h))
			die("knc-record: a record of size %u in the ring\n", h->size);
		switch (h->type) {
		case PERF_RECORD_SAMPLE:
			nsamples++;
			break;
		case PERF_RECORD_MMAP2:
			/* pid, tid, addr, len, pgoff, the file's ids, then prot, flags, the name */
			if (!(h->misc & MISC_MMAP_BUILD_ID) && h->size > sizeof(*h) + 64 &&
			    (((const u32 *)body)[14] & PROT_EXEC))
				add_file((const char *)body + 64, h->size - sizeof(*h) - 64);
			break;
		case PERF_RECORD_MMAP:
			if (!(h->misc & PERF_RECORD_MISC_MMAP_DATA) && h->size > sizeof(*h) + 32)
				add_file((const char *)body + 32, h->size - sizeof(*h) - 32);
			break;
		case PERF_RECORD_LOST:
			nlost_records++;
			nlost += body[1];
			break;
		case PERF_RECORD_LOST_SAMPLES:
			nlost_samples += body[0];
			break;
		case PERF_RECORD_THROTTLE:
			nthrottle++;
			break;
		case PERF_RECORD_UNTHROTTLE:
			nunthrottle++;
			break;
		default:
			break;
		}
		i += h->size;
	}
	put(ring_copy, n);
	return 1;
}

/* every ring, then the round's end: perf sorts the records of a round by time */
static void drain(void)
{
	struct rec_header fr = { PERF_RECORD_FINISHED_ROUND, 0, sizeof(fr) };
	int c, any = 0;

	for (c = 0; c < ncpus; c++)
		any |= drain_ring(rings[c]);
	if (any)
		put(&fr, sizeof(fr));
}

/* ------------------------------------------------- records knc-record makes */

/*
 * A record of knc-record's own (not the kernel's): the sample_id_all
 * fields after its body, as the attr's sample_type lays them out (TID,
 * TIME; perf record writes zeros in its own).
 */
static void put_record(u32 type, u16 misc, const void *body, size_t n)
{
	static const u64 id[2];
	size_t pad = (8 - n % 8) % 8;
	struct rec_header h = { type, misc, (u16)(sizeof(h) + n + pad + sizeof(id)) };
	static const char zeros[8];

	put(&h, sizeof(h));
	put(body, n);
	put(zeros, pad);
	put(id, sizeof(id));
}

/* _text's address in /proc/kallsyms, 0 when hidden (kptr_restrict) */
static u64 kernel_text(void)
{
	static char buf[8192];
	size_t have = 0;
	long fd, r;
	u64 addr = 0;

	fd = sys4(SYS_openat, AT_FDCWD, "/proc/kallsyms", O_RDONLY | O_CLOEXEC, 0);
	if (fd < 0)
		return 0;
	for (;;) {
		char *line = buf, *nl;

		r = sys3(SYS_read, fd, buf + have, sizeof(buf) - 1 - have);
		if (r == -EINTR)
			continue;
		if (r <= 0)
			break;
		have += (size_t)r;
		buf[have] = 0;
		while ((nl = schr(line, '\n'))) {
			char hex[20] = "0x";

			*nl = 0;
			if (nl - line > 19 && seq(line + 16, " T _text")) {
				memcpy(hex + 2, line, 16);
				hex[18] = 0;
				if (parse_u64(hex, &addr))
					addr = 0;
				goto done;
			}
			line = nl + 1;
		}
		have = (size_t)(buf + have - line);
		memmove(buf, line, have);
	}
done:
	sys1(SYS_close, fd);
	return addr;
}

/* a COMM record: tid of process pid is named name (its first 15 bytes) */
static void synthesize_comm(int pid, int tid, const char *name)
{
	struct {
		u32 pid, tid;
		char comm[16];
	} c;

	memset(&c, 0, sizeof(c));
	c.pid = (u32)pid;
	c.tid = (u32)tid;
	scpy(c.comm, name, sizeof(c.comm));
	put_record(PERF_RECORD_COMM, 0, &c, offsetof(typeof(c), comm) + slen(c.comm) + 1);
}

/* a hexadecimal number at *p, *p moved past it */
static u64 hex_at(const char **p)
{
	u64 v = 0;

	for (;; (*p)++) {
		char ch = **p;

		if (ch >= '0' && ch <= '9')
			v = v << 4 | (u64)(ch - '0');
		else if (ch >= 'a' && ch <= 'f')
			v = v << 4 | (u64)(ch - 'a' + 10);
		else
			return v;
	}
}

/*
 * -p: what the kernel wrote before knc-record came, as perf record
 * synthesizes it: each thread's name, and an MMAP2 for each executable
 * map of /proc/PID/maps ("start-end perms offset maj:min inode path").
 */
static void synthesize_process(int pid, const int *tids, int ntids)
{
	static char maps[1 << 16];
	char path[64], comm[32];
	const char *p = maps;
	int t;

	for (t = 0; t < ntids; t++) {
		fmt(path, sizeof(path), "/proc/%d/task/%d/comm", pid, tids[t]);
		if (read_file(path, comm, sizeof(comm)) <= 0)
			continue;
		if (schr(comm, '\n'))
			*schr(comm, '\n') = 0;
		synthesize_comm(pid, tids[t], comm);
	}
	fmt(path, sizeof(path), "/proc/%d/maps", pid);
	if (read_file(path, maps, sizeof(maps)) <= 0)
		return;
	while (*p) {
		struct {
			u32 pid, tid;
			u64 start, len, pgoff;
			u32 maj, min;
			u64 ino, ino_generation;
			u32 prot, flags;
			char name[256];
		} m;
		const char *e = p;
		size_t n;

		memset(&m, 0, sizeof(m));
		m.pid = m.tid = (u32)pid;
		m.start = hex_at(&p);
		p += *p == '-';
		m.len = hex_at(&p) - m.start;
		if (*p == ' ' && p[1] && p[2] && p[3] && p[4]) {
			m.prot = (p[1] == 'r' ? PROT_READ : 0) | (p[2] == 'w' ? PROT_WRITE : 0) |
				 (p[3] == 'x' ? PROT_EXEC : 0);
			m.flags = p[4] == 'p' ? MAP_PRIVATE : MAP_SHARED;
			p += 6;
		}
		m.pgoff = hex_at(&p);
		p += *p == ' ';
		m.maj = (u32)hex_at(&p);
		p += *p == ':';
		m.min = (u32)hex_at(&p);
		p += *p == ' ';
		for (; *p >= '0' && *p <= '9'; p++)
			m.ino = m.ino * 10 + (u64)(*p - '0');
		while (*p == ' ')
			p++;
		for (e = p; *e && *e != '\n'; e++)
			;
		n = (size_t)(e - p) < sizeof(m.name) - 1 ? (size_t)(e - p) : sizeof(m.name) - 1;
		memcpy(m.name, p, n);
		m.name[n] = 0;
		p = *e ? e + 1 : e;
		if (!(m.prot & PROT_EXEC) || !n)
			continue;
		put_record(PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER, &m, offsetof(typeof(m), name) + n + 1);
		add_file(m.name, n);
	}
}

/* -a: every process of /proc, as synthesize_process() does one */
static void synthesize_all(void)
{
	static char buf[8192];
	static int tids[MAX_THREADS];
	long fd = sys4(SYS_openat, AT_FDCWD, "/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0), n, off;

	while (fd >= 0 && (n = sys3(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
		for (off = 0; off < n;) {
			/* struct linux_dirent64: ino, off, reclen, type, name */
			u16 reclen = *(u16 *)(buf + off + 16);
			u64 pid;
			int nt;

			if (!parse_u64(buf + off + 19, &pid)) {
				nt = proc_threads((int)pid, tids, MAX_THREADS);
				if (nt > 0)
					synthesize_process((int)pid, tids, nt);
			}
			off += reclen;
		}
	}
	if (fd >= 0)
		sys1(SYS_close, fd);
}

/*
 * What perf record synthesizes before the kernel's records: the kernel's
 * map, as perf names it ([kernel.kallsyms]_text, pgoff _text's address,
 * which perf relocates kallsyms by), and CMD's name, which the kernel's
 * COMM of the exec replaces.
 */
static void synthesize(int pid, const char *cmd)
{
	struct {
		u32 pid, tid;
		u64 start, len, pgoff;
		char name[64];
	} m;
	const char *base = cmd;
	u64 text = kernel_text();

	if (text) {
		memset(&m, 0, sizeof(m));
		m.pid = (u32)-1;
		m.start = text;
		m.len = ~0ULL - text;
		m.pgoff = text;
		scpy(m.name, "[kernel.kallsyms]_text", sizeof(m.name));
		put_record(PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL, &m,
			   offsetof(typeof(m), name) + slen(m.name) + 1);
	}
	if (!cmd)
		return;
	while (schr(base, '/'))
		base = schr(base, '/') + 1;
	synthesize_comm(pid, pid, base);
}

/* ------------------------------------------------------- the feature sections */

/* /proc/cpuinfo's value of KEY (up to the line's end), "" if none */
static void cpuinfo_value(const char *key, char *v, size_t size)
{
	static char buf[8192];
	char *p = buf;

	if (!buf[0] && read_file("/proc/cpuinfo", buf, sizeof(buf)) <= 0)
		buf[0] = 0;
	*v = 0;
	for (; *p; p++) {
		if ((p == buf || p[-1] == '\n') && starts(p, key) && schr(p, ':')) {
			char *s = schr(p, ':') + 1, *e;

			while (*s == ' ')
				s++;
			for (e = s; *e && *e != '\n'; e++)
				;
			if ((size_t)(e - s) >= size)
				e = s + size - 1;
			memcpy(v, s, (size_t)(e - s));
			v[e - s] = 0;
			return;
		}
	}
}

/* the PMUs of SYSFS_PMUS: each one's type and name */
static void put_pmu_mappings(void)
{
	static char dents[8192];
	long fd = sys4(SYS_openat, AT_FDCWD, SYSFS_PMUS, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
	long n, i;
	u64 at = out_pos;
	u32 nr = 0;

	put_u32(0);
	while (fd >= 0 && (n = sys3(SYS_getdents64, fd, dents, sizeof(dents))) > 0) {
		for (i = 0; i < n;) {
			const struct { u64 ino; s64 off; u16 reclen; u8 type; char name[]; } *d =
				(const void *)(dents + i);
			char path[256];
			s64 type;

			i += d->reclen;
			if (d->name[0] == '.')
				continue;
			fmt(path, sizeof(path), SYSFS_PMUS "%s/type", d->name);
			if (read_s64(path, &type))
				continue;
			put_u32((u32)type);
			put_string(d->name);
			nr++;
		}
	}
	if (fd >= 0)
		sys1(SYS_close, fd);
	write_at(at, &nr, sizeof(nr));
}

/* MemTotal of /proc/meminfo, kB */
static u64 mem_total(void)
{
	char buf[256], *p;
	u64 kb = 0;

	if (read_file("/proc/meminfo", buf, sizeof(buf)) <= 0 || !starts(buf, "MemTotal:"))
		return 0;
	for (p = buf + 9; *p == ' '; p++)
		;
	for (; *p >= '0' && *p <= '9'; p++)
		kb = kb * 10 + (u64)(*p - '0');
	return kb;
}

/*
 * The feature sections after the data: their table, then each in the
 * order of its bit. flags gets the bits.
 */
static void put_features(u64 *flags, int argc, char **argv, const struct perf_attr *attr)
{
	static const int feats[] = {
		HEADER_BUILD_ID, HEADER_HOSTNAME, HEADER_OSRELEASE, HEADER_VERSION, HEADER_ARCH,
		HEADER_NRCPUS, HEADER_CPUDESC, HEADER_CPUID, HEADER_TOTAL_MEM, HEADER_CMDLINE,
		HEADER_EVENT_DESC, HEADER_PMU_MAPPINGS,
	};
	struct file_section sec[ARRAY_SIZE(feats)];
	struct utsname u;
	u64 table = out_pos;
	char s[256], vendor[64], family[16], model[16], stepping[16];
	size_t f;
	int i;
	s64 possible = 0;

	if (uname(&u) < 0)
		memset(&u, 0, sizeof(u));
	memset(sec, 0, sizeof(sec));
	put(sec, sizeof(sec));
	for (f = 0; f < ARRAY_SIZE(feats); f++) {
		sec[f].offset = out_pos;
		flags[feats[f] / 64] |= 1ULL << (feats[f] % 64);
		switch (feats[f]) {
		case HEADER_BUILD_ID:
			put_build_ids();
			break;
		case HEADER_HOSTNAME:
			put_string(u.nodename);
			break;
		case HEADER_OSRELEASE:
			put_string(u.release);
			break;
		case HEADER_VERSION:
			put_string("knc-record");
			break;
		case HEADER_ARCH:
			put_string(u.machine);
			break;
		case HEADER_NRCPUS:
			if (read_file("/sys/devices/system/cpu/possible", s, sizeof(s)) > 0) {
				/* "0-N": N + 1 */
				char *dash = schr(s, '-');
				u64 last = 0;

				if (dash) {
					char *e = dash + 1;

					while (*e >= '0' && *e <= '9')
						e++;
					*e = 0;
					if (!parse_u64(dash + 1, &last))
						possible = (s64)last + 1;
				}
			}
			if (possible < ncpus)
				possible = ncpus;
			put_u32((u32)possible);
			put_u32((u32)(ncpus > 0 ? ncpus : 1));
			break;
		case HEADER_CPUDESC:
			cpuinfo_value("model name", s, sizeof(s));
			put_string(s);
			break;
		case HEADER_CPUID:
			cpuinfo_value("vendor_id", vendor, sizeof(vendor));
			cpuinfo_value("cpu family", family, sizeof(family));
			cpuinfo_value("model\t", model, sizeof(model));
			cpuinfo_value("stepping", stepping, sizeof(stepping));
			fmt(s, sizeof(s), "%s,%s,%s,%s", vendor, family, model, stepping);
			put_string(s);
			break;
		case HEADER_TOTAL_MEM:
			put_u64(mem_total());
			break;
		case HEADER_CMDLINE:
			put_u32((u32)argc);
			for (i = 0; i < argc; i++)
				put_string(argv[i]);
			break;
		case HEADER_EVENT_DESC:
			put_u32(1);
			put_u32(sizeof(*attr));
			put(attr, sizeof(*attr));
			put_u32((u32)nfds);
			put_string(ev.name);
			put(ids, sizeof(u64) * nfds);
			break;
		case HEADER_PMU_MAPPINGS:
			put_pmu_mappings();
			break;
		}
		sec[f].size = out_pos - sec[f].offset;
	}
	write_at(table, sec, sizeof(sec));
}

/* ------------------------------------------------------------------ main */

/* CMD (pid; 0: -p's) killed before its execve, no file left: exit 255 */
static void __attribute__((noreturn)) give_up(int pid, const char *output)
{
	int status;

	if (pid) {
		sys2(SYS_kill, pid, SIGKILL);
		sys4(SYS_wait4, pid, &status, 0, 0);
	}
	sys3(__NR_unlinkat, AT_FDCWD, output, 0);
	sys_exit(255);
}

int main(int argc, char **argv)
{
	const char *output = "perf.data";
	struct file_header fh;
	struct file_attr fa;
	struct pmu p;
	u64 v, period = 0, freq = 0, pages = DEFAULT_PAGES, data_start;
	int i, c, t, callchain = 0, pid = 0, go, execfail, status = 0, failed, attach = 0, ntids = 1;
	int all = 0;
	static int tids[MAX_THREADS];
	char **cmd = NULL, *event = "cycles";
	long r;

	card_prog = "knc-record";
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (seq(a, "--")) {
			i++;
			break;
		}
		if (a[0] != '-')
			break;
		if (seq(a, "-h") || seq(a, "--help")) {
			pr("%s", usage);
			return 0;
		} else if (seq(a, "-g")) {
			callchain = 1;
		} else if (seq(a, "-a")) {
			all = 1;
		} else if (a[1] && schr("ecFmop", a[1]) && (a[2] || i + 1 < argc)) {
			/* -e EV or -eEV, as getopt takes them */
			char *val = a[2] ? (char *)a + 2 : argv[++i];

			if (a[1] == 'e')
				event = val;
			else if (a[1] == 'o')
				output = val;
			else if (parse_u64(val, &v) || !v || (a[1] == 'p' && v > 0x7fffffff))
				die("knc-record: -%c '%s': a number above 0\n", a[1], val);
			else if (a[1] == 'p')
				attach = (int)v;
			else if (a[1] == 'c')
				period = v;
			else if (a[1] == 'F')
				freq = v;
			else if (v > MAX_PAGES || (v & (v - 1)))
				die("knc-record: -m '%s': a power of two up to %d\n", val, MAX_PAGES);
			else
				pages = v;
		} else {
			epr("knc-record: unknown option %s\n%s", a, usage);
			return 255;
		}
	}
	if (i < argc)
		cmd = argv + i;
	if (!cmd && !attach && !all) {
		epr("%s", usage);
		return 255;
	}
	if (cmd && attach)
		die("knc-record: -p and CMD exclude each other\n");
	if (all && attach)
		die("knc-record: -a and -p exclude each other\n");
	if (period && freq)
		die("knc-record: -c and -F exclude each other\n");
	if (schr(event, ',') || schr(event, '{'))
		die("knc-record: -e '%s': one event\n", event);

	pmu_find(&p);
	if (ev_parse(&p, event, &ev))
		sys_exit(255);
	if (ev.hw && !p.name[0])
		die("knc-record: %s: no PMU: neither knc_pmu.ko's knc PMU nor a cpu PMU in %s\n",
		    ev.name, SYSFS_PMUS);

	ev.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD |
			      (callchain ? PERF_SAMPLE_CALLCHAIN : 0);
	/* -a: a CPU's every task, no task to inherit from or exec */
	ev.attr.flags |= ATTR_DISABLED | ATTR_MMAP | ATTR_COMM | ATTR_TASK | ATTR_WATERMARK |
			 ATTR_SAMPLE_ID_ALL | ATTR_MMAP2 | ATTR_COMM_EXEC |
			 (all ? 0 : ATTR_INHERIT) | (attach || all ? 0 : ATTR_ENABLE_ON_EXEC);
	if (period) {
		ev.attr.sample_period = period;
	} else {
		s64 max;

		/*
		 * The kernel refuses a frequency above its maximum (EINVAL), which it
		 * lowers itself when PMIs take long: the default is lowered to it, as
		 * perf record does.
		 */
		if (read_s64("/proc/sys/kernel/perf_event_max_sample_rate", &max) || max <= 0)
			max = 0;
		if (max && freq > (u64)max)
			die("knc-record: -F %lu: above this kernel's maximum, %ld samples a second\n"
			    "  (/proc/sys/kernel/perf_event_max_sample_rate)\n", (unsigned long)freq, (long)max);
		if (!freq) {
			freq = DEFAULT_FREQ;
			if (max && freq > (u64)max) {
				epr("knc-record: %lu samples a second, this kernel's maximum"
				    " (perf_event_max_sample_rate), not %d\n", (unsigned long)max, DEFAULT_FREQ);
				freq = (u64)max;
			}
		}
		ev.attr.flags |= ATTR_FREQ;
		ev.attr.sample_period = freq;
	}
	ring_size = pages * PAGE_SIZE;
	ev.attr.wakeup_events = (u32)(ring_size / 4);	/* wakeup_watermark: a quarter full */

	if (attach) {
		ntids = proc_threads(attach, tids, MAX_THREADS);
		if (ntids == -E2BIG)
			die("knc-record: -p %d: more than %d threads\n", attach, MAX_THREADS);
		if (ntids <= 0)
			die("knc-record: -p %d: no such process (/proc/%d/task: %s)\n", attach, attach,
			    errname(ntids ? -ntids : ENOENT));
	}
	out = (int)sys4(SYS_openat, AT_FDCWD, output, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (out < 0)
		die("knc-record: -o %s: %s\n", output, errname(-out));

	card_signal(SIGINT, on_signal);
	card_signal(SIGTERM, on_signal);
	ncpus = online_cpus(cpus, MAX_CPUS);
	if (ncpus <= 0)
		die("knc-record: cannot read /sys/devices/system/cpu/online\n");
	if (ncpus * ntids > MAX_FDS)
		die("knc-record: %d CPUs times %d threads: more than %d events\n", ncpus, ntids, MAX_FDS);
	if (attach)
		raise_nofile();
	if (cmd)
		pid = start_cmd(cmd, &go, &execfail);
	if (!attach)
		tids[0] = all ? -1 : pid;	/* -a: every task; else CMD */
	/* an event a CPU and thread; each CPU's first has the ring, the others write to it */
	for (c = 0; c < ncpus; c++) {
		for (t = 0; t < ntids; t++) {
			long fd = perf_open(&ev.attr, tids[t], cpus[c], -1, 0), ring;

			if (fd == -EINVAL && !nfds && (ev.attr.flags & ATTR_MMAP2)) {
				/* before 3.16 (MPSS's 2.6.38): no MMAP2 and no exec flag on COMM */
				ev.attr.flags &= ~(ATTR_MMAP2 | ATTR_COMM_EXEC);
				fd = perf_open(&ev.attr, tids[t], cpus[c], -1, 0);
			}
			if (fd == -ESRCH && attach)
				continue;	/* a thread that has ended since */
			if (fd < 0) {
				char what[128];

				fmt(what, sizeof(what), "knc-record: %s on CPU %d", ev.name, cpus[c]);
				explain_open_error((int)-fd, &p, what,
						   all ? 1 : (ev.attr.flags & ATTR_EXCLUDE_KERNEL) ? 2 : 0);
				give_up(pid, output);
			}
			fds[nfds] = fd;
			if (sys3(SYS_ioctl, fd, PERF_EVENT_IOC_ID, &ids[nfds]) < 0)
				ids[nfds] = 0;
			nfds++;
			if (rings[c]) {
				if (sys3(SYS_ioctl, fd, IOC_SET_OUTPUT, ring_fds[c]) < 0)
					die("knc-record: CPU %d: PERF_EVENT_IOC_SET_OUTPUT failed\n", cpus[c]);
				continue;
			}
			ring = sys6(SYS_mmap, 0, ring_size + PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
				    fd, 0);
			if (ring < 0 && ring > -4096) {
				epr("knc-record: mmap of CPU %d's ring (%lu pages): %s\n", cpus[c],
				    (unsigned long)pages, errname((int)-ring));
				give_up(pid, output);
			}
			ring_fds[c] = fd;
			rings[c] = (void *)ring;
		}
		if (!rings[c])
			die("knc-record: -p %d: the process has ended\n", attach);
	}

	/* the header, the ids and the attr, written at the end; the data after them */
	out_pos = sizeof(fh) + sizeof(u64) * nfds + sizeof(fa);
	data_start = out_pos;
	synthesize(pid, cmd ? cmd[0] : NULL);

	if (attach)
		synthesize_process(attach, tids, ntids);
	if (all)
		synthesize_all();
	if (attach || all)
		for (i = 0; i < nfds; i++)
			sys3(SYS_ioctl, fds[i], IOC_ENABLE, 0);
	if (cmd) {
		failed = cmd_go(cmd[0], pid, go, execfail);
		if (failed >= 0) {
			sys3(__NR_unlinkat, AT_FDCWD, output, 0);
			return failed;
		}
	}

	for (;;) {
		static struct { int fd; short events, revents; } pfd[MAX_CPUS];

		if (!cmd) {
			if (interrupted || (attach && sys2(SYS_kill, attach, 0) == -ESRCH))
				break;
		} else {
			r = sys4(SYS_wait4, pid, &status, WNOHANG, 0);
			if (r == pid || (r < 0 && r != -EINTR))
				break;
		}
		for (c = 0; c < ncpus; c++)
			pfd[c].fd = (int)ring_fds[c];
		for (c = 0; c < ncpus; c++)
			pfd[c].events = POLLIN;
		sys3(__NR_poll, pfd, ncpus, 100);
		drain();
	}
	for (i = 0; i < nfds; i++)
		sys3(SYS_ioctl, fds[i], IOC_DISABLE, 0);
	drain();

	memset(&fh, 0, sizeof(fh));
	memcpy(fh.magic, "PERFILE2", 8);
	fh.size = sizeof(fh);
	fh.attr_size = sizeof(fa);
	fh.data.offset = data_start;
	fh.data.size = out_pos - data_start;
	put_features(fh.flags, argc, argv, &ev.attr);
	memset(&fa, 0, sizeof(fa));
	fa.attr = ev.attr;
	fa.attr.size = sizeof(fa.attr);
	fa.ids.offset = sizeof(fh);
	fa.ids.size = sizeof(u64) * nfds;
	fh.attrs.offset = sizeof(fh) + sizeof(u64) * nfds;
	fh.attrs.size = sizeof(fa);
	write_at(0, &fh, sizeof(fh));
	write_at(sizeof(fh), ids, sizeof(u64) * nfds);
	write_at(fh.attrs.offset, &fa, sizeof(fa));
	sys1(SYS_close, out);

	epr("[ knc-record: wrote %lu bytes to %s: %lu samples ]\n", (unsigned long)out_pos, output,
	    (unsigned long)nsamples);
	if (nlost_records || nlost_samples)
		epr("knc-record: %lu samples lost (%lu LOST records: the ring was full; raise -m),"
		    " %lu dropped by the kernel (LOST_SAMPLES)\n", (unsigned long)nlost,
		    (unsigned long)nlost_records, (unsigned long)nlost_samples);
	if (nthrottle)
		epr("knc-record: throttled %lu times (unthrottled %lu): lower -F or raise -c\n",
		    (unsigned long)nthrottle, (unsigned long)nunthrottle);
	if (status & 0x7f)
		return 128 + (status & 0x7f);
	return status >> 8 & 0xff;
}
