//! Yixin-Board's opening dialects: `yxswap2step1..3` (on the existing Swap2 decisions) and
//! `yxsoosorvstep1..6` (on [`crate::engine::opening`] under Soosõrv-8), with the replies
//! Yixin-Board reads (its `main.c`). Coordinates in the replies are `x y` in the order of the
//! `x,y` lines it sends. None of these changes the game: Yixin-Board sends the position with `BOARD`
//! when it wants a move.
//!
//! | Command | Reply |
//! |---|---|
//! | `yxswap2step1` | `MESSAGE SWAP2 MOVE1 x y`, `MOVE2`, `MOVE3` (the three stones) |
//! | `yxswap2step2` (3 stones by `YXBOARD`) | `MESSAGE SWAP2 SWAP1 YES` (take black) · `MESSAGE SWAP2 SWAP1 NO` (stay white; the GUI asks for move 4 with `BOARD`) · `MESSAGE SWAP2 MOVE4 x y` + `MESSAGE SWAP2 MOVE5 x y` |
//! | `yxswap2step3` (5 stones) | `MESSAGE SWAP2 SWAP2 YES` (take black) · `MESSAGE SWAP2 SWAP2 NO` (stay white; move 6 comes by `BOARD`) |
//! | `yxsoosorvstep1` | `MESSAGE SOOSORV MOVE1 x y`, `MOVE2`, `MOVE3` |
//! | `yxsoosorvstep2` + 3 moves + `done` | `MESSAGE SOOSORV SWAP1 YES` or `NO` |
//! | `yxsoosorvstep3` + 3 moves + `done` | `MESSAGE SOOSORV MOVE4 x y N` |
//! | `yxsoosorvstep4 N` + 4 moves + `done` | `MESSAGE SOOSORV SWAP2 YES` or `NO` |
//! | `yxsoosorvstep5 N` + 4 moves + `done` | `MESSAGE SOOSORV MOVE5 REFRESH`, N × `MESSAGE SOOSORV MOVE5 x y`, `MESSAGE SOOSORV MOVE5 DONE` |
//! | `yxsoosorvstep6` + 4 moves + the N offers + `done` | `MESSAGE SOOSORV MOVE5C x y` (the offer taken; move 6 comes by `BOARD`) |

use super::Session;
use crate::engine::opening::{Decision, OpeningGame, Protocol, Step};
use crate::engine::swap2::Swap2Answer;
use crate::engine::{Answer, Request};
use crate::types::{Color, Pos};
use std::io::Write;

fn xy(p: Pos) -> String {
    format!("{} {}", p.x(), p.y())
}

impl<W: Write> Session<W> {
    /// The stones of our board (set by `YXBOARD`) in Swap2 order: black, white, black, ...
    fn swap2_stones(&self) -> Vec<Pos> {
        let Some(b) = self.engine.board() else {
            return Vec::new();
        };
        let of = |c: Color| -> Vec<Pos> {
            b.history()
                .iter()
                .filter(|&&(_, k)| k == c)
                .map(|&(p, _)| p)
                .collect()
        };
        let (blacks, whites) = (of(Color::Black), of(Color::White));
        let mut stones = Vec::new();
        for i in 0..blacks.len().max(whites.len()) {
            stones.extend(blacks.get(i));
            stones.extend(whites.get(i));
        }
        stones
    }

    /// `yxswap2stepK`.
    pub(super) fn yx_swap2_step(&mut self, step: u8) {
        let stones = if step == 1 {
            Vec::new()
        } else {
            self.swap2_stones()
        };
        let want = [0, 3, 5][usize::from(step - 1)];
        if stones.len() != want {
            return self.out.error(&format!(
                "yxswap2step{step} needs {want} stones on the board (YXBOARD), not {}",
                stones.len()
            ));
        }
        let Some(answer) = self.swap2_decision(&stones) else {
            return;
        };
        let lines: Vec<String> = match (step, answer) {
            (1, Swap2Answer::Moves(m)) => m
                .iter()
                .enumerate()
                .map(|(i, &p)| format!("SWAP2 MOVE{} {}", i + 1, xy(p)))
                .collect(),
            (2, Swap2Answer::Swap) => vec!["SWAP2 SWAP1 YES".into()],
            (2, Swap2Answer::Moves(m)) if m.len() == 2 => vec![
                format!("SWAP2 MOVE4 {}", xy(m[0])),
                format!("SWAP2 MOVE5 {}", xy(m[1])),
            ],
            (2, Swap2Answer::Moves(_)) => vec!["SWAP2 SWAP1 NO".into()],
            (_, Swap2Answer::Swap) => vec!["SWAP2 SWAP2 YES".into()],
            (_, Swap2Answer::Moves(_)) => vec!["SWAP2 SWAP2 NO".into()],
        };
        for l in lines {
            self.out.message(&l);
        }
    }

    /// `yxsoosorvstepK [N]` with the moves so far.
    pub(super) fn yx_soosorv_step(&mut self, step: u8, n: Option<usize>, points: &[(i64, i64)]) {
        let moves: Result<Vec<Pos>, _> =
            points.iter().map(|&(x, y)| self.engine.pos(x, y)).collect();
        let moves = match moves {
            Ok(m) => m,
            Err(e) => return self.out.error(&e.to_string()),
        };
        let size = self.engine.board().map_or(15, |b| {
            if b.width() == b.height() {
                b.width()
            } else {
                0
            }
        });
        let (wanted, stones, n, offers) = match step {
            1 => (Step::Opening, &moves[..0], None, &moves[..0]),
            2 => (Step::Swap(3), &moves[..], None, &moves[..0]),
            3 => (Step::Fourth, &moves[..], None, &moves[..0]),
            4 => (Step::Swap(4), &moves[..], n, &moves[..0]),
            5 => (Step::Offers, &moves[..], n, &moves[..0]),
            _ => {
                let k = moves.len().min(4);
                let (s, o) = moves.split_at(k);
                (Step::Pick, s, Some(o.len()), o)
            }
        };
        let game = match OpeningGame::replay(Protocol::Soosorv8, size, stones, n, offers, wanted) {
            Ok(g) => g,
            Err(e) => return self.out.error(&format!("yxsoosorvstep{step}: {e}")),
        };
        self.arm_stop();
        let request = Request::Opening(&game, wanted);
        let decision = match self.engine.run(request, &self.sig.stop, &mut |_, _| {}) {
            Ok(Answer::Opening(d)) => d,
            Ok(_) => return self.out.error("the engine gave no opening decision"),
            Err(e) => return self.out.error(&e.to_string()),
        };
        let yes = |b: bool| if b { "YES" } else { "NO" };
        let lines: Vec<String> = match decision {
            Decision::Opening { stones, .. } => stones
                .iter()
                .enumerate()
                .map(|(i, &p)| format!("SOOSORV MOVE{} {}", i + 1, xy(p)))
                .collect(),
            Decision::Swap(s) if step == 2 => vec![format!("SOOSORV SWAP1 {}", yes(s))],
            Decision::Swap(s) => vec![format!("SOOSORV SWAP2 {}", yes(s))],
            Decision::Fourth { stone, offers } => {
                vec![format!(
                    "SOOSORV MOVE4 {} {}",
                    xy(stone),
                    offers.unwrap_or(1)
                )]
            }
            Decision::Offers(o) => std::iter::once("SOOSORV MOVE5 REFRESH".to_string())
                .chain(o.iter().map(|&p| format!("SOOSORV MOVE5 {}", xy(p))))
                .chain(std::iter::once("SOOSORV MOVE5 DONE".to_string()))
                .collect(),
            Decision::Pick { fifth, .. } => vec![format!("SOOSORV MOVE5C {}", xy(fifth))],
            Decision::Place(p) => vec![format!("SOOSORV MOVE {}", xy(p))],
        };
        for l in lines {
            self.out.message(&l);
        }
    }
}
