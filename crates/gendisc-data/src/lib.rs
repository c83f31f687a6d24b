#![doc = include_str!("../README.md")]

pub mod generators;
pub mod loaders;
pub mod splits;
