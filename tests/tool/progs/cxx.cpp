// cxx.cpp -- C++: exceptions, templates, std::sort, std::map, strings.
// Copyright (C) 2026 the cachegrind-ng developers.
// SPDX-License-Identifier: GPL-2.0-or-later

#include <algorithm>
#include <cstdio>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

unsigned rng_state = 2024;

unsigned next_rand()
{
   rng_state = rng_state * 1664525u + 1013904223u;
   return rng_state >> 8;
}

template <typename T>
T accumulate_squares(const std::vector<T> &v)
{
   T s = T();
   for (const T &x : v)
      s += x * x;
   return s;
}

template <typename T, int N>
struct Ring {
   T items[N];
   int head = 0;
   void push(const T &x) { items[head] = x; head = (head + 1) % N; }
   T sum() const { T s = T(); for (int i = 0; i < N; i++) s += items[i]; return s; }
};

struct BadValue : std::runtime_error {
   int value;
   explicit BadValue(int v) : std::runtime_error("bad value"), value(v) {}
};

__attribute__((noinline)) int check(int v)
{
   if (v % 17 == 0)
      throw BadValue(v);
   return v / 17;
}

}  // namespace

int main()
{
   std::vector<int> v;
   for (int i = 0; i < 5000; i++)
      v.push_back(static_cast<int>(next_rand() % 100000));
   std::sort(v.begin(), v.end());
   std::vector<double> d(v.begin(), v.begin() + 1000);
   std::sort(d.begin(), d.end(), [](double a, double b) { return a > b; });

   std::map<std::string, int> words;
   for (int i = 0; i < 600; i++) {
      std::string w = "w" + std::to_string(next_rand() % 97);
      words[w] += i;
   }

   int caught = 0, sum = 0;
   for (int i = 0; i < 300; i++) {
      try {
         sum += check(i);
      } catch (const BadValue &e) {
         caught += e.value % 5 + 1;
      }
   }

   Ring<long, 8> ring;
   for (long i = 0; i < 1000; i++)
      ring.push(i * 3);

   std::printf("sorted %d..%d, squares %ld, doubles %.1f\n", v.front(), v.back(),
               accumulate_squares(std::vector<long>(v.begin(), v.begin() + 50)),
               accumulate_squares(d));
   std::printf("words %zu first %s, caught %d sum %d ring %ld\n", words.size(),
               words.begin()->first.c_str(), caught, sum, ring.sum());
   return 0;
}
