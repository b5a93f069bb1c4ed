use std::collections::HashMap;
use std::fmt;
use std::time::Duration;

/// A rate limiter per client.
#[derive(Debug, Default)]
pub struct Limiter<K> {
    counts: HashMap<K, u32>,
    limit: u32,
}

impl<K: std::hash::Hash + Eq> Limiter<K> {
    /// Makes a limiter allowing `limit` calls per window.
    pub fn new(limit: u32) -> Self {
        Limiter { counts: HashMap::new(), limit }
    }

    pub fn allow(&mut self, key: K) -> bool {
        let count = self.counts.entry(key).or_insert(0);
        *count += 1;
        *count <= self.limit
    }
}

pub trait Clock {
    fn now(&self) -> Duration;
}

impl<K> fmt::Display for Limiter<K> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "limit {}", self.limit)
    }
}

fn main() {
    fn helper() -> u32 { 3 }
    let mut limiter = Limiter::new(helper());
    println!("{}", limiter.allow("a"));
}
