#include "server/http_message.h"

#include <nlohmann/json.hpp>

namespace cutline::server {

Response ErrorResponse(int status, std::string_view message) {
  // `replace`: an error may quote the caller's bytes, which need not be UTF-8.
  return JsonResponse(status, nlohmann::json{{"error", message}}.dump(
                                  -1, ' ', false, nlohmann::json::error_handler_t::replace));
}

std::optional<Response> QueryLang(const Request& req, Lang* lang) {
  *lang = Lang::kEn;
  auto l = req.query.find("lang");
  if (l == req.query.end() || l->second == "en") return std::nullopt;
  if (l->second == "ja") {
    *lang = Lang::kJa;
    return std::nullopt;
  }
  return ErrorResponse(400, "parameter lang must be en or ja");
}

Response JsonResponse(int status, std::string body) {
  Response response;
  response.status = status;
  response.content_type = "application/json; charset=utf-8";
  response.body = std::move(body);
  return response;
}

namespace {

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::string PercentDecode(std::string_view text, bool plus_is_space) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '%' && i + 2 < text.size()) {
      int hi = HexValue(text[i + 1]);
      int lo = HexValue(text[i + 2]);
      if (hi >= 0 && lo >= 0) {
        out += static_cast<char>(hi * 16 + lo);
        i += 2;
        continue;
      }
    }
    out += plus_is_space && c == '+' ? ' ' : c;
  }
  return out;
}

void ParseTarget(std::string_view target, std::string* path,
                 std::map<std::string, std::string>* query) {
  auto question = target.find('?');
  *path = PercentDecode(target.substr(0, question), /*plus_is_space=*/false);
  query->clear();
  if (question == std::string_view::npos) return;
  std::string_view rest = target.substr(question + 1);
  while (!rest.empty()) {
    auto amp = rest.find('&');
    std::string_view pair = rest.substr(0, amp);
    rest = amp == std::string_view::npos ? std::string_view() : rest.substr(amp + 1);
    if (pair.empty()) continue;
    auto eq = pair.find('=');
    std::string key = PercentDecode(pair.substr(0, eq), true);
    std::string value =
        eq == std::string_view::npos ? "" : PercentDecode(pair.substr(eq + 1), true);
    query->emplace(std::move(key), std::move(value));  // keeps the first
  }
}

}  // namespace cutline::server
