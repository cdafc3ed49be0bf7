// RUN: dlc-opt %s -split-input-file -verify-diagnostics --dlc-lower-to-linalg
// RUN: not dlc-opt %s -split-input-file --dlc-lower-to-linalg 2>&1 | FileCheck %s

// Ops whose lowering does not size dynamic dimensions yet reject them at
// the op's location: the file position here, the ONNX node name (a NameLoc)
// for imported models. (Elementwise ops and 2-D matmuls lower them:
// dynamic-shapes-lowering.mlir.)

// A dynamic result (and operand) type is rejected at the op.
func.func @dynamic_softmax(%a: tensor<?x3xf32>) -> tensor<?x3xf32> {
  // CHECK: dynamic-shapes.mlir:[[@LINE+2]]:8: error: dynamic shapes are not supported yet: 'tensor<?x3xf32>'
  // expected-error @+1 {{dynamic shapes are not supported yet: 'tensor<?x3xf32>'}}
  %0 = dlc.softmax %a {axis = 1 : i64} : tensor<?x3xf32>
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
  // CHECK: error: loc("softmax_2"): dynamic shapes are not supported yet: 'tensor<?x2xf32>'
  // expected-error @unknown {{dynamic shapes are not supported yet: 'tensor<?x2xf32>'}}
  %1 = dlc.softmax %y {axis = 1 : i64} : tensor<?x2xf32> loc("softmax_2")
  return %1 : tensor<?x2xf32>
}

// -----

// Batched matmuls do not lower dynamic shapes yet.
func.func @dynamic_batched_matmul(%a: tensor<2x?x3xf32>, %b: tensor<2x3x4xf32>) -> tensor<2x?x4xf32> {
  // CHECK: error: dynamic shapes are not supported yet: 'tensor<2x?x3xf32>'
  // expected-error @+1 {{dynamic shapes are not supported yet: 'tensor<2x?x3xf32>'}}
  %0 = dlc.matmul %a, %b : tensor<2x?x3xf32>, tensor<2x3x4xf32> -> tensor<2x?x4xf32>
  return %0 : tensor<2x?x4xf32>
}
