// The TestBadInput suite (tst_badinput.cpp and the files beside it): its class, and
// the helpers that more than one of its files use.
#pragma once

#include "testsupport.h"

#include "core/format/encoder.h"
#include "core/format/eventtags.h"
#include "core/load/indexbuilder.h"
#include "core/load/loader.h"
#include "core/io/bytesource.h"
#include "core/text/printer.h"

#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include "core/order/timeorder.h"

#include <algorithm>
#include <iterator>
#include <memory>

using namespace hecscope;
using namespace hecscope::test;

namespace badinputtest {

// One delivered event: where it was, what it was, and its `show` line.
struct Record {
    uint64_t offset = 0;
    uint32_t size = 0;
    uint64_t time = 0;
    uint16_t tag = 0;
    uint16_t cap = 0;
    std::string line;
    bool operator==(const Record&) const = default;
};

struct RecordingSink final : EventSink {
    void onHeader(const std::shared_ptr<const LogFormat>& f) override
    {
        format = f;
        printer = std::make_unique<EventPrinter>(*f);
    }
    void onEvent(const Event& e) override
    {
        TextBuffer text;
        printer->printEvent(e, text);
        records.push_back({e.offset, e.recordSize, e.time, e.tag, e.cap, std::string(text.text())});
    }
    std::shared_ptr<const LogFormat> format;
    std::unique_ptr<EventPrinter> printer;
    std::vector<Record> records;
};

struct Outcome {
    std::shared_ptr<const LogFormat> format;
    std::vector<Record> events;
    std::vector<Diagnostic> diagnostics;
    uint64_t decodedBytes = 0;
    bool hasError = false;
    bool truncated = false;
};

// Decodes `bytes` fed in chunks of the given sizes (cycled; 0 = one chunk).
Outcome decode(const std::vector<uint8_t>& bytes, const std::vector<size_t>& chunks = {0});

// What `hecscope dump` must print for these decoded events: the header, the
// event lines stably sorted by time (ties in file order), the final newline.
// Computed with std::stable_sort, independently of the dump's k-way merge.
std::string expectedDump(const Outcome& o);

// Reports the first differing line of two dumps.
QString firstDifference(const std::string& got, const std::string& want);

// A short, valid log: a block of cap 0 with `count` RUN_THREAD events,
// without DATA_END. Returns the writer to continue with.
std::unique_ptr<EventlogWriter> startLog(int count);

const std::vector<std::vector<size_t>> kChunkings = {{0}, {1}, {7, 3, 64}};

} // namespace badinputtest

using namespace badinputtest;

class TestBadInput : public QObject {
    Q_OBJECT
private slots:
    void notAnEventlog_data();
    void notAnEventlog();
    void headerCutAtEveryOffset_data();
    void headerCutAtEveryOffset();
    void undeclaredTag_data();
    void undeclaredTag();
    void shortPayload_data();
    void shortPayload();
    void badBlockSize_data();
    void badBlockSize();
    void timeAgainstItsBlock_data();
    void timeAgainstItsBlock();
    void garbageTimeInRealLog_data();
    void garbageTimeInRealLog();
    void trailingDataAfterEnd();
    void trailingDataWherever_data();
    void trailingDataWherever();
    void missingDataEnd();
    void truncatedAtEveryOffset_data();
    void truncatedAtEveryOffset();
    void capabilityOwnership();
    void tiesKeepFileOrder();
    void outOfOrderBlocksAreSorted();
    void largeShuffledLogIsSorted_data();
    void largeShuffledLogIsSorted();
    void hostileOrderKeepsMemorySmall_data();
    void hostileOrderKeepsMemorySmall();
    void tinyBlocksGiveUpPieces();
    void extremeTimestamps();
    void mutationFuzz();
};
