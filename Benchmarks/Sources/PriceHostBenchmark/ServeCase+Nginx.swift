import Foundation
import Glibc
import PriceHostTesting

/// The serve case's figures of issue 34, with wrk and, beside serve, Debian's nginx serving the
/// same body as a static file, in the same run.
extension ServeCase {
    static let nginxRatioTarget = 0.6
    static let wrkP99Target = 2.0
    static let idleConnections = 10_000
    static let idleResidentTargetKilobytes = 64.0 * 1024
    static let slowClients = 1_000
    static let slowDelayTarget = 10.0

    /// (a) `wrk -t1 -c64 -d8s` of serve and of nginx, interleaved; (b) 10,000 idle keep-alive
    /// connections and one active client; (c) 1,000 slow-header clients and one well-behaved client.
    static func runAgainstNginx(_ context: BenchmarkContext, serve: StartedChild, port: UInt16, path: String) throws -> [TargetOutcome] {
        guard let wrk = Wrk.find() else {
            Report.section("serve against nginx: skipped")
            Report.note("wrk is not installed (apt-get install wrk): the figures of issue 34 need it")
            return [TargetOutcome(name: "serve: requests/s against nginx", figure: "skipped: no wrk", target: ">= \(nginxRatioTarget)x", met: nil)]
        }
        let body = try LoopbackHTTPConnection(port: port).get(path).body
        let url = "http://127.0.0.1:\(port)\(path)"
        var outcomes: [TargetOutcome] = []
        var rows: [Row] = []
        let rounds = context.options.quick ? 1 : 3
        Report.progress("serve: wrk -t1 -c64 -d8s, serve and nginx in turn, \(rounds) round(s)")
        var serveRuns: [Wrk.Result] = []
        var ratios: [Double] = []
        let nginx: NginxServer?
        var nginxNote = ""
        if let executable = NginxServer.find() {
            nginx = try NginxServer(executable: executable, body: body, path: "/v1/prices", scratch: context.scratch)
            nginxNote = "nginx: \(executable) (worker_processes auto, keepalive_requests unlimited, no access log), the same \(body.utf8.count)-byte body as a static file"
        } else {
            nginx = nil
            nginxNote = "nginx skipped: not installed (apt-get install nginx); serve's figures alone"
        }
        defer { nginx?.stop() }
        for round in 1...rounds {
            let served = try wrk.run(context.scratch, connections: 64, seconds: 8, url: url)
            serveRuns.append(served)
            rows.append(Row(what: "round \(round): serve", median: served.summary))
            if let nginx {
                let reference = try wrk.run(context.scratch, connections: 64, seconds: 8, url: "http://127.0.0.1:\(nginx.port)\(path)")
                ratios.append(served.requestsPerSecond / reference.requestsPerSecond)
                rows.append(Row(what: "round \(round): nginx", median: reference.summary, ratio: String(format: "%.2fx", ratios[ratios.count - 1])))
            }
        }
        let p99 = median(serveRuns.map(\.p99Milliseconds))
        let failures = serveRuns.map(\.failures).reduce(0, +)
        if !ratios.isEmpty {
            let ratio = median(ratios)
            rows.append(Row(what: "serve / nginx requests/s (median of rounds)", median: String(format: "%.2fx", ratio),
                            target: ">= \(nginxRatioTarget)x", verdict: ratio >= nginxRatioTarget ? "met" : "MISSED"))
            outcomes.append(TargetOutcome(name: "serve: requests/s against nginx, wrk -t1 -c64", figure: String(format: "%.2fx", ratio),
                                          target: ">= \(nginxRatioTarget)x", met: ratio >= nginxRatioTarget && failures == 0))
        }
        rows.append(Row(what: "serve p99, ms (median of rounds)", median: String(format: "%.2f", p99),
                        target: "<= \(Int(wrkP99Target)) ms", verdict: p99 <= wrkP99Target ? "met" : "MISSED"))
        outcomes.append(TargetOutcome(name: "serve: p99 under wrk -t1 -c64", figure: String(format: "%.2f ms", p99),
                                      target: "<= \(Int(wrkP99Target)) ms", met: p99 <= wrkP99Target))
        Report.section("serve against nginx: wrk -t1 -c64 -d8s --latency \(url)")
        Report.note(nginxNote)
        Report.note("wrk shares the 2 cores with the server it measures; serve and nginx take turns, so load from elsewhere lands on both")
        if failures > 0 { Report.note("serve: \(failures) request(s) failed (non-2xx or socket errors)") }
        Report.table(rows, spreadHeading: "")

        outcomes += try idleAndSlow(context, wrk: wrk, serve: serve, port: port, url: url, path: path)
        return outcomes
    }

    /// (b) and (c): connections held open while one client asks with `wrk -t1 -c1 -d5s`.
    private static func idleAndSlow(_ context: BenchmarkContext, wrk: Wrk, serve: StartedChild, port: UInt16, url: String,
                                    path: String) throws -> [TargetOutcome] {
        var rows: [Row] = []
        var outcomes: [TargetOutcome] = []
        let before = try residentSetKilobytes(serve.pid)
        Report.progress("serve: \(idleConnections) idle keep-alive connections")
        do {
            let idle = try HeldConnections.idle(idleConnections, port: port, path: path)
            defer { idle.close() }
            let resident = try residentSetKilobytes(serve.pid)
            let active = try wrk.run(context.scratch, connections: 1, seconds: 5, url: url)
            let threads = threadCount(serve.pid)
            rows.append(Row(what: "serve RSS before / with \(idle.count) idle connections", median: Report.kilobytes(before) + " / " + Report.kilobytes(resident),
                            target: "<= \(Int(idleResidentTargetKilobytes / 1024)) MiB", verdict: resident <= idleResidentTargetKilobytes ? "met" : "MISSED"))
            rows.append(Row(what: "serve threads with them", median: String(threads)))
            rows.append(Row(what: "one active client beside them (wrk -c1 -d5s)", median: active.summary,
                            target: "p99 <= \(Int(wrkP99Target)) ms", verdict: active.p99Milliseconds <= wrkP99Target ? "met" : "MISSED"))
            outcomes.append(TargetOutcome(name: "serve: RSS with \(idleConnections) idle connections", figure: Report.kilobytes(resident),
                                          target: "<= \(Int(idleResidentTargetKilobytes / 1024)) MiB", met: resident <= idleResidentTargetKilobytes))
            outcomes.append(TargetOutcome(name: "serve: p99 of one client beside them", figure: String(format: "%.2f ms", active.p99Milliseconds),
                                          target: "<= \(Int(wrkP99Target)) ms", met: active.p99Milliseconds <= wrkP99Target && active.failures == 0))
        } catch {
            rows.append(Row(what: "\(idleConnections) idle keep-alive connections", median: "failed: \(error)", verdict: "MISSED"))
            outcomes.append(TargetOutcome(name: "serve: RSS with \(idleConnections) idle connections", figure: "could not hold them", target: "<= 64 MiB", met: false))
        }
        Report.progress("serve: \(slowClients) slow-header clients")
        do {
            let slow = try HeldConnections.slowHeaders(slowClients, port: port, path: path)
            defer { slow.close() }
            let polite = try wrk.run(context.scratch, connections: 1, seconds: 5, url: url)
            let delay = polite.maxMilliseconds
            rows.append(Row(what: "one client beside \(slow.count) slow-header clients (wrk -c1 -d5s)", median: polite.summary,
                            target: "max <= \(Int(slowDelayTarget)) ms", verdict: delay <= slowDelayTarget && polite.failures == 0 ? "met" : "MISSED"))
            outcomes.append(TargetOutcome(name: "serve: longest wait of a client beside \(slowClients) slow-header ones", figure: String(format: "%.2f ms (p99 %.2f ms)", delay, polite.p99Milliseconds),
                                          target: "<= \(Int(slowDelayTarget)) ms", met: delay <= slowDelayTarget && polite.failures == 0))
        } catch {
            rows.append(Row(what: "\(slowClients) slow-header clients", median: "failed: \(error)", verdict: "MISSED"))
            outcomes.append(TargetOutcome(name: "serve: a client beside \(slowClients) slow-header ones", figure: "could not hold them", target: "<= 10 ms", met: false))
        }
        Report.section("serve: held connections, and one client beside them")
        Report.note("idle: each connection made one request and read its answer, then stays open (serve.idleTimeoutSeconds 3600)")
        Report.note("slow: each sends a request head that never ends, one byte a second (serve.headerTimeoutSeconds 60)")
        Report.table(rows, spreadHeading: "")
        return outcomes
    }

    /// The number of threads of `pid` (`Threads:` of /proc/PID/status); 0 when unreadable.
    static func threadCount(_ pid: pid_t) -> Int {
        let status = ScratchDirectory.contents(of: "/proc/\(pid)/status")
        let line = status.split(separator: "\n").first { $0.hasPrefix("Threads:") }
        return line.flatMap { Int($0.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
    }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }
}
