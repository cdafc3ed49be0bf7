//===- EmulatorTest.cpp - the cuda-emulator's threads, barriers, shuffles -===//
//
// Hand-written kernels in the emulator's calling convention (what
// dlc-gpu-emulate-kernels produces): block reductions through shared memory
// and barriers, warp shuffles of every mode, barriers inside loops, the
// ids of 3-D grids and blocks, asynchronous copies (cp.async), and the
// warp- and warpgroup-level matrix instructions (mma.sync, ldmatrix,
// wgmma). Expected values are computed in the tests.
//
//===----------------------------------------------------------------------===//
#include "dlc/dlc_model_abi.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

namespace {

float shuffleF32(int64_t *info, float v, int offset, int width, int mode,
                 bool *valid = nullptr) {
  int32_t bits;
  std::memcpy(&bits, &v, 4);
  int64_t r = dlcrt_emu_shuffle(info, bits, offset, width, mode);
  if (valid)
    *valid = (r >> 32) & 1;
  int32_t out = static_cast<int32_t>(r & 0xffffffff);
  float f;
  std::memcpy(&f, &out, 4);
  return f;
}

// out[block] = sum of in[block * n + t] over the block's n threads: each
// thread stores its value in shared memory, then thread 0 adds them after a
// barrier (it must see every other thread's store).
void sharedSum(void **params, void *shared, int64_t *info) {
  const float *in = *static_cast<float **>(params[0]);
  float *out = *static_cast<float **>(params[1]);
  float *s = static_cast<float *>(shared);
  int64_t t = info[DLC_EMU_THREAD_ID], n = info[DLC_EMU_BLOCK_DIM];
  int64_t b = info[DLC_EMU_BLOCK_ID];
  s[t] = in[b * n + t];
  dlcrt_emu_barrier(info);
  if (t == 0) {
    float acc = 0;
    for (int64_t i = 0; i < n; ++i)
      acc += s[i];
    out[b] = acc;
  }
}

TEST(Emulator, SharedMemoryAndBarrier) {
  std::vector<float> in(4 * 128), out(4, -1);
  for (size_t i = 0; i < in.size(); ++i)
    in[i] = static_cast<float>(i % 7);
  float *inPtr = in.data(), *outPtr = out.data();
  void *params[] = {&inPtr, &outPtr};
  dlcrt_emu_launch(sharedSum, params, 4, 1, 1, 128, 1, 1, 128 * 4,
                   DLC_EMU_SYNC);
  for (int b = 0; b < 4; ++b) {
    float expect = 0;
    for (int t = 0; t < 128; ++t)
      expect += in[b * 128 + t];
    EXPECT_EQ(out[b], expect) << "block " << b;
  }
}

// A butterfly (xor) warp reduction: every lane ends with the warp's sum.
void warpSum(void **params, void *, int64_t *info) {
  const float *in = *static_cast<float **>(params[0]);
  float *out = *static_cast<float **>(params[1]);
  int64_t t = info[DLC_EMU_LINEAR_THREAD];
  float v = in[t];
  for (int offset = 16; offset > 0; offset /= 2)
    v += shuffleF32(info, v, offset, 32, DLC_EMU_SHUFFLE_XOR);
  out[t] = v;
}

TEST(Emulator, XorShuffleReduction) {
  std::vector<float> in(64), out(64);
  for (int i = 0; i < 64; ++i)
    in[i] = static_cast<float>(i);
  float *inPtr = in.data(), *outPtr = out.data();
  void *params[] = {&inPtr, &outPtr};
  dlcrt_emu_launch(warpSum, params, 1, 1, 1, 64, 1, 1, 0, DLC_EMU_SYNC);
  for (int i = 0; i < 64; ++i)
    EXPECT_EQ(out[i], i < 32 ? 496.0f : 1520.0f) << "thread " << i;
}

// One shuffle per mode, width 8: out[4 * t + m] = result, valid[...] flag.
void allModes(void **params, void *, int64_t *info) {
  float *out = *static_cast<float **>(params[0]);
  int *valid = *static_cast<int **>(params[1]);
  int64_t t = info[DLC_EMU_LINEAR_THREAD];
  float v = static_cast<float>(100 + t);
  const int offsets[4] = {3, 2, 2, 5};
  for (int m = 0; m < 4; ++m) {
    bool ok = false;
    out[4 * t + m] = shuffleF32(info, v, offsets[m], 8, m, &ok);
    valid[4 * t + m] = ok;
  }
}

TEST(Emulator, ShuffleModes) {
  std::vector<float> out(4 * 32);
  std::vector<int> valid(4 * 32);
  float *outPtr = out.data();
  int *validPtr = valid.data();
  void *params[] = {&outPtr, &validPtr};
  dlcrt_emu_launch(allModes, params, 1, 1, 1, 32, 1, 1, 0, DLC_EMU_SYNC);
  for (int t = 0; t < 32; ++t) {
    int base = t / 8 * 8, lane = t - base;
    int src[4] = {base + (lane ^ 3), t - 2, t + 2, base + 5};
    bool ok[4] = {true, lane >= 2, lane + 2 < 8, true};
    for (int m = 0; m < 4; ++m) {
      EXPECT_EQ(valid[4 * t + m], ok[m]) << "thread " << t << " mode " << m;
      EXPECT_EQ(out[4 * t + m], 100.0f + (ok[m] ? src[m] : t))
          << "thread " << t << " mode " << m;
    }
  }
}

// A loop with two barriers per step, as in a shared-memory tiled kernel:
// each step, thread t writes s[t] = step * 10 + t, then reads its
// neighbour's value; the second barrier keeps the next step's writes from
// racing ahead of the reads.
void ringLoop(void **params, void *shared, int64_t *info) {
  float *out = *static_cast<float **>(params[0]);
  float *s = static_cast<float *>(shared);
  int64_t t = info[DLC_EMU_THREAD_ID], n = info[DLC_EMU_BLOCK_DIM];
  float acc = 0;
  for (int step = 0; step < 5; ++step) {
    s[t] = static_cast<float>(step * 10 + t);
    dlcrt_emu_barrier(info);
    acc += s[(t + 1) % n];
    dlcrt_emu_barrier(info);
  }
  out[t] = acc;
}

TEST(Emulator, BarriersInLoops) {
  std::vector<float> out(96);
  float *outPtr = out.data();
  void *params[] = {&outPtr};
  dlcrt_emu_launch(ringLoop, params, 1, 1, 1, 96, 1, 1, 96 * 4, DLC_EMU_SYNC);
  for (int t = 0; t < 96; ++t)
    EXPECT_EQ(out[t], 5.0f * ((t + 1) % 96) + 100.0f) << "thread " << t;
}

// Every thread of a 3-D launch writes its ids.
void ids(void **params, void *, int64_t *info) {
  int64_t *out = *static_cast<int64_t **>(params[0]);
  int64_t bx = info[DLC_EMU_BLOCK_ID], by = info[DLC_EMU_BLOCK_ID + 1],
          bz = info[DLC_EMU_BLOCK_ID + 2];
  int64_t tx = info[DLC_EMU_THREAD_ID], ty = info[DLC_EMU_THREAD_ID + 1],
          tz = info[DLC_EMU_THREAD_ID + 2];
  int64_t block = bx + 2 * (by + 3 * bz);
  int64_t thread = tx + 4 * (ty + 2 * tz);
  out[block * 24 + thread] = 1000 * block + thread;
  EXPECT_EQ(info[DLC_EMU_LINEAR_THREAD], thread);
  EXPECT_EQ(info[DLC_EMU_GRID_DIM + 2], 2);
  EXPECT_EQ(info[DLC_EMU_BLOCK_DIM + 1], 2);
}

TEST(Emulator, ThreeDimensionalIds) {
  for (int32_t flags : {0, static_cast<int32_t>(DLC_EMU_SYNC)}) {
    std::vector<int64_t> out(12 * 24, -1);
    int64_t *outPtr = out.data();
    void *params[] = {&outPtr};
    dlcrt_emu_launch(ids, params, 2, 3, 2, 4, 2, 3, 0, flags);
    for (int b = 0; b < 12; ++b)
      for (int t = 0; t < 24; ++t)
        EXPECT_EQ(out[b * 24 + t], 1000 * b + t);
  }
}

// Thread 0 skips the barrier the others wait at: undefined on a GPU, an
// error here.
void divergent(void **, void *, int64_t *info) {
  if (info[DLC_EMU_THREAD_ID] != 0)
    dlcrt_emu_barrier(info);
}

TEST(EmulatorDeathTest, DivergentBarrier) {
  EXPECT_DEATH(
      dlcrt_emu_launch(divergent, nullptr, 1, 1, 1, 64, 1, 1, 0, DLC_EMU_SYNC),
      "a barrier is reached by 63 threads of a block while 1 have exited");
}

TEST(EmulatorDeathTest, BarrierWithoutSyncFlag) {
  EXPECT_DEATH(dlcrt_emu_launch(divergent, nullptr, 1, 1, 1, 2, 1, 1, 0, 0),
               "a barrier in a kernel launched without DLC_EMU_SYNC");
}

// cp.async: each thread copies 16 bytes of `in` into shared memory
// asynchronously, records what its slot holds before the wait (the shared
// memory's initial 0xff bytes: the copy has not landed), waits, and after a
// barrier reads its neighbour's slot (landed). The source is read at issue:
// overwriting it before the wait changes nothing.
void asyncCopies(void **params, void *shared, int64_t *info) {
  float *in = *static_cast<float **>(params[0]);
  float *out = *static_cast<float **>(params[1]);
  uint32_t *before = *static_cast<uint32_t **>(params[2]);
  float *s = static_cast<float *>(shared);
  int64_t t = info[DLC_EMU_THREAD_ID], n = info[DLC_EMU_BLOCK_DIM];
  dlcrt_emu_async_copy(info, reinterpret_cast<intptr_t>(s + 4 * t),
                       reinterpret_cast<intptr_t>(in + 4 * t), 16);
  std::memcpy(&before[t], &s[4 * t], 4);
  dlcrt_emu_barrier(info);
  in[4 * t] = -1;
  dlcrt_emu_async_wait(info);
  dlcrt_emu_barrier(info);
  int64_t next = (t + 1) % n;
  for (int i = 0; i < 4; ++i)
    out[4 * t + i] = s[4 * next + i];
}

TEST(Emulator, AsyncCopiesLandAtTheWait) {
  const int n = 8;
  std::vector<float> in(4 * n), out(4 * n, 0), expect(4 * n);
  for (int i = 0; i < 4 * n; ++i)
    in[i] = static_cast<float>(i) + 0.5f;
  for (int t = 0; t < n; ++t)
    for (int i = 0; i < 4; ++i)
      expect[4 * t + i] = in[4 * ((t + 1) % n) + i];
  std::vector<uint32_t> before(n, 0);
  float *inPtr = in.data(), *outPtr = out.data();
  uint32_t *beforePtr = before.data();
  void *params[] = {&inPtr, &outPtr, &beforePtr};
  dlcrt_emu_launch(asyncCopies, params, 1, 1, 1, n, 1, 1, 4 * n * 4,
                   DLC_EMU_SYNC);
  EXPECT_EQ(out, expect);
  for (uint32_t b : before)
    EXPECT_EQ(b, 0xffffffffu);
}

// A thread that never waits for its copies.
void unwaitedCopy(void **params, void *shared, int64_t *info) {
  float *in = *static_cast<float **>(params[0]);
  dlcrt_emu_async_copy(info, reinterpret_cast<intptr_t>(shared),
                       reinterpret_cast<intptr_t>(in), 16);
  dlcrt_emu_barrier(info);
}

TEST(EmulatorDeathTest, AsyncCopyNotWaitedFor) {
  alignas(16) float in[4] = {1, 2, 3, 4};
  float *inPtr = in;
  void *params[] = {&inPtr};
  EXPECT_DEATH(dlcrt_emu_launch(unwaitedCopy, params, 1, 1, 1, 2, 1, 1, 16,
                                DLC_EMU_SYNC),
               "thread 0 exits with 1 asynchronous copies not waited for");
}

} // namespace

// mma.sync m16n8k8 tf32 in each of a block's two warps: every lane loads
// its fragments of A (16 x 8), B (8 x 8) and C (16 x 8) at the places the
// PTX ISA gives them (lane = 4 * group + t: A[group (+8)][t (+4)],
// B[t (+4)][group], C[group (+8)][2t (+1)]) and stores its part of D the
// same way as C.
void warpMma(void **params, void *, int64_t *info) {
  const float *a = *static_cast<float **>(params[0]); // [2][16][8]
  const float *b = *static_cast<float **>(params[1]); // [2][8][8]
  const float *c = *static_cast<float **>(params[2]); // [2][16][8]
  float *d = *static_cast<float **>(params[3]);       // [2][16][8]
  int64_t t = info[DLC_EMU_LINEAR_THREAD];
  int64_t w = t / 32, lane = t % 32, g = lane / 4, q = lane % 4;
  a += w * 128;
  b += w * 64;
  c += w * 128;
  d += w * 128;
  float f[14] = {a[g * 8 + q],           a[(g + 8) * 8 + q],
                 a[g * 8 + q + 4],       a[(g + 8) * 8 + q + 4],
                 b[q * 8 + g],           b[(q + 4) * 8 + g],
                 c[g * 8 + 2 * q],       c[g * 8 + 2 * q + 1],
                 c[(g + 8) * 8 + 2 * q], c[(g + 8) * 8 + 2 * q + 1]};
  dlcrt_emu_mma_sync(info, static_cast<int64_t>(reinterpret_cast<intptr_t>(f)),
                     DLC_EMU_MMA_M16N8K8_TF32);
  d[g * 8 + 2 * q] = f[10];
  d[g * 8 + 2 * q + 1] = f[11];
  d[(g + 8) * 8 + 2 * q] = f[12];
  d[(g + 8) * 8 + 2 * q + 1] = f[13];
}

TEST(Emulator, MmaSyncM16N8K8) {
  std::vector<float> a(2 * 128), b(2 * 64), c(2 * 128), d(2 * 128, -1);
  for (size_t i = 0; i < a.size(); ++i)
    a[i] = static_cast<float>(static_cast<int>(i * 7 % 11) - 5);
  for (size_t i = 0; i < b.size(); ++i)
    b[i] = static_cast<float>(static_cast<int>(i * 5 % 9) - 4);
  for (size_t i = 0; i < c.size(); ++i)
    c[i] = static_cast<float>(i % 3);
  float *pa = a.data(), *pb = b.data(), *pc = c.data(), *pd = d.data();
  void *params[] = {&pa, &pb, &pc, &pd};
  dlcrt_emu_launch(warpMma, params, 1, 1, 1, 64, 1, 1, 0, DLC_EMU_SYNC);
  for (int w = 0; w < 2; ++w)
    for (int i = 0; i < 16; ++i)
      for (int j = 0; j < 8; ++j) {
        float expect = c[w * 128 + i * 8 + j];
        for (int k = 0; k < 8; ++k)
          expect += a[w * 128 + i * 8 + k] * b[w * 64 + k * 8 + j];
        EXPECT_EQ(d[w * 128 + i * 8 + j], expect)
            << "warp " << w << " D[" << i << "][" << j << "]";
      }
}

// A lane that leaves before its warp's mma.sync: the warp cannot run it.
void mmaWithExitedLane(void **, void *, int64_t *info) {
  float f[14] = {};
  if (info[DLC_EMU_LINEAR_THREAD] == 5)
    return;
  dlcrt_emu_mma_sync(info, static_cast<int64_t>(reinterpret_cast<intptr_t>(f)),
                     DLC_EMU_MMA_M16N8K8_TF32);
}

TEST(EmulatorDeathTest, MmaSyncNeedsEveryLane) {
  EXPECT_DEATH(dlcrt_emu_launch(mmaWithExitedLane, nullptr, 1, 1, 1, 32, 1, 1,
                                0, DLC_EMU_SYNC),
               "an mma.sync \\(block threads 0..31\\) runs with 31 of 32 "
               "lanes");
}

// ldmatrix .x4 (and .trans) of four 8 x 8 matrices of 16-bit values in
// shared memory, rows 16-byte aligned: lane l supplies row l % 8 of matrix
// l / 8 and receives, of each matrix i, elements (l / 4, 2 (l % 4) + j)
// (of the transpose with .trans) in out[2 i + j].
void warpLdmatrix(void **params, void *shared, int64_t *info) {
  const uint16_t *in = *static_cast<uint16_t **>(params[0]); // [4][8][8]
  uint16_t *out = *static_cast<uint16_t **>(params[1]);      // [2][32][8]
  int64_t lane = info[DLC_EMU_LINEAR_THREAD];
  uint16_t *s = static_cast<uint16_t *>(shared);
  for (int i = 0; i < 8; ++i)
    s[lane * 8 + i] = in[lane * 8 + i];
  dlcrt_emu_barrier(info);
  for (int transpose = 0; transpose < 2; ++transpose) {
    uint16_t got[8];
    dlcrt_emu_ldmatrix(
        info, static_cast<int64_t>(reinterpret_cast<intptr_t>(s + lane * 8)),
        static_cast<int64_t>(reinterpret_cast<intptr_t>(got)), 4, transpose);
    std::memcpy(out + (transpose * 32 + lane) * 8, got, sizeof got);
  }
}

TEST(Emulator, Ldmatrix) {
  std::vector<uint16_t> in(256), out(512, 0xffff);
  for (int i = 0; i < 256; ++i)
    in[i] = static_cast<uint16_t>(1000 + i);
  uint16_t *pin = in.data(), *pout = out.data();
  void *params[] = {&pin, &pout};
  dlcrt_emu_launch(warpLdmatrix, params, 1, 1, 1, 32, 1, 1, 512, DLC_EMU_SYNC);
  for (int transpose = 0; transpose < 2; ++transpose)
    for (int l = 0; l < 32; ++l)
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 2; ++j) {
          int r = l / 4, c = 2 * (l % 4) + j;
          int expect =
              transpose ? in[i * 64 + c * 8 + r] : in[i * 64 + r * 8 + c];
          EXPECT_EQ(out[(transpose * 32 + l) * 8 + 2 * i + j], expect)
              << "transpose " << transpose << " lane " << l << " matrix " << i;
        }
}

// mma.sync m16n8k16 (f16 or bf16 operands, given widened to floats): lane
// l = 4 g + t holds A[g][2t..], A[g + 8][2t..], A[g][2t + 8..],
// A[g + 8][2t + 8..] (two each), B[2t..][g], B[2t + 8..][g], C as m16n8k8.
void warpMmaK16(void **params, void *, int64_t *info) {
  const float *a = *static_cast<float **>(params[0]); // [16][16]
  const float *b = *static_cast<float **>(params[1]); // [16][8]
  float *d = *static_cast<float **>(params[2]);       // [16][8], C = 1
  int64_t lane = info[DLC_EMU_LINEAR_THREAD], g = lane / 4, t = lane % 4;
  float f[20];
  for (int j = 0; j < 2; ++j) {
    f[0 + j] = a[g * 16 + 2 * t + j];
    f[2 + j] = a[(g + 8) * 16 + 2 * t + j];
    f[4 + j] = a[g * 16 + 2 * t + 8 + j];
    f[6 + j] = a[(g + 8) * 16 + 2 * t + 8 + j];
    f[8 + j] = b[(2 * t + j) * 8 + g];
    f[10 + j] = b[(2 * t + 8 + j) * 8 + g];
  }
  for (int i = 12; i < 16; ++i)
    f[i] = 1.0f;
  dlcrt_emu_mma_sync(info, static_cast<int64_t>(reinterpret_cast<intptr_t>(f)),
                     DLC_EMU_MMA_M16N8K16);
  d[g * 8 + 2 * t] = f[16];
  d[g * 8 + 2 * t + 1] = f[17];
  d[(g + 8) * 8 + 2 * t] = f[18];
  d[(g + 8) * 8 + 2 * t + 1] = f[19];
}

TEST(Emulator, MmaSyncM16N8K16) {
  std::vector<float> a(256), b(128), d(128, -1);
  for (int i = 0; i < 256; ++i)
    a[i] = static_cast<float>(i * 7 % 13) - 6;
  for (int i = 0; i < 128; ++i)
    b[i] = static_cast<float>(i * 3 % 7) - 3;
  float *pa = a.data(), *pb = b.data(), *pd = d.data();
  void *params[] = {&pa, &pb, &pd};
  dlcrt_emu_launch(warpMmaK16, params, 1, 1, 1, 32, 1, 1, 0, DLC_EMU_SYNC);
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 8; ++j) {
      float expect = 1.0f;
      for (int k = 0; k < 16; ++k)
        expect += a[i * 16 + k] * b[k * 8 + j];
      EXPECT_EQ(d[i * 8 + j], expect) << "D[" << i << "][" << j << "]";
    }
}

// ldmatrix rows must be 16-byte aligned, as on the GPU.
void misalignedLdmatrix(void **, void *shared, int64_t *info) {
  uint16_t got[8];
  int64_t lane = info[DLC_EMU_LINEAR_THREAD];
  char *row = static_cast<char *>(shared) + 2 + 16 * lane;
  dlcrt_emu_ldmatrix(
      info, static_cast<int64_t>(reinterpret_cast<intptr_t>(row)),
      static_cast<int64_t>(reinterpret_cast<intptr_t>(got)), 1, 0);
}

TEST(EmulatorDeathTest, LdmatrixNeedsAlignedRows) {
  EXPECT_DEATH(dlcrt_emu_launch(misalignedLdmatrix, nullptr, 1, 1, 1, 32, 1, 1,
                                1024, DLC_EMU_SYNC),
               "ldmatrix: lane 0's row address is not 16-byte aligned");
}

// wgmma (dlcrt_emu_wgmma): a warpgroup multiplies A (64 x K) and B (N x K),
// both K-major in shared memory without swizzling, given by descriptors
// whose leading (K) and stride (8-row) byte offsets differ from dlc's own
// layout: A's two K core matrices of each 8-row group side by side (LBO 128,
// SBO 256), B's 8-row groups 128 bytes apart and its K blocks after all of
// them (LBO = N / 8 * 128). Thread 32w + 4g + t holds D[16w + g + 8 (i / 2)]
// [8j + 2t + i % 2] as element 4j + i.
constexpr int kWgN = 16;

uint64_t wgDescriptor(const void *tile, uint64_t lbo, uint64_t sbo) {
  uint64_t addr = reinterpret_cast<uintptr_t>(tile) & 0x3FFFF;
  return (addr >> 4) | ((lbo >> 4) << 16) | ((sbo >> 4) << 32);
}

// A K-major element's byte offset: `per` elements per 16-byte row.
size_t wgOffset(int row, int k, int per, int elt, size_t lbo, size_t sbo) {
  return (row / 8) * sbo + (row % 8) * 16 + (k / per) * lbo + (k % per) * elt;
}

template <typename T, int K>
void warpgroupMma(void **params, void *shared, int64_t *info) {
  const T *a = *static_cast<T **>(params[0]);         // [64][K]
  const T *b = *static_cast<T **>(params[1]);         // [kWgN][K]
  const float *c = *static_cast<float **>(params[2]); // [64][kWgN]
  float *d = *static_cast<float **>(params[3]);
  int kind = *static_cast<int *>(params[4]);
  int64_t l = info[DLC_EMU_LINEAR_THREAD];
  char *s = static_cast<char *>(shared);
  constexpr int elt = sizeof(T), per = 16 / elt;
  char *tileA = s, *tileB = s + 64 * K * elt;
  size_t lboB = kWgN / 8 * 128;
  if (l == 0) {
    for (int r = 0; r < 64; ++r)
      for (int k = 0; k < K; ++k)
        std::memcpy(tileA + wgOffset(r, k, per, elt, 128, 256), &a[r * K + k],
                    elt);
    for (int r = 0; r < kWgN; ++r)
      for (int k = 0; k < K; ++k)
        std::memcpy(tileB + wgOffset(r, k, per, elt, lboB, 128), &b[r * K + k],
                    elt);
  }
  dlcrt_emu_barrier(info);
  int w = l / 32, g = l % 32 / 4, t = l % 4;
  float acc[kWgN / 2];
  auto at = [&](int j, int i) {
    return (16 * w + g + 8 * (i / 2)) * kWgN + 8 * j + 2 * t + i % 2;
  };
  for (int j = 0; j < kWgN / 8; ++j)
    for (int i = 0; i < 4; ++i)
      acc[4 * j + i] = c[at(j, i)];
  dlcrt_emu_wgmma(
      info, wgDescriptor(tileA, 128, 256), wgDescriptor(tileB, lboB, 128),
      static_cast<int64_t>(reinterpret_cast<intptr_t>(acc)), kWgN, kind);
  for (int j = 0; j < kWgN / 8; ++j)
    for (int i = 0; i < 4; ++i)
      d[at(j, i)] = acc[4 * j + i];
}

TEST(Emulator, WarpgroupMmaTf32) {
  constexpr int K = 8;
  std::vector<float> a(64 * K), b(kWgN * K), c(64 * kWgN), d(64 * kWgN, -1);
  for (size_t i = 0; i < a.size(); ++i)
    a[i] = static_cast<float>(static_cast<int>(i * 7 % 11) - 5);
  for (size_t i = 0; i < b.size(); ++i)
    b[i] = static_cast<float>(static_cast<int>(i * 5 % 9) - 4);
  for (size_t i = 0; i < c.size(); ++i)
    c[i] = static_cast<float>(i % 3);
  // The tensor cores read tf32, ignoring the low 13 bits: 1 + 3 * 2^-12
  // is read as 1 (to nearest, it would be 1 + 2^-10).
  a[3] = 1.0f + 3.0f / 4096;
  float *pa = a.data(), *pb = b.data(), *pc = c.data(), *pd = d.data();
  int kind = DLC_EMU_WGMMA_TF32;
  void *params[] = {&pa, &pb, &pc, &pd, &kind};
  dlcrt_emu_launch(warpgroupMma<float, K>, params, 1, 1, 1, 128, 1, 1,
                   (64 + kWgN) * K * 4, DLC_EMU_SYNC);
  a[3] = 1.0f;
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < kWgN; ++j) {
      float expect = c[i * kWgN + j];
      for (int k = 0; k < K; ++k)
        expect += a[i * K + k] * b[j * K + k];
      EXPECT_EQ(d[i * kWgN + j], expect) << "D[" << i << "][" << j << "]";
    }
}

// A 16-bit wgmma (`kind`) on operands drawn from `bits` (whose values are
// `values`, exact in f32) against the plain product.
void checkHalfWarpgroupMma(int kind, const uint16_t *bits, const float *values,
                           int count) {
  constexpr int K = 16;
  std::vector<uint16_t> a(64 * K), b(kWgN * K);
  std::vector<float> av(a.size()), bv(b.size()), c(64 * kWgN), d(64 * kWgN, -1);
  for (size_t i = 0; i < a.size(); ++i) {
    a[i] = bits[i * 5 % count];
    av[i] = values[i * 5 % count];
  }
  for (size_t i = 0; i < b.size(); ++i) {
    b[i] = bits[i * 3 % count];
    bv[i] = values[i * 3 % count];
  }
  for (size_t i = 0; i < c.size(); ++i)
    c[i] = static_cast<float>(i % 5);
  uint16_t *pa = a.data(), *pb = b.data();
  float *pc = c.data(), *pd = d.data();
  void *params[] = {&pa, &pb, &pc, &pd, &kind};
  dlcrt_emu_launch(warpgroupMma<uint16_t, K>, params, 1, 1, 1, 128, 1, 1,
                   (64 + kWgN) * K * 2, DLC_EMU_SYNC);
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < kWgN; ++j) {
      float expect = c[i * kWgN + j];
      for (int k = 0; k < K; ++k)
        expect += av[i * K + k] * bv[j * K + k];
      EXPECT_EQ(d[i * kWgN + j], expect) << "D[" << i << "][" << j << "]";
    }
}

TEST(Emulator, WarpgroupMmaF16) {
  // Halves of small values: 0, +-0.5, +-1, +-2.
  const uint16_t bits[] = {0x0000, 0x3800, 0xB800, 0x3C00,
                           0xBC00, 0x4000, 0xC000};
  const float values[] = {0, 0.5f, -0.5f, 1, -1, 2, -2};
  checkHalfWarpgroupMma(DLC_EMU_WGMMA_F16, bits, values, 7);
}

TEST(Emulator, WarpgroupMmaBf16) {
  // bf16 of 0, +-0.5, +-1, +-2, +-3 (the f32 values' high halves).
  const uint16_t bits[] = {0x0000, 0x3F00, 0xBF00, 0x3F80, 0xBF80,
                           0x4000, 0xC000, 0x4040, 0xC040};
  const float values[] = {0, 0.5f, -0.5f, 1, -1, 2, -2, 3, -3};
  checkHalfWarpgroupMma(DLC_EMU_WGMMA_BF16, bits, values, 9);
}

// A wgmma needs the 128 threads of its warpgroup.
void halfWarpgroupMma(void **, void *shared, int64_t *info) {
  float acc[4] = {};
  dlcrt_emu_wgmma(info, wgDescriptor(shared, 128, 256),
                  wgDescriptor(shared, 128, 128),
                  static_cast<int64_t>(reinterpret_cast<intptr_t>(acc)), 8,
                  DLC_EMU_WGMMA_TF32);
}

TEST(EmulatorDeathTest, WarpgroupMmaNeedsTheWholeGroup) {
  EXPECT_DEATH(dlcrt_emu_launch(halfWarpgroupMma, nullptr, 1, 1, 1, 64, 1, 1,
                                4096, DLC_EMU_SYNC),
               "a wgmma \\(block threads 0..63\\) runs with 64 of 128 threads");
}

// A descriptor outside the block's shared memory stops the emulator.
void wgmmaOutOfShared(void **, void *shared, int64_t *info) {
  float acc[4] = {};
  char *beyond = static_cast<char *>(shared) + 8192;
  dlcrt_emu_wgmma(info, wgDescriptor(beyond, 128, 256),
                  wgDescriptor(shared, 128, 128),
                  static_cast<int64_t>(reinterpret_cast<intptr_t>(acc)), 8,
                  DLC_EMU_WGMMA_TF32);
}

TEST(EmulatorDeathTest, WarpgroupMmaOutsideSharedMemory) {
  EXPECT_DEATH(dlcrt_emu_launch(wgmmaOutOfShared, nullptr, 1, 1, 1, 128, 1, 1,
                                4096, DLC_EMU_SYNC),
               "wgmma: descriptor address .* is outside the block's");
}
