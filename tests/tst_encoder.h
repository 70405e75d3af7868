// The TestEncoder suite (tst_encoder.cpp and the files beside it): its class, and
// the helpers that more than one of its files use.
#pragma once

#include "testsupport.h"

#include "core/format/encoder.h"
#include "core/format/eventtags.h"

#include <QFileInfo>
#include <QTest>

#include <array>
#include <memory>

using namespace hecscope;
using namespace hecscope::test;

namespace encodertest {

// Re-encodes, in file order, every event a decode delivers into a writer
// declaring the same types: decoding and encoding are inverses only if the
// result is the original byte for byte.
struct ReencodingSink final : EventSink {
    void onHeader(const std::shared_ptr<const LogFormat>& format) override
    {
        writer = std::make_unique<EventlogWriter>(format->declarations());
    }
    void onEvent(const Event& e) override { writer->write(e); }
    std::unique_ptr<EventlogWriter> writer;
};

struct Reencoded {
    std::vector<uint8_t> bytes;
    uint64_t decodedBytes = 0;
    bool hasError = false;
};

Reencoded reencode(const std::vector<uint8_t>& original);

// An OwnedEvent built from run-time lists (the constructor takes
// initializer lists only).
std::unique_ptr<OwnedEvent> makeEvent(uint16_t t, uint64_t time, const std::vector<uint64_t>& n,
                                      const std::vector<std::string>& s = {},
                                      const std::vector<uint32_t>& ids = {});

std::vector<EventTypeDecl> declarationsWith(std::initializer_list<std::pair<uint16_t, uint16_t>> sizes);

// The text `hecscope dump` prints after "Events:\n" for these bytes.
std::string eventsSection(const std::vector<uint8_t>& bytes, bool legacy = false);

// A literal's bytes including embedded NULs (without the terminator).
template <size_t N>
QByteArray raw(const char (&literal)[N])
{
    return QByteArray(literal, qsizetype(N - 1));
}

} // namespace encodertest

using namespace encodertest;

class TestEncoder : public QObject {
    Q_OBJECT
private slots:
    void everyTypeRoundTrips();
    void olderLayoutsRoundTrip();
    void tickyOptionalFields();
    void trailingBytesSurvive();
    void unknownPayloadsSurvive();
    void unusualDeclarations();
    void oversizedPayloadKeepsLogReadable();
    void printedText_data();
    void printedText();
    void realLogsReencodeIdentically_data();
    void realLogsReencodeIdentically();
};
