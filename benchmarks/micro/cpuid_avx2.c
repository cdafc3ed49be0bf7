/*===- cpuid_avx2.c - Make a process see an AVX2-only x86 CPU -------------===*
 *
 * Loaded with LD_PRELOAD into the reference libraries' processes (ONNX
 * Runtime's node process, OpenBLAS's sgemm_bench) when benchmarks/run.py runs
 * with --ref-isa avx2, so that they pick their AVX2 kernels on an AVX-512
 * machine, as they would on an AVX2-only CPU, while dlc runs its AVX2 code
 * (--mcpu x86-64-v3).
 *
 * Linux's CPUID faulting (arch_prctl(ARCH_SET_CPUID, 0); /proc/cpuinfo flag
 * cpuid_fault) makes every `cpuid` instruction of the process raise SIGSEGV;
 * the handler runs the real instruction with faulting briefly off, clears the
 * AVX-512 feature bits of leaf 7 and steps over it. The setting is per thread
 * and inherited by threads created later, so thread pools see the same.
 *
 * What it cannot hide: code that ran `cpuid` before this library's constructor
 * (glibc chooses its memcpy/memset variants in the dynamic loader, so those
 * keep their AVX-512 forms for dlc and the references alike), and the caches,
 * clock and 512-bit data paths of the machine itself. Node's WebAssembly trap
 * handler takes over SIGSEGV, so node runs with --disable-wasm-trap-handler.
 *
 * The constructor exits with status 3 and a message when the kernel or the
 * CPU refuses CPUID faulting, so a run never silently measures AVX-512 code.
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include <asm/prctl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

static long setCpuidEnabled(int enabled) {
  return syscall(SYS_arch_prctl, ARCH_SET_CPUID, enabled);
}

/* Leaf 7 subleaf 0: EBX AVX512F(16) DQ(17) IFMA(21) PF(26) ER(27) CD(28)
 * BW(30) VL(31); ECX VBMI(1) VBMI2(6) VNNI(11) BITALG(12) VPOPCNTDQ(14);
 * EDX 4VNNIW(2) 4FMAPS(3) VP2INTERSECT(8) FP16(23). Subleaf 1: EAX BF16(5). */
static const uint32_t kEbx7 = (1u << 16) | (1u << 17) | (1u << 21) |
                              (1u << 26) | (1u << 27) | (1u << 28) |
                              (1u << 30) | (1u << 31);
static const uint32_t kEcx7 = (1u << 1) | (1u << 6) | (1u << 11) | (1u << 12) |
                              (1u << 14);
static const uint32_t kEdx7 = (1u << 2) | (1u << 3) | (1u << 8) | (1u << 23);

static void onSegv(int sig, siginfo_t *info, void *context) {
  (void)info;
  ucontext_t *uc = context;
  greg_t *regs = uc->uc_mcontext.gregs;
  const unsigned char *ip = (const unsigned char *)regs[REG_RIP];
  if (ip[0] != 0x0f || ip[1] != 0xa2) {
    /* A real fault: let it take its default course when the handler returns. */
    signal(sig, SIG_DFL);
    return;
  }
  uint32_t leaf = (uint32_t)regs[REG_RAX], subleaf = (uint32_t)regs[REG_RCX];
  uint32_t a, b, c, d;
  setCpuidEnabled(1);
  __asm__ volatile("cpuid"
                   : "=a"(a), "=b"(b), "=c"(c), "=d"(d)
                   : "a"(leaf), "c"(subleaf));
  setCpuidEnabled(0);
  if (leaf == 7 && subleaf == 0) {
    b &= ~kEbx7;
    c &= ~kEcx7;
    d &= ~kEdx7;
  } else if (leaf == 7 && subleaf == 1) {
    a &= ~(1u << 5);
  }
  regs[REG_RAX] = a;
  regs[REG_RBX] = b;
  regs[REG_RCX] = c;
  regs[REG_RDX] = d;
  regs[REG_RIP] += 2;
}

__attribute__((constructor)) static void hideAvx512(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = onSegv;
  sa.sa_flags = SA_SIGINFO;
  if (sigaction(SIGSEGV, &sa, NULL) != 0 || setCpuidEnabled(0) != 0) {
    perror("cpuid_avx2: CPUID faulting (arch_prctl ARCH_SET_CPUID) is not "
           "available here");
    _exit(3);
  }
}
