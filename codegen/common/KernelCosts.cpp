//===- KernelCosts.cpp - FLOPs and bytes of each fused kernel -------------===//
#include "codegen/common/KernelCosts.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <optional>

using namespace mlir;

StringRef dlc::kernelKindName(KernelKind kind) {
  switch (kind) {
  case KernelKind::Convolution:
    return "convolution";
  case KernelKind::Contraction:
    return "contraction";
  case KernelKind::Reduction:
    return "reduction";
  case KernelKind::Elementwise:
    return "elementwise";
  case KernelKind::DataMovement:
    return "data movement";
  case KernelKind::Other:
    return "other";
  }
  return "other";
}

namespace {

/// The bytes of a tensor, or nullopt when its sizes are known at run time
/// only. Booleans take a byte each, as in memory.
std::optional<double> tensorBytes(Type type) {
  auto shaped = dyn_cast<RankedTensorType>(type);
  if (!shaped)
    return std::nullopt;
  if (!shaped.hasStaticShape())
    return std::nullopt;
  Type element = shaped.getElementType();
  unsigned bits = element.isIndex() ? 64 : element.getIntOrFloatBitWidth();
  if (auto complex = dyn_cast<ComplexType>(element))
    bits = 2 * complex.getElementType().getIntOrFloatBitWidth();
  return double(shaped.getNumElements()) * std::max(1u, (bits + 7) / 8);
}

bool isFloatArithmetic(Operation *op) {
  if (op->getNumResults() != 1)
    return false;
  if (auto cmp = dyn_cast<arith::CmpFOp>(op))
    return cmp.getPredicate() != arith::CmpFPredicate::AlwaysFalse &&
           cmp.getPredicate() != arith::CmpFPredicate::AlwaysTrue;
  if (!isa<FloatType>(getElementTypeOrSelf(op->getResult(0).getType())))
    return false;
  if (isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp,
          arith::RemFOp, arith::NegFOp, arith::MaximumFOp, arith::MinimumFOp,
          arith::MaxNumFOp, arith::MinNumFOp>(op))
    return true;

  return isa<math::MathDialect>(op->getDialect());
}

/// FLOPs and multiply-adds (a multiplication whose only use is an
/// addition) of one iteration of a linalg op's body.
struct BodyCount {
  double flops = 0, macs = 0;
};

BodyCount countBody(Block &body) {
  BodyCount count;
  body.walk([&](Operation *op) {
    if (!isFloatArithmetic(op))
      return;
    count.flops += isa<math::FmaOp>(op) ? 2 : 1;
    if (isa<math::FmaOp>(op) ||
        (isa<arith::MulFOp>(op) && op->getResult(0).hasOneUse() &&
         isa<arith::AddFOp>(*op->getResult(0).getUsers().begin())))
      count.macs += 1;
  });
  return count;
}

/// Elementwise in the sense of tile-and-fuse: no reduction, every operand
/// read at a projection of the iteration (fills, copies, broadcasts,
/// transposes and gathers included).
bool isElementwiseLike(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  return linalgOp && linalgOp.getNumReductionLoops() == 0 &&
         llvm::all_of(linalgOp.getIndexingMapsArray(), [](AffineMap map) {
           return map.isProjectedPermutation();
         });
}

/// Ops that are views or metadata: no kernel of their own.
bool isFree(Operation *op) {
  return isa<tensor::EmptyOp, tensor::CollapseShapeOp, tensor::ExpandShapeOp,
             tensor::ExtractSliceOp, tensor::CastOp, tensor::DimOp,
             tensor::ExtractOp, tensor::FromElementsOp, tensor::ReshapeOp,
             arith::ConstantOp>(op);
}

bool producesTensor(Operation *op) {
  return llvm::any_of(op->getResultTypes(),
                      [](Type t) { return isa<TensorType>(t); });
}

/// The value a view is taken of, through reshapes, casts and slices.
Value viewSource(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp,
            tensor::ExtractSliceOp, tensor::CastOp, tensor::ReshapeOp>(def))
      value = def->getOperand(0);
    else
      break;
  }
  return value;
}

bool isConstantTensor(Value value) {
  Value source = viewSource(value);
  return source.getDefiningOp<arith::ConstantOp>() != nullptr;
}

/// A constant of one repeated value: no memory to read.
bool isSplatConstant(Value value) {
  auto constant = viewSource(value).getDefiningOp<arith::ConstantOp>();
  auto dense =
      constant ? dyn_cast<DenseElementsAttr>(constant.getValue()) : nullptr;
  return dense && dense.isSplat();
}

/// The first ONNX node name in `loc`, if any.
StringRef firstNodeName(Location loc) {
  StringRef first;
  loc->walk([&](Location nested) {
    if (auto name = dyn_cast<NameLoc>(nested)) {
      first = name.getName().getValue();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return first;
}

void addNodeNames(Location loc, llvm::SetVector<StringRef> &names) {
  loc->walk([&](Location nested) {
    if (auto name = dyn_cast<NameLoc>(nested))
      names.insert(name.getName().getValue());
    return WalkResult::advance();
  });
}

class Analyzer {
public:
  explicit Analyzer(dlc::ProgramCosts &out) : out(out) {}

  void analyzeBlock(Block &block, double trips, StringRef unknownTrips);
  void liveness(Block &block);

private:
  dlc::ProgramCosts &out;
  /// Kernel results read outside their kernel: the tensors in memory.
  llvm::DenseSet<Value> materialized;

  void analyzeLoop(Operation &op, double trips, StringRef unknownTrips);
  dlc::KernelCost costOf(ArrayRef<Operation *> ops, Operation *rootOp,
                         double trips, StringRef unknownTrips);
};

void Analyzer::analyzeLoop(Operation &op, double trips,
                           StringRef unknownTrips) {
  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
    std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound());
    std::optional<int64_t> step = getConstantIntValue(loop.getStep());
    if (lb && ub && step && *step > 0 && unknownTrips.empty()) {
      int64_t n = std::max<int64_t>(0, (*ub - *lb + *step - 1) / *step);
      analyzeBlock(*loop.getBody(), trips * double(n), "");
      return;
    }
    analyzeBlock(*loop.getBody(), trips,
                 unknownTrips.empty()
                     ? StringRef("it runs in a loop whose trip count is "
                                 "known at run time only")
                     : unknownTrips);
    return;
  }
  for (Region &region : op.getRegions())
    for (Block &nested : region)
      analyzeBlock(nested, trips,
                   isa<scf::IfOp>(op)
                       ? StringRef("it runs under a condition known at run "
                                   "time only")
                       : StringRef("it runs in a loop whose trip count is "
                                   "known at run time only"));
}

void Analyzer::analyzeBlock(Block &block, double trips,
                            StringRef unknownTrips) {
  // The kernel ops of this block, in order.
  std::vector<Operation *> ops;
  llvm::DenseMap<Operation *, unsigned> index;
  for (Operation &op : block) {
    if (isa<scf::ForOp, scf::WhileOp, scf::IfOp>(op) || isFree(&op) ||
        !producesTensor(&op))
      continue;
    index[&op] = ops.size();
    ops.push_back(&op);
  }
  std::vector<unsigned> parent(ops.size()), size(ops.size(), 1);
  std::vector<Operation *> root(ops.size(), nullptr);
  auto find = [&](unsigned i) {
    while (parent[i] != i)
      i = parent[i] = parent[parent[i]];
    return i;
  };
  auto unite = [&](unsigned into, unsigned from) {
    into = find(into);
    from = find(from);
    if (into == from)
      return;
    parent[from] = into;
    size[into] += size[from];
    root[into] = root[into] ? root[into] : root[from];
  };
  for (unsigned i = 0; i < ops.size(); ++i) {
    parent[i] = i;
    if (isa<linalg::LinalgOp>(ops[i]) && !isElementwiseLike(ops[i]))
      root[i] = ops[i];
  }
  auto indexOf = [&](Value v) -> std::optional<unsigned> {
    Operation *def = v.getDefiningOp();
    if (!def)
      return std::nullopt;
    auto it = index.find(def);
    if (it == index.end())
      return std::nullopt;
    return it->second;
  };

  // Epilogues: an elementwise op reading the only use of a root's (or its
  // epilogue's) result runs on that root's tiles.
  for (unsigned i = 0; i < ops.size(); ++i) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(ops[i]);
    if (!linalgOp || !isElementwiseLike(ops[i]) || isa<linalg::FillOp>(ops[i]))
      continue;
    for (OpOperand *operand : linalgOp.getDpsInputOperands()) {
      std::optional<unsigned> p = indexOf(operand->get());
      if (!p || !operand->get().hasOneUse() ||
          !isa<linalg::LinalgOp>(ops[*p]) || !root[find(*p)])
        continue;
      unite(*p, i);
      break;
    }
  }
  // Producers: fills and elementwise ops that no root took, used by one
  // root only, are recomputed in its tiles.
  for (unsigned i = 0; i < ops.size(); ++i) {
    if (root[i] != ops[i])
      continue;
    for (Value operand : ops[i]->getOperands()) {
      std::optional<unsigned> p = indexOf(operand);
      if (!p || !isElementwiseLike(ops[*p]) || size[find(*p)] != 1 ||
          root[find(*p)])
        continue;
      if (!llvm::all_of(ops[*p]->getUsers(),
                        [&](Operation *user) { return user == ops[i]; }))
        continue;
      unite(i, *p);
    }
  }

  // One cost per group, at its last op (where it completes), and the
  // loops' kernels in between, in program order.
  llvm::DenseMap<unsigned, std::vector<Operation *>> groups;
  llvm::DenseMap<unsigned, unsigned> last;
  for (unsigned i = 0; i < ops.size(); ++i) {
    groups[find(i)].push_back(ops[i]);
    last[find(i)] = i;
  }
  for (Operation &op : block) {
    if (isa<scf::ForOp, scf::WhileOp, scf::IfOp>(op)) {
      analyzeLoop(op, trips, unknownTrips);
      continue;
    }
    auto it = index.find(&op);
    if (it == index.end())
      continue;
    unsigned g = find(it->second);
    if (last[g] == it->second)
      out.kernels.push_back(costOf(groups[g], root[g], trips, unknownTrips));
  }
}

dlc::KernelCost Analyzer::costOf(ArrayRef<Operation *> ops, Operation *rootOp,
                                 double trips, StringRef unknownTrips) {
  dlc::KernelCost cost;
  cost.root = rootOp ? rootOp : ops.front();
  cost.numOps = ops.size();
  cost.ops.assign(ops.begin(), ops.end());
  cost.trips = trips;
  llvm::DenseSet<Operation *> inGroup(ops.begin(), ops.end());
  llvm::SetVector<StringRef> names;
  llvm::DenseSet<Value> counted;
  bool anyFlops = false;
  double rootParallel = 1, maxParallel = 1;

  auto inside = [&](Operation *op) {
    // The op of this block that `op` is nested in.
    Block *block = ops.front()->getBlock();
    while (op && op->getBlock() != block)
      op = op->getParentOp();
    return op && inGroup.contains(op);
  };
  auto addRead = [&](Value v, double limit) {
    if (!isa<TensorType>(v.getType()) || !counted.insert(v).second ||
        isSplatConstant(v))
      return;
    std::optional<double> bytes = tensorBytes(v.getType());
    if (!bytes) {
      cost.unknownBytes = "a tensor's sizes are known at run time only";
      return;
    }
    double b = std::min(*bytes, limit);
    if (isConstantTensor(v)) {
      cost.weightBytes += b;
      return;
    }
    cost.bytesRead += b;
  };

  for (Operation *op : ops) {
    addNodeNames(op->getLoc(), names);
    double resultBytes = 0;
    for (Value result : op->getResults()) {
      std::optional<double> bytes = tensorBytes(result.getType());
      if (!bytes) {
        cost.unknownBytes = "a tensor's sizes are known at run time only";
        continue;
      }
      resultBytes += *bytes;
    }

    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
      double iterations = 1, parallel = 1;
      bool known = true;
      SmallVector<int64_t> ranges = linalgOp.getStaticLoopRanges();
      SmallVector<utils::IteratorType> iterators =
          linalgOp.getIteratorTypesArray();
      for (auto [range, iterator] : llvm::zip(ranges, iterators)) {
        if (ShapedType::isDynamic(range)) {
          known = false;
          continue;
        }
        iterations *= double(range);
        if (iterator == utils::IteratorType::parallel)
          parallel *= double(range);
      }
      if (op == rootOp) {
        rootParallel = parallel;
        if (known)
          cost.reductionExtent = iterations / parallel;
      }
      maxParallel = std::max(maxParallel, parallel);
      BodyCount body = countBody(*linalgOp.getBlock());
      if (!known && body.flops > 0)
        cost.unknownFlops = "'" + op->getName().getStringRef().str() +
                            "' has sizes known at run time only";
      cost.flops += iterations * body.flops;
      if (body.flops > 0)
        cost.nodeFlops.push_back({firstNodeName(op->getLoc()).str(),
                                  iterations * body.flops * trips});
      anyFlops |= body.flops > 0;
      cost.macs += iterations * body.macs;
      for (OpOperand *input : linalgOp.getDpsInputOperands())
        if (!inside(input->get().getDefiningOp()))
          addRead(input->get(), INFINITY);
      for (OpOperand &init : linalgOp.getDpsInitsMutable())
        if (!inside(init.get().getDefiningOp()) &&
            linalgOp.payloadUsesValueFromOperand(&init))
          addRead(init.get(), INFINITY);
      // Tensors the body reads by index (gathers) are read at most once
      // per element written.
      linalgOp->walk([&](tensor::ExtractOp extract) {
        if (!inside(extract.getTensor().getDefiningOp()))
          addRead(extract.getTensor(), resultBytes);
      });
    } else if (auto insert = dyn_cast<tensor::InsertSliceOp>(op)) {
      // Writes the source's elements into the destination, in place.
      if (!inside(insert.getSource().getDefiningOp()))
        addRead(insert.getSource(), INFINITY);
      std::optional<double> bytes = tensorBytes(insert.getSourceType());
      resultBytes = bytes ? *bytes : 0;
      if (insert.getSourceType().hasStaticShape())
        maxParallel = std::max(maxParallel,
                               double(insert.getSourceType().getNumElements()));
    } else if (isa<tensor::PadOp, tensor::ConcatOp>(op)) {
      for (Value operand : op->getOperands())
        if (!inside(operand.getDefiningOp()))
          addRead(operand, INFINITY);
      if (auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType()))
        if (type.hasStaticShape())
          maxParallel = std::max(maxParallel, double(type.getNumElements()));
    } else {
      cost.unknownFlops =
          "'" + op->getName().getStringRef().str() + "' has no FLOP formula";
      for (Value operand : op->getOperands())
        if (!inside(operand.getDefiningOp()))
          addRead(operand, INFINITY);
    }

    // Results read outside the kernel go to memory.
    for (Value result : op->getResults()) {
      bool escapes = llvm::any_of(
          result.getUsers(), [&](Operation *user) { return !inside(user); });
      if (!escapes)
        continue;
      materialized.insert(result);
      if (auto insert = dyn_cast<tensor::InsertSliceOp>(op))
        cost.bytesWritten += resultBytes;
      else if (std::optional<double> bytes = tensorBytes(result.getType()))
        cost.bytesWritten += *bytes;
    }
  }
  if (!unknownTrips.empty() && (anyFlops || cost.bytes() > 0)) {
    cost.unknownFlops = unknownTrips.str();
    cost.unknownBytes = unknownTrips.str();
  }
  cost.parallelism = rootOp ? rootParallel : maxParallel;
  cost.rootNode = firstNodeName(cost.root->getLoc()).str();
  cost.flops *= trips;
  cost.macs *= trips;
  cost.bytesRead *= trips;
  cost.weightBytes *= trips;
  cost.bytesWritten *= trips;
  for (StringRef name : names)
    cost.nodes.push_back(name.str());

  // The kind, from the root.
  if (auto linalgOp = dyn_cast_or_null<linalg::LinalgOp>(rootOp)) {
    if (linalg::isaConvolutionOpInterface(linalgOp) && cost.macs > 0)
      cost.kind = dlc::KernelKind::Convolution;
    else if (cost.macs > 0)
      cost.kind = dlc::KernelKind::Contraction;
    else
      cost.kind = dlc::KernelKind::Reduction;
  } else if (!cost.unknownFlops.empty() && !anyFlops) {
    cost.kind = dlc::KernelKind::Other;
  } else {
    cost.kind = cost.flops > 0 ? dlc::KernelKind::Elementwise
                               : dlc::KernelKind::DataMovement;
  }
  return cost;
}

/// The most bytes of intermediate tensors alive at once among `block`'s
/// ops: each kernel result in memory (one read outside its kernel) lives
/// from its op to its last use (views extend their source's life); loop
/// results as well.
void Analyzer::liveness(Block &block) {
  llvm::DenseMap<Operation *, unsigned> position;
  unsigned n = 0;
  for (Operation &op : block)
    position[&op] = n++;
  auto top = [&](Operation *op) {
    while (op && op->getBlock() != &block)
      op = op->getParentOp();
    return op;
  };
  std::vector<double> delta(n + 1, 0);
  for (Operation &op : block) {
    if (isFree(&op) || !producesTensor(&op))
      continue;
    for (Value result : op.getResults()) {
      if (!materialized.contains(result) &&
          !isa<scf::ForOp, scf::WhileOp, scf::IfOp>(op))
        continue;
      std::optional<double> bytes = tensorBytes(result.getType());
      if (!bytes)
        continue;
      // The last use, through views.
      unsigned last = position[&op];
      bool returned = false;
      SmallVector<Value> work{result};
      while (!work.empty()) {
        Value v = work.pop_back_val();
        for (Operation *user : v.getUsers()) {
          Operation *t = top(user);
          if (!t)
            continue;
          if (isa<func::ReturnOp>(t))
            returned = true;
          last = std::max(last, position[t]);
          if (t == user && isFree(user) && user->getNumOperands() > 0 &&
              user->getOperand(0) == v)
            for (Value r : user->getResults())
              work.push_back(r);
        }
      }
      if (returned)
        continue; // lives in the caller's output buffer
      delta[position[&op]] += *bytes;
      delta[last + 1] -= *bytes;
    }
  }
  double live = 0;
  for (unsigned i = 0; i < n; ++i) {
    live += delta[i];
    out.peakLiveBytes = std::max(out.peakLiveBytes, live);
  }
}

} // namespace

void dlc::collectNodeNames(Location loc, llvm::SetVector<StringRef> &names) {
  addNodeNames(loc, names);
}

dlc::ProgramCosts dlc::analyzeKernelCosts(func::FuncOp func) {
  ProgramCosts costs;
  if (func.isExternal())
    return costs;
  Analyzer analyzer(costs);
  analyzer.analyzeBlock(func.getBody().front(), 1, "");
  analyzer.liveness(func.getBody().front());
  func.walk([&](arith::ConstantOp constant) {
    if (isSplatConstant(constant))
      return;
    if (std::optional<double> bytes = tensorBytes(constant.getType()))
      costs.weightBytes += *bytes;
  });
  return costs;
}
