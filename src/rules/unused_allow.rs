//! `unused_allow`: an allow that suppresses nothing. A meta-diagnostic filled by
//! the engine after suppressions are matched (`crate::suppress::unused`); off
//! unless `--report-unused-allows`, `--select unused_allow` or the config turns it on.

use super::{engine_fills, Level, Rule};

pub const RULE: Rule = Rule {
    id: "unused_allow",
    default_level: Level::Off,
    languages: "java, rust",
    summary: "allow comment or annotation that suppresses nothing",
    doc: include_str!("../../rules/unused_allow.md"),
    precision: "very-high",
    check: engine_fills,
};
