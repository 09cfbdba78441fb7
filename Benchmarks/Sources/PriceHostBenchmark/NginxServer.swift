import Glibc
import PriceHostTesting

/// Debian's nginx serving one static file, started by the benchmark as a child of its own
/// (`daemon off`): a config, pid file, error log and temp directories in the scratch
/// directory, on a free loopback port. The reference the serve case is compared with.
struct NginxServer {
    let port: UInt16
    private let child: StartedChild

    /// Where nginx is; `nil` when it is not installed.
    static func find() -> String? {
        ["/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/bin/nginx"].first { (path: String) in access(path, X_OK) == 0 }
    }

    /// Serves `body` as `application/json` at `path` (the query is ignored, as for any static file).
    /// Workers: one per core (`auto`, Debian's default); keep-alive without a request limit, as serve's;
    /// no access log, as serve runs without one.
    init(executable: String, body: String, path: String, scratch: ScratchDirectory) throws {
        let root = try scratch.makeDirectory("nginx")
        let www = root + "/www"
        for directory in [www, root + "/temp"] { mkdir(directory, 0o755) }
        let file = "prices.json"
        _ = try scratch.write(body, to: "nginx/www/\(file)")
        port = try RedisServer.freePort()
        let config = try scratch.write("""
            worker_processes auto;
            daemon off;
            pid \(root)/nginx.pid;
            error_log \(root)/error.log warn;
            events { worker_connections 16384; }
            http {
                access_log off;
                keepalive_requests 100000000;
                keepalive_timeout 3600s;
                client_body_temp_path \(root)/temp/body;
                proxy_temp_path \(root)/temp/proxy;
                fastcgi_temp_path \(root)/temp/fastcgi;
                uwsgi_temp_path \(root)/temp/uwsgi;
                scgi_temp_path \(root)/temp/scgi;
                server {
                    listen 127.0.0.1:\(port);
                    root \(www);
                    location = \(path) { default_type application/json; try_files /\(file) =404; }
                }
            }
            """, to: "nginx/nginx.conf")
        let command = Command(executable, ["-p", root, "-e", root + "/error.log", "-c", config])
        child = try Children.start(command, standardError: .file(root + "/stderr"), timeoutSeconds: 1800)
        for _ in 0..<500 {
            if let descriptor = try? LoopbackHTTPConnection.connectedSocket(port: port) {
                close(descriptor)
                return
            }
            usleep(10_000)
        }
        kill(child.pid, SIGTERM)
        _ = child.waitForExit()
        throw BenchmarkError("nginx did not listen on 127.0.0.1:\(port) within 5 s; its error log:\n"
            + ScratchDirectory.contents(of: root + "/error.log") + ScratchDirectory.contents(of: root + "/stderr"))
    }

    /// Stops nginx (SIGQUIT: a graceful stop of master and workers) and waits for it.
    func stop() {
        kill(child.pid, SIGQUIT)
        _ = child.waitForExit()
    }
}
