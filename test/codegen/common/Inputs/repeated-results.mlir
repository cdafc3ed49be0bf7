module {
  func.func @main(%arg0: tensor<2xf32> {dlc.dtype = 1 : i32, dlc.name = "x"}) -> (tensor<2xf32> {dlc.dtype = 1 : i32, dlc.name = "y0"}, tensor<2xf32> {dlc.dtype = 1 : i32, dlc.name = "c1"}, tensor<2xf32> {dlc.dtype = 1 : i32, dlc.name = "c2"}) {
    %0 = dlc.neg %arg0 : tensor<2xf32>
    %1 = dlc.relu %arg0 : tensor<2xf32>
    %2 = dlc.relu %arg0 : tensor<2xf32>
    return %0, %1, %2 : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
  }
}
