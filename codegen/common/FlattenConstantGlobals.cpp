//===- FlattenConstantGlobals.cpp - constant tensors as flat arrays -------===//
#include "codegen/common/ConstantData.h"
#include "codegen/common/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/BuiltinDialect.h"

namespace dlc {
#define GEN_PASS_DEF_FLATTENCONSTANTGLOBALS
#include "codegen/common/Passes.h.inc"
} // namespace dlc

using namespace mlir;

/// The 1-D form of a dense or dense_resource tensor value; null otherwise.
static Attribute flatten(Attribute value) {
  auto elements = dyn_cast_or_null<ElementsAttr>(value);
  if (!elements)
    return {};
  auto type = dyn_cast<RankedTensorType>(elements.getShapedType());
  if (!type || type.getRank() <= 1 || !type.hasStaticShape())
    return {};
  auto flat = RankedTensorType::get({type.getNumElements()},
                                    type.getElementType());
  return dlc::reshapedConstant(value, flat);
}

namespace {
struct FlattenConstantGlobalsPass
    : dlc::impl::FlattenConstantGlobalsBase<FlattenConstantGlobalsPass> {
  void runOnOperation() override {
    getOperation().walk([](LLVM::GlobalOp global) {
      auto array = dyn_cast<LLVM::LLVMArrayType>(global.getGlobalType());
      if (!array || !isa<LLVM::LLVMArrayType>(array.getElementType()))
        return;
      Attribute flat = flatten(global.getValueOrNull());
      if (!flat)
        return;
      Type scalar = array;
      uint64_t count = 1;
      while (auto nested = dyn_cast<LLVM::LLVMArrayType>(scalar)) {
        count *= nested.getNumElements();
        scalar = nested.getElementType();
      }
      if (static_cast<int64_t>(count) !=
          cast<ElementsAttr>(flat).getShapedType().getNumElements())
        return;
      global.setGlobalType(LLVM::LLVMArrayType::get(scalar, count));
      global.setValueAttr(flat);
    });
  }
};
} // namespace
