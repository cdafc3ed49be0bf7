//===- SymbolicDims.cpp - which dynamic dimensions are equal ------------===//
#include "frontend/SymbolicDims.h"
#include "ir/DlcOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using dlc::SymbolicDims;

void SymbolicDims::addInput(Value arg, unsigned d, StringRef name) {
  Key key = names.try_emplace(name, Key{arg, d}).first->second;
  if (key != Key{arg, d})
    keys[{arg, d}] = key;
}

void SymbolicDims::link(Value result, unsigned d, Value operand, unsigned od) {
  auto type = dyn_cast<RankedTensorType>(operand.getType());
  if (!type || od >= type.getRank() || !type.isDynamicDim(od))
    return;
  Key key = keyOf(operand, od);
  if (key != Key{result, d})
    keys[{result, d}] = key;
}

static int64_t intAttrOf(const onnx::NodeProto &node, StringRef name,
                         int64_t dflt) {
  for (const auto &attr : node.attribute())
    if (attr.name() == name)
      return attr.i();
  return dflt;
}

void SymbolicDims::recordNode(const onnx::NodeProto &node,
                              ArrayRef<Value> operands,
                              ArrayRef<Value> results) {
  // Ops whose result broadcasts their operands (numpy rules), and ops whose
  // result has their first operand's shape.
  static const llvm::StringSet<> kBroadcast = {
      "Add",     "Sub",   "Mul",         "Div",     "Pow",
      "Mod",     "PRelu", "And",         "Or",      "Xor",
      "Equal",   "Less",  "LessOrEqual", "Greater", "GreaterOrEqual",
      "Max",     "Min",   "Sum",         "Mean",    "Where",
      "BitShift"};
  static const llvm::StringSet<> kSameAsFirst = {"Identity",
                                                 "Cast",
                                                 "CastLike",
                                                 "Relu",
                                                 "Sigmoid",
                                                 "Tanh",
                                                 "Exp",
                                                 "Log",
                                                 "Sqrt",
                                                 "Reciprocal",
                                                 "Floor",
                                                 "Ceil",
                                                 "Round",
                                                 "Sin",
                                                 "Cos",
                                                 "Tan",
                                                 "Asin",
                                                 "Acos",
                                                 "Atan",
                                                 "Sinh",
                                                 "Cosh",
                                                 "Asinh",
                                                 "Acosh",
                                                 "Atanh",
                                                 "Erf",
                                                 "Softplus",
                                                 "Softsign",
                                                 "HardSwish",
                                                 "Abs",
                                                 "Neg",
                                                 "Sign",
                                                 "Not",
                                                 "LeakyRelu",
                                                 "Elu",
                                                 "Selu",
                                                 "HardSigmoid",
                                                 "ThresholdedRelu",
                                                 "Celu",
                                                 "Shrink",
                                                 "IsNaN",
                                                 "IsInf",
                                                 "Clip",
                                                 "Softmax",
                                                 "LogSoftmax",
                                                 "CumSum",
                                                 "LayerNormalization",
                                                 "BatchNormalization",
                                                 "QuantizeLinear",
                                                 "DequantizeLinear",
                                                 "Dropout",
                                                 "Gelu"};
  StringRef op = node.op_type();
  auto rankOf = [](Value v) {
    auto t = v ? dyn_cast<RankedTensorType>(v.getType()) : RankedTensorType();
    return t ? t.getRank() : int64_t(-1);
  };
  for (auto [i, result] : llvm::enumerate(results)) {
    auto type = result ? dyn_cast<RankedTensorType>(result.getType())
                       : RankedTensorType();
    if (!type || type.hasStaticShape())
      continue;
    int64_t rank = type.getRank();
    for (int64_t d = 0; d < rank; ++d) {
      if (!type.isDynamicDim(d) || keys.count({result, d}))
        continue;
      if (kBroadcast.contains(op) || (kSameAsFirst.contains(op) && i == 0)) {
        size_t n = kBroadcast.contains(op) ? operands.size() : 1;
        for (size_t k = 0; k < n && k < operands.size(); ++k) {
          int64_t r = rankOf(operands[k]);
          int64_t od = d - (rank - r);
          if (r < 0 || od < 0 ||
              !cast<RankedTensorType>(operands[k].getType()).isDynamicDim(od))
            continue;
          link(result, d, operands[k], od);
          break;
        }
      } else if (op == "Transpose" && !operands.empty()) {
        SmallVector<int64_t> perm;
        for (const auto &attr : node.attribute())
          if (attr.name() == "perm")
            perm.assign(attr.ints().begin(), attr.ints().end());
        if (perm.empty())
          for (int64_t j = rank - 1; j >= 0; --j)
            perm.push_back(j);
        if ((int64_t)perm.size() == rank)
          link(result, d, operands[0], perm[d]);
      } else if (op == "MatMul" && operands.size() >= 2) {
        int64_t ra = rankOf(operands[0]), rb = rankOf(operands[1]);
        if (ra < 2 || rb < 2)
          continue;
        if (d == rank - 1)
          link(result, d, operands[1], rb - 1);
        else if (d == rank - 2)
          link(result, d, operands[0], ra - 2);
        else if (d - (rank - ra) >= 0 &&
                 cast<RankedTensorType>(operands[0].getType())
                     .isDynamicDim(d - (rank - ra)))
          link(result, d, operands[0], d - (rank - ra));
        else if (d - (rank - rb) >= 0)
          link(result, d, operands[1], d - (rank - rb));
      } else if (op == "Gemm" && operands.size() >= 2 && rank == 2) {
        if (d == 0)
          link(result, d, operands[0], intAttrOf(node, "transA", 0) ? 1 : 0);
        else
          link(result, d, operands[1], intAttrOf(node, "transB", 0) ? 0 : 1);
      } else if (op == "Gather" && operands.size() >= 2) {
        int64_t rd = rankOf(operands[0]), ri = rankOf(operands[1]);
        int64_t axis = intAttrOf(node, "axis", 0);
        if (axis < 0)
          axis += rd;
        if (d < axis)
          link(result, d, operands[0], d);
        else if (d < axis + ri)
          link(result, d, operands[1], d - axis);
        else
          link(result, d, operands[0], d - ri + 1);
      } else if ((op == "Concat" || op == "Split") && !operands.empty()) {
        int64_t axis = intAttrOf(node, "axis", 0);
        if (axis < 0)
          axis += rank;
        if (d != axis)
          link(result, d, operands[0], d);
      }
    }
  }
}

SymbolicDims::Key SymbolicDims::keyOf(Value tensor, unsigned d) const {
  if (auto it = keys.find({tensor, d}); it != keys.end())
    return it->second;
  // Reshapes and slices are sized by index values.
  if (auto reshape = tensor.getDefiningOp<dlc::ReshapeOp>()) {
    auto type = cast<RankedTensorType>(tensor.getType());
    unsigned k = 0;
    for (unsigned j = 0; j < d; ++j)
      k += type.isDynamicDim(j);
    if (k < reshape.getSizes().size())
      if (std::optional<Key> key = keyOfSize(reshape.getSizes()[k]))
        return *key;
  }
  if (auto slice = tensor.getDefiningOp<tensor::ExtractSliceOp>())
    if (slice.getSourceType().getRank() == slice.getResultType().getRank())
      if (auto size = dyn_cast<Value>(slice.getMixedSizes()[d]))
        if (std::optional<Key> key = keyOfSize(size))
          return *key;
  return {tensor, d};
}

std::optional<SymbolicDims::Key> SymbolicDims::keyOfSize(Value size) const {
  for (;;) {
    if (matchPattern(size, m_Constant()))
      return std::nullopt;
    Operation *def = size.getDefiningOp();
    if (def && isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
                   arith::ExtUIOp>(def)) {
      size = def->getOperand(0);
      continue;
    }
    if (auto dim = dyn_cast_or_null<tensor::DimOp>(def))
      if (std::optional<int64_t> index = dim.getConstantIndex())
        return keyOf(dim.getSource(), *index);
    if (auto extract = dyn_cast_or_null<tensor::ExtractOp>(def))
      if (auto elements =
              extract.getTensor().getDefiningOp<tensor::FromElementsOp>())
        if (extract.getIndices().empty() ||
            (extract.getIndices().size() == 1 &&
             matchPattern(extract.getIndices()[0], m_Constant()))) {
          APInt index(64, 0);
          if (!extract.getIndices().empty())
            matchPattern(extract.getIndices()[0], m_ConstantInt(&index));
          if (index.getZExtValue() < elements.getElements().size()) {
            size = elements.getElements()[index.getZExtValue()];
            continue;
          }
        }
    return Key{size, 0};
  }
}
