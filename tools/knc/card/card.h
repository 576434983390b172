/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The shared part of the card's programs (knc-stat, knc-check, knc-record) for a
 * Knights Corner card, whose cores have no SSE, SSE2 or MMX: no libc, no
 * floating point. The runtime is the kernel's own nolibc
 * (tools/include/nolibc of a Linux tree, 7.2 or newer; the Makefile's
 * NOLIBC=): _start and environ, the system calls (its __nolibc_syscallN,
 * raw: sys0()..sys6() return -errno, as the kernel does), memcpy, memset
 * and the string functions, and printf's conversions; the constants
 * (errno, O_*, MAP_*, SIG*, __NR_*) are the kernel UAPI's that nolibc
 * includes.
 *
 * knc's own, in card.c: the output (pr(), epr(): buffered, standard
 * output flushed before standard error, at exit and before a fork), and
 * in vfmt() the conversions nolibc's printf has no room for: %N (a u64
 * with thousands separators, as perf stat prints counts), %F (u64
 * hundredths, "12.34") and %T (u64 nanoseconds as seconds,
 * "1.234567890"); vfmt() gives each other conversion to nolibc's
 * snprintf(). And what no libc has: errno's names, rt_sigaction() with
 * its restorer (nolibc has no sigaction()), perf_event_open() and the
 * PMU's events. Builds with any x86-64 C compiler that takes GNU inline
 * assembly (tools/knc/card/Makefile).
 */
#ifndef KNC_CARD_H
#define KNC_CARD_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <linux/perf_event.h>

typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s8 s8;
typedef __s32 s32;
typedef __s64 s64;

/* the system calls made raw, by the UAPI's numbers (asm/unistd_64.h) */
#define SYS_read		__NR_read
#define SYS_write		__NR_write
#define SYS_close		__NR_close
#define SYS_mmap		__NR_mmap
#define SYS_munmap		__NR_munmap
#define SYS_rt_sigaction	__NR_rt_sigaction
#define SYS_ioctl		__NR_ioctl
#define SYS_nanosleep		__NR_nanosleep
#define SYS_uname		__NR_uname
#define SYS_fork		__NR_fork
#define SYS_execve		__NR_execve
#define SYS_wait4		__NR_wait4
#define SYS_kill		__NR_kill
#define SYS_getdents64		__NR_getdents64
#define SYS_clock_gettime	__NR_clock_gettime
#define SYS_exit_group		__NR_exit_group
#define SYS_openat		__NR_openat
#define SYS_perf_event_open	__NR_perf_event_open
#define SYS_pipe2		__NR_pipe2

/* nolibc's system calls as the kernel answers them: the result or -errno */
#define sys0(n)			__nolibc_syscall0(n)
#define sys1(n, a)		__nolibc_syscall1(n, a)
#define sys2(n, a, b)		__nolibc_syscall2(n, a, b)
#define sys3(n, a, b, c)	__nolibc_syscall3(n, a, b, c)
#define sys4(n, a, b, c, d)	__nolibc_syscall4(n, a, b, c, d)
#define sys5(n, a, b, c, d, e)	__nolibc_syscall5(n, a, b, c, d, e)
#define sys6(n, a, b, c, d, e, f) __nolibc_syscall6(n, a, b, c, d, e, f)

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

#define ATTR_DISABLED		(1ULL << 0)
#define ATTR_INHERIT		(1ULL << 1)
#define ATTR_PINNED		(1ULL << 2)
#define ATTR_EXCLUDE_USER	(1ULL << 4)
#define ATTR_EXCLUDE_KERNEL	(1ULL << 5)
#define ATTR_EXCLUDE_HV		(1ULL << 6)
#define ATTR_ENABLE_ON_EXEC	(1ULL << 12)

#define FORMAT_TOTAL_TIME_ENABLED	PERF_FORMAT_TOTAL_TIME_ENABLED
#define FORMAT_TOTAL_TIME_RUNNING	PERF_FORMAT_TOTAL_TIME_RUNNING
#define SAMPLE_IP			PERF_SAMPLE_IP

#define IOC_ENABLE	PERF_EVENT_IOC_ENABLE
#define IOC_DISABLE	PERF_EVENT_IOC_DISABLE
#define IOC_RESET	PERF_EVENT_IOC_RESET
#define IOC_SET_OUTPUT	PERF_EVENT_IOC_SET_OUTPUT

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

/* the two as the UAPI lays them out, but for the bit fields */
_Static_assert(sizeof(struct perf_attr) == PERF_ATTR_SIZE_VER5, "struct perf_attr");
_Static_assert(offsetof(struct perf_attr, sample_max_stack) ==
	       offsetof(struct perf_event_attr, sample_max_stack), "struct perf_attr");
_Static_assert(offsetof(struct perf_page, data_size) ==
	       offsetof(struct perf_event_mmap_page, data_size), "struct perf_page");

/* the runtime: nolibc's, and card.c */
extern const char *card_prog;	/* "knc-stat", as messages name the program */
int main(int argc, char **argv);
void card_signal(int sig, void (*fn)(int sig));
void card_sigreturn(void);
static inline size_t slen(const char *s)
{
	return strlen(s);
}

static inline int seq(const char *a, const char *b)
{
	return !strcmp(a, b);
}

static inline int starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static inline char *schr(const char *s, int c)
{
	return strchr(s, c);
}

static inline void scpy(char *d, const char *s, size_t size)
{
	snprintf(d, size, "%s", s);
}

static inline void scat(char *d, const char *s, size_t size)
{
	strlcat(d, s, size);
}

int seq_nocase(const char *a, const char *b);
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
int proc_threads(int pid, int *tids, int max);
void raise_nofile(void);
int start_cmd(char **argv, int *go, int *execfail);
int cmd_go(const char *name, int pid, int go, int execfail);

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
