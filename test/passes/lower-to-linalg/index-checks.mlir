// RUN: dlc-opt %s -split-input-file --dlc-lower-to-linalg="index-checks=true" --mlir-print-local-scope | FileCheck %s
// RUN: dlc-opt %s -split-input-file --dlc-lower-to-linalg | FileCheck %s --check-prefix=OFF

// Run-time indices: a reduction over them sets a flag when one lies
// outside [-4, 4); dlc.report names the node. Without index-checks there
// is no report.
// CHECK-LABEL: func.func @gather
// CHECK-SAME:    (%{{.+}}: tensor<4x3xf32>, %[[I:.+]]: tensor<2xi64>)
// CHECK:         %[[F:.+]] = linalg.fill ins(%false : i1) outs(%{{.+}} : tensor<i1>)
// CHECK:         %[[R:.+]] = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%[[I]] : tensor<2xi64>) outs(%[[F]] : tensor<i1>)
// CHECK:           %[[LO:.+]] = arith.subi %c0, %c4
// CHECK:           arith.cmpi slt, %{{.+}}, %[[LO]]
// CHECK:           arith.cmpi sge, %{{.+}}, %c4
// CHECK:         %[[B:.+]] = tensor.extract %[[R]][] : tensor<i1>
// CHECK:         dlc.report %[[B]], "node 'g' (Gather): an index is outside [-4, 4)"
// CHECK:         linalg.generic
// CHECK:           arith.minsi
// CHECK:           arith.maxsi
// CHECK:           tensor.extract
// OFF-LABEL: func.func @gather
// OFF-NOT:     dlc.report
func.func @gather(%x: tensor<4x3xf32>, %i: tensor<2xi64>) -> tensor<2x3xf32> {
  %0 = dlc.gather %x, %i {axis = 0 : i64} : tensor<4x3xf32>, tensor<2xi64> -> tensor<2x3xf32> loc("g")
  return %0 : tensor<2x3xf32>
}

// -----

// GatherElements over a dynamic axis: the size comes from tensor.dim and
// the message cannot state it.
// CHECK-LABEL: func.func @gather_elements_dynamic
// CHECK:         tensor.dim
// CHECK:         dlc.report %{{.+}}, "node 'ge' (GatherElements): an index is outside its axis"
func.func @gather_elements_dynamic(%x: tensor<?x3xf32>, %i: tensor<2x3xi32>) -> tensor<2x3xf32> {
  %0 = dlc.gather_elements %x, %i {axis = 0 : i64} : tensor<?x3xf32>, tensor<2x3xi32> -> tensor<2x3xf32> loc("ge")
  return %0 : tensor<2x3xf32>
}

// -----

// Constant indices are checked at compile time, not at run time.
// CHECK-LABEL: func.func @constant_in_range
// CHECK-NOT:     dlc.report
func.func @constant_in_range(%x: tensor<4x3xf32>) -> tensor<2x3xf32> {
  %i = dlc.constant dense<[3, -4]> : tensor<2xi64>
  %0 = dlc.gather %x, %i {axis = 0 : i64} : tensor<4x3xf32>, tensor<2xi64> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
