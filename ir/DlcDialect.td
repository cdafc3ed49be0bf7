//===- DlcDialect.td - the dlc dialect ---------------------*- tablegen -*-===//
//
// The dlc dialect holds the model at ONNX level: one op per ONNX operator
// family, with ONNX attribute semantics resolved to explicit values by the
// importer (auto_pad becomes pads, Flatten becomes reshape, ...).
//
//===----------------------------------------------------------------------===//
#ifndef DLC_DIALECT_TD
#define DLC_DIALECT_TD

include "mlir/IR/OpBase.td"

def Dlc_Dialect : Dialect {
  let name = "dlc";
  let summary = "ONNX-level operations of the dlc compiler";
  let description = [{
    Tensor-level operations with ONNX semantics. Every op carries the ONNX
    node name in its location. Shapes are inferred by the ops themselves
    (InferTypeOpInterface), so the importer does not depend on ONNX's shape
    inference being available for the model's opset.
  }];
  let cppNamespace = "::dlc";
  let hasConstantMaterializer = 1;
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    void registerAttributes();
  }];
}

#endif // DLC_DIALECT_TD
