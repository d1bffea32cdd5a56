//! The external program as a process: its pipes, and the waits for its
//! messages, each bounded so that a program that hangs never hangs
//! neatcheck.
//!
//! A thread reads the program's standard output line by line and hands the
//! lines over a channel; the search waits on the channel with a timeout
//! (`recv_timeout`), so a wait ends when a line comes, when the output
//! ends, or when its time is up, whatever the program does. A wait is
//! bounded by the message timeout (`--message-timeout`: a program silent
//! that long is taken to hang) and by the deadline of `--time`, if any.
//!
//! The hand-over between the threads costs a few microseconds per message
//! (measured: about a quarter of the throughput of a chatty lazy dialogue
//! with a Python client). Reading in the search's own thread with socket
//! pairs and their read timeouts was tried and is no faster: a socket's
//! system calls cost more than a pipe's.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long neatcheck waits for the program's messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Waits {
    /// The longest silence of the program, per message.
    pub(crate) message: Duration,
    /// When the search's time limit (`--time`) runs out, if it has one.
    pub(crate) deadline: Option<Instant>,
}

/// The message timeout when none is given: generous for a predicate's one
/// run, short enough that a hung program is noticed.
pub(crate) const DEFAULT_MESSAGE_TIMEOUT: Duration = Duration::from_secs(10);

/// Why no message came.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum NoMessage {
    /// The program misbehaved (silent past the message timeout, ended its
    /// output, or unreadable): a protocol error, with its text.
    Error(String),
    /// The deadline of `--time` passed while waiting: the search's time
    /// limit, not the program's fault.
    TimeLimit,
}

/// What the reader thread hands over.
#[derive(Debug)]
enum Incoming {
    /// One line (without its line break).
    Line(String),
    /// The output ended.
    End,
    /// Reading failed.
    Failed(String),
}

/// A running external program.
#[derive(Debug)]
pub(crate) struct Process {
    child: Child,
    input: ChildStdin,
    /// The lines of the program's standard output, from the reader thread.
    lines: Receiver<Incoming>,
    waits: Waits,
}

impl Process {
    /// Starts the program and the thread that reads its output.
    pub(crate) fn start(program: &[String], waits: Waits) -> Result<Process, String> {
        let (cmd, args) = program.split_first().ok_or("no program to run")?;
        let mut child = Command::new(cmd)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("can not run `{cmd}`: {e}"))?;
        let input = child.stdin.take().ok_or("no pipe to the program")?;
        let output = child.stdout.take().ok_or("no pipe from the program")?;
        let (send, lines) = mpsc::channel();
        // The thread ends when the output ends (the program exited or was
        // killed) or when nobody listens any more; it is never joined, so
        // that a program whose children keep the pipe open can not hold
        // neatcheck up.
        let spawned = std::thread::Builder::new()
            .name("neatcheck-external-reader".into())
            .spawn(move || {
                let mut output = BufReader::new(output);
                loop {
                    let mut line = String::new();
                    let incoming = match output.read_line(&mut line) {
                        Ok(0) => Incoming::End,
                        Ok(_) => Incoming::Line(line),
                        Err(e) => Incoming::Failed(e.to_string()),
                    };
                    let last = !matches!(incoming, Incoming::Line(_));
                    if send.send(incoming).is_err() || last {
                        return;
                    }
                }
            });
        if let Err(e) = spawned {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!(
                "can not start the thread that reads the program: {e}"
            ));
        }
        Ok(Process {
            child,
            input,
            lines,
            waits,
        })
    }

    /// Changes the bounds of the waits to come.
    pub(crate) fn set_waits(&mut self, waits: Waits) {
        self.waits = waits;
    }

    /// Sends one line.
    pub(crate) fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.input, "{line}")
            .and_then(|_| self.input.flush())
            .map_err(|e| format!("the program stopped reading its input: {e}"))
    }

    /// Waits for the next non-blank line; `waiting_for` says what it should
    /// be, for the error messages.
    pub(crate) fn receive_line(&mut self, waiting_for: &str) -> Result<String, NoMessage> {
        let started = Instant::now();
        let by_timeout = started + self.waits.message;
        let (until, by_deadline) = match self.waits.deadline {
            Some(d) if d < by_timeout => (d, true),
            _ => (by_timeout, false),
        };
        loop {
            let left = until.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(Incoming::Line(line)) if line.trim().is_empty() => continue,
                Ok(Incoming::Line(line)) => return Ok(line.trim().to_string()),
                Ok(Incoming::End) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(NoMessage::Error(format!(
                        "the program ended its output (exited?) while neatcheck waited for \
                         {waiting_for}"
                    )))
                }
                Ok(Incoming::Failed(e)) => {
                    return Err(NoMessage::Error(format!(
                        "can not read the program's output (waiting for {waiting_for}): {e}"
                    )))
                }
                Err(RecvTimeoutError::Timeout) if by_deadline => return Err(NoMessage::TimeLimit),
                Err(RecvTimeoutError::Timeout) => {
                    return Err(NoMessage::Error(format!(
                        "the program sent nothing for {} while neatcheck waited for \
                         {waiting_for}; it was stopped (raise the limit with \
                         --message-timeout)",
                        show_duration(self.waits.message)
                    )))
                }
            }
        }
    }

    /// Stops the program at once (it hangs, or is cut by the time limit).
    pub(crate) fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Says goodbye, closes the program's input and waits for it to exit,
    /// at most the message timeout (then it is stopped).
    pub(crate) fn finish(mut self) {
        let _ = self.send("{\"done\":true}");
        drop(self.input);
        let until = Instant::now() + self.waits.message;
        loop {
            match self.child.try_wait() {
                Ok(Some(_)) | Err(_) => return,
                Ok(None) if Instant::now() >= until => {
                    let _ = self.child.kill();
                    let _ = self.child.wait();
                    return;
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(2)),
            }
        }
    }
}

/// A duration as the options write it (`200ms`, `10s`).
pub(crate) fn show_duration(d: Duration) -> String {
    if d.subsec_millis() == 0 && d.as_secs() > 0 {
        format!("{}s", d.as_secs())
    } else {
        format!("{}ms", d.as_millis())
    }
}
