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
