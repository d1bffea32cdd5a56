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
//! Writes are bounded the same way: a program that stops reading its input
//! would block a write for ever once the pipe is full (a message larger
//! than the pipe, or a program that answers without reading). Each write
//! says by when it must be done (`WriteWatch`), and a watcher thread that
//! finds one past due stops the program, which ends the write. A write
//! costs two atomic stores; the watcher wakes every 20 ms.
//!
//! The hand-over between the threads costs a few microseconds per message
//! (measured: about a quarter of the throughput of a chatty lazy dialogue
//! with a Python client). Reading in the search's own thread with socket
//! pairs and their read timeouts was tried and is no faster: a socket's
//! system calls cost more than a pipe's.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, PoisonError};
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
    /// The program, and the write to it in progress.
    watch: Arc<WriteWatch>,
    input: ChildStdin,
    /// The lines of the program's standard output, from the reader thread.
    lines: Receiver<Incoming>,
    waits: Waits,
}

/// The program, shared with the watcher thread that stops it when a write
/// to it is past due.
#[derive(Debug)]
struct WriteWatch {
    child: Mutex<Child>,
    /// When the write in progress must be done by, in nanoseconds since
    /// `epoch` ([`NO_WRITE`]: none in progress; [`CUT`]: the watcher
    /// stopped the program during it).
    due: AtomicU64,
    epoch: Instant,
}

const NO_WRITE: u64 = 0;
const CUT: u64 = u64::MAX;

/// How often the watcher looks at the write in progress.
const WRITE_POLL: Duration = Duration::from_millis(20);

impl WriteWatch {
    /// Watches writes until the process is dropped, or stops the program
    /// and returns when a write is past due.
    fn watch(watch: &Arc<WriteWatch>) {
        while Arc::strong_count(watch) > 1 {
            std::thread::sleep(WRITE_POLL);
            let due = watch.due.load(Ordering::Acquire);
            let now = watch.nanos_at(Instant::now());
            if due != NO_WRITE
                && due != CUT
                && now > due
                && watch
                    .due
                    .compare_exchange(due, CUT, Ordering::AcqRel, Ordering::Acquire)
                    .is_ok()
            {
                let _ = watch.child().kill();
                return;
            }
        }
    }

    fn child(&self) -> std::sync::MutexGuard<'_, Child> {
        self.child.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// `at` in nanoseconds since the epoch (at least 1: 0 is [`NO_WRITE`]).
    fn nanos_at(&self, at: Instant) -> u64 {
        let nanos = at.saturating_duration_since(self.epoch).as_nanos();
        u64::try_from(nanos).unwrap_or(CUT - 1).clamp(1, CUT - 1)
    }
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
        let watch = Arc::new(WriteWatch {
            child: Mutex::new(child),
            due: AtomicU64::new(NO_WRITE),
            epoch: Instant::now(),
        });
        let watched = Arc::clone(&watch);
        let watcher = spawned.and_then(|_| {
            std::thread::Builder::new()
                .name("neatcheck-external-writes".into())
                .spawn(move || WriteWatch::watch(&watched))
        });
        if let Err(e) = watcher {
            let mut child = watch.child();
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!(
                "can not start the threads that talk to the program: {e}"
            ));
        }
        Ok(Process {
            watch,
            input,
            lines,
            waits,
        })
    }

    /// Changes the bounds of the waits to come.
    pub(crate) fn set_waits(&mut self, waits: Waits) {
        self.waits = waits;
    }

    /// When a wait or a write that starts now must end, and whether that
    /// is the deadline of `--time` (rather than the message timeout).
    fn bound(&self) -> (Instant, bool) {
        let by_timeout = Instant::now() + self.waits.message;
        match self.waits.deadline {
            Some(d) if d < by_timeout => (d, true),
            _ => (by_timeout, false),
        }
    }

    /// Sends one line. A write the program does not take within the
    /// message timeout (or by the deadline) stops the program.
    pub(crate) fn send(&mut self, line: &str) -> Result<(), NoMessage> {
        let (until, by_deadline) = self.bound();
        let due = self.watch.nanos_at(until);
        self.watch.due.store(due, Ordering::Release);
        let written = writeln!(self.input, "{line}").and_then(|_| self.input.flush());
        let cut = self.watch.due.swap(NO_WRITE, Ordering::AcqRel) == CUT;
        match written {
            _ if cut && by_deadline => Err(NoMessage::TimeLimit),
            _ if cut => Err(NoMessage::Error(format!(
                "the program did not take a message within {}: it stopped reading its input, \
                 and was stopped (raise the limit with --message-timeout)",
                show_duration(self.waits.message)
            ))),
            Ok(()) => Ok(()),
            Err(e) => Err(NoMessage::Error(format!(
                "the program stopped reading its input: {e}"
            ))),
        }
    }

    /// Waits for the next non-blank line; `waiting_for` says what it should
    /// be, for the error messages.
    pub(crate) fn receive_line(&mut self, waiting_for: &str) -> Result<String, NoMessage> {
        let (until, by_deadline) = self.bound();
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
    pub(crate) fn kill(self) {
        let mut child = self.watch.child();
        let _ = child.kill();
        let _ = child.wait();
    }

    /// Says goodbye, closes the program's input and waits for it to exit,
    /// at most the message timeout (then it is stopped).
    pub(crate) fn finish(mut self) {
        let _ = self.send("{\"done\":true}");
        drop(self.input);
        let until = Instant::now() + self.waits.message;
        let mut child = self.watch.child();
        loop {
            match child.try_wait() {
                Ok(Some(_)) | Err(_) => return,
                Ok(None) if Instant::now() >= until => {
                    let _ = child.kill();
                    let _ = child.wait();
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
