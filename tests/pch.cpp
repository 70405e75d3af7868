// The precompiled headers of the test suites are built with this file (tests/CMakeLists.txt).
