#pragma once

#include "core/format/decoder.h"
#include "core/format/encoder.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <deque>
#include <vector>

// Helpers shared by the tests: where the real logs are, and a canonical text
// form of decoded events so that two decodes can be compared exactly.
namespace hecscope {
struct LogIndex;
}

namespace hecscope::test {

// QCOMPAREs every part of two indexes (timelines, threads, collections,
// instants, heap, messages): call from a test function.
void compareIndexes(const LogIndex& a, const LogIndex& b);

QString conformanceDir(); // ../shared/conformance, or empty when absent
QStringList conformanceLogs(const QString& subdir); // absolute paths of *.eventlog
QStringList testdataLogs();                         // testdata/logs/*.eventlog
// A seed for a test's random choices on the log `log` (a path or a name):
// from its file name only, so that every checkout (CI's fresh clone, a
// developer's tree) tries the same ranges. HECSCOPE_TEST_SEED=N mixes N
// in, to try others.
uint32_t seedOf(const QString& log);
std::vector<uint8_t> readFile(const QString& path);
std::string readText(const QString& path);
// The index of a log's bytes, loaded as a file is (the one loader the
// tests share).
std::unique_ptr<LogIndex> indexOfBytes(const std::vector<uint8_t>& bytes);

// Everything a decode produced, in file order: one line per event with its
// offset, size, capability and printed text; then the diagnostics.
struct Decoded {
    std::vector<std::string> events;
    std::vector<Diagnostic> diagnostics;
    bool sawDataEnd = false;
};

// Feeds `bytes` to a StreamDecoder in chunks of the given sizes (cycled;
// empty = one chunk) and records the outcome.
Decoded decodeInChunks(const std::vector<uint8_t>& bytes, const std::vector<size_t>& chunkSizes = {});

// `hecscope dump` of in-memory bytes, as a string. `threads` as in dumpLog.
std::string dumpBytes(const std::vector<uint8_t>& bytes, bool legacy = false, unsigned threads = 0);

// Writes an eventlog with the project's encoder: events into blocks of one
// capability each, in the order given, then (unless told not to) the
// end-of-data marker.
class LogBuilder {
public:
    LogBuilder();
    LogBuilder& block(uint16_t cap, std::initializer_list<OwnedEvent> events);
    LogBuilder& block(uint16_t cap, const std::deque<OwnedEvent>& events); // (made in a loop)
    std::vector<uint8_t> bytes(bool dataEnd = true);

private:
    template <class Events>
    LogBuilder& writeBlock(uint16_t cap, const Events& events);
    EventlogWriter m_w;
};

// A log whose capability 1 has its first block after capability 0's,
// with events earlier than the end of that block and no event naming
// capability 1 before: a load or live session that walked capability 0's
// thread events for good before it came has to walk them again.
std::vector<uint8_t> lateCapabilityLog();

// The built binary run to completion with `args` (and `input` on stdin).
// The wait is a guard against a hung child, not a timing assertion;
// exitCode is -1 when it did not start, crashed or hung.
struct Run {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};
Run runHecscope(const QStringList& args, const QByteArray& input = {});

// A .hp heap profile read the simple way, independently of core/hpfile:
// header values without quotes, complete samples' times (ns, from the
// decimal digits) and totals, and the band names as written.
struct RawHp {
    std::map<std::string, std::string> header; // JOB, DATE, ... without quotes
    std::vector<uint64_t> times, totals;       // per complete sample
    std::set<std::string> names;               // band names as written
    size_t endLines = 0;
};
RawHp parseHpSimply(const std::string& text);

} // namespace hecscope::test
