// Verifier and shape-inference errors of the elementwise ops added with the
// ONNX op families (round trips in elementwise-ext.mlir).
// RUN: dlc-opt %s -split-input-file -verify-diagnostics

func.func @where_condition_not_bool(%c: tensor<3xf32>, %a: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+2 {{Where: the condition must be boolean}}
  // expected-error @+1 {{'dlc.where' op failed to infer returned types}}
  %0 = dlc.where %c, %a, %b : tensor<3xf32>, tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @where_types_differ(%c: tensor<3xi1>, %a: tensor<3xf32>, %b: tensor<3xi64>) -> tensor<3xf32> {
  // expected-error @+2 {{Where: operand element types differ}}
  // expected-error @+1 {{'dlc.where' op failed to infer returned types}}
  %0 = dlc.where %c, %a, %b : tensor<3xi1>, tensor<3xf32>, tensor<3xi64> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// The condition takes part in the broadcast too.
func.func @where_broadcast(%c: tensor<2xi1>, %a: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+2 {{Where: operand shapes do not broadcast}}
  // expected-error @+1 {{'dlc.where' op failed to infer returned types}}
  %0 = dlc.where %c, %a, %b : tensor<2xi1>, tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// Comparisons return i1, not the operand type.
func.func @compare_result_type(%a: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+2 {{'dlc.less' op inferred type(s) 'tensor<3xi1>' are incompatible with return type(s) of operation 'tensor<3xf32>'}}
  // expected-error @+1 {{'dlc.less' op failed to infer returned types}}
  %0 = dlc.less %a, %b : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @compare_types_differ(%a: tensor<3xf32>, %b: tensor<3xi32>) -> tensor<3xi1> {
  // expected-error @+2 {{Greater: operand element types differ}}
  // expected-error @+1 {{'dlc.greater' op failed to infer returned types}}
  %0 = dlc.greater %a, %b : tensor<3xf32>, tensor<3xi32> -> tensor<3xi1>
  return %0 : tensor<3xi1>
}

// -----

func.func @compare_broadcast(%a: tensor<2x3xi64>, %b: tensor<2xi64>) -> tensor<2x3xi1> {
  // expected-error @+2 {{Equal: operand shapes do not broadcast}}
  // expected-error @+1 {{'dlc.equal' op failed to infer returned types}}
  %0 = dlc.equal %a, %b : tensor<2x3xi64>, tensor<2xi64> -> tensor<2x3xi1>
  return %0 : tensor<2x3xi1>
}

// -----

func.func @cast_shape(%x: tensor<2x3xf32>) -> tensor<6xi64> {
  // expected-error @+1 {{'dlc.cast' op input and result shapes differ}}
  %0 = dlc.cast %x : tensor<2x3xf32> -> tensor<6xi64>
  return %0 : tensor<6xi64>
}

// -----

// Activations are float-only.
func.func @activation_on_integers(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'dlc.leaky_relu' op operand #0 must be ranked tensor of floating-point values}}
  %0 = dlc.leaky_relu %x {alpha = 0.01 : f32, beta = 0.0 : f32} : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @activation_missing_alpha(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'dlc.elu' op requires attribute 'alpha'}}
  %0 = dlc.elu %x {beta = 0.0 : f32} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @binary_broadcast(%a: tensor<2x3xf32>, %b: tensor<2xf32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{Pow: shapes [2,3] and [2] do not broadcast}}
  // expected-error @+1 {{'dlc.pow' op failed to infer returned types}}
  %0 = dlc.pow %a, %b : tensor<2x3xf32>, tensor<2xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
