// Shape inference and type errors of the elementwise ops.
// RUN: dlc-opt %s -split-input-file -verify-diagnostics

func.func @broadcast_mismatch(%a: tensor<2x3xf32>, %b: tensor<4xf32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{Add: shapes [2,3] and [4] do not broadcast}}
  // expected-error @+1 {{'dlc.add' op failed to infer returned types}}
  %0 = dlc.add %a, %b : tensor<2x3xf32>, tensor<4xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @broadcast_mismatch_inner(%a: tensor<2x3x4xf32>, %b: tensor<5x1x4xf32>) -> tensor<2x3x4xf32> {
  // expected-error @+2 {{Mul: shapes [2,3,4] and [5,1,4] do not broadcast}}
  // expected-error @+1 {{'dlc.mul' op failed to infer returned types}}
  %0 = dlc.mul %a, %b : tensor<2x3x4xf32>, tensor<5x1x4xf32> -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

func.func @element_types_differ(%a: tensor<2x3xf32>, %b: tensor<3xf16>) -> tensor<2x3xf32> {
  // expected-error @+2 {{Sub: operand element types differ ('f32' vs 'f16')}}
  // expected-error @+1 {{'dlc.sub' op failed to infer returned types}}
  %0 = dlc.sub %a, %b : tensor<2x3xf32>, tensor<3xf16> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @wrong_result_shape(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<3x3xf32> {
  // expected-error @+2 {{'dlc.div' op inferred type(s) 'tensor<2x3xf32>' are incompatible with return type(s) of operation 'tensor<3x3xf32>'}}
  // expected-error @+1 {{'dlc.div' op failed to infer returned types}}
  %0 = dlc.div %a, %b : tensor<2x3xf32>, tensor<3xf32> -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

func.func @unary_integer(%a: tensor<2x3xi32>) -> tensor<2x3xi32> {
  // expected-error @+1 {{'dlc.relu' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<2x3xi32>'}}
  %0 = dlc.relu %a : tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// -----

func.func @unary_type_change(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{'dlc.tanh' op requires the same type for all operands and results}}
  %0 = "dlc.tanh"(%a) : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @unranked(%a: tensor<*xf32>, %b: tensor<*xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'dlc.add' op operand #0 must be ranked tensor of floating-point or signless integer or 1-bit signless integer values, but got 'tensor<*xf32>'}}
  %0 = "dlc.add"(%a, %b) : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
