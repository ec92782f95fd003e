//! A client of `cargo autofix mcp` for the tests and the benchmark:
//! JSON-RPC lines on the server's stdin and stdout.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// A running server and the lines it writes.
pub struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Value>,
    next: u64,
    /// Notifications received so far.
    pub notifications: Vec<Value>,
}

impl Client {
    /// Starts the server `command` runs (`cargo-autofix autofix mcp ...`)
    /// and does the handshake.
    pub fn start(command: &mut Command) -> Client {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (sender, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                let value: Value = serde_json::from_str(&line)
                    .unwrap_or_else(|e| panic!("not JSON on stdout ({e}): {line}"));
                if sender.send(value).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        let mut client = Client {
            child,
            stdin,
            lines,
            next: 1,
            notifications: Vec::new(),
        };
        let init = client.request(
            "initialize",
            json!({
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "tests/mcp.rs", "version": "1"}
            }),
        );
        assert_eq!(
            init["result"]["serverInfo"]["name"], "cargo-autofix",
            "{init}"
        );
        assert!(
            init["result"]["capabilities"]["tools"].is_object(),
            "{init}"
        );
        client.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        client
    }

    pub fn send(&mut self, message: Value) {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{message}").unwrap();
        stdin.flush().unwrap();
    }

    /// Sends a request; its id.
    pub fn send_request(&mut self, method: &str, params: Value) -> u64 {
        let id = self.next;
        self.next += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        id
    }

    /// The response to request `id`, keeping the notifications before it.
    pub fn response(&mut self, id: u64) -> Value {
        loop {
            let message = match self.lines.recv_timeout(Duration::from_secs(600)) {
                Ok(message) => message,
                Err(RecvTimeoutError::Timeout) => panic!("no answer to request {id}"),
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("the server ended before answering {id}")
                }
            };
            if message["id"] == id {
                return message;
            }
            if message.get("id").is_none() {
                self.notifications.push(message);
            }
        }
    }

    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.send_request(method, params);
        self.response(id)
    }

    /// A tool call's result (an MCP tool result, error or not).
    pub fn call(&mut self, tool: &str, arguments: Value) -> Value {
        let response = self.request(
            "tools/call",
            json!({"name": tool, "arguments": arguments, "_meta": {"progressToken": tool}}),
        );
        response["result"].clone()
    }

    /// Closes stdin, as a client that is done; the server's exit code.
    pub fn close(mut self) -> i32 {
        drop(self.stdin.take());
        let started = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code().unwrap_or(-1);
            }
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "the server did not stop"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}
