// The flame graph: its painter and hit tests (which must agree to the
// pixel), the view's zoom, breadcrumb, focus kept over a new range, search,
// and `hecscope export --view flame`, on a real -p eventlog from testdata.
#include "testsupport.h"

#include "core/index/logindex.h"
#include "core/io/bytesource.h"
#include "core/load/loader.h"
#include "core/synth/synthetic.h"
#include "core/timeprofile/sampleprofile.h"
#include "ui/formatting.h"
#include "ui/profile/flamegraphview.h"
#include "ui/profile/flamepainter.h"

#include <QApplication>
#include <QImage>
#include <QLabel>
#include <QMenu>
#include <QPainter>
#include <QSet>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include <functional>
#include <set>

using namespace hecscope;
using namespace hecscope::test;

namespace {

const QString kLog = QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/leak-prof-p.eventlog");

std::shared_ptr<const LogIndex> loadLog(const QString& path)
{
    std::string error;
    const auto source = FileSource::open(path.toStdString(), error);
    if (!source)
        qFatal("%s", error.c_str());
    return std::shared_ptr<const LogIndex>(loadIndex(*source).index);
}

std::shared_ptr<const CostCentreProfile> profileOf(const LogIndex& ix, uint64_t t0 = 0, uint64_t t1 = UINT64_MAX)
{
    SampleFilter f;
    f.t0 = t0;
    f.t1 = t1;
    return std::make_shared<const CostCentreProfile>(*sampleProfile(ix, f));
}

// The cost centres from the root to a node, by walking parents (not stackOf).
std::vector<uint32_t> ccPath(const CostCentreProfile& p, uint32_t node)
{
    std::vector<uint32_t> path;
    for (; node != 0; node = p.nodes[node].parent)
        path.insert(path.begin(), p.nodes[node].cc);
    return path;
}

// The node with this path of cost centres, by a scan of every node.
uint32_t nodeWithPath(const CostCentreProfile& p, const std::vector<uint32_t>& path)
{
    for (uint32_t i = 1; i < p.nodes.size(); ++i)
        if (ccPath(p, i) == path)
            return i;
    return 0;
}

// layoutFlame as first written (a vector of children per node, sorted by
// label strings): the reference the faster one must equal exactly.
FlameLayout straightforwardLayout(const CostCentreProfile& p, uint32_t focus, ProfileMetric metric)
{
    FlameLayout l;
    l.focus = focus;
    l.metric = metric;
    const int m = int(metric);
    if (focus >= p.nodes.size() || p.nodes[focus].incl[m] == 0)
        return l;
    const ProfileNode& f = p.nodes[focus];
    const double scale = 1.0 / double(f.incl[m]);
    std::vector<std::vector<uint32_t>> children(f.end - focus);
    for (uint32_t i = focus + 1; i < f.end; ++i)
        if (p.nodes[i].incl[m] > 0)
            children[p.nodes[i].parent - focus].push_back(i);
    auto label = [&](uint32_t node) {
        const uint32_t c = p.nodes[node].cc;
        return c == kNoCostCentre ? std::string() : p.costCentres[c].label;
    };
    for (auto& c : children)
        std::sort(c.begin(), c.end(), [&](uint32_t a, uint32_t b) {
            const int k = label(a).compare(label(b));
            return k != 0 ? k < 0 : a < b;
        });
    // Recursive pre-order walk.
    std::function<void(uint32_t, uint32_t, double)> walk = [&](uint32_t node, uint32_t depth, double x) {
        const size_t me = l.frames.size() - 1;
        for (uint32_t child : children[node - focus]) {
            const double w = double(p.nodes[child].incl[m]) * scale;
            l.maxDepth = std::max(l.maxDepth, depth + 1);
            l.frames.push_back({child, 0, depth + 1, x, x + w});
            walk(child, depth + 1, x);
            x += w;
        }
        l.frames[me].end = uint32_t(l.frames.size());
    };
    l.frames.push_back({focus, 0, 0, 0.0, 1.0});
    walk(focus, 0, 0.0);
    return l;
}

bool sameLayout(const FlameLayout& a, const FlameLayout& b)
{
    if (a.focus != b.focus || a.maxDepth != b.maxDepth || a.frames.size() != b.frames.size())
        return false;
    for (size_t i = 0; i < a.frames.size(); ++i) {
        const FlameFrame &x = a.frames[i], &y = b.frames[i];
        if (x.node != y.node || x.end != y.end || x.depth != y.depth || x.x0 != y.x0 || x.x1 != y.x1)
            return false;
    }
    return true;
}

std::shared_ptr<const LogIndex> loadBytes(std::vector<uint8_t> bytes)
{
    MemorySource source(std::move(bytes));
    return std::shared_ptr<const LogIndex>(loadIndex(source).index);
}

// What a widget receives for a double click: press, release, double click,
// release (QTest::mouseDClick alone sends only the double click).
void doubleClick(QWidget* w, QPoint at)
{
    QTest::mousePress(w, Qt::LeftButton, {}, at);
    QTest::mouseRelease(w, Qt::LeftButton, {}, at);
    QTest::mouseDClick(w, Qt::LeftButton, {}, at);
    QTest::mouseRelease(w, Qt::LeftButton, {}, at);
}

QImage paint(const CostCentreProfile& p, const FlameLayout& l, const FlamePaintOptions& o, QSize size)
{
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::black);
    QPainter painter(&image);
    paintFlame(painter, image.rect(), p, l, o);
    return image;
}

} // namespace

class TestFlameGraph : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void layoutMatchesTheStraightforwardOne();
    void synthesizedProfile();
    void paintsTheProfile();
    void hitTestFindsThePaintedFrame_data();
    void hitTestFindsThePaintedFrame();
    void subPixelFramesAreNotPainted();
    void deepSubtreesAreClipped();
    void moduleColours();
    void zoomBreadcrumbAndBack();
    void newRangeKeepsOrResetsTheFocus();
    void searchHighlightsExactlyTheMatches();
    void tooltipAndStack();
    void emptyStates();
    void exportWritesPngAndSvg();

private:
    std::shared_ptr<const LogIndex> m_ix;
    std::shared_ptr<const CostCentreProfile> m_whole;
};

void TestFlameGraph::initTestCase()
{
    m_ix = loadLog(kLog);
    QVERIFY(!m_ix->timeProfile.samples.empty());
    m_whole = profileOf(*m_ix);
    QCOMPARE(m_whole->total(ProfileMetric::Time), uint64_t(m_ix->timeProfile.samples.size()));
    QVERIFY(m_whole->nodes.size() > 5);
}

void TestFlameGraph::layoutMatchesTheStraightforwardOne()
{
    for (uint32_t focus = 0; focus < m_whole->nodes.size(); ++focus)
        QVERIFY2(sameLayout(layoutFlame(*m_whole, focus, ProfileMetric::Time),
                            straightforwardLayout(*m_whole, focus, ProfileMetric::Time)),
                 qPrintable(QString::number(focus)));
    // Thousands of nodes, labels shared by several cost centres ("GC" in
    // a module of its own would do too): every 97th node as the focus.
    const auto ix = loadBytes(synthesizeProfileLog(20000, 300, 30));
    const auto p = profileOf(*ix);
    QVERIFY(p->nodes.size() > 2000);
    for (uint32_t focus = 0; focus < p->nodes.size(); focus += 97)
        QVERIFY2(sameLayout(layoutFlame(*p, focus, ProfileMetric::Time), straightforwardLayout(*p, focus, ProfileMetric::Time)),
                 qPrintable(QString::number(focus)));
    QVERIFY(layoutFlame(*p, 0, ProfileMetric::Alloc).frames.empty()); // no allocation figures
}

// `synthesize profile`: what its comment promises, read back by the loader.
void TestFlameGraph::synthesizedProfile()
{
    const std::vector<uint8_t> bytes = synthesizeProfileLog(20000, 300, 30);
    QCOMPARE(synthesizeProfileLog(20000, 300, 30), bytes); // deterministic
    const auto ix = loadBytes(bytes);
    QVERIFY(!ix->scan.hasError);
    const TimeProfileData& tp = ix->timeProfile;
    QCOMPARE(tp.samples.size(), size_t(20000));
    QCOMPARE(tp.tickInterval, uint64_t(1'000'000));
    std::set<uint16_t> caps;
    for (const auto& s : tp.samples)
        caps.insert(s.cap);
    QCOMPARE(caps.size(), size_t(4));
    size_t deepest = 0, recursive = 0;
    for (const auto& stack : tp.stacks) {
        deepest = std::max(deepest, stack.size());
        for (size_t k = 1; k < stack.size(); ++k)
            if (stack[k] == stack[k - 1]) {
                ++recursive;
                break;
            }
    }
    QCOMPARE(deepest, size_t(30));
    QVERIFY2(tp.stacks.size() >= 20000 / 25 / 2, qPrintable(QString::number(tp.stacks.size())));
    QVERIFY(recursive > 0);
    const auto p = profileOf(*ix);
    std::set<std::string> modules;
    uint64_t gc = 0, idle = 0;
    for (const ProfileCostCentre& cc : p->costCentres)
        modules.insert(cc.module);
    for (const ProfileNode& n : p->nodes)
        if (n.cc != kNoCostCentre) {
            const ProfileCostCentre& cc = p->costCentres[n.cc];
            if (cc.label == "GC" || cc.label == "IDLE") {
                QVERIFY(cc.rts);
                QCOMPARE(n.depth, 1u);
                (cc.label == "GC" ? gc : idle) += n.incl[0];
            }
        }
    QVERIFY(modules.size() >= 100);
    QVERIFY(gc > 20000 / 50 && idle > 20000 / 50);
    QCOMPARE(p->header.program, std::string("synthetic-profile"));
}

void TestFlameGraph::paintsTheProfile()
{
    const FlameLayout l = layoutFlame(*m_whole, 0, ProfileMetric::Time);
    FlamePaintStats stats;
    FlamePaintOptions o;
    o.stats = &stats;
    const QImage image = paint(*m_whole, l, o, QSize(800, 400));
    QSet<QRgb> colours;
    int ink = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            const QRgb c = image.pixel(x, y);
            colours.insert(c);
            ink += c != qRgb(255, 255, 255);
        }
    QVERIFY2(!colours.contains(qRgb(0, 0, 0)), "the area was not filled"); // the image was black
    QVERIFY2(colours.size() >= 4, qPrintable(QString::number(colours.size())));
    // The root row alone is 800 x 17 px of ink.
    QVERIFY2(ink >= 800 * (o.rowHeight - 1), qPrintable(QString::number(ink)));
    QVERIFY(stats.frames > 3);
    QVERIFY(stats.labels > 0);
}

void TestFlameGraph::hitTestFindsThePaintedFrame_data()
{
    QTest::addColumn<bool>("icicle");
    QTest::addColumn<int>("width");
    QTest::newRow("flame 800") << false << 800;
    QTest::newRow("icicle 800") << true << 800;
    QTest::newRow("flame 3000") << false << 3000;
}

void TestFlameGraph::hitTestFindsThePaintedFrame()
{
    QFETCH(bool, icicle);
    QFETCH(int, width);
    const FlameLayout l = layoutFlame(*m_whole, 0, ProfileMetric::Time);
    FlamePaintOptions o;
    o.icicle = icicle;
    const QRect area(0, 0, width, 500);
    const QImage image = paint(*m_whole, l, o, area.size());
    int checked = 0;
    for (size_t i = 0; i < l.frames.size(); ++i) {
        const QRect r = flameFrameRect(area, l, o, int(i));
        if (r.isEmpty())
            continue;
        QCOMPARE(flameFrameAt(area, l, o, r.center()), int(i));
        QCOMPARE(flameFrameAt(area, l, o, r.topLeft()), int(i));
        // The frame's own colour where it was painted (its top-left pixel:
        // labels start 3 px in).
        const uint32_t cc = m_whole->nodes[l.frames[i].node].cc;
        if (cc != kNoCostCentre && r.width() >= 3)
            QCOMPARE(image.pixel(r.topLeft()), costCentreColour(m_whole->costCentres[cc]).rgb());
        ++checked;
    }
    QVERIFY(checked > 3);
    // Above the deepest frame there is nothing.
    const QPoint empty(width / 2, icicle ? area.bottom() - 2 : 2);
    QCOMPARE(flameFrameAt(area, l, o, empty), -1);
    QCOMPARE(flameFrameAt(area, l, o, QPoint(-1, 250)), -1);
}

void TestFlameGraph::subPixelFramesAreNotPainted()
{
    // At 200 px one sample is 0.27 px: frames of one sample are too narrow.
    const FlameLayout l = layoutFlame(*m_whole, 0, ProfileMetric::Time);
    const QRect area(0, 0, 200, 600);
    FlamePaintStats stats;
    FlamePaintOptions o;
    o.stats = &stats;
    paint(*m_whole, l, o, area.size());
    int wide = 0, narrow = 0;
    for (const FlameFrame& f : l.frames)
        ((f.x1 - f.x0) * area.width() >= kFlameMinFrameWidth ? wide : narrow) += 1;
    QVERIFY2(narrow > 0, "the log should have frames narrower than half a pixel at 200 px");
    QCOMPARE(stats.frames, wide);
    // Every column of every row: what is hit is wide enough, and every frame
    // at least 1.5 px wide is found.
    std::set<int> found;
    for (int y = area.top(); y <= area.bottom(); y += o.rowHeight)
        for (int x = area.left(); x <= area.right(); ++x)
            if (const int i = flameFrameAt(area, l, o, QPoint(x, y)); i >= 0) {
                const FlameFrame& f = l.frames[size_t(i)];
                QVERIFY((f.x1 - f.x0) * area.width() >= kFlameMinFrameWidth);
                found.insert(i);
            }
    for (size_t i = 0; i < l.frames.size(); ++i)
        if ((l.frames[i].x1 - l.frames[i].x0) * area.width() >= 1.5)
            QVERIFY2(found.count(int(i)), qPrintable(QString::number(i)));
}

void TestFlameGraph::deepSubtreesAreClipped()
{
    const FlameLayout l = layoutFlame(*m_whole, 0, ProfileMetric::Time);
    QVERIFY(l.maxDepth >= 2);
    FlamePaintStats stats;
    FlamePaintOptions o;
    o.stats = &stats;
    const QRect area(0, 0, 1000, o.rowHeight * 2); // the root and its children only
    paint(*m_whole, l, o, area.size());
    int shallow = 0;
    for (const FlameFrame& f : l.frames)
        shallow += f.depth < 2 && (f.x1 - f.x0) * area.width() >= kFlameMinFrameWidth;
    QCOMPARE(stats.frames, shallow);
    for (size_t i = 0; i < l.frames.size(); ++i)
        if (l.frames[i].depth >= 2)
            QVERIFY(flameFrameRect(area, l, o, int(i)).isEmpty());
}

void TestFlameGraph::moduleColours()
{
    std::set<std::string> modules;
    for (const ProfileCostCentre& cc : m_whole->costCentres)
        modules.insert(cc.module);
    for (int i = 0; i < 200; ++i)
        modules.insert("Data.Module" + std::to_string(i));
    QSet<QRgb> seen;
    for (const std::string& m : modules) {
        const QColor c = moduleColour(m);
        QCOMPARE(moduleColour(m), c); // stable
        QVERIFY2(contrastWithBlack(c) >= 4.5, m.c_str());
        QVERIFY2(c.red() >= c.green() && c.green() >= c.blue(), m.c_str()); // warm: red to yellow
        seen.insert(c.rgb());
    }
    QVERIFY2(seen.size() >= int(modules.size() * 9 / 10), qPrintable(QString::number(seen.size())));
    ProfileCostCentre gc;
    gc.label = "GC";
    gc.module = "MAIN";
    gc.rts = true;
    const QColor grey = costCentreColour(gc);
    QCOMPARE(grey.red(), grey.green());
    QCOMPARE(grey.green(), grey.blue());
    QVERIFY(contrastWithBlack(grey) >= 4.5);
}

void TestFlameGraph::zoomBreadcrumbAndBack()
{
    FlameGraphView view;
    view.resize(900, 500);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setProfile(m_whole, ProfileMetric::Time);
    QCOMPARE(view.focus(), 0u);
    QCOMPARE(view.breadcrumb(), std::vector<uint32_t>{0});
    QVERIFY(!view.backButton()->isEnabled());
    // The widest frame two levels up, clicked where it is painted.
    const FlameLayout& l = view.layout();
    int target = -1;
    for (size_t i = 0; i < l.frames.size(); ++i)
        if (l.frames[i].depth == 2 && (target < 0 || l.frames[i].x1 - l.frames[i].x0 > l.frames[size_t(target)].x1 - l.frames[size_t(target)].x0))
            target = int(i);
    QVERIFY(target > 0);
    const uint32_t node = l.frames[size_t(target)].node;
    const uint32_t parent = m_whole->nodes[node].parent;
    QSignalSpy chosen(&view, &FlameGraphView::frameChosen);
    const QRect r = flameFrameRect(view.canvas()->rect(), l, view.paintOptions(), target);
    QVERIFY(!r.isEmpty());
    QTest::mouseClick(view.canvas(), Qt::LeftButton, {}, r.center());
    QCOMPARE(chosen.count(), 1);
    QCOMPARE(chosen.at(0).at(0).toUInt(), node);
    QCOMPARE(view.focus(), node);
    // The focus spans the width; its children split it.
    QCOMPARE(view.layout().frames[0].node, node);
    QCOMPARE(flameFrameRect(view.canvas()->rect(), view.layout(), view.paintOptions(), 0).width(), view.canvas()->width());
    const std::vector<uint32_t> crumbs = view.breadcrumb();
    QCOMPARE(crumbs.size(), size_t(3));
    QCOMPARE(crumbs[0], 0u);
    QCOMPARE(crumbs[1], parent);
    QCOMPARE(crumbs[2], node);
    auto* label = view.findChild<QLabel*>();
    QVERIFY(label);
    QVERIFY(label->text().contains(QString::fromStdString(m_whole->costCentres[m_whole->nodes[parent].cc].label)));
    QVERIFY(view.backButton()->isEnabled());
    // Back: one level; Escape: the root; a breadcrumb link: there.
    view.backButton()->click();
    QCOMPARE(view.focus(), parent);
    QTest::keyClick(view.canvas(), Qt::Key_Escape);
    QCOMPARE(view.focus(), 0u);
    QCOMPARE(view.layout().frames.size(), layoutFlame(*m_whole, 0, ProfileMetric::Time).frames.size());
    view.zoomTo(node);
    emit label->linkActivated(QString::number(parent));
    QCOMPARE(view.focus(), parent);
    view.zoomTo(node);
    QTest::keyClick(view.canvas(), Qt::Key_Backspace);
    QCOMPARE(view.focus(), parent);
    // A double click on the background (above the frames) resets.
    view.zoomTo(node);
    QCOMPARE(flameFrameAt(view.canvas()->rect(), view.layout(), view.paintOptions(), QPoint(5, 5)), -1);
    doubleClick(view.canvas(), QPoint(5, 5));
    QCOMPARE(view.focus(), 0u);
    // A double click on a frame zooms into it once, even when, once zoomed,
    // another frame is under the pointer.
    const FlameLayout& root = view.layout();
    int outer = -1;
    for (size_t i = 0; i < root.frames.size(); ++i)
        if (root.frames[i].depth == 1 && (outer < 0 || root.frames[i].x1 - root.frames[i].x0 > root.frames[size_t(outer)].x1 - root.frames[size_t(outer)].x0))
            outer = int(i);
    QVERIFY(outer > 0);
    const uint32_t outerNode = root.frames[size_t(outer)].node;
    const QPoint at = flameFrameRect(view.canvas()->rect(), root, view.paintOptions(), outer).center();
    QVERIFY(flameFrameAt(view.canvas()->rect(), layoutFlame(*m_whole, outerNode, ProfileMetric::Time), view.paintOptions(), at) > 0);
    doubleClick(view.canvas(), at);
    QCOMPARE(view.focus(), outerNode);
}

void TestFlameGraph::newRangeKeepsOrResetsTheFocus()
{
    // Ten slices of the run; a node at depth >= 2 present in one slice's
    // profile and absent from another's.
    const uint64_t end = m_ix->lastTime + 1;
    std::vector<std::shared_ptr<const CostCentreProfile>> slices;
    for (uint64_t k = 0; k < 10; ++k)
        slices.push_back(profileOf(*m_ix, end * k / 10, end * (k + 1) / 10));
    uint32_t node = 0;
    int with = -1, without = -1;
    for (uint32_t i = 1; i < m_whole->nodes.size() && with < 0; ++i) {
        if (m_whole->nodes[i].depth < 2)
            continue;
        const std::vector<uint32_t> path = ccPath(*m_whole, i);
        int a = -1, b = -1;
        for (int k = 0; k < 10; ++k)
            (nodeWithPath(*slices[size_t(k)], path) ? a : b) = k;
        if (a >= 0 && b >= 0) {
            node = i;
            with = a;
            without = b;
        }
    }
    QVERIFY2(node, "no stack of depth 2 or more comes and goes in this log");
    const std::vector<uint32_t> path = ccPath(*m_whole, node);
    FlameGraphView view;
    view.resize(900, 500);
    view.setProfile(m_whole, ProfileMetric::Time);
    view.zoomTo(node);
    QCOMPARE(view.focus(), node);
    view.setProfile(slices[size_t(with)], ProfileMetric::Time);
    QVERIFY(view.focus() != 0);
    QCOMPARE(ccPath(*slices[size_t(with)], view.focus()), path);
    QCOMPARE(view.layout().frames[0].node, view.focus());
    QCOMPARE(view.breadcrumb().size(), path.size() + 1);
    view.setProfile(slices[size_t(without)], ProfileMetric::Time);
    QCOMPARE(view.focus(), 0u);
    QCOMPARE(view.breadcrumb(), std::vector<uint32_t>{0});
}

void TestFlameGraph::searchHighlightsExactlyTheMatches()
{
    FlameGraphView view;
    view.resize(900, 500);
    view.setProfile(m_whole, ProfileMetric::Time);
    QSignalSpy texts(&view, &FlameGraphView::searchResult);
    const QRegularExpression pattern(QStringLiteral("^spin"));
    view.setSearch(pattern);
    QVERIFY(view.search().has_value());
    const std::vector<bool>& matches = view.search()->matches;
    QCOMPARE(matches.size(), m_whole->nodes.size());
    size_t matching = 0;
    for (uint32_t i = 0; i < m_whole->nodes.size(); ++i) {
        const uint32_t cc = m_whole->nodes[i].cc;
        const bool expected = cc != kNoCostCentre
            && (pattern.match(QString::fromStdString(m_whole->costCentres[cc].label)).hasMatch()
                || pattern.match(QString::fromStdString(m_whole->costCentres[cc].module)).hasMatch());
        QCOMPARE(bool(matches[i]), expected);
        matching += expected;
    }
    QVERIFY(matching > 0 && matching < m_whole->nodes.size() - 1);
    const SearchResult r = searchProfile(*m_whole, ProfileMetric::Time, [&](const ProfileCostCentre& cc) {
        return pattern.match(QString::fromStdString(cc.label)).hasMatch()
            || pattern.match(QString::fromStdString(cc.module)).hasMatch();
    });
    QVERIFY(r.matched > 0);
    QCOMPARE(texts.count(), 1);
    const QString expected = QStringLiteral("%1 cost centre%2: %3 % of samples")
                                 .arg(r.matchingCostCentres)
                                 .arg(r.matchingCostCentres == 1 ? QStringLiteral(" matches") : QStringLiteral("s match"))
                                 .arg(100.0 * double(r.matched) / double(r.total), 0, 'f', 1);
    QCOMPARE(texts.at(0).at(0).toString(), expected);
    // Matching frames keep their colour, the others are faded.
    const FlameLayout& l = view.layout();
    FlamePaintOptions o = view.paintOptions();
    o.background = Qt::white;
    const QRect area(0, 0, 900, 400);
    const QImage image = paint(*m_whole, l, o, area.size());
    int kept = 0, faded = 0;
    for (size_t i = 1; i < l.frames.size(); ++i) {
        const QRect fr = flameFrameRect(area, l, o, int(i));
        const uint32_t cc = m_whole->nodes[l.frames[i].node].cc;
        if (fr.width() < 3 || m_whole->costCentres[cc].rts)
            continue;
        const bool same = image.pixel(fr.topLeft()) == costCentreColour(m_whole->costCentres[cc]).rgb();
        QCOMPARE(same, bool(matches[l.frames[i].node]));
        (same ? kept : faded) += 1;
    }
    QVERIFY(kept > 0 && faded > 0);
    // An empty pattern clears it; a bad one says so.
    view.setSearch(QRegularExpression());
    QVERIFY(!view.search());
    QCOMPARE(texts.last().at(0).toString(), QString());
    view.setSearch(QRegularExpression(QStringLiteral("(")));
    QVERIFY(!view.search());
    QVERIFY(texts.last().at(0).toString().startsWith(QStringLiteral("Invalid pattern")));
}

void TestFlameGraph::tooltipAndStack()
{
    FlameGraphView view;
    view.setProfile(m_whole, ProfileMetric::Time);
    uint32_t deepest = 0;
    for (uint32_t i = 1; i < m_whole->nodes.size(); ++i)
        if (m_whole->nodes[i].depth > m_whole->nodes[deepest].depth)
            deepest = i;
    const ProfileCostCentre& cc = m_whole->costCentres[m_whole->nodes[deepest].cc];
    const QString tip = view.describe(deepest);
    QVERIFY(tip.contains(QString::fromStdString(cc.label).toHtmlEscaped()));
    QVERIFY(tip.contains(QString::fromStdString(cc.module).toHtmlEscaped()));
    QVERIFY(tip.contains(QString::fromStdString(cc.srcLoc).toHtmlEscaped()));
    QVERIFY(tip.contains(percentText(m_whole->nodes[deepest].incl[0], m_whole->total(ProfileMetric::Time))));
    QVERIFY(tip.contains(QString::fromStdString(formatProfileValue(*m_whole, ProfileMetric::Time, m_whole->nodes[deepest].incl[0]))));
    QStringList frames;
    for (uint32_t c : ccPath(*m_whole, deepest))
        frames << QString::fromStdString(m_whole->costCentres[c].label);
    QCOMPARE(view.stackText(deepest), frames.join(QLatin1Char(';')));
    QSignalSpy sandwich(&view, &FlameGraphView::sandwichRequested);
    std::unique_ptr<QMenu> menu(view.frameMenu(deepest, nullptr));
    const QList<QAction*> actions = menu->actions();
    QCOMPARE(actions.size(), 3);
    actions[1]->trigger();
    QCOMPARE(sandwich.count(), 1);
    QCOMPARE(sandwich.at(0).at(0).toUInt(), m_whole->nodes[deepest].cc);
    actions[0]->trigger();
    QCOMPARE(view.focus(), deepest);
}

void TestFlameGraph::emptyStates()
{
    FlameGraphView view;
    view.resize(600, 300);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    auto uniform = [&] {
        const QImage image = view.canvas()->grab().toImage();
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x)
                if (image.pixel(x, y) != image.pixel(0, 0))
                    return false;
        return true;
    };
    QVERIFY(!uniform()); // the text
    QCOMPARE(view.emptyText(), QStringLiteral("No cost-centre samples in this range"));
    // A range with no sample: nothing to lay out, the text again.
    const auto none = profileOf(*m_ix, m_ix->lastTime + 10, m_ix->lastTime + 20);
    QCOMPARE(none->total(ProfileMetric::Time), uint64_t(0));
    view.setProfile(none, ProfileMetric::Time);
    QVERIFY(view.layout().frames.empty());
    view.setEmptyText(QString());
    QVERIFY(uniform());
    view.setEmptyText(QStringLiteral("Loading…"));
    QVERIFY(!uniform());
}

void TestFlameGraph::exportWritesPngAndSvg()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    auto exportTo = [&](const QString& name, const QStringList& extra) {
        QStringList args{QStringLiteral("export"), kLog, QStringLiteral("--view"), QStringLiteral("flame"),
                         QStringLiteral("-o"), dir.filePath(name), QStringLiteral("--size"), QStringLiteral("900x500")};
        return runHecscope(args + extra);
    };
    const Run png = exportTo(QStringLiteral("f.png"), {});
    QVERIFY2(png.exitCode == 0, png.err.constData());
    QImage image;
    QVERIFY(image.load(dir.filePath(QStringLiteral("f.png")), "PNG"));
    // As wide as asked, as tall as the graph's rows need (500 at most): no
    // band of white taller than a row's gap and the title's margin.
    QCOMPARE(image.width(), 900);
    const uint32_t rows = flameRowsDrawn(layoutFlame(*m_whole, 0, ProfileMetric::Time), 900);
    QVERIFY(rows > 3);
    QVERIFY2(image.height() >= int(rows) * 16 && image.height() < 500, qPrintable(QString::number(image.height())));
    int whiteRun = 0, longestWhiteRun = 0;
    for (int y = 0; y < image.height(); ++y) {
        bool white = true;
        for (int x = 0; x < image.width() && white; ++x)
            white = image.pixel(x, y) == qRgb(255, 255, 255);
        whiteRun = white ? whiteRun + 1 : 0;
        longestWhiteRun = std::max(longestWhiteRun, whiteRun);
    }
    QVERIFY2(longestWhiteRun < 16, qPrintable(QString::number(longestWhiteRun)));
    // Without --size: 1600 wide, still as tall as the graph.
    const Run wide = runHecscope({QStringLiteral("export"), kLog, QStringLiteral("--view"), QStringLiteral("flame"),
                                  QStringLiteral("-o"), dir.filePath(QStringLiteral("w.png"))});
    QVERIFY2(wide.exitCode == 0, wide.err.constData());
    QVERIFY(image.load(dir.filePath(QStringLiteral("w.png")), "PNG"));
    QCOMPARE(image.width(), 1600);
    QVERIFY2(image.height() < int(flameRowsDrawn(layoutFlame(*m_whole, 0, ProfileMetric::Time), 1600) + 3) * 20,
             qPrintable(QString::number(image.height())));
    QVERIFY(image.load(dir.filePath(QStringLiteral("f.png")), "PNG"));
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 2)
        for (int x = 0; x < image.width(); x += 2)
            colours.insert(image.pixel(x, y));
    QVERIFY2(colours.size() >= 5, qPrintable(QString::number(colours.size())));
    const Run icicle = exportTo(QStringLiteral("i.png"), {QStringLiteral("--icicle")});
    QCOMPARE(icicle.exitCode, 0);
    QVERIFY(readFile(dir.filePath(QStringLiteral("i.png"))) != readFile(dir.filePath(QStringLiteral("f.png"))));

    const Run svg = exportTo(QStringLiteral("f.svg"), {});
    QVERIFY2(svg.exitCode == 0, svg.err.constData());
    const std::string text = readText(dir.filePath(QStringLiteral("f.svg")));
    QVERIFY(text.find("<svg") != std::string::npos);
    const std::string title = m_whole->header.program + ": width = samples, total "
        + formatProfileValue(*m_whole, ProfileMetric::Time, m_whole->total(ProfileMetric::Time)) + ", whole run";
    QVERIFY2(text.find(title) != std::string::npos, title.c_str());
    QVERIFY(text.find(">main<") != std::string::npos);

    // --hide-rts, as the pane's switch: the RTS's frames (GC first) gone,
    // the total without their samples, and the title says so.
    QVERIFY(text.find(">GC<") != std::string::npos);
    const Run hidden = exportTo(QStringLiteral("h.svg"), {QStringLiteral("--hide-rts")});
    QVERIFY2(hidden.exitCode == 0, hidden.err.constData());
    const std::string hiddenText = readText(dir.filePath(QStringLiteral("h.svg")));
    QVERIFY(hiddenText.find(">GC<") == std::string::npos);
    QVERIFY(hiddenText.find(">main<") != std::string::npos);
    const CostCentreProfile withoutRts = withoutRtsFrames(*m_whole);
    QVERIFY(withoutRts.total(ProfileMetric::Time) < m_whole->total(ProfileMetric::Time));
    const std::string hiddenTitle = m_whole->header.program + ": width = samples, total "
        + formatProfileValue(withoutRts, ProfileMetric::Time, withoutRts.total(ProfileMetric::Time))
        + ", whole run, RTS frames hidden";
    QVERIFY2(hiddenText.find(hiddenTitle) != std::string::npos, hiddenTitle.c_str());
    QCOMPARE(exportTo(QStringLiteral("x.png"), {QStringLiteral("--view"), QStringLiteral("timeline"), QStringLiteral("--hide-rts")}).exitCode, 2);

    // A range and a capability, then what is refused.
    QCOMPARE(exportTo(QStringLiteral("r.png"), {QStringLiteral("--range"), QStringLiteral(":100ms"), QStringLiteral("--cap"), QStringLiteral("0")}).exitCode, 0);
    QCOMPARE(exportTo(QStringLiteral("x.png"), {QStringLiteral("--cap"), QStringLiteral("9")}).exitCode, 2);
    QCOMPARE(exportTo(QStringLiteral("x.png"), {QStringLiteral("--tracks"), QStringLiteral("gc")}).exitCode, 2);
    // (A usage error, as `hecscope profile LOG --alloc` is.)
    QCOMPARE(exportTo(QStringLiteral("x.png"), {QStringLiteral("--alloc")}).exitCode, 2);
    const Run noSamples = runHecscope({QStringLiteral("export"), QStringLiteral(HECSCOPE_TESTDATA_DIR "/logs/leak-hT.eventlog"),
                                       QStringLiteral("--view"), QStringLiteral("flame"), QStringLiteral("-o"), dir.filePath(QStringLiteral("n.png"))});
    QCOMPARE(noSamples.exitCode, 1);
    QVERIFY(noSamples.err.contains("no cost-centre samples"));
    QCOMPARE(runHecscope({QStringLiteral("export"), kLog, QStringLiteral("--icicle"), QStringLiteral("-o"), dir.filePath(QStringLiteral("t.png"))}).exitCode, 2);
}

QTEST_MAIN(TestFlameGraph)
#include "tst_flamegraph.moc"
