// The TestHeap suite (tst_heap.cpp and the files beside it): its class, and
// the helpers that more than one of its files use.
#pragma once

#include "testsupport.h"

#include "core/io/bytesource.h"
#include "core/format/encoder.h"
#include "core/format/eventtags.h"
#include "core/heap/heapbands.h"
#include "core/index/logindex.h"

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <set>
#include <string>
#include <vector>

using namespace hecscope;
using namespace hecscope::test;

namespace heaptest {

// ---------------------------------------------------------------------------
// An independent reading of a log's heap profile, straight from the decoded
// events: a census starts at 162 (time = its timestamp) or 166 (time = its
// census-time field) and holds the 163/164 events up to 165 or the next
// start. Bands are keyed by their label (164) or by their cost-centre ids
// (163, "#id,id,..."), repeats within a census added.

struct RawCensus {
    uint64_t time = 0;                     // ns
    std::map<std::string, uint64_t> bytes; // band key -> bytes, zeros kept
    uint64_t total = 0;
};

struct RawCostCentre {
    std::string label, module;
    bool caf = false;
};

struct RawProfile {
    bool stacks = false;             // bands are cost-centre stacks (163)
    std::vector<RawCensus> censuses; // file order
    std::map<uint32_t, RawCostCentre> costCentres;
};

std::string stackKey(const std::vector<uint32_t>& ids);

class RawHeapSink final : public EventSink {
public:
    explicit RawHeapSink(RawProfile& out)
        : m_out(out)
    {
    }
    void onEvent(const Event& e) override
    {
        switch (e.tag) {
        case tag::HeapProfCostCentre:
            m_out.costCentres[uint32_t(e.n[0])] = {std::string(e.s[0]), std::string(e.s[1]), (e.n[1] & 1) != 0};
            break;
        case tag::HeapProfSampleBegin: open(e.time); break;
        case tag::HeapBioProfSampleBegin: open(e.n[1]); break;
        case tag::HeapProfSampleEnd: m_open = false; break;
        case tag::HeapProfSampleString: add(std::string(e.s[0]), e.n[1]); break;
        case tag::HeapProfSampleCostCentre: {
            m_out.stacks = true;
            std::vector<uint32_t> ids(e.depth);
            for (size_t i = 0; i < ids.size(); ++i) {
                const uint8_t* p = e.ids + 4 * i; // big-endian u32
                ids[i] = uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | p[3];
            }
            add(stackKey(ids), e.n[1]);
            break;
        }
        default: break;
        }
    }

private:
    void open(uint64_t time)
    {
        m_out.censuses.push_back({time, {}, 0});
        m_open = true;
    }
    void add(const std::string& key, uint64_t bytes)
    {
        if (!m_open)
            return;
        m_out.censuses.back().bytes[key] += bytes;
        m_out.censuses.back().total += bytes;
    }

    RawProfile& m_out;
    bool m_open = false;
};

RawProfile decodeRaw(const std::vector<uint8_t>& bytes);

// Band key of every label of the index, in the raw decoder's terms.
std::vector<std::string> labelKeys(const HeapProfileData& hp, bool stacks);

bool near(double got, double want, double relative = 1e-9);

QString nearMessage(const char* expression, double got, double want, const QString& where);

// Compares doubles to a relative 1e-9; `where` names the band or range.
#define COMPARE_NEAR(got, want, where) QVERIFY2(near(got, want), qPrintable(nearMessage(#got, got, want, where)))

// The committed logs with a heap profile (found by the raw decoder) and the
// conformance logs that have one.
void addHeapLogRows();

// ---------------------------------------------------------------------------
// Encoder-written heap profiles: one global block, HEAP_PROF_BEGIN, then
// censuses of string (164) or cost-centre (163) samples.

class HeapLogBuilder {
public:
    explicit HeapLogBuilder(uint32_t breakdown)
        : m_w(EventlogWriter::allDeclarations())
    {
        m_w.beginBlock(kNoCap, 0);
        write(OwnedEvent(tag::HeapProfBegin, 0, {0, 100'000'000, breakdown}, {"", "", "", "", "", "", ""}));
    }
    void costCentre(uint32_t id, std::string_view label, std::string_view module, bool caf = false)
    {
        write(OwnedEvent(tag::HeapProfCostCentre, m_last, {id, caf ? 1u : 0u}, {label, module, "<src>"}));
    }
    // A census at `t` (ns) with string bands, written in the order given.
    void census(uint64_t t, const std::vector<std::pair<std::string, uint64_t>>& bands)
    {
        write(OwnedEvent(tag::HeapProfSampleBegin, t, {0}));
        for (const auto& [label, bytes] : bands)
            write(OwnedEvent(tag::HeapProfSampleString, t, {0, bytes}, {label}));
        write(OwnedEvent(tag::HeapProfSampleEnd, t, {0}));
    }
    void stackCensus(uint64_t t, const std::vector<std::pair<std::vector<uint32_t>, uint64_t>>& bands)
    {
        write(OwnedEvent(tag::HeapProfSampleBegin, t, {0}));
        for (const auto& [ids, bytes] : bands) {
            OwnedEvent e(tag::HeapProfSampleCostCentre, t, {0, bytes, ids.size()});
            for (uint32_t id : ids)
                for (int shift = 24; shift >= 0; shift -= 8)
                    e.idBytes.push_back(uint8_t(id >> shift));
            e.event.depth = uint16_t(ids.size());
            e.event.ids = e.idBytes.data();
            write(e);
        }
        write(OwnedEvent(tag::HeapProfSampleEnd, t, {0}));
    }
    // An info-table provenance entry (IPE): address, name, closure
    // description, type, label, module, source location.
    void ipe(uint64_t address, std::string_view name, std::string_view type, std::string_view module,
             std::string_view srcloc)
    {
        write(OwnedEvent(tag::Ipe, m_last, {address}, {name, "CONSTR", type, "", module, srcloc}));
    }
    std::vector<uint8_t> bytes()
    {
        m_w.endBlock(m_last);
        m_w.writeDataEnd();
        return m_w.takeBytes();
    }

private:
    void write(const OwnedEvent& e)
    {
        m_w.write(e.event);
        m_last = std::max(m_last, e.event.time);
    }
    EventlogWriter m_w;
    uint64_t m_last = 0;
};

constexpr uint64_t kSecond = 1'000'000'000;

// Five bands over censuses at 1, 2, 4 and 5 s (gaps of 1, 2 and 1 s):
//   band1   6000 5000 3000 2000   falls 1000 B/s exactly
//   Band2   6000    0 6000    0   oscillates (0 = missing from the census)
//   band10  1000 1500 2500 3000   grows 500 B/s exactly
//   band9   1800 1800 1800 1800   constant
//   band9x     0    0  100    0   only in the third census
// Names sort differently as bytes ("band10" < "band9") and as numbers.
std::vector<uint8_t> fiveBandLog();

std::optional<uint32_t> labelNamed(const HeapProfileData& hp, std::string_view name);

QString testdataLog(const char* name);

} // namespace heaptest

using namespace heaptest;

class TestHeap : public QObject {
    Q_OBJECT
private slots:
    // Real logs against the raw decoder.
    void bandTotalsEqualRawSamples_data() { addHeapLogRows(); }
    void bandTotalsEqualRawSamples();
    void topNPlusOtherConservesEveryCensus_data() { addHeapLogRows(); }
    void topNPlusOtherConservesEveryCensus();
    // Encoder-written profiles with hand-computed figures.
    void bandFiguresByHand();
    void orderingModes();
    void constantBandHasNoSpread();
    void repeatedLabelInOneCensusIsAdded();
    void infoTableBandsNamedFromIpe();
    void costCentreStacks();
    void sameNamedCostCentresStayApart();
    void byteSecondsIn();
    void bandTrendsByHand();
    void bandTrendsEqualRawSamples_data() { addHeapLogRows(); }
    void bandTrendsEqualRawSamples();
    // The command line.
    void cliHeapCsv();
    void cliHeapCsvQuoting();
    void cliExportDrawsTheHeapView();
    void cliOnHpFiles();
    void sparklinesCoverEveryPoint();
    void cliTableKeepsLongNames();
};
