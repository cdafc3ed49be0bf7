/*===- emulator.c - CUDA kernels run on the host (--target cuda-emulator) ===*
 *
 * A model compiled with --target cuda-emulator is a CPU model whose kernels
 * are host functions, one call per GPU thread. Kernels that synchronize
 * (gpu.barrier, warp shuffles, mma.sync) run each thread of a block as a
 * fiber on the calling OS thread: a fiber runs until it reaches a barrier,
 * a shuffle or an mma.sync and then yields; when every live thread of the
 * block waits at a barrier (every lane of a warp at a shuffle or an
 * mma.sync) they are released together.
 * So all threads of a block run phase by phase between barriers, shared
 * memory is one buffer per block, and shuffles exchange the values of the
 * lanes as a warp does. Misuse that would hang or be undefined on a GPU (a
 * barrier not reached by every thread, a shuffle with exited lanes) stops
 * the process with a message: it is a compiler bug, and this is a testing
 * aid.
 *
 * Blocks run one after the other. The fibers' stacks are cached per OS
 * thread (models may run on several threads at once) and freed when the
 * thread exits.
 *
 *===----------------------------------------------------------------------===*/
#include "dlc/dlc_model_abi.h"

#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#if !defined(__x86_64__) && !defined(__aarch64__)
#include <ucontext.h>
#define DLC_EMU_UCONTEXT 1
#endif

enum { kRunnable, kAtBarrier, kAtShuffle, kAtWarpOp, kDone };
enum { kWarpSize = 32, kStackSize = 256 * 1024, kMaxThreads = 1024 };

typedef struct dlcrt_emu_scheduler dlcrt_emu_scheduler;

/* Asynchronous copies one thread may have in flight. */
enum { kMaxPendingCopies = 256 };

typedef struct fiber {
#ifdef DLC_EMU_UCONTEXT
  ucontext_t context;
#else
  void *sp;
#endif
  dlcrt_emu_scheduler *scheduler;
  int state;
  /* A pending shuffle: this lane's value and parameters, then its result. */
  int32_t value, offset, width, mode;
  int64_t result;
  /* A pending warp-level instruction (mma.sync, ldmatrix): which, with
   * this lane's operands. */
  int32_t warp_op, warp_kind, tiles, transpose;
  int64_t desc_a, desc_b; /* a wgmma's shared-memory descriptors */
  float *fragments;
  const unsigned char *row;
  unsigned char *out;
  /* cp.async copies issued and not yet waited for: the source bytes as
   * read at issue, landing in shared memory at the wait. */
  int pending;
  struct {
    unsigned char *dst;
    int bytes;
    unsigned char data[16];
  } copies[kMaxPendingCopies];
  int64_t info[DLC_EMU_INFO_SIZE];
} fiber;

struct dlcrt_emu_scheduler {
  fiber *fibers;
  int capacity;
  char *stacks; /* capacity * (guard page + kStackSize) */
  size_t page, map_size;
  void *shared;
  size_t shared_capacity;
#ifdef DLC_EMU_UCONTEXT
  ucontext_t main_context;
#else
  void *main_sp;
#endif
  /* The launch in progress. */
  dlc_emu_kernel_fn kernel;
  void **params;
  int threads;
};

#if defined(__GNUC__)
__attribute__((format(printf, 1, 2), noreturn))
#endif
static void fail(const char *format, ...) {
  va_list args;
  va_start(args, format);
  fprintf(stderr, "dlc cuda-emulator: ");
  vfprintf(stderr, format, args);
  fprintf(stderr, "\n");
  va_end(args);
  abort();
}

/*===- context switches ---------------------------------------------------===*/

#ifndef DLC_EMU_UCONTEXT
/* void dlcrt_emu_switch(void **save_sp, void *next_sp): saves the callee-
 * saved registers on the current stack, stores the stack pointer in
 * *save_sp, switches to next_sp and restores what was saved there.
 * dlcrt_emu_start is where a new fiber's first switch returns to: it calls
 * dlcrt_emu_fiber_main(fiber) (the fiber is in a callee-saved register). */
void dlcrt_emu_switch(void **save_sp, void *next_sp);
void dlcrt_emu_start(void);
__attribute__((used, visibility("hidden"))) void
dlcrt_emu_fiber_main(fiber *f);
#if defined(__x86_64__)
__asm__(".text\n"
        ".globl dlcrt_emu_switch\n"
        ".hidden dlcrt_emu_switch\n"
        ".type dlcrt_emu_switch,@function\n"
        "dlcrt_emu_switch:\n"
        "  pushq %rbp\n"
        "  pushq %rbx\n"
        "  pushq %r12\n"
        "  pushq %r13\n"
        "  pushq %r14\n"
        "  pushq %r15\n"
        "  movq %rsp, (%rdi)\n"
        "  movq %rsi, %rsp\n"
        "  popq %r15\n"
        "  popq %r14\n"
        "  popq %r13\n"
        "  popq %r12\n"
        "  popq %rbx\n"
        "  popq %rbp\n"
        "  ret\n"
        ".size dlcrt_emu_switch, .-dlcrt_emu_switch\n"
        ".globl dlcrt_emu_start\n"
        ".hidden dlcrt_emu_start\n"
        ".type dlcrt_emu_start,@function\n"
        "dlcrt_emu_start:\n"
        "  movq %r12, %rdi\n"
        "  andq $-16, %rsp\n"
        "  call dlcrt_emu_fiber_main\n"
        "  ud2\n"
        ".size dlcrt_emu_start, .-dlcrt_emu_start\n");
enum { kFrameWords = 8 }; /* r15 r14 r13 r12 rbx rbp ret pad */

static void *initial_stack(char *top, fiber *f) {
  void **sp = (void **)top - kFrameWords;
  memset(sp, 0, kFrameWords * sizeof(void *));
  sp[3] = f;                        /* r12 */
  sp[6] = (void *)&dlcrt_emu_start; /* return address */
  return sp;
}
#elif defined(__aarch64__)
__asm__(".text\n"
        ".globl dlcrt_emu_switch\n"
        ".hidden dlcrt_emu_switch\n"
        ".type dlcrt_emu_switch,%function\n"
        "dlcrt_emu_switch:\n"
        "  sub sp, sp, #160\n"
        "  stp x19, x20, [sp, #0]\n"
        "  stp x21, x22, [sp, #16]\n"
        "  stp x23, x24, [sp, #32]\n"
        "  stp x25, x26, [sp, #48]\n"
        "  stp x27, x28, [sp, #64]\n"
        "  stp x29, x30, [sp, #80]\n"
        "  stp d8, d9, [sp, #96]\n"
        "  stp d10, d11, [sp, #112]\n"
        "  stp d12, d13, [sp, #128]\n"
        "  stp d14, d15, [sp, #144]\n"
        "  mov x2, sp\n"
        "  str x2, [x0]\n"
        "  mov sp, x1\n"
        "  ldp x19, x20, [sp, #0]\n"
        "  ldp x21, x22, [sp, #16]\n"
        "  ldp x23, x24, [sp, #32]\n"
        "  ldp x25, x26, [sp, #48]\n"
        "  ldp x27, x28, [sp, #64]\n"
        "  ldp x29, x30, [sp, #80]\n"
        "  ldp d8, d9, [sp, #96]\n"
        "  ldp d10, d11, [sp, #112]\n"
        "  ldp d12, d13, [sp, #128]\n"
        "  ldp d14, d15, [sp, #144]\n"
        "  add sp, sp, #160\n"
        "  ret\n"
        ".size dlcrt_emu_switch, .-dlcrt_emu_switch\n"
        ".globl dlcrt_emu_start\n"
        ".hidden dlcrt_emu_start\n"
        ".type dlcrt_emu_start,%function\n"
        "dlcrt_emu_start:\n"
        "  mov x0, x19\n"
        "  bl dlcrt_emu_fiber_main\n"
        "  brk #0\n"
        ".size dlcrt_emu_start, .-dlcrt_emu_start\n");
enum { kFrameWords = 20 }; /* x19..x30, d8..d15 */

static void *initial_stack(char *top, fiber *f) {
  void **sp = (void **)top - kFrameWords;
  memset(sp, 0, kFrameWords * sizeof(void *));
  sp[0] = f;                         /* x19 */
  sp[11] = (void *)&dlcrt_emu_start; /* x30 */
  return sp;
}
#endif

static void resume(dlcrt_emu_scheduler *s, fiber *f) {
  dlcrt_emu_switch(&s->main_sp, f->sp);
}

static void yield(fiber *f) { dlcrt_emu_switch(&f->sp, f->scheduler->main_sp); }
#else  /* DLC_EMU_UCONTEXT */
static void fiber_entry(unsigned hi, unsigned lo);
void dlcrt_emu_fiber_main(fiber *f);

static void resume(dlcrt_emu_scheduler *s, fiber *f) {
  swapcontext(&s->main_context, &f->context);
}

static void yield(fiber *f) {
  swapcontext(&f->context, &f->scheduler->main_context);
}

static void fiber_entry(unsigned hi, unsigned lo) {
  dlcrt_emu_fiber_main((fiber *)(((uintptr_t)hi << 32) | (uintptr_t)lo));
}
#endif

void dlcrt_emu_fiber_main(fiber *f) {
  dlcrt_emu_scheduler *s = f->scheduler;
  s->kernel(s->params, s->shared, f->info);
  if (f->pending)
    fail("thread %lld exits with %d asynchronous copies not waited for",
         (long long)f->info[DLC_EMU_LINEAR_THREAD], f->pending);
  f->state = kDone;
  yield(f);
  fail("a finished fiber was resumed");
}

/*===- the per-thread scheduler -------------------------------------------===*/

static pthread_key_t scheduler_key;
static pthread_once_t scheduler_once = PTHREAD_ONCE_INIT;

static void destroy_scheduler(void *p) {
  dlcrt_emu_scheduler *s = p;
  if (!s)
    return;
  if (s->stacks)
    munmap(s->stacks, s->map_size);
  free(s->fibers);
  free(s->shared);
  free(s);
}

static void make_key(void) {
  if (pthread_key_create(&scheduler_key, destroy_scheduler) != 0)
    fail("cannot create a thread-local key");
}

/* The calling thread's scheduler with room for `threads` fibers and
 * `shared` bytes of shared memory. */
static dlcrt_emu_scheduler *scheduler_for(int threads, size_t shared) {
  pthread_once(&scheduler_once, make_key);
  dlcrt_emu_scheduler *s = pthread_getspecific(scheduler_key);
  if (!s) {
    s = calloc(1, sizeof(*s));
    if (!s || pthread_setspecific(scheduler_key, s) != 0)
      fail("out of memory");
    s->page = (size_t)sysconf(_SC_PAGESIZE);
  }
  if (threads > s->capacity) {
    if (s->stacks)
      munmap(s->stacks, s->map_size);
    free(s->fibers);
    size_t slot = s->page + kStackSize;
    s->map_size = slot * (size_t)threads;
    s->stacks = mmap(NULL, s->map_size, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    s->fibers = calloc((size_t)threads, sizeof(fiber));
    if (s->stacks == MAP_FAILED || !s->fibers)
      fail("cannot allocate %d fibers", threads);
    /* A guard page below each stack turns an overflow into a fault. */
    for (int i = 0; i < threads; ++i)
      mprotect(s->stacks + slot * (size_t)i, s->page, PROT_NONE);
    s->capacity = threads;
  }
  if (shared > s->shared_capacity) {
    free(s->shared);
    s->shared = malloc(shared);
    if (!s->shared)
      fail("cannot allocate %zu bytes of shared memory", shared);
    s->shared_capacity = shared;
  }
  return s;
}

static void set_ids(int64_t *info, const int64_t grid[3],
                    const int64_t block[3], const int64_t bid[3],
                    int64_t linear, dlcrt_emu_scheduler *s) {
  memset(info, 0, DLC_EMU_INFO_SIZE * sizeof(int64_t));
  for (int d = 0; d < 3; ++d) {
    info[DLC_EMU_BLOCK_ID + d] = bid[d];
    info[DLC_EMU_BLOCK_DIM + d] = block[d];
    info[DLC_EMU_GRID_DIM + d] = grid[d];
  }
  info[DLC_EMU_THREAD_ID + 0] = linear % block[0];
  info[DLC_EMU_THREAD_ID + 1] = linear / block[0] % block[1];
  info[DLC_EMU_THREAD_ID + 2] = linear / (block[0] * block[1]);
  info[DLC_EMU_LINEAR_THREAD] = linear;
  info[DLC_EMU_SCHEDULER] = (int64_t)(intptr_t)s;
}

static fiber *fiber_of(int64_t *info) {
  return (fiber *)((char *)info - offsetof(fiber, info));
}

/* The source lane of a shuffle and whether it is valid (in the lane's
 * segment of `width` lanes). */
static int shuffle_source(int lane, const fiber *f, int *source) {
  int width = f->width;
  if (width <= 0 || width > kWarpSize)
    fail("shuffle width %d (lane %d)", width, lane);
  int base = lane / width * width, src;
  switch (f->mode) {
  case DLC_EMU_SHUFFLE_XOR: src = base + ((lane - base) ^ f->offset); break;
  case DLC_EMU_SHUFFLE_UP: src = lane - f->offset; break;
  case DLC_EMU_SHUFFLE_DOWN: src = lane + f->offset; break;
  case DLC_EMU_SHUFFLE_IDX: src = base + f->offset; break;
  default: fail("shuffle mode %d (lane %d)", f->mode, lane);
  }
  *source = src;
  return src >= base && src < base + width && f->offset >= 0;
}

/* Whether the live lanes of the warp of block threads [w, end) all wait in
 * `state` (and at least one does), with how many wait and how many have
 * exited. */
static int warp_waits_at(const dlcrt_emu_scheduler *s, int w, int end,
                         int state, int *waiting, int *done) {
  *waiting = *done = 0;
  for (int t = w; t < end; ++t) {
    *waiting += s->fibers[t].state == state;
    *done += s->fibers[t].state == kDone;
  }
  return *waiting && *waiting + *done == end - w;
}

/* Releases the warps whose live lanes all wait at a shuffle; returns how
 * many were released. */
static int release_shuffles(dlcrt_emu_scheduler *s) {
  int released = 0;
  for (int w = 0; w < s->threads; w += kWarpSize) {
    int end = w + kWarpSize < s->threads ? w + kWarpSize : s->threads;
    int waiting, done;
    if (!warp_waits_at(s, w, end, kAtShuffle, &waiting, &done))
      continue;
    if (done)
      fail("a warp shuffle (block threads %d..%d) runs with %d exited lanes",
           w, end - 1, done);
    for (int t = w; t < end; ++t) {
      fiber *f = &s->fibers[t];
      int src = 0;
      int valid = shuffle_source(t - w, f, &src) && w + src < end;
      int32_t v = valid ? s->fibers[w + src].value : f->value;
      f->result = ((int64_t)valid << 32) | (int64_t)(uint32_t)v;
    }
    for (int t = w; t < end; ++t)
      s->fibers[t].state = kRunnable;
    ++released;
  }
  return released;
}

/* m16n8k8 tf32 (PTX ISA, "Matrix Fragments for mma.m16n8k8"): lane
 * l = 4 * group + t holds A[group][t], A[group + 8][t], A[group][t + 4],
 * A[group + 8][t + 4]; B[t][group], B[t + 4][group]; C and D at
 * [group][2t], [group][2t + 1], [group + 8][2t], [group + 8][2t + 1]. */
static void mma_m16n8k8(fiber *lanes) {
  float a[16][8], b[8][8], c[16][8];
  for (int l = 0; l < kWarpSize; ++l) {
    const float *f = lanes[l].fragments;
    int g = l / 4, t = l % 4;
    a[g][t] = f[0];
    a[g + 8][t] = f[1];
    a[g][t + 4] = f[2];
    a[g + 8][t + 4] = f[3];
    b[t][g] = f[4];
    b[t + 4][g] = f[5];
    c[g][2 * t] = f[6];
    c[g][2 * t + 1] = f[7];
    c[g + 8][2 * t] = f[8];
    c[g + 8][2 * t + 1] = f[9];
  }
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 8; ++j)
      for (int k = 0; k < 8; ++k)
        c[i][j] += a[i][k] * b[k][j];
  for (int l = 0; l < kWarpSize; ++l) {
    float *d = lanes[l].fragments + 10;
    int g = l / 4, t = l % 4;
    d[0] = c[g][2 * t];
    d[1] = c[g][2 * t + 1];
    d[2] = c[g + 8][2 * t];
    d[3] = c[g + 8][2 * t + 1];
  }
}

/* m16n8k16 f16/bf16 (PTX ISA, "Matrix Fragments for mma.m16n8k16"): lane
 * l = 4 * group + t holds A[group][2t..2t+1], A[group + 8][2t..2t+1],
 * A[group][2t + 8..2t + 9], A[group + 8][2t + 8..2t + 9];
 * B[2t..2t+1][group], B[2t + 8..2t + 9][group]; C and D as m16n8k8. */
static void mma_m16n8k16(fiber *lanes) {
  float a[16][16], b[16][8], c[16][8];
  for (int l = 0; l < kWarpSize; ++l) {
    const float *f = lanes[l].fragments;
    int g = l / 4, t = l % 4;
    for (int j = 0; j < 2; ++j) {
      a[g][2 * t + j] = f[0 + j];
      a[g + 8][2 * t + j] = f[2 + j];
      a[g][2 * t + 8 + j] = f[4 + j];
      a[g + 8][2 * t + 8 + j] = f[6 + j];
      b[2 * t + j][g] = f[8 + j];
      b[2 * t + 8 + j][g] = f[10 + j];
    }
    c[g][2 * t] = f[12];
    c[g][2 * t + 1] = f[13];
    c[g + 8][2 * t] = f[14];
    c[g + 8][2 * t + 1] = f[15];
  }
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 8; ++j)
      for (int k = 0; k < 16; ++k)
        c[i][j] += a[i][k] * b[k][j];
  for (int l = 0; l < kWarpSize; ++l) {
    float *d = lanes[l].fragments + 16;
    int g = l / 4, t = l % 4;
    d[0] = c[g][2 * t];
    d[1] = c[g][2 * t + 1];
    d[2] = c[g + 8][2 * t];
    d[3] = c[g + 8][2 * t + 1];
  }
}

/* ldmatrix: lane l receives, of matrix i, the 16-bit elements (l / 4,
 * 2 (l % 4) + j), j = 0, 1, of that matrix or of its transpose; row r of
 * matrix i is at the address lane 8 i + r gave. */
static void ldmatrix(fiber *lanes, int tiles, int transpose) {
  for (int l = 0; l < kWarpSize; ++l)
    for (int i = 0; i < tiles; ++i)
      for (int j = 0; j < 2; ++j) {
        int r = l / 4, c = 2 * (l % 4) + j;
        const unsigned char *src = transpose ? lanes[8 * i + c].row + 2 * r
                                             : lanes[8 * i + r].row + 2 * c;
        memcpy(lanes[l].out + 2 * (2 * i + j), src, 2);
      }
}

enum { kWarpMma = 1, kWarpLdmatrix = 2, kWarpgroupMma = 3 };
enum { kWarpgroupSize = 128 };

/* An IEEE half's value. */
static float half_to_float(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000) << 16, exp = (h >> 10) & 0x1F,
           mant = h & 0x3FF, bits;
  if (exp == 0) {
    float v = (float)mant * (1.0f / 16777216.0f); /* subnormal: mant 2^-24 */
    return sign ? -v : v;
  }
  if (exp == 31)
    bits = sign | 0x7F800000u | (mant << 13);
  else
    bits = sign | ((exp + 112) << 23) | (mant << 13);
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}

/* The host address of shared-memory byte `addr` (an 18-bit shared-window
 * address, as a descriptor holds it) of `bytes` bytes: the block's shared
 * memory taken modulo 2^18. */
static const unsigned char *shared_at(const dlcrt_emu_scheduler *s,
                                      uint64_t addr, int bytes) {
  uint64_t base = (uint64_t)(uintptr_t)s->shared;
  if (base % 16 != 0)
    fail("wgmma: the block's shared memory is not 16-byte aligned");
  uint64_t offset = (addr - (base & 0x3FFFF)) & 0x3FFFF;
  if (offset + (uint64_t)bytes > s->shared_capacity)
    fail("wgmma: descriptor address %#llx is outside the block's %zu bytes "
         "of shared memory",
         (unsigned long long)addr, s->shared_capacity);
  return (const unsigned char *)s->shared + offset;
}

/* Element (row, k) of a K-major matrix without swizzling (PTX ISA, "Shared
 * Memory Matrix Layout"): 8 x 16-byte core matrices, `sbo` bytes apart
 * along the rows, `lbo` along K. */
static float wgmma_operand(const dlcrt_emu_scheduler *s, int64_t desc, int row,
                           int k, int kind) {
  uint64_t d = (uint64_t)desc;
  uint64_t start = (d & 0x3FFF) << 4, lbo = ((d >> 16) & 0x3FFF) << 4,
           sbo = ((d >> 32) & 0x3FFF) << 4;
  int elt = kind == DLC_EMU_WGMMA_TF32 ? 4 : 2, per_row = 16 / elt;
  uint64_t addr = start + (uint64_t)(row / 8) * sbo + (uint64_t)(row % 8) * 16 +
                  (uint64_t)(k / per_row) * lbo + (uint64_t)(k % per_row) * elt;
  const unsigned char *p = shared_at(s, addr, elt);
  if (kind == DLC_EMU_WGMMA_TF32) {
    uint32_t bits;
    memcpy(&bits, p, 4);
    bits &= 0xFFFFE000u; /* the tensor cores read tf32: 10 mantissa bits */
    float f;
    memcpy(&f, &bits, 4);
    return f;
  }
  uint16_t h;
  memcpy(&h, p, 2);
  if (kind == DLC_EMU_WGMMA_BF16) {
    uint32_t bits = (uint32_t)h << 16;
    float f;
    memcpy(&f, &bits, 4);
    return f;
  }
  return half_to_float(h);
}

/* wgmma m64nNk8 (tf32) or m64nNk16 (f16, bf16) with f32 accumulators (PTX ISA,
 * "Register Fragments and Shared Memory Matrix Layouts" for wgmma): thread
 * 32w + 4g + t of the group holds D[16w + g + 8 (i / 2)][8j + 2t + i % 2]
 * as its element 4j + i. */
static void wgmma(const dlcrt_emu_scheduler *s, fiber *lanes) {
  const fiber *first = &lanes[0];
  int n = first->tiles, kind = first->warp_kind;
  int k = kind == DLC_EMU_WGMMA_TF32 ? 8 : 16;
  if (n < 8 || n > 256 || n % 8 != 0)
    fail("wgmma with n = %d (8 to 256, a multiple of 8)", n);
  if (kind != DLC_EMU_WGMMA_TF32 && kind != DLC_EMU_WGMMA_F16 &&
      kind != DLC_EMU_WGMMA_BF16)
    fail("unknown wgmma kind %d", kind);
  for (int i = 0; i < 2; ++i) {
    uint64_t d = (uint64_t)(i ? first->desc_b : first->desc_a);
    if (d >> 62)
      fail("wgmma: swizzled shared memory (mode %d) is not emulated",
           (int)(d >> 62));
    if ((d >> 49) & 7)
      fail("wgmma: a descriptor base offset is not emulated");
  }
  float a[64][16], b[256][16], c[64][256];
  for (int r = 0; r < 64; ++r)
    for (int kk = 0; kk < k; ++kk)
      a[r][kk] = wgmma_operand(s, first->desc_a, r, kk, kind);
  for (int r = 0; r < n; ++r)
    for (int kk = 0; kk < k; ++kk)
      b[r][kk] = wgmma_operand(s, first->desc_b, r, kk, kind);
  for (int l = 0; l < kWarpgroupSize; ++l) {
    int w = l / 32, g = (l % 32) / 4, t = l % 4;
    for (int j = 0; j < n / 8; ++j)
      for (int i = 0; i < 4; ++i)
        c[16 * w + g + 8 * (i / 2)][8 * j + 2 * t + i % 2] =
            lanes[l].fragments[4 * j + i];
  }
  for (int r = 0; r < 64; ++r)
    for (int col = 0; col < n; ++col)
      for (int kk = 0; kk < k; ++kk)
        c[r][col] += a[r][kk] * b[col][kk];
  for (int l = 0; l < kWarpgroupSize; ++l) {
    int w = l / 32, g = (l % 32) / 4, t = l % 4;
    for (int j = 0; j < n / 8; ++j)
      for (int i = 0; i < 4; ++i)
        lanes[l].fragments[4 * j + i] =
            c[16 * w + g + 8 * (i / 2)][8 * j + 2 * t + i % 2];
  }
}

/* Releases the warpgroups whose 128 threads all wait at a wgmma; returns how
 * many were released. */
static int release_warpgroup_ops(dlcrt_emu_scheduler *s) {
  int released = 0;
  for (int w = 0; w < s->threads; w += kWarpgroupSize) {
    int end = w + kWarpgroupSize < s->threads ? w + kWarpgroupSize : s->threads;
    int waiting = 0;
    for (int t = w; t < end; ++t)
      waiting += s->fibers[t].state == kAtWarpOp &&
                 s->fibers[t].warp_op == kWarpgroupMma;
    if (waiting != end - w)
      continue;
    if (end - w != kWarpgroupSize)
      fail("a wgmma (block threads %d..%d) runs with %d of 128 threads", w,
           end - 1, end - w);
    const fiber *first = &s->fibers[w];
    for (int t = w; t < end; ++t) {
      const fiber *f = &s->fibers[t];
      if (f->warp_kind != first->warp_kind || f->tiles != first->tiles ||
          f->desc_a != first->desc_a || f->desc_b != first->desc_b)
        fail("the threads of a warpgroup (block threads %d..%d) run a wgmma "
             "with different operands",
             w, end - 1);
    }
    wgmma(s, &s->fibers[w]);
    for (int t = w; t < end; ++t)
      s->fibers[t].state = kRunnable;
    ++released;
  }
  return released;
}

/* Releases the warps whose 32 lanes all wait at the same warp-level
 * instruction (mma.sync, ldmatrix); returns how many were released. */
static int release_warp_ops(dlcrt_emu_scheduler *s) {
  int released = 0;
  for (int w = 0; w < s->threads; w += kWarpSize) {
    int end = w + kWarpSize < s->threads ? w + kWarpSize : s->threads;
    int waiting, done;
    if (!warp_waits_at(s, w, end, kAtWarpOp, &waiting, &done) ||
        s->fibers[w].warp_op == kWarpgroupMma)
      continue;
    const fiber *first = &s->fibers[w];
    const char *name = first->warp_op == kWarpMma ? "mma.sync" : "ldmatrix";
    if (done || end - w != kWarpSize)
      fail("an %s (block threads %d..%d) runs with %d of 32 lanes", name, w,
           end - 1, waiting);
    for (int t = w; t < end; ++t) {
      const fiber *f = &s->fibers[t];
      if (f->warp_op != first->warp_op || f->warp_kind != first->warp_kind ||
          f->tiles != first->tiles || f->transpose != first->transpose)
        fail("the lanes of a warp (block threads %d..%d) wait at different "
             "warp-level instructions",
             w, end - 1);
    }
    if (first->warp_op == kWarpLdmatrix) {
      for (int t = w; t < w + 8 * first->tiles; ++t)
        if ((uintptr_t)s->fibers[t].row % 16 != 0)
          fail("ldmatrix: lane %d's row address is not 16-byte aligned", t - w);
      ldmatrix(&s->fibers[w], first->tiles, first->transpose);
    } else {
      switch (first->warp_kind) {
      case DLC_EMU_MMA_M16N8K8_TF32:
        mma_m16n8k8(&s->fibers[w]);
        break;
      case DLC_EMU_MMA_M16N8K16:
        mma_m16n8k16(&s->fibers[w]);
        break;
      default:
        fail("unknown mma.sync kind %d", first->warp_kind);
      }
    }
    for (int t = w; t < end; ++t)
      s->fibers[t].state = kRunnable;
    ++released;
  }
  return released;
}

static void run_block(dlcrt_emu_scheduler *s, const int64_t grid[3],
                      const int64_t block[3], const int64_t bid[3]) {
  size_t slot = s->page + kStackSize;
  for (int t = 0; t < s->threads; ++t) {
    fiber *f = &s->fibers[t];
    f->scheduler = s;
    f->state = kRunnable;
    f->pending = 0;
    set_ids(f->info, grid, block, bid, t, s);
    char *top = s->stacks + slot * (size_t)(t + 1);
#ifdef DLC_EMU_UCONTEXT
    getcontext(&f->context);
    f->context.uc_stack.ss_sp = top - kStackSize;
    f->context.uc_stack.ss_size = kStackSize;
    f->context.uc_link = NULL;
    uintptr_t p = (uintptr_t)f;
    makecontext(&f->context, (void (*)(void))fiber_entry, 2,
                (unsigned)(p >> 32), (unsigned)p);
#else
    f->sp = initial_stack(top, f);
#endif
  }
  for (;;) {
    for (int t = 0; t < s->threads; ++t)
      if (s->fibers[t].state == kRunnable)
        resume(s, &s->fibers[t]);
    int done = 0, barrier = 0;
    for (int t = 0; t < s->threads; ++t) {
      done += s->fibers[t].state == kDone;
      barrier += s->fibers[t].state == kAtBarrier;
    }
    if (done == s->threads)
      return;
    if (release_shuffles(s) || release_warp_ops(s) || release_warpgroup_ops(s))
      continue;
    if (barrier == s->threads) {
      for (int t = 0; t < s->threads; ++t)
        s->fibers[t].state = kRunnable;
      continue;
    }
    if (barrier + done == s->threads)
      fail("a barrier is reached by %d threads of a block while %d have "
           "exited",
           barrier, done);
    fail("deadlock: %d threads wait at a barrier while others wait at a "
         "shuffle or an mma.sync (%d exited)",
         barrier, done);
  }
}

void dlcrt_emu_launch(dlc_emu_kernel_fn kernel, void **params, int64_t grid_x,
                      int64_t grid_y, int64_t grid_z, int64_t block_x,
                      int64_t block_y, int64_t block_z, int64_t shared_bytes,
                      int32_t flags) {
  const int64_t grid[3] = {grid_x, grid_y, grid_z};
  const int64_t block[3] = {block_x, block_y, block_z};
  int64_t threads = block_x * block_y * block_z;
  /* A grid sized at run time may be empty: nothing to run (as the CUDA
   * runtime skips such launches). */
  if (grid_x == 0 || grid_y == 0 || grid_z == 0)
    return;
  if (threads <= 0 || threads > kMaxThreads || grid_x < 0 || grid_y < 0 ||
      grid_z < 0)
    fail("invalid launch: %lld threads per block, grid %lld x %lld x %lld",
         (long long)threads, (long long)grid_x, (long long)grid_y,
         (long long)grid_z);
  size_t shared = shared_bytes > 0 ? (size_t)shared_bytes : 0;
  int sync = (flags & DLC_EMU_SYNC) != 0;
  dlcrt_emu_scheduler *s = scheduler_for(sync ? (int)threads : 0, shared);
  s->kernel = kernel;
  s->params = params;
  s->threads = (int)threads;
  int64_t info[DLC_EMU_INFO_SIZE];
  int64_t bid[3];
  for (bid[2] = 0; bid[2] < grid_z; ++bid[2])
    for (bid[1] = 0; bid[1] < grid_y; ++bid[1])
      for (bid[0] = 0; bid[0] < grid_x; ++bid[0]) {
        /* Shared memory starts out as garbage on a GPU: NaN patterns here,
         * so that a kernel reading it before writing it is not hidden. */
        if (shared)
          memset(s->shared, 0xff, shared);
        if (sync) {
          run_block(s, grid, block, bid);
          continue;
        }
        for (int64_t t = 0; t < threads; ++t) {
          set_ids(info, grid, block, bid, t, NULL);
          kernel(params, s->shared, info);
        }
      }
}

static fiber *current_fiber(int64_t *info, const char *what) {
  if (!info[DLC_EMU_SCHEDULER])
    fail("%s in a kernel launched without DLC_EMU_SYNC (thread %lld)", what,
         (long long)info[DLC_EMU_LINEAR_THREAD]);
  return fiber_of(info);
}

void dlcrt_emu_barrier(int64_t *info) {
  fiber *f = current_fiber(info, "a barrier");
  f->state = kAtBarrier;
  yield(f);
}

void dlcrt_emu_async_copy(int64_t *info, int64_t dst, int64_t src,
                          int64_t bytes) {
  fiber *f = current_fiber(info, "an asynchronous copy");
  if (bytes != 4 && bytes != 8 && bytes != 16)
    fail("an asynchronous copy of %lld bytes (4, 8 or 16 exist)",
         (long long)bytes);
  if (f->pending == kMaxPendingCopies)
    fail("thread %lld issues more than %d asynchronous copies without "
         "waiting",
         (long long)info[DLC_EMU_LINEAR_THREAD], kMaxPendingCopies);
  if ((dst | src) % bytes != 0)
    fail("an asynchronous copy of %lld bytes between misaligned addresses",
         (long long)bytes);
  f->copies[f->pending].dst = (unsigned char *)(intptr_t)dst;
  f->copies[f->pending].bytes = (int)bytes;
  memcpy(f->copies[f->pending].data, (const void *)(intptr_t)src,
         (size_t)bytes);
  ++f->pending;
}

void dlcrt_emu_async_wait(int64_t *info) {
  fiber *f = current_fiber(info, "a wait for asynchronous copies");
  for (int i = 0; i < f->pending; ++i)
    memcpy(f->copies[i].dst, f->copies[i].data, (size_t)f->copies[i].bytes);
  f->pending = 0;
}

int64_t dlcrt_emu_shuffle(int64_t *info, int32_t value, int32_t offset,
                          int32_t width, int32_t mode) {
  fiber *f = current_fiber(info, "a shuffle");
  f->value = value;
  f->offset = offset;
  f->width = width;
  f->mode = mode;
  f->state = kAtShuffle;
  yield(f);
  return f->result;
}

void dlcrt_emu_mma_sync(int64_t *info, int64_t fragments, int32_t kind) {
  fiber *f = current_fiber(info, "an mma.sync");
  f->warp_op = kWarpMma;
  f->warp_kind = kind;
  f->tiles = f->transpose = 0;
  f->fragments = (float *)(intptr_t)fragments;
  f->state = kAtWarpOp;
  yield(f);
}

void dlcrt_emu_wgmma(int64_t *info, int64_t desc_a, int64_t desc_b, int64_t acc,
                     int32_t n, int32_t kind) {
  fiber *f = current_fiber(info, "a wgmma");
  f->warp_op = kWarpgroupMma;
  f->warp_kind = kind;
  f->tiles = n;
  f->transpose = 0;
  f->desc_a = desc_a;
  f->desc_b = desc_b;
  f->fragments = (float *)(intptr_t)acc;
  f->state = kAtWarpOp;
  yield(f);
}

void dlcrt_emu_ldmatrix(int64_t *info, int64_t row, int64_t out, int32_t tiles,
                        int32_t transpose) {
  fiber *f = current_fiber(info, "an ldmatrix");
  if (tiles != 1 && tiles != 2 && tiles != 4)
    fail("ldmatrix of %d matrices (1, 2 or 4 exist)", tiles);
  f->warp_op = kWarpLdmatrix;
  f->warp_kind = 0;
  f->tiles = tiles;
  f->transpose = transpose != 0;
  f->row = (const unsigned char *)(intptr_t)row;
  f->out = (unsigned char *)(intptr_t)out;
  f->state = kAtWarpOp;
  yield(f);
}
