# dlc_add_model(TARGET <target> MODEL <model.onnx>
#               [TARGET_DEVICE cpu|cuda] [NAME <name>] [OPTIONS <opt>...])
#
# Compiles MODEL with `dlc compile` at build time (a custom command that
# depends on the model file and on dlc, so that editing either rebuilds it)
# into lib<name>.a and <name>.h under the build directory, and makes
# <target> an interface library that carries them: the header's directory,
# the archive and its link flags (OpenMP and libm for the CPU, -ldl for
# CUDA, threads). `target_link_libraries(app PRIVATE <target>)` is all an
# application needs. NAME (the header and symbol prefix, default: the
# target's name) must be a C identifier. OPTIONS go to `dlc compile` as
# given (e.g. --mcpu x86-64-v3, --batch-split 2, --gpu-arch sm_90).
function(dlc_add_model)
  cmake_parse_arguments(ARG "" "TARGET;MODEL;TARGET_DEVICE;NAME" "OPTIONS"
                        ${ARGN})
  if(NOT ARG_TARGET OR NOT ARG_MODEL)
    message(FATAL_ERROR "dlc_add_model: TARGET and MODEL are required")
  endif()
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR
      "dlc_add_model: unknown arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ARG_NAME)
    set(ARG_NAME ${ARG_TARGET})
  endif()
  if(NOT ARG_NAME MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
    message(FATAL_ERROR
      "dlc_add_model: NAME '${ARG_NAME}' is not a C identifier (it "
      "prefixes every symbol; give NAME for targets such as '${ARG_TARGET}')")
  endif()
  if(NOT ARG_TARGET_DEVICE)
    set(ARG_TARGET_DEVICE cpu)
  endif()
  if(NOT ARG_TARGET_DEVICE MATCHES "^(cpu|cuda)$")
    message(FATAL_ERROR
      "dlc_add_model: TARGET_DEVICE is '${ARG_TARGET_DEVICE}'; it takes cpu "
      "or cuda")
  endif()
  get_filename_component(model ${ARG_MODEL} ABSOLUTE)
  set(out ${CMAKE_CURRENT_BINARY_DIR}/${ARG_TARGET}.dlc)
  set(archive ${out}/lib${ARG_NAME}.a)
  add_custom_command(
    OUTPUT ${archive} ${out}/${ARG_NAME}.h
    COMMAND dlc::dlc compile ${model} -o ${out} --name ${ARG_NAME}
            --target ${ARG_TARGET_DEVICE} ${ARG_OPTIONS}
    DEPENDS ${model} dlc::dlc
    COMMENT "dlc: compiling ${ARG_MODEL} for ${ARG_TARGET_DEVICE}"
    VERBATIM)
  add_custom_target(${ARG_TARGET}_dlc_compile DEPENDS ${archive})
  add_library(${ARG_TARGET} INTERFACE)
  add_dependencies(${ARG_TARGET} ${ARG_TARGET}_dlc_compile)
  file(MAKE_DIRECTORY ${out})
  target_include_directories(${ARG_TARGET} INTERFACE ${out})
  find_package(Threads REQUIRED)
  target_link_libraries(${ARG_TARGET} INTERFACE ${archive} Threads::Threads
                        ${CMAKE_DL_LIBS})
  if(ARG_TARGET_DEVICE STREQUAL "cpu")
    target_link_libraries(${ARG_TARGET} INTERFACE ${DLC_LIBOMP} m)
  endif()
endfunction()
