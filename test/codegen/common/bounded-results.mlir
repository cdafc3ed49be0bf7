// RUN: dlc-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(dlc-bounded-results)' --mlir-print-local-scope | FileCheck %s

// A result of dynamic shape becomes a flat buffer of its bound (2 x 6
// elements: the size is clamped to 6) with the value copied densely to its
// start (the rest is not written); one more result holds the actual size of the
// dynamic dimension, and the module records the bounds per result. Static
// results are untouched.
// CHECK:       module attributes {dlc.output_max_shapes = [array<i64: 2, 6>, array<i64>]}
// CHECK-LABEL: func.func @main
// CHECK-SAME:    -> (tensor<12xi64>, tensor<2x3xf32>, tensor<1xi64> {dlc.sizes})
// CHECK:         %[[V:.+]] = tensor.extract_slice %{{.+}}[0, 0] [2, %[[K:.+]]] [1, 1]
// CHECK:         %[[N:.+]] = tensor.dim %[[V]], %c1
// CHECK:         %[[SIZE:.+]] = arith.index_cast %[[N]] : index to i64
// CHECK:         %[[BUF:.+]] = tensor.empty() : tensor<12xi64>
// CHECK:         %[[HEAD:.+]] = tensor.extract_slice %[[BUF]][0] [%[[NUMEL:.+]]] [1]
// CHECK:         %[[VIEW:.+]] = tensor.expand_shape %[[HEAD]] {{\[\[}}0, 1]] output_shape [2, %[[N]]]
// CHECK:         %[[COPY:.+]] = linalg.copy ins(%[[V]] : tensor<2x?xi64>) outs(%[[VIEW]] : tensor<2x?xi64>)
// CHECK:         %[[FLAT:.+]] = tensor.collapse_shape %[[COPY]]
// CHECK:         %[[OUT:.+]] = tensor.insert_slice %[[FLAT]] into %[[BUF]][0] [%[[NUMEL]]] [1]
// CHECK:         %[[DIMS:.+]] = tensor.from_elements %[[SIZE]] : tensor<1xi64>
// CHECK:         return %[[OUT]], %{{.+}}, %[[DIMS]]
func.func @main(%x: tensor<2x6xi64>, %y: tensor<2x3xf32>, %n: index) -> (tensor<2x?xi64>, tensor<2x3xf32>) {
  %k = affine.min affine_map<()[s0] -> (s0, 6)>()[%n]
  %v = tensor.extract_slice %x[0, 0] [2, %k] [1, 1] : tensor<2x6xi64> to tensor<2x?xi64>
  return %v, %y : tensor<2x?xi64>, tensor<2x3xf32>
}

// -----

// A function with static results only is left alone.
// CHECK-LABEL: func.func @main
// CHECK-SAME:    -> tensor<2x3xf32>
// CHECK-NOT:     dlc.output_max_shapes
func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  return %x : tensor<2x3xf32>
}

// -----

// A dynamic result without known bounds is an error.
func.func @main(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
  // expected-error @+1 {{result 0 has the dynamic shape 'tensor<?x3xf32>' without an upper bound of dimension 0}}
  return %x : tensor<?x3xf32>
}

// -----

// A slice bound clamped as the importer clamps ONNX Slice's ends (a
// negative end counts from the end, then the end is cut to [0, 16]): the
// size is bounded by interval arithmetic over arith.select, maxsi and
// minsi, to 16; a tensor.splat is bounded by its sizes.
// CHECK:       module attributes {dlc.output_max_shapes = [array<i64: 16>, array<i64: 16>]}
// CHECK-LABEL: func.func @main
// CHECK-SAME:    -> (tensor<16xi64>, tensor<16xi1>, tensor<2xi64> {dlc.sizes})
func.func @main(%x: tensor<16xi64>, %e: index) -> (tensor<?xi64>, tensor<?xi1>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %neg = arith.cmpi slt, %e, %c0 : index
  %wrapped = arith.addi %e, %c16 : index
  %s = arith.select %neg, %wrapped, %e : index
  %lo = arith.maxsi %s, %c0 : index
  %end = arith.minsi %lo, %c16 : index
  %v = tensor.extract_slice %x[0] [%end] [1] : tensor<16xi64> to tensor<?xi64>
  %true = arith.constant true
  %m = tensor.splat %true[%end] : tensor<?xi1>
  return %v, %m : tensor<?xi64>, tensor<?xi1>
}
