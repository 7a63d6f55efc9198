// The peak memory figure rank 0 reports: read from /proc's own text, and
// plausible for this very process.
#include "runtime/usage.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace cutline::runtime {
namespace {

TEST(UsageTest, PeakResidentBytesIsVmHWMInBytes) {
  const std::string status =
      "Name:\tcutline\nVmPeak:\t  999999 kB\nVmHWM:\t    8192 kB\nVmRSS:\t    4096 kB\n";
  EXPECT_EQ(PeakResidentBytes(status), 8192u * 1024);
  EXPECT_EQ(PeakResidentBytes("VmHWM: 1 kB"), 1024u);
}

TEST(UsageTest, AMissingOrMalformedLineIsNoFigure) {
  const std::vector<std::string> bad = {
      "",
      "VmRSS:\t4096 kB\n",
      "VmHWM:\t\n",
      "VmHWM:\tmany kB\n",
      "VmHWM:\t4096 MB\n",
      "VmHWM:\t4096\n",
      "VmHWM:\t-4 kB\n",
      "VmHWM:\t1234567890123456 kB\n",
      "XVmHWM:\t4096 kB\n",  // not at the start of a line
  };
  for (const std::string& s : bad) EXPECT_FALSE(PeakResidentBytes(s)) << s;
}

TEST(UsageTest, ThisProcessHasAPlausiblePeak) {
  // Touch 64 MiB, so the peak must be at least that; a test binary is far
  // under 4 GiB.
  std::vector<char> block(64u << 20, 1);
  Usage u = OwnUsage();
  EXPECT_GE(u.peak_rss_bytes, block.size());
  EXPECT_LT(u.peak_rss_bytes, 4ull << 30);
  EXPECT_GE(u.cpu_s, 0.0);
  EXPECT_EQ(block[block.size() / 2], 1);  // the block was there all along
}

}  // namespace
}  // namespace cutline::runtime
