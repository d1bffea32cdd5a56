//! The state machine check against brute force over every command sequence.

use super::*;
