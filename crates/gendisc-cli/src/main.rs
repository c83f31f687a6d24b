//! The `gendisc` command.

fn main() {}
