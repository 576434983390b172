// SPDX-License-Identifier: GPL-2.0
/*
 * Conditional selects of every condition and operand size, which gcc and
 * clang compile to CMOV: tests/host/card.t builds this as make card builds
 * the card's programs (knc-isa rewrite) and as a compiler does (CMOV), and
 * the two must write the same bytes. Freestanding: no libc.
 */
typedef unsigned long long u64;
typedef long long s64;
typedef unsigned int u32;
typedef int s32;
typedef unsigned short u16;
typedef short s16;

#define SEL(T, name, op) \
	static __attribute__((noinline)) T name(T a, T b, T x, T y) { return a op b ? x : y; }
#define SELS(T, p) \
	SEL(T, p##_lt, <) SEL(T, p##_le, <=) SEL(T, p##_gt, >) SEL(T, p##_ge, >=) \
	SEL(T, p##_eq, ==) SEL(T, p##_ne, !=)
SELS(u64, u64) SELS(s64, s64) SELS(u32, u32) SELS(s32, s32) SELS(u16, u16) SELS(s16, s16)

/* a 32-bit select whose result is used as 64 bits: the upper half must be 0 */
static __attribute__((noinline)) u64 zext(u32 a, u32 b, u32 x, u64 base)
{
	u32 r = a < b ? x : a;

	return base + r;
}

static const u64 vals[] = {
	0, 1, 2, 0x7f, 0x80, 0xffff, 0x7fff, 0x8000, 0x7fffffff, 0x80000000, 0xffffffff,
	0x100000000ULL, 0x7fffffffffffffffULL, 0x8000000000000000ULL, ~0ULL, ~1ULL,
};
#define N (sizeof(vals) / sizeof(vals[0]))
static u64 out[N * N * 37];

#define RUN(T, p) do { \
	out[k++] = p##_lt((T)a, (T)b, (T)a, (T)b); out[k++] = p##_le((T)a, (T)b, (T)a, (T)b); \
	out[k++] = p##_gt((T)a, (T)b, (T)a, (T)b); out[k++] = p##_ge((T)a, (T)b, (T)a, (T)b); \
	out[k++] = p##_eq((T)a, (T)b, (T)a, (T)b); out[k++] = p##_ne((T)a, (T)b, (T)a, (T)b); \
	} while (0)

void selects_start(void) __attribute__((noreturn, used));
void selects_start(void)
{
	unsigned long i, j, k = 0;
	long r;

	for (i = 0; i < N; i++) {
		for (j = 0; j < N; j++) {
			u64 a = vals[i], b = vals[j];

			RUN(u64, u64); RUN(s64, s64); RUN(u32, u32); RUN(s32, s32);
			RUN(u16, u16); RUN(s16, s16);
			out[k++] = zext((u32)a, (u32)b, (u32)(a >> 7), b);
		}
	}
	asm volatile("syscall" : "=a"(r) : "a"(1), "D"(1), "S"(out), "d"(k * 8) : "rcx", "r11", "memory");
	asm volatile("syscall" : : "a"(231), "D"(r != (long)(k * 8)) : "rcx", "r11", "memory");
	for (;;)
		;
}

asm(".globl _start\n_start:\n\tand $-16, %rsp\n\tcall selects_start\n");
