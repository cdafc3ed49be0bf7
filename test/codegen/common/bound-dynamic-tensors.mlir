// RUN: dlc-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(func.func(dlc-bound-dynamic-tensors))' --mlir-print-local-scope | FileCheck %s

// A dynamic tensor.empty at function level becomes the leading elements
// of a flat one of its upper bounds' elements, viewed at its shape: 512
// from the clamp (as the sizes of a tensor with a declared range are), so
// 512 * 64 elements; 512 * 512 = 262144 for their product (interval
// arithmetic), 128 for a tile of at most 128.
// CHECK-LABEL: func.func @bounded
// CHECK:         %[[N:.+]] = affine.min affine_map<()[s0] -> (s0, 512)>
// CHECK:         %[[NUMEL:.+]] = arith.muli %[[N]], %c64
// CHECK:         %[[E:.+]] = tensor.empty() : tensor<32768xf32>
// CHECK:         %[[S:.+]] = tensor.extract_slice %[[E]][0] [%[[NUMEL]]] [1] : tensor<32768xf32> to tensor<?xf32>
// CHECK:         %[[V:.+]] = tensor.expand_shape %[[S]] {{\[\[}}0, 1]] output_shape [%[[N]], 64] : tensor<?xf32> into tensor<?x64xf32>
// CHECK:         linalg.generic {{.+}} outs(%[[V]] : tensor<?x64xf32>)
// CHECK:         %[[M:.+]] = arith.muli %[[N]], %[[N]]
// CHECK:         %[[E2:.+]] = tensor.empty() : tensor<262144xf32>
// CHECK:         tensor.extract_slice %[[E2]][0] [%[[M]]] [1]
// CHECK:         %[[T:.+]] = affine.min affine_map<(d0)[s0] -> (-d0 + s0, 128)>
// CHECK:         %[[E3:.+]] = tensor.empty() : tensor<128xf32>
// CHECK:         tensor.extract_slice %[[E3]][0] [%[[T]]] [1]
// CHECK-NOT:     tensor.empty(
func.func @bounded(%x: tensor<?x64xf32>, %i: index) -> (tensor<?x64xf32>, tensor<?xf32>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %n0 = tensor.dim %x, %c0 : tensor<?x64xf32>
  %n = affine.min affine_map<()[s0] -> (s0, 512)>()[%n0]
  %e = tensor.empty(%n) : tensor<?x64xf32>
  %s = tensor.extract_slice %x[0, 0] [%n, 64] [1, 1] : tensor<?x64xf32> to tensor<?x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<?x64xf32>) outs(%e : tensor<?x64xf32>) {
  ^bb0(%a: f32, %b: f32):
    %y = arith.negf %a : f32
    linalg.yield %y : f32
  } -> tensor<?x64xf32>
  %m = arith.muli %n, %n : index
  %e2 = tensor.empty(%m) : tensor<?xf32>
  %t = affine.min affine_map<(d0)[s0] -> (-d0 + s0, 128)>(%i)[%n0]
  %e3 = tensor.empty(%t) : tensor<?xf32>
  return %r, %e2, %e3 : tensor<?x64xf32>, tensor<?xf32>, tensor<?xf32>
}

// -----

// A size without a bound is an error.
func.func @unbounded(%x: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  // expected-error @+1 {{cannot bound dimension 0 of 'tensor<?xf32>': its size is not bounded at compile time}}
  %e = tensor.empty(%n) : tensor<?xf32>
  return %e : tensor<?xf32>
}

// -----

// A dynamic tile inside a loop becomes a slice of a buffer of its bounds'
// shape, used in place.
// CHECK-LABEL: func.func @tile
// CHECK:         scf.for
// CHECK:           %[[T:.+]] = affine.min
// CHECK:           %[[E:.+]] = tensor.empty() : tensor<8x16xf32>
// CHECK:           tensor.extract_slice %[[E]][0, 0] [%[[T]], 16] [1, 1] : tensor<8x16xf32> to tensor<?x16xf32>
// CHECK-NOT:       tensor.expand_shape
func.func @tile(%n: index) -> index {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %r = scf.for %i = %c0 to %n step %c8 iter_args(%acc = %c0) -> (index) {
    %t = affine.min affine_map<(d0)[s0] -> (-d0 + s0, 8)>(%i)[%n]
    %e = tensor.empty(%t) : tensor<?x16xf32>
    %d = tensor.dim %e, %c0 : tensor<?x16xf32>
    %s = arith.addi %acc, %d : index
    scf.yield %s : index
  }
  return %r : index
}
