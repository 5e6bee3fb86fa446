//! Evaluation tables: one value per pattern combination ("pcode") of a cell, per colour and
//! role, and one tempo value per threat mask; the hand-set [`Weights`] as one such table, and
//! learned tables read from (and written to) a small binary file.
//!
//! A *pcode* is the unordered multiset of a cell's four line shapes ([`super::shape`]: the
//! line patterns with live twos and threes told apart) for one colour: C(15 + 3, 4) = 3060 of
//! them, numbered densely ([`pcode_of`]). A cell's value for a colour
//! depends on its pcode and on whether that colour is the side to move (role 0) or not
//! (role 1). The *threat mask* ([`THREAT_MASKS`] entries) says which threat classes each side
//! has anywhere on the board, from the side to move's view; its table is the tempo term (who
//! moves first with a four-plus against a three, and so on). A rule may have a second set of
//! tables for boards above 15x15 ([`EvalSet::for_board`]; freestyle's are fitted with 20x20
//! games as well).
//!
//! File format, version 3 (all integers little-endian): the 8 bytes `LZEVAL` 0 3; the rule's
//! Gomocup number (u8) and three zero bytes; the values, i16 in 1/[`VALUE_UNIT`] evaluation
//! units, indexed `[colour][role][pcode]` (black first, role 0 first); the tempo values, i16
//! in evaluation units, indexed `[side to move][mask]`; the move-ordering scores, i16, indexed
//! `[colour][part][pcode]` (part 0: the colour's own move there, part 1: the colour blocking
//! the other's cell). Version 2 (`LZEVAL` 0 2) is the same layout with the values in whole
//! evaluation units. A file of any other length or header is rejected, except version 1
//! (`LZEVAL` 0 1, version 2's layout over the 1365 multisets of four line patterns), read as
//! the tables that give every shape its line pattern's values.
//!
//! Invariants: tables are immutable once built; [`EvalTables::from_bytes`] of
//! [`EvalTables::to_bytes`] gives the same tables; no global mutable state (the pcode map is
//! built once, immutably).

use super::shape::{self, SHAPE_KEYS, SHAPE_SLOTS};
use super::weights::Weights;
use crate::rules::pattern::{CellThreat, THREAT_MASK};
use crate::rules::tables::{self, combo_patterns, COMBINE_KEYS};
use crate::rules::Board;
use crate::types::Rule;
use std::fmt;
use std::sync::{Arc, LazyLock};

/// Number of pcodes: multisets of four of the 15 shapes.
pub const PCODES: usize = 3060;
/// Number of version-1 pcodes: multisets of four of the 12 line patterns.
pub const V1_PCODES: usize = 1365;
/// Number of threat masks (11 flags).
pub const THREAT_MASKS: usize = 1 << 11;
/// Values are stored at runtime in 1/`VALUE_UNIT` evaluation units (the hand-set weights scale
/// the side to move's sum by 20/16 = 5/4).
pub const VALUE_UNIT: i32 = 4;

const MAGIC: [u8; 8] = *b"LZEVAL\x00\x03";
const MAGIC_V2: [u8; 8] = *b"LZEVAL\x00\x02";
const MAGIC_V1: [u8; 8] = *b"LZEVAL\x00\x01";
const HEADER: usize = 12;
/// Length of a version-3 (and version-2) file.
pub const FILE_BYTES: usize = file_bytes(PCODES);
/// Length of a version-1 file.
pub const V1_FILE_BYTES: usize = file_bytes(V1_PCODES);

const fn file_bytes(pcodes: usize) -> usize {
    HEADER + 2 * (2 * 2 * pcodes + 2 * THREAT_MASKS + 2 * 2 * pcodes)
}

/// Dense numbers of the multisets of `keys` combination keys, in the order their first key
/// comes: the number of every key.
fn dense_multisets(
    keys: usize,
    codes: impl Fn(usize) -> [u8; 4],
    key_of: impl Fn([u8; 4]) -> usize,
) -> Box<[u16]> {
    let mut first = vec![u16::MAX; keys];
    let mut next = 0u16;
    (0..keys)
        .map(|key| {
            let mut c = codes(key);
            c.sort_unstable();
            let sorted = key_of(c);
            if first[sorted] == u16::MAX {
                first[sorted] = next;
                next += 1;
            }
            first[sorted]
        })
        .collect()
}

/// The dense pcode of every ordered shape combination key.
static PCODE: LazyLock<Box<[u16]>> =
    LazyLock::new(|| dense_multisets(SHAPE_KEYS, shape::key_shapes, shape::shape_key));

/// The version-1 pcode (of the line patterns) of every pcode.
static V1_PCODE: LazyLock<Box<[u16]>> = LazyLock::new(|| {
    let v1 = dense_multisets(COMBINE_KEYS, combo_patterns, tables::combine_key);
    let mut out = vec![0u16; PCODES];
    for key in 0..SHAPE_KEYS {
        out[pcode_of(key)] = v1[shape::pattern_key(key)];
    }
    out.into_boxed_slice()
});

/// The pcode of an ordered shape combination key ([`shape::shape_key`]).
#[inline]
pub fn pcode_of(combo: usize) -> usize {
    usize::from(PCODE[combo % SHAPE_KEYS])
}

/// The four shapes (sorted) of every pcode.
pub fn pcode_shapes() -> Vec<[u8; 4]> {
    let mut out = vec![[0u8; 4]; PCODES];
    for key in 0..SHAPE_KEYS {
        let mut p = shape::key_shapes(key);
        p.sort_unstable();
        out[pcode_of(key)] = p;
    }
    out
}

/// The 11 threat flags of a position, from the side to move's view, given per colour index
/// the number of empty cells of each [`CellThreat`] class: bit 0 the opponent has a five
/// point; then for the side to move (even bits) and the opponent (odd bits): 1/2 a winning
/// four point (live four or double four), 3/4 a four-plus point (a four with a three or
/// two), 5/6 a plain four point, 7/8 a three-plus point (a live three with more, or a double
/// three), 9/10 a live-three point.
#[inline]
pub fn threat_mask(counts: &[[u16; 32]; 2], me: usize) -> usize {
    let has = |c: usize, lo: CellThreat, hi: CellThreat| {
        counts[c][lo as usize..=hi as usize].iter().any(|&n| n > 0)
    };
    let mut mask = usize::from(counts[1 - me][CellThreat::Five as usize] > 0);
    for (side, c) in [me, 1 - me].into_iter().enumerate() {
        let flags = [
            has(c, CellThreat::Block4x2, CellThreat::Flex4),
            has(c, CellThreat::Block4Plus, CellThreat::Block4Flex3),
            has(c, CellThreat::Block4, CellThreat::Block4),
            has(c, CellThreat::Flex3Plus, CellThreat::Flex3x2),
            has(c, CellThreat::Flex3, CellThreat::Flex3),
        ];
        for (k, &f) in flags.iter().enumerate() {
            mask |= usize::from(f) << (1 + 2 * k + side);
        }
    }
    mask
}

/// The hand-set score of colour index `c` at a cell of shape combination key `key` under
/// `rule` (the line scores of its patterns plus its class bonus, 0 for a renju foul).
pub fn hand_cell(rule: Rule, weights: &Weights, key: usize, c: usize) -> i32 {
    let class = shape::table(rule).combine_keyed(key, c) & THREAT_MASK;
    weights.cell(shape::key_shapes(key).map(shape::base), class)
}

/// The tables of one rule.
#[derive(Clone, PartialEq, Eq)]
pub struct EvalTables {
    rule: Rule,
    /// `[colour][pcode]` -> the value for role 0 and role 1, in 1/[`VALUE_UNIT`] units.
    value: Box<[[[i32; 2]; PCODES]; 2]>,
    /// The same values by ordered shape combination key, `[combo][colour]`, with the cell's
    /// move-ordering value and move scores, for the incremental update (one lookup, no pcode
    /// step).
    by_combo: Box<[[CellScores; 2]; SHAPE_SLOTS]>,
    /// `[side to move][mask]`, in evaluation units.
    tempo: Box<[[i32; THREAT_MASKS]; 2]>,
    /// `[colour][part][pcode]`, as in the file.
    policy: Box<[[[i16; PCODES]; 2]; 2]>,
    /// True if any tempo value is not 0.
    has_tempo: bool,
    /// True if any move-ordering score is not 0.
    has_policy: bool,
}

/// What a cell's shape combination is worth to one colour, as the incremental board keeps
/// it per empty cell.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub struct CellScores {
    /// The values with the colour to move (role 0) and waiting (role 1), in 1/[`VALUE_UNIT`]
    /// units.
    pub value: [i16; 2],
    /// The hand-set cell score (line scores plus class bonus), for ordering fours.
    pub order: i16,
    /// The learned move scores: the colour's own move here (part 0), and the other colour
    /// blocking it here (part 1).
    pub policy: [i16; 2],
}

/// Why a table file was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalFileError {
    /// The file is neither `FILE_BYTES` nor `V1_FILE_BYTES` long.
    Length(usize),
    /// The first 8 bytes are not a version-3, 2 or 1 magic of that length.
    Magic,
    /// The rule byte is not a rule we play.
    Rule(u8),
    /// The file's rule is not the one it was loaded for.
    WrongRule {
        /// The file's rule.
        file: Rule,
        /// The rule it was loaded for.
        wanted: Rule,
    },
}

impl fmt::Display for EvalFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EvalFileError::Length(n) => {
                write!(
                    f,
                    "eval file has {n} bytes, a version-3 file has {FILE_BYTES} \
                     (version 1: {V1_FILE_BYTES})"
                )
            }
            EvalFileError::Magic => write!(f, "not a Lianzhu eval file (version 3, 2 or 1)"),
            EvalFileError::Rule(r) => write!(f, "eval file for unknown rule {r}"),
            EvalFileError::WrongRule { file, wanted } => {
                write!(f, "eval file is for {file}, not {wanted}")
            }
        }
    }
}

impl std::error::Error for EvalFileError {}

/// `M` copies of `row`, boxed.
fn rows<R: Copy, const M: usize>(row: R) -> Box<[R; M]> {
    vec![row; M]
        .into_boxed_slice()
        .try_into()
        .unwrap_or_else(|_| unreachable!("M rows"))
}

impl EvalTables {
    /// The hand-set `weights` as tables: a cell's value is the sum of its line scores plus
    /// its class bonus (0 for a renju foul), scaled by `own_scale` for role 0 and `opp_scale`
    /// for role 1; no tempo term; no move scores.
    pub fn from_weights(rule: Rule, weights: &Weights) -> EvalTables {
        let mut value = rows([[0i32; 2]; PCODES]);
        let unit = 16 / VALUE_UNIT;
        for key in 0..SHAPE_KEYS {
            for (c, row) in value.iter_mut().enumerate() {
                let cell = hand_cell(rule, weights, key, c);
                row[pcode_of(key)] =
                    [weights.own_scale, weights.opp_scale].map(|s| cell * s / unit);
            }
        }
        EvalTables::assemble(rule, value, rows([0; THREAT_MASKS]), rows([[0; PCODES]; 2]))
    }

    /// The tables from their parts, with the by-combination copy of the values.
    fn assemble(
        rule: Rule,
        value: Box<[[[i32; 2]; PCODES]; 2]>,
        tempo: Box<[[i32; THREAT_MASKS]; 2]>,
        policy: Box<[[[i16; PCODES]; 2]; 2]>,
    ) -> EvalTables {
        let mut by_combo = rows([CellScores::default(); 2]);
        let clamp = |x: i32| x.clamp(i16::MIN.into(), i16::MAX.into()) as i16;
        for (key, slot) in by_combo.iter_mut().enumerate().take(SHAPE_KEYS) {
            for (c, v) in slot.iter_mut().enumerate() {
                let k = pcode_of(key);
                *v = CellScores {
                    value: value[c][k].map(clamp),
                    order: clamp(hand_cell(rule, &Weights::DEFAULT, key, c)),
                    policy: [policy[c][0][k], policy[c][1][k]],
                };
            }
        }
        let has_tempo = tempo.iter().flatten().any(|&x| x != 0);
        let has_policy = policy.iter().flatten().flatten().any(|&x| x != 0);
        EvalTables {
            rule,
            value,
            by_combo,
            tempo,
            policy,
            has_tempo,
            has_policy,
        }
    }

    /// Tables from learned values: `value[colour][role][pcode]` in 1/[`VALUE_UNIT`] units,
    /// `tempo[side to move][mask]` in evaluation units and `policy[colour][part][pcode]`.
    pub fn from_values(
        rule: Rule,
        value: &[[[i16; PCODES]; 2]; 2],
        tempo: &[[i16; THREAT_MASKS]; 2],
        policy: &[[[i16; PCODES]; 2]; 2],
    ) -> EvalTables {
        let mut v = rows([[0i32; 2]; PCODES]);
        for c in 0..2 {
            for k in 0..PCODES {
                v[c][k] = [0, 1].map(|r| i32::from(value[c][r][k]));
            }
        }
        let mut t = rows([0i32; THREAT_MASKS]);
        for s in 0..2 {
            for m in 0..THREAT_MASKS {
                t[s][m] = i32::from(tempo[s][m]);
            }
        }
        EvalTables::assemble(rule, v, t, Box::new(*policy))
    }

    /// The rule these tables are for.
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The values of `colour` at a cell of pcode `pcode`, for role 0 and role 1, in
    /// 1/[`VALUE_UNIT`] units.
    #[inline]
    pub fn value(&self, colour: usize, pcode: usize) -> [i32; 2] {
        self.value[colour & 1][pcode]
    }

    /// What a cell of ordered shape combination key `combo` ([`shape::shape_key`]) is worth
    /// to `colour`: its values, its hand-set ordering value (whatever the evaluation's values)
    /// and its move scores.
    #[inline(always)]
    pub fn combo_scores(&self, combo: usize, colour: usize) -> CellScores {
        self.by_combo[combo & (SHAPE_SLOTS - 1)][colour & 1]
    }

    /// The tempo value of `mask` with `stm` (a colour index) to move, in evaluation units.
    #[inline]
    pub fn tempo(&self, stm: usize, mask: usize) -> i32 {
        self.tempo[stm & 1][mask % THREAT_MASKS]
    }

    /// The move-ordering score of `part` (0 own, 1 block) for `colour` at pcode `pcode`.
    #[inline]
    pub fn policy(&self, colour: usize, part: usize, pcode: usize) -> i16 {
        self.policy[colour & 1][part & 1][pcode]
    }

    /// True if any tempo value is not 0.
    #[inline]
    pub fn has_tempo(&self) -> bool {
        self.has_tempo
    }

    /// True if any move-ordering score is set.
    #[inline]
    pub fn has_policy(&self) -> bool {
        self.has_policy
    }

    /// The values in 1/[`VALUE_UNIT`] units, `[colour][role][pcode]`.
    pub fn values(&self) -> Box<[[[i16; PCODES]; 2]; 2]> {
        let mut out = rows([[0i16; PCODES]; 2]);
        for c in 0..2 {
            for r in 0..2 {
                for k in 0..PCODES {
                    let v = self.value[c][k][r];
                    out[c][r][k] = v.clamp(i16::MIN.into(), i16::MAX.into()) as i16;
                }
            }
        }
        out
    }

    /// The tempo values, `[side to move][mask]`.
    pub fn tempos(&self) -> Box<[[i16; THREAT_MASKS]; 2]> {
        let mut out = rows([0i16; THREAT_MASKS]);
        for s in 0..2 {
            for m in 0..THREAT_MASKS {
                out[s][m] = self.tempo[s][m].clamp(i16::MIN.into(), i16::MAX.into()) as i16;
            }
        }
        out
    }

    /// The move-ordering scores, `[colour][part][pcode]`.
    pub fn policies(&self) -> &[[[i16; PCODES]; 2]; 2] {
        &self.policy
    }

    /// The version-3 file of these tables.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(FILE_BYTES);
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&[self.rule.gomocup_id() as u8, 0, 0, 0]);
        let values = self.values();
        let tempos = self.tempos();
        let all = values
            .iter()
            .flatten()
            .flatten()
            .chain(tempos.iter().flatten())
            .chain(self.policy.iter().flatten().flatten());
        for v in all {
            out.extend_from_slice(&v.to_le_bytes());
        }
        debug_assert_eq!(out.len(), FILE_BYTES);
        out
    }

    /// Tables from a version-3 or version-2 file, or from a version-1 file (every shape
    /// valued as its line pattern); `Err` says why the file is none of them.
    pub fn from_bytes(bytes: &[u8]) -> Result<EvalTables, EvalFileError> {
        // The file's pcodes and the 1/VALUE_UNIT units of one of its value steps.
        let (pcodes, unit) = match (bytes.len(), bytes.get(..8)) {
            (FILE_BYTES, Some(m)) if m == MAGIC => (PCODES, 1),
            (FILE_BYTES, Some(m)) if m == MAGIC_V2 => (PCODES, VALUE_UNIT as i16),
            (V1_FILE_BYTES, Some(m)) if m == MAGIC_V1 => (V1_PCODES, VALUE_UNIT as i16),
            (FILE_BYTES | V1_FILE_BYTES, _) => return Err(EvalFileError::Magic),
            (n, _) => return Err(EvalFileError::Length(n)),
        };
        if bytes[9..12] != [0, 0, 0] {
            return Err(EvalFileError::Magic);
        }
        let rule = Rule::from_gomocup(i64::from(bytes[8]))
            .filter(|r| r.gomocup_id() == u32::from(bytes[8]))
            .ok_or(EvalFileError::Rule(bytes[8]))?;
        let words: Vec<i16> = bytes[HEADER..]
            .chunks_exact(2)
            .map(|w| i16::from_le_bytes([w[0], w[1]]))
            .collect();
        let (values, rest) = words.split_at(4 * pcodes);
        let (tempos, policies) = rest.split_at(2 * THREAT_MASKS);
        // The file's pcode of each pcode: itself, or its line patterns' version-1 pcode.
        let file_pcode = |k: usize| {
            if pcodes == PCODES {
                k
            } else {
                usize::from(V1_PCODE[k])
            }
        };
        let mut value = rows([[0i16; PCODES]; 2]);
        let mut policy = rows([[0i16; PCODES]; 2]);
        for c in 0..2 {
            for r in 0..2 {
                for k in 0..PCODES {
                    let at = (c * 2 + r) * pcodes + file_pcode(k);
                    value[c][r][k] = values[at].saturating_mul(unit);
                    policy[c][r][k] = policies[at];
                }
            }
        }
        let mut tempo = rows([0i16; THREAT_MASKS]);
        for (slot, &t) in tempo.iter_mut().flatten().zip(tempos) {
            *slot = t;
        }
        Ok(EvalTables::from_values(rule, &value, &tempo, &policy))
    }

    /// Tables for `rule` from a table file's bytes (version 3, 2 or 1).
    pub fn from_bytes_for(rule: Rule, bytes: &[u8]) -> Result<EvalTables, EvalFileError> {
        let t = EvalTables::from_bytes(bytes)?;
        if t.rule != rule {
            return Err(EvalFileError::WrongRule {
                file: t.rule,
                wanted: rule,
            });
        }
        Ok(t)
    }
}

impl fmt::Debug for EvalTables {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "EvalTables({})", self.rule)
    }
}

/// Boards whose longer side is above this many points read a rule's large-board tables
/// where it has them ([`EvalSet::for_board`]): 20x20 freestyle has far more open lines than
/// 15x15, and tables fitted with its games play it better.
pub const LARGE_BOARD_ABOVE: usize = 15;

/// The tables of every rule the search uses: learned tables where set, the hand-set weights
/// elsewhere (built on first use, per rule); optionally other tables of a rule for large
/// boards.
#[derive(Clone, Debug, Default)]
pub struct EvalSet {
    per_rule: [Option<Arc<EvalTables>>; 5],
    /// Tables for boards above [`LARGE_BOARD_ABOVE`]; `None`: the rule's `per_rule` tables.
    large: [Option<Arc<EvalTables>>; 5],
}

const RULES: [Rule; 5] = [
    Rule::Freestyle,
    Rule::Standard,
    Rule::Renju,
    Rule::Caro,
    Rule::CaroExact,
];

fn rule_index(rule: Rule) -> usize {
    RULES.iter().position(|&r| r == rule).unwrap_or(0)
}

fn hand_tables(i: usize) -> Arc<EvalTables> {
    Arc::new(EvalTables::from_weights(RULES[i], &Weights::DEFAULT))
}

static HAND: [LazyLock<Arc<EvalTables>>; 5] = [
    LazyLock::new(|| hand_tables(0)),
    LazyLock::new(|| hand_tables(1)),
    LazyLock::new(|| hand_tables(2)),
    LazyLock::new(|| hand_tables(3)),
    LazyLock::new(|| hand_tables(4)),
];

/// The learned table files compiled into the binary, one per rule that has one (caro has
/// none and plays the hand-set weights).
const LEARNED: &[&[u8]] = &[
    include_bytes!("learned/freestyle.lzev"),
    include_bytes!("learned/standard.lzev"),
    include_bytes!("learned/renju.lzev"),
];

/// The learned large-board table files compiled in (for boards above [`LARGE_BOARD_ABOVE`]).
const LEARNED_LARGE: &[&[u8]] = &[include_bytes!("learned/freestyle-large.lzev")];

static BUILTIN: LazyLock<EvalSet> = LazyLock::new(|| {
    let read = |bytes| EvalTables::from_bytes(bytes).expect("a shipped table file is well-formed");
    let mut set = EvalSet::hand();
    for bytes in LEARNED {
        set.set(read(bytes));
    }
    for bytes in LEARNED_LARGE {
        set.set_large(read(bytes));
    }
    set
});

impl EvalSet {
    /// The hand-set weights for every rule.
    pub fn hand() -> EvalSet {
        EvalSet::default()
    }

    /// The shipped tables: learned where the repository has them (`src/eval/learned/`,
    /// compiled in), hand-set elsewhere.
    pub fn builtin() -> EvalSet {
        BUILTIN.clone()
    }

    /// The tables for `rule` on boards up to [`LARGE_BOARD_ABOVE`] points a side.
    pub fn get(&self, rule: Rule) -> Arc<EvalTables> {
        let i = rule_index(rule);
        self.per_rule[i]
            .clone()
            .unwrap_or_else(|| Arc::clone(&HAND[i]))
    }

    /// The tables for `rule` on `board`: the rule's large-board tables when the board's
    /// longer side is above [`LARGE_BOARD_ABOVE`] and the rule has them, else [`EvalSet::get`].
    pub fn for_board(&self, rule: Rule, board: &Board) -> Arc<EvalTables> {
        let side = board.width().max(board.height());
        match &self.large[rule_index(rule)] {
            Some(t) if side > LARGE_BOARD_ABOVE => Arc::clone(t),
            _ => self.get(rule),
        }
    }

    /// Uses `tables` for their rule on every board size (a `--eval` file replaces the
    /// large-board tables too).
    pub fn set(&mut self, tables: EvalTables) {
        let i = rule_index(tables.rule);
        self.per_rule[i] = Some(Arc::new(tables));
        self.large[i] = None;
    }

    /// Uses `tables` for their rule on boards above [`LARGE_BOARD_ABOVE`] points a side.
    pub fn set_large(&mut self, tables: EvalTables) {
        let i = rule_index(tables.rule);
        self.large[i] = Some(Arc::new(tables));
    }
}
