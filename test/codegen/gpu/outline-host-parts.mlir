// RUN: dlc-opt %s -split-input-file --dlc-gpu-outline-host-parts | FileCheck %s

// The sum of a device buffer to a scalar output placed on the CPU: the
// buffer comes to the host before the part (its host copy a new host
// allocation), the part writes the output's host copy, which goes back to
// the device for the kernel that reads it and the caller. The fill and the
// sum are one part (consecutive), whose loops are sequential.
#id = affine_map<(d0, d1) -> (d0, d1)>
#scalar = affine_map<(d0, d1) -> ()>
#cpu = #dlc.placement<cpu, "named by --cpu-nodes", 10, 20>
memref.global "private" constant @w : memref<4x8xf32> = dense<2.0>
func.func @main(%x: memref<4x8xf32>, %y: memref<4x8xf32>, %s: memref<f32>) {
  %cst = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<4x8xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : memref<4x8xf32>) outs(%a : memref<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %in, %cst : f32
    linalg.yield %r : f32
  } loc("relu")
  linalg.fill {dlc.placement = #cpu} ins(%cst : f32) outs(%s : memref<f32>) loc("sum")
  linalg.generic {indexing_maps = [#id, #scalar], iterator_types = ["reduction", "reduction"], dlc.placement = #cpu} ins(%a : memref<4x8xf32>) outs(%s : memref<f32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.addf %out, %in : f32
    linalg.yield %r : f32
  } loc("sum")
  linalg.generic {indexing_maps = [#id, #scalar, #id], iterator_types = ["parallel", "parallel"]} ins(%a, %s : memref<4x8xf32>, memref<f32>) outs(%y : memref<4x8xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %r = arith.mulf %in, %in2 : f32
    linalg.yield %r : f32
  } loc("scale")
  return
}
// CHECK-LABEL: func.func private @main_host_part0
// CHECK-SAME: (%[[S:.*]]: memref<f32>, %[[A:.*]]: memref<4x8xf32>)
// CHECK-SAME: attributes {dlc.host_part}
// CHECK: memref.store %{{.*}}, %[[S]][]
// CHECK: scf.for
// CHECK: scf.for
// CHECK: memref.load %[[A]]
// CHECK-NOT: linalg
// CHECK: return
// CHECK-LABEL: func.func @main
// CHECK-SAME: dlc.bus_bytes_to_device = 4 : i64, dlc.bus_bytes_to_host = 128 : i64
// CHECK-SAME: dlc.host_parts = [{function = "main_host_part0", nodes = ["sum"], placements = [#dlc.placement<cpu, "named by --cpu-nodes", 10, 20>]}]
// CHECK: %[[HS:.*]] = memref.alloc() {dlc.host} : memref<f32>
// CHECK: %[[HA:.*]] = memref.alloc() {dlc.host} : memref<4x8xf32>
// CHECK: %[[DA:.*]] = memref.alloc() : memref<4x8xf32>
// CHECK: linalg.generic
// CHECK: dlc.transfer %[[DA]] to cpu, %[[HA]] : memref<4x8xf32>
// CHECK-NEXT: call @main_host_part0(%[[HS]], %[[HA]])
// CHECK-NEXT: dlc.transfer %[[HS]] to gpu, %arg2 : memref<f32>
// CHECK-NEXT: linalg.generic

// -----

// A buffer only host parts touch is a host buffer itself (no transfer);
// constants are read in place; a part between two others reads the host
// copy the first one left current (one transfer in, for both).
#id = affine_map<(d0) -> (d0)>
#cpu = #dlc.placement<cpu, "the cost model", 10, 20>
memref.global "private" constant @w : memref<8xf32> = dense<2.0>
func.func @chain(%x: memref<8xf32>, %y: memref<8xf32>) {
  %w = memref.get_global @w : memref<8xf32>
  %t = memref.alloc() : memref<8xf32>
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"], dlc.placement = #cpu} ins(%x, %w : memref<8xf32>, memref<8xf32>) outs(%t : memref<8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  } loc("mul")
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"], dlc.placement = #cpu} ins(%t, %x : memref<8xf32>, memref<8xf32>) outs(%y : memref<8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } loc("add")
  return
}
// CHECK-LABEL: func.func private @chain_host_part0
// CHECK: memref.get_global @w
// CHECK-LABEL: func.func @chain
// CHECK-SAME: dlc.bus_bytes_to_device = 32 : i64, dlc.bus_bytes_to_host = 32 : i64
// CHECK-SAME: nodes = ["mul", "add"]
// CHECK: %[[HY:.*]] = memref.alloc() {dlc.host} : memref<8xf32>
// CHECK: %[[HX:.*]] = memref.alloc() {dlc.host} : memref<8xf32>
// CHECK: %[[T:.*]] = memref.alloc() {dlc.host} : memref<8xf32>
// CHECK: dlc.transfer %arg0 to cpu, %[[HX]]
// CHECK-NEXT: call @chain_host_part0(%[[HX]], %[[T]], %[[HY]])
// CHECK-NEXT: dlc.transfer %[[HY]] to gpu, %arg1
// CHECK-NEXT: return
