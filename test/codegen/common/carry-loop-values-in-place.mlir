// RUN: dlc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(dlc-carry-loop-values-in-place))' | FileCheck %s

// The value the body computes is materialized in the body's carried tensor,
// which the loop yields; function arguments become read-only for
// bufferization.
// CHECK-LABEL: func.func @carried
// CHECK-SAME:    (%[[X:.*]]: tensor<?x16xf32> {bufferization.writable = false}, %{{.*}}: i64)
// CHECK:       scf.while
// CHECK:       } do {
// CHECK-NEXT:  ^bb0(%[[I:.*]]: i64, %[[H:.*]]: tensor<?x16xf32>):
// CHECK:         %[[NEW:.*]] = linalg.generic
// CHECK:         %[[IN:.*]] = bufferization.materialize_in_destination %[[NEW]] in %[[H]]
// CHECK:         scf.yield %{{.*}}, %[[IN]]
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @carried(%x: tensor<?x16xf32>, %n: i64) -> tensor<?x16xf32> {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %r:2 = scf.while (%i = %c0, %h = %x) : (i64, tensor<?x16xf32>) -> (i64, tensor<?x16xf32>) {
    %go = arith.cmpi slt, %i, %n : i64
    scf.condition(%go) %i, %h : i64, tensor<?x16xf32>
  } do {
  ^bb0(%i: i64, %h: tensor<?x16xf32>):
    %c0i = arith.constant 0 : index
    %d = tensor.dim %h, %c0i : tensor<?x16xf32>
    %e = tensor.empty(%d) : tensor<?x16xf32>
    %y = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%h : tensor<?x16xf32>) outs(%e : tensor<?x16xf32>) {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %a : f32
      linalg.yield %s : f32
    } -> tensor<?x16xf32>
    %next = arith.addi %i, %c1 : i64
    scf.yield %next, %y : i64, tensor<?x16xf32>
  }
  return %r#1 : tensor<?x16xf32>
}

// -----

// Canonicalization dropped the condition the body does not read (before
// arguments (i, c, x); body arguments (i, x)): the loop is rebuilt to hand
// every argument on in order, as bufferization matches buffers by position.
// CHECK-LABEL: func.func @reordered
// CHECK:       %[[R:.*]]:3 = scf.while (%[[I:.*]] = %{{.*}}, %[[C:.*]] = %{{.*}}, %[[X:.*]] = %{{.*}}) : (i64, i1, tensor<4xf32>) -> (i64, i1, tensor<4xf32>)
// CHECK:         scf.condition(%[[C]]) %[[I]], %[[C]], %[[X]] : i64, i1, tensor<4xf32>
// CHECK:       } do {
// CHECK-NEXT:  ^bb0(%{{.*}}: i64, %{{.*}}: i1, %[[H:.*]]: tensor<4xf32>):
// CHECK:         %[[Y:.*]] = linalg.generic
// CHECK:         %[[IN:.*]] = bufferization.materialize_in_destination %[[Y]] in %[[H]]
// CHECK:         scf.yield %{{.*}}, %{{.*}}, %[[IN]] : i64, i1, tensor<4xf32>
// CHECK:       return %[[R]]#2
#map = affine_map<(d0) -> (d0)>
func.func @reordered(%x: tensor<4xf32>, %c: i1) -> tensor<4xf32> {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %r:2 = scf.while (%i = %c0, %go = %c, %v = %x) : (i64, i1, tensor<4xf32>) -> (i64, tensor<4xf32>) {
    scf.condition(%go) %i, %v : i64, tensor<4xf32>
  } do {
  ^bb0(%i: i64, %v: tensor<4xf32>):
    %e = tensor.empty() : tensor<4xf32>
    %y = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%v : tensor<4xf32>) outs(%e : tensor<4xf32>) {
    ^bb0(%a: f32, %b: f32):
      %s = arith.mulf %a, %a : f32
      linalg.yield %s : f32
    } -> tensor<4xf32>
    %next = arith.addi %i, %c1 : i64
    %more = arith.cmpi slt, %next, %c1 : i64
    scf.yield %next, %more, %y : i64, i1, tensor<4xf32>
  }
  return %r#1 : tensor<4xf32>
}

// -----

// Two carried values swapped: each yielded value is a carried tensor, which
// is copied first (bufferization.alloc_tensor), so that no copy into a
// carried buffer overwrites what another copy still reads.
// CHECK-LABEL: func.func @swapped
// CHECK:       } do {
// CHECK-NEXT:  ^bb0(%{{.*}}: i64, %[[A:.*]]: tensor<4xf32>, %[[B:.*]]: tensor<4xf32>):
// CHECK:         %[[CB:.*]] = bufferization.alloc_tensor() copy(%[[B]])
// CHECK:         %[[CA:.*]] = bufferization.alloc_tensor() copy(%[[A]])
// CHECK:         %[[INA:.*]] = bufferization.materialize_in_destination %[[CB]] in %[[A]]
// CHECK:         %[[INB:.*]] = bufferization.materialize_in_destination %[[CA]] in %[[B]]
// CHECK:         scf.yield %{{.*}}, %[[INA]], %[[INB]]
func.func @swapped(%x: tensor<4xf32>, %y: tensor<4xf32>, %n: i64) -> (tensor<4xf32>, tensor<4xf32>) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %r:3 = scf.while (%i = %c0, %a = %x, %b = %y) : (i64, tensor<4xf32>, tensor<4xf32>) -> (i64, tensor<4xf32>, tensor<4xf32>) {
    %go = arith.cmpi slt, %i, %n : i64
    scf.condition(%go) %i, %a, %b : i64, tensor<4xf32>, tensor<4xf32>
  } do {
  ^bb0(%i: i64, %a: tensor<4xf32>, %b: tensor<4xf32>):
    %next = arith.addi %i, %c1 : i64
    scf.yield %next, %b, %a : i64, tensor<4xf32>, tensor<4xf32>
  }
  return %r#1, %r#2 : tensor<4xf32>, tensor<4xf32>
}
