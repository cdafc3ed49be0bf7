//===- RuntimeTest.cpp - unit tests of the dlc C runtime ------------------===//
//
// The runtime is tested against a hand-written model descriptor whose entry
// point computes y = x + 1 (float32 [2,3]) using 24 bytes of workspace; the
// expected values are computed by hand.
//
//===----------------------------------------------------------------------===//
#include "dlc/dlc_model_abi.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <string>
#include <thread>

namespace {

const int64_t kShape[] = {2, 3};
const dlc_tensor_desc kInputs[] = {
    {"x", DLC_DTYPE_F32, 2, kShape, 24, -1, 0, kShape}};
const dlc_tensor_desc kOutputs[] = {
    {"y", DLC_DTYPE_F32, 2, kShape, 24, -1, 0, kShape}};
void *lastWorkspace = nullptr;
int32_t lastThreads = 0;

void addOne(void **args) {
  const float *x = static_cast<const float *>(args[0]);
  float *y = static_cast<float *>(args[1]);
  lastWorkspace = args[2];
  lastThreads = *static_cast<const int32_t *>(args[3]);
  for (int i = 0; i < 6; ++i)
    y[i] = x[i] + 1.0f;
}

const dlc_model_desc kDesc = {DLC_MODEL_ABI_VERSION,
                              1,
                              1,
                              0,
                              "add_one",
                              kInputs,
                              kOutputs,
                              24,
                              addOne,
                              nullptr,
                              0};

struct Model {
  dlcrt_model *model = nullptr;
  Model() {
    dlc_status *s = dlcrt_model_create(&kDesc, nullptr, &model);
    EXPECT_EQ(s, nullptr) << dlc_status_message(s);
  }
  ~Model() { dlcrt_model_destroy(model); }
};

std::string takeMessage(dlc_status *s) {
  std::string msg = dlc_status_message(s);
  dlc_status_free(s);
  return msg;
}

dlc_tensor tensor(float *data, size_t bytes, dlc_dtype dtype, int32_t rank,
                  const int64_t *shape) {
  return dlc_tensor{data, bytes, dtype, rank, shape};
}

TEST(Status, NullIsOk) {
  EXPECT_EQ(dlc_status_code_of(nullptr), DLC_OK);
  EXPECT_STREQ(dlc_status_message(nullptr), "ok");
  dlc_status_free(nullptr);
}

TEST(Status, CarriesCodeAndFormattedMessage) {
  dlc_status *s = dlcrt_status_create(DLC_INVALID_ARGUMENT, "bad %d", 42);
  EXPECT_EQ(dlc_status_code_of(s), DLC_INVALID_ARGUMENT);
  EXPECT_EQ(takeMessage(s), "bad 42");
}

TEST(Dtype, SizesAndNames) {
  EXPECT_EQ(dlc_dtype_size(DLC_DTYPE_F32), 4u);
  EXPECT_EQ(dlc_dtype_size(DLC_DTYPE_I64), 8u);
  EXPECT_EQ(dlc_dtype_size(DLC_DTYPE_BOOL), 1u);
  EXPECT_EQ(dlc_dtype_size(DLC_DTYPE_INVALID), 0u);
  EXPECT_STREQ(dlc_dtype_name(DLC_DTYPE_F16), "f16");
}

TEST(Model, RunsEntryWithAlignedWorkspace) {
  Model m;
  float x[6] = {0, 1, 2, 3, 4, 5}, y[6] = {};
  dlc_tensor in = tensor(x, sizeof x, DLC_DTYPE_F32, 2, kShape);
  dlc_tensor out = tensor(y, sizeof y, DLC_DTYPE_F32, 2, kShape);
  ASSERT_EQ(dlcrt_model_run(m.model, &in, 1, &out, 1), nullptr);
  for (int i = 0; i < 6; ++i)
    EXPECT_EQ(y[i], i + 1.0f);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(lastWorkspace) % 64, 0u);
}

TEST(Model, RejectsWrongCounts) {
  Model m;
  EXPECT_EQ(takeMessage(dlcrt_model_run(m.model, nullptr, 0, nullptr, 0)),
            "run: model 'add_one' takes 1 inputs and 1 outputs, got 0 and 0");
}

TEST(Model, RejectsWrongDtype) {
  Model m;
  float x[6], y[6];
  dlc_tensor in = tensor(x, sizeof x, DLC_DTYPE_F64, 2, kShape);
  dlc_tensor out = tensor(y, sizeof y, DLC_DTYPE_F32, 2, kShape);
  EXPECT_EQ(takeMessage(dlcrt_model_run(m.model, &in, 1, &out, 1)),
            "run: input 0 ('x') has dtype f64, expected f32");
}

TEST(Model, RejectsWrongShape) {
  Model m;
  float x[6], y[6];
  const int64_t flat[] = {6};
  dlc_tensor in = tensor(x, sizeof x, DLC_DTYPE_F32, 1, flat);
  dlc_tensor out = tensor(y, sizeof y, DLC_DTYPE_F32, 2, kShape);
  dlc_status *s = dlcrt_model_run(m.model, &in, 1, &out, 1);
  EXPECT_EQ(dlc_status_code_of(s), DLC_INVALID_ARGUMENT);
  EXPECT_EQ(takeMessage(s),
            "run: input 0 ('x') has shape [6], expected [2,3]");
}

TEST(Model, RejectsSmallOutputBuffer) {
  Model m;
  float x[6], y[6];
  dlc_tensor in = tensor(x, sizeof x, DLC_DTYPE_F32, 2, kShape);
  dlc_tensor out = tensor(y, 8, DLC_DTYPE_F32, 2, kShape);
  EXPECT_EQ(takeMessage(dlcrt_model_run(m.model, &in, 1, &out, 1)),
            "run: output 0 ('y') buffer is 8 bytes, needs 24");
}

TEST(Model, RejectsNullData) {
  Model m;
  float y[6];
  dlc_tensor in = tensor(nullptr, 24, DLC_DTYPE_F32, 2, kShape);
  dlc_tensor out = tensor(y, sizeof y, DLC_DTYPE_F32, 2, kShape);
  EXPECT_EQ(takeMessage(dlcrt_model_run(m.model, &in, 1, &out, 1)),
            "run: input 0 ('x') has a NULL data pointer");
}

TEST(Model, CallerWorkspaceIsUsedAndChecked) {
  alignas(64) static unsigned char ws[64];
  dlc_options opts;
  dlc_options_init(&opts);
  opts.workspace = ws;
  opts.workspace_size = 16;
  dlcrt_model *model = nullptr;
  dlc_status *s = dlcrt_model_create(&kDesc, &opts, &model);
  EXPECT_EQ(model, nullptr);
  EXPECT_EQ(takeMessage(s), "create: options.workspace_size is 16 bytes, "
                            "model 'add_one' needs 24");
  opts.workspace_size = sizeof ws;
  ASSERT_EQ(dlcrt_model_create(&kDesc, &opts, &model), nullptr);
  float x[6] = {}, y[6];
  dlc_tensor in = tensor(x, sizeof x, DLC_DTYPE_F32, 2, kShape);
  dlc_tensor out = tensor(y, sizeof y, DLC_DTYPE_F32, 2, kShape);
  ASSERT_EQ(dlcrt_model_run(model, &in, 1, &out, 1), nullptr);
  EXPECT_EQ(lastWorkspace, static_cast<void *>(ws));
  dlcrt_model_destroy(model);
}

TEST(Model, RejectsAbiMismatchAndNullOut) {
  dlc_model_desc bad = kDesc;
  bad.abi_version = 99;
  dlcrt_model *model = nullptr;
  dlc_status *s = dlcrt_model_create(&bad, nullptr, &model);
  EXPECT_EQ(dlc_status_code_of(s), DLC_INTERNAL);
  dlc_status_free(s);
  EXPECT_EQ(takeMessage(dlcrt_model_create(&kDesc, nullptr, nullptr)),
            "create: out_model must not be NULL");
  dlcrt_model_destroy(nullptr);
}

// An entry with two run-time checks whose word lies at byte 24 of the
// workspace: x[0] < 0 fails check 2, x[0] > 100 writes a number past the
// checks (a bug the runtime reports as internal).
const char *const kCheckMessages[] = {"first check", "second check"};
void checked(void **args) {
  const float *x = static_cast<const float *>(args[0]);
  unsigned char *ws = static_cast<unsigned char *>(args[2]);
  uint32_t word;
  std::memcpy(&word, ws + 24, sizeof word);
  EXPECT_EQ(word, 0u) << "the runtime clears the word before each call";
  addOne(args);
  word = x[0] < 0 ? 2 : x[0] > 100 ? 7 : 0;
  if (word)
    std::memcpy(ws + 24, &word, sizeof word);
}

TEST(Model, FailedCheckFailsTheRunWithItsMessage) {
  dlc_model_desc desc = kDesc;
  desc.workspace_size = 32;
  desc.entry = checked;
  desc.num_checks = 2;
  desc.check_offset = 24;
  desc.check_messages = kCheckMessages;
  dlcrt_model *model = nullptr;
  ASSERT_EQ(dlcrt_model_create(&desc, nullptr, &model), nullptr);
  float x[6] = {1, 2, 3, 4, 5, 6}, y[6];
  dlc_tensor in = tensor(x, sizeof x, DLC_DTYPE_F32, 2, kShape);
  dlc_tensor out = tensor(y, sizeof y, DLC_DTYPE_F32, 2, kShape);
  EXPECT_EQ(dlcrt_model_run(model, &in, 1, &out, 1), nullptr);
  x[0] = -1;
  dlc_status *s = dlcrt_model_run(model, &in, 1, &out, 1);
  EXPECT_EQ(dlc_status_code_of(s), DLC_INVALID_ARGUMENT);
  EXPECT_EQ(takeMessage(s), "run: second check");
  // The word is cleared again: the next run succeeds.
  x[0] = 1;
  EXPECT_EQ(dlcrt_model_run(model, &in, 1, &out, 1), nullptr);
  x[0] = 1000;
  s = dlcrt_model_run(model, &in, 1, &out, 1);
  EXPECT_EQ(dlc_status_code_of(s), DLC_INTERNAL);
  EXPECT_EQ(takeMessage(s), "run: check 7 of 2 failed");
  dlcrt_model_destroy(model);
}

// An entry that waits until released, to hold a run in progress.
std::atomic<int> entered{0}, release{0};
void waiting(void **args) {
  entered = 1;
  while (!release)
    std::this_thread::yield();
  addOne(args);
}

TEST(Model, ConcurrentRunOfOneInstanceIsRefused) {
  dlc_model_desc desc = kDesc;
  desc.entry = waiting;
  dlcrt_model *model = nullptr;
  ASSERT_EQ(dlcrt_model_create(&desc, nullptr, &model), nullptr);
  float x[6] = {}, y[6], y2[6];
  dlc_tensor in = tensor(x, sizeof x, DLC_DTYPE_F32, 2, kShape);
  dlc_tensor out = tensor(y, sizeof y, DLC_DTYPE_F32, 2, kShape);
  dlc_tensor out2 = tensor(y2, sizeof y2, DLC_DTYPE_F32, 2, kShape);
  entered = 0;
  release = 0;
  dlc_status *first = nullptr;
  std::thread t([&] { first = dlcrt_model_run(model, &in, 1, &out, 1); });
  while (!entered)
    std::this_thread::yield();
  dlc_status *second = dlcrt_model_run(model, &in, 1, &out2, 1);
  EXPECT_EQ(dlc_status_code_of(second), DLC_INVALID_ARGUMENT);
  EXPECT_EQ(takeMessage(second),
            "run: model 'add_one' is running on another thread; an instance "
            "runs one call at a time (create one instance per thread)");
  release = 1;
  t.join();
  EXPECT_EQ(first, nullptr);
  // Afterwards the instance runs again.
  EXPECT_EQ(dlcrt_model_run(model, &in, 1, &out2, 1), nullptr);
  EXPECT_EQ(y2[0], 1.0f);
  dlcrt_model_destroy(model);
}

TEST(Describe, AccessorsAndRanges) {
  EXPECT_EQ(dlcrt_num_inputs(&kDesc), 1u);
  EXPECT_EQ(dlcrt_workspace_size(&kDesc), 24u);
  EXPECT_STREQ(dlcrt_input_name(&kDesc, 0), "x");
  EXPECT_EQ(dlcrt_output_rank(&kDesc, 0), 2);
  EXPECT_EQ(dlcrt_output_shape(&kDesc, 0)[1], 3);
  EXPECT_EQ(dlcrt_input_size_bytes(&kDesc, 0), 24u);
  EXPECT_EQ(dlcrt_input_name(&kDesc, 1), nullptr);
  EXPECT_EQ(dlcrt_output_dtype(&kDesc, 5), DLC_DTYPE_INVALID);
}

} // namespace

TEST(Model, PassesThreadCountToEntry) {
  float x[6] = {}, y[6] = {};
  dlc_tensor in = tensor(x, sizeof x, DLC_DTYPE_F32, 2, kShape);
  dlc_tensor out = tensor(y, sizeof y, DLC_DTYPE_F32, 2, kShape);
  {
    Model m; // default options: one thread
    ASSERT_EQ(dlcrt_model_run(m.model, &in, 1, &out, 1), nullptr);
    EXPECT_EQ(lastThreads, 1);
  }
  dlc_options options;
  dlc_options_init(&options);
  options.num_threads = 3;
  dlcrt_model *model = nullptr;
  ASSERT_EQ(dlcrt_model_create(&kDesc, &options, &model), nullptr);
  ASSERT_EQ(dlcrt_model_run(model, &in, 1, &out, 1), nullptr);
  EXPECT_EQ(lastThreads, 3);
  dlcrt_model_destroy(model);

  options.num_threads = 5000;
  dlc_status *s = dlcrt_model_create(&kDesc, &options, &model);
  EXPECT_EQ(model, nullptr);
  EXPECT_EQ(takeMessage(s),
            "create: options.num_threads is 5000, at most 1024 are supported");
}

namespace {

// A CUDA model descriptor. Its entry must never run without a device.
void cudaEntryMustNotRun(void **) { FAIL() << "CUDA entry ran without a GPU"; }
const dlc_cuda_image kImages[] = {{80, 0, ".version 8.0\n.target sm_80\n"}};
const char *const kKernelNames[] = {"main_kernel"};
const uint32_t kKernelShared[] = {0};
const char kConstants[256] = {};
const dlc_cuda_desc kCudaDesc = {1,           1,          kImages, kKernelNames,
                                 kKernelShared, kConstants, 256};
// Dynamic batch: one sample is a [1,3] row (batch axis 0) or, for the
// second model, a [2,1] column of a [2,N] tensor (batch axis 1, staged);
// the entry adds the sample's first element to each element.
const int64_t kRowShape[] = {DLC_DIM_DYNAMIC, 3};
const int64_t kColShape[] = {2, DLC_DIM_DYNAMIC};
std::atomic<int> entryCalls{0};

void addFirst3(void **args) {
  const float *x = static_cast<const float *>(args[0]);
  float *y = static_cast<float *>(args[1]);
  ++entryCalls;
  for (int i = 0; i < 3; ++i)
    y[i] = x[i] + x[0];
}

void addFirst2(void **args) {
  const float *x = static_cast<const float *>(args[0]);
  float *y = static_cast<float *>(args[1]);
  ++entryCalls;
  for (int i = 0; i < 2; ++i)
    y[i] = x[i] + x[0];
}

const dlc_tensor_desc kRowIn[] = {
    {"x", DLC_DTYPE_F32, 2, kRowShape, 12, 0, 0, kRowShape}};
const dlc_tensor_desc kRowOut[] = {
    {"y", DLC_DTYPE_F32, 2, kRowShape, 12, 0, 0, kRowShape}};
const dlc_model_desc kRowModel = {DLC_MODEL_ABI_VERSION,
                                  1,
                                  1,
                                  0,
                                  "rows",
                                  kRowIn,
                                  kRowOut,
                                  0,
                                  addFirst3,
                                  nullptr,
                                  0};
const dlc_tensor_desc kColIn[] = {
    {"x", DLC_DTYPE_F32, 2, kColShape, 8, 1, 0, kColShape}};
const dlc_tensor_desc kColOut[] = {
    {"y", DLC_DTYPE_F32, 2, kColShape, 8, 1, 0, kColShape}};
const dlc_model_desc kColModel = {DLC_MODEL_ABI_VERSION,
                                  1,
                                  1,
                                  0,
                                  "cols",
                                  kColIn,
                                  kColOut,
                                  0,
                                  addFirst2,
                                  nullptr,
                                  0};

TEST(DynamicBatch, RunsOncePerSample) {
  dlcrt_model *model = nullptr;
  ASSERT_EQ(dlcrt_model_create(&kRowModel, nullptr, &model), nullptr);
  float x[] = {1, 2, 3, 10, 20, 30, 100, 200, 300};
  float y[9] = {};
  const int64_t shape[] = {3, 3};
  dlc_tensor in = tensor(x, sizeof x, DLC_DTYPE_F32, 2, shape);
  dlc_tensor out = tensor(y, sizeof y, DLC_DTYPE_F32, 2, shape);
  entryCalls = 0;
  ASSERT_EQ(dlcrt_model_run(model, &in, 1, &out, 1), nullptr);
  EXPECT_EQ(entryCalls, 3);
  const float want[] = {2, 3, 4, 20, 30, 40, 200, 300, 400};
  for (int i = 0; i < 9; ++i)
    EXPECT_EQ(y[i], want[i]) << i;
  // Batch 1 from the same instance.
  const int64_t one[] = {1, 3};
  in.shape = out.shape = one;
  entryCalls = 0;
  ASSERT_EQ(dlcrt_model_run(model, &in, 1, &out, 1), nullptr);
  EXPECT_EQ(entryCalls, 1);
  dlcrt_model_destroy(model);
}

// With two threads, samples run two at a time, each on its own workspace
// and staging buffers; every sample is computed once.
TEST(DynamicBatch, RunsSamplesOnTwoThreads) {
  for (const dlc_model_desc *desc : {&kRowModel, &kColModel}) {
    dlc_options options;
    dlc_options_init(&options);
    options.num_threads = 2;
    dlcrt_model *model = nullptr;
    ASSERT_EQ(dlcrt_model_create(desc, &options, &model), nullptr);
    // Rows: [n, 3], sample b = (b, 10b, 100b). Columns: [2, n].
    const int n = 7;
    float x[3 * n], y[3 * n];
    for (int b = 0; b < n; ++b)
      for (int i = 0; i < 3; ++i)
        x[desc == &kRowModel ? 3 * b + i : (i % 2) * n + b] =
            (float)(b + 1) * (i == 0 ? 1.0f : i == 1 ? 10.0f : 100.0f);
    const int64_t rows[] = {n, 3}, cols[] = {2, n};
    const int64_t *shape = desc == &kRowModel ? rows : cols;
    size_t bytes = desc == &kRowModel ? sizeof x : 2 * n * sizeof(float);
    dlc_tensor in = tensor(x, bytes, DLC_DTYPE_F32, 2, shape);
    dlc_tensor out = tensor(y, bytes, DLC_DTYPE_F32, 2, shape);
    for (int repeat = 0; repeat < 3; ++repeat) {
      entryCalls = 0;
      std::fill(y, y + 3 * n, -1.0f);
      ASSERT_EQ(dlcrt_model_run(model, &in, 1, &out, 1), nullptr);
      EXPECT_EQ(entryCalls.load(), n);
      for (int b = 0; b < n; ++b) {
        if (desc == &kRowModel) {
          for (int i = 0; i < 3; ++i)
            EXPECT_EQ(y[3 * b + i], x[3 * b + i] + x[3 * b]) << b << " " << i;
        } else {
          EXPECT_EQ(y[b], 2 * x[b]) << b;
          EXPECT_EQ(y[n + b], x[n + b] + x[b]) << b;
        }
      }
    }
    dlcrt_model_destroy(model);
  }
}

// An output without a batch axis is the same for every sample: with samples
// on two threads only one of them writes the caller's buffer (the others
// their own), so accumulating into it in place does not race.
void countInPlace(void **args) {
  volatile float *count = static_cast<float *>(args[1]);
  *count = 0;
  for (int i = 0; i < 100000; ++i)
    *count = *count + 1;
}
const dlc_tensor_desc kCountIn[] = {
    {"x", DLC_DTYPE_F32, 2, kRowShape, 12, 0, 0, kRowShape}};
const int64_t kOne[] = {1};
const dlc_tensor_desc kCountOut[] = {
    {"c", DLC_DTYPE_F32, 1, kOne, 4, -1, 0, kOne}};
const dlc_model_desc kCountModel = {
    DLC_MODEL_ABI_VERSION, 1,       1, 0, "count", kCountIn, kCountOut, 0,
    countInPlace,          nullptr, 0};

TEST(DynamicBatch, UnbatchedOutputsDoNotRace) {
  dlc_options options;
  dlc_options_init(&options);
  options.num_threads = 2;
  dlcrt_model *model = nullptr;
  ASSERT_EQ(dlcrt_model_create(&kCountModel, &options, &model), nullptr);
  float x[3 * 16] = {}, c = 0;
  const int64_t shape[] = {16, 3};
  dlc_tensor in = tensor(x, sizeof x, DLC_DTYPE_F32, 2, shape);
  dlc_tensor out = tensor(&c, sizeof c, DLC_DTYPE_F32, 1, kOne);
  for (int repeat = 0; repeat < 20; ++repeat) {
    ASSERT_EQ(dlcrt_model_run(model, &in, 1, &out, 1), nullptr);
    EXPECT_EQ(c, 100000.0f);
  }
  dlcrt_model_destroy(model);
}

TEST(DynamicBatch, StagesAnInnerBatchAxis) {
  dlcrt_model *model = nullptr;
  ASSERT_EQ(dlcrt_model_create(&kColModel, nullptr, &model), nullptr);
  // x is [2, 3]: sample b is the column (x[0][b], x[1][b]).
  float x[] = {1, 2, 3, 10, 20, 30};
  float y[6] = {};
  const int64_t shape[] = {2, 3};
  dlc_tensor in = tensor(x, sizeof x, DLC_DTYPE_F32, 2, shape);
  dlc_tensor out = tensor(y, sizeof y, DLC_DTYPE_F32, 2, shape);
  ASSERT_EQ(dlcrt_model_run(model, &in, 1, &out, 1), nullptr);
  const float want[] = {2, 4, 6, 11, 22, 33};
  for (int i = 0; i < 6; ++i)
    EXPECT_EQ(y[i], want[i]) << i;
  dlcrt_model_destroy(model);
}

TEST(DynamicBatch, RejectsMismatchedOrEmptyBatches) {
  dlcrt_model *model = nullptr;
  ASSERT_EQ(dlcrt_model_create(&kRowModel, nullptr, &model), nullptr);
  float x[9] = {}, y[9] = {};
  const int64_t three[] = {3, 3}, two[] = {2, 3}, zero[] = {0, 3};
  dlc_tensor in = tensor(x, sizeof x, DLC_DTYPE_F32, 2, three);
  dlc_tensor out = tensor(y, sizeof y, DLC_DTYPE_F32, 2, two);
  std::string msg = takeMessage(dlcrt_model_run(model, &in, 1, &out, 1));
  EXPECT_NE(msg.find("output 0 ('y') has batch size 2 (dimension 0), the "
                     "inputs before it 3"),
            std::string::npos)
      << msg;
  in.shape = out.shape = zero;
  msg = takeMessage(dlcrt_model_run(model, &in, 1, &out, 1));
  EXPECT_NE(msg.find("has shape [0,3], expected [-1,3] (-1: any batch size "
                     ">= 1)"),
            std::string::npos)
      << msg;
  // A buffer too small for the batch.
  in.shape = out.shape = three;
  out.size_bytes = 24;
  msg = takeMessage(dlcrt_model_run(model, &in, 1, &out, 1));
  EXPECT_NE(msg.find("buffer is 24 bytes, needs 36"), std::string::npos) << msg;
  dlcrt_model_destroy(model);
}

// A static batch split into sub-batches: x and y are [4, 3] (batch axis 0)
// or [2, 4] (batch axis 1, staged), run as 2 sub-batches of 2 samples; the
// entry adds each sample's first element to its elements and records its
// thread count.
const int64_t kSplitRowShape[] = {4, 3};
const int64_t kSplitColShape[] = {2, 4};
std::atomic<int> splitThreads{0};

void addFirstOfRows(void **args) {
  const float *x = static_cast<const float *>(args[0]);
  float *y = static_cast<float *>(args[1]);
  ++entryCalls;
  splitThreads = *static_cast<const int32_t *>(args[3]);
  for (int r = 0; r < 2; ++r)
    for (int i = 0; i < 3; ++i)
      y[3 * r + i] = x[3 * r + i] + x[3 * r];
}

void addFirstOfColumns(void **args) { // x, y: [2, 2] of a [2, 4] tensor
  const float *x = static_cast<const float *>(args[0]);
  float *y = static_cast<float *>(args[1]);
  ++entryCalls;
  splitThreads = *static_cast<const int32_t *>(args[3]);
  for (int c = 0; c < 2; ++c)
    for (int i = 0; i < 2; ++i)
      y[2 * i + c] = x[2 * i + c] + x[c];
}

const dlc_tensor_desc kSplitRowIn[] = {
    {"x", DLC_DTYPE_F32, 2, kSplitRowShape, 48, 0, 0, kSplitRowShape}};
const dlc_tensor_desc kSplitRowOut[] = {
    {"y", DLC_DTYPE_F32, 2, kSplitRowShape, 48, 0, 0, kSplitRowShape}};
const dlc_model_desc kSplitRowModel = {DLC_MODEL_ABI_VERSION,
                                       1,
                                       1,
                                       2,
                                       "split_rows",
                                       kSplitRowIn,
                                       kSplitRowOut,
                                       0,
                                       addFirstOfRows,
                                       nullptr,
                                       0};
const dlc_tensor_desc kSplitColIn[] = {
    {"x", DLC_DTYPE_F32, 2, kSplitColShape, 32, 1, 0, kSplitColShape}};
const dlc_tensor_desc kSplitColOut[] = {
    {"y", DLC_DTYPE_F32, 2, kSplitColShape, 32, 1, 0, kSplitColShape}};
const dlc_model_desc kSplitColModel = {DLC_MODEL_ABI_VERSION,
                                       1,
                                       1,
                                       2,
                                       "split_cols",
                                       kSplitColIn,
                                       kSplitColOut,
                                       0,
                                       addFirstOfColumns,
                                       nullptr,
                                       0};

// One entry call per sub-batch on any number of threads; threads beyond
// the sub-batches go to each sub-batch's parallel loops.
TEST(BatchSplit, RunsOncePerSubBatch) {
  for (const dlc_model_desc *desc : {&kSplitRowModel, &kSplitColModel}) {
    bool rows = desc == &kSplitRowModel;
    for (unsigned threads : {1u, 2u, 4u}) {
      dlc_options options;
      dlc_options_init(&options);
      options.num_threads = threads;
      dlcrt_model *model = nullptr;
      ASSERT_EQ(dlcrt_model_create(desc, &options, &model), nullptr);
      // Sample b is (b+1, 10(b+1), 100(b+1)) as a row, or its first two
      // entries as a column.
      float x[12], y[12];
      for (int b = 0; b < 4; ++b)
        for (int i = 0; i < (rows ? 3 : 2); ++i)
          x[rows ? 3 * b + i : 4 * i + b] =
              (float)(b + 1) * (i == 0 ? 1.0f : i == 1 ? 10.0f : 100.0f);
      size_t bytes = rows ? 48 : 32;
      dlc_tensor in = tensor(x, bytes, DLC_DTYPE_F32, 2, desc->inputs[0].shape);
      dlc_tensor out =
          tensor(y, bytes, DLC_DTYPE_F32, 2, desc->outputs[0].shape);
      for (int repeat = 0; repeat < 3; ++repeat) {
        entryCalls = 0;
        std::fill(y, y + 12, -1.0f);
        ASSERT_EQ(dlcrt_model_run(model, &in, 1, &out, 1), nullptr);
        EXPECT_EQ(entryCalls.load(), 2);
        EXPECT_EQ(splitThreads.load(), threads >= 2 ? (int)threads / 2 : 1);
        for (int b = 0; b < 4; ++b) {
          if (rows) {
            for (int i = 0; i < 3; ++i)
              EXPECT_EQ(y[3 * b + i], x[3 * b + i] + x[3 * b]) << b << " " << i;
          } else {
            EXPECT_EQ(y[b], 2 * x[b]) << b;
            EXPECT_EQ(y[4 + b], x[4 + b] + x[b]) << b;
          }
        }
      }
      dlcrt_model_destroy(model);
    }
  }
}

// A dynamic batch compiled for chunks of up to 3 samples: the entry reads
// the chunk's size c from its input sizes, sees the chunk densely (a batch
// axis after a larger dimension through staging) and writes c at the
// output's batch axis. It adds 1000 c to each element, so that the output
// shows which chunk each sample ran in.
const int64_t kChunkRowShape[] = {DLC_DIM_DYNAMIC, 3};
const int64_t kChunkColShape[] = {2, DLC_DIM_DYNAMIC};
std::atomic<int> chunkThreads{0};

void addChunkSize(void **args, bool rows) {
  const float *x = static_cast<const float *>(args[0]);
  float *y = static_cast<float *>(args[1]);
  int64_t *outDims = static_cast<int64_t *>(args[2]);
  int64_t c = static_cast<const int64_t *>(args[3])[0];
  ++entryCalls;
  chunkThreads = *static_cast<const int32_t *>(args[5]);
  for (int64_t i = 0; i < 2 * c + (rows ? c : 0); ++i)
    y[i] = x[i] + 1000.0f * (float)c;
  outDims[0] = c;
}
void addChunkSizeRows(void **args) { addChunkSize(args, true); }
void addChunkSizeCols(void **args) { addChunkSize(args, false); }

const dlc_tensor_desc kChunkRowIn[] = {
    {"x", DLC_DTYPE_F32, 2, kChunkRowShape, 12, 0, 0, kChunkRowShape}};
const dlc_tensor_desc kChunkRowOut[] = {
    {"y", DLC_DTYPE_F32, 2, kChunkRowShape, 12, 0, 0, kChunkRowShape}};
const dlc_model_desc kChunkRowModel = {DLC_MODEL_ABI_VERSION,
                                       1,
                                       1,
                                       0,
                                       "chunk_rows",
                                       kChunkRowIn,
                                       kChunkRowOut,
                                       0,
                                       addChunkSizeRows,
                                       nullptr,
                                       1,
                                       1,
                                       3};
const dlc_tensor_desc kChunkColIn[] = {
    {"x", DLC_DTYPE_F32, 2, kChunkColShape, 8, 1, 0, kChunkColShape}};
const dlc_tensor_desc kChunkColOut[] = {
    {"y", DLC_DTYPE_F32, 2, kChunkColShape, 8, 1, 0, kChunkColShape}};
const dlc_model_desc kChunkColModel = {DLC_MODEL_ABI_VERSION,
                                       1,
                                       1,
                                       0,
                                       "chunk_cols",
                                       kChunkColIn,
                                       kChunkColOut,
                                       0,
                                       addChunkSizeCols,
                                       nullptr,
                                       1,
                                       1,
                                       3};

// Each thread's share of the batch runs in as few chunks as the chunk size
// allows, of about equal sizes: 7 samples on one thread as 2, 2 and 3; on
// two, as 3 and as 2 and 2.
TEST(BatchChunk, RunsChunksOfSamples) {
  for (const dlc_model_desc *desc : {&kChunkRowModel, &kChunkColModel}) {
    bool rows = desc == &kChunkRowModel;
    for (unsigned threads : {1u, 2u}) {
      dlc_options options;
      dlc_options_init(&options);
      options.num_threads = threads;
      dlcrt_model *model = nullptr;
      ASSERT_EQ(dlcrt_model_create(desc, &options, &model), nullptr);
      const int64_t shape[] = {rows ? 7 : 2, rows ? 3 : 7};
      float x[21], y[21];
      for (int i = 0; i < 21; ++i)
        x[i] = (float)i;
      size_t bytes = rows ? 84 : 56;
      dlc_tensor in = tensor(x, bytes, DLC_DTYPE_F32, 2, shape);
      dlc_tensor out = tensor(y, bytes, DLC_DTYPE_F32, 2, shape);
      const int64_t oneThread[] = {2, 2, 2, 2, 3, 3, 3};
      const int64_t twoThreads[] = {3, 3, 3, 2, 2, 2, 2};
      const int64_t *chunkOf = threads == 1 ? oneThread : twoThreads;
      for (int repeat = 0; repeat < 2; ++repeat) {
        entryCalls = 0;
        std::fill(y, y + 21, -1.0f);
        ASSERT_EQ(dlcrt_model_run(model, &in, 1, &out, 1), nullptr);
        EXPECT_EQ(entryCalls.load(), 3);
        EXPECT_EQ(chunkThreads.load(), 1);
        for (int b = 0; b < 7; ++b)
          for (int i = 0; i < (rows ? 3 : 2); ++i) {
            int at = rows ? 3 * b + i : 7 * i + b;
            EXPECT_EQ(y[at], x[at] + 1000.0f * (float)chunkOf[b])
                << b << " " << i;
          }
        const int64_t *ran = dlcrt_model_output_shape(model, 0);
        ASSERT_NE(ran, nullptr);
        EXPECT_EQ(ran[0], shape[0]);
        EXPECT_EQ(ran[1], shape[1]);
      }
      // A batch of one: one call with a chunk of 1.
      const int64_t one[] = {rows ? 1 : 2, rows ? 3 : 1};
      dlc_tensor in1 = tensor(x, bytes, DLC_DTYPE_F32, 2, one);
      dlc_tensor out1 = tensor(y, bytes, DLC_DTYPE_F32, 2, one);
      entryCalls = 0;
      ASSERT_EQ(dlcrt_model_run(model, &in1, 1, &out1, 1), nullptr);
      EXPECT_EQ(entryCalls.load(), 1);
      EXPECT_EQ(y[0], x[0] + 1000.0f);
      dlcrt_model_destroy(model);
    }
  }
}

// The batch is static: other sizes are refused with the whole shape.
TEST(BatchSplit, RejectsOtherBatchSizes) {
  dlcrt_model *model = nullptr;
  ASSERT_EQ(dlcrt_model_create(&kSplitRowModel, nullptr, &model), nullptr);
  float x[12] = {}, y[12] = {};
  const int64_t two[] = {2, 3};
  dlc_tensor in = tensor(x, 24, DLC_DTYPE_F32, 2, two);
  dlc_tensor out = tensor(y, 24, DLC_DTYPE_F32, 2, two);
  entryCalls = 0;
  std::string msg = takeMessage(dlcrt_model_run(model, &in, 1, &out, 1));
  EXPECT_NE(msg.find("input 0 ('x') has shape [2,3], expected [4,3]"),
            std::string::npos)
      << msg;
  EXPECT_EQ(entryCalls.load(), 0);
  dlcrt_model_destroy(model);
}

const dlc_model_desc kCudaModel = {
    DLC_MODEL_ABI_VERSION, 1,          1, 0, "add_one", kInputs, kOutputs, 24,
    cudaEntryMustNotRun,   &kCudaDesc, 0};

/// Sets DLC_CUDA_DRIVER for one test, restoring the old value.
struct DriverOverride {
  std::string old;
  bool had;
  explicit DriverOverride(const char *path) {
    const char *v = getenv("DLC_CUDA_DRIVER");
    had = v != nullptr;
    if (had)
      old = v;
    setenv("DLC_CUDA_DRIVER", path, 1);
  }
  ~DriverOverride() {
    if (had)
      setenv("DLC_CUDA_DRIVER", old.c_str(), 1);
    else
      unsetenv("DLC_CUDA_DRIVER");
  }
};

TEST(Cuda, NoDriverIsUnavailable) {
  DriverOverride d("/nonexistent/libcuda.so.1");
  dlcrt_model *model = reinterpret_cast<dlcrt_model *>(0x1);
  dlc_status *s = dlcrt_model_create(&kCudaModel, nullptr, &model);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(model, nullptr);
  EXPECT_EQ(dlc_status_code_of(s), DLC_UNAVAILABLE);
  std::string msg = takeMessage(s);
  EXPECT_EQ(msg.rfind("no CUDA driver: cannot load /nonexistent/libcuda.so.1", 0),
            0u)
      << msg;
  // Destroying the NULL handle that a failed create leaves is harmless.
  dlcrt_model_destroy(model);
}

TEST(Cuda, DriverWithoutSymbolsIsUnavailable) {
  // A shared library that is not a CUDA driver (libm has no cuInit).
  DriverOverride d("libm.so.6");
  dlcrt_model *model = nullptr;
  dlc_status *s = dlcrt_model_create(&kCudaModel, nullptr, &model);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(dlc_status_code_of(s), DLC_UNAVAILABLE);
  EXPECT_EQ(takeMessage(s), "no CUDA driver: libm.so.6 lacks cuInit (driver too old)");
  EXPECT_EQ(model, nullptr);
}

TEST(Cuda, CpuModelsIgnoreCudaOptions) {
  // CUDA options on a CPU model change nothing (no driver is loaded).
  DriverOverride d("/nonexistent/libcuda.so.1");
  dlc_options options;
  dlc_options_init(&options);
  options.cuda_device = 3;
  options.cuda_device_pointers = 1;
  dlcrt_model *model = nullptr;
  dlc_status *s = dlcrt_model_create(&kDesc, &options, &model);
  ASSERT_EQ(s, nullptr) << takeMessage(s);
  float x[6] = {1, 2, 3, 4, 5, 6}, y[6] = {};
  dlc_tensor in = tensor(x, sizeof x, DLC_DTYPE_F32, 2, kShape);
  dlc_tensor out = tensor(y, sizeof y, DLC_DTYPE_F32, 2, kShape);
  s = dlcrt_model_run(model, &in, 1, &out, 1);
  EXPECT_EQ(s, nullptr);
  EXPECT_EQ(y[5], 7.0f);
  dlcrt_model_destroy(model);
}

} // namespace

namespace {
// Against the driver stand-in (test/runtime/FakeCuda.c): a CUDA model whose
// kernel needs 64 KB of shared memory gets the attribute at create, and
// caller-owned device tensors must be 16-byte aligned.
const dlc_cuda_image kFakeImages[] = {
    {90, 0,
     ".version 8.0\n.target sm_90\n.visible .entry main_kernel(\n"
     ".param .u64 main_kernel_param_0\n)\n{\nret;\n}\n"}};
const uint32_t kBigShared[] = {64 * 1024};
const dlc_cuda_desc kFakeCudaDesc = {1,          1,         kFakeImages,
                                     kKernelNames, kBigShared, kConstants,
                                     256};
// Launches the kernel once (the stand-in refuses its 64 KB of shared memory
// unless create allowed them) with the input pointer as its parameter.
void launchOnce(void **args) {
  void *param = &args[0];
  dlcrt_cuda_launch(args[4], 0, 1, 1, 1, 32, 1, 1, &param);
}
const dlc_model_desc kFakeCudaModel = {DLC_MODEL_ABI_VERSION,
                                       1,
                                       1,
                                       0,
                                       "aligned",
                                       kInputs,
                                       kOutputs,
                                       24,
                                       launchOnce,
                                       &kFakeCudaDesc,
                                       0};

TEST(Cuda, DevicePointersMustBeAligned) {
  DriverOverride d(DLC_FAKE_CUDA_PATH);
  dlc_options options;
  dlc_options_init(&options);
  options.cuda_device_pointers = 1;
  dlcrt_model *model = nullptr;
  dlc_status *s = dlcrt_model_create(&kFakeCudaModel, &options, &model);
  ASSERT_EQ(s, nullptr) << takeMessage(s);
  alignas(16) float x[8] = {}, y[8] = {};
  dlc_tensor in = tensor(x, 24, DLC_DTYPE_F32, 2, kShape);
  dlc_tensor out = tensor(y, 24, DLC_DTYPE_F32, 2, kShape);
  EXPECT_EQ(dlcrt_model_run(model, &in, 1, &out, 1), nullptr);
  dlc_tensor shifted = tensor(x + 1, 24, DLC_DTYPE_F32, 2, kShape);
  s = dlcrt_model_run(model, &shifted, 1, &out, 1);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(dlc_status_code_of(s), DLC_INVALID_ARGUMENT);
  std::string msg = takeMessage(s);
  EXPECT_EQ(msg.rfind("run: with cuda_device_pointers, input 'x' must be "
                      "16-byte aligned",
                      0),
            0u)
      << msg;
  dlcrt_model_destroy(model);
}
// CUDA graphs against the stand-in, which logs launches, captures and
// graph launches (DLC_FAKE_CUDA_LOG): counts of each in one test's log.
struct FakeCudaLog {
  int launches = 0, captures = 0, graphLaunches = 0;
};
FakeCudaLog countLog(const std::string &log) {
  FakeCudaLog c;
  auto count = [&](const char *what) {
    int n = 0;
    for (size_t at = log.find(what); at != std::string::npos;
         at = log.find(what, at + 1))
      ++n;
    return n;
  };
  c.launches = count("fake-cuda: launch main_kernel");
  c.captures = count("fake-cuda: capture main_kernel");
  c.graphLaunches = count("fake-cuda: graph launch of 1 kernels");
  return c;
}

/// Creates kFakeCudaModel-like `desc` with `options` and runs it `runs`
/// times on host buffers (or on `devIn`/`devOut` pairs, one per run, with
/// cuda_device_pointers); returns the stand-in's log.
std::string runLogged(const dlc_model_desc *desc, dlc_options options, int runs,
                      float *const *devIn = nullptr,
                      float *const *devOut = nullptr) {
  DriverOverride d(DLC_FAKE_CUDA_PATH);
  setenv("DLC_FAKE_CUDA_LOG", "1", 1);
  dlcrt_model *model = nullptr;
  testing::internal::CaptureStderr();
  dlc_status *s = dlcrt_model_create(desc, &options, &model);
  alignas(16) float x[8] = {}, y[8] = {};
  for (int i = 0; !s && i < runs; ++i) {
    dlc_tensor in = tensor(devIn ? devIn[i] : x, 24, DLC_DTYPE_F32, 2, kShape);
    dlc_tensor out =
        tensor(devOut ? devOut[i] : y, 24, DLC_DTYPE_F32, 2, kShape);
    s = dlcrt_model_run(model, &in, 1, &out, 1);
  }
  std::string log = testing::internal::GetCapturedStderr();
  unsetenv("DLC_FAKE_CUDA_LOG");
  EXPECT_EQ(s, nullptr) << takeMessage(s);
  dlcrt_model_destroy(model);
  return log;
}

TEST(Cuda, GraphsReplayFixedLaunches) {
  dlc_options options;
  dlc_options_init(&options);
  // The first run launches, the second records and replays, the others
  // replay.
  FakeCudaLog c = countLog(runLogged(&kFakeCudaModel, options, 4));
  EXPECT_EQ(c.launches, 1);
  EXPECT_EQ(c.captures, 1);
  EXPECT_EQ(c.graphLaunches, 3);
  // Off: every run launches.
  options.cuda_graphs = DLC_CUDA_GRAPHS_OFF;
  c = countLog(runLogged(&kFakeCudaModel, options, 4));
  EXPECT_EQ(c.launches, 4);
  EXPECT_EQ(c.captures + c.graphLaunches, 0);
}

TEST(Cuda, GraphsFallBackWithoutCapture) {
  // A driver that cannot capture: plain launches, no error.
  setenv("DLC_FAKE_CUDA_NO_GRAPHS", "1", 1);
  dlc_options options;
  dlc_options_init(&options);
  FakeCudaLog c = countLog(runLogged(&kFakeCudaModel, options, 3));
  unsetenv("DLC_FAKE_CUDA_NO_GRAPHS");
  EXPECT_EQ(c.launches, 3);
  EXPECT_EQ(c.captures + c.graphLaunches, 0);
}

TEST(Cuda, GraphsOptionIsChecked) {
  DriverOverride d(DLC_FAKE_CUDA_PATH);
  dlc_options options;
  dlc_options_init(&options);
  options.cuda_graphs = 2;
  dlcrt_model *model = nullptr;
  dlc_status *s = dlcrt_model_create(&kFakeCudaModel, &options, &model);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(dlc_status_code_of(s), DLC_INVALID_ARGUMENT);
  EXPECT_EQ(takeMessage(s), "create: options.cuda_graphs is 2; it must be "
                            "DLC_CUDA_GRAPHS_AUTO (0) or DLC_CUDA_GRAPHS_OFF "
                            "(1)");
  EXPECT_EQ(model, nullptr);
}

TEST(Cuda, GraphsPerDeviceAddresses) {
  // Caller-owned device tensors: a graph per set of addresses, up to four;
  // the fifth set turns graphs off. Runs on sets 0, 0, 1, 0, 2, 3, 4, 0.
  alignas(16) static float in[5][8], out[5][8];
  const int order[] = {0, 0, 1, 0, 2, 3, 4, 0};
  float *ins[8], *outs[8];
  for (int i = 0; i < 8; ++i) {
    ins[i] = in[order[i]];
    outs[i] = out[order[i]];
  }
  dlc_options options;
  dlc_options_init(&options);
  options.cuda_device_pointers = 1;
  FakeCudaLog c = countLog(runLogged(&kFakeCudaModel, options, 8, ins, outs));
  // Run 1 launches; runs 2, 3, 5, 6 record sets 0, 1, 2, 3 and replay them,
  // run 4 replays set 0; runs 7 (set 4) and 8 launch.
  EXPECT_EQ(c.captures, 4);
  EXPECT_EQ(c.graphLaunches, 5);
  EXPECT_EQ(c.launches, 3);
}

// An entry that reads a value back from the device before its launch (as
// the host code of data-dependent shapes does) cannot be replayed.
void readThenLaunch(void **args) {
  float value = 0;
  dlcrt_cuda_read(args[4], reinterpret_cast<uintptr_t>(&value),
                  reinterpret_cast<uintptr_t>(args[0]), sizeof value);
  launchOnce(args);
}
const dlc_model_desc kReadingCudaModel = [] {
  dlc_model_desc desc = kFakeCudaModel;
  desc.model_name = "reads";
  desc.entry = readThenLaunch;
  return desc;
}();

TEST(Cuda, GraphsNotForHostReads) {
  dlc_options options;
  dlc_options_init(&options);
  FakeCudaLog c = countLog(runLogged(&kReadingCudaModel, options, 3));
  EXPECT_EQ(c.launches, 3);
  EXPECT_EQ(c.captures + c.graphLaunches, 0);
}

// A CUDA model with a host part (a kernel placed on the CPU): the entry
// takes the host workspace right after the device workspace (args: x, y,
// workspace, host workspace, constants, context); it reads x into the host
// workspace, doubles it there and writes the result to y on the device.
void hostPart(void **args) {
  auto *host = static_cast<float *>(args[3]);
  EXPECT_NE(host, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(host) % 64, 0u);
  dlcrt_cuda_read(args[5], reinterpret_cast<uintptr_t>(host),
                  reinterpret_cast<uintptr_t>(args[0]), 24);
  for (int i = 0; i < 6; ++i)
    host[i] *= 2;
  dlcrt_cuda_write(args[5], reinterpret_cast<uintptr_t>(args[1]),
                   reinterpret_cast<uintptr_t>(host), 24);
  // The caller may reuse the host bytes once the write returns.
  for (int i = 0; i < 6; ++i)
    host[i] = -1;
}
const dlc_model_desc kHostPartCudaModel = [] {
  dlc_model_desc desc = kFakeCudaModel;
  desc.model_name = "host_part";
  desc.entry = hostPart;
  desc.host_workspace_size = 64;
  return desc;
}();

TEST(Cuda, HostPartsGetTheHostWorkspaceAndTransfers) {
  DriverOverride d(DLC_FAKE_CUDA_PATH);
  dlc_options options;
  dlc_options_init(&options);
  dlcrt_model *model = nullptr;
  dlc_status *s = dlcrt_model_create(&kHostPartCudaModel, &options, &model);
  ASSERT_EQ(s, nullptr) << takeMessage(s);
  for (int run = 0; run < 3; ++run) {
    alignas(16) float x[6] = {1, 2, 3, 4, 5, float(run)}, y[6] = {};
    dlc_tensor in = tensor(x, 24, DLC_DTYPE_F32, 2, kShape);
    dlc_tensor out = tensor(y, 24, DLC_DTYPE_F32, 2, kShape);
    s = dlcrt_model_run(model, &in, 1, &out, 1);
    ASSERT_EQ(s, nullptr) << takeMessage(s);
    for (int i = 0; i < 6; ++i)
      EXPECT_EQ(y[i], 2 * x[i]) << "run " << run << ", element " << i;
  }
  dlcrt_model_destroy(model);
}

TEST(Cuda, HostPartsAreNotRecordedAsGraphs) {
  dlc_options options;
  dlc_options_init(&options);
  FakeCudaLog c = countLog(runLogged(&kHostPartCudaModel, options, 3));
  EXPECT_EQ(c.captures + c.graphLaunches, 0);
}

// The same on a cuda-emulator model (a CPU model: args x, y, workspace,
// host workspace, thread count; no context, so the transfers are copies).
void emulatedHostPart(void **args) {
  auto *host = static_cast<float *>(args[3]);
  EXPECT_NE(host, nullptr);
  EXPECT_EQ(*static_cast<int32_t *>(args[4]), 1) << "the thread count";
  dlcrt_cuda_read(nullptr, reinterpret_cast<uintptr_t>(host),
                  reinterpret_cast<uintptr_t>(args[0]), 24);
  for (int i = 0; i < 6; ++i)
    host[i] += 10;
  dlcrt_cuda_write(nullptr, reinterpret_cast<uintptr_t>(args[1]),
                   reinterpret_cast<uintptr_t>(host), 24);
}

TEST(Cuda, EmulatedHostPartsGetTheHostWorkspace) {
  dlc_model_desc desc = kDesc;
  desc.entry = emulatedHostPart;
  desc.host_workspace_size = 128;
  dlc_options options;
  dlc_options_init(&options);
  dlcrt_model *model = nullptr;
  dlc_status *s = dlcrt_model_create(&desc, &options, &model);
  ASSERT_EQ(s, nullptr) << takeMessage(s);
  float x[6] = {1, 2, 3, 4, 5, 6}, y[6] = {};
  dlc_tensor in = tensor(x, sizeof x, DLC_DTYPE_F32, 2, kShape);
  dlc_tensor out = tensor(y, sizeof y, DLC_DTYPE_F32, 2, kShape);
  s = dlcrt_model_run(model, &in, 1, &out, 1);
  ASSERT_EQ(s, nullptr) << takeMessage(s);
  EXPECT_EQ(y[0], 11.0f);
  EXPECT_EQ(y[5], 16.0f);
  dlcrt_model_destroy(model);
}

// Run-time checks of a CUDA model: their word lies at byte 16 of the
// device workspace (host memory in the stand-in, so the entry stands for a
// kernel and writes it directly): an input's first element < 0 fails check
// 1, > 100 writes a number past the checks.
void checkedOnDevice(void **args) {
  const float *x = static_cast<const float *>(args[0]);
  unsigned char *ws = static_cast<unsigned char *>(args[2]);
  uint32_t word;
  std::memcpy(&word, ws + 16, sizeof word);
  EXPECT_EQ(word, 0u) << "the runtime clears the word before each call";
  launchOnce(args);
  word = x[0] < 0 ? 1 : x[0] > 100 ? 9 : 0;
  if (word)
    std::memcpy(ws + 16, &word, sizeof word);
}

TEST(Cuda, FailedCheckFailsTheRunWithItsMessage) {
  DriverOverride d(DLC_FAKE_CUDA_PATH);
  dlc_model_desc desc = kFakeCudaModel;
  desc.entry = checkedOnDevice;
  desc.workspace_size = 24;
  desc.num_checks = 2;
  desc.check_offset = 16;
  desc.check_messages = kCheckMessages;
  for (int pointers = 0; pointers < 2; ++pointers) {
    dlc_options options;
    dlc_options_init(&options);
    // The stand-in's graphs do not run the entry again on replay.
    options.cuda_graphs = DLC_CUDA_GRAPHS_OFF;
    options.cuda_device_pointers = pointers;
    dlcrt_model *model = nullptr;
    dlc_status *s = dlcrt_model_create(&desc, &options, &model);
    ASSERT_EQ(s, nullptr) << takeMessage(s);
    alignas(16) float x[8] = {1, 2, 3, 4, 5, 6}, y[8] = {};
    dlc_tensor in = tensor(x, 24, DLC_DTYPE_F32, 2, kShape);
    dlc_tensor out = tensor(y, 24, DLC_DTYPE_F32, 2, kShape);
    EXPECT_EQ(dlcrt_model_run(model, &in, 1, &out, 1), nullptr);
    x[0] = -1;
    s = dlcrt_model_run(model, &in, 1, &out, 1);
    EXPECT_EQ(dlc_status_code_of(s), DLC_INVALID_ARGUMENT);
    EXPECT_EQ(takeMessage(s), "run: first check");
    x[0] = 1;
    EXPECT_EQ(dlcrt_model_run(model, &in, 1, &out, 1), nullptr);
    x[0] = 1000;
    s = dlcrt_model_run(model, &in, 1, &out, 1);
    EXPECT_EQ(dlc_status_code_of(s), DLC_INTERNAL);
    EXPECT_EQ(takeMessage(s), "run: check 9 of 2 failed");
    dlcrt_model_destroy(model);
  }
}

// An output of data-dependent shape [2, <=4]: the entry (after the input
// and the output) writes its actual size to the sizes array, here the
// number of positive inputs (hand-counted below), and the elements densely.
const int64_t kDynShape[] = {2, DLC_DIM_DYNAMIC};
const int64_t kDynMax[] = {2, 4};
const int64_t kFour[] = {4};
const dlc_tensor_desc kPosIn[] = {
    {"x", DLC_DTYPE_F32, 1, kFour, 16, -1, 0, kFour}};
const dlc_tensor_desc kPosOut[] = {
    {"p", DLC_DTYPE_F32, 2, kDynShape, 32, -1, 0, kDynMax}};

void positives(void **args) {
  const float *x = static_cast<const float *>(args[0]);
  float *p = static_cast<float *>(args[1]);
  int64_t *sizes = static_cast<int64_t *>(args[2]);
  int64_t n = 0;
  for (int i = 0; i < 4; ++i)
    if (x[i] > 0)
      ++n;
  // Row 0: the positives; row 1: their squares (dense at [2, n]).
  int64_t k = 0;
  for (int i = 0; i < 4; ++i)
    if (x[i] > 0) {
      p[k] = x[i];
      p[n + k] = x[i] * x[i];
      ++k;
    }
  sizes[0] = n;
}

const dlc_model_desc kPosModel = {DLC_MODEL_ABI_VERSION,
                                  1,
                                  1,
                                  0,
                                  "positives",
                                  kPosIn,
                                  kPosOut,
                                  0,
                                  positives,
                                  nullptr,
                                  1};

TEST(DataDependentShapes, RunShapeFollowsEachRun) {
  dlcrt_model *model = nullptr;
  ASSERT_EQ(dlcrt_model_create(&kPosModel, nullptr, &model), nullptr);
  EXPECT_EQ(dlcrt_model_output_shape(model, 0), nullptr); // before a run
  EXPECT_EQ(dlcrt_output_max_shape(&kPosModel, 0)[1], 4);
  float x[4] = {1, -2, 3, 0}, p[8] = {};
  int64_t any[] = {2, DLC_DIM_DYNAMIC};
  dlc_tensor in[] = {tensor(x, sizeof x, DLC_DTYPE_F32, 1, kFour)};
  dlc_tensor out[] = {tensor(p, sizeof p, DLC_DTYPE_F32, 2, any)};
  ASSERT_EQ(dlcrt_model_run(model, in, 1, out, 1), nullptr);
  const int64_t *shape = dlcrt_model_output_shape(model, 0);
  ASSERT_NE(shape, nullptr);
  EXPECT_EQ(shape[0], 2);
  EXPECT_EQ(shape[1], 2);
  EXPECT_EQ(p[0], 1.0f);
  EXPECT_EQ(p[1], 3.0f);
  EXPECT_EQ(p[2], 1.0f);
  EXPECT_EQ(p[3], 9.0f);
  // Another run, another size; the caller may pass the bound as the shape.
  float x2[4] = {5, 6, 7, 8};
  int64_t bound[] = {2, 4};
  in[0] = tensor(x2, sizeof x2, DLC_DTYPE_F32, 1, kFour);
  out[0] = tensor(p, sizeof p, DLC_DTYPE_F32, 2, bound);
  ASSERT_EQ(dlcrt_model_run(model, in, 1, out, 1), nullptr);
  EXPECT_EQ(dlcrt_model_output_shape(model, 0)[1], 4);
  EXPECT_EQ(dlcrt_model_output_shape(model, 1), nullptr); // out of range
  // A buffer below the bound is refused.
  out[0] = tensor(p, 16, DLC_DTYPE_F32, 2, any);
  std::string msg = takeMessage(dlcrt_model_run(model, in, 1, out, 1));
  EXPECT_NE(msg.find("buffer is 16 bytes, needs 32"), std::string::npos) << msg;
  dlcrt_model_destroy(model);
}
} // namespace

namespace {
// A CUDA model with a symbolic input dimension, against the driver
// stand-in: x [n, 2] with n in 1..4, y [n, 2] = 2 * x. The entry is host
// code as dlc generates it: it reads n from the input sizes and writes y's
// size to the output sizes (both host memory), and launches a kernel of n
// blocks. The stand-in runs no kernel code and keeps "device" buffers in
// host memory, so this entry computes y through the device pointers.
const int64_t kSymShape[] = {DLC_DIM_DYNAMIC, 2};
const int64_t kSymMin[] = {1, 2};
const int64_t kSymMax[] = {4, 2};
const char *const kSymNames[] = {"n", nullptr};
const dlc_tensor_desc kSymIn[] = {
    {"x", DLC_DTYPE_F32, 2, kSymShape, 32, -1, 0, kSymMax, kSymMin, kSymNames}};
const dlc_tensor_desc kSymOut[] = {
    {"y", DLC_DTYPE_F32, 2, kSymShape, 32, -1, 0, kSymMax, kSymShape, nullptr}};
const uint32_t kNoShared[] = {0};
const dlc_cuda_desc kSymCudaDesc = {
    1, 1, kFakeImages, kKernelNames, kNoShared, kConstants, 256};
int64_t symRows = 0;
float symDeviceTail[2] = {};

void doubleRows(void **args) {
  // x, y, the output sizes, the input sizes, workspace, constants, context.
  const float *x = static_cast<const float *>(args[0]);
  float *y = static_cast<float *>(args[1]);
  int64_t *outSizes = static_cast<int64_t *>(args[2]);
  const int64_t *inSizes = static_cast<const int64_t *>(args[3]);
  symRows = inSizes[0];
  for (int64_t i = 0; i < 2 * symRows; ++i)
    y[i] = 2 * x[i];
  // What the device copy of x holds after the run's rows (its buffer is
  // at the bound): nothing was copied there.
  symDeviceTail[0] = x[6];
  symDeviceTail[1] = x[7];
  void *param = &args[0];
  dlcrt_cuda_launch(args[6], 0, symRows, 1, 1, 32, 1, 1, &param);
  outSizes[0] = symRows;
}

const dlc_model_desc kSymCudaModel = {DLC_MODEL_ABI_VERSION,
                                      1,
                                      1,
                                      0,
                                      "double_rows",
                                      kSymIn,
                                      kSymOut,
                                      64,
                                      doubleRows,
                                      &kSymCudaDesc,
                                      1,
                                      1};

TEST(Cuda, SymbolicDimensionsCopyTheRunsBytes) {
  DriverOverride d(DLC_FAKE_CUDA_PATH);
  dlcrt_model *model = nullptr;
  dlc_status *s = dlcrt_model_create(&kSymCudaModel, nullptr, &model);
  ASSERT_EQ(s, nullptr) << takeMessage(s);
  // Three rows, then values that must not reach the device.
  float x[8] = {1, 2, 3, 4, 5, 6, 99, 99};
  float y[8];
  std::fill(y, y + 8, 42.0f);
  const int64_t three[] = {3, 2};
  dlc_tensor in = tensor(x, sizeof x, DLC_DTYPE_F32, 2, three);
  dlc_tensor out = tensor(y, sizeof y, DLC_DTYPE_F32, 2, kSymShape);
  s = dlcrt_model_run(model, &in, 1, &out, 1);
  ASSERT_EQ(s, nullptr) << takeMessage(s);
  EXPECT_EQ(symRows, 3);
  EXPECT_EQ(symDeviceTail[0], 0.0f);
  EXPECT_EQ(symDeviceTail[1], 0.0f);
  for (int i = 0; i < 6; ++i)
    EXPECT_EQ(y[i], 2.0f * (i + 1)) << i;
  // Only the run's elements come back: the caller's buffer after them is
  // as it was.
  EXPECT_EQ(y[6], 42.0f);
  EXPECT_EQ(y[7], 42.0f);
  const int64_t *shape = dlcrt_model_output_shape(model, 0);
  ASSERT_NE(shape, nullptr);
  EXPECT_EQ(shape[0], 3);
  EXPECT_EQ(shape[1], 2);
  // Another size from the same model; one outside the range is refused.
  const int64_t one[] = {1, 2};
  in = tensor(x, 8, DLC_DTYPE_F32, 2, one);
  ASSERT_EQ(dlcrt_model_run(model, &in, 1, &out, 1), nullptr);
  EXPECT_EQ(symRows, 1);
  EXPECT_EQ(dlcrt_model_output_shape(model, 0)[0], 1);
  const int64_t five[] = {5, 2};
  in = tensor(x, sizeof x, DLC_DTYPE_F32, 2, five);
  std::string msg = takeMessage(dlcrt_model_run(model, &in, 1, &out, 1));
  EXPECT_NE(msg.find("'n'"), std::string::npos) << msg;
  dlcrt_model_destroy(model);
}
} // namespace

namespace {
// A CUDA model whose output size the device computes: the entry reads the
// first input element back from the device copy (dlcrt_cuda_read, against
// the driver stand-in) and makes it y's length, then writes y through the
// device pointer (the stand-in's device memory is host memory).
const int64_t kReadInShape[] = {4};
const int64_t kReadOutShape[] = {DLC_DIM_DYNAMIC};
const dlc_tensor_desc kReadIn[] = {
    {"x", DLC_DTYPE_F32, 1, kReadInShape, 16, -1, 0, kReadInShape}};
const dlc_tensor_desc kReadOut[] = {
    {"y", DLC_DTYPE_F32, 1, kReadOutShape, 16, -1, 0, kReadInShape}};

void readLength(void **args) {
  // x, y, the output sizes, workspace, constants, context.
  float first = -1;
  dlcrt_cuda_read(args[5], reinterpret_cast<uintptr_t>(&first),
                  reinterpret_cast<uintptr_t>(args[0]), sizeof first);
  int64_t n = static_cast<int64_t>(first);
  float *y = static_cast<float *>(args[1]);
  for (int64_t i = 0; i < n; ++i)
    y[i] = 10.0f + i;
  static_cast<int64_t *>(args[2])[0] = n;
}

const dlc_model_desc kReadModel = {DLC_MODEL_ABI_VERSION,
                                   1,
                                   1,
                                   0,
                                   "read_length",
                                   kReadIn,
                                   kReadOut,
                                   64,
                                   readLength,
                                   &kSymCudaDesc,
                                   1,
                                   0};

TEST(Cuda, HostReadsValuesBackFromTheDevice) {
  DriverOverride d(DLC_FAKE_CUDA_PATH);
  dlcrt_model *model = nullptr;
  dlc_status *s = dlcrt_model_create(&kReadModel, nullptr, &model);
  ASSERT_EQ(s, nullptr) << takeMessage(s);
  float x[4] = {3, 0, 0, 0}, y[4] = {42, 42, 42, 42};
  const int64_t any[] = {DLC_DIM_DYNAMIC};
  dlc_tensor in = tensor(x, sizeof x, DLC_DTYPE_F32, 1, kReadInShape);
  dlc_tensor out = tensor(y, sizeof y, DLC_DTYPE_F32, 1, any);
  s = dlcrt_model_run(model, &in, 1, &out, 1);
  ASSERT_EQ(s, nullptr) << takeMessage(s);
  ASSERT_NE(dlcrt_model_output_shape(model, 0), nullptr);
  EXPECT_EQ(dlcrt_model_output_shape(model, 0)[0], 3);
  EXPECT_EQ(y[0], 10.0f);
  EXPECT_EQ(y[1], 11.0f);
  EXPECT_EQ(y[2], 12.0f);
  EXPECT_EQ(y[3], 42.0f);
  // Without a context (a cuda-emulator model) it is a plain copy.
  float back = 0;
  dlcrt_cuda_read(nullptr, reinterpret_cast<uintptr_t>(&back),
                  reinterpret_cast<uintptr_t>(&x[0]), sizeof back);
  EXPECT_EQ(back, 3.0f);
  dlcrt_model_destroy(model);
}
} // namespace

// A model with state (dlc_model_desc.state_size): the entry gets it before
// the workspace, zeroed at create, 64-byte aligned, and finds what the
// previous call left there. The entry counts its calls in the state's first
// word and adds the count to x; it also checks that the rest of the state
// was zero on the first call.
std::atomic<int> stateZeroed{-1};
std::atomic<bool> stateAligned{false};
void addCalls(void **args) {
  const float *x = static_cast<const float *>(args[0]);
  float *y = static_cast<float *>(args[1]);
  auto *state = static_cast<uint32_t *>(args[2]);
  stateAligned =
      reinterpret_cast<uintptr_t>(state) % 64 == 0 && args[2] != args[3];
  if (state[0] == 0)
    stateZeroed =
        std::all_of(state, state + 32, [](uint32_t v) { return v == 0; });
  for (int i = 0; i < 6; ++i)
    y[i] = x[i] + (float)state[0];
  ++state[0];
  std::fill(state + 1, state + 32, 7u);
}

dlc_model_desc stateModel() {
  dlc_model_desc d = kDesc;
  d.model_name = "add_calls";
  d.entry = addCalls;
  d.state_size = 128;
  return d;
}

TEST(State, KeptFromCallToCallPerInstance) {
  const dlc_model_desc desc = stateModel();
  float ws[64] __attribute__((aligned(64)));
  for (bool given : {false, true}) {
    dlc_options options;
    dlc_options_init(&options);
    if (given) {
      options.workspace = ws;
      options.workspace_size = sizeof ws;
    }
    dlcrt_model *a = nullptr, *b = nullptr;
    ASSERT_EQ(dlcrt_model_create(&desc, &options, &a), nullptr);
    ASSERT_EQ(dlcrt_model_create(&desc, nullptr, &b), nullptr);
    float x[6] = {1, 2, 3, 4, 5, 6}, y[6];
    dlc_tensor in = tensor(x, sizeof x, DLC_DTYPE_F32, 2, kShape);
    dlc_tensor out = tensor(y, sizeof y, DLC_DTYPE_F32, 2, kShape);
    for (int call = 0; call < 3; ++call) {
      stateZeroed = -1;
      ASSERT_EQ(dlcrt_model_run(a, &in, 1, &out, 1), nullptr);
      EXPECT_TRUE(stateAligned.load());
      EXPECT_EQ(stateZeroed.load(), call == 0 ? 1 : -1);
      EXPECT_EQ(y[0], 1.0f + (float)call);
      EXPECT_EQ(y[5], 6.0f + (float)call);
    }
    // Another instance has its own state.
    ASSERT_EQ(dlcrt_model_run(b, &in, 1, &out, 1), nullptr);
    EXPECT_EQ(stateZeroed.load(), 1);
    EXPECT_EQ(y[0], 1.0f);
    dlcrt_model_destroy(a);
    dlcrt_model_destroy(b);
  }
}
