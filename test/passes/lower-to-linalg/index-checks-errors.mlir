// RUN: dlc-opt %s -split-input-file -verify-diagnostics --dlc-lower-to-linalg -o /dev/null

// Constant indices outside their axis are an error of the compile, on
// every target.
func.func @constant_outside(%x: tensor<4x3xf32>) -> tensor<2x3xf32> {
  %i = dlc.constant dense<[3, 4]> : tensor<2xi64>
  // expected-error @+1 {{Gather: index 4 is outside [-4, 4), the range of axis 0 of 'tensor<4x3xf32>'}}
  %0 = dlc.gather %x, %i {axis = 0 : i64} : tensor<4x3xf32>, tensor<2xi64> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @constant_outside_elements(%x: tensor<4x3xf32>) -> tensor<1x3xf32> {
  %i = dlc.constant dense<[[0, -5, 1]]> : tensor<1x3xi64>
  // expected-error @+1 {{GatherElements: index -5 is outside [-4, 4), the range of axis 0 of 'tensor<4x3xf32>'}}
  %0 = dlc.gather_elements %x, %i {axis = 0 : i64} : tensor<4x3xf32>, tensor<1x3xi64> -> tensor<1x3xf32>
  return %0 : tensor<1x3xf32>
}

// -----

// dlc.check_indices with constant indices outside their constant bounds
// (the second component of the second tuple: 4 in a dimension of 4).
func.func @check_indices_constant(%x: tensor<4x3xf32>) -> tensor<2x2xi64> {
  %i = dlc.constant dense<[[3, 2], [0, 4]]> : tensor<2x2xi64>
  %n = dlc.constant dense<[4, 3]> : tensor<2xi64>
  // expected-error @+1 {{ScatterND: index 4 (element 3 of the indices 'tensor<2x2xi64>') is outside [-3, 3), the size of the data dimension it addresses}}
  %0 = dlc.check_indices %i, %n {op_type = "ScatterND"} : tensor<2x2xi64>, tensor<2xi64>
  return %0 : tensor<2x2xi64>
}
