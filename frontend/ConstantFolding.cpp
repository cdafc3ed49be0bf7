//===- ConstantFolding.cpp - evaluate constant subgraphs at import --------===//
#include "frontend/ConstantFolding.h"
#include "ir/DlcDialect.h"
#include "ir/DlcOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"

#include <cstring>

using namespace mlir;

/// Evaluated values up to this many elements become inline attributes (so
/// that importers read them as shapes, axes and sizes), larger ones
/// resource blobs.
static constexpr int64_t kMaxInlineElements = 1024;
/// A computed value is evaluated when it is at most this large, or no
/// larger than the constants it is computed from.
static constexpr uint64_t kAlwaysEvaluateBytes = 64 * 1024;

static uint64_t bytesOf(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape() ||
      !tensor.getElementType().isIntOrFloat())
    return 0;
  uint64_t width = (tensor.getElementTypeBitWidth() + 7) / 8;
  return width * tensor.getNumElements();
}

/// An op that compile-time evaluation may run: a pure dlc op without
/// regions that computes something (constants are values already; batch
/// hints are kept for the dynamic-batch checks).
static bool isEvaluable(Operation *op) {
  return isa_and_nonnull<dlc::DlcDialect>(op->getDialect()) &&
         !isa<dlc::ConstantOp, dlc::BatchAxisOp>(op) && isPure(op) &&
         op->getNumRegions() == 0 && op->getNumOperands() > 0 &&
         llvm::all_of(op->getResultTypes(), [](Type t) {
           auto tensor = dyn_cast<RankedTensorType>(t);
           return tensor && tensor.hasStaticShape();
         });
}

bool dlc::isComputedFromConstants(Value v) {
  Operation *def = v.getDefiningOp();
  if (!def || isa<dlc::ConstantOp>(def))
    return false;
  SmallVector<Operation *> work{def};
  llvm::SmallPtrSet<Operation *, 16> seen;
  while (!work.empty()) {
    Operation *op = work.pop_back_val();
    if (isa<dlc::ConstantOp>(op) || !seen.insert(op).second)
      continue;
    if (!isEvaluable(op))
      return false;
    for (Value operand : op->getOperands()) {
      Operation *from = operand.getDefiningOp();
      if (!from)
        return false;
      work.push_back(from);
    }
  }
  return true;
}

std::optional<SmallVector<BlockArgument>> dlc::argumentsOfComputation(Value v) {
  Operation *def = v.getDefiningOp();
  if (!def || isa<dlc::ConstantOp>(def))
    return std::nullopt;
  SmallVector<Operation *> work{def};
  llvm::SmallPtrSet<Operation *, 16> seen;
  llvm::SetVector<BlockArgument> args;
  while (!work.empty()) {
    Operation *op = work.pop_back_val();
    if (isa<dlc::ConstantOp>(op) || !seen.insert(op).second)
      continue;
    if (!isEvaluable(op))
      return std::nullopt;
    for (Value operand : op->getOperands()) {
      if (auto arg = dyn_cast<BlockArgument>(operand))
        args.insert(arg);
      else
        work.push_back(operand.getDefiningOp());
    }
  }
  if (args.empty())
    return std::nullopt;
  return SmallVector<BlockArgument>(args.begin(), args.end());
}

/// The constant holding `bytes` (row-major, booleans one byte each) of
/// `type`: a splat when all elements are equal.
static ElementsAttr attrFromBytes(RankedTensorType type, StringRef bytes) {
  Type et = type.getElementType();
  int64_t n = type.getNumElements();
  if (et.isInteger(1)) {
    SmallVector<bool> bits;
    for (char c : bytes)
      bits.push_back(c != 0);
    return DenseElementsAttr::get(type, bits);
  }
  size_t width = et.getIntOrFloatBitWidth() / 8;
  ArrayRef<char> data(bytes.data(), bytes.size());
  bool splat = true;
  for (int64_t i = 1; i < n && splat; ++i)
    splat = std::memcmp(data.data(), data.data() + i * width, width) == 0;
  if (splat)
    return DenseElementsAttr::getFromRawBuffer(type, data.take_front(width));
  if (n <= kMaxInlineElements)
    return DenseElementsAttr::getFromRawBuffer(type, data);
  return DenseResourceElementsAttr::get(
      type, "dlc_evaluated",
      HeapAsmResourceBlob::allocateAndCopyWithAlign(data, /*align=*/64));
}

FailureOr<SmallVector<Value>>
dlc::evaluateToConstants(ArrayRef<Value> values,
                         const ConstantEvaluator &evaluate, Location loc,
                         llvm::SmallPtrSetImpl<Operation *> &read) {
  MLIRContext *ctx = loc.getContext();
  // The ops that compute the values, in program order (one block).
  llvm::SetVector<Operation *> slice;
  SmallVector<Operation *> work;
  for (Value v : values)
    work.push_back(v.getDefiningOp());
  while (!work.empty()) {
    Operation *op = work.pop_back_val();
    if (!slice.insert(op))
      continue;
    for (Value operand : op->getOperands())
      work.push_back(operand.getDefiningOp());
  }
  for (Operation *op : slice)
    if (isa<dlc::ConstantOp>(op))
      read.insert(op);
  // Operands before their users (the slice may span a block and the
  // regions nested in it: control flow's branches and bodies).
  SmallVector<Operation *> ordered;
  {
    llvm::SmallPtrSet<Operation *, 32> done;
    SmallVector<std::pair<Operation *, bool>> stack;
    for (Value v : values)
      stack.push_back({v.getDefiningOp(), false});
    while (!stack.empty()) {
      auto [op, expanded] = stack.pop_back_val();
      if (!op || done.contains(op))
        continue;
      if (expanded) {
        done.insert(op);
        ordered.push_back(op);
        continue;
      }
      stack.push_back({op, true});
      for (Value operand : llvm::reverse(op->getOperands()))
        if (Operation *def = operand.getDefiningOp(); def && !done.contains(def))
          stack.push_back({def, false});
    }
  }

  // Zero-element values need no evaluation.
  SmallVector<Value> evaluated;
  for (Value v : values)
    if (cast<RankedTensorType>(v.getType()).getNumElements() > 0 &&
        !llvm::is_contained(evaluated, v))
      evaluated.push_back(v);

  llvm::DenseMap<Value, ElementsAttr> attrs;
  if (!evaluated.empty()) {
    OpBuilder b(ctx);
    OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
    b.setInsertionPointToEnd(module->getBody());
    SmallVector<Type> types;
    for (Value v : evaluated)
      types.push_back(v.getType());
    auto func =
        func::FuncOp::create(b, loc, "main", b.getFunctionType({}, types));
    b.setInsertionPointToStart(func.addEntryBlock());
    IRMapping mapping;
    for (Operation *op : ordered)
      b.clone(*op, mapping);
    SmallVector<Value> results;
    for (Value v : evaluated)
      results.push_back(mapping.lookup(v));
    func::ReturnOp::create(b, loc, results);

    FailureOr<std::vector<std::string>> bytes = evaluate(*module);
    if (failed(bytes))
      return failure();
    if (bytes->size() != evaluated.size())
      return emitError(loc) << "constant evaluation returned " << bytes->size()
                            << " values for " << evaluated.size();
    for (auto [v, data] : llvm::zip(evaluated, *bytes)) {
      auto type = cast<RankedTensorType>(v.getType());
      uint64_t expected = type.getElementType().isInteger(1)
                              ? type.getNumElements()
                              : bytesOf(type);
      if (data.size() != expected)
        return emitError(loc) << "constant evaluation returned " << data.size()
                              << " bytes for " << type;
      attrs[v] = attrFromBytes(type, data);
    }
  }

  SmallVector<Value> constants;
  for (Value v : values) {
    auto type = cast<RankedTensorType>(v.getType());
    ElementsAttr attr = attrs.lookup(v);
    if (!attr)
      attr = DenseElementsAttr::get(type, ArrayRef<Attribute>{});
    Operation *def = v.getDefiningOp();
    OpBuilder b(def);
    Value c = dlc::ConstantOp::create(b, def->getLoc(), attr);
    v.replaceAllUsesWith(c);
    constants.push_back(c);
  }
  return constants;
}

SmallVector<Value> dlc::constantFrontier(Block &block) {
  // Ops computed from constants, with the bytes of the non-splat constants
  // they read (an upper bound: shared inputs count once per path).
  llvm::DenseMap<Operation *, uint64_t> sourceBytes;
  auto sourceOf = [&](Value v) -> std::optional<uint64_t> {
    Operation *def = v.getDefiningOp();
    if (!def)
      return std::nullopt;
    if (auto cst = dyn_cast<dlc::ConstantOp>(def)) {
      auto dense = dyn_cast<DenseElementsAttr>(cst.getValue());
      return dense && dense.isSplat() ? 0 : bytesOf(v.getType());
    }
    auto it = sourceBytes.find(def);
    if (it == sourceBytes.end())
      return std::nullopt;
    return it->second;
  };
  for (Operation &op : block) {
    if (!isEvaluable(&op))
      continue;
    uint64_t total = 0;
    bool all = true;
    for (Value operand : op.getOperands()) {
      std::optional<uint64_t> source = sourceOf(operand);
      all &= source.has_value();
      if (source)
        total += *source;
    }
    if (all)
      sourceBytes[&op] = total;
  }

  llvm::SetVector<Value> frontier;
  SmallVector<Value> work;
  for (auto &[op, bytes] : sourceBytes)
    for (Value result : op->getResults())
      if (llvm::any_of(result.getUsers(), [&](Operation *user) {
            return !sourceBytes.count(user);
          }))
        work.push_back(result);
  while (!work.empty()) {
    Value v = work.pop_back_val();
    Operation *def = v.getDefiningOp();
    uint64_t bytes = bytesOf(v.getType());
    if (bytes <= kAlwaysEvaluateBytes || bytes <= sourceBytes[def]) {
      frontier.insert(v);
      continue;
    }
    // Too large to keep as a constant: evaluate what it reads instead.
    for (Value operand : def->getOperands())
      if (Operation *from = operand.getDefiningOp();
          from && sourceBytes.count(from))
        work.push_back(operand);
  }
  SmallVector<Value> ordered(frontier.begin(), frontier.end());
  llvm::sort(ordered, [](Value a, Value b) {
    Operation *x = a.getDefiningOp(), *y = b.getDefiningOp();
    if (x == y)
      return cast<OpResult>(a).getResultNumber() <
             cast<OpResult>(b).getResultNumber();
    return x->isBeforeInBlock(y);
  });
  return ordered;
}

void dlc::eraseDeadComputations(
    Block &block, llvm::function_ref<void(Operation *)> beforeErase) {
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(block))) {
    if (!isEvaluable(&op) || !op.use_empty())
      continue;
    bool fromConstants = llvm::all_of(op.getOperands(), [](Value v) {
      return v.getDefiningOp<dlc::ConstantOp>() ||
             dlc::isComputedFromConstants(v);
    });
    if (!fromConstants)
      continue;
    beforeErase(&op);
    op.erase();
  }
}
