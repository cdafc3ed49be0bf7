# Sourced by the build scripts: sets `launcher` to the CMake options that
# run compiles through ccache (when installed), with the settings under which
# ccache caches compiles that use dlc's precompiled header (without them each
# such compile is a miss): the PCH sloppiness ccache's manual asks for, paths
# relative to the checkout and the build directory left out of the hash of
# compiles with debug information. Rebuilds of one checkout hit; another
# clone hits for the compiles without the PCH only (the PCH holds absolute
# paths). The settings travel inside the launcher, so a later plain `ninja`
# keeps them.
# Needs $root (the checkout).
launcher=()
if command -v ccache >/dev/null; then
  cc_env="env;CCACHE_BASEDIR=$root;CCACHE_NOHASHDIR=1;CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime;ccache"
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER="$cc_env" -DCMAKE_CXX_COMPILER_LAUNCHER="$cc_env")
fi
