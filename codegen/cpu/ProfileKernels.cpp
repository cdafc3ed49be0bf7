//===- ProfileKernels.cpp - a clock stamp after every kernel --------------===//
#include "codegen/cpu/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"

namespace dlc {
#define GEN_PASS_DEF_PROFILEKERNELS
#include "codegen/cpu/Passes.h.inc"
} // namespace dlc

using namespace mlir;

static constexpr StringLiteral kClock = "dlcrt_profile_clock";

/// A kernel by itself: a loop nest or other op with regions, a linalg op,
/// a copy.
static bool isKernelOp(Operation *op) {
  return op->getNumRegions() > 0 || isa<linalg::LinalgOp, memref::CopyOp>(op);
}

/// Straight-line work: ops on vectors, loads and stores.
static bool isWork(Operation *op) {
  if (isa<memref::LoadOp, memref::StoreOp>(op) ||
      isa<vector::VectorDialect>(op->getDialect()))
    return true;
  return llvm::any_of(op->getResultTypes(),
                      [](Type t) { return isa<VectorType>(t); });
}

namespace {
struct ProfileKernelsPass : dlc::impl::ProfileKernelsBase<ProfileKernelsPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal() || func.isPrivate())
      return;
    Block &body = func.getBody().front();

    // Each kernel as its first and last op.
    SmallVector<std::pair<Operation *, Operation *>> kernels;
    bool inRun = false;
    for (Operation &op : body) {
      if (op.hasTrait<OpTrait::IsTerminator>())
        break;
      if (isKernelOp(&op)) {
        kernels.push_back({&op, &op});
        inRun = false;
      } else if (isWork(&op)) {
        if (inRun)
          kernels.back().second = &op;
        else
          kernels.push_back({&op, &op});
        inRun = true;
      }
    }
    if (kernels.empty())
      return;

    MLIRContext *ctx = &getContext();
    auto module = func->getParentOfType<ModuleOp>();
    auto i64 = IntegerType::get(ctx, 64);
    auto clockType = FunctionType::get(ctx, {}, {i64});
    auto clock = module.lookupSymbol<func::FuncOp>(kClock);
    if (!clock) {
      OpBuilder b(module.getBodyRegion());
      clock = func::FuncOp::create(b, module.getLoc(), kClock, clockType);
      clock.setPrivate();
    }

    Location loc = func.getLoc();
    OpBuilder b(ctx);
    b.setInsertionPointToStart(&body);
    auto alloc = memref::AllocOp::create(
        b, loc, MemRefType::get({int64_t(kernels.size()) + 1}, i64));
    alloc->setAttr("dlc.profile", UnitAttr::get(ctx));
    auto stamp = [&](int64_t i) {
      auto now = func::CallOp::create(b, loc, clock, ValueRange{});
      Value index = arith::ConstantIndexOp::create(b, loc, i);
      memref::StoreOp::create(b, loc, now.getResult(0), alloc.getResult(),
                              ValueRange{index});
    };
    b.setInsertionPoint(kernels.front().first);
    stamp(0);
    SmallVector<Attribute> names;
    for (auto [i, kernel] : llvm::enumerate(kernels)) {
      llvm::SetVector<StringRef> nodes;
      for (Operation *op = kernel.first;; op = op->getNextNode()) {
        op->walk([&](Operation *nested) {
          nested->getLoc()->walk([&](Location l) {
            if (auto name = dyn_cast<NameLoc>(l))
              nodes.insert(name.getName().getValue());
            return WalkResult::advance();
          });
        });
        if (op == kernel.second)
          break;
      }
      names.push_back(
          StringAttr::get(ctx, llvm::join(nodes.begin(), nodes.end(), " ")));
      b.setInsertionPointAfter(kernel.second);
      stamp(i + 1);
    }
    func->setAttr("dlc.profile_kernels", ArrayAttr::get(ctx, names));
  }
};
} // namespace
