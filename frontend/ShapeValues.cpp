//===- ShapeValues.cpp - shape arithmetic kept symbolic -----------------===//
#include "frontend/ShapeValues.h"
#include "ir/DlcOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace dlc;

namespace {
using Elements = SmallVector<OpFoldResult>;
constexpr int64_t kMaxElements = 64;
} // namespace

std::optional<Elements> dlc::shapeElements(Value v) {
  auto type = v ? dyn_cast<RankedTensorType>(v.getType()) : RankedTensorType();
  if (!type || type.getRank() > 1 || !type.hasStaticShape() ||
      type.getNumElements() > kMaxElements ||
      !type.getElementType().isInteger(64))
    return std::nullopt;
  Builder b(v.getContext());
  Elements elements;
  if (auto cst = v.getDefiningOp<ConstantOp>()) {
    auto dense = dyn_cast<DenseIntElementsAttr>(cst.getValue());
    if (!dense)
      return std::nullopt;
    for (const APInt &x : dense.getValues<APInt>())
      elements.push_back(b.getI64IntegerAttr(x.getSExtValue()));
    return elements;
  }
  if (auto from = v.getDefiningOp<tensor::FromElementsOp>()) {
    for (Value e : from.getElements()) {
      APInt x;
      if (matchPattern(e, m_ConstantInt(&x)))
        elements.push_back(b.getI64IntegerAttr(x.getSExtValue()));
      else
        elements.push_back(e);
    }
    return elements;
  }
  return std::nullopt;
}

Value dlc::indexValueOf(OpBuilder &b, Location loc, OpFoldResult e) {
  if (auto attr = dyn_cast<Attribute>(e))
    return arith::ConstantIndexOp::create(b, loc,
                                          cast<IntegerAttr>(attr).getInt());
  return b.createOrFold<arith::IndexCastOp>(loc, b.getIndexType(),
                                            cast<Value>(e));
}

namespace {

Value i64Value(OpBuilder &b, Location loc, OpFoldResult e) {
  if (auto attr = dyn_cast<Attribute>(e))
    return arith::ConstantOp::create(
        b, loc, b.getI64IntegerAttr(cast<IntegerAttr>(attr).getInt()));
  return cast<Value>(e);
}

/// A rank-`rank` (0 or 1) int64 tensor of `elements`: a dlc.constant when
/// they are all constants, a tensor.from_elements otherwise.
Value buildShapeValue(NodeContext &nc, ArrayRef<OpFoldResult> elements,
                      int64_t rank) {
  OpBuilder &b = nc.builder;
  auto type = RankedTensorType::get(
      rank == 0 ? ArrayRef<int64_t>{}
                : ArrayRef<int64_t>{(int64_t)elements.size()},
      b.getI64Type());
  if (llvm::all_of(elements,
                   [](OpFoldResult e) { return isa<Attribute>(e); })) {
    SmallVector<int64_t> values;
    for (OpFoldResult e : elements)
      values.push_back(cast<IntegerAttr>(cast<Attribute>(e)).getInt());
    return ConstantOp::create(b, nc.loc,
                              DenseElementsAttr::get(type, ArrayRef(values)));
  }
  SmallVector<Value> values;
  for (OpFoldResult e : elements)
    values.push_back(i64Value(b, nc.loc, e));
  return tensor::FromElementsOp::create(b, nc.loc, type, values);
}

std::optional<int64_t> constantOf(OpFoldResult e) {
  if (auto attr = dyn_cast<Attribute>(e))
    return cast<IntegerAttr>(attr).getInt();
  return std::nullopt;
}

/// `a op b` on i64 elements, folded when both are constants.
OpFoldResult arithmetic(NodeContext &nc, StringRef op, OpFoldResult a,
                        OpFoldResult b) {
  std::optional<int64_t> x = constantOf(a), y = constantOf(b);
  Builder attrs(nc.builder.getContext());
  if (x && y) {
    if (op == "Add")
      return attrs.getI64IntegerAttr(*x + *y);
    if (op == "Sub")
      return attrs.getI64IntegerAttr(*x - *y);
    if (op == "Mul")
      return attrs.getI64IntegerAttr(*x * *y);
    if (op == "Max")
      return attrs.getI64IntegerAttr(std::max(*x, *y));
    if (op == "Min")
      return attrs.getI64IntegerAttr(std::min(*x, *y));
    if (op == "Div" && *y != 0)
      return attrs.getI64IntegerAttr(*x / *y);
  }
  OpBuilder &bld = nc.builder;
  Location loc = nc.loc;
  Value l = i64Value(bld, loc, a), r = i64Value(bld, loc, b);
  if (op == "Add")
    return bld.createOrFold<arith::AddIOp>(loc, l, r);
  if (op == "Sub")
    return bld.createOrFold<arith::SubIOp>(loc, l, r);
  if (op == "Mul")
    return bld.createOrFold<arith::MulIOp>(loc, l, r);
  if (op == "Max")
    return bld.createOrFold<arith::MaxSIOp>(loc, l, r);
  if (op == "Min")
    return bld.createOrFold<arith::MinSIOp>(loc, l, r);
  return bld.createOrFold<arith::DivSIOp>(loc, l, r);
}

} // namespace

std::optional<NodeResults> dlc::importShapeArithmetic(NodeContext &nc) {
  StringRef op = nc.node.op_type();
  static const llvm::StringSet<> kOps = {
      "Identity", "Cast", "Gather", "Unsqueeze", "Squeeze", "Concat", "Slice",
      "Add",      "Sub",  "Mul",    "Div",       "Max",     "Min"};
  if (!kOps.contains(op) || nc.numOperands() == 0 ||
      !(nc.node.domain().empty() || nc.node.domain() == "ai.onnx"))
    return std::nullopt;
  // Every operand holds known elements, and one at least a run-time value.
  SmallVector<Elements> ops;
  SmallVector<int64_t> ranks;
  bool runtime = false;
  for (size_t i = 0; i < nc.numOperands(); ++i) {
    Value v = nc.operand(i);
    if (!v) {
      ops.emplace_back();
      ranks.push_back(-1);
      continue;
    }
    std::optional<Elements> e = shapeElements(v);
    if (!e)
      return std::nullopt;
    runtime |= llvm::any_of(*e, [](OpFoldResult x) { return isa<Value>(x); });
    ops.push_back(std::move(*e));
    ranks.push_back(typeOf(v).getRank());
  }
  if (!runtime)
    return std::nullopt;
  auto result = [&](ArrayRef<OpFoldResult> elements,
                    int64_t rank) -> std::optional<NodeResults> {
    return NodeResults(SmallVector<Value>{buildShapeValue(nc, elements, rank)});
  };
  auto allConstant = [](ArrayRef<OpFoldResult> e) {
    return llvm::all_of(e, [](OpFoldResult x) { return isa<Attribute>(x); });
  };
  auto ints = [](ArrayRef<OpFoldResult> e) {
    SmallVector<int64_t> v;
    for (OpFoldResult x : e)
      v.push_back(*constantOf(x));
    return v;
  };
  if (op == "Identity")
    return result(ops[0], ranks[0]);
  if (op == "Cast") {
    if (nc.intAttr("to", 0) != onnx::TensorProto::INT64)
      return std::nullopt;
    return result(ops[0], ranks[0]);
  }
  if (op == "Gather") {
    if (ranks[0] != 1 || nc.numOperands() < 2 || !allConstant(ops[1]) ||
        (nc.intAttr("axis", 0) != 0 && nc.intAttr("axis", 0) != -1))
      return std::nullopt;
    Elements picked;
    int64_t n = ops[0].size();
    for (int64_t i : ints(ops[1])) {
      if (i < -n || i >= n) {
        nc.error() << "index " << i << " is out of range for a shape of " << n
                   << " elements";
        return NodeResults(failure());
      }
      picked.push_back(ops[0][i < 0 ? i + n : i]);
    }
    return result(picked, ranks[1]);
  }
  if (op == "Unsqueeze") {
    std::optional<SmallVector<int64_t>> axes = nc.intsAttr("axes");
    if (nc.opset >= 13 && nc.numOperands() >= 2 && allConstant(ops[1]))
      axes = ints(ops[1]);
    if (ranks[0] != 0 || !axes || axes->size() != 1 ||
        ((*axes)[0] != 0 && (*axes)[0] != -1))
      return std::nullopt;
    return result(ops[0], 1);
  }
  if (op == "Squeeze") {
    std::optional<SmallVector<int64_t>> axes = nc.intsAttr("axes");
    if (ranks[0] != 1 || ops[0].size() != 1 ||
        (axes && (axes->size() != 1 || ((*axes)[0] != 0 && (*axes)[0] != -1))))
      return std::nullopt;
    return result(ops[0], 0);
  }
  if (op == "Concat") {
    if (nc.intAttr("axis", 0) != 0 && nc.intAttr("axis", 0) != -1)
      return std::nullopt;
    Elements all;
    for (auto [e, r] : llvm::zip(ops, ranks)) {
      if (r != 1)
        return std::nullopt;
      llvm::append_range(all, e);
    }
    return result(all, 1);
  }
  if (op == "Slice") {
    if (ranks[0] != 1 || nc.opset < 10 || nc.numOperands() < 3)
      return std::nullopt;
    for (size_t i = 1; i < ops.size(); ++i)
      if (!allConstant(ops[i]) || (ranks[i] >= 0 && ops[i].size() != 1))
        return std::nullopt;
    int64_t n = ops[0].size();
    int64_t s = ints(ops[1])[0], e = ints(ops[2])[0], step = 1;
    if (ops.size() > 4 && ranks[4] >= 0)
      step = ints(ops[4])[0];
    if (step != 1)
      return std::nullopt;
    s = std::clamp<int64_t>(s < 0 ? s + n : s, 0, n);
    e = std::clamp<int64_t>(e < 0 ? e + n : e, 0, n);
    Elements part;
    for (int64_t i = s; i < e; ++i)
      part.push_back(ops[0][i]);
    return result(part, 1);
  }
  // Elementwise arithmetic on rank-0/1 operands of one or equal lengths.
  if (nc.numOperands() != 2 || !ops[0].size() || !ops[1].size())
    return std::nullopt;
  if (op == "Div" && llvm::any_of(ops[1], [](OpFoldResult e) {
        return constantOf(e) == std::optional<int64_t>(0);
      })) {
    nc.error() << "division by zero in a shape computation";
    return NodeResults(failure());
  }
  size_t n = std::max(ops[0].size(), ops[1].size());
  if ((ops[0].size() != n && ops[0].size() != 1) ||
      (ops[1].size() != n && ops[1].size() != 1))
    return std::nullopt;
  Elements out;
  for (size_t i = 0; i < n; ++i)
    out.push_back(arithmetic(nc, op, ops[0][ops[0].size() == 1 ? 0 : i],
                             ops[1][ops[1].size() == 1 ? 0 : i]));
  return result(out, std::max(ranks[0], ranks[1]));
}
