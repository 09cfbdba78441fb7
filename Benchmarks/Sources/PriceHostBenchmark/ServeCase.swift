import Foundation
import Glibc

/// Case 7: `pricehost serve` under load: 64 keep-alive clients of our own asking for
/// a cached quote; requests per second, the p99 latency, and the server's RSS after
/// 100,000 and after 1,000,000 requests (flat means nothing is kept per request); then
/// issue 34's figures with wrk, beside nginx (ServeCase+Nginx.swift).
enum ServeCase {
    static let clients = 64
    static let throughputTarget = 10_000.0
    static let p99TargetMilliseconds = 10.0
    static let growthTargetKilobytes = 2048.0

    static func run(_ context: BenchmarkContext) throws -> [TargetOutcome] {
        let locations = context.locations
        // 10,000 held connections on each side, and serve's child inherits the limit.
        try StreamCase.raiseDescriptorLimit(to: idleConnections + slowClients + 2048, for: "serve: \(idleConnections) idle connections")
        let config = try context.scratch.write("""
            {"plugins": ["\(locations.filePlugin)"],
             "providers": {"file": {"path": "\(locations.pricesFile)", "cacheSeconds": 86400}},
             "defaults": {"provider": "file"},
             "serve": {"maxConnections": 12000, "idleTimeoutSeconds": 3600, "headerTimeoutSeconds": 60}}
            """, to: "serve.json")
        let errors = context.scratch.uniquePath("serve", suffix: "err")
        let command = Command(locations.pricehost, ["serve", "--listen", "127.0.0.1:0", "--config", config])
        let phases = context.options.quick ? [100_000, 300_000] : [100_000, 1_000_000]
        // The access log off: it is one write(2) per request, measured apart below if wanted.
        let server = try Children.start(command, standardError: .file(errors), timeoutSeconds: 1800,
                                            extraEnvironment: ["PRICEHOST_LOG=warning"])
        defer {
            kill(server.pid, SIGTERM)
            _ = server.waitForExit()
        }
        let port = try waitForPort(errors, command)
        let path = "/v1/prices?asset=BTC"
        Report.progress("serve: \(clients) keep-alive clients, GET \(path) (cached), \(phases.map(String.init).joined(separator: " then ")) requests")
        let load = try LoadClient(port: port, connections: clients, path: path)
        let warmUp = 20_000
        _ = load.run(until: warmUp)
        load.resetLatencies()
        var rows: [Row] = []
        var residentKilobytes: [Double] = []
        var previous = 0
        var throughput = 0.0
        for phase in phases {
            let seconds = load.run(until: warmUp + phase)
            throughput = Double(phase - previous) / seconds
            let resident = try residentSetKilobytes(server.pid)
            residentKilobytes.append(resident)
            rows.append(Row(what: "requests/s, requests \(previous + 1) to \(phase)", median: String(Int(throughput.rounded()))))
            rows.append(Row(what: "server RSS (VmRSS) after \(phase) requests", median: Report.kilobytes(resident)))
            previous = phase
        }
        let latencies = load.sortedLatencies()
        guard load.failureCount == 0, !latencies.isEmpty else {
            throw BenchmarkError("serve: \(load.failureCount) request(s) failed or were not 200; stderr of the server:\n\(ScratchDirectory.contents(of: errors))")
        }
        func percentile(_ fraction: Double) -> Double {
            Double(latencies[min(latencies.count - 1, Int(Double(latencies.count) * fraction))]) / 1000
        }
        let p99 = percentile(0.99)
        let growth = residentKilobytes[residentKilobytes.count - 1] - residentKilobytes[0]
        rows[rows.count - 2].target = ">= \(Int(throughputTarget))/s"
        rows[rows.count - 2].verdict = throughput >= throughputTarget ? "met" : "MISSED"
        rows.append(Row(what: "latency p50 / p90 / p99 / max, ms", median: String(format: "%.2f / %.2f / %.2f / %.2f", percentile(0.5), percentile(0.9), p99, percentile(1)),
                        target: "p99 <= \(Int(p99TargetMilliseconds)) ms", verdict: p99 <= p99TargetMilliseconds ? "met" : "MISSED"))
        rows.append(Row(what: "RSS growth, \(phases[0]) -> \(phases[phases.count - 1]) requests", median: Report.signedKilobytes(growth),
                        target: "<= +\(Int(growthTargetKilobytes)) KiB", verdict: growth <= growthTargetKilobytes ? "flat" : "MISSED (grows)"))
        Report.section("serve: \(clients) keep-alive clients, one cached quote, \(latencies.count) timed requests after \(warmUp) to warm up")
        Report.note("server: \(command) (PRICEHOST_LOG=warning: no access log); client: LoadClient.swift, one thread per connection, no pipelining")
        Report.note("the clients run on the same cores as the server, so the figures are the pair's, a floor for the server alone")
        Report.table(rows, spreadHeading: "")
        Report.flush()
        let againstNginx = try runAgainstNginx(context, serve: server, port: port, path: path)
        return againstNginx + [
            TargetOutcome(name: "serve: requests/s, cached quote, 64 clients", figure: String(Int(throughput.rounded())) + "/s",
                          target: ">= \(Int(throughputTarget))/s", met: throughput >= throughputTarget),
            TargetOutcome(name: "serve: p99 latency", figure: String(format: "%.2f ms", p99), target: "<= \(Int(p99TargetMilliseconds)) ms",
                          met: p99 <= p99TargetMilliseconds),
            TargetOutcome(name: "serve: RSS growth \(phases[0]) -> \(phases[phases.count - 1]) requests", figure: Report.signedKilobytes(growth),
                          target: "<= +\(Int(growthTargetKilobytes)) KiB", met: growth <= growthTargetKilobytes),
        ]
    }

    /// The port from the server's "serving on http://127.0.0.1:PORT" line (at most 30 s).
    static func waitForPort(_ errors: String, _ command: Command) throws -> UInt16 {
        for _ in 0..<3000 {
            let text = ScratchDirectory.contents(of: errors)
            if let range = text.range(of: "serving on http://127.0.0.1:"),
               let port = UInt16(text[range.upperBound...].prefix { $0.isNumber }) {
                return port
            }
            usleep(10_000)
        }
        throw BenchmarkError("serve: \(command) did not say it was serving within 30 s; stderr:\n\(ScratchDirectory.contents(of: errors))")
    }

    /// VmRSS of `pid`, KiB.
    static func residentSetKilobytes(_ pid: pid_t) throws -> Double {
        let status = ScratchDirectory.contents(of: "/proc/\(pid)/status")
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let value = Double(line.split(separator: " ").dropFirst().first ?? "") else {
            throw BenchmarkError("serve: cannot read VmRSS from /proc/\(pid)/status")
        }
        return value
    }
}
