// Verifier and shape inference errors of dlc.reshape, dlc.transpose,
// dlc.concat and dlc.constant.
// RUN: dlc-opt %s -split-input-file -verify-diagnostics

func.func @reshape_count(%x: tensor<2x3xf32>) -> tensor<7xf32> {
  // expected-error @+1 {{'dlc.reshape' op cannot reshape [2,3] (6 elements) to [7] (7 elements)}}
  %0 = dlc.reshape %x : tensor<2x3xf32> -> tensor<7xf32>
  return %0 : tensor<7xf32>
}

// -----

func.func @reshape_scalar(%x: tensor<f32>) -> tensor<2xf32> {
  // expected-error @+1 {{'dlc.reshape' op cannot reshape [] (1 elements) to [2] (2 elements)}}
  %0 = dlc.reshape %x : tensor<f32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @reshape_element_type(%x: tensor<2x3xf32>) -> tensor<6xi32> {
  // expected-error @+1 {{'dlc.reshape' op element type must not change}}
  %0 = dlc.reshape %x : tensor<2x3xf32> -> tensor<6xi32>
  return %0 : tensor<6xi32>
}

// -----

func.func @reshape_sizes(%x: tensor<?x3xf32>, %n: index) -> tensor<?x?xf32> {
  // expected-error @+1 {{'dlc.reshape' op needs one size per dynamic result dimension (2), has 1}}
  %0 = dlc.reshape %x sizes(%n) : tensor<?x3xf32> -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

func.func @transpose_duplicate(%x: tensor<2x3x4xf32>) -> tensor<3x3x4xf32> {
  // expected-error @+2 {{Transpose: perm is not a permutation}}
  // expected-error @+1 {{'dlc.transpose' op failed to infer returned types}}
  %0 = dlc.transpose %x {perm = array<i64: 1, 1, 2>} : tensor<2x3x4xf32> -> tensor<3x3x4xf32>
  return %0 : tensor<3x3x4xf32>
}

// -----

func.func @transpose_out_of_range(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+2 {{Transpose: perm is not a permutation}}
  // expected-error @+1 {{'dlc.transpose' op failed to infer returned types}}
  %0 = dlc.transpose %x {perm = array<i64: 1, 2>} : tensor<2x3xf32> -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @transpose_negative(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+2 {{Transpose: perm is not a permutation}}
  // expected-error @+1 {{'dlc.transpose' op failed to infer returned types}}
  %0 = dlc.transpose %x {perm = array<i64: -1, 0>} : tensor<2x3xf32> -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @transpose_size(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+2 {{Transpose: perm has 3 entries for rank 2}}
  // expected-error @+1 {{'dlc.transpose' op failed to infer returned types}}
  %0 = dlc.transpose %x {perm = array<i64: 1, 0, 2>} : tensor<2x3xf32> -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @transpose_result(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{'dlc.transpose' op inferred type(s) 'tensor<3x2xf32>' are incompatible with return type(s) of operation 'tensor<2x3xf32>'}}
  // expected-error @+1 {{'dlc.transpose' op failed to infer returned types}}
  %0 = dlc.transpose %x {perm = array<i64: 1, 0>} : tensor<2x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @concat_axis(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+2 {{Concat: axis 2 out of range for rank 2}}
  // expected-error @+1 {{'dlc.concat' op failed to infer returned types}}
  %0 = dlc.concat %a, %b {axis = 2 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

// The importer normalizes negative axes; the op takes non-negative ones only.
func.func @concat_negative_axis(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x6xf32> {
  // expected-error @+2 {{Concat: axis -1 out of range for rank 2}}
  // expected-error @+1 {{'dlc.concat' op failed to infer returned types}}
  %0 = dlc.concat %a, %b {axis = -1 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}

// -----

func.func @concat_shapes(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>) -> tensor<4x3xf32> {
  // expected-error @+2 {{Concat: input shapes [2,3] and [2,4] differ outside axis 0}}
  // expected-error @+1 {{'dlc.concat' op failed to infer returned types}}
  %0 = dlc.concat %a, %b {axis = 0 : i64} : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @concat_rank(%a: tensor<2x3xf32>, %b: tensor<2xf32>) -> tensor<4x3xf32> {
  // expected-error @+2 {{Concat: inputs differ in rank or type}}
  // expected-error @+1 {{'dlc.concat' op failed to infer returned types}}
  %0 = dlc.concat %a, %b {axis = 0 : i64} : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @concat_element_type(%a: tensor<2x3xf32>, %b: tensor<2x3xi32>) -> tensor<4x3xf32> {
  // expected-error @+2 {{Concat: inputs differ in rank or type}}
  // expected-error @+1 {{'dlc.concat' op failed to infer returned types}}
  %0 = dlc.concat %a, %b {axis = 0 : i64} : (tensor<2x3xf32>, tensor<2x3xi32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @concat_no_inputs() -> tensor<4x3xf32> {
  // expected-error @+2 {{Concat: needs at least one input}}
  // expected-error @+1 {{'dlc.concat' op failed to infer returned types}}
  %0 = dlc.concat {axis = 0 : i64} : () -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @concat_result(%a: tensor<2x3xf32>) -> tensor<2x6xf32> {
  // expected-error @+2 {{'dlc.concat' op inferred type(s) 'tensor<4x3xf32>' are incompatible with return type(s) of operation 'tensor<2x6xf32>'}}
  // expected-error @+1 {{'dlc.concat' op failed to infer returned types}}
  %0 = dlc.concat %a, %a {axis = 0 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}

// -----

func.func @constant_type() -> tensor<3xf32> {
  // expected-error @+2 {{'dlc.constant' op inferred type(s) 'tensor<2xf32>' are incompatible with return type(s) of operation 'tensor<3xf32>'}}
  // expected-error @+1 {{'dlc.constant' op failed to infer returned types}}
  %0 = "dlc.constant"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
