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

// -----

// dlc.check_indices with one bound per component of an index tuple
// (GatherND's [3, 4]): the bounds are read along the last dimension.
// Without index-checks it is its indices.
// CHECK-LABEL: func.func @check_indices_per_component
// CHECK-SAME:    (%[[I:.+]]: tensor<5x2xi64>)
// CHECK:         %[[N:.+]] = arith.constant dense<[3, 4]> : tensor<2xi64>
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%[[I]], %[[N]] : tensor<5x2xi64>, tensor<2xi64>)
// CHECK:           arith.cmpi slt
// CHECK:           arith.cmpi sge
// CHECK:         dlc.report %{{.+}}, "node 'nd' (GatherND): an index is outside the data dimension it addresses (sizes 3, 4)"
// CHECK:         return %[[I]]
// OFF-LABEL: func.func @check_indices_per_component
// OFF-SAME:    (%[[I:.+]]: tensor<5x2xi64>)
// OFF-NOT:     dlc.report
// OFF:         return %[[I]]
func.func @check_indices_per_component(%i: tensor<5x2xi64>) -> tensor<5x2xi64> {
  %n = dlc.constant dense<[3, 4]> : tensor<2xi64>
  %0 = dlc.check_indices %i, %n {op_type = "GatherND"} : tensor<5x2xi64>, tensor<2xi64> loc("nd")
  return %0 : tensor<5x2xi64>
}

// -----

// One bound for all (ScatterElements' axis), i32 indices.
// CHECK-LABEL: func.func @check_indices_one_bound
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (0)>, affine_map<(d0, d1) -> ()>]
// CHECK:         dlc.report %{{.+}}, "node 'se' (ScatterElements): an index is outside [-6, 6)"
func.func @check_indices_one_bound(%i: tensor<2x3xi32>) -> tensor<2x3xi32> {
  %n = dlc.constant dense<6> : tensor<1xi64>
  %0 = dlc.check_indices %i, %n {op_type = "ScatterElements"} : tensor<2x3xi32>, tensor<1xi64> loc("se")
  return %0 : tensor<2x3xi32>
}

// -----

// Bounds known at run time only (a dynamic data dimension).
// CHECK-LABEL: func.func @check_indices_run_time_bounds
// CHECK:         dlc.report %{{.+}}, "node 'nd' (GatherND): an index is outside the data dimension it addresses"
func.func @check_indices_run_time_bounds(%i: tensor<?x2xi64>, %n: tensor<2xi64>) -> tensor<?x2xi64> {
  %0 = dlc.check_indices %i, %n {op_type = "GatherND"} : tensor<?x2xi64>, tensor<2xi64> loc("nd")
  return %0 : tensor<?x2xi64>
}

// -----

// Constant indices within constant bounds: no run-time check; against
// bounds known at run time only, one.
// CHECK-LABEL: func.func @check_indices_constant
// CHECK:         dlc.report %{{.+}}, "node 'late' (GatherND): an index is outside the data dimension it addresses"
// CHECK-NOT:     dlc.report
// CHECK:         return
func.func @check_indices_constant(%n: tensor<2xi64>) -> (tensor<2x2xi64>, tensor<2x2xi64>) {
  %i = dlc.constant dense<[[3, 2], [0, -3]]> : tensor<2x2xi64>
  %m = dlc.constant dense<[4, 3]> : tensor<2xi64>
  %0 = dlc.check_indices %i, %m {op_type = "GatherND"} : tensor<2x2xi64>, tensor<2xi64> loc("known")
  %1 = dlc.check_indices %i, %n {op_type = "GatherND"} : tensor<2x2xi64>, tensor<2xi64> loc("late")
  return %0, %1 : tensor<2x2xi64>, tensor<2x2xi64>
}
