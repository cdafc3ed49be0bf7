//===- RuntimeFuzzer.cpp - libFuzzer target: the runtime's tensor checks --===//
//
// The fuzz bytes pick one of a few hand-written model descriptions (static
// shapes with a run-time index check, a dynamic batch run per sample and in
// chunks, a split static batch, symbolic input dimensions, a data-dependent
// output), create options (threads, a caller workspace of any size and
// alignment) and a few calls of run whose tensors are mostly right and
// sometimes wrong in one respect (count, NULL data, dtype, rank, a
// dimension, the buffer size). Every buffer is allocated at exactly the
// size the call declares, and each entry point reads every input byte and
// writes every output and workspace byte the description implies for the
// sizes the runtime passed it: anything the runtime accepts but should have
// refused is an out-of-bounds access under AddressSanitizer. A refusal must
// be DLC_INVALID_ARGUMENT with a message; a call whose tensors are all right
// must succeed unless an index is out of range, and data-dependent output
// shapes must be what the entry wrote. Built by scripts/fuzz.sh.
//
//===----------------------------------------------------------------------===//
#include "tools/fuzz/FuzzInput.h"

#include "dlc/dlc_model_abi.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

using dlc::fuzz::ByteReader;

namespace {

constexpr int64_t D = DLC_DIM_DYNAMIC;

/// What an entry point needs to know beyond its descriptor.
enum class Kind { Static, Batch, Chunk, Split, Symbolic, NonZero };

struct Model {
  Kind kind;
  dlc_model_desc desc;
};

const Model *current; // the model whose entry runs (read-only while it runs)
bool indexOutOfRange; // the last entry call found a bad index
thread_local uint64_t sink; // input bytes are read into it

void readAll(const void *p, uint64_t bytes) {
  const volatile uint8_t *b = static_cast<const volatile uint8_t *>(p);
  for (uint64_t i = 0; i < bytes; ++i)
    sink += b[i];
}

void writeAll(void *p, uint64_t bytes) { memset(p, 0x5a, bytes); }

uint64_t elements(const dlc_tensor_desc &t) {
  uint64_t n = 1;
  for (int32_t d = 0; d < t.rank; ++d)
    n *= t.shape[d] == D ? 1 : t.shape[d];
  return n;
}

// --- The models -----------------------------------------------------------

// y[2,3] = x gathered at idx[2]; the index check of a Gather.
const int64_t kX23[] = {2, 3}, kIdx[] = {2};
const dlc_tensor_desc kStaticIn[] = {
    {"x", DLC_DTYPE_F32, 2, kX23, 24, -1, 0, kX23, kX23, nullptr},
    {"idx", DLC_DTYPE_I64, 1, kIdx, 16, -1, 0, kIdx, kIdx, nullptr}};
const dlc_tensor_desc kStaticOut[] = {
    {"y", DLC_DTYPE_F32, 2, kX23, 24, -1, 0, kX23, kX23, nullptr}};
const char *const kCheckMessages[] = {
    "node 'g' (Gather): an index is outside [-2, 2)"};

// A dynamic batch: x[N,3] and w[3] -> y[2,N] (batch axis 1: staged) and
// z[N,1].
const int64_t kBatchX[] = {D, 3}, kW[] = {3}, kBatchY[] = {2, D},
              kBatchZ[] = {D, 1};
const dlc_tensor_desc kBatchIn[] = {
    {"x", DLC_DTYPE_F32, 2, kBatchX, 12, 0, 0, kBatchX, kBatchX, nullptr},
    {"w", DLC_DTYPE_F32, 1, kW, 12, -1, 0, kW, kW, nullptr}};
const dlc_tensor_desc kBatchOut[] = {
    {"y", DLC_DTYPE_F32, 2, kBatchY, 8, 1, 0, kBatchY, kBatchY, nullptr},
    {"z", DLC_DTYPE_U8, 2, kBatchZ, 1, 0, 0, kBatchZ, kBatchZ, nullptr}};

// A split static batch: x[4,2] -> y[4] in two sub-batches.
const int64_t kSplitX[] = {4, 2}, kSplitY[] = {4};
const dlc_tensor_desc kSplitIn[] = {
    {"x", DLC_DTYPE_F32, 2, kSplitX, 32, 0, 0, kSplitX, kSplitX, nullptr}};
const dlc_tensor_desc kSplitOut[] = {
    {"y", DLC_DTYPE_I16, 1, kSplitY, 8, 0, 0, kSplitY, kSplitY, nullptr}};

// Symbolic dimensions: x[N,4] and m[N] with N in 1..8 -> y[N,4].
const int64_t kSymX[] = {D, 4}, kSymXMin[] = {1, 4}, kSymXMax[] = {8, 4};
const int64_t kSymM[] = {D}, kSymMMin[] = {1}, kSymMMax[] = {8};
const char *const kSymXNames[] = {"N", nullptr}, *const kSymMNames[] = {"N"};
const dlc_tensor_desc kSymIn[] = {
    {"x", DLC_DTYPE_F32, 2, kSymX, 128, -1, 0, kSymXMax, kSymXMin, kSymXNames},
    {"m", DLC_DTYPE_I32, 1, kSymM, 32, -1, 0, kSymMMax, kSymMMin, kSymMNames}};
const dlc_tensor_desc kSymOut[] = {
    {"y", DLC_DTYPE_F32, 2, kSymX, 128, -1, 0, kSymXMax, kSymX, nullptr}};

// A data-dependent output: y[1,K] = the indices of x[6]'s nonzero bytes.
const int64_t kNzX[] = {6}, kNzY[] = {1, D}, kNzYMax[] = {1, 6};
const dlc_tensor_desc kNzIn[] = {
    {"x", DLC_DTYPE_U8, 1, kNzX, 6, -1, 0, kNzX, kNzX, nullptr}};
const dlc_tensor_desc kNzOut[] = {
    {"y", DLC_DTYPE_I64, 2, kNzY, 48, -1, 0, kNzYMax, kNzY, nullptr}};

void entry(void **args);

dlc_model_desc desc(const char *name, uint32_t ni, const dlc_tensor_desc *in,
                    uint32_t no, const dlc_tensor_desc *out) {
  dlc_model_desc d = {};
  d.abi_version = DLC_MODEL_ABI_VERSION;
  d.num_inputs = ni;
  d.num_outputs = no;
  d.model_name = name;
  d.inputs = in;
  d.outputs = out;
  d.workspace_size = 96;
  d.entry = entry;
  return d;
}

const std::vector<Model> &models() {
  static const std::vector<Model> all = [] {
    std::vector<Model> m;
    dlc_model_desc s = desc("static", 2, kStaticIn, 1, kStaticOut);
    s.num_checks = 1;
    s.check_offset = 64;
    s.check_messages = kCheckMessages;
    m.push_back({Kind::Static, s});
    m.push_back({Kind::Batch, desc("batch", 2, kBatchIn, 2, kBatchOut)});
    dlc_model_desc c = desc("chunk", 2, kBatchIn, 2, kBatchOut);
    c.batch_chunk = 3;
    c.num_input_dynamic_dims = 1; // x's batch axis
    c.num_dynamic_dims = 2;       // y's and z's
    m.push_back({Kind::Chunk, c});
    dlc_model_desc sp = desc("split", 1, kSplitIn, 1, kSplitOut);
    sp.batch_split = 2;
    m.push_back({Kind::Split, sp});
    dlc_model_desc sy = desc("symbolic", 2, kSymIn, 1, kSymOut);
    sy.num_input_dynamic_dims = 2;
    sy.num_dynamic_dims = 1;
    m.push_back({Kind::Symbolic, sy});
    dlc_model_desc nz = desc("nonzero", 1, kNzIn, 1, kNzOut);
    nz.num_dynamic_dims = 1;
    m.push_back({Kind::NonZero, nz});
    return m;
  }();
  return all;
}

/// The entry point of every model: touches exactly the bytes its call may.
void entry(void **args) {
  const dlc_model_desc &d = current->desc;
  size_t ni = d.num_inputs, nt = ni + d.num_outputs, at = nt;
  int64_t *dims =
      d.num_dynamic_dims ? static_cast<int64_t *>(args[at++]) : nullptr;
  const int64_t *inDims = d.num_input_dynamic_dims
                              ? static_cast<const int64_t *>(args[at++])
                              : nullptr;
  void *workspace = args[at];
  int32_t threads = *static_cast<const int32_t *>(args[at + 1]);
  if (threads < 1 || (reinterpret_cast<uintptr_t>(workspace) & 63))
    abort();
  writeAll(workspace, d.num_checks ? d.check_offset : d.workspace_size);
  auto tensor = [&](size_t k) -> const dlc_tensor_desc & {
    return k < ni ? d.inputs[k] : d.outputs[k - ni];
  };
  auto touch = [&](size_t k, uint64_t bytes) {
    if (k < ni)
      readAll(args[k], bytes);
    else
      writeAll(args[k], bytes);
  };
  switch (current->kind) {
  case Kind::Static: {
    readAll(args[0], 24);
    const int64_t *idx = static_cast<const int64_t *>(args[1]);
    for (int i = 0; i < 2; ++i)
      if (idx[i] < -2 || idx[i] >= 2) {
        uint32_t failed = 1;
        memcpy(static_cast<char *>(workspace) + d.check_offset, &failed, 4);
        indexOutOfRange = true;
        return;
      }
    writeAll(args[2], 24);
    return;
  }
  case Kind::Batch:
  case Kind::Split:
  case Kind::Chunk: {
    // Batched tensors hold one sample (Batch), one sub-batch (Split) or the
    // chunk's samples (Chunk); the others whole.
    uint64_t c = current->kind == Kind::Chunk ? inDims[0] : 1;
    if (current->kind == Kind::Chunk) {
      if (c < 1 || c > d.batch_chunk)
        abort();
      dims[0] = dims[1] = (int64_t)c;
    }
    for (size_t k = 0; k < nt; ++k) {
      const dlc_tensor_desc &t = tensor(k);
      uint64_t bytes = t.size_bytes;
      if (t.batch_axis >= 0)
        bytes =
            current->kind == Kind::Split ? bytes / d.batch_split : bytes * c;
      touch(k, bytes);
    }
    return;
  }
  case Kind::Symbolic: {
    int64_t n = inDims[0];
    if (n < 1 || n > 8 || inDims[1] != n)
      abort();
    readAll(args[0], n * 16);
    readAll(args[1], n * 4);
    dims[0] = n;
    writeAll(args[2], n * 16);
    return;
  }
  case Kind::NonZero: {
    const uint8_t *x = static_cast<const uint8_t *>(args[0]);
    int64_t *y = static_cast<int64_t *>(args[1]);
    int64_t count = 0;
    for (int i = 0; i < 6; ++i)
      if (x[i])
        y[count++] = i;
    dims[0] = count;
    return;
  }
  }
}

/// One tensor of a call: its buffer, shape and view.
struct Arg {
  std::vector<int64_t> shape;
  std::vector<uint8_t> buffer; // exactly size_bytes
  dlc_tensor view{};
};

/// A dimension that is often wrong.
int64_t fuzzDim(ByteReader &in) {
  static const int64_t odd[] = {0, -1, -2,        1,         2,
                                3, 9,  INT64_MAX, INT64_MIN, int64_t(1) << 40};
  return odd[in.below(sizeof odd / sizeof *odd)];
}

/// Fills `a` for tensor `t` of a call with batch (or symbolic size) `n`,
/// breaking it in the way `fault` says (0: right).
void makeArg(ByteReader &in, const Model &m, const dlc_tensor_desc &t,
             int64_t n, unsigned fault, Arg &a) {
  a.shape.assign(t.shape, t.shape + t.rank);
  uint64_t bytes = elements(t) * dlc_dtype_size((dlc_dtype)t.dtype);
  for (int32_t d = 0; d < t.rank; ++d) {
    if (t.shape[d] != D)
      continue;
    bool symbolic = t.dim_names && t.dim_names[d];
    bool batch = d == t.batch_axis && m.kind != Kind::Split;
    if (symbolic || batch) {
      a.shape[d] = n;
      bytes *= (uint64_t)n;
    } else { // a data-dependent output: -1 or its bound
      a.shape[d] = in.flag() ? D : t.max_shape[d];
      bytes *= (uint64_t)t.max_shape[d];
    }
  }
  int dtype = t.dtype;
  int32_t rank = t.rank;
  bool null = false;
  switch (fault) {
  case 1:
    null = true;
    break;
  case 2:
    dtype = (int)in.below(15);
    break;
  case 3: // the shape array holds `rank` sizes, as the API requires
    rank = (int32_t)in.below(4);
    a.shape.resize(rank, 1 + (int64_t)in.below(3));
    break;
  case 4:
    if (t.rank)
      a.shape[in.below(t.rank)] = fuzzDim(in);
    break;
  case 5: // too small
    bytes -= std::min<uint64_t>(bytes, 1 + in.below(8));
    break;
  case 6:
    bytes = in.below(1 << 12);
    break;
  default:
    break;
  }
  bytes = std::min<uint64_t>(bytes, 1 << 20);
  a.buffer.assign(bytes, 1);
  for (auto &b : a.buffer)
    b = in.flag() ? 0 : 1; // data (indices, nonzeros) from the input
  if (m.kind == Kind::Static && t.dtype == DLC_DTYPE_I64 && bytes >= 16) {
    int64_t idx[2] = {(int64_t)in.below(6) - 3, (int64_t)in.below(6) - 3};
    memcpy(a.buffer.data(), idx, sizeof idx);
  }
  // A one-byte allocation stands behind empty buffers, so data is not NULL.
  if (a.buffer.empty())
    a.buffer.reserve(1);
  a.view.data = null ? nullptr : a.buffer.data();
  a.view.size_bytes = bytes;
  a.view.dtype = (dlc_dtype)dtype;
  a.view.rank = rank;
  a.view.shape = a.shape.empty() ? nullptr : a.shape.data();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  ByteReader in(data, size);
  const Model &m = models()[in.below(models().size())];
  current = &m;
  dlc_options options;
  dlc_options_init(&options);
  options.num_threads = (uint32_t)in.below(5);
  std::vector<uint8_t> workspace;
  if (in.flag()) {
    size_t bytes = (size_t)in.below(160), misalign = in.flag() ? 8 : 0;
    workspace.resize(bytes + 64 + misalign);
    uintptr_t p = reinterpret_cast<uintptr_t>(workspace.data());
    options.workspace = workspace.data() + ((64 - (p & 63)) & 63) + misalign;
    options.workspace_size = bytes;
  }
  dlcrt_model *model = nullptr;
  dlc_status *s = dlcrt_model_create(&m.desc, &options, &model);
  if (s) {
    bool tooSmall = options.workspace &&
                    (options.workspace_size < m.desc.workspace_size ||
                     (reinterpret_cast<uintptr_t>(options.workspace) & 63));
    if (!tooSmall || dlc_status_code_of(s) != DLC_INVALID_ARGUMENT)
      abort(); // create refuses only a bad workspace
    dlc_status_free(s);
    return 0;
  }
  for (int call = 0, calls = 1 + (int)in.below(3); call < calls; ++call) {
    // Batch size, or the symbolic size N.
    int64_t n = 1 + (int64_t)in.below(m.kind == Kind::Symbolic ? 8 : 5);
    // Mostly right; else one tensor wrong in one way.
    unsigned fault = in.below(4) == 0 ? 1 + (unsigned)in.below(6) : 0;
    size_t ni = m.desc.num_inputs, nt = ni + m.desc.num_outputs;
    size_t faulty = in.below(nt);
    std::vector<Arg> args(nt);
    std::vector<dlc_tensor> views(nt);
    for (size_t k = 0; k < nt; ++k) {
      const dlc_tensor_desc &t =
          k < ni ? m.desc.inputs[k] : m.desc.outputs[k - ni];
      makeArg(in, m, t, n, k == faulty ? fault : 0, args[k]);
      views[k] = args[k].view;
    }
    size_t numIn = ni, numOut = nt - ni;
    if (in.below(16) == 0) // a wrong count
      (in.flag() ? numIn : numOut) += in.flag() ? 1 : -1;
    indexOutOfRange = false;
    s = dlcrt_model_run(model, numIn ? views.data() : nullptr, numIn,
                        numOut ? views.data() + ni : nullptr, numOut);
    if (s) {
      if (dlc_status_code_of(s) != DLC_INVALID_ARGUMENT ||
          !*dlc_status_message(s))
        abort();
      bool wrong = fault || numIn != ni || numOut != nt - ni;
      if (!wrong && !indexOutOfRange)
        abort(); // a right call refused
      dlc_status_free(s);
      continue;
    }
    if (indexOutOfRange)
      abort(); // a failed check not reported
    const int64_t *shape = dlcrt_model_output_shape(model, 0);
    if (m.kind == Kind::Symbolic && (!shape || shape[0] != n))
      abort(); // the output has the inputs' size
    if (m.kind == Kind::NonZero &&
        (!shape || shape[0] != 1 || shape[1] < 0 || shape[1] > 6))
      abort(); // the count the entry wrote
  }
  dlcrt_model_destroy(model);
  return 0;
}
