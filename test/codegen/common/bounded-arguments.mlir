// RUN: dlc-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(dlc-bounded-arguments)' --mlir-print-local-scope | FileCheck %s

// Arguments with symbolic dimensions become flat buffers of their bounds'
// elements (4 x 16 x 8 and 16); one more argument holds the sizes of the
// symbolic dimensions, argument by argument (marked dlc.sizes: host
// memory). Each size is clamped to its range; dimensions of one name share the first one's size. The uses read
// the buffer's leading elements at the run's shape.
// CHECK-LABEL: func.func @main
// CHECK-SAME:    (%[[X:.+]]: tensor<512xf32> {{{.+}}}, %[[M:.+]]: tensor<16xi1> {{{.+}}}, %[[S:.+]]: tensor<3xi64> {dlc.sizes})
// CHECK:         %[[E0:.+]] = tensor.extract %[[S]][%c0{{.*}}]
// CHECK:         %[[I0:.+]] = arith.index_cast %[[E0]] : i64 to index
// CHECK:         %[[L0:.+]] = affine.max affine_map<(d0) -> (d0, 1)>(%[[I0]])
// CHECK:         %[[B:.+]] = affine.min affine_map<(d0) -> (d0, 4)>(%[[L0]])
// CHECK:         %[[E1:.+]] = tensor.extract %[[S]][%c1{{.*}}]
// CHECK:         %[[I1:.+]] = arith.index_cast %[[E1]] : i64 to index
// CHECK:         %[[L1:.+]] = affine.max affine_map<(d0) -> (d0, 2)>(%[[I1]])
// CHECK:         %[[SEQ:.+]] = affine.min affine_map<(d0) -> (d0, 16)>(%[[L1]])
// CHECK:         %[[HX:.+]] = tensor.extract_slice %[[X]][0] [%{{.+}}] [1] : tensor<512xf32> to tensor<?xf32>
// CHECK:         %[[VX:.+]] = tensor.expand_shape %[[HX]] {{\[\[}}0, 1, 2]] output_shape [%[[B]], %[[SEQ]], 8] : tensor<?xf32> into tensor<?x?x8xf32>
// CHECK:         tensor.extract %[[S]][%c2{{.*}}]
// CHECK:         %[[HM:.+]] = tensor.extract_slice %[[M]][0] [%{{.+}}] [1] : tensor<16xi1> to tensor<?xi1>
// CHECK-NOT:     tensor.expand_shape
// CHECK:         return %[[VX]], %[[HM]]
func.func @main(%x: tensor<?x?x8xf32> {dlc.symbolic_dims = [#dlc.symbolic_dim<"batch", 1, 4>, #dlc.symbolic_dim<"seq", 2, 16>]},
                %m: tensor<?xi1> {dlc.symbolic_dims = [#dlc.symbolic_dim<"seq", 2, 16>]})
    -> (tensor<?x?x8xf32>, tensor<?xi1>) {
  return %x, %m : tensor<?x?x8xf32>, tensor<?xi1>
}

// -----

// Static arguments are left alone.
// CHECK-LABEL: func.func @main
// CHECK-SAME:    (%{{.+}}: tensor<2x3xf32>) -> tensor<2x3xf32>
func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  return %x : tensor<2x3xf32>
}

// -----

// A dynamic argument without declared ranges is an error.
// expected-error @+1 {{argument 0 has type 'tensor<?xf32>' without the range of each dynamic dimension (dlc.symbolic_dims)}}
func.func @main(%x: tensor<?xf32>) -> tensor<?xf32> {
  return %x : tensor<?xf32>
}

// -----

// expected-error @+1 {{symbolic dimension 'seq' has the range 4..2; it needs 1 <= min <= max}}
func.func private @bad() attributes {r = #dlc.symbolic_dim<"seq", 4, 2>}
