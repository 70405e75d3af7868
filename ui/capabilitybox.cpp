#include "ui/capabilitybox.h"

#include "core/index/logindex.h"

#include <QComboBox>
#include <QSignalBlocker>

namespace hecscope {

void fillCapabilityBox(QComboBox* box, const LogIndex* index)
{
    const QSignalBlocker block(box);
    box->clear();
    box->addItem(QComboBox::tr("All capabilities"), -1);
    if (index)
        for (size_t c = 0; c < index->caps.size(); ++c)
            box->addItem(QComboBox::tr("Capability %1").arg(c), int(c));
}

} // namespace hecscope
