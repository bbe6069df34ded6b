"""The companion at work (seats, reviews, benchmarks); imports ai, the journal and below."""
