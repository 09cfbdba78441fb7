import Foundation

/// A private CA and a server certificate it signed, made with the openssl command, for `wss://` and `https://` tests.
public enum TestCertificates {
    /// The openssl command, when installed.
    public static var openssl: String? {
        ["/usr/bin/openssl", "/bin/openssl", "/usr/local/bin/openssl"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// A CA, and a certificate for 127.0.0.1 that it signed: ca.pem, server.pem, server.key.
    public static func make(in directory: TemporaryDirectory, openssl: String) throws {
        let extensions = try directory.write("subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\n", to: "server.ext")
        let steps: [[String]] = [
            ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", directory.file("ca.key"),
             "-out", directory.file("ca.pem"), "-days", "2", "-subj", "/CN=pricehost test CA"],
            ["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", directory.file("server.key"),
             "-out", directory.file("server.csr"), "-subj", "/CN=127.0.0.1"],
            ["x509", "-req", "-in", directory.file("server.csr"), "-CA", directory.file("ca.pem"), "-CAkey", directory.file("ca.key"),
             "-CAcreateserial", "-out", directory.file("server.pem"), "-days", "2", "-extfile", extensions],
        ]
        for arguments in steps {
            let result = try CommandRunner.run(openssl, arguments, currentDirectory: directory.path, timeout: 30)
            guard result.status == 0 else { throw FixtureError("openssl \(arguments.joined(separator: " ")) failed: \(result)") }
        }
    }

}
