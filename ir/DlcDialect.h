//===- DlcDialect.h - the dlc dialect ----------------------------*- C++ -*-===//
#ifndef DLC_IR_DLCDIALECT_H
#define DLC_IR_DLCDIALECT_H

#include "mlir/IR/Dialect.h"

#include "ir/DlcDialect.h.inc"

#endif // DLC_IR_DLCDIALECT_H
