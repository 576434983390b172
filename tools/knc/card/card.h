/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The shared part of the card's programs (knc-stat, knc-check): a
 * freestanding runtime for a Knights Corner card, whose cores have no SSE,
 * SSE2 or MMX. No libc, no floating point: system calls through inline
 * `syscall`, integer formatting, and the perf_event_open() parts both
 * programs use. Builds with any x86-64 C compiler that takes GNU inline
 * assembly (tools/knc/card/Makefile).
 */
#ifndef KNC_CARD_H
#define KNC_CARD_H

#include <stdarg.h>
#include <stddef.h>

typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef signed char s8;
typedef int s32;
typedef long long s64;

/* x86-64 system call numbers */
#define SYS_read		0
#define SYS_write		1
#define SYS_close		3
#define SYS_mmap		9
#define SYS_munmap		11
#define SYS_rt_sigaction	13
#define SYS_rt_sigreturn	15
#define SYS_ioctl		16
#define SYS_nanosleep		35
#define SYS_getpid		39
#define SYS_uname		63
#define SYS_clone		56
#define SYS_fork		57
#define SYS_execve		59
#define SYS_exit		60
#define SYS_wait4		61
#define SYS_kill		62
#define SYS_gettid		186
#define SYS_sched_setaffinity	203
#define SYS_getdents64		217
#define SYS_clock_gettime	228
#define SYS_exit_group		231
#define SYS_openat		257
#define SYS_perf_event_open	298
#define SYS_pipe2		293

#define AT_FDCWD	(-100)
#define O_RDONLY	0
#define O_WRONLY	1
#define O_CREAT		0100
#define O_TRUNC		01000
#define O_DIRECTORY	0200000
#define O_CLOEXEC	02000000
#define PROT_READ	1
#define PROT_WRITE	2
#define MAP_SHARED	1
#define MAP_PRIVATE	2
#define MAP_ANONYMOUS	0x20
#define SIGINT		2
#define SIGKILL		9
#define SIGSEGV		11
#define SIGCHLD		17

#define EPERM	1
#define ENOENT	2
#define ESRCH	3
#define EINTR	4
#define E2BIG	7
#define EBADF	9
#define EAGAIN	11
#define ENOMEM	12
#define EACCES	13
#define EBUSY	16
#define ENODEV	19
#define EINVAL	22
#define EMFILE	24
#define ENOSPC	28
#define ENOSYS	38
#define EOPNOTSUPP 95

static inline long sys6(long n, long a, long b, long c, long d, long e, long f)
{
	long ret;
	register long r10 asm("r10") = d;
	register long r8 asm("r8") = e;
	register long r9 asm("r9") = f;

	asm volatile("syscall"
		     : "=a"(ret)
		     : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
		     : "rcx", "r11", "memory");
	return ret;
}

#define sys0(n)			sys6(n, 0, 0, 0, 0, 0, 0)
#define sys1(n, a)		sys6(n, (long)(a), 0, 0, 0, 0, 0)
#define sys2(n, a, b)		sys6(n, (long)(a), (long)(b), 0, 0, 0, 0)
#define sys3(n, a, b, c)	sys6(n, (long)(a), (long)(b), (long)(c), 0, 0, 0)
#define sys4(n, a, b, c, d)	sys6(n, (long)(a), (long)(b), (long)(c), (long)(d), 0, 0)
#define sys5(n, a, b, c, d, e)	sys6(n, (long)(a), (long)(b), (long)(c), (long)(d), (long)(e), 0)

/* perf_event_open(2): the uapi's struct perf_event_attr (PERF_ATTR_SIZE_VER5) */
struct perf_attr {
	u32 type;
	u32 size;
	u64 config;
	u64 sample_period;
	u64 sample_type;
	u64 read_format;
	u64 flags;		/* the uapi's bit fields: ATTR_* */
	u32 wakeup_events;
	u32 bp_type;
	u64 config1;
	u64 config2;
	u64 branch_sample_type;
	u64 sample_regs_user;
	u32 sample_stack_user;
	s32 clockid;
	u64 sample_regs_intr;
	u32 aux_watermark;
	u16 sample_max_stack;
	u16 reserved;
};

#define PERF_TYPE_HARDWARE	0
#define PERF_TYPE_SOFTWARE	1
#define PERF_TYPE_RAW		4

#define ATTR_DISABLED		(1ULL << 0)
#define ATTR_INHERIT		(1ULL << 1)
#define ATTR_PINNED		(1ULL << 2)
#define ATTR_EXCLUDE_USER	(1ULL << 4)
#define ATTR_EXCLUDE_KERNEL	(1ULL << 5)
#define ATTR_EXCLUDE_HV		(1ULL << 6)
#define ATTR_ENABLE_ON_EXEC	(1ULL << 12)

#define FORMAT_TOTAL_TIME_ENABLED	1
#define FORMAT_TOTAL_TIME_RUNNING	2
#define SAMPLE_IP			1

#define IOC_ENABLE	0x2400
#define IOC_DISABLE	0x2401
#define IOC_RESET	0x2403
#define IOC_SET_OUTPUT	0x2405

/* The mmap page's fields (struct perf_event_mmap_page), by offset */
struct perf_page {
	u32 version;
	u32 compat_version;
	u32 lock;
	u32 index;
	s64 offset;
	u64 time_enabled;
	u64 time_running;
	u64 capabilities;	/* bit 2: cap_user_rdpmc */
	u16 pmc_width;
	u16 time_shift;
	u32 time_mult;
	u64 time_offset;
	u64 time_zero;
	u32 size;
	u32 reserved_1;
	u64 time_cycles;
	u64 time_mask;
	u8 reserved[928];
	u64 data_head;
	u64 data_tail;
	u64 data_offset;
	u64 data_size;
};

#define CAP_USER_RDPMC	(1ULL << 2)
#define PAGE_SIZE	4096

/* the runtime: card.c */
extern char **environ;
int main(int argc, char **argv);
void card_start(long argc, char **argv) __attribute__((used, noreturn));
void card_sigreturn(void);
void card_signal(int sig, void (*fn)(int sig));
void *memcpy(void *d, const void *s, size_t n);
void *memset(void *d, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t slen(const char *s);
int seq(const char *a, const char *b);
int seq_nocase(const char *a, const char *b);
int starts(const char *s, const char *prefix);
char *schr(const char *s, int c);
void scpy(char *d, const char *s, size_t size);
void scat(char *d, const char *s, size_t size);
int parse_u64(const char *s, u64 *v);
const char *errname(int err);
void out_flush(void);
void out_to(int fd);
int vfmt(char *buf, size_t size, const char *f, va_list ap);
int fmt(char *buf, size_t size, const char *f, ...);
void pr(const char *f, ...);
void epr(const char *f, ...);
void die(const char *f, ...) __attribute__((noreturn));
void sys_exit(int status) __attribute__((noreturn));
long read_file(const char *path, char *buf, size_t size);
int read_s64(const char *path, s64 *v);
u64 now_ns(void);
void sleep_ms(long ms);
u64 muldiv(u64 a, u64 b, u64 c);
const char *kernel_release(void);
long perf_open(struct perf_attr *a, int pid, int cpu, int group, unsigned long flags);
int online_cpus(int *cpus, int max);

/* the PMU and its events */
struct card_event {
	const char *name;
	u8 code, umask, counters;
	s8 hw_id;	/* PERF_TYPE_HARDWARE id, -1: none */
};

struct pmu {
	u32 type;	/* the perf type of its events */
	int knc;	/* 1: knc_pmu.ko's knc PMU; 0: Linux's cpu PMU */
	char name[8];	/* "knc" or "cpu"; "" when there is no PMU */
	long family, model;	/* the CPU's, -1 where unknown */
	int is_knc_cpu;	/* family 11 model 1: a Knights Corner */
};

struct ev {
	char name[80];		/* as given */
	struct perf_attr attr;
	int hw;			/* counts on the PMU's counters */
};

#define SYSFS_PMUS "/sys/bus/event_source/devices/"

int pmu_find(struct pmu *p);
const struct card_event *event_lookup(const char *name);
int ev_parse(const struct pmu *p, const char *spec, struct ev *e);
void ev_knc(const struct pmu *p, const char *name, u64 flags, struct ev *e);
void nearest_names(const char *name);
void explain_open_error(int err, const struct pmu *p, const char *what, int cpu_wide);

/* the workloads of known instruction counts: loops.S */
void knc_loop_counted(int fd, unsigned long n);
void knc_loop(unsigned long n);
void knc_threads_wait(int fd, long threads, long n, char *stack, long stride)
	__attribute__((noreturn));

#endif
