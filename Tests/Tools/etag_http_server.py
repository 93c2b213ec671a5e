#!/usr/bin/env python3
"""A loopback HTTP/1.1 file server for the data updater's tests (Python 3.11 stdlib only).

Serves the files of --directory with an ETag (the SHA-256 of the body) and Last-Modified, answers If-None-Match /
If-Modified-Since with 304, and logs every request as one line "METHOD PATH STATUS BODY-BYTES" to --log (before the answer is sent). Faults are
read per request from DIRECTORY/.faults (one "PATH MODE" a line), so a test changes them between runs without a
restart:
  truncate   Content-Length of the whole file, half the body, then the connection closes
  stall      Content-Length of the whole file, half the body, then nothing for --stall-seconds
  slow       the whole body, 64 KiB at a time with 50 ms between (for cutting the client off mid-file)
  status:N   answers with status N and no body
It stops by itself after --lifetime seconds.
"""
import argparse
import email.utils
import hashlib
import http.server
import os
import threading
import time


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--directory", required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--lifetime", type=float, default=300)
    parser.add_argument("--stall-seconds", type=float, default=30)
    options = parser.parse_args()
    lock = threading.Lock()

    def log(line):
        with lock, open(options.log, "a", encoding="utf-8") as handle:
            handle.write(line + "\n")

    def faults():
        try:
            with open(os.path.join(options.directory, ".faults"), encoding="utf-8") as handle:
                return dict(line.split(None, 1) for line in handle.read().splitlines() if line.strip())
        except FileNotFoundError:
            return {}

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def answer(self, status, body=b"", headers=()):
            self.send_response(status)
            for name, value in headers:
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            log(f"GET {self.path} {status} {len(body)}")
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self):
            name = self.path.lstrip("/")
            path = os.path.join(options.directory, name)
            if "/.." in "/" + name or name.startswith(".") or not os.path.isfile(path):
                return self.answer(404)
            mode = faults().get(self.path, "").strip()
            if mode.startswith("status:"):
                return self.answer(int(mode.split(":")[1]))
            with open(path, "rb") as handle:
                body = handle.read()
            etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
            modified = email.utils.formatdate(os.stat(path).st_mtime, usegmt=True)
            if self.headers.get("If-None-Match") == etag:
                self.send_response(304)
                self.send_header("ETag", etag)
                log(f"GET {self.path} 304 0")
                self.end_headers()
                return
            self.send_response(200)
            self.send_header("ETag", etag)
            self.send_header("Last-Modified", modified)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if mode in ("truncate", "stall"):
                log(f"GET {self.path} 200 {len(body) // 2}")
                self.wfile.write(body[: len(body) // 2])
                self.wfile.flush()
                if mode == "stall":
                    time.sleep(options.stall_seconds)
                self.close_connection = True
                return
            # Logged before the last byte leaves, so that a client that has its answer finds it in the log.
            log(f"GET {self.path} 200 {len(body)}")
            if mode == "slow":
                for start in range(0, len(body), 65536):
                    self.wfile.write(body[start:start + 65536])
                    self.wfile.flush()
                    time.sleep(0.05)
            else:
                self.wfile.write(body)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", options.port), Handler)
    server.daemon_threads = True
    threading.Timer(options.lifetime, server.shutdown).start()
    server.serve_forever()


if __name__ == "__main__":
    main()
