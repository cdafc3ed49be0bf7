//===- GradientImport.cpp - ONNX Gradient (ai.onnx.preview.training) ------===//
//
// Gradient names a value `y` and inputs `xs` of the graph and returns
// dy/dx for each, with dy seeded by ones: reverse-mode differentiation of
// the nodes between them, built from ONNX-level ops at import. Each op on
// the path needs a rule below; broadcast operands take the sum of their
// gradient over the broadcast axes.
//
//===----------------------------------------------------------------------===//
#include "frontend/GraphImporter.h"
#include "frontend/NodeImporter.h"
#include "ir/DlcOps.h"

#include "llvm/ADT/StringSet.h"

using namespace mlir;
using dlc::GraphImporter;

namespace {
/// Builds ONNX-level ops for the differentiation; null after an error.
struct GradientBuilder {
  std::function<Value(StringRef, ArrayRef<Value>,
                      ArrayRef<onnx::AttributeProto>)>
      op;
  OpBuilder &b;
  Location loc;

  Value scalar(Type et, double v) {
    auto type = RankedTensorType::get({}, et);
    return dlc::ConstantOp::create(
        b, loc, DenseElementsAttr::get(type, b.getFloatAttr(et, v)));
  }
  Value ones(RankedTensorType type) {
    return dlc::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(type,
                               b.getFloatAttr(type.getElementType(), 1.0)));
  }
  Value zeros(RankedTensorType type) {
    return dlc::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(type,
                               b.getFloatAttr(type.getElementType(), 0.0)));
  }
  /// `g` (the gradient of a broadcast result) summed back to `target`'s
  /// shape.
  Value unbroadcast(Value g, Value target) {
    if (!g)
      return g;
    auto gt = cast<RankedTensorType>(g.getType());
    auto tt = cast<RankedTensorType>(target.getType());
    if (gt.getShape() == tt.getShape())
      return g;
    int64_t extra = gt.getRank() - tt.getRank();
    SmallVector<int64_t> axes;
    for (int64_t d = 0; d < gt.getRank(); ++d)
      if (d < extra || (tt.getDimSize(d - extra) == 1 && gt.getDimSize(d) != 1))
        axes.push_back(d);
    Value axesValue = dlc::int64Constant(b, loc, {(int64_t)axes.size()}, axes);
    Value summed =
        op("ReduceSum", {g, axesValue}, {dlc::intAttribute("keepdims", 1)});
    Value shape = dlc::int64Constant(b, loc, {tt.getRank()}, tt.getShape());
    return op("Reshape", {summed, shape}, {});
  }
};
} // namespace

LogicalResult GraphImporter::importGradient(const onnx::NodeProto &node,
                                            size_t index, Location loc) {
  auto error = [&]() { return emitError(loc) << "Gradient: "; };
  if (!scopePrefix.empty() || !mainGraph)
    return error() << "Gradient inside a subgraph is not supported";
  std::vector<std::string> xs;
  std::string y;
  readAttributes->insert("xs");
  readAttributes->insert("y");
  for (const auto &attr : node.attribute()) {
    if (attr.name() == "xs")
      xs.assign(attr.strings().begin(), attr.strings().end());
    else if (attr.name() == "y")
      y = attr.s();
  }
  if (xs.empty() || y.empty() || (size_t)node.output_size() != xs.size())
    return error() << "needs the attributes xs and y and one output per x";
  auto yIt = values.find(y);
  if (yIt == values.end())
    return error() << "y ('" << y << "') is not defined before the node";
  // The nodes before this one that depend on some x.
  llvm::StringSet<> active;
  for (const std::string &x : xs) {
    if (!values.count(x))
      return error() << "x ('" << x << "') is not defined before the node";
    active.insert(x);
  }
  SmallVector<const onnx::NodeProto *> path;
  for (int i = 0; i < (int)index; ++i) {
    const onnx::NodeProto &n = mainGraph->node(i);
    if (llvm::none_of(n.input(),
                      [&](const std::string &in) { return active.count(in); }))
      continue;
    path.push_back(&n);
    for (const std::string &out : n.output())
      active.insert(out);
  }
  GradientBuilder gb{[&](StringRef type, ArrayRef<Value> operands,
                         ArrayRef<onnx::AttributeProto> attrs) -> Value {
                       if (llvm::is_contained(operands, Value()))
                         return Value();
                       return dlc::one(
                           importSynthetic(type, operands, attrs, 1, loc));
                     },
                     builder, loc};
  auto yType = cast<RankedTensorType>(yIt->second.getType());
  if (!isa<FloatType>(yType.getElementType()))
    return error() << "y must be a float tensor, got " << yType;
  llvm::StringMap<Value> grads;
  grads[y] = gb.ones(yType);
  auto accumulate = [&](const std::string &name, Value g) {
    if (!active.count(name))
      return;
    auto it = grads.find(name);
    grads[name] = it == grads.end() ? g : gb.op("Add", {it->second, g}, {});
  };
  for (const onnx::NodeProto *n : llvm::reverse(path)) {
    if (n->output_size() != 1 || !grads.count(n->output(0)))
      continue;
    Value d = grads[n->output(0)];
    Value c = values.lookup(n->output(0));
    SmallVector<Value> in;
    for (const std::string &name : n->input())
      in.push_back(values.lookup(name));
    StringRef t = n->op_type();
    auto arg = [&](size_t i) -> const std::string & { return n->input(i); };
    auto g = [&](StringRef type, ArrayRef<Value> operands) {
      return gb.op(type, operands, {});
    };
    if ((t == "Add" || t == "Sub" || t == "Mul" || t == "Div") &&
        in.size() == 2) {
      Value da, db;
      if (t == "Add") {
        da = d;
        db = d;
      } else if (t == "Sub") {
        da = d;
        db = g("Neg", {d});
      } else if (t == "Mul") {
        da = g("Mul", {d, in[1]});
        db = g("Mul", {d, in[0]});
      } else {
        // d(a/b)/db = -(a/b)/b.
        da = g("Div", {d, in[1]});
        db = g("Neg", {g("Div", {g("Mul", {d, c}), in[1]})});
      }
      accumulate(arg(0), gb.unbroadcast(da, in[0]));
      accumulate(arg(1), gb.unbroadcast(db, in[1]));
    } else if ((t == "Neg" || t == "Identity" || t == "Relu" || t == "Exp" ||
                t == "Log" || t == "Sigmoid" || t == "Tanh") &&
               in.size() == 1) {
      Type et = cast<RankedTensorType>(c.getType()).getElementType();
      Value one = gb.scalar(et, 1.0);
      Value da;
      if (t == "Neg")
        da = g("Neg", {d});
      else if (t == "Identity")
        da = d;
      else if (t == "Relu")
        da = g("Where", {g("Greater", {in[0], gb.scalar(et, 0.0)}), d,
                         gb.scalar(et, 0.0)});
      else if (t == "Exp")
        da = g("Mul", {d, c});
      else if (t == "Log")
        da = g("Div", {d, in[0]});
      else if (t == "Sigmoid")
        da = g("Mul", {d, g("Mul", {c, g("Sub", {one, c})})});
      else
        da = g("Mul", {d, g("Sub", {one, g("Mul", {c, c})})});
      accumulate(arg(0), da);
    } else if (t == "MatMul" && in.size() == 2 &&
               cast<RankedTensorType>(in[0].getType()).getRank() == 2 &&
               cast<RankedTensorType>(in[1].getType()).getRank() == 2) {
      accumulate(arg(0), g("MatMul", {d, g("Transpose", {in[1]})}));
      accumulate(arg(1), g("MatMul", {g("Transpose", {in[0]}), d}));
    } else {
      return error() << "no derivative rule for " << t << " (node '"
                     << (n->name().empty() ? "<unnamed>" : n->name()) << "')";
    }
  }
  for (auto [x, out] : llvm::zip(xs, node.output())) {
    if (out.empty())
      continue;
    auto it = grads.find(x);
    Value gx =
        it != grads.end()
            ? it->second
            : gb.zeros(cast<RankedTensorType>(values.lookup(x).getType()));
    if (!gx)
      return failure();
    bindOutput(out, gx);
  }
  return success();
}
