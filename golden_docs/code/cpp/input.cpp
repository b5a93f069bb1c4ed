#include <map>
#include <string>
#include <vector>

namespace shop {

// A basket of items with quantities.
template <typename Item>
class Basket {
 public:
  void add(const Item& item, int quantity) { counts_[item] += quantity; }

  int count(const Item& item) const {
    auto it = counts_.find(item);
    return it == counts_.end() ? 0 : it->second;
  }

 private:
  std::map<Item, int> counts_;
};

std::vector<std::string> names(const Basket<std::string>& basket);

}  // namespace shop

int main() {
  shop::Basket<std::string> basket;
  basket.add("apple", 2);
  return basket.count("apple") == 2 ? 0 : 1;
}
