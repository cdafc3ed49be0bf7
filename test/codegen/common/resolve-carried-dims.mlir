// RUN: dlc-opt %s -split-input-file --dlc-resolve-carried-dims | FileCheck %s

// The size of a tensor carried by a loop (updated element by element) is
// its initial value's: tensor.dim of the loop's result and of its region
// argument become the size it was created with.
// CHECK-LABEL: func.func @carried
// CHECK-SAME:    (%[[N:.+]]: index,
// CHECK:         scf.for
// CHECK:           %[[I:.+]] = arith.subi %[[N]], %{{.+}}
// CHECK:           tensor.insert %{{.+}} into %{{.+}}[%[[I]]]
// CHECK:         return %{{.+}}, %[[N]]
func.func @carried(%n: index, %v: f32) -> (tensor<?xf32>, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%t = %e) -> tensor<?xf32> {
    %d = tensor.dim %t, %c0 : tensor<?xf32>
    %last = arith.subi %d, %c1 : index
    %u = tensor.insert %v into %t[%last] : tensor<?xf32>
    scf.yield %u : tensor<?xf32>
  }
  %s = tensor.dim %r, %c0 : tensor<?xf32>
  return %r, %s : tensor<?xf32>, index
}

// -----

// A chain of insertions into a destination (a concatenation) has the
// destination's size.
// CHECK-LABEL: func.func @insertions
// CHECK-SAME:    (%[[N:.+]]: index, %[[A:.+]]: tensor<2xf32>
// CHECK:         %[[E:.+]] = tensor.empty(%[[N]])
// CHECK:         %[[I0:.+]] = tensor.insert_slice %[[A]] into %[[E]]
// CHECK:         %[[I1:.+]] = tensor.insert_slice %[[A]] into %[[I0]]
// CHECK:         return %[[I1]], %[[N]]
func.func @insertions(%n: index, %a: tensor<2xf32>) -> (tensor<?xf32>, index) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %e = tensor.empty(%n) : tensor<?xf32>
  %0 = tensor.insert_slice %a into %e[0] [2] [1] : tensor<2xf32> into tensor<?xf32>
  %1 = tensor.insert_slice %a into %0[2] [2] [1] : tensor<2xf32> into tensor<?xf32>
  %s = tensor.dim %1, %c0 : tensor<?xf32>
  return %1, %s : tensor<?xf32>, index
}

// -----

// The dimension of a function argument (not created in the function) stays.
// CHECK-LABEL: func.func @kept
// CHECK:         tensor.dim %arg0
func.func @kept(%t: tensor<?xf32>) -> index {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %t, %c0 : tensor<?xf32>
  return %d : index
}
