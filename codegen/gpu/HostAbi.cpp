//===- HostAbi.cpp - constants arena and launch context arguments ---------===//
#include "codegen/gpu/Passes.h"
#include "ir/DlcAttrs.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/DialectResourceBlobManager.h"

namespace dlc {
#define GEN_PASS_DEF_HOSTABI
#include "codegen/gpu/Passes.h.inc"
} // namespace dlc

using namespace mlir;

static constexpr int64_t kConstantAlignment = 256;

/// Appends the bytes of `value` (a constant of `type`) to `blob` as the
/// device reads them: row-major, one byte per i1.
static LogicalResult appendBytes(Attribute value, MemRefType type,
                                 std::vector<char> &blob) {
  int64_t n = type.getNumElements();
  Type et = type.getElementType();
  if (auto resource = dyn_cast_or_null<DenseResourceElementsAttr>(value)) {
    AsmResourceBlob *data = resource.getRawHandle().getBlob();
    if (!data)
      return failure();
    ArrayRef<char> bytes = data->getData();
    blob.insert(blob.end(), bytes.begin(), bytes.end());
    return success();
  }
  auto dense = dyn_cast_or_null<DenseElementsAttr>(value);
  if (!dense)
    return failure();
  if (et.isInteger(1)) {
    for (bool b : dense.getValues<bool>())
      blob.push_back(b ? 1 : 0);
    return success();
  }
  ArrayRef<char> raw = dense.getRawData();
  if (dense.isSplat()) {
    for (int64_t i = 0; i < n; ++i)
      blob.insert(blob.end(), raw.begin(), raw.end());
    return success();
  }
  blob.insert(blob.end(), raw.begin(), raw.end());
  return success();
}

namespace {
struct HostAbiPass : dlc::impl::HostAbiBase<HostAbiPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    SymbolTable symbols(module);
    std::vector<char> blob;
    llvm::MapVector<memref::GlobalOp, int64_t> offsets;
    SmallVector<memref::GetGlobalOp> reads;
    module.walk([&](memref::GetGlobalOp read) { reads.push_back(read); });
    for (memref::GetGlobalOp read : reads) {
      auto global = symbols.lookup<memref::GlobalOp>(read.getName());
      if (!global || !global.getConstant() || !global.getInitialValue()) {
        read.emitError("the CUDA target supports only constant globals");
        return signalPassFailure();
      }
      if (offsets.count(global))
        continue;
      blob.resize((blob.size() + kConstantAlignment - 1) / kConstantAlignment *
                  kConstantAlignment);
      offsets[global] = blob.size();
      if (failed(appendBytes(*global.getInitialValue(), global.getType(),
                             blob))) {
        global.emitError("cannot serialize constant of type ")
            << global.getType();
        return signalPassFailure();
      }
    }
    blob.resize(std::max<size_t>(kConstantAlignment,
                                 (blob.size() + kConstantAlignment - 1) /
                                     kConstantAlignment * kConstantAlignment));

    OpBuilder b(ctx);
    auto blobType = MemRefType::get({static_cast<int64_t>(blob.size())},
                                    b.getI8Type());
    b.setInsertionPointToStart(module.getBody());
    auto tensorType = RankedTensorType::get(blobType.getShape(), b.getI8Type());
    auto data = DenseResourceElementsAttr::get(
        tensorType, "dlc_constants",
        HeapAsmResourceBlob::allocateAndCopyWithAlign(blob, kConstantAlignment));
    memref::GlobalOp::create(b, module.getLoc(), "dlc_constants",
                             b.getStringAttr("private"), blobType, data,
                             /*constant=*/true,
                             b.getI64IntegerAttr(kConstantAlignment));

    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      if (func->hasAttr(dlc::kHostPartAttrName)) {
        // Host code reads the library's own copy of the arena.
        func.walk([&](memref::GetGlobalOp read) {
          auto global = symbols.lookup<memref::GlobalOp>(read.getName());
          b.setInsertionPoint(read);
          Location loc = read.getLoc();
          Value arena =
              memref::GetGlobalOp::create(b, loc, blobType, "dlc_constants");
          Value offset =
              arith::ConstantIndexOp::create(b, loc, offsets[global]);
          Value view = memref::ViewOp::create(b, loc, read.getType(), arena,
                                              offset, ValueRange{});
          read.replaceAllUsesWith(view);
          read.erase();
        });
        continue;
      }
      unsigned arg = func.getNumArguments();
      if (failed(func.insertArgument(arg, blobType, {}, func.getLoc())) ||
          failed(func.insertArgument(arg + 1, LLVM::LLVMPointerType::get(ctx),
                                     {}, func.getLoc())))
        return signalPassFailure();
      func.setArgAttr(arg, "dlc.constants", b.getUnitAttr());
      func.setArgAttr(arg + 1, "dlc.cuda_context", b.getUnitAttr());
      Value constants = func.getArgument(arg);
      func.walk([&](memref::GetGlobalOp read) {
        auto global = symbols.lookup<memref::GlobalOp>(read.getName());
        b.setInsertionPoint(read);
        Value offset =
            arith::ConstantIndexOp::create(b, read.getLoc(), offsets[global]);
        Value view = memref::ViewOp::create(b, read.getLoc(), read.getType(),
                                            constants, offset, ValueRange{});
        read.replaceAllUsesWith(view);
        read.erase();
      });
    }
    for (auto &entry : offsets)
      entry.first.erase();
  }
};
} // namespace
