import Foundation
import PriceHostTesting

/// `pricehost serve` running in a sandbox on a port the kernel chose, for a test to talk to.
struct ServeProcess {
    let process: BackgroundProcess
    let port: UInt16

    /// Starts `pricehost serve --listen 127.0.0.1:0 --config plugins.json ARGUMENTS` and waits for its "serving on" line.
    /// - Parameter launcher: a command that runs the one after it (`unshare …`), or none.
    init(_ sandbox: Sandbox, _ arguments: [String] = [], environment: [String: String] = [:], launcher: [String] = []) throws {
        let command = launcher + [BuiltProducts.pricehost, "serve", "--listen", "127.0.0.1:0", "--config", sandbox.configPath] + arguments
        process = try BackgroundProcess(command[0], Array(command.dropFirst()),
                                        environment: environment, currentDirectory: sandbox.directory.path)
        guard let line = process.waitForErrorLine(containing: "serving on http://127.0.0.1:"),
              let port = line.split(separator: ":").last.flatMap({ UInt16($0) }) else {
            throw LoopbackHTTPConnection.ConnectionError.started(process.standardError)
        }
        self.port = port
    }

    /// `GET path` on a connection of its own.
    func get(_ path: String, headers: [String: String] = [:]) throws -> HTTPReply {
        try connect().get(path, headers: headers)
    }

    /// `POST path` with a JSON `body` on a connection of its own.
    func post(_ path: String, body: String) throws -> HTTPReply {
        let connection = try connect()
        try connection.send("POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
        return try connection.readReply()
    }

    /// A new connection.
    func connect(timeout: Double = 20) throws -> LoopbackHTTPConnection {
        try LoopbackHTTPConnection(port: port, timeout: timeout)
    }

    /// SIGTERM, then the exit status (nil when it had to be killed after `seconds`).
    @discardableResult
    func stop(within seconds: Double = 10) -> Int32? { process.terminate(within: seconds) }
}

extension LoopbackHTTPConnection.ConnectionError {
    static func started(_ standardError: String) -> Self {
        .init(description: "pricehost serve did not start; stderr:\n\(standardError)")
    }
}
