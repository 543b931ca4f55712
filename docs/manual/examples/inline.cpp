// inline.cpp -- the example of the manual's chapter on inlined functions: STL code and a lambda, all inlined at -O2.
// Copyright (C) 2026 the cachegrind-ng developers.
// SPDX-License-Identifier: GPL-2.0-or-later
#include <algorithm>
#include <cstdio>
#include <numeric>
#include <vector>

int main()
{
	std::vector<int> v;
	for (int i = 0; i < 100000; i++)
		v.push_back(i * 7919 % 10007);
	long odd = std::count_if(v.begin(), v.end(), [](int x) { return x % 2 != 0; });
	long sum = std::accumulate(v.begin(), v.end(), 0L);
	std::printf("%ld %ld\n", odd, sum);
	return 0;
}
