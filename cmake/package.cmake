# `cpack -G DEB` (in a build directory): a Debian package of what `cmake --install` installs:
# headers, libraries, the `stealcheck` command, its man page, the CMake package files, and
# LICENSE, CITATION.cff, CHANGELOG.md under /usr/share/doc/stealcheck. Its dependencies are the
# Debian packages a project that uses the installed package needs (find_dependency in
# stealcheckConfig.cmake, and the runtime libraries of the command).
set(CPACK_PACKAGE_NAME stealcheck)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "The stealcheck developers")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "verification, testing and benchmarking for work-stealing deques")
set(CPACK_PACKAGE_DESCRIPTION
    "An RC11 model checker, native stress and linearizability checks, mutation analysis and a\
 GoogleTest conformance suite for work-stealing deques, with the deques of the field's\
 runtimes as reference variants. License: Apache-2.0.")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "The stealcheck developers <stealcheck@invalid>")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "g++ (>= 4:12), cmake (>= 3.25), libgtest-dev, librapidcheck-dev, libcli11-dev, libfmt-dev,\
 nlohmann-json3-dev, libboost-context-dev, libtbb-dev, libnettle8")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS OFF)
# The omp-llvm module of `stealcheck bench` (lib/stealcheck/) loads LLVM's OpenMP runtime if present.
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "libomp5-16")
set(CPACK_GENERATOR DEB)
include(CPack)
# SPDX-License-Identifier: Apache-2.0
