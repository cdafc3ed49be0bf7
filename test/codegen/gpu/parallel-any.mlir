// RUN: dlc-opt %s -split-input-file -dlc-gpu-parallel-any -cse | FileCheck %s

// An index check's flag: is any index outside [-4, 4)? Each iteration
// loads its index and stores true where it is out of range.
// CHECK-LABEL: func.func @any_outside
// CHECK-SAME: (%[[I:.*]]: memref<5x2xi64>, %[[F:.*]]: memref<i1>)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C5:.*]] = arith.constant 5 : index
// CHECK: scf.parallel (%[[A:.*]], %[[B:.*]]) = (%[[C0]], %[[C0]]) to (%[[C5]], %[[C2]]) step (%[[C1]], %[[C1]]) {
// CHECK: %[[V:.*]] = memref.load %[[I]][%[[A]], %[[B]]]
// CHECK: %[[X:.*]] = arith.index_cast %[[V]]
// CHECK: %[[LO:.*]] = arith.cmpi slt, %[[X]]
// CHECK: %[[HI:.*]] = arith.cmpi sge, %[[X]]
// CHECK: %[[BAD:.*]] = arith.ori %[[LO]], %[[HI]] : i1
// CHECK: scf.if %[[BAD]] {
// CHECK-NEXT: %[[TRUE:.*]] = arith.constant true
// CHECK-NEXT: memref.store %[[TRUE]], %[[F]][] : memref<i1>
// CHECK-NOT: linalg.generic
func.func @any_outside(%i: memref<5x2xi64>, %flag: memref<i1>) {
  %lo = arith.constant -4 : index
  %hi = arith.constant 4 : index
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>],
                  iterator_types = ["reduction", "reduction"]}
      ins(%i : memref<5x2xi64>) outs(%flag : memref<i1>) {
  ^bb0(%in: i64, %out: i1):
    %x = arith.index_cast %in : i64 to index
    %a = arith.cmpi slt, %x, %lo : index
    %b = arith.cmpi sge, %x, %hi : index
    %bad = arith.ori %a, %b : i1
    %r = arith.ori %out, %bad : i1
    linalg.yield %r : i1
  }
  return
}

// -----

// Bounds per component (a broadcast operand, a projected map), a dynamic
// size, linalg.index and the output on the left of the ori.
// CHECK-LABEL: func.func @per_component
// CHECK-SAME: (%[[I:.*]]: memref<?x2xi64>, %[[N:.*]]: memref<2xi64>, %[[F:.*]]: memref<i1>)
// CHECK: %[[D:.*]] = memref.dim %[[I]], %{{.*}}
// CHECK: scf.parallel (%[[A:.*]], %[[B:.*]]) = ({{.*}}) to (%[[D]], %{{.*}})
// CHECK: memref.load %[[I]][%[[A]], %[[B]]]
// CHECK: memref.load %[[N]][%[[B]]]
// CHECK: arith.cmpi eq, %[[A]]
// CHECK: scf.if
// CHECK: memref.store
func.func @per_component(%i: memref<?x2xi64>, %n: memref<2xi64>, %flag: memref<i1>) {
  %c3 = arith.constant 3 : index
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> ()>],
                  iterator_types = ["reduction", "reduction"]}
      ins(%i, %n : memref<?x2xi64>, memref<2xi64>) outs(%flag : memref<i1>) {
  ^bb0(%in: i64, %bound: i64, %out: i1):
    %row = linalg.index 0 : index
    %first = arith.cmpi eq, %row, %c3 : index
    %big = arith.cmpi sge, %in, %bound : i64
    %bad = arith.andi %first, %big : i1
    %r = arith.ori %bad, %out : i1
    linalg.yield %r : i1
  }
  return
}

// -----

// Not an "any": a parallel loop, an "all" (andi), a float reduction and an
// output read twice stay as they are.
// CHECK-LABEL: func.func @others
// CHECK-NOT: scf.parallel
// CHECK-COUNT-4: linalg.generic
func.func @others(%b: memref<4xi1>, %x: memref<4xf32>, %o: memref<4xi1>, %f: memref<i1>, %s: memref<f32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                  iterator_types = ["parallel"]}
      ins(%b : memref<4xi1>) outs(%o : memref<4xi1>) {
  ^bb0(%in: i1, %out: i1):
    %r = arith.ori %out, %in : i1
    linalg.yield %r : i1
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>],
                  iterator_types = ["reduction"]}
      ins(%b : memref<4xi1>) outs(%f : memref<i1>) {
  ^bb0(%in: i1, %out: i1):
    %r = arith.andi %out, %in : i1
    linalg.yield %r : i1
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>],
                  iterator_types = ["reduction"]}
      ins(%x : memref<4xf32>) outs(%s : memref<f32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %out, %in : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>],
                  iterator_types = ["reduction"]}
      ins(%b : memref<4xi1>) outs(%f : memref<i1>) {
  ^bb0(%in: i1, %out: i1):
    %x1 = arith.xori %in, %out : i1
    %r = arith.ori %out, %x1 : i1
    linalg.yield %r : i1
  }
  return
}
