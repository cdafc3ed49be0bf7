// Shape inference and type errors of dlc.matmul and dlc.gemm.
// RUN: dlc-opt %s -split-input-file -verify-diagnostics

func.func @matmul_inner_dims(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) -> tensor<2x5xf32> {
  // expected-error @+2 {{MatMul: inner dimensions differ: [2,3] x [4,5]}}
  // expected-error @+1 {{'dlc.matmul' op failed to infer returned types}}
  %0 = dlc.matmul %a, %b : tensor<2x3xf32>, tensor<4x5xf32> -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

func.func @matmul_inner_dims_1d(%a: tensor<4xf32>, %b: tensor<2x3x5xf32>) -> tensor<2x5xf32> {
  // expected-error @+2 {{MatMul: inner dimensions differ: [4] x [2,3,5]}}
  // expected-error @+1 {{'dlc.matmul' op failed to infer returned types}}
  %0 = dlc.matmul %a, %b : tensor<4xf32>, tensor<2x3x5xf32> -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

func.func @matmul_scalar(%a: tensor<f32>, %b: tensor<4x5xf32>) -> tensor<5xf32> {
  // expected-error @+2 {{MatMul: operands must have rank >= 1}}
  // expected-error @+1 {{'dlc.matmul' op failed to infer returned types}}
  %0 = dlc.matmul %a, %b : tensor<f32>, tensor<4x5xf32> -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

func.func @matmul_batch(%a: tensor<2x2x3xf32>, %b: tensor<3x3x5xf32>) -> tensor<2x2x5xf32> {
  // expected-error @+2 {{MatMul: batch dimensions of [2,2,3] and [3,3,5] do not broadcast}}
  // expected-error @+1 {{'dlc.matmul' op failed to infer returned types}}
  %0 = dlc.matmul %a, %b : tensor<2x2x3xf32>, tensor<3x3x5xf32> -> tensor<2x2x5xf32>
  return %0 : tensor<2x2x5xf32>
}

// -----

func.func @matmul_result(%a: tensor<2x3xf32>, %b: tensor<3x5xf32>) -> tensor<5x2xf32> {
  // expected-error @+2 {{'dlc.matmul' op inferred type(s) 'tensor<2x5xf32>' are incompatible with return type(s) of operation 'tensor<5x2xf32>'}}
  // expected-error @+1 {{'dlc.matmul' op failed to infer returned types}}
  %0 = dlc.matmul %a, %b : tensor<2x3xf32>, tensor<3x5xf32> -> tensor<5x2xf32>
  return %0 : tensor<5x2xf32>
}

// -----

func.func @matmul_integer(%a: tensor<2x3xi32>, %b: tensor<3x5xi32>) -> tensor<2x5xi32> {
  // expected-error @+1 {{'dlc.matmul' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<2x3xi32>'}}
  %0 = dlc.matmul %a, %b : tensor<2x3xi32>, tensor<3x5xi32> -> tensor<2x5xi32>
  return %0 : tensor<2x5xi32>
}

// -----

func.func @gemm_not_2d(%a: tensor<3xf32>, %b: tensor<3x5xf32>) -> tensor<1x5xf32> {
  // expected-error @+2 {{Gemm: A and B must be 2-D, got [3] and [3,5]}}
  // expected-error @+1 {{'dlc.gemm' op failed to infer returned types}}
  %0 = dlc.gemm %a, %b : (tensor<3xf32>, tensor<3x5xf32>) -> tensor<1x5xf32>
  return %0 : tensor<1x5xf32>
}

// -----

// transB makes B's contracted dimension its second one.
func.func @gemm_inner_dims(%a: tensor<2x3xf32>, %b: tensor<5x4xf32>) -> tensor<2x5xf32> {
  // expected-error @+2 {{Gemm: inner dimensions differ (3 vs 4)}}
  // expected-error @+1 {{'dlc.gemm' op failed to infer returned types}}
  %0 = dlc.gemm %a, %b {transB = true} : (tensor<2x3xf32>, tensor<5x4xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

func.func @gemm_c_vector(%a: tensor<2x3xf32>, %b: tensor<3x5xf32>, %c: tensor<2xf32>) -> tensor<2x5xf32> {
  // expected-error @+2 {{Gemm: C of shape [2] does not broadcast to [2,5]}}
  // expected-error @+1 {{'dlc.gemm' op failed to infer returned types}}
  %0 = dlc.gemm %a, %b, %c : (tensor<2x3xf32>, tensor<3x5xf32>, tensor<2xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

func.func @gemm_c_rank3(%a: tensor<2x3xf32>, %b: tensor<3x5xf32>, %c: tensor<1x2x5xf32>) -> tensor<2x5xf32> {
  // expected-error @+2 {{Gemm: C of shape [1,2,5] does not broadcast to [2,5]}}
  // expected-error @+1 {{'dlc.gemm' op failed to infer returned types}}
  %0 = dlc.gemm %a, %b, %c : (tensor<2x3xf32>, tensor<3x5xf32>, tensor<1x2x5xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

// C broadcasts to the result only (unidirectionally): it may not grow it.
func.func @gemm_c_larger(%a: tensor<1x3xf32>, %b: tensor<3x5xf32>, %c: tensor<2x5xf32>) -> tensor<1x5xf32> {
  // expected-error @+2 {{Gemm: C of shape [2,5] does not broadcast to [1,5]}}
  // expected-error @+1 {{'dlc.gemm' op failed to infer returned types}}
  %0 = dlc.gemm %a, %b, %c : (tensor<1x3xf32>, tensor<3x5xf32>, tensor<2x5xf32>) -> tensor<1x5xf32>
  return %0 : tensor<1x5xf32>
}
