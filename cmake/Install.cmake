# Install rules and the CMake package of dlc (find_package(dlc)).
include(CMakePackageConfigHelpers)

install(TARGETS dlc dlc-opt RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The runtime archive goes where `dlc compile` looks for it (the library
# directory beside its bin/) and is exported as dlc::runtime.
install(TARGETS dlc_runtime EXPORT dlcTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES runtime/include/dlc/dlc_runtime.h
              runtime/include/dlc/dlc_model_abi.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/dlc)
install(FILES README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR})

set(DLC_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/dlc)
install(EXPORT dlcTargets NAMESPACE dlc:: DESTINATION ${DLC_CMAKE_DIR})
configure_package_config_file(cmake/dlcConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/dlcConfig.cmake
  INSTALL_DESTINATION ${DLC_CMAKE_DIR}
  PATH_VARS CMAKE_INSTALL_BINDIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/cmake/dlcConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/cmake/dlcConfig.cmake
              ${PROJECT_BINARY_DIR}/cmake/dlcConfigVersion.cmake
              cmake/dlcAddModel.cmake
        DESTINATION ${DLC_CMAKE_DIR})

# `cpack --config build/CPackConfig.cmake`: a Debian package of the above
# (under /usr), stripped, whose dependencies dpkg-shlibdeps computes from
# dlc's shared libraries (LLVM, ONNX, protobuf, ...) plus the OpenMP
# runtime that `dlc run|bench` load and CPU libraries link (libomp) and
# LLVM, named as well (dlc finds it through an llvm-22-dev path).
set(CPACK_PACKAGE_NAME dlc)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "dlc developers <dlc@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "ahead-of-time compiler of ONNX models into native CPU and CUDA libraries")
set(CPACK_GENERATOR DEB)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libomp-22-dev, libllvm22")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
include(CPack)
