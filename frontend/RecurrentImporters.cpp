//===- RecurrentImporters.cpp - ONNX RNN, GRU and LSTM --------------------===//
//
// With a static sequence length the recurrence unrolls at import: the input
// projection of all time steps is one batched MatMul, then each step is a
// MatMul with the recurrent weights and elementwise gate arithmetic.
//
//===----------------------------------------------------------------------===//
#include "frontend/NodeImporter.h"
#include "ir/DlcOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace dlc;

namespace {


class Recurrence {
public:
  Recurrence(NodeContext &nc) : nc(nc), b(nc.builder) {}

  /// v[start : start + size] along `axis`, keeping rank.
  Value slice(Value v, int64_t axis, int64_t start, int64_t size) {
    auto t = typeOf(v);
    SmallVector<int64_t> starts(t.getRank(), 0), steps(t.getRank(), 1),
        shape(t.getShape());
    starts[axis] = start;
    shape[axis] = size;
    return one(buildTyped<SliceOp>(
        nc, RankedTensorType::get(shape, t.getElementType()), {v},
        {b.getNamedAttr("starts", b.getDenseI64ArrayAttr(starts)),
         b.getNamedAttr("steps", b.getDenseI64ArrayAttr(steps))}));
  }
  /// Slice `index` of dim 0, with that dim dropped.
  Value take(Value v, int64_t index) {
    Value s = slice(v, 0, index, 1);
    auto t = typeOf(s);
    return one(reshapeTo(nc, s, t.getShape().drop_front(),
                         dynamicSizesOf(nc, s, 1, t.getRank())));
  }
  Value transpose(Value v, ArrayRef<int64_t> perm) {
    return one(buildInferred<TransposeOp>(
        nc, {v}, {b.getNamedAttr("perm", b.getDenseI64ArrayAttr(perm))}));
  }
  Value matmul(Value x, Value y) { return one(buildInferred<MatMulOp>(nc, {x, y})); }
  Value add(Value x, Value y) { return one(buildInferred<AddOp>(nc, {x, y})); }
  Value sub(Value x, Value y) { return one(buildInferred<SubOp>(nc, {x, y})); }
  Value mul(Value x, Value y) { return one(buildInferred<MulOp>(nc, {x, y})); }
  Value act(StringRef name, Value x) {
    if (name == "Sigmoid")
      return one(buildTyped<SigmoidOp>(nc, x.getType(), {x}));
    if (name == "Tanh")
      return one(buildTyped<TanhOp>(nc, x.getType(), {x}));
    return one(buildTyped<ReluOp>(nc, x.getType(), {x}));
  }
  Value concat(ArrayRef<Value> parts, int64_t axis) {
    if (parts.size() == 1)
      return parts[0];
    return one(buildInferred<ConcatOp>(
        nc, parts, {b.getNamedAttr("axis", b.getI64IntegerAttr(axis))}));
  }
  Value prepend1(Value v) {
    SmallVector<int64_t> shape{1};
    auto t = typeOf(v);
    llvm::append_range(shape, t.getShape());
    return one(reshapeTo(nc, v, shape, dynamicSizesOf(nc, v, 0, t.getRank())));
  }

  NodeContext &nc;
  OpBuilder &b;
};

enum class Cell { RNN, GRU, LSTM };

NodeResults importRecurrent(NodeContext &nc, Cell cell) {
  if (failed(requireOperands(nc, 3)) || failed(requireFloat(nc, 3)))
    return failure();
  Recurrence r(nc);
  // Ranks first: everything below indexes these dimensions.
  static const char *const names[] = {
      "X", "W", "R", "B", "sequence_lens", "initial_h", "initial_c", "P"};
  for (size_t i = 0; i < std::min<size_t>(nc.numOperands(), 8); ++i) {
    int64_t want = i == 4 ? 1 : (i == 3 || i == 7) ? 2 : 3;
    if (nc.operand(i) && typeOf(nc.operand(i)).getRank() != want)
      return nc.error() << "input " << names[i] << " must have rank " << want
                        << ", got " << typeOf(nc.operand(i)),
             failure();
  }
  Value x = nc.operand(0);
  bool batchMajor = nc.intAttr("layout", 0) == 1;
  if (batchMajor)
    x = r.transpose(x, {1, 0, 2});
  auto xt = typeOf(x);
  // The batch may be a run-time size; the sequence (unrolled) and the
  // input size may not.
  if (xt.isDynamicDim(0) || xt.isDynamicDim(2))
    return nc.error() << "a sequence length or input size known at run time "
                         "only is not supported yet (a run-time batch is)",
           failure();
  int64_t seq = xt.getDimSize(0), batch = xt.getDimSize(1);
  int64_t hidden = nc.intAttr("hidden_size", typeOf(nc.operand(2)).getDimSize(2));
  int64_t gates = cell == Cell::LSTM ? 4 : cell == Cell::GRU ? 3 : 1;
  std::string direction = nc.stringAttr("direction", "forward");
  int64_t dirs = direction == "bidirectional" ? 2 : 1;
  if (direction != "forward" && direction != "reverse" && dirs != 2)
    return nc.error() << "unknown direction '" << direction << "'", failure();
  // The weights' shapes ([dirs, gates * hidden, input|hidden], the biases
  // [dirs, 2 * gates * hidden], the states [dirs, batch, hidden], the
  // peepholes [dirs, 3 * hidden]), where static.
  int64_t input = xt.getDimSize(2);
  SmallVector<std::pair<size_t, SmallVector<int64_t>>> shapes = {
      {1, {dirs, gates * hidden, input}},
      {2, {dirs, gates * hidden, hidden}},
      {3, {dirs, 2 * gates * hidden}},
      {5, {dirs, ShapedType::kDynamic, hidden}},
      {6, {dirs, ShapedType::kDynamic, hidden}},
      {7, {dirs, 3 * hidden}}};
  for (auto &[i, want] : shapes) {
    if (!nc.operand(i))
      continue;
    auto t = typeOf(nc.operand(i));
    if (i == 5 || i == 6)
      want[batchMajor ? 0 : 1] = batch, want[batchMajor ? 1 : 0] = dirs;
    for (auto [d, size] : llvm::enumerate(want))
      if (!ShapedType::isDynamic(size) && !t.isDynamicDim(d) &&
          t.getDimSize(d) != size)
        return nc.error() << "input " << names[i] << " has shape " << t
                          << ", expected "
                          << RankedTensorType::get(want, t.getElementType())
                          << " (hidden_size " << hidden << ", " << dirs
                          << " direction(s))",
               failure();
  }
  if (nc.attr("clip"))
    return nc.error() << "clip is not supported", failure();
  if (cell == Cell::LSTM && nc.intAttr("input_forget", 0))
    return nc.error() << "input_forget is not supported", failure();
  if (nc.operand(4)) {
    auto lens = nc.constantInts(4);
    if (!lens || llvm::any_of(*lens, [&](int64_t l) { return l != seq; }))
      return nc.error() << "sequence_lens shorter than the sequence are not "
                           "supported",
             failure();
  }
  // Activations: only ONNX's defaults, or the same names spelled out.
  SmallVector<std::string> acts;
  if (const auto *a = nc.attr("activations"))
    for (const std::string &s : a->strings())
      acts.push_back(s);
  SmallVector<std::string> defaults =
      cell == Cell::LSTM ? SmallVector<std::string>{"Sigmoid", "Tanh", "Tanh"}
      : cell == Cell::GRU ? SmallVector<std::string>{"Sigmoid", "Tanh"}
                          : SmallVector<std::string>{"Tanh"};
  size_t perDir = defaults.size();
  if (acts.empty())
    for (int64_t d = 0; d < dirs; ++d)
      llvm::append_range(acts, defaults);
  for (const std::string &a : acts)
    if (a != "Sigmoid" && a != "Tanh" && a != "Relu")
      return nc.error() << "activation '" << a << "' is not supported",
             failure();
  if (acts.size() != perDir * dirs)
    return nc.error() << "expected " << perDir * dirs << " activations",
           failure();
  bool linearBeforeReset = nc.intAttr("linear_before_reset", 0);
  Type et = xt.getElementType();

  SmallVector<Value> ys, hs, cs;
  for (int64_t d = 0; d < dirs; ++d) {
    bool reverse = direction == "reverse" || d == 1;
    ArrayRef<std::string> f(acts.data() + d * perDir, perDir);
    Value w = r.take(nc.operand(1), d), rw = r.take(nc.operand(2), d);
    Value wT = r.transpose(w, {1, 0}), rT = r.transpose(rw, {1, 0});
    // Input projection of every step at once: [seq, batch, gates*hidden].
    Value xw = r.matmul(x, wT);
    Value rb; // GRU with linear_before_reset keeps Rbh apart.
    if (nc.operand(3)) {
      Value bias = r.take(nc.operand(3), d);
      Value wb = r.slice(bias, 0, 0, gates * hidden);
      Value rbAll = r.slice(bias, 0, gates * hidden, gates * hidden);
      if (cell == Cell::GRU) {
        // Rbh belongs inside the reset product or next to it: keep it.
        Value wbFull = wb;
        Value rbZR = r.slice(rbAll, 0, 0, 2 * hidden);
        Value zeros = ConstantOp::create(
            nc.builder, nc.loc,
            DenseElementsAttr::get(RankedTensorType::get({hidden}, et),
                                   nc.builder.getZeroAttr(et)));
        xw = r.add(xw, r.add(wbFull, r.concat({rbZR, zeros}, 0)));
        rb = r.slice(rbAll, 0, 2 * hidden, hidden);
      } else {
        xw = r.add(xw, r.add(wb, rbAll));
      }
    }
    Value h = nc.operand(5) ? r.take(nc.operand(5), d) : Value();
    Value c = cell == Cell::LSTM && nc.operand(6) ? r.take(nc.operand(6), d) : Value();
    auto zeros = [&]() -> Value {
      auto type = RankedTensorType::get({batch, hidden}, et);
      if (!ShapedType::isDynamic(batch))
        return ConstantOp::create(
            nc.builder, nc.loc,
            DenseElementsAttr::get(type, nc.builder.getZeroAttr(et)));
      Value zero = arith::ConstantOp::create(nc.builder, nc.loc,
                                             nc.builder.getZeroAttr(et));
      return tensor::SplatOp::create(nc.builder, nc.loc, type, zero,
                                     dynamicSizesOf(nc, x, 1, 2));
    };
    if (!h)
      h = zeros();
    if (cell == Cell::LSTM && !c)
      c = zeros();
    Value p = cell == Cell::LSTM && nc.operand(7) ? r.take(nc.operand(7), d) : Value();
    SmallVector<Value> steps(seq);
    for (int64_t i = 0; i < seq; ++i) {
      int64_t t = reverse ? seq - 1 - i : i;
      Value xwt = r.take(xw, t); // [batch, gates*hidden]
      auto gate = [&](Value v, int64_t g) { return r.slice(v, 1, g * hidden, hidden); };
      if (cell == Cell::RNN) {
        h = r.act(f[0], r.add(xwt, r.matmul(h, rT)));
      } else if (cell == Cell::GRU) {
        Value rz = r.matmul(h, r.slice(rT, 1, 0, 2 * hidden));
        Value z = r.act(f[0], r.add(gate(xwt, 0), gate(rz, 0)));
        Value reset = r.act(f[0], r.add(gate(xwt, 1), gate(rz, 1)));
        Value rh = r.slice(rT, 1, 2 * hidden, hidden);
        Value hh;
        if (linearBeforeReset) {
          Value lin = r.matmul(h, rh);
          if (rb)
            lin = r.add(lin, rb);
          hh = r.add(gate(xwt, 2), r.mul(reset, lin));
        } else {
          Value lin = r.matmul(r.mul(reset, h), rh);
          if (rb)
            lin = r.add(lin, rb);
          hh = r.add(gate(xwt, 2), lin);
        }
        hh = r.act(f[1], hh);
        // h = (1 - z) * hh + z * h = hh + z * (h - hh)
        h = r.add(hh, r.mul(z, r.sub(h, hh)));
      } else {
        Value g = r.add(xwt, r.matmul(h, rT)); // i, o, f, c
        Value gi = gate(g, 0), go = gate(g, 1), gf = gate(g, 2), gc = gate(g, 3);
        if (p) {
          gi = r.add(gi, r.mul(r.slice(p, 0, 0, hidden), c));
          gf = r.add(gf, r.mul(r.slice(p, 0, 2 * hidden, hidden), c));
        }
        Value it = r.act(f[0], gi), ft = r.act(f[0], gf), ct = r.act(f[1], gc);
        c = r.add(r.mul(ft, c), r.mul(it, ct));
        if (p)
          go = r.add(go, r.mul(r.slice(p, 0, hidden, hidden), c));
        h = r.mul(r.act(f[0], go), r.act(f[2], c));
      }
      if (!h)
        return failure();
      steps[t] = r.prepend1(h); // [1, batch, hidden]
    }
    ys.push_back(r.prepend1(r.concat(steps, 0))); // [1, seq, batch, hidden]
    hs.push_back(r.prepend1(h));
    if (c)
      cs.push_back(r.prepend1(c));
  }
  Value y = r.transpose(r.concat(ys, 0), {1, 0, 2, 3}); // [seq, dirs, batch, hidden]
  Value yh = r.concat(hs, 0), yc = cs.empty() ? Value() : r.concat(cs, 0);
  if (batchMajor) {
    y = r.transpose(y, {2, 0, 1, 3});
    yh = r.transpose(yh, {1, 0, 2});
    if (yc)
      yc = r.transpose(yc, {1, 0, 2});
  }
  SmallVector<Value> results{y, yh};
  if (yc)
    results.push_back(yc);
  return results;
}

} // namespace

void dlc::addRecurrentImporters(NodeImporterTable &t) {
  t["RNN"] = [](NodeContext &nc) { return importRecurrent(nc, Cell::RNN); };
  t["GRU"] = [](NodeContext &nc) { return importRecurrent(nc, Cell::GRU); };
  t["LSTM"] = [](NodeContext &nc) { return importRecurrent(nc, Cell::LSTM); };
}
