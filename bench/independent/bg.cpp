// The independent harness's background: a real C++ translation unit (standard headers, templates, -O2), compiled in a loop.
#include <algorithm>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

template <int N> struct Fib { static constexpr long value = Fib<N - 1>::value + Fib<N - 2>::value; };
template <> struct Fib<0> { static constexpr long value = 0; };
template <> struct Fib<1> { static constexpr long value = 1; };

int main(int argc, char **argv) {
    std::map<std::string, std::vector<long>> m;
    std::regex word("[a-z]+");
    std::stringstream s;
    for (int i = 0; i < argc; i++) s << argv[i] << ' ';
    std::string text = s.str();
    for (auto it = std::sregex_iterator(text.begin(), text.end(), word); it != std::sregex_iterator(); ++it)
        m[it->str()].push_back(Fib<40>::value + it->position());
    std::vector<long> all;
    for (auto &kv : m) all.insert(all.end(), kv.second.begin(), kv.second.end());
    std::sort(all.begin(), all.end());
    return all.empty() ? 0 : static_cast<int>(all.front() % 7);
}
