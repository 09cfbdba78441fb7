// Placeholder until the end-to-end benchmark lands (issue 8).
print("pricehost-benchmark: not written yet")
