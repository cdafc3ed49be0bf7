//===- ControlFlowImport.cpp - If, Loop and Scan, resolved at import ------===//
//
// Control flow whose structure is known at compile time is resolved while
// importing, its subgraphs imported in place:
// - If with a constant condition (after constant evaluation) is its
//   branch; with a condition from data, both branches are computed and
//   each output selected by the condition (Where), which needs the
//   branches' outputs to have the same types.
// - Scan is unrolled over its static scan length.
// - Loop is unrolled: with a trip count and a condition known at compile
//   time exactly; with a condition from data (and a trip count known at
//   compile time) every iteration runs and the carried values only change
//   while the condition holds (Where), which needs carried values of
//   unchanging types and no scan outputs (their length would depend on
//   data).
// Loops longer than kMaxUnrolledIterations are refused, as is control flow
// whose shapes depend on data (that needs data-dependent output shapes).
//
//===----------------------------------------------------------------------===//
#include "frontend/ConstantFolding.h"
#include "frontend/GraphImporter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace dlc;

/// Iterations a Loop or Scan may unroll to.
static constexpr int64_t kMaxUnrolledIterations = 4096;
/// Iterations a Loop with a condition from data is unrolled to (every
/// iteration runs, its carried values masked); longer ones run as loops.
static constexpr int64_t kMaxMaskedIterations = 16;

static Value boolConstant(OpBuilder &b, Location loc, bool value) {
  auto type = RankedTensorType::get({}, b.getI1Type());
  return ConstantOp::create(b, loc, DenseElementsAttr::get(type, value));
}

/// The value of a constant scalar (or one-element) boolean or integer.
static std::optional<int64_t> constantScalarInt(Value v) {
  DenseElementsAttr attr;
  if (!v || !matchPattern(v, m_Constant(&attr)) || attr.getNumElements() != 1 ||
      !isa<IntegerType>(attr.getElementType()))
    return std::nullopt;
  APInt x = *attr.getValues<APInt>().begin();
  return attr.getElementType().isInteger(1) ? (int64_t)x.getBoolValue()
                                            : x.getSExtValue();
}

/// The scalar element of one-element tensor `v`.
static Value scalarOf(OpBuilder &b, Location loc, Value v) {
  auto type = cast<RankedTensorType>(v.getType());
  SmallVector<Value> zeros;
  if (type.getRank() > 0)
    zeros.assign(type.getRank(), arith::ConstantIndexOp::create(b, loc, 0));
  return tensor::ExtractOp::create(b, loc, v, zeros);
}

bool GraphImporter::sameShape(Value a, Value b) const {
  auto x = typeOf(a), y = typeOf(b);
  if (x.getElementType() != y.getElementType() || x.getRank() != y.getRank())
    return false;
  for (unsigned d = 0, e = x.getRank(); d < e; ++d) {
    if (x.isDynamicDim(d) != y.isDynamicDim(d))
      return false;
    if (x.isDynamicDim(d) ? symbolicDims.keyOf(a, d) != symbolicDims.keyOf(b, d)
                          : x.getDimSize(d) != y.getDimSize(d))
      return false;
  }
  return true;
}

FailureOr<SmallVector<Value>>
GraphImporter::importSubgraph(const onnx::GraphProto &body,
                              ArrayRef<Value> inputs, StringRef scope,
                              Location loc) {
  if ((size_t)body.input_size() != inputs.size())
    return emitError(loc) << "subgraph '" << body.name() << "' takes "
                          << body.input_size() << " inputs, given "
                          << inputs.size();
  // The body's names shadow the outer graph's while it is imported.
  llvm::StringSet<> defined;
  for (const auto &input : body.input())
    defined.insert(input.name());
  for (const auto &init : body.initializer())
    defined.insert(init.name());
  for (const auto &node : body.node())
    for (const std::string &name : node.output())
      if (!name.empty())
        defined.insert(name);
  llvm::StringMap<Value> savedValues;
  llvm::StringMap<const onnx::TensorProto *> savedConstants;
  llvm::StringMap<SmallVector<Value>> savedSequences;
  for (const auto &entry : defined) {
    StringRef name = entry.getKey();
    if (auto it = values.find(name); it != values.end()) {
      savedValues[name] = it->second;
      values.erase(it);
    }
    if (auto it = constants.find(name); it != constants.end()) {
      savedConstants[name] = it->second;
      constants.erase(it);
    }
    if (auto it = sequences.find(name); it != sequences.end()) {
      savedSequences[name] = it->second;
      sequences.erase(it);
    }
  }
  for (const auto &list : {body.value_info(), body.output(), body.input()})
    for (const auto &info : list)
      if (info.type().has_tensor_type())
        onnxElemTypes[info.name()] = info.type().tensor_type().elem_type();

  std::string savedPrefix = scopePrefix;
  scopePrefix = scope.str();
  auto restore = [&] {
    scopePrefix = savedPrefix;
    for (const auto &entry : defined) {
      values.erase(entry.getKey());
      constants.erase(entry.getKey());
      sequences.erase(entry.getKey());
    }
    for (auto &entry : savedValues)
      values[entry.getKey()] = entry.getValue();
    for (auto &entry : savedConstants)
      constants[entry.getKey()] = entry.getValue();
    for (auto &entry : savedSequences)
      sequences[entry.getKey()] = entry.getValue();
  };

  SmallVector<Value> outputs;
  LogicalResult ok = [&]() -> LogicalResult {
    for (auto [input, value] : llvm::zip(body.input(), inputs))
      values[input.name()] = value;
    for (const auto &init : body.initializer())
      if (failed(importConstant(init, loc)))
        return failure();
    for (auto [i, node] : llvm::enumerate(body.node())) {
      if (importedNodes > (size_t)kMaxUnrolledIterations * 256)
        return emitError(loc)
               << "control flow unrolls to more than "
               << kMaxUnrolledIterations * 256 << " nodes; not supported";
      if (failed(importNode(node, i)))
        return failure();
    }
    for (const auto &output : body.output()) {
      auto it = values.find(output.name());
      if (it == values.end()) {
        if (sequences.count(output.name()))
          return emitError(loc)
                 << "subgraph output '" << output.name()
                 << "' is a sequence; control flow over sequences is not "
                    "supported";
        return emitError(loc) << "subgraph output '" << output.name()
                              << "' is not produced by any node";
      }
      outputs.push_back(it->second);
    }
    return success();
  }();
  restore();
  if (failed(ok))
    return failure();
  return outputs;
}

LogicalResult GraphImporter::importControlFlowNode(const onnx::NodeProto &node,
                                                   Location loc) {
  SmallVector<Value> operands;
  for (const std::string &name : node.input()) {
    if (name.empty()) {
      operands.push_back(Value());
      continue;
    }
    auto it = values.find(name);
    if (it == values.end()) {
      if (sequences.count(name))
        return emitError(loc) << node.op_type() << ": input '" << name
                              << "' is a sequence; control flow over "
                                 "sequences is not supported";
      return emitError(loc) << node.op_type() << ": input '" << name
                            << "' is not defined before its use";
    }
    operands.push_back(it->second);
  }
  std::unique_ptr<NodeContext> nc = graphLevelContext(node, loc, operands);
  if (node.op_type() == "If")
    return importIf(*nc);
  if (node.op_type() == "Loop")
    return importLoop(*nc);
  return importScan(*nc);
}

/// The subgraph attribute `name` of the node, or null after an error.
static const onnx::GraphProto *subgraph(NodeContext &nc, StringRef name) {
  const onnx::AttributeProto *a = nc.attr(name);
  if (!a || !a->has_g()) {
    nc.error() << "missing the '" << name << "' subgraph";
    return nullptr;
  }
  return &a->g();
}

/// Where the nodes of subgraph `attr` of the node at `loc` are located.
static std::string scopeOf(Location loc, StringRef attr) {
  return cast<NameLoc>(loc).getName().str() + "/" + attr.str() + "/";
}

LogicalResult GraphImporter::importIf(NodeContext &nc) {
  const onnx::GraphProto *thenBranch = subgraph(nc, "then_branch"),
                         *elseBranch = subgraph(nc, "else_branch");
  if (!thenBranch || !elseBranch || failed(requireOperands(nc, 1)))
    return failure();
  // The condition, evaluated at compile time if it is computed from
  // constants.
  Value cond = nc.constantOperandValue(0);
  std::optional<int64_t> known = constantScalarInt(cond);
  if (known) {
    FailureOr<SmallVector<Value>> outputs =
        *known ? importSubgraph(*thenBranch, {}, scopeOf(nc.loc, "then_branch"),
                                nc.loc)
               : importSubgraph(*elseBranch, {}, scopeOf(nc.loc, "else_branch"),
                                nc.loc);
    if (failed(outputs))
      return failure();
    bindOutputs(nc.node, *outputs);
    return success();
  }
  if (!typeOf(cond).hasStaticShape() || typeOf(cond).getNumElements() != 1)
    return nc.error() << "the condition must have one element, not "
                      << typeOf(cond),
           failure();
  // Both branches are imported into the regions of an scf.if. When each
  // output has one shape in both, they are inlined and selected (Where):
  // both run, and fuse with what reads them. Otherwise the scf.if runs one,
  // its results of the shape both fit (dynamic sizes where they differ).
  Location loc = nc.loc;
  Value flag = scalarOf(builder, loc, cond);
  auto branches = scf::IfOp::create(builder, loc, TypeRange{}, flag,
                                    /*withElseRegion=*/true);
  auto importInto = [&](Region &region, const onnx::GraphProto &graph,
                        StringRef attr) -> FailureOr<SmallVector<Value>> {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPoint(region.front().getTerminator());
    return importSubgraph(graph, {}, scopeOf(loc, attr), loc);
  };
  FailureOr<SmallVector<Value>> thenOutputs =
      importInto(branches.getThenRegion(), *thenBranch, "then_branch");
  if (failed(thenOutputs))
    return failure();
  FailureOr<SmallVector<Value>> elseOutputs =
      importInto(branches.getElseRegion(), *elseBranch, "else_branch");
  if (failed(elseOutputs))
    return failure();
  if ((size_t)nc.node.output_size() > thenOutputs->size() ||
      thenOutputs->size() != elseOutputs->size())
    return nc.error() << "the branches give " << thenOutputs->size() << " and "
                      << elseOutputs->size() << " outputs for "
                      << nc.node.output_size(),
           failure();
  bool same = true;
  SmallVector<Type> joined;
  for (auto [i, a, b] : llvm::enumerate(*thenOutputs, *elseOutputs)) {
    auto x = typeOf(a), y = typeOf(b);
    if (x.getElementType() != y.getElementType() ||
        x.getRank() != y.getRank())
      return nc.error() << "output " << i << " is " << x
                        << " in the then branch and " << y
                        << " in the else branch, and the condition is data "
                           "(known only at run time); branches must give "
                           "one element type and rank",
             failure();
    same &= sameShape(a, b);
    SmallVector<int64_t> shape;
    for (auto [m, n] : llvm::zip(x.getShape(), y.getShape()))
      shape.push_back(m == n ? m : ShapedType::kDynamic);
    joined.push_back(RankedTensorType::get(shape, x.getElementType()));
  }
  if (same) {
    Block *block = branches->getBlock();
    for (Region *region :
         {&branches.getThenRegion(), &branches.getElseRegion()}) {
      Block &body = region->front();
      body.getTerminator()->erase();
      block->getOperations().splice(branches->getIterator(),
                                    body.getOperations());
    }
    branches.erase();
    Operation *extract = flag.getDefiningOp();
    llvm::SmallPtrSet<Operation *, 2> indices;
    for (Value index : extract->getOperands().drop_front())
      if (Operation *def = index.getDefiningOp())
        indices.insert(def);
    extract->erase();
    for (Operation *index : indices)
      if (index->use_empty())
        index->erase();
    for (auto [name, a, b] :
         llvm::zip(nc.node.output(), *thenOutputs, *elseOutputs)) {
      if (name.empty())
        continue;
      Value v = selectValues(cond, a, b, nc.loc);
      if (!v)
        return failure();
      bindOutput(name, v);
    }
    return success();
  }
  auto chosen = scf::IfOp::create(builder, loc, joined, flag,
                                  /*withElseRegion=*/true);
  for (auto [to, from, outputs] :
       {std::make_tuple(&chosen.getThenRegion(), &branches.getThenRegion(),
                        &*thenOutputs),
        std::make_tuple(&chosen.getElseRegion(), &branches.getElseRegion(),
                        &*elseOutputs)}) {
    to->takeBody(*from);
    Block &body = to->front();
    body.getTerminator()->erase();
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToEnd(&body);
    SmallVector<Value> yielded;
    for (auto [v, type] : llvm::zip(*outputs, joined))
      yielded.push_back(v.getType() == type
                            ? v
                            : Value(tensor::CastOp::create(builder, loc, type, v)));
    scf::YieldOp::create(builder, loc, yielded);
  }
  branches.erase();
  SmallVector<Value> results(chosen.getResults());
  bindOutputs(nc.node, results);
  return success();
}

Value GraphImporter::selectValues(Value cond, Value a, Value b, Location loc) {
  if (typeOf(cond).getRank() != 0) {
    cond = one(importSynthetic(
        "Reshape", {cond, int64Constant(builder, loc, {0}, {})}, {}, 1, loc));
    if (!cond)
      return Value();
  }
  return one(importSynthetic("Where", {cond, a, b}, {}, 1, loc));
}

Value GraphImporter::stackValues(ArrayRef<Value> parts, int64_t axis,
                                 Location loc) {
  SmallVector<Value> expanded;
  for (Value v : parts) {
    Value axes = int64Constant(builder, loc, {1}, {axis});
    expanded.push_back(
        one(importSynthetic("Unsqueeze", {v, axes}, {}, 1, loc)));
    if (!expanded.back())
      return Value();
  }
  if (expanded.size() == 1)
    return expanded[0];
  return one(importSynthetic("Concat", expanded, {intAttribute("axis", axis)},
                             1, loc));
}

/// `v` evaluated now when it is computed from constants (a loop condition).
Value GraphImporter::evaluatedIfConstant(Value v, Location loc) {
  if (options.evaluateConstants && isComputedFromConstants(v))
    if (Value c = evaluateValue(v, loc))
      return c;
  return v;
}

LogicalResult GraphImporter::importLoop(NodeContext &nc) {
  const onnx::GraphProto *body = subgraph(nc, "body");
  if (!body)
    return failure();
  // The trip count and the condition may each be left out (empty names).
  if (nc.numOperands() < 2)
    return nc.error() << "expects at least 2 inputs (the trip count and the "
                         "condition, either of them empty)",
           failure();
  size_t numCarried = nc.numOperands() - 2;
  if ((size_t)body->input_size() != numCarried + 2 ||
      (size_t)body->output_size() < numCarried + 1)
    return nc.error() << "the body takes " << body->input_size()
                      << " inputs and gives " << body->output_size()
                      << " outputs for " << numCarried << " carried values",
           failure();
  size_t numScans = body->output_size() - 1 - numCarried;
  std::optional<int64_t> trip;
  Value dataTrip;
  if (nc.operand(0)) {
    std::optional<SmallVector<int64_t>> m = nc.constantInts(0);
    if (m && m->size() == 1)
      trip = (*m)[0];
    else if (!typeOf(nc.operand(0)).hasStaticShape() ||
             typeOf(nc.operand(0)).getNumElements() != 1)
      return nc.error() << "the trip count must have one element, not "
                        << typeOf(nc.operand(0)),
             failure();
    else
      dataTrip = nc.operand(0);
  }
  // With scan outputs the condition must be known at compile time (their
  // length follows it): it may read inputs `dlc run` specializes. Without,
  // a data condition masks the carried values instead.
  Value cond =
      nc.operand(1)
          ? nc.constantOperandValue(1, /*specializeKnown=*/numScans > 0)
          : boolConstant(builder, nc.loc, true);
  if (nc.operand(1) &&
      (!typeOf(cond).hasStaticShape() || typeOf(cond).getNumElements() != 1))
    return nc.error() << "the condition must have one element, not "
                      << typeOf(cond),
           failure();
  SmallVector<Value> carried;
  for (size_t i = 2; i < nc.numOperands(); ++i) {
    if (!nc.operand(i))
      return nc.error() << "carried value " << i - 2 << " is absent", failure();
    carried.push_back(nc.operand(i));
  }
  // Loops whose number of iterations is known only at run time (a trip
  // count from data; a condition from data and no trip count or a long
  // one; more iterations than unrolling takes) run as loops, from the
  // first iteration or from where the condition became data.
  auto runAsLoop = [&](int64_t first) {
    return importLoopAsWhile(nc, *body,
                             trip ? int64Constant(builder, nc.loc, {}, {*trip})
                                  : dataTrip,
                             cond, carried, first, numScans);
  };
  std::optional<int64_t> knownCond = constantScalarInt(cond);
  if (dataTrip || (!trip && !knownCond) ||
      (trip && *trip > kMaxUnrolledIterations && numScans == 0) ||
      (trip && *trip > kMaxMaskedIterations && !knownCond && numScans == 0))
    return runAsLoop(0);
  SmallVector<SmallVector<Value>> scans(numScans);
  // The running condition while it is data; null while it is known.
  Value active;
  std::string scope = scopeOf(nc.loc, "body");
  for (int64_t i = 0;; ++i) {
    if (trip && i >= *trip)
      break;
    if (!active) {
      std::optional<int64_t> known = constantScalarInt(cond);
      if (known && !*known)
        break;
      if (!known) {
        if (numScans)
          return nc.error() << "the condition is data (known only at run "
                               "time) and the body has scan outputs, whose "
                               "length would depend on it: that needs "
                               "data-dependent output shapes, not supported "
                               "yet",
                 failure();
        if (!trip || *trip - i > kMaxMaskedIterations)
          return runAsLoop(i);
        active = cond;
      }
    }
    if (i >= kMaxUnrolledIterations) {
      if (numScans == 0 && !active)
        return runAsLoop(i);
      return nc.error() << "more than " << kMaxUnrolledIterations
                        << " iterations to unroll; not supported",
             failure();
    }
    SmallVector<Value> inputs = {int64Constant(builder, nc.loc, {}, {i}),
                                 active ? active
                                        : boolConstant(builder, nc.loc, true)};
    inputs.append(carried);
    FailureOr<SmallVector<Value>> outputs =
        importSubgraph(*body, inputs, scope, nc.loc);
    if (failed(outputs))
      return failure();
    Value next = (*outputs)[0];
    ArrayRef<Value> nextCarried = ArrayRef(*outputs).slice(1, numCarried);
    if (active) {
      for (auto [j, old, now] : llvm::enumerate(carried, nextCarried)) {
        if (!sameShape(old, now))
          return nc.error() << "carried value " << j << " changes from "
                            << old.getType() << " to " << now.getType()
                            << " (or to a size not known to be the same) "
                               "while the condition is data; that needs "
                               "data-dependent shapes, not supported yet",
                 failure();
        old = selectValues(active, now, old, nc.loc);
        if (!old)
          return failure();
      }
      if (typeOf(next).getRank() != 0)
        next = selectValues(next, boolConstant(builder, nc.loc, true),
                            boolConstant(builder, nc.loc, false), nc.loc);
      active = next ? one(importSynthetic("And", {active, next}, {}, 1, nc.loc))
                    : Value();
      if (!active)
        return failure();
      continue;
    }
    carried.assign(nextCarried.begin(), nextCarried.end());
    for (size_t k = 0; k < numScans; ++k)
      scans[k].push_back((*outputs)[1 + numCarried + k]);
    cond = evaluatedIfConstant(next, nc.loc);
  }
  SmallVector<Value> results(carried);
  for (auto [k, parts] : llvm::enumerate(scans)) {
    if (parts.empty())
      return nc.error() << "the loop runs no iteration, so scan output " << k
                        << " has no known element shape; not supported",
             failure();
    Value v = stackValues(parts, 0, nc.loc);
    if (!v)
      return failure();
    results.push_back(v);
  }
  bindOutputs(nc.node, results);
  return success();
}

LogicalResult GraphImporter::importLoopAsWhile(NodeContext &nc,
                                               const onnx::GraphProto &body,
                                               Value tripCount, Value cond,
                                               ArrayRef<Value> carried,
                                               int64_t first, size_t numScans) {
  if (numScans)
    return nc.error() << "the number of iterations is known only at run time "
                         "(a trip count or condition from data) and the body "
                         "has "
                      << numScans
                      << " scan outputs, whose length would depend on it: "
                         "that needs data-dependent output shapes, not "
                         "supported yet",
           failure();
  Location loc = nc.loc;
  SmallVector<Value> inits = {
      arith::ConstantIntOp::create(builder, loc, first, 64),
      scalarOf(builder, loc, cond)};
  inits.append(carried.begin(), carried.end());
  Value limit = tripCount ? scalarOf(builder, loc, tripCount) : Value();
  SmallVector<Type> types =
      llvm::map_to_vector(inits, [](Value v) { return v.getType(); });
  SmallVector<Location> locs(inits.size(), loc);
  auto loop = scf::WhileOp::create(builder, loc, types, inits);
  OpBuilder::InsertionGuard guard(builder);
  // Before: continue while the iteration number is below the trip count
  // and the condition holds.
  Block *before = builder.createBlock(&loop.getBefore(), {}, types, locs);
  Value go = before->getArgument(1);
  if (limit) {
    Value below = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::slt,
                                        before->getArgument(0), limit);
    go = arith::AndIOp::create(builder, loc, below, go);
  }
  scf::ConditionOp::create(builder, loc, go, before->getArguments());
  // After: the body, its carried values of the shapes they came in with.
  Block *after = builder.createBlock(&loop.getAfter(), {}, types, locs);
  SmallVector<Value> inputs = {
      tensor::FromElementsOp::create(
          builder, loc, RankedTensorType::get({}, builder.getI64Type()),
          after->getArgument(0)),
      tensor::FromElementsOp::create(
          builder, loc, RankedTensorType::get({}, builder.getI1Type()),
          after->getArgument(1))};
  for (size_t j = 2; j < inits.size(); ++j) {
    Value init = inits[j];
    for (unsigned d = 0, e = typeOf(init).getRank(); d < e; ++d) {
      symbolicDims.link(before->getArgument(j), d, init, d);
      symbolicDims.link(after->getArgument(j), d, init, d);
      symbolicDims.link(loop.getResult(j), d, init, d);
    }
    inputs.push_back(after->getArgument(j));
  }
  FailureOr<SmallVector<Value>> outputs =
      importSubgraph(body, inputs, scopeOf(loc, "body"), loc);
  if (failed(outputs))
    return failure();
  Value next = (*outputs)[0];
  if (!typeOf(next).hasStaticShape() || typeOf(next).getNumElements() != 1)
    return nc.error() << "the body's condition must have one element, not "
                      << typeOf(next),
           failure();
  SmallVector<Value> yielded = {
      arith::AddIOp::create(builder, loc, after->getArgument(0),
                            arith::ConstantIntOp::create(builder, loc, 1, 64)),
      scalarOf(builder, loc, next)};
  for (size_t j = 2; j < inits.size(); ++j) {
    Value now = (*outputs)[j - 1], old = after->getArgument(j);
    auto oldType = typeOf(old), nowType = typeOf(now);
    if (!sameShape(now, old))
      return nc.error() << "carried value " << j - 2 << " changes from "
                        << oldType << " to " << nowType
                        << " (or to a size not known to be the same) in an "
                           "iteration, and the number of iterations is "
                           "known only at run time; loops whose carried "
                           "shapes change are not supported",
             failure();
    yielded.push_back(now);
  }
  scf::YieldOp::create(builder, loc, yielded);
  SmallVector<Value> results(loop.getResults().drop_front(2));
  bindOutputs(nc.node, results);
  return success();
}

LogicalResult GraphImporter::importScan(NodeContext &nc) {
  const onnx::GraphProto *body = subgraph(nc, "body");
  if (!body)
    return failure();
  int64_t numScanInputs = nc.intAttr("num_scan_inputs", -1);
  bool batched = nc.opset < 9; // Scan-8: a batch axis 0 and sequence_lens
  size_t first = batched ? 1 : 0;
  if (batched && nc.operand(0))
    return nc.error() << "sequence_lens is not supported (every sequence "
                         "must have the whole length)",
           failure();
  int64_t numOperands = nc.numOperands() - first;
  if (numScanInputs < 1 || numScanInputs > numOperands)
    return nc.error() << "num_scan_inputs " << numScanInputs << " does not fit "
                      << numOperands << " inputs",
           failure();
  int64_t numStates = numOperands - numScanInputs;
  int64_t numScanOutputs = body->output_size() - numStates;
  if (body->input_size() != numOperands || numScanOutputs < 0)
    return nc.error() << "the body takes " << body->input_size()
                      << " inputs and gives " << body->output_size()
                      << " outputs for " << numStates << " states and "
                      << numScanInputs << " scan inputs",
           failure();
  auto listAttr = [&](StringRef name, int64_t n) -> SmallVector<int64_t> {
    std::optional<SmallVector<int64_t>> v = nc.intsAttr(name);
    return v ? *v : SmallVector<int64_t>(n, 0);
  };
  SmallVector<int64_t> inAxes = listAttr("scan_input_axes", numScanInputs),
                       inDirs = listAttr(batched ? "directions"
                                                 : "scan_input_directions",
                                         numScanInputs),
                       outAxes = listAttr("scan_output_axes", numScanOutputs),
                       outDirs =
                           listAttr("scan_output_directions", numScanOutputs);
  if ((int64_t)inAxes.size() != numScanInputs ||
      (int64_t)inDirs.size() != numScanInputs ||
      (int64_t)outAxes.size() != numScanOutputs ||
      (int64_t)outDirs.size() != numScanOutputs)
    return nc.error() << "scan axis and direction attributes must have one "
                         "entry per scan input and output",
           failure();
  std::string scope = scopeOf(nc.loc, "body");

  // One scan over `states` and `inputs`: the final states, then each scan
  // output stacked.
  auto scan = [&](SmallVector<Value> states,
                  ArrayRef<Value> inputs) -> FailureOr<SmallVector<Value>> {
    int64_t length = -1;
    SmallVector<int64_t> axes;
    for (auto [j, x] : llvm::enumerate(inputs)) {
      FailureOr<int64_t> axis =
          normalizeAxis(nc, inAxes[j], typeOf(x).getRank());
      if (failed(axis))
        return failure();
      int64_t n = typeOf(x).getDimSize(*axis);
      if (ShapedType::isDynamic(n) || (length >= 0 && n != length))
        return nc.error() << "scan inputs need one static length (input " << j
                          << " is " << typeOf(x) << ")",
               failure();
      length = n;
      axes.push_back(*axis);
    }
    if (length > kMaxUnrolledIterations)
      return nc.error() << "a scan of " << length << " steps is more than "
                        << kMaxUnrolledIterations << " to unroll",
             failure();
    SmallVector<SmallVector<Value>> outs(numScanOutputs);
    for (int64_t t = 0; t < length; ++t) {
      SmallVector<Value> bodyInputs(states);
      for (auto [j, x] : llvm::enumerate(inputs)) {
        int64_t at = inDirs[j] ? length - 1 - t : t;
        Value slice = one(importSynthetic(
            "Gather", {x, int64Constant(builder, nc.loc, {}, {at})},
            {intAttribute("axis", axes[j])}, 1, nc.loc));
        if (!slice)
          return failure();
        bodyInputs.push_back(slice);
      }
      FailureOr<SmallVector<Value>> outputs =
          importSubgraph(*body, bodyInputs, scope, nc.loc);
      if (failed(outputs))
        return failure();
      states.assign(outputs->begin(), outputs->begin() + numStates);
      for (int64_t k = 0; k < numScanOutputs; ++k)
        outs[k].push_back((*outputs)[numStates + k]);
    }
    SmallVector<Value> results(states);
    for (int64_t k = 0; k < numScanOutputs; ++k) {
      if (outs[k].empty())
        return nc.error() << "a scan of no steps has no known output shape",
               failure();
      if (outDirs[k])
        std::reverse(outs[k].begin(), outs[k].end());
      FailureOr<int64_t> axis =
          normalizeAxis(nc, outAxes[k], typeOf(outs[k][0]).getRank() + 1);
      if (failed(axis))
        return failure();
      Value v = stackValues(outs[k], *axis, nc.loc);
      if (!v)
        return failure();
      results.push_back(v);
    }
    return results;
  };

  SmallVector<Value> states, inputs;
  for (int64_t j = 0; j < numOperands; ++j) {
    Value v = nc.operand(first + j);
    if (!v)
      return nc.error() << "input " << first + j << " is absent", failure();
    (j < numStates ? states : inputs).push_back(v);
  }
  SmallVector<Value> results;
  if (!batched) {
    FailureOr<SmallVector<Value>> r = scan(states, inputs);
    if (failed(r))
      return failure();
    results = *r;
  } else {
    // Scan-8: each sample of the batch (axis 0 of every input) scans on
    // its own; the results are stacked along axis 0 again.
    int64_t batch = typeOf(inputs[0]).getDimSize(0);
    if (ShapedType::isDynamic(batch))
      return nc.error() << "the batch must be static", failure();
    SmallVector<SmallVector<Value>> perSample;
    for (int64_t b = 0; b < batch; ++b) {
      auto take = [&](Value v) {
        return one(importSynthetic("Gather",
                                   {v, int64Constant(builder, nc.loc, {}, {b})},
                                   {intAttribute("axis", 0)}, 1, nc.loc));
      };
      SmallVector<Value> s, x;
      for (Value v : states)
        s.push_back(take(v));
      for (Value v : inputs)
        x.push_back(take(v));
      if (llvm::is_contained(s, Value()) || llvm::is_contained(x, Value()))
        return failure();
      FailureOr<SmallVector<Value>> r = scan(s, x);
      if (failed(r))
        return failure();
      perSample.push_back(*r);
    }
    for (size_t k = 0; k < (size_t)(numStates + numScanOutputs); ++k) {
      SmallVector<Value> parts;
      for (const auto &r : perSample)
        parts.push_back(r[k]);
      Value v = stackValues(parts, 0, nc.loc);
      if (!v)
        return failure();
      results.push_back(v);
    }
  }
  bindOutputs(nc.node, results);
  return success();
}
