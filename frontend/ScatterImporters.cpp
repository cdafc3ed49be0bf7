//===- ScatterImporters.cpp - ScatterElements, Scatter, ScatterND ---------===//
//
// Scatters decompose into gathers and masks over the positions that could
// write each output element, built from the ops' own importers:
// - ScatterElements (and the deprecated Scatter): the output element at j
//   along `axis` takes, among the T update positions that share its other
//   coordinates, the last whose index is j (reduction none), or the data
//   plus the sum (add) or times the product (mul) of all of them. The mask
//   is [data shape..., T].
// - ScatterND: the k-index of each of the N updates becomes one offset
//   into the P = prod(data.shape[:k]) slices of data; each slice takes the
//   last update that addresses it, or the sum or product of all. The mask
//   is [P, N].
// An index out of range matches no element (nothing is written out of
// bounds); constant ones are an error of the compile, run-time ones a
// dlc.check_indices (reported by the run on the CPU target). The work is
// the mask's size: fine for the scatters of model code (a few rows, a
// cache update), quadratic for a scatter of everything onto everything.
//
//===----------------------------------------------------------------------===//
#include "frontend/NodeImporter.h"
#include "ir/DlcOps.h"

#include <numeric>

using namespace mlir;
using namespace dlc;

namespace {

/// ONNX-level op building for one node.
struct Build : OnnxOps {

  /// 0, 1, ..., n - 1 along dimension `dim` of a rank-`rank` tensor whose
  /// other dimensions are 1.
  Value iota(int64_t n, int64_t dim, int64_t rank) {
    SmallVector<int64_t> shape(rank, 1), values(n);
    shape[dim] = n;
    std::iota(values.begin(), values.end(), 0);
    return i64(shape, values);
  }
  Value scalarLike(Value v, double x) {
    return scalarConstant(nc, typeOf(v).getElementType(), x);
  }
  /// Indices as int64 with negative ones counted from `size` (a tensor of
  /// sizes broadcasting against them).
  Value normalized(Value indices, Value size) {
    if (!typeOf(indices).getElementType().isInteger(64))
      indices = castValue(nc, indices, nc.builder.getI64Type());
    Value negative = op("Less", {indices, i64({}, {0})});
    return op("Where", {negative, op("Add", {indices, size}), indices});
  }
  /// For each row of `mask` [..., M] (true where position m writes the
  /// element), the last such m of `values` [..., M] (broadcast), and
  /// whether there is one; `m` counts along the last axis `axis`.
  std::pair<Value, Value> lastMatch(Value mask, Value values, int64_t axis) {
    int64_t m = typeOf(mask).getDimSize(axis);
    int64_t rank = typeOf(mask).getRank();
    Value candidates = op("Where", {mask, iota(m, axis, rank), i64({}, {-1})});
    Value last =
        op("ReduceMax", {candidates},
           {intsAttribute("axes", {axis}), intAttribute("keepdims", 1)});
    Value found = op("GreaterOrEqual", {last, i64({}, {0})});
    Value safe = op("Max", {last, i64({}, {0})});
    SmallVector<int64_t> full(typeOf(mask).getShape());
    Value wide = op("Expand", {values, i64({(int64_t)full.size()}, full)});
    Value picked =
        op("GatherElements", {wide, safe}, {intAttribute("axis", axis)});
    return {found, picked};
  }
  /// data combined with the values `mask` selects along `axis` (removed):
  /// reduction "add" or "mul".
  Value reduceInto(Value data, Value mask, Value values, int64_t axis,
                   StringRef reduction) {
    bool add = reduction == "add";
    Value neutral = scalarLike(values, add ? 0 : 1);
    Value selected = op("Where", {mask, values, neutral});
    Value combined =
        add ? op("ReduceSum", {selected, i64({1}, {axis})},
                 {intAttribute("keepdims", 0)})
            : op("ReduceProd", {selected},
                 {intsAttribute("axes", {axis}), intAttribute("keepdims", 0)});
    return op(add ? "Add" : "Mul", {data, combined});
  }
};

/// The operands of a scatter node (data, indices, updates) and its
/// reduction, checked.
struct Scatter {
  Value data, indices, updates;
  RankedTensorType dt, it, ut;
  std::string reduction;

  static FailureOr<Scatter> parse(NodeContext &nc) {
    if (failed(requireOperands(nc, 3)))
      return failure();
    Scatter s{nc.operand(0),
              nc.operand(1),
              nc.operand(2),
              typeOf(nc.operand(0)),
              typeOf(nc.operand(1)),
              typeOf(nc.operand(2)),
              nc.stringAttr("reduction", "none")};
    if (s.reduction != "none" && s.reduction != "add" && s.reduction != "mul")
      return nc.error() << "reduction '" << s.reduction
                        << "' is not supported (none, add, mul)",
             failure();
    return s;
  }
};

NodeResults importScatterElements(NodeContext &nc) {
  FailureOr<Scatter> parsed = Scatter::parse(nc);
  if (failed(parsed))
    return failure();
  auto [data, indices, updates, dt, it, ut, reduction] = *parsed;
  int64_t rank = dt.getRank();
  FailureOr<int64_t> axis = normalizeAxis(nc, nc.intAttr("axis", 0), rank);
  if (failed(axis))
    return failure();
  if (it.getShape() != ut.getShape() || it.getRank() != rank ||
      !dt.hasStaticShape() || !it.hasStaticShape())
    return nc.error() << "indices " << it << " and updates " << ut
                      << " must have one static shape of the data's rank ("
                      << dt << ")",
           failure();
  for (int64_t d = 0; d < rank; ++d)
    if (d != *axis && it.getDimSize(d) > dt.getDimSize(d))
      return nc.error() << "indices " << it << " are larger than the data "
                        << dt << " in dimension " << d,
             failure();
  indices = checkIndices(nc, indices, {dt.getDimSize(*axis)});
  if (!indices)
    return failure();
  Build b{{nc}};
  Value idx = b.normalized(indices, b.i64({}, {dt.getDimSize(*axis)}));
  // Positions outside the indices (other dimensions smaller than the
  // data's) write nothing: pad with index -1.
  SmallVector<int64_t> pads(2 * rank, 0);
  bool padded = false;
  for (int64_t d = 0; d < rank; ++d)
    if (d != *axis && it.getDimSize(d) < dt.getDimSize(d)) {
      pads[rank + d] = dt.getDimSize(d) - it.getDimSize(d);
      padded = true;
    }
  if (padded) {
    Value padsValue = b.i64({2 * rank}, pads);
    idx = b.op("Pad", {idx, padsValue, b.i64({}, {-1})});
    updates = b.op("Pad", {updates, padsValue});
  }
  // [d..., T]: the axis moved last, then a unit dimension where it was.
  SmallVector<int64_t> perm;
  for (int64_t d = 0; d < rank; ++d)
    if (d != *axis)
      perm.push_back(d);
  perm.push_back(*axis);
  auto spread = [&](Value v) {
    Value moved = b.op("Transpose", {v}, {intsAttribute("perm", perm)});
    return b.op("Unsqueeze", {moved, b.i64({1}, {*axis})});
  };
  Value mask = b.op("Equal", {spread(idx), b.iota(dt.getDimSize(*axis), *axis,
                                                  rank + 1)}); // [data..., T]
  Value values = spread(updates);
  if (!mask || !values)
    return failure();
  Value result;
  if (reduction == "none") {
    auto [found, picked] = b.lastMatch(mask, values, rank);
    Value last = b.i64({1}, {rank});
    result = b.op("Where", {b.op("Squeeze", {found, last}),
                            b.op("Squeeze", {picked, last}), data});
  } else {
    result = b.reduceInto(data, mask, values, rank, reduction);
  }
  if (!result)
    return failure();
  return SmallVector<Value>{result};
}

NodeResults importScatterND(NodeContext &nc) {
  FailureOr<Scatter> parsed = Scatter::parse(nc);
  if (failed(parsed))
    return failure();
  auto [data, indices, updates, dt, it, ut, reduction] = *parsed;
  if (!dt.hasStaticShape() || !it.hasStaticShape() || !ut.hasStaticShape() ||
      it.getRank() < 1)
    return nc.error() << "needs static shapes", failure();
  int64_t k = it.getDimSize(it.getRank() - 1);
  ArrayRef<int64_t> batch = it.getShape().drop_back();
  if (k < 1 || k > dt.getRank())
    return nc.error() << "index depth " << k << " does not fit the data " << dt,
           failure();
  SmallVector<int64_t> expected(batch);
  expected.append(dt.getShape().begin() + k, dt.getShape().end());
  if (ut.getShape() != ArrayRef<int64_t>(expected))
    return nc.error() << "updates " << ut << " must have the shape "
                      << RankedTensorType::get(expected, ut.getElementType()),
           failure();
  int64_t n = 1, p = 1, s = 1;
  for (int64_t d : batch)
    n *= d;
  for (int64_t d = 0; d < dt.getRank(); ++d)
    (d < k ? p : s) *= dt.getDimSize(d);
  SmallVector<int64_t> sizes(dt.getShape().take_front(k)), strides(k, 1);
  for (int64_t d = k - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * sizes[d + 1];
  indices = checkIndices(nc, indices, sizes);
  if (!indices)
    return failure();
  Build b{{nc}};
  Value idx = b.op("Reshape", {indices, b.i64({2}, {n, k})});
  idx = b.normalized(idx, b.i64({1, k}, sizes));
  // The slice each update writes, as one offset; out-of-range indices
  // address none.
  Value inRange = b.op("And", {b.op("GreaterOrEqual", {idx, b.i64({}, {0})}),
                               b.op("Less", {idx, b.i64({1, k}, sizes)})});
  Value offsets =
      b.op("ReduceSum",
           {b.op("Mul", {idx, b.i64({1, k}, strides)}), b.i64({1}, {1})},
           {intAttribute("keepdims", 0)});
  Value valid =
      b.op("ReduceMin", {castValue(nc, inRange, nc.builder.getI64Type())},
           {intsAttribute("axes", {1}), intAttribute("keepdims", 0)});
  offsets = b.op("Where", {b.op("Equal", {valid, b.i64({}, {1})}), offsets,
                           b.i64({}, {-1})});
  Value flatData = b.op("Reshape", {data, b.i64({2}, {p, s})});
  Value flatUpdates = b.op("Reshape", {updates, b.i64({2}, {n, s})});
  Value mask = b.op("Equal", {b.op("Reshape", {offsets, b.i64({2}, {1, n})}),
                              b.iota(p, 0, 2)}); // [P, N]
  if (!mask || !flatData || !flatUpdates)
    return failure();
  Value result;
  if (reduction == "none") {
    Value rows = b.iota(n, 1, 2); // the update each candidate is
    auto [found, last] = b.lastMatch(mask, rows, 1);
    Value picked =
        b.op("Gather", {flatUpdates, b.op("Reshape", {last, b.i64({1}, {p})})},
             {intAttribute("axis", 0)}); // [P, S]
    result = b.op("Where", {found, picked, flatData});
  } else {
    Value mask3 = b.op("Unsqueeze", {mask, b.i64({1}, {2})}); // [P, N, 1]
    Value values3 =
        b.op("Unsqueeze", {flatUpdates, b.i64({1}, {0})}); // [1, N, S]
    result = b.reduceInto(flatData, mask3, values3, 1, reduction);
  }
  result = b.op("Reshape", {result, b.i64({dt.getRank()}, dt.getShape())});
  if (!result)
    return failure();
  return SmallVector<Value>{result};
}

} // namespace

/// MaxUnpool: the values of X scattered at their MaxPool indices (flat
/// over the whole output) into zeros of the shape the attributes give; an
/// output_shape input (a constant) pads that with zeros at the ends, as
/// ONNX's reference does. Through ScatterElements, so quadratic in the
/// sizes (output elements x input elements): fine for small maps, not for
/// SegNet-sized layers yet.
static NodeResults importMaxUnpool(NodeContext &nc) {
  if (!nc.operand(0) || !nc.operand(1))
    return nc.error() << "X and I are required", failure();
  RankedTensorType x = typeOf(nc.operand(0)), idx = typeOf(nc.operand(1));
  int64_t spatial = x.getRank() - 2;
  std::optional<SmallVector<int64_t>> kernel = nc.intsAttr("kernel_shape");
  if (x.getRank() < 3 || !x.hasStaticShape() || idx.getShape() != x.getShape())
    return nc.error()
               << "X must be static of rank >= 3 and I of its shape, got " << x
               << " and " << idx,
           failure();
  if (!kernel || static_cast<int64_t>(kernel->size()) != spatial)
    return nc.error() << "kernel_shape needs one entry per spatial dimension",
           failure();
  SmallVector<int64_t> strides(spatial, 1), pads(2 * spatial, 0);
  if (auto s = nc.intsAttr("strides"))
    strides = *s;
  if (auto p = nc.intsAttr("pads"))
    pads = *p;
  if (static_cast<int64_t>(strides.size()) != spatial ||
      static_cast<int64_t>(pads.size()) != 2 * spatial)
    return nc.error() << "strides and pads must match the spatial rank",
           failure();
  SmallVector<int64_t> shape(x.getShape());
  for (int64_t i = 0; i < spatial; ++i) {
    if ((*kernel)[i] < 1 || strides[i] < 1 || pads[i] < 0 ||
        pads[spatial + i] < 0)
      return nc.error() << "kernel_shape and strides must be positive and "
                           "pads non-negative",
             failure();
    shape[2 + i] = (x.getDimSize(2 + i) - 1) * strides[i] - pads[i] -
                   pads[spatial + i] + (*kernel)[i];
    if (shape[2 + i] < 1)
      return nc.error() << "the unpooled dimension " << 2 + i << " would be "
                        << shape[2 + i],
             failure();
  }
  SmallVector<int64_t> padded = shape;
  if (nc.operand(2)) {
    std::optional<SmallVector<int64_t>> given = nc.constantInts(2);
    if (!given || given->size() != shape.size())
      return nc.error() << "output_shape must be a constant of rank "
                        << shape.size(),
             failure();
    padded = *given;
    for (auto [want, have] : llvm::zip(padded, shape))
      if (want < have)
        return nc.error() << "output_shape is below the unpooled shape",
               failure();
  }
  int64_t total = 1;
  for (int64_t d : shape)
    total *= d;
  OpBuilder &b = nc.builder;
  Type et = x.getElementType();
  auto zerosType = RankedTensorType::get({total}, et);
  Value zeros = ConstantOp::create(
      b, nc.loc, DenseElementsAttr::get(zerosType, b.getZeroAttr(et)));
  OnnxOps ops{nc};
  Value flatX = ops.op("Reshape", {nc.operand(0), ops.i64({1}, {-1})});
  Value flatI = ops.op("Reshape", {nc.operand(1), ops.i64({1}, {-1})});
  Value scattered = ops.op("ScatterElements", {zeros, flatI, flatX},
                           {intAttribute("axis", 0)});
  int64_t rank = shape.size();
  Value y = ops.op("Reshape", {scattered, ops.i64({rank}, shape)});
  if (padded != shape) {
    SmallVector<int64_t> ends(rank, 0);
    for (auto [want, have] : llvm::zip(padded, shape))
      ends.push_back(want - have);
    y = ops.op("Pad", {y, ops.i64({2 * rank}, ends)});
  }
  if (!y)
    return failure();
  return SmallVector<Value>{y};
}

void dlc::addScatterImporters(NodeImporterTable &table) {
  table["MaxUnpool"] = importMaxUnpool;
  table["ScatterElements"] = importScatterElements;
  table["Scatter"] = importScatterElements;
  table["ScatterND"] = importScatterND;
}
