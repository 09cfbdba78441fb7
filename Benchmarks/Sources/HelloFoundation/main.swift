// The floor for cold start (BENCHMARKS.md): a Swift process that imports
// Foundation, uses it once, and prints one line.
import Foundation

print("hello \(Date.now.timeIntervalSince1970 > 0)")
