//===- AsyncTest.cpp - async runs, CUDA sub-batches, kernel profiles -----===//
//
// Against the CUDA driver stand-in (FakeCuda.c), whose stream is
// asynchronous: copies from and to page-locked memory and launches of its
// one computing kernel, fake_add_one (y = x + 1), run only when the stream
// is synchronized. The models are hand-written descriptors whose entry
// launches fake_add_one over each call's tensors; expected values are
// computed by hand (x + 1).
//
//===----------------------------------------------------------------------===//
#include "dlc/dlc_model_abi.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>

namespace {

std::string takeMessage(dlc_status *s) {
  std::string msg = dlc_status_message(s);
  dlc_status_free(s);
  return msg;
}

struct FakeDriver {
  explicit FakeDriver(bool log = false) {
    setenv("DLC_CUDA_DRIVER", DLC_FAKE_CUDA_PATH, 1);
    if (log)
      setenv("DLC_FAKE_CUDA_LOG", "2", 1);
  }
  ~FakeDriver() {
    unsetenv("DLC_CUDA_DRIVER");
    unsetenv("DLC_FAKE_CUDA_LOG");
    unsetenv("DLC_FAKE_CUDA_NO_PINNED");
    unsetenv("DLC_FAKE_CUDA_FREE_BYTES");
    unsetenv("DLC_FAKE_CUDA_NO_EVENTS");
  }
};

const dlc_cuda_image kImages[] = {
    {90, 0,
     ".version 8.0\n.target sm_90\n.visible .entry fake_add_one(\n"
     ".param .u64 in, .param .u64 out, .param .u64 n\n)\n{\nret;\n}\n"}};
const char *const kKernels[] = {"fake_add_one"};
const uint32_t kShared[] = {0};
const char kConstants[64] = {};
const dlc_cuda_desc kCuda = {1, 1, kImages, kKernels, kShared, kConstants, 64};

// The entry of one call: x and y hold `elements` floats (args: x, y,
// workspace, constants, context).
int64_t elementsPerCall = 6;
void addOne(void **args) {
  void *params[] = {&args[0], &args[1], &elementsPerCall};
  dlcrt_cuda_launch(args[4], 0, 1, 1, 1, 32, 1, 1, params);
}

const int64_t kShape[] = {2, 3};
const dlc_tensor_desc kIn[] = {
    {"x", DLC_DTYPE_F32, 2, kShape, 24, -1, 0, kShape, kShape, nullptr}};
const dlc_tensor_desc kOut[] = {
    {"y", DLC_DTYPE_F32, 2, kShape, 24, -1, 0, kShape, kShape, nullptr}};

dlc_model_desc makeDesc(const char *name, const dlc_tensor_desc *in,
                        const dlc_tensor_desc *out, uint32_t split) {
  dlc_model_desc d;
  std::memset(&d, 0, sizeof d);
  d.abi_version = DLC_MODEL_ABI_VERSION;
  d.num_inputs = 1;
  d.num_outputs = 1;
  d.batch_split = split;
  d.model_name = name;
  d.inputs = in;
  d.outputs = out;
  d.workspace_size = 64;
  d.entry = addOne;
  d.cuda = &kCuda;
  return d;
}
const dlc_model_desc kStatic = makeDesc("static", kIn, kOut, 0);

dlc_tensor view(float *data, size_t bytes, const int64_t *shape) {
  return dlc_tensor{data, bytes, DLC_DTYPE_F32, 2, shape};
}

dlcrt_model *create(const dlc_model_desc *desc,
                    dlc_options *options = nullptr) {
  dlcrt_model *model = nullptr;
  dlc_status *s = dlcrt_model_create(desc, options, &model);
  EXPECT_EQ(s, nullptr) << takeMessage(s);
  return model;
}

// run_async returns with the work queued: the outputs are written by wait,
// the caller may refill its input buffer in between, and nothing
// synchronizes the stream before wait.
TEST(AsyncRun, OutputsArriveAtWaitAndInputsAreStaged) {
  for (int graphs : {DLC_CUDA_GRAPHS_AUTO, DLC_CUDA_GRAPHS_OFF}) {
    FakeDriver d(/*log=*/true);
    dlc_options options;
    dlc_options_init(&options);
    options.cuda_graphs = graphs;
    dlcrt_model *model = create(&kStatic, &options);
    ASSERT_NE(model, nullptr);
    for (int run = 0; run < 4; ++run) {
      float x[6], y[6];
      for (int i = 0; i < 6; ++i) {
        x[i] = float(10 * run + i);
        y[i] = -7;
      }
      dlc_tensor in = view(x, sizeof x, kShape),
                 out = view(y, sizeof y, kShape);
      testing::internal::CaptureStderr();
      dlc_status *s = dlcrt_model_run_async(model, &in, 1, &out, 1);
      std::string log = testing::internal::GetCapturedStderr();
      ASSERT_EQ(s, nullptr) << takeMessage(s);
      // Queued: the copies and the kernel have not run.
      EXPECT_EQ(log.find("queued operations run"), std::string::npos) << log;
      // The host prepares the next batch in the same buffer.
      for (int i = 0; i < 6; ++i) {
        EXPECT_EQ(y[i], -7.0f) << "run " << run << ": written before wait";
        x[i] = 1000;
      }
      s = dlcrt_model_wait(model);
      ASSERT_EQ(s, nullptr) << takeMessage(s);
      for (int i = 0; i < 6; ++i)
        EXPECT_EQ(y[i], float(10 * run + i) + 1) << "run " << run << " " << i;
    }
    // Nothing pending: wait has nothing to do.
    EXPECT_EQ(dlcrt_model_wait(model), nullptr);
    dlcrt_model_destroy(model);
  }
}

TEST(AsyncRun, OneRunInProgressAtATime) {
  FakeDriver d;
  dlcrt_model *model = create(&kStatic);
  ASSERT_NE(model, nullptr);
  float x[6] = {1, 2, 3, 4, 5, 6}, y[6] = {};
  dlc_tensor in = view(x, sizeof x, kShape), out = view(y, sizeof y, kShape);
  ASSERT_EQ(dlcrt_model_run_async(model, &in, 1, &out, 1), nullptr);
  for (bool async : {false, true}) {
    dlc_status *s = async ? dlcrt_model_run_async(model, &in, 1, &out, 1)
                          : dlcrt_model_run(model, &in, 1, &out, 1);
    EXPECT_EQ(dlc_status_code_of(s), DLC_INVALID_ARGUMENT);
    EXPECT_EQ(takeMessage(s),
              std::string(async ? "run_async" : "run") +
                  ": model 'static' has an asynchronous run in progress; "
                  "call wait before the next run");
  }
  ASSERT_EQ(dlcrt_model_wait(model), nullptr);
  EXPECT_EQ(y[5], 7.0f);
  // Then a plain run works, and the tensors of run_async are checked as
  // run's are.
  ASSERT_EQ(dlcrt_model_run(model, &in, 1, &out, 1), nullptr);
  dlc_tensor small = view(y, 8, kShape);
  dlc_status *s = dlcrt_model_run_async(model, &in, 1, &small, 1);
  EXPECT_EQ(dlc_status_code_of(s), DLC_INVALID_ARGUMENT);
  EXPECT_EQ(takeMessage(s), "run: output 0 ('y') buffer is 8 bytes, needs 24");
  EXPECT_EQ(dlcrt_model_wait(model), nullptr);
  // Destroying an instance with a run in progress waits for it.
  ASSERT_EQ(dlcrt_model_run_async(model, &in, 1, &out, 1), nullptr);
  dlcrt_model_destroy(model);
  dlc_status *none = dlcrt_model_wait(nullptr);
  EXPECT_EQ(dlc_status_code_of(none), DLC_INVALID_ARGUMENT);
  EXPECT_EQ(takeMessage(none), "wait: model must not be NULL");
}

// A driver without page-locked memory: staging in ordinary memory, the
// same results.
TEST(AsyncRun, WorksWithoutPageLockedMemory) {
  FakeDriver d;
  setenv("DLC_FAKE_CUDA_NO_PINNED", "1", 1);
  dlcrt_model *model = create(&kStatic);
  ASSERT_NE(model, nullptr);
  float x[6] = {1, 2, 3, 4, 5, 6}, y[6] = {};
  dlc_tensor in = view(x, sizeof x, kShape), out = view(y, sizeof y, kShape);
  ASSERT_EQ(dlcrt_model_run_async(model, &in, 1, &out, 1), nullptr);
  ASSERT_EQ(dlcrt_model_wait(model), nullptr);
  for (int i = 0; i < 6; ++i)
    EXPECT_EQ(y[i], x[i] + 1);
  dlcrt_model_destroy(model);
}

// A CPU model runs before run_async returns.
void cpuAddOne(void **args) {
  for (int i = 0; i < 6; ++i)
    static_cast<float *>(args[1])[i] = static_cast<float *>(args[0])[i] + 1;
}
TEST(AsyncRun, CpuModelsRunAtOnce) {
  dlc_model_desc desc = kStatic;
  desc.cuda = nullptr;
  desc.entry = cpuAddOne;
  dlcrt_model *model = create(&desc);
  ASSERT_NE(model, nullptr);
  float x[6] = {1, 2, 3, 4, 5, 6}, y[6] = {};
  dlc_tensor in = view(x, sizeof x, kShape), out = view(y, sizeof y, kShape);
  ASSERT_EQ(dlcrt_model_run_async(model, &in, 1, &out, 1), nullptr);
  EXPECT_EQ(y[0], 2.0f);
  EXPECT_EQ(dlcrt_model_wait(model), nullptr);
  dlcrt_model_destroy(model);
}

// A static batch of 4 split into 2 sub-batches of 2: by rows ([4,3], batch
// axis 0) and by columns ([3,4], batch axis 1, whose sub-batches are not
// contiguous). The device copies hold one sub-batch: create passes with
// free device memory for the sub-batch but not the whole batch.
const int64_t kRows[] = {4, 3}, kCols[] = {3, 4};
const dlc_tensor_desc kRowIn[] = {
    {"x", DLC_DTYPE_F32, 2, kRows, 48, 0, 0, kRows, kRows, nullptr}};
const dlc_tensor_desc kRowOut[] = {
    {"y", DLC_DTYPE_F32, 2, kRows, 48, 0, 0, kRows, kRows, nullptr}};
const dlc_tensor_desc kColIn[] = {
    {"x", DLC_DTYPE_F32, 2, kCols, 48, 1, 0, kCols, kCols, nullptr}};
const dlc_tensor_desc kColOut[] = {
    {"y", DLC_DTYPE_F32, 2, kCols, 48, 1, 0, kCols, kCols, nullptr}};
const dlc_model_desc kSplitRows = makeDesc("split_rows", kRowIn, kRowOut, 2);
const dlc_model_desc kSplitCols = makeDesc("split_cols", kColIn, kColOut, 2);

int count(const std::string &log, const std::string &what) {
  int n = 0;
  for (size_t at = log.find(what); at != std::string::npos;
       at = log.find(what, at + 1))
    ++n;
  return n;
}

TEST(CudaBatchSplit, SubBatchesRunOneAfterTheOther) {
  for (const dlc_model_desc *desc : {&kSplitRows, &kSplitCols})
    for (bool async : {false, true})
      for (int graphs : {DLC_CUDA_GRAPHS_AUTO, DLC_CUDA_GRAPHS_OFF}) {
        SCOPED_TRACE(std::string(desc->model_name) +
                     (async ? " async" : " run") +
                     (graphs ? " without graphs" : " with graphs"));
        FakeDriver d(/*log=*/true);
        // Workspace 64 + constants 64 + one sub-batch's input and output
        // (24 + 24) = 176 bytes; the whole batch would need 224.
        setenv("DLC_FAKE_CUDA_FREE_BYTES", "200", 1);
        dlc_options options;
        dlc_options_init(&options);
        options.cuda_graphs = graphs;
        dlcrt_model *model = create(desc, &options);
        ASSERT_NE(model, nullptr);
        for (int run = 0; run < 3; ++run) {
          float x[12], y[12];
          for (int i = 0; i < 12; ++i) {
            x[i] = float(100 * run + i);
            y[i] = -1;
          }
          dlc_tensor in = view(x, sizeof x, desc->inputs[0].shape);
          dlc_tensor out = view(y, sizeof y, desc->outputs[0].shape);
          testing::internal::CaptureStderr();
          dlc_status *s = async ? dlcrt_model_run_async(model, &in, 1, &out, 1)
                                : dlcrt_model_run(model, &in, 1, &out, 1);
          if (!s && async)
            s = dlcrt_model_wait(model);
          std::string log = testing::internal::GetCapturedStderr();
          ASSERT_EQ(s, nullptr) << takeMessage(s);
          // Two calls: launches or graph replays.
          EXPECT_EQ(count(log, "fake-cuda: launch fake_add_one") +
                        count(log, "fake-cuda: graph launch of 1 kernels"),
                    2)
              << log;
          for (int i = 0; i < 12; ++i)
            EXPECT_EQ(y[i], float(100 * run + i) + 1)
                << "run " << run << " " << i;
        }
        dlcrt_model_destroy(model);
      }
}

TEST(CudaBatchSplit, CreateSaysWhenASubBatchDoesNotFit) {
  FakeDriver d;
  setenv("DLC_FAKE_CUDA_FREE_BYTES", "150", 1);
  dlcrt_model *model = nullptr;
  dlc_status *s = dlcrt_model_create(&kSplitRows, nullptr, &model);
  EXPECT_EQ(model, nullptr);
  EXPECT_EQ(dlc_status_code_of(s), DLC_OUT_OF_MEMORY);
  std::string msg = takeMessage(s);
  EXPECT_NE(msg.find("needs 176 bytes of device memory (workspace 64, "
                     "constants 64, inputs and outputs of one sub-batch) but "
                     "the device has 150 free"),
            std::string::npos)
      << msg;
}

// Kernel profiles (dlc_options.cuda_profile): the stand-in's clock moves
// 1 us per block of each launch, so fake_add_one on 5 blocks takes 0.005 ms
// and `other` on 2 blocks 0.002 ms.
const dlc_cuda_image kTwoKernels[] = {
    {90, 0,
     ".version 8.0\n.target sm_90\n.visible .entry fake_add_one(\n"
     ".param .u64 in, .param .u64 out, .param .u64 n\n)\n{\nret;\n}\n"
     ".visible .entry other(\n.param .u64 p\n)\n{\nret;\n}\n"}};
const char *const kTwoNames[] = {"fake_add_one", "other"};
const uint32_t kTwoShared[] = {0, 0};
const dlc_cuda_desc kTwoCuda = {1,          2,          kTwoKernels, kTwoNames,
                                kTwoShared, kConstants, 64};
void addOneThenOther(void **args) {
  void *params[] = {&args[0], &args[1], &elementsPerCall};
  dlcrt_cuda_launch(args[4], 0, 5, 1, 1, 32, 1, 1, params);
  void *other[] = {&args[0]};
  dlcrt_cuda_launch(args[4], 1, 2, 1, 1, 32, 1, 1, other);
}

TEST(KernelProfile, EachLaunchTimedWithEvents) {
  for (bool split : {false, true})
    for (bool async : {false, true}) {
      SCOPED_TRACE(std::string(split ? "split" : "whole") +
                   (async ? " async" : " run"));
      FakeDriver d;
      dlc_model_desc desc = split ? kSplitRows : kStatic;
      desc.cuda = &kTwoCuda;
      desc.entry = addOneThenOther;
      dlc_options options;
      dlc_options_init(&options);
      // Split: the two calls launch four kernels, of which three are timed.
      options.cuda_profile = split ? 3 : 16;
      dlcrt_model *model = create(&desc, &options);
      ASSERT_NE(model, nullptr);
      EXPECT_STREQ(dlcrt_kernel_name(&desc, 1), "other");
      EXPECT_EQ(dlcrt_kernel_name(&desc, 2), nullptr);
      float x[12] = {}, y[12] = {};
      const int64_t *shape = desc.inputs[0].shape;
      dlc_tensor in = view(x, split ? 48 : 24, shape);
      dlc_tensor out = view(y, split ? 48 : 24, shape);
      const int32_t *kernels = nullptr;
      const float *ms = nullptr;
      EXPECT_EQ(dlcrt_model_kernel_profile(model, &kernels, &ms), 0u);
      for (int run = 0; run < 2; ++run) {
        if (async) {
          ASSERT_EQ(dlcrt_model_run_async(model, &in, 1, &out, 1), nullptr);
          EXPECT_EQ(dlcrt_model_kernel_profile(model, &kernels, &ms), 0u)
              << "while the run is in progress";
          ASSERT_EQ(dlcrt_model_wait(model), nullptr);
        } else {
          ASSERT_EQ(dlcrt_model_run(model, &in, 1, &out, 1), nullptr);
        }
        size_t n = dlcrt_model_kernel_profile(model, &kernels, &ms);
        ASSERT_EQ(n, split ? 3u : 2u);
        for (size_t i = 0; i < n; ++i) {
          EXPECT_EQ(kernels[i], int32_t(i % 2)) << i;
          EXPECT_NEAR(ms[i], i % 2 ? 0.002 : 0.005, 1e-6) << i;
        }
        // The outputs are right too (y = x + 1 on every sub-batch).
        EXPECT_EQ(y[split ? 11 : 5], 1.0f);
      }
      dlcrt_model_destroy(model);
    }
}

TEST(KernelProfile, NeedsEventsAndIsOffByDefault) {
  FakeDriver d;
  dlc_model_desc desc = kStatic;
  desc.cuda = &kTwoCuda;
  desc.entry = addOneThenOther;
  dlcrt_model *model = create(&desc);
  ASSERT_NE(model, nullptr);
  float x[6] = {}, y[6] = {};
  dlc_tensor in = view(x, 24, kShape), out = view(y, 24, kShape);
  ASSERT_EQ(dlcrt_model_run(model, &in, 1, &out, 1), nullptr);
  const int32_t *kernels = nullptr;
  const float *ms = nullptr;
  EXPECT_EQ(dlcrt_model_kernel_profile(model, &kernels, &ms), 0u);
  EXPECT_EQ(kernels, nullptr);
  dlcrt_model_destroy(model);

  setenv("DLC_FAKE_CUDA_NO_EVENTS", "1", 1);
  dlc_options options;
  dlc_options_init(&options);
  options.cuda_profile = 8;
  model = nullptr;
  dlc_status *s = dlcrt_model_create(&desc, &options, &model);
  EXPECT_EQ(model, nullptr);
  EXPECT_EQ(dlc_status_code_of(s), DLC_INTERNAL);
  EXPECT_EQ(takeMessage(s).rfind("create: cuEventCreate failed", 0), 0u);
}

} // namespace
