//===- KernelUtils.cpp - helpers for building gpu.launch kernels ----------===//
#include "codegen/gpu/KernelUtils.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;

/// Views, reshapes and index arithmetic are recomputed inside kernels, so
/// that kernels receive only whole buffers (identity layouts, passed as bare
/// pointers) and scalars.
static bool isSinkable(Operation *op) {
  return isa<ViewLikeOpInterface, memref::ExpandShapeOp,
             memref::CollapseShapeOp, memref::CastOp,
             memref::ReinterpretCastOp>(op) ||
         (isPure(op) && op->getNumRegions() == 0 &&
          llvm::all_of(op->getResultTypes(), [](Type t) {
            return t.isIntOrIndexOrFloat() || isa<VectorType>(t);
          }));
}

/// Clones into `launch` the sinkable ops computing the values it captures
/// (transitively), so that only their roots (function arguments, loop
/// induction variables) are passed in.
LogicalResult dlc::sinkIntoLaunch(gpu::LaunchOp launch) {
  SetVector<Value> captured;
  getUsedValuesDefinedAbove(launch.getBody(), captured);
  SetVector<Operation *> toClone; // operands before users
  std::function<void(Value)> visit = [&](Value v) {
    Operation *def = v.getDefiningOp();
    if (!def || !isSinkable(def) || toClone.contains(def))
      return;
    for (Value operand : def->getOperands())
      visit(operand);
    toClone.insert(def);
  };
  for (Value v : captured)
    visit(v);
  OpBuilder b = OpBuilder::atBlockBegin(&launch.getBody().front());
  IRMapping map;
  for (Operation *op : toClone) {
    Operation *clone = b.clone(*op, map);
    for (auto [from, to] : llvm::zip(op->getResults(), clone->getResults()))
      from.replaceUsesWithIf(to, [&](OpOperand &use) {
        return launch->isProperAncestor(use.getOwner());
      });
  }
  // A view that cannot be recomputed inside (one a host loop or branch
  // chose) comes in as its base buffer, offset, sizes and strides, and is
  // rebuilt from them in the kernel.
  captured.clear();
  getUsedValuesDefinedAbove(launch.getBody(), captured);
  for (Value v : captured) {
    auto type = dyn_cast<MemRefType>(v.getType());
    if (!type || (type.hasStaticShape() && type.getLayout().isIdentity()))
      continue;
    if (!type.isStrided())
      continue;
    OpBuilder host(launch);
    auto meta =
        memref::ExtractStridedMetadataOp::create(host, launch.getLoc(), v);
    OpBuilder inside = OpBuilder::atBlockBegin(&launch.getBody().front());
    // Static parts of the layout as attributes (the cast's type has them).
    auto [staticStrides, staticOffset] = type.getStridesAndOffset();
    auto mixed = [&](int64_t fixed, Value dynamic) -> OpFoldResult {
      return ShapedType::isDynamic(fixed) ? OpFoldResult(dynamic)
                                          : inside.getIndexAttr(fixed);
    };
    SmallVector<OpFoldResult> sizes, strides;
    for (int64_t d = 0; d < type.getRank(); ++d) {
      sizes.push_back(mixed(type.getDimSize(d), meta.getSizes()[d]));
      strides.push_back(mixed(staticStrides[d], meta.getStrides()[d]));
    }
    Value view = memref::ReinterpretCastOp::create(
        inside, launch.getLoc(), type, meta.getBaseBuffer(),
        mixed(staticOffset, meta.getOffset()), sizes, strides);
    v.replaceUsesWithIf(view, [&](OpOperand &use) {
      return launch->isProperAncestor(use.getOwner());
    });
  }
  // What still comes from outside must be a whole buffer or a scalar.
  captured.clear();
  getUsedValuesDefinedAbove(launch.getBody(), captured);
  for (Value v : captured) {
    auto type = dyn_cast<MemRefType>(v.getType());
    if (type && (!type.hasStaticShape() || !type.getLayout().isIdentity())) {
      InFlightDiagnostic diag = launch.emitError("kernel operand of type ")
                                << type
                                << " cannot be passed as a bare pointer";
      if (Operation *def = v.getDefiningOp())
        diag << " (a result of '" << def->getName() << "')";
      else
        diag << " (an argument of '"
             << v.getParentBlock()->getParentOp()->getName() << "')";
      return diag;
    }
  }
  return success();
}

bool dlc::inAddressSpace(Type type, gpu::AddressSpace space) {
  auto memref = dyn_cast<MemRefType>(type);
  auto attr = memref ? dyn_cast_or_null<gpu::AddressSpaceAttr>(
                           memref.getMemorySpace())
                     : nullptr;
  return attr && attr.getValue() == space;
}

func::FuncOp dlc::runtimeCopyFunction(ModuleOp module, StringRef name) {
  if (auto existing = module.lookupSymbol<func::FuncOp>(name))
    return existing;
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  MLIRContext *ctx = module.getContext();
  Type index = b.getIndexType();
  auto decl = func::FuncOp::create(
      b, module.getLoc(), name,
      FunctionType::get(
          ctx, {LLVM::LLVMPointerType::get(ctx), index, index, index}, {}));
  decl.setPrivate();
  return decl;
}
