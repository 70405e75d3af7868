// Precompiled for the suites that link the ui library (tests/CMakeLists.txt):
// the ui library's headers and Qt Test's.
#pragma once

#include "ui/pch.h"
#include "pch_core.h"

#include <QAbstractItemModelTester>
