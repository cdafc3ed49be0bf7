//===- DynamicBatch.cpp - symbolic input dimensions at import -------------===//
#include "frontend/DynamicBatch.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/SetVector.h"

#include "onnx/onnx_pb.h"

using namespace mlir;

LogicalResult dlc::planBatch(ArrayRef<const onnx::ValueInfoProto *> inputs,
                             const std::map<std::string, int64_t> &dimValues,
                             const std::map<std::string, DimRange> &dimRanges,
                             int64_t batchSize, Location loc,
                             SmallVectorImpl<Type> &types, BatchPlan &plan) {
  plan = BatchPlan();
  bool ok = true;
  // Every symbolic name, in order of appearance; sizes from --dim first.
  std::vector<std::string> names;
  plan.symbolic.assign(inputs.size(), {});
  for (auto [i, input] : llvm::enumerate(inputs)) {
    auto type = cast<RankedTensorType>(types[i]);
    SmallVector<int64_t> shape(type.getShape());
    const auto &dims = input->type().tensor_type().shape().dim();
    for (int64_t d = 0; d < type.getRank(); ++d) {
      if (!type.isDynamicDim(d))
        continue;
      const std::string &name = dims.Get(d).dim_param();
      if (auto it = dimValues.find(name); !name.empty() && it != dimValues.end()) {
        shape[d] = it->second;
        continue;
      }
      if (auto it = dimRanges.find(name);
          !name.empty() && it != dimRanges.end()) {
        // A range of one size is that size.
        if (it->second.min == it->second.max)
          shape[d] = it->second.min;
        else
          plan.symbolic[i].push_back(name);
        continue;
      }
      if (name.empty()) {
        emitError(loc) << "input '" << input->name() << "' dimension " << d
                       << " is dynamic and has no name; dlc needs a named "
                          "symbolic dimension (dim_param) or a fixed size";
        ok = false;
        shape[d] = 1;
        continue;
      }
      if (!llvm::is_contained(names, name))
        names.push_back(name);
    }
    types[i] = RankedTensorType::get(shape, type.getElementType());
  }
  for (const auto &[name, size] : dimValues) {
    // 0 is a size: an empty tensor (ONNX allows them).
    if (size < 0) {
      emitError(loc) << "--dim " << name << "=" << size
                     << ": a dimension size must be at least 0";
      ok = false;
    }
  }
  for (const auto &[name, range] : dimRanges) {
    if (dimValues.count(name)) {
      emitError(loc) << "--dim " << name
                     << " has both a size and a range; give one";
      ok = false;
    }
    if (range.min < 1 || range.max < range.min) {
      emitError(loc) << "--dim " << name << "=" << range.min << ".."
                     << range.max << ": a range needs 1 <= MIN <= MAX";
      ok = false;
    }
  }
  // With symbolic dimensions compiled as such, every other one needs a size
  // or a range too (no per-sample batch beside them).
  if (!dimRanges.empty() && !names.empty()) {
    for (const std::string &name : names)
      emitError(loc) << "symbolic dimension '" << name
                     << "' has neither a size nor a range: give it one with "
                        "--dim "
                     << name << "=SIZE or --dim " << name << "=MIN..MAX";
    return failure();
  }
  if (names.size() > 1) {
    InFlightDiagnostic diag = emitError(loc);
    diag << "the inputs have " << names.size() << " symbolic dimensions (";
    for (auto [i, name] : llvm::enumerate(names))
      diag << (i ? ", " : "") << "'" << name << "'";
    diag << "); without ranges dlc compiles at most one of them, the batch, "
            "one sample at a time: fix the others with --dim NAME=SIZE, or "
            "give every one a range with --dim NAME=MIN..MAX";
    ok = false;
  }
  plan.inputAxes.assign(inputs.size(), -1);
  if (names.empty() || names.size() > 1)
    return success(ok);
  plan.dim = names.front();
  for (auto [i, input] : llvm::enumerate(inputs)) {
    auto type = cast<RankedTensorType>(types[i]);
    SmallVector<int64_t> shape(type.getShape());
    const auto &dims = input->type().tensor_type().shape().dim();
    for (int64_t d = 0; d < type.getRank(); ++d) {
      if (!ShapedType::isDynamic(shape[d]) ||
          dims.Get(d).dim_param() != plan.dim)
        continue;
      if (plan.inputAxes[i] >= 0) {
        emitError(loc) << "input '" << input->name() << "' has the batch "
                       << "dimension '" << plan.dim << "' twice (dimensions "
                       << plan.inputAxes[i] << " and " << d
                       << "); fix it with --dim " << plan.dim << "=SIZE";
        ok = false;
      }
      plan.inputAxes[i] = d;
      shape[d] = batchSize;
    }
    for (int64_t &s : shape)
      if (ShapedType::isDynamic(s))
        s = batchSize;
    types[i] = RankedTensorType::get(shape, type.getElementType());
  }
  return success(ok);
}

/// Operands of ONNX ops that only give sizes, shapes, axes or counts: a
/// value computed from the batch size is fine there, since each sample then
/// gets the shape it has when run alone.
static bool isShapeOperand(llvm::StringRef op, size_t index) {
  if (op == "ConstantOfShape")
    return index == 0;
  if (op == "Reshape" || op == "Expand" || op == "Tile" || op == "Squeeze" ||
      op == "Unsqueeze" || op == "Split" || op == "TopK" || op == "OneHot" ||
      op == "Upsample" || op.starts_with("Reduce"))
    return index == 1;
  if (op == "Slice")
    return index >= 1;
  if (op == "Resize")
    return index >= 1;
  if (op == "Pad")
    return index == 1 || index == 3;
  return false;
}

/// Whether `b` (the value at batch k) is `a` (at batch 1) repeated k times
/// along one axis: the same for every sample.
static bool isRepeated(DenseElementsAttr a, DenseElementsAttr b, int64_t k) {
  auto ta = cast<RankedTensorType>(a.getType());
  auto tb = cast<RankedTensorType>(b.getType());
  if (ta.getRank() != tb.getRank() ||
      ta.getElementType() != tb.getElementType())
    return false;
  int64_t axis = -1;
  for (int64_t d = 0; d < ta.getRank(); ++d) {
    if (ta.getDimSize(d) == tb.getDimSize(d))
      continue;
    if (axis >= 0 || tb.getDimSize(d) != k * ta.getDimSize(d))
      return false;
    axis = d;
  }
  if (axis < 0)
    return false; // same shape, different values
  if (a.isSplat() && b.isSplat())
    return a.getSplatValue<Attribute>() == b.getSplatValue<Attribute>();
  if (tb.getNumElements() > (1 << 16))
    return false;
  // Element i of b sits at (outer, j, inner) with j < k * n; it must equal
  // a's element (outer, j mod n, inner).
  int64_t n = ta.getDimSize(axis), inner = 1;
  for (int64_t d = axis + 1; d < ta.getRank(); ++d)
    inner *= ta.getDimSize(d);
  auto va = llvm::to_vector(a.getValues<Attribute>());
  auto vb = llvm::to_vector(b.getValues<Attribute>());
  for (int64_t i = 0; i < (int64_t)vb.size(); ++i) {
    int64_t outer = i / (k * n * inner), j = (i / inner) % (k * n),
            k = i % inner;
    if (vb[i] != va[(outer * n + j % n) * inner + k])
      return false;
  }
  return true;
}

LogicalResult dlc::checkBatchSizeUses(
    const onnx::GraphProto &graph, StringRef dim,
    const llvm::StringMap<DenseElementsAttr> &at1,
    const llvm::StringMap<DenseElementsAttr> &at2,
    const llvm::StringMap<DenseElementsAttr> &at3,
    ArrayRef<NodeRecord> records1, ArrayRef<NodeRecord> records2,
    ArrayRef<NodeRecord> records3,
    llvm::function_ref<Location(const onnx::NodeProto &, size_t)> nodeLoc,
    Location loc, const BatchDependenceSink &sink) {
  // Values computed at import from the batch size: constants at batch 1 and
  // 2 that differ, other than by being repeated per sample.
  auto fromBatchSize = [&](const std::string &name) {
    auto a = at1.find(name), b = at2.find(name);
    if (a == at1.end() || b == at2.end())
      return false;
    auto c = at3.find(name);
    // Batch 3 too: [0] and [0, 0] may be the start of [0, 0, 1, 1, ...].
    return a->second != b->second &&
           !(isRepeated(a->second, b->second, 2) && c != at3.end() &&
             isRepeated(a->second, c->second, 3));
  };
  bool ok = true;
  for (int i = 0; i < graph.node_size(); ++i) {
    const onnx::NodeProto &node = graph.node(i);
    if (i >= (int)records1.size() || i >= (int)records2.size() ||
        i >= (int)records3.size())
      break;
    const NodeRecord &r1 = records1[i], &r2 = records2[i], &r3 = records3[i];
    auto refuse = [&](const Twine &what) {
      (void)dlc::reportBatchDependence(
          emitError(nodeLoc(node, i)), nodeLoc(node, i), dim,
          node.op_type() + ": " + what + " the size of the dynamic batch '" +
              dim + "'",
          dlc::BatchAdvice::CannotCompute, /*prefixed=*/false, sink);
      ok = false;
    };
    if (r1.constants.size() != r2.constants.size() ||
        r1.constants.size() != r3.constants.size() ||
        r1.slices.size() != r2.slices.size()) {
      refuse("its import depends on");
      continue;
    }
    // Trilu's mask and EyeLike's diagonal follow row and column positions,
    // which must not be along the batch.
    if ((node.op_type() == "Trilu" || node.op_type() == "EyeLike") &&
        r1.firstInput.size() >= 2 &&
        r1.firstInput.size() == r2.firstInput.size() &&
        !std::equal(r1.firstInput.end() - 2, r1.firstInput.end(),
                    r2.firstInput.end() - 2)) {
      refuse("its rows or columns follow");
      continue;
    }
    // Its own constants (masks, index tables) must not change with the
    // batch, other than by being repeated per sample.
    bool constantsOk = true;
    for (size_t k = 0; k < r1.constants.size(); ++k)
      constantsOk &= (k < r1.constantRead.size() && !r1.constantRead[k]) ||
                     r1.constants[k] == r2.constants[k] ||
                     (isRepeated(r1.constants[k], r2.constants[k], 2) &&
                      k < r3.constants.size() &&
                      isRepeated(r1.constants[k], r3.constants[k], 3));
    if (!constantsOk) {
      refuse("it builds a constant from");
      continue;
    }
    // Fixed slice bounds past the end along the batch (x[:3]): cut to one
    // sample, they would select every sample.
    bool slicesOk = true;
    for (size_t k = 0; k < r1.slices.size(); ++k)
      for (const auto *slice : {&r1.slices[k], &r2.slices[k]})
        for (int64_t axis : slice->clamped)
          slicesOk &= r1.slices[k].input[axis] == r2.slices[k].input[axis];
    if (!slicesOk) {
      refuse("it slices with fixed bounds along");
      continue;
    }
    // Shape arithmetic that folds away (every output a constant) is fine.
    bool folds = llvm::all_of(node.output(), [&](const std::string &name) {
      return name.empty() || (at1.count(name) && at2.count(name));
    });
    if (folds)
      continue;
    for (auto [k, name] : llvm::enumerate(node.input())) {
      if (name.empty() || isShapeOperand(node.op_type(), k) ||
          !fromBatchSize(name))
        continue;
      (void)dlc::reportBatchDependence(
          emitError(nodeLoc(node, i)), nodeLoc(node, i), dim,
          node.op_type() + ": operand " + Twine(k) + " ('" + name +
              "') is computed from the size of the dynamic batch '" + dim + "'",
          dlc::BatchAdvice::CannotCompute, /*prefixed=*/false, sink);
      ok = false;
      break;
    }
  }
  for (const auto &output : graph.output())
    if (fromBatchSize(output.name())) {
      (void)dlc::reportBatchDependence(
          emitError(loc), loc, dim,
          "graph output '" + output.name() +
              "' is computed from the size of the dynamic batch '" + dim + "'",
          dlc::BatchAdvice::FixLater, /*prefixed=*/false, sink);
      ok = false;
    }
  return success(ok);
}
