"""Matches, benchmarks and (later) tournaments and balance reports."""
