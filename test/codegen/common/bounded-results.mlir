// RUN: dlc-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(func.func(dlc-bounded-results))' --mlir-print-local-scope | FileCheck %s

// A result of data-dependent shape becomes a flat buffer of its bound
// (2 x 6 elements), zero-filled, with the value copied densely to its
// start; one more result holds the actual size of the dynamic dimension.
// Static results are untouched.
// CHECK-LABEL: func.func @nonzero
// CHECK-SAME:    -> (tensor<12xi64>, tensor<2x3xf32>, tensor<1xi64>)
// CHECK:         %[[NZ:.+]] = dlc.nonzero
// CHECK:         %[[N:.+]] = tensor.dim %[[NZ]], %c1
// CHECK:         %[[SIZE:.+]] = arith.index_cast %[[N]] : index to i64
// CHECK:         %[[BUF:.+]] = linalg.fill {{.+}} -> tensor<12xi64>
// CHECK:         %[[HEAD:.+]] = tensor.extract_slice %[[BUF]][0] [%[[NUMEL:.+]]] [1]
// CHECK:         %[[VIEW:.+]] = tensor.expand_shape %[[HEAD]] {{\[\[}}0, 1]] output_shape [2, %[[N]]]
// CHECK:         %[[COPY:.+]] = linalg.copy ins(%[[NZ]] : tensor<2x?xi64>) outs(%[[VIEW]] : tensor<2x?xi64>)
// CHECK:         %[[FLAT:.+]] = tensor.collapse_shape %[[COPY]]
// CHECK:         %[[OUT:.+]] = tensor.insert_slice %[[FLAT]] into %[[BUF]][0] [%[[NUMEL]]] [1]
// CHECK:         %[[DIMS:.+]] = tensor.from_elements %[[SIZE]] : tensor<1xi64>
// CHECK:         return %[[OUT]], %{{.+}}, %[[DIMS]]
func.func @nonzero(%x: tensor<2x3xf32>) -> (tensor<2x?xi64>, tensor<2x3xf32>) {
  %0 = dlc.nonzero %x : tensor<2x3xf32> -> tensor<2x?xi64>
  %1 = dlc.relu %x : tensor<2x3xf32>
  return %0, %1 : tensor<2x?xi64>, tensor<2x3xf32>
}

// -----

// A function with static results only is left alone.
// CHECK-LABEL: func.func @static
// CHECK-SAME:    -> tensor<2x3xf32>
func.func @static(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  return %x : tensor<2x3xf32>
}

// -----

// A dynamic result without known bounds is an error.
func.func @unbounded(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
  // expected-error @+1 {{result 0 has the dynamic shape 'tensor<?x3xf32>' without an upper bound}}
  return %x : tensor<?x3xf32>
}
