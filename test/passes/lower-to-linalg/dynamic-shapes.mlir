// RUN: dlc-opt %s -split-input-file -verify-diagnostics --dlc-lower-to-linalg
// RUN: not dlc-opt %s -split-input-file --dlc-lower-to-linalg 2>&1 | FileCheck %s

// Ops whose lowering does not size dynamic dimensions yet reject them at
// the op's location: the file position here, the ONNX node name (a NameLoc)
// for imported models. (The ops with Dlc_LowersDynamicShapes lower them:
// dynamic-shapes-lowering.mlir.)

// A dynamic result (and operand) type is rejected at the op.
func.func @dynamic_tile(%a: tensor<1x1x?x?xf32>) -> tensor<3x1x?x?xf32> {
  // CHECK: dynamic-shapes.mlir:[[@LINE+2]]:8: error: dynamic shapes are not supported yet: 'tensor<1x1x?x?xf32>'
  // expected-error @+1 {{dynamic shapes are not supported yet: 'tensor<1x1x?x?xf32>'}}
  %0 = dlc.tile %a : tensor<1x1x?x?xf32> -> tensor<3x1x?x?xf32>
  return %0 : tensor<3x1x?x?xf32>
}

// -----

// A dynamic operand is enough, even when the result is static.
func.func @dynamic_operand(%x: tensor<?x3xf32>) -> tensor<?x9xf32> {
  // CHECK: dynamic-shapes.mlir:[[@LINE+2]]:8: error: dynamic shapes are not supported yet: 'tensor<?x3xf32>'
  // expected-error @+1 {{dynamic shapes are not supported yet: 'tensor<?x3xf32>'}}
  %0 = dlc.tile %x : tensor<?x3xf32> -> tensor<?x9xf32>
  return %0 : tensor<?x9xf32>
}

// -----

// Expand of a dynamic dimension to a fixed size: it could be 1 at run time
// (a broadcast) or any other size, which the lowering cannot check.
func.func @expand_dynamic_to_fixed(%x: tensor<?x1xf32>) -> tensor<4x4xf32> {
  // CHECK: error: operand 0 has the dynamic shape 'tensor<?x1xf32>', whose dimension 0 meets the fixed size 4
  // expected-error @+1 {{operand 0 has the dynamic shape 'tensor<?x1xf32>', whose dimension 0 meets the fixed size 4 of the result 'tensor<4x4xf32>'}}
  %0 = dlc.expand %x : tensor<?x1xf32> -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

// Static ops before the dynamic one are fine. An op located only by its
// ONNX node name has no file position: the error names the node.
func.func @dynamic_after_static(%x: tensor<2x2xf32>, %y: tensor<1x1x?x?xf32>) -> tensor<3x1x?x?xf32> {
  %0 = dlc.relu %x : tensor<2x2xf32>
  // CHECK: error: loc("tile_2"): dynamic shapes are not supported yet: 'tensor<1x1x?x?xf32>'
  // expected-error @unknown {{dynamic shapes are not supported yet: 'tensor<1x1x?x?xf32>'}}
  %1 = dlc.tile %y : tensor<1x1x?x?xf32> -> tensor<3x1x?x?xf32> loc("tile_2")
  return %1 : tensor<3x1x?x?xf32>
}

// -----

// MaxPool's and AveragePool's ceil_mode need static sizes.
func.func @ceil_max_pool(%a: tensor<1x1x?x?xf32>) -> tensor<1x1x?x?xf32> {
  // CHECK: error: MaxPool with ceil_mode and dynamic dimensions is not supported yet: 'tensor<1x1x?x?xf32>'
  // expected-error @+1 {{MaxPool with ceil_mode and dynamic dimensions is not supported yet: 'tensor<1x1x?x?xf32>'}}
  %0 = dlc.max_pool %a {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, ceil_mode = true} : tensor<1x1x?x?xf32> -> tensor<1x1x?x?xf32>
  return %0 : tensor<1x1x?x?xf32>
}

// -----

// What the lowering cannot check at run time is refused: a dynamic
// dimension that meets a fixed size in a broadcast.
func.func @fixed_broadcast(%x: tensor<?xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: error: operand 0 has the dynamic shape 'tensor<?xf32>', whose dimension 0 meets the fixed size 4
  // expected-error @+1 {{operand 0 has the dynamic shape 'tensor<?xf32>', whose dimension 0 meets the fixed size 4 of the result 'tensor<4xf32>'; symbolic dimensions there are not supported: give that dimension a fixed size}}
  %0 = dlc.add %x, %y : tensor<?xf32>, tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A dynamic tensor reshaped to a fixed shape.
func.func @fixed_reshape(%x: tensor<?x4xf32>) -> tensor<8xf32> {
  // CHECK: error: reshaping 'tensor<?x4xf32>' to the fixed shape 'tensor<8xf32>'
  // expected-error @+1 {{reshaping 'tensor<?x4xf32>' to the fixed shape 'tensor<8xf32>' is not supported: its size is known at run time only}}
  %0 = dlc.reshape %x : tensor<?x4xf32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @ceil_avg_pool(%a: tensor<1x1x?x?xf32>) -> tensor<1x1x?x?xf32> {
  // CHECK: error: AveragePool with ceil_mode and dynamic dimensions is not supported yet: 'tensor<1x1x?x?xf32>'
  // expected-error @+1 {{AveragePool with ceil_mode and dynamic dimensions is not supported yet: 'tensor<1x1x?x?xf32>'}}
  %0 = dlc.avg_pool %a {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, ceil_mode = true} : tensor<1x1x?x?xf32> -> tensor<1x1x?x?xf32>
  return %0 : tensor<1x1x?x?xf32>
}
