#![doc = include_str!("../README.md")]

pub mod cv;
pub mod encoding;
pub mod generators;
pub mod loaders;
pub mod splits;
