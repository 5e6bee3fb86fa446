//! The page's view of the session: everything it shows, as one JSON object.

use super::{Line, Session, Thinking};
use crate::game::{color_name, foul_name, Outcome, Pt};
use crate::json::Json;
use crate::vcf::VcfAnswer;

impl Session {
    /// Everything the page shows, as JSON.
    pub fn state_json(&self) -> Json {
        let g = &self.game;
        let pts = |v: &[Pt]| Json::strs(v.iter());
        let (outcome, five, result) = match g.outcome() {
            Outcome::Ongoing => ("ongoing", vec![], String::new()),
            Outcome::Five { winner, line } => (
                "five",
                line.clone(),
                format!("{} wins with five", color_name(*winner)),
            ),
            Outcome::Foul { at, foul } => (
                "foul",
                vec![*at],
                format!(
                    "black played a forbidden point at {at} ({}): white wins",
                    foul_name(*foul)
                ),
            ),
            Outcome::Draw => ("draw", vec![], "draw: the board is full".to_string()),
        };
        let lines = self
            .lines
            .iter()
            .enumerate()
            .filter(|(_, l)| !l.depth.is_empty());
        let line_json = |(i, l): (usize, &Line)| {
            Json::Obj(vec![
                ("multipv", Json::Int(i as i64 + 1)),
                ("depth", Json::str(&l.depth)),
                ("ev", Json::str(&l.ev)),
                ("winrate", Json::opt(l.winrate, Json::Num)),
                ("nodes", Json::Int(l.nodes as i64)),
                ("ms", Json::Int(l.ms as i64)),
                ("pv", Json::strs(&l.pv)),
            ])
        };
        let vcf_json = |a: &VcfAnswer| match a {
            VcfAnswer::Win(line) => Json::Obj(vec![
                ("result", Json::str("win")),
                ("line", Json::strs(line)),
            ]),
            VcfAnswer::None => Json::Obj(vec![("result", Json::str("none"))]),
            VcfAnswer::Unknown => Json::Obj(vec![("result", Json::str("unknown"))]),
            VcfAnswer::Error(why) => Json::Obj(vec![
                ("result", Json::str("error")),
                ("why", Json::str(why)),
            ]),
        };
        let vcf = match (&self.vcf, &self.info.solver) {
            (Some([b, w]), _) => Json::Obj(vec![("black", vcf_json(b)), ("white", vcf_json(w))]),
            (None, Some(_)) => Json::str("pending"),
            (None, None) => Json::str("unavailable"),
        };
        let engine_state = if self.info.error.is_some() {
            "failed"
        } else if self.engine.is_none() {
            "stopped"
        } else if self.thinking.is_some() {
            "thinking"
        } else {
            "ready"
        };
        Json::Obj(vec![
            ("version", Json::Int(self.version as i64)),
            ("rule", Json::str(g.rule().name())),
            ("size", Json::Int(g.size() as i64)),
            ("moves", pts(g.moves())),
            ("to_move", Json::str(color_name(g.to_move()))),
            ("outcome", Json::str(outcome)),
            ("five", pts(&five)),
            ("result", Json::str(result)),
            ("mode", Json::str(self.settings.mode.name())),
            ("move_ms", Json::Int(self.settings.move_ms as i64)),
            ("analysis_ms", Json::Int(self.settings.analysis_ms as i64)),
            ("nbest", Json::Int(self.settings.nbest as i64)),
            (
                "thinking",
                Json::opt(self.thinking, |t| {
                    Json::str(if t == Thinking::Move {
                        "move"
                    } else {
                        "analysis"
                    })
                }),
            ),
            ("lines", Json::Arr(lines.map(line_json).collect())),
            (
                "realtime_pos",
                Json::opt(self.realtime_pos, |p| Json::str(p.to_string())),
            ),
            (
                "realtime_best",
                Json::opt(self.realtime_best, |p| Json::str(p.to_string())),
            ),
            ("forbid", Json::opt(self.forbid.as_deref(), pts)),
            ("vcf", vcf),
            (
                "engine",
                Json::Obj(vec![
                    ("command", Json::str(self.engine_cmd.join(" "))),
                    ("name", Json::opt(self.info.name.clone(), Json::Str)),
                    ("state", Json::str(engine_state)),
                    ("error", Json::opt(self.info.error.clone(), Json::Str)),
                    ("yx", Json::opt(self.info.yx, Json::Bool)),
                ]),
            ),
            (
                "message",
                Json::Obj(vec![
                    ("id", Json::Int(self.message.0 as i64)),
                    ("text", Json::str(&self.message.1)),
                ]),
            ),
        ])
    }
}

/// The win rate of a progress line's `ev`: the logistic of protocol.md (`1/(1+e^(-ev/500))`),
/// 1 / 0 for a found win / loss. The engine's own `INFO WINRATE`, when it sends one, wins.
pub fn parse_ev(ev: &str) -> Option<f64> {
    if ev.starts_with("+M") || ev.starts_with('M') {
        return Some(1.0);
    }
    if ev.starts_with("-M") {
        return Some(0.0);
    }
    let score: f64 = ev.parse().ok()?;
    Some(1.0 / (1.0 + (-score / 500.0).exp()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ev_to_win_rate() {
        assert_eq!(parse_ev("+M7"), Some(1.0));
        assert_eq!(parse_ev("-M4"), Some(0.0));
        assert_eq!(parse_ev("0"), Some(0.5));
        let w = parse_ev("500").unwrap();
        assert!((w - 0.7311).abs() < 1e-4, "{w}");
        assert_eq!(parse_ev("x"), None);
    }
}
