//! `pbrain-lianzhu`: the Gomocup brain.

fn main() {}
