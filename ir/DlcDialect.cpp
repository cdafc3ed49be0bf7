//===- DlcDialect.cpp - the dlc dialect ------------------------------------===//
#include "ir/DlcDialect.h"
#include "ir/DlcAttrs.h"
#include "ir/DlcOps.h"

using namespace mlir;
using namespace dlc;

#include "ir/DlcDialect.cpp.inc"

void DlcDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "ir/DlcOps.cpp.inc"
      >();
  registerAttributes();
}

Operation *DlcDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                           Type type, Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return ConstantOp::create(builder, loc, elements);
}
