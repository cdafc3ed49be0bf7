//===- OutlineHostParts.cpp - a CUDA model's CPU kernels as host code -----===//
//
// Carries out dlc-gpu-select-placement's decisions on the bufferized
// entry: the ops placed on the CPU become calls of host functions working
// on host buffers, with the transfers between device and host memory that
// keep both sides' copies current.
//
//===----------------------------------------------------------------------===//
#include "codegen/common/KernelCosts.h"
#include "codegen/gpu/Passes.h"
#include "ir/DlcAttrs.h"
#include "ir/DlcOps.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace dlc {
#define GEN_PASS_DEF_GPUOUTLINEHOSTPARTS
#include "codegen/gpu/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;

namespace {

/// Whether `op` makes a view of another buffer.
bool isView(Operation *op) {
  return isa<ViewLikeOpInterface, memref::CastOp, memref::ExpandShapeOp,
             memref::CollapseShapeOp, memref::ReinterpretCastOp>(op);
}

/// The op that defines `v` as a view of another buffer, or null.
Operation *viewOf(Value v) {
  Operation *def = v.getDefiningOp();
  return def && isView(def) ? def : nullptr;
}

/// The buffer `v` is a view of: an allocation, a global's buffer or an
/// argument.
Value rootOf(Value v) {
  while (Operation *view = viewOf(v))
    v = view->getOperand(0);
  return v;
}

/// Every memref value `op` (and the ops nested in it) reads or writes
/// through, as their roots.
void touchedRoots(Operation *op, llvm::SetVector<Value> &roots) {
  op->walk([&](Operation *nested) {
    for (Value operand : nested->getOperands())
      if (isa<MemRefType>(operand.getType()))
        roots.insert(rootOf(operand));
  });
}

/// Whether `op` writes all of `root` through `operand` (its whole init,
/// not read) so that the host copy need not be current before it.
bool overwritesWhole(linalg::LinalgOp op, OpOperand &operand, Value root) {
  auto type = dyn_cast<MemRefType>(operand.get().getType());
  auto rootType = dyn_cast<MemRefType>(root.getType());
  return type && rootType && type.hasStaticShape() &&
         rootType.hasStaticShape() &&
         type.getNumElements() == rootType.getNumElements() &&
         op.isDpsInit(&operand) && !op.payloadUsesValueFromOperand(&operand);
}

struct Part {
  SmallVector<Operation *> ops;
  llvm::SetVector<Value> read, written; // roots
};

struct OutlineHostPartsPass
    : dlc::impl::GpuOutlineHostPartsBase<OutlineHostPartsPass> {

  /// The parts of `block`: runs of CPU-placed ops with only allocations and
  /// pure ops (views, constants) between them.
  static SmallVector<Part> findParts(Block &block) {
    SmallVector<Part> parts;
    bool open = false;
    // Roots an earlier op of the open part wrote whole: later ops read
    // what it wrote, not the device's data.
    llvm::DenseSet<Value> writtenWhole;
    for (Operation &op : block) {
      if (isPlacedOnCpu(&op)) {
        if (!open) {
          parts.emplace_back();
          writtenWhole.clear();
        }
        open = true;
        Part &part = parts.back();
        part.ops.push_back(&op);
        if (auto linalgOp = dyn_cast<linalg::LinalgOp>(&op)) {
          for (OpOperand &operand : op.getOpOperands()) {
            if (!isa<MemRefType>(operand.get().getType()))
              continue;
            Value root = rootOf(operand.get());
            bool whole = overwritesWhole(linalgOp, operand, root);
            if (!whole && !writtenWhole.contains(root))
              part.read.insert(root);
            if (linalgOp.isDpsInit(&operand))
              part.written.insert(root);
            if (whole)
              writtenWhole.insert(root);
          }
          // Buffers its body reads from outside (a gather's table).
          llvm::SetVector<Value> captured;
          for (Region &region : op.getRegions())
            getUsedValuesDefinedAbove(region, captured);
          for (Value v : captured)
            if (isa<MemRefType>(v.getType()) &&
                !writtenWhole.contains(rootOf(v)))
              part.read.insert(rootOf(v));
        } else {
          llvm::SetVector<Value> roots;
          touchedRoots(&op, roots);
          part.read.insert(roots.begin(), roots.end());
          part.written.insert(roots.begin(), roots.end());
        }
        continue;
      }
      // Views, constants and allocations (planned, not run) keep a part
      // open; anything else that runs ends it.
      if ((!isPure(&op) && !isa<memref::AllocOp, memref::AllocaOp>(op)) ||
          op.getNumRegions() != 0)
        open = false;
    }
    return parts;
  }

  LogicalResult runOnFunction(func::FuncOp func, unsigned &counter) {
    Block &block = func.getBody().front();
    SmallVector<Part> parts = findParts(block);
    if (parts.empty())
      return success();
    llvm::DenseSet<Operation *> inParts;
    for (Part &part : parts)
      inParts.insert(part.ops.begin(), part.ops.end());

    // Roots touched outside the parts (by kernels, loops, the caller):
    // those have a device copy the host parts must stay in step with.
    llvm::DenseSet<Value> onDevice;
    for (Operation &op : block)
      if (!inParts.contains(&op) && !isView(&op) &&
          !isa<memref::DeallocOp, func::ReturnOp>(op)) {
        llvm::SetVector<Value> roots;
        touchedRoots(&op, roots);
        onDevice.insert(roots.begin(), roots.end());
      }
    for (BlockArgument arg : func.getArguments())
      onDevice.insert(arg);

    OpBuilder b(func.getContext());
    // Host buffers: an allocation only the parts touch is one itself;
    // others get a host copy (allocated at the entry), and constants are
    // read where they are (the library's copy, dlc-gpu-host-abi).
    llvm::MapVector<Value, Value> hostCopy;
    auto hostBufferOf = [&](Value root) -> FailureOr<Value> {
      if (Value known = hostCopy.lookup(root))
        return known;
      if (root.getDefiningOp<memref::GetGlobalOp>())
        return hostCopy[root] = root;
      auto type = dyn_cast<MemRefType>(root.getType());
      if (auto alloc = root.getDefiningOp<memref::AllocOp>();
          alloc && !onDevice.contains(root)) {
        alloc->setAttr(kHostBufferAttrName, b.getUnitAttr());
        return hostCopy[root] = root;
      }
      if (!type || !type.hasStaticShape() || !type.getLayout().isIdentity())
        return emitError(root.getLoc(), "a buffer of type ")
               << root.getType()
               << " is used by a part placed on the CPU; host parts take "
                  "statically shaped buffers only";
      b.setInsertionPointToStart(&block);
      auto alloc = memref::AllocOp::create(b, root.getLoc(), type);
      alloc->setAttr(kHostBufferAttrName, b.getUnitAttr());
      return hostCopy[root] = alloc.getResult();
    };

    int64_t toHost = 0, toDevice = 0;
    auto bytes = [](Value v) {
      auto t = cast<MemRefType>(v.getType());
      return t.getNumElements() *
             std::max<int64_t>(1, t.getElementTypeBitWidth() / 8);
    };
    // Whether a root's host copy holds its current data.
    llvm::DenseSet<Value> hostCurrent;
    unsigned next = 0;
    SmallVector<Attribute> report;
    SmallVector<Operation *> snapshot;
    for (Operation &op : block)
      snapshot.push_back(&op);
    for (Operation *opPtr : snapshot) {
      Operation &op = *opPtr;
      if (next >= parts.size())
        break;
      if (inParts.contains(&op) && &op != parts[next].ops.front())
        continue;
      Part &part = parts[next];
      if (&op != part.ops.front()) {
        if (isView(&op))
          continue;
        // Device code (or the caller's buffers) may change what it touches.
        llvm::SetVector<Value> roots;
        touchedRoots(&op, roots);
        for (Value root : roots)
          hostCurrent.erase(root);
        continue;
      }
      ++next;
      // Host buffers and the transfers in.
      b.setInsertionPoint(part.ops.front());
      Location loc = part.ops.front()->getLoc();
      llvm::SetVector<Value> roots;
      roots.insert(part.read.begin(), part.read.end());
      roots.insert(part.written.begin(), part.written.end());
      for (Value root : roots) {
        FailureOr<Value> host = hostBufferOf(root);
        if (failed(host))
          return failure();
        if (*host == root || hostCurrent.contains(root) ||
            !part.read.contains(root))
          continue;
        // Right before the call (where the part's last op is): everything
        // the part uses is defined by then.
        b.setInsertionPoint(part.ops.back());
        TransferOp::create(b, loc, Device::Cpu, root, *host);
        toHost += bytes(root);
        hostCurrent.insert(root);
      }
      // The host function: the parts' ops on the host buffers (views
      // rebuilt over them), their loops sequential.
      llvm::SetVector<Value> captured;
      for (Operation *op : part.ops) {
        for (Value operand : op->getOperands())
          captured.insert(operand);
        for (Region &region : op->getRegions())
          getUsedValuesDefinedAbove(region, captured);
      }
      SmallVector<Value> callArgs;
      SmallVector<Type> argTypes;
      IRMapping map;
      // Each root once, then the scalars.
      llvm::SetVector<Value> argRoots, scalars;
      for (Value v : captured) {
        if (isa<MemRefType>(v.getType())) {
          Value root = rootOf(v);
          if (!root.getDefiningOp<memref::GetGlobalOp>())
            argRoots.insert(root);
        } else if (!matchPattern(v, m_Constant())) {
          scalars.insert(v);
        }
      }
      std::string name =
          (func.getSymName() + "_host_part" + Twine(counter++)).str();
      for (Value root : argRoots) {
        callArgs.push_back(hostCopy.lookup(root));
        assert(callArgs.back() &&
               "a buffer of a host part without a host copy");
        argTypes.push_back(root.getType());
      }
      for (Value v : scalars) {
        callArgs.push_back(v);
        argTypes.push_back(v.getType());
      }
      b.setInsertionPoint(func);
      auto hostFunc =
          func::FuncOp::create(b, loc, name, b.getFunctionType(argTypes, {}));
      hostFunc.setPrivate();
      hostFunc->setAttr(kHostPartAttrName, b.getUnitAttr());
      Block *body = hostFunc.addEntryBlock();
      OpBuilder inner = OpBuilder::atBlockBegin(body);
      for (auto [i, root] : llvm::enumerate(argRoots))
        map.map(root, body->getArgument(i));
      for (auto [i, v] : llvm::enumerate(scalars))
        map.map(v, body->getArgument(argRoots.size() + i));
      // Values defined outside: views (rebuilt), constants and globals
      // (cloned).
      std::function<Value(Value)> materialize = [&](Value v) -> Value {
        if (Value known = map.lookupOrNull(v))
          return known;
        Operation *def = v.getDefiningOp();
        assert(def && "an argument of the entry that is not a root");
        for (Value operand : def->getOperands())
          materialize(operand);
        Operation *copy = inner.clone(*def, map);
        return copy->getResult(cast<OpResult>(v).getResultNumber());
      };
      for (Value v : captured)
        materialize(v);
      SmallVector<Operation *> cloned;
      for (Operation *op : part.ops) {
        Operation *copy = inner.clone(*op, map);
        copy->removeAttr(kPlacementAttrName);
        cloned.push_back(copy);
      }
      func::ReturnOp::create(inner, loc);
      IRRewriter rewriter(func.getContext());
      for (Operation *copy : cloned)
        if (auto linalgOp = dyn_cast<linalg::LinalgOp>(copy)) {
          rewriter.setInsertionPoint(copy);
          if (failed(linalg::linalgOpToLoops(rewriter, linalgOp)))
            return copy->emitError("cannot lower a host part's op to loops");
          rewriter.eraseOp(copy);
        }
      // The call, the transfers out, and the report of the part.
      Operation *last = part.ops.back();
      b.setInsertionPointAfter(last);
      auto call = func::CallOp::create(b, loc, hostFunc, callArgs);
      b.setInsertionPointAfter(call);
      for (Value root : part.written) {
        Value host = hostCopy.lookup(root);
        hostCurrent.insert(root);
        if (host == root)
          continue;
        TransferOp::create(b, loc, Device::Gpu, host, root);
        toDevice += bytes(root);
      }
      llvm::SetVector<StringRef> nodes;
      llvm::SetVector<Attribute> placements;
      for (Operation *op : part.ops) {
        collectNodeNames(op->getLoc(), nodes);
        if (Attribute p = op->getAttr(kPlacementAttrName))
          placements.insert(p);
      }
      SmallVector<Attribute> nodeNames;
      for (StringRef node : nodes)
        nodeNames.push_back(b.getStringAttr(node));
      report.push_back(b.getDictionaryAttr(
          {b.getNamedAttr("function", b.getStringAttr(name)),
           b.getNamedAttr("nodes", b.getArrayAttr(nodeNames)),
           b.getNamedAttr("placements",
                          b.getArrayAttr(placements.getArrayRef()))}));
      for (Operation *op : llvm::reverse(part.ops))
        op->erase();
    }
    func->setAttr("dlc.host_parts", b.getArrayAttr(report));
    func->setAttr("dlc.bus_bytes_to_host", b.getI64IntegerAttr(toHost));
    func->setAttr("dlc.bus_bytes_to_device", b.getI64IntegerAttr(toDevice));
    return success();
  }

  void runOnOperation() override {
    SmallVector<func::FuncOp> funcs(getOperation().getOps<func::FuncOp>());
    unsigned counter = 0;
    for (func::FuncOp func : funcs)
      if (!func.isExternal() && !func->hasAttr(kHostPartAttrName) &&
          failed(runOnFunction(func, counter)))
        return signalPassFailure();
  }
};
} // namespace
