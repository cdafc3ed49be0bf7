// REQUIRES: valgrind
// RUN: valgrind -q --error-exitcode=9 dlc-opt %S/tile-and-fuse.mlir -split-input-file --dlc-cpu-tile-and-fuse -o /dev/null

// dlc-cpu-tile-and-fuse erases each op once its tiled form replaces it; a
// read of the erased op's attributes afterwards (its reduction order, its
// unfused inputs) crashed `dlc compile` of ResNet-50 at batch 8 now and
// then, and could have read a stale order. Valgrind reports any such read
// over tile-and-fuse.mlir's cases (those attributes included).
