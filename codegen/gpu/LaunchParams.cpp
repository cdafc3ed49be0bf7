//===- LaunchParams.cpp - kernel parameter arrays in the LLVM dialect -----===//
#include "codegen/gpu/LaunchParams.h"

using namespace mlir;

Value dlc::packLaunchParams(OpBuilder &b, Location loc, LLVM::LLVMFuncOp func,
                            ValueRange values) {
  OpBuilder::InsertionGuard guard(b);
  Block *launchBlock = b.getInsertionBlock();
  Block::iterator launchPoint = b.getInsertionPoint();
  auto ptrTy = LLVM::LLVMPointerType::get(b.getContext());
  b.setInsertionPointToStart(&func.getBody().front());
  Value one = LLVM::ConstantOp::create(b, loc, b.getI64Type(), 1);
  auto arrayTy =
      LLVM::LLVMArrayType::get(ptrTy, std::max<size_t>(1, values.size()));
  Value params = LLVM::AllocaOp::create(b, loc, ptrTy, arrayTy, one);
  SmallVector<Value> slots;
  for (Value v : values)
    slots.push_back(LLVM::AllocaOp::create(b, loc, ptrTy, v.getType(), one));
  b.setInsertionPoint(launchBlock, launchPoint);
  for (auto [i, v] : llvm::enumerate(values)) {
    LLVM::StoreOp::create(b, loc, v, slots[i]);
    Value slotAddr =
        LLVM::GEPOp::create(b, loc, ptrTy, arrayTy, params,
                            ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i)});
    LLVM::StoreOp::create(b, loc, slots[i], slotAddr);
  }
  return params;
}
