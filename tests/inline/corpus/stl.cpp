// stl.cpp -- STL containers, algorithms and lambdas: the C++ program of the inline-chain oracle and of the manual's example.
// Copyright (C) 2026 the cachegrind-ng developers.
// SPDX-License-Identifier: GPL-2.0-or-later
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

static long checksum;

static std::vector<int> make_values(int n)
{
	std::vector<int> v;
	for (int i = 0; i < n; i++)
		v.push_back((i * 7919) % 1009);
	return v;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? std::atoi(argv[1]) : 2000;
	std::vector<int> v = make_values(n);
	std::sort(v.begin(), v.end(), [](int a, int b) { return a > b; });

	std::map<std::string, int> by_name;
	for (int x : v)
		by_name[std::to_string(x % 64)] += x;

	std::unordered_map<int, int> counts;
	for (int x : v)
		counts[x % 97]++;

	std::for_each(by_name.begin(), by_name.end(),
		      [](const std::pair<const std::string, int> &p) { checksum += p.second; });
	for (const auto &kv : counts)
		checksum += kv.first * kv.second;
	std::printf("%ld %zu %zu\n", checksum, by_name.size(), counts.size());
	return 0;
}
