// The machine a benchmark ran on, as its tables name it.
#pragma once

#include <fmt/format.h>

#include <fstream>
#include <string>
#include <thread>

namespace cutline::bench {

// "<CPU model as /proc/cpuinfo names it>, <n> cores".
inline std::string Machine() {
  std::ifstream cpu("/proc/cpuinfo");
  std::string line, model = "unknown CPU";
  while (std::getline(cpu, line)) {
    if (line.rfind("model name", 0) == 0) {
      model = line.substr(line.find(':') + 2);
      break;
    }
  }
  return fmt::format("{}, {} cores", model, std::thread::hardware_concurrency());
}

}  // namespace cutline::bench
