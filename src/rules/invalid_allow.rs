//! `invalid_allow`: an allow comment or `@SuppressWarnings("poolguard..")` that
//! names no rule poolguard has, or names none at all. A meta-diagnostic (like
//! ruff's RUF100): the engine reports it while it matches suppressions
//! (`crate::suppress::invalid`), so its registry check finds nothing.

use super::{engine_fills, Level, Rule};

pub const RULE: Rule = Rule {
    id: "invalid_allow",
    default_level: Level::Warning,
    languages: "java, rust",
    summary: "allow comment or annotation naming an unknown rule, or no rule",
    doc: include_str!("../../rules/invalid_allow.md"),
    precision: "very-high",
    check: engine_fills,
};
