// RUN: dlc-opt %s -split-input-file -verify-diagnostics --dlc-lower-to-linalg
// RUN: not dlc-opt %s -split-input-file --dlc-lower-to-linalg 2>&1 | FileCheck %s

// The error is reported at the op's location: the file position here, the
// ONNX node name (a NameLoc) for imported models.

// A dynamic result (and operand) type is rejected at the op.
func.func @dynamic_add(%a: tensor<?x3xf32>, %b: tensor<?x3xf32>) -> tensor<?x3xf32> {
  // CHECK: dynamic-shapes.mlir:[[@LINE+2]]:8: error: dynamic shapes are not supported yet: 'tensor<?x3xf32>'
  // expected-error @+1 {{dynamic shapes are not supported yet: 'tensor<?x3xf32>'}}
  %0 = dlc.add %a, %b : tensor<?x3xf32>, tensor<?x3xf32> -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// -----

// A dynamic operand is enough, even when the result is static.
func.func @dynamic_operand(%x: tensor<1x?xf32>) -> tensor<4xf32> {
  // CHECK: dynamic-shapes.mlir:[[@LINE+2]]:8: error: dynamic shapes are not supported yet: 'tensor<1x?xf32>'
  // expected-error @+1 {{dynamic shapes are not supported yet: 'tensor<1x?xf32>'}}
  %0 = dlc.reshape %x : tensor<1x?xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Static ops before the dynamic one are fine. An op located only by its
// ONNX node name has no file position: the error names the node.
func.func @dynamic_after_static(%x: tensor<2x2xf32>, %y: tensor<?x2xf32>) -> tensor<?x2xf32> {
  %0 = dlc.relu %x : tensor<2x2xf32>
  // CHECK: error: loc("relu_2"): dynamic shapes are not supported yet: 'tensor<?x2xf32>'
  // expected-error @unknown {{dynamic shapes are not supported yet: 'tensor<?x2xf32>'}}
  %1 = dlc.relu %y : tensor<?x2xf32> loc("relu_2")
  return %1 : tensor<?x2xf32>
}
