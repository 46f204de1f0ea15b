# The installable library: libbough.so with a soname, the public headers, a CMake package
# (find_package(bough) gives bough::bough) and a pkg-config file. The protobuf and pugixml
# code stays inside the shared library: nothing of it is in include/bough/.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

add_library(bough_shared SHARED $<TARGET_OBJECTS:bough_objects>)
set_target_properties(bough_shared PROPERTIES
  OUTPUT_NAME bough
  EXPORT_NAME bough
  VERSION ${PROJECT_VERSION}
  # 0.x: any minor version may change the ABI.
  SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR})
target_include_directories(bough_shared PUBLIC
  $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
target_link_libraries(bough_shared PRIVATE bough_proto Threads::Threads pugixml::pugixml
  PkgConfig::RE2 PkgConfig::HWY ${BOUGH_IMAGE_LIBS})
target_compile_features(bough_shared INTERFACE cxx_std_20)
# Nothing from the static libraries it pulls in (protobuf-lite's code stays in its own .so).
# Not in the clang-built ASan/UBSan build: clang leaves a shared library's sanitizer runtime
# to the program that loads it, so its symbols are undefined here.
if(NOT BOUGH_SANITIZE)
  target_link_options(bough_shared PRIVATE -Wl,--no-undefined)
endif()
# The static libraries linked in (the ONNX protobuf classes) export nothing either.
target_link_options(bough_shared PRIVATE -Wl,--exclude-libs,ALL)
# And the standard library's instantiations over public types (std::vector<bough::Value>)
# stay inside too: only namespace bough is global (cmake/libbough.map).
target_link_options(bough_shared PRIVATE
  -Wl,--version-script=${CMAKE_CURRENT_SOURCE_DIR}/cmake/libbough.map)
set_target_properties(bough_shared PROPERTIES
  LINK_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/cmake/libbough.map)

install(TARGETS bough_shared EXPORT boughTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS bough RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY include/bough DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

set(BOUGH_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/bough)
install(EXPORT boughTargets NAMESPACE bough:: DESTINATION ${BOUGH_CMAKE_DIR})
configure_package_config_file(cmake/boughConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/boughConfig.cmake INSTALL_DESTINATION ${BOUGH_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/boughConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/boughConfig.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/boughConfigVersion.cmake DESTINATION ${BOUGH_CMAKE_DIR})

file(RELATIVE_PATH BOUGH_PC_TO_PREFIX /p/${CMAKE_INSTALL_LIBDIR}/pkgconfig /p)
configure_file(cmake/bough.pc.in ${CMAKE_CURRENT_BINARY_DIR}/bough.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/bough.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
