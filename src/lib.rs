//! poolguard: finds the concurrency anti-patterns that turn one slow dependency
//! into a whole-service outage, in Java and Rust code.
//!
//! Data flows one way: [`walk`] -> [`lang`] front ends (parallel, per file) ->
//! [`facts`] -> [`link`] -> [`rules`] -> [`suppress`] -> [`render`].

pub mod baseline;
pub mod budget;
pub mod cache;
pub mod catalog;
pub mod cli;
pub mod config;
pub mod diagnostic;
pub mod dump;
pub mod engine;
pub mod escape;
pub mod facts;
pub mod generated;
pub mod ignore_files;
pub mod isolate;
pub mod lang;
pub mod link;
pub mod model;
pub mod options;
pub mod output;
pub mod paths;
pub mod render;
pub mod report;
pub mod root;
pub mod rules;
pub mod scope;
pub mod show;
pub mod since;
pub mod source;
pub mod suggest;
pub mod suppress;
pub mod walk;

pub use engine::{check, CheckOptions, Report};
