// RUN: dlc-opt %s -split-input-file --dlc-gpu-select-strategy --dlc-gpu-tile-and-fuse --canonicalize --cse | FileCheck %s

// A softmax (max, exp, sum, divide) is one row kernel: the division roots
// it with the max reduction's config (8 rows per block, a warp per row);
// both reductions and the exponentials are recomputed in the warp's tile,
// the exponentials fused into the sum and into the division, the row's max
// and sum in private buffers.
// CHECK-LABEL: func.func @softmax
// CHECK:         scf.forall (%{{.+}}) = (0) to (64) step (8)
// CHECK:           scf.forall (%{{.+}}) in (8)
// CHECK:             %[[M:.+]] = bufferization.alloc_tensor() {memory_space = #gpu.address_space<private>} : tensor<1xf32>
// CHECK:             %[[MF:.+]] = linalg.fill {{.*}} outs(%[[M]] : tensor<1xf32>)
// CHECK:             %[[MAX:.+]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]{{.*}} outs(%[[MF]] : tensor<1xf32>) attrs =  {dlc.gpu_config = #dlc.gpu_config<kind = reduction
// CHECK:               arith.maximumf
// CHECK:             %[[S:.+]] = bufferization.alloc_tensor() {memory_space = #gpu.address_space<private>} : tensor<1xf32>
// CHECK:             %[[SF:.+]] = linalg.fill {{.*}} outs(%[[S]] : tensor<1xf32>)
// CHECK:             %[[SUM:.+]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]{{.*}} ins(%{{.+}}, %[[MAX]] : tensor<1x128xf32>, tensor<1xf32>) outs(%[[SF]] : tensor<1xf32>) attrs =  {dlc.gpu_config = #dlc.gpu_config<kind = reduction
// CHECK:               math.exp
// CHECK:               arith.addf
// CHECK:             linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]{{.*}} ins(%{{.+}}, %[[MAX]], %[[SUM]] : tensor<1x128xf32>, tensor<1xf32>, tensor<1xf32>) outs(%{{.+}} : tensor<1x128xf32>) attrs =  {dlc.gpu_config = #dlc.gpu_config<kind = reduction
// CHECK:               math.exp
// CHECK:               arith.divf
// CHECK:           } {mapping = [#gpu.warp<linear_dim_0>]}
// CHECK:         } {mapping = [#gpu.block<linear_dim_0>]}
// CHECK-NOT:     linalg.generic
// CHECK:         return
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @softmax(%x: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %rows = tensor.empty() : tensor<64xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%rows : tensor<64xf32>) -> tensor<64xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<64x128xf32>) outs(%mi : tensor<64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %o, %a : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  %full = tensor.empty() : tensor<64x128xf32>
  %e = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %max : tensor<64x128xf32>, tensor<64xf32>) outs(%full : tensor<64x128xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<64x128xf32>
  %si = linalg.fill ins(%zero : f32) outs(%rows : tensor<64xf32>) -> tensor<64xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%e : tensor<64x128xf32>) outs(%si : tensor<64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %o, %a : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%e, %sum : tensor<64x128xf32>, tensor<64xf32>) outs(%full : tensor<64x128xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %r = arith.divf %a, %s : f32
    linalg.yield %r : f32
  } -> tensor<64x128xf32>
  return %y : tensor<64x128xf32>
}

// -----

// A row reduction whose result is also used outside is a kernel of its
// own, and the division an elementwise kernel (threads, not warps) that
// reads it.
// CHECK-LABEL: func.func @shared_sum
// CHECK:         scf.forall
// CHECK:           scf.forall
// CHECK:             arith.addf
// CHECK:           } {mapping = [#gpu.warp<linear_dim_0>]}
// CHECK:         } {mapping = [#gpu.block<linear_dim_0>]}
// CHECK:         scf.forall
// CHECK:           scf.forall
// CHECK:             arith.divf
// CHECK:           } {mapping = [#gpu.thread<linear_dim_1>, #gpu.thread<linear_dim_0>]}
// CHECK:         return
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @shared_sum(%x: tensor<64x128xf32>) -> (tensor<64x128xf32>, tensor<64xf32>) {
  %zero = arith.constant 0.0 : f32
  %rows = tensor.empty() : tensor<64xf32>
  %si = linalg.fill ins(%zero : f32) outs(%rows : tensor<64xf32>) -> tensor<64xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<64x128xf32>) outs(%si : tensor<64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %o, %a : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  %full = tensor.empty() : tensor<64x128xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %sum : tensor<64x128xf32>, tensor<64xf32>) outs(%full : tensor<64x128xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %r = arith.divf %a, %s : f32
    linalg.yield %r : f32
  } -> tensor<64x128xf32>
  return %y, %sum : tensor<64x128xf32>, tensor<64xf32>
}

// -----

// A chain whose input is a gather (an embedding lookup reads no input
// along the row) is not a row kernel (the gather's row would have to be
// kept per lane): the gather, the sum (a warp per row) and the
// subtraction (threads) are kernels of their own.
// CHECK-LABEL: func.func @gathered_rows
// CHECK:         tensor.extract
// CHECK:         } {mapping = [#gpu.thread<linear_dim_1>, #gpu.thread<linear_dim_0>]}
// CHECK:         arith.addf
// CHECK:         } {mapping = [#gpu.warp<linear_dim_0>]}
// CHECK:         arith.subf
// CHECK:         } {mapping = [#gpu.thread<linear_dim_1>, #gpu.thread<linear_dim_0>]}
// CHECK:         return
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @gathered_rows(%ids: tensor<64xi64>, %table: tensor<1000x128xf32>) -> tensor<64x128xf32> {
  %zero = arith.constant 0.0 : f32
  %full = tensor.empty() : tensor<64x128xf32>
  %x = linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]} ins(%ids : tensor<64xi64>) outs(%full : tensor<64x128xf32>) {
  ^bb0(%id: i64, %o: f32):
    %i = arith.index_cast %id : i64 to index
    %j = linalg.index 1 : index
    %v = tensor.extract %table[%i, %j] : tensor<1000x128xf32>
    linalg.yield %v : f32
  } -> tensor<64x128xf32>
  %rows = tensor.empty() : tensor<64xf32>
  %si = linalg.fill ins(%zero : f32) outs(%rows : tensor<64xf32>) -> tensor<64xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<64x128xf32>) outs(%si : tensor<64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %o, %a : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %sum : tensor<64x128xf32>, tensor<64xf32>) outs(%full : tensor<64x128xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %r = arith.subf %a, %s : f32
    linalg.yield %r : f32
  } -> tensor<64x128xf32>
  return %y : tensor<64x128xf32>
}
