// RUN: dlc-opt %s -split-input-file --dlc-cpu-lower-vectors --mlir-print-local-scope | FileCheck %s
// RUN: dlc-opt %s -split-input-file --dlc-cpu-lower-vectors=scalar-element-loads=true --mlir-print-local-scope | FileCheck %s --check-prefix=SCALAR

// A matmul-shaped contraction (m x k times k x n) becomes outer products:
// one vector.fma per (row, k) on rows of n = 16 lanes (8 in all), chained
// along k.
// CHECK-LABEL: func.func @contract_matmul
// CHECK-SAME:    (%[[A:.+]]: vector<4x2xf32>, %[[B:.+]]: vector<2x16xf32>, %[[C:.+]]: vector<4x16xf32>)
// CHECK-NOT:     vector.contract
// CHECK:         %[[B0:.+]] = vector.extract %[[B]][0] : vector<16xf32> from vector<2x16xf32>
// CHECK:         %[[A00:.+]] = vector.extract %[[A]][0, 0] : f32 from vector<4x2xf32>
// CHECK:         %[[S00:.+]] = vector.broadcast %[[A00]] : f32 to vector<16xf32>
// CHECK:         %[[C0:.+]] = vector.extract %[[C]][0] : vector<16xf32> from vector<4x16xf32>
// CHECK:         %[[F0:.+]] = vector.fma %[[S00]], %[[B0]], %[[C0]] : vector<16xf32>
// CHECK-COUNT-3: vector.fma {{.+}}, %[[B0]], {{.+}} : vector<16xf32>
// CHECK:         %[[B1:.+]] = vector.extract %[[B]][1] : vector<16xf32> from vector<2x16xf32>
// CHECK:         %[[A01:.+]] = vector.extract %[[A]][0, 1] : f32 from vector<4x2xf32>
// CHECK:         %[[S01:.+]] = vector.broadcast %[[A01]] : f32 to vector<16xf32>
// CHECK:         vector.fma %[[S01]], %[[B1]], %[[F0]] : vector<16xf32>
// CHECK-COUNT-3: vector.fma {{.+}}, %[[B1]], {{.+}} : vector<16xf32>
// CHECK-NOT:     vector.contract
// CHECK-NOT:     vector.fma
// CHECK:         return
func.func @contract_matmul(%a: vector<4x2xf32>, %b: vector<2x16xf32>, %c: vector<4x16xf32>) -> vector<4x16xf32> {
  %0 = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                        iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
       %a, %b, %c : vector<4x2xf32>, vector<2x16xf32> into vector<4x16xf32>
  return %0 : vector<4x16xf32>
}

// -----

// The contraction a decomposed 1-D convolution tile vectorizes to
// (n, w, f, c): FMAs along the filter dim, one per output column.
// CHECK-LABEL: func.func @contract_conv1d
// CHECK-NOT:     vector.contract
// CHECK-COUNT-16: vector.fma {{.+}} : vector<8xf32>
// CHECK-NOT:     vector.contract
// CHECK:         return
func.func @contract_conv1d(%a: vector<1x16x1xf32>, %b: vector<1x8xf32>, %c: vector<1x16x8xf32>) -> vector<1x16x8xf32> {
  %0 = vector.contract {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>],
                        iterator_types = ["parallel", "parallel", "parallel", "reduction"], kind = #vector.kind<add>}
       %a, %b, %c : vector<1x16x1xf32>, vector<1x8xf32> into vector<1x16x8xf32>
  return %0 : vector<1x16x8xf32>
}

// -----

// vector.outerproduct itself lowers to one FMA per lhs element.
// CHECK-LABEL: func.func @outerproduct
// CHECK-NOT:     vector.outerproduct
// CHECK-COUNT-4: vector.fma {{.+}} : vector<16xf32>
// CHECK-NOT:     vector.outerproduct
func.func @outerproduct(%a: vector<4xf32>, %b: vector<16xf32>, %c: vector<4x16xf32>) -> vector<4x16xf32> {
  %0 = vector.outerproduct %a, %b, %c {kind = #vector.kind<add>} : vector<4xf32>, vector<16xf32>
  return %0 : vector<4x16xf32>
}

// -----

// A reduction over the outer dim: elementwise ops across the parallel lanes.
// CHECK-LABEL: func.func @multi_reduction_outer
// CHECK-SAME:    (%[[V:.+]]: vector<4x16xf32>, %[[ACC:.+]]: vector<16xf32>)
// CHECK-NOT:     vector.multi_reduction
// CHECK:         %[[R0:.+]] = vector.extract %[[V]][0] : vector<16xf32> from vector<4x16xf32>
// CHECK:         %[[M0:.+]] = arith.maximumf %[[R0]], %[[ACC]] : vector<16xf32>
// CHECK:         %[[R1:.+]] = vector.extract %[[V]][1] : vector<16xf32> from vector<4x16xf32>
// CHECK:         %[[M1:.+]] = arith.maximumf %[[R1]], %[[M0]] : vector<16xf32>
// CHECK:         %[[R2:.+]] = vector.extract %[[V]][2] : vector<16xf32> from vector<4x16xf32>
// CHECK:         %[[M2:.+]] = arith.maximumf %[[R2]], %[[M1]] : vector<16xf32>
// CHECK:         %[[R3:.+]] = vector.extract %[[V]][3] : vector<16xf32> from vector<4x16xf32>
// CHECK:         %[[M3:.+]] = arith.maximumf %[[R3]], %[[M2]] : vector<16xf32>
// CHECK:         return %[[M3]]
func.func @multi_reduction_outer(%v: vector<4x16xf32>, %acc: vector<16xf32>) -> vector<16xf32> {
  %0 = vector.multi_reduction <maximumf>, %v, %acc [0] : vector<4x16xf32> to vector<16xf32>
  return %0 : vector<16xf32>
}

// -----

// A reduction over the inner dim is transposed (a shuffle) so that it, too,
// becomes elementwise adds across the 4 parallel lanes.
// CHECK-LABEL: func.func @multi_reduction_inner
// CHECK-SAME:    (%[[V:.+]]: vector<4x16xf32>, %[[ACC:.+]]: vector<4xf32>)
// CHECK-NOT:     vector.multi_reduction
// CHECK:         vector.shuffle
// CHECK:         %[[S0:.+]] = arith.addf %{{.+}}, %[[ACC]] : vector<4xf32>
// CHECK:         %[[S1:.+]] = arith.addf %{{.+}}, %[[S0]] : vector<4xf32>
// CHECK-COUNT-14: arith.addf {{.+}} : vector<4xf32>
// CHECK-NOT:     vector.multi_reduction
// CHECK-NOT:     vector.reduction
// CHECK:         return
func.func @multi_reduction_inner(%v: vector<4x16xf32>, %acc: vector<4xf32>) -> vector<4xf32> {
  %0 = vector.multi_reduction <add>, %v, %acc [1] : vector<4x16xf32> to vector<4xf32>
  return %0 : vector<4xf32>
}

// -----

// Transposes become a flat 1-D shuffle.
// CHECK-LABEL: func.func @transpose
// CHECK-NOT:     vector.transpose
// CHECK:         vector.shuffle %{{.+}}, %{{.+}} [0, 8, 16, 24, 1, 9, 17, 25, 2, 10, 18, 26, 3, 11, 19, 27, 4, 12, 20, 28, 5, 13, 21, 29, 6, 14, 22, 30, 7, 15, 23, 31] : vector<32xf32>, vector<32xf32>
// CHECK-NOT:     vector.transpose
func.func @transpose(%v: vector<4x8xf32>) -> vector<8x4xf32> {
  %0 = vector.transpose %v, [1, 0] : vector<4x8xf32> to vector<8x4xf32>
  return %0 : vector<8x4xf32>
}

// -----

// n-D broadcasts and shape casts become inserts and extracts of 1-D vectors.
// CHECK-LABEL: func.func @broadcast_shape_cast
// CHECK-SAME:    (%[[V:.+]]: vector<16xf32>, %[[W:.+]]: vector<1x16xf32>)
// CHECK-NOT:     vector.broadcast
// CHECK-NOT:     vector.shape_cast
// CHECK:         %[[I0:.+]] = vector.insert %[[V]], %{{.+}} [0] : vector<16xf32> into vector<4x16xf32>
// CHECK:         %[[I1:.+]] = vector.insert %[[V]], %[[I0]] [1] : vector<16xf32> into vector<4x16xf32>
// CHECK:         %[[I2:.+]] = vector.insert %[[V]], %[[I1]] [2] : vector<16xf32> into vector<4x16xf32>
// CHECK:         %[[I3:.+]] = vector.insert %[[V]], %[[I2]] [3] : vector<16xf32> into vector<4x16xf32>
// CHECK:         %[[E:.+]] = vector.extract %[[W]][0] : vector<16xf32> from vector<1x16xf32>
// CHECK:         return %[[I3]], %[[E]]
func.func @broadcast_shape_cast(%v: vector<16xf32>, %w: vector<1x16xf32>) -> (vector<4x16xf32>, vector<16xf32>) {
  %0 = vector.broadcast %v : vector<16xf32> to vector<4x16xf32>
  %1 = vector.shape_cast %w : vector<1x16xf32> to vector<16xf32>
  return %0, %1 : vector<4x16xf32>, vector<16xf32>
}

// -----

// In-bounds 1-D transfers become plain vector loads and stores; a
// broadcasting permutation map becomes a load and inserts.
// CHECK-LABEL: func.func @transfers
// CHECK-SAME:    (%[[M:.+]]: memref<4x16xf32>, %[[N:.+]]: memref<16xf32>, %[[I:.+]]: index)
// CHECK-NOT:     vector.transfer_
// CHECK:         %[[V:.+]] = vector.load %[[M]][%[[I]], %{{.+}}] : memref<4x16xf32>, vector<16xf32>
// CHECK:         vector.store %[[V]], %[[M]][%[[I]], %{{.+}}] : memref<4x16xf32>, vector<16xf32>
// CHECK:         %[[L:.+]] = vector.load %[[N]][%{{.+}}] : memref<16xf32>, vector<16xf32>
// CHECK-COUNT-4: vector.insert %[[L]], {{.+}} : vector<16xf32> into vector<4x16xf32>
// CHECK-NOT:     vector.transfer_
func.func @transfers(%m: memref<4x16xf32>, %n: memref<16xf32>, %i: index) -> vector<4x16xf32> {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.0 : f32
  %0 = vector.transfer_read %m[%i, %c0], %p {in_bounds = [true]} : memref<4x16xf32>, vector<16xf32>
  vector.transfer_write %0, %m[%i, %c0] {in_bounds = [true]} : vector<16xf32>, memref<4x16xf32>
  %1 = vector.transfer_read %n[%c0], %p {in_bounds = [true, true], permutation_map = affine_map<(d0) -> (0, d0)>} : memref<16xf32>, vector<4x16xf32>
  return %1 : vector<4x16xf32>
}

// -----

// The input columns of an outer product (a convolution tile's 6 columns)
// are read as a vector and broadcast one element at a time. With
// scalar-element-loads (x86) each element is a scalar load, which LLVM
// broadcasts from memory; otherwise the vector read stays (LLVM splits a
// read of 6 into 4 + 2 lanes and broadcasts the last two through a permute).
// CHECK-LABEL:  func.func @element_loads
// CHECK:          vector.load {{.+}} : memref<64xf32>, vector<6xf32>
// CHECK-NOT:      memref.load
// CHECK:          return
// SCALAR-LABEL: func.func @element_loads
// SCALAR-SAME:    (%[[M:.+]]: memref<64xf32>, %[[I:.+]]: index
// SCALAR-NOT:     vector.load
// SCALAR:         memref.load %[[M]][%[[I]]] : memref<64xf32>
// SCALAR-COUNT-5: memref.load %[[M]][%{{.+}}] : memref<64xf32>
// SCALAR:         vector.fma {{.+}} : vector<16xf32>
// SCALAR-NOT:     vector.load
// SCALAR:         return
func.func @element_loads(%m: memref<64xf32>, %i: index, %b: vector<16xf32>, %c: vector<6x16xf32>) -> vector<6x16xf32> {
  %p = arith.constant 0.0 : f32
  %a = vector.transfer_read %m[%i], %p {in_bounds = [true]} : memref<64xf32>, vector<6xf32>
  %0 = vector.outerproduct %a, %b, %c : vector<6xf32>, vector<16xf32>
  return %0 : vector<6x16xf32>
}

// -----

// The scalar loads take the read's place: a store to the same memory
// between the read and an extract (a workspace buffer the memory plan
// reuses) must not be seen by them.
// SCALAR-LABEL: func.func @element_loads_before_store
// SCALAR-SAME:    (%[[M:.+]]: memref<4xf32>
// SCALAR:         %[[L:.+]] = memref.load %[[M]][%{{.+}}] : memref<4xf32>
// SCALAR:         vector.store {{.+}}, %[[M]]
// SCALAR:         return %[[L]]
func.func @element_loads_before_store(%m: memref<4xf32>, %v: vector<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %p = arith.constant 0.0 : f32
  %a = vector.transfer_read %m[%c0], %p {in_bounds = [true]} : memref<4xf32>, vector<4xf32>
  vector.transfer_write %v, %m[%c0] {in_bounds = [true]} : vector<4xf32>, memref<4xf32>
  %e = vector.extract %a[2] : f32 from vector<4xf32>
  return %e : f32
}
