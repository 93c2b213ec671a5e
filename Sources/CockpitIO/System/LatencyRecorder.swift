/// The last few thousand latencies (arrival → applied by the core), for status and benchmarks.
/// Bounded memory; percentiles are computed only when asked.
public struct LatencyRecorder: Sendable {
    public static let capacity = 4096
    private var samplesNanoseconds: [Int64] = []
    private var next = 0
    public private(set) var count: Int64 = 0
    public private(set) var maximumNanoseconds: Int64 = 0

    public init() { samplesNanoseconds.reserveCapacity(Self.capacity) }

    public mutating func record(nanoseconds: Int64) {
        count += 1
        maximumNanoseconds = max(maximumNanoseconds, nanoseconds)
        if samplesNanoseconds.count < Self.capacity {
            samplesNanoseconds.append(nanoseconds)
        } else {
            samplesNanoseconds[next] = nanoseconds
            next = (next + 1) % Self.capacity
        }
    }

    /// The q-quantile (0…1) of the retained samples, nearest-rank.
    public func quantileNanoseconds(_ q: Double) -> Int64? {
        guard !samplesNanoseconds.isEmpty else { return nil }
        let sorted = samplesNanoseconds.sorted()
        let rank = min(sorted.count - 1, max(0, Int((q * Double(sorted.count)).rounded(.up)) - 1))
        return sorted[rank]
    }
}
