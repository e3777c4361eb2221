//! Time in the sessions: times as typed or written in records ([`parse_time`], Edax's
//! `90`, `1:30`, `1:02:03`, `0.2`) and shown ([`time_text`]), each side's game clock
//! ([`Clocks`]: the text mode's, running for the side to move as a chess clock does), GTP's
//! time systems ([`TimeSystem`], [`SideClock`]: main time and byo-yomi), and pondering
//! ([`Ponder`]: a search on the opponent's time that the next line stops).

use ply_othello::{Board, Color};
use ply_othello_engine::{Clock, Engine, Limits};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The longest time a clock setting takes: a year.
pub const MAX_TIME: Duration = Duration::from_secs(365 * 24 * 3600);

/// A time as Edax reads it: seconds (`90`, `0.2`), `mm:ss` or `hh:mm:ss` (`5:00`, `1:30:00`,
/// the seconds with a fraction if wanted: `0:00.5`); minutes and seconds after a colon are
/// below 60. `None` for anything else (signs, exponents, `inf`, more than [`MAX_TIME`]).
///
/// ```
/// use ply_othello_cli::protocol::clock::parse_time;
/// use std::time::Duration;
/// assert_eq!(parse_time("5:00"), Some(Duration::from_secs(300)));
/// assert_eq!(parse_time("0.2"), Some(Duration::from_millis(200)));
/// assert_eq!(parse_time("1:02:03"), Some(Duration::from_secs(3723)));
/// assert_eq!(parse_time("1:75"), None);
/// assert_eq!(parse_time("-1"), None);
/// ```
pub fn parse_time(text: &str) -> Option<Duration> {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let parts: Vec<&str> = text.trim().split(':').collect();
    let (last, lead) = parts.split_last()?;
    if lead.len() > 2 {
        return None;
    }
    let mut secs = 0.0;
    for (i, p) in lead.iter().enumerate() {
        let v: u32 = p.parse().ok().filter(|_| digits(p))?;
        if i > 0 && v >= 60 {
            return None;
        }
        secs = secs * 60.0 + f64::from(v);
    }
    let (int, frac) = last.split_once('.').unwrap_or((last, "0"));
    if !digits(int) || !digits(frac) {
        return None;
    }
    let s: f64 = last.parse().ok()?;
    if !lead.is_empty() && s >= 60.0 {
        return None;
    }
    secs = secs * 60.0 + s;
    (secs.is_finite() && secs <= MAX_TIME.as_secs_f64()).then(|| Duration::from_secs_f64(secs))
}

/// A clock reading: `m:ss.t` (`4:59.8`, `0:00.2`), `h:mm:ss.t` from an hour on; tenths
/// rounded down, so a clock shows 0:00.0 only below a tenth of a second.
pub fn time_text(t: Duration) -> String {
    let tenths = t.as_millis() / 100;
    let (s, tenth) = (tenths / 10, tenths % 10);
    let (h, m, s) = (s / 3600, s / 60 % 60, s % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}.{tenth}")
    } else {
        format!("{m}:{s:02}.{tenth}")
    }
}

fn index(c: Color) -> usize {
    match c {
        Color::Black => 0,
        Color::White => 1,
    }
}

/// Both sides' game clocks: the time each has left and the one running (the side to move's,
/// from when its turn began), as a chess clock.
#[derive(Clone, Debug)]
pub struct Clocks {
    left: [Duration; 2],
    running: Option<(Color, Instant)>,
    out: [bool; 2],
}

impl Clocks {
    /// Both clocks at `time`, stopped.
    pub fn new(time: Duration) -> Clocks {
        Clocks {
            left: [time; 2],
            running: None,
            out: [false; 2],
        }
    }

    /// Starts `side`'s clock now (after stopping a running one).
    pub fn start(&mut self, side: Color) -> Option<Color> {
        let flagged = self.stop();
        self.running = Some((side, Instant::now()));
        flagged
    }

    /// Stops the running clock, taking the time since it started off its side; that side when
    /// its time runs out with this (once a side is out of time, it is not reported again).
    pub fn stop(&mut self) -> Option<Color> {
        let (side, since) = self.running.take()?;
        let i = index(side);
        let used = since.elapsed();
        if used >= self.left[i] && !self.out[i] {
            self.out[i] = true;
            self.left[i] = Duration::ZERO;
            return Some(side);
        }
        self.left[i] = self.left[i].saturating_sub(used);
        None
    }

    /// The time `side` has left now (its running clock read as it runs).
    pub fn left(&self, side: Color) -> Duration {
        let i = index(side);
        match self.running {
            Some((s, since)) if s == side => self.left[i].saturating_sub(since.elapsed()),
            _ => self.left[i],
        }
    }

    /// The side whose clock runs, if one does.
    pub fn running(&self) -> Option<Color> {
        self.running.map(|(side, _)| side)
    }

    /// True once `side`'s time ran out.
    pub fn is_out(&self, side: Color) -> bool {
        self.out[index(side)] || self.left(side).is_zero()
    }

    /// Both clocks as a line: `Black 4:59.8, White 5:00.0`, a side out of time marked.
    pub fn text(&self) -> String {
        let one = |c: Color, name: &str| {
            let out = if self.is_out(c) { " (out of time)" } else { "" };
            format!("{name} {}{out}", time_text(self.left(c)))
        };
        format!(
            "{}, {}",
            one(Color::Black, "Black"),
            one(Color::White, "White")
        )
    }
}

/// A time system of GTP's `time_settings` and `kgs-time_settings`: main time, then byo-yomi.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeSystem {
    /// Main time, then periods of `byo` for `stones` moves each (Canadian byo-yomi); absolute
    /// time when `byo` or `stones` is zero.
    Canadian {
        /// Main time.
        main: Duration,
        /// Time of a byo-yomi period.
        byo: Duration,
        /// Moves of a period.
        stones: u32,
    },
    /// Main time, then `periods` periods of `byo`, each for one move and lost when the move
    /// takes longer (Japanese byo-yomi, KGS's `byoyomi`); absolute time when `byo` or
    /// `periods` is zero.
    Japanese {
        /// Main time.
        main: Duration,
        /// Time of a period.
        byo: Duration,
        /// Periods.
        periods: u32,
    },
}

/// One side's clock under a [`TimeSystem`], as GTP's `time_left` gives it: the time left in
/// the main time or in the current byo-yomi period, and the moves (Canadian) or periods
/// (Japanese) left in byo-yomi, 0 while the main time runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SideClock {
    /// Time left in the main time or the current period.
    pub left: Duration,
    /// Moves or periods left in byo-yomi; 0 in the main time.
    pub stones: u32,
}

impl TimeSystem {
    /// Its byo-yomi: the period, the stones or periods, and whether Japanese; `None` for
    /// absolute time.
    fn byo_yomi(self) -> Option<(Duration, u32, bool)> {
        let (byo, n, japanese) = match self {
            TimeSystem::Canadian { byo, stones, .. } => (byo, stones, false),
            TimeSystem::Japanese { byo, periods, .. } => (byo, periods, true),
        };
        (!byo.is_zero() && n > 0).then_some((byo, n, japanese))
    }

    /// A side's clock at the start of a game (in byo-yomi at once without main time).
    pub fn start(self) -> SideClock {
        let (TimeSystem::Canadian { main, .. } | TimeSystem::Japanese { main, .. }) = self;
        match self.byo_yomi() {
            Some((byo, n, _)) if main.is_zero() => SideClock {
                left: byo,
                stones: n,
            },
            _ => SideClock {
                left: main,
                stones: 0,
            },
        }
    }

    /// `c` after a move that took `used`: the main time runs down and byo-yomi follows it (the
    /// rest of the move taken from the first period); a Canadian period is renewed after its
    /// last move, a Japanese one after every move in time, and lost for every period a move
    /// overruns.
    pub fn after_move(self, c: SideClock, used: Duration) -> SideClock {
        let Some((byo, n, japanese)) = self.byo_yomi() else {
            return SideClock {
                left: c.left.saturating_sub(used),
                stones: 0,
            };
        };
        let (mut c, mut used) = (c, used);
        if c.stones == 0 {
            if used < c.left {
                return SideClock {
                    left: c.left - used,
                    stones: 0,
                };
            }
            used -= c.left;
            c = SideClock {
                left: byo,
                stones: n,
            };
        }
        if japanese {
            if used < c.left {
                return SideClock {
                    left: byo,
                    stones: c.stones,
                };
            }
            let over = (used - c.left).as_nanos() / byo.as_nanos();
            let lost = u32::try_from(over).unwrap_or(u32::MAX).saturating_add(1);
            let stones = c.stones.saturating_sub(lost);
            let left = if stones > 0 { byo } else { Duration::ZERO };
            return SideClock { left, stones };
        }
        match c.stones - 1 {
            0 => SideClock {
                left: byo,
                stones: n,
            },
            stones => SideClock {
                left: c.left.saturating_sub(used),
                stones,
            },
        }
    }
}

impl SideClock {
    /// The engine's [`Clock`] for its next move under `system`: what is left, for the moves
    /// left in a Canadian period or for this one move in a Japanese one. In the main time the
    /// byo-yomi that follows is not counted on.
    pub fn engine_clock(self, system: Option<TimeSystem>) -> Clock {
        let japanese = matches!(system, Some(TimeSystem::Japanese { .. }));
        let moves_to_go = match self.stones {
            0 => None,
            _ if japanese => Some(1),
            s => Some(s),
        };
        Clock {
            remaining: self.left,
            increment: Duration::ZERO,
            moves_to_go,
        }
    }
}

/// A search of a position in the background, on a [twin](Engine::twin) of the session's
/// engine (its tables warmed for the next search), with no output: pondering. Dropping it
/// stops the search and waits for its thread (a few milliseconds).
#[derive(Debug)]
pub struct Ponder {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Ponder {
    /// Starts searching `board` under `limits` on a twin of `engine` (no ponder when the
    /// thread cannot be started: pondering is only a help).
    pub fn start(engine: &Engine, board: Board, limits: Limits) -> Ponder {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let mut twin = engine.twin();
        let thread = std::thread::Builder::new()
            .name("ponder".into())
            .spawn(move || {
                twin.think(&board, &limits, &flag, &mut |_| {});
            })
            .ok();
        Ponder { stop, thread }
    }

    /// True while the search goes on.
    pub fn is_running(&self) -> bool {
        self.thread.as_ref().is_some_and(|t| !t.is_finished())
    }
}

impl Drop for Ponder {
    fn drop(&mut self) {
        self.stop.store(true, Relaxed);
        if let Some(t) = self.thread.take() {
            // a panic of the ponder thread lost nothing the session needs
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_othello_engine::EngineOptions;

    #[test]
    fn times_parse_as_edax_writes_them() {
        let ms = |t: u64| Some(Duration::from_millis(t));
        for (text, want) in [
            ("90", ms(90_000)),
            (" 0.2 ", ms(200)),
            ("5:00", ms(300_000)),
            ("0:00.5", ms(500)),
            ("1:02:03", ms(3_723_000)),
            ("0", ms(0)),
            ("8760:00:00", ms(MAX_TIME.as_millis() as u64)),
        ] {
            assert_eq!(parse_time(text), want, "{text}");
        }
        for bad in [
            "",
            "x",
            "-1",
            "+1",
            "1e3",
            "inf",
            "NaN",
            "1:",
            ":30",
            "1:60",
            "1:75:00",
            "1::0",
            "1:2:3:4",
            ".5",
            "5.",
            "1.5:00",
            "8760:00:01",
        ] {
            assert_eq!(parse_time(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn clock_readings() {
        assert_eq!(time_text(Duration::from_millis(299_850)), "4:59.8");
        assert_eq!(time_text(Duration::from_millis(200)), "0:00.2");
        assert_eq!(time_text(Duration::from_millis(99)), "0:00.0");
        assert_eq!(time_text(Duration::from_secs(3723)), "1:02:03.0");
    }

    #[test]
    fn the_running_clock_counts_down_and_flags_once() {
        let mut c = Clocks::new(Duration::from_millis(30));
        assert_eq!(c.left(Color::Black), Duration::from_millis(30));
        c.start(Color::Black);
        std::thread::sleep(Duration::from_millis(5));
        assert!(c.left(Color::Black) < Duration::from_millis(30));
        assert_eq!(c.left(Color::White), Duration::from_millis(30), "stopped");
        assert_eq!(c.start(Color::White), None);
        let black = c.left(Color::Black);
        std::thread::sleep(Duration::from_millis(2));
        assert_eq!(c.left(Color::Black), black, "Black's clock stopped");
        std::thread::sleep(Duration::from_millis(40));
        assert_eq!(c.stop(), Some(Color::White), "White's flag fell");
        assert!(c.is_out(Color::White) && !c.is_out(Color::Black));
        c.start(Color::White);
        assert_eq!(c.stop(), None, "reported once");
        assert!(
            c.text().ends_with("White 0:00.0 (out of time)"),
            "{}",
            c.text()
        );
    }

    #[test]
    fn byo_yomi_follows_the_main_time() {
        let s = Duration::from_secs;
        let canadian = TimeSystem::Canadian {
            main: s(10),
            byo: s(30),
            stones: 3,
        };
        let c = canadian.start();
        assert_eq!(
            c,
            SideClock {
                left: s(10),
                stones: 0
            }
        );
        assert_eq!(c.engine_clock(Some(canadian)).moves_to_go, None);
        let c = canadian.after_move(c, s(4));
        assert_eq!(
            c,
            SideClock {
                left: s(6),
                stones: 0
            }
        );
        // 2 s of this move come from the first period, which has 2 moves left
        let c = canadian.after_move(c, s(8));
        assert_eq!(
            c,
            SideClock {
                left: s(28),
                stones: 2
            }
        );
        assert_eq!(c.engine_clock(Some(canadian)).moves_to_go, Some(2));
        let c = canadian.after_move(c, s(5));
        assert_eq!(
            c,
            SideClock {
                left: s(23),
                stones: 1
            }
        );
        // the period's last move renews it
        let c = canadian.after_move(c, s(20));
        assert_eq!(
            c,
            SideClock {
                left: s(30),
                stones: 3
            }
        );

        let japanese = TimeSystem::Japanese {
            main: Duration::ZERO,
            byo: s(10),
            periods: 3,
        };
        let c = japanese.start();
        assert_eq!(
            c,
            SideClock {
                left: s(10),
                stones: 3
            }
        );
        assert_eq!(c.engine_clock(Some(japanese)).moves_to_go, Some(1));
        assert_eq!(
            japanese.after_move(c, s(9)),
            c,
            "in time: the period restarts"
        );
        let c = japanese.after_move(c, s(15));
        assert_eq!(
            c,
            SideClock {
                left: s(10),
                stones: 2
            }
        );
        assert_eq!(
            japanese.after_move(c, s(25)).left,
            Duration::ZERO,
            "out of time"
        );

        let absolute = TimeSystem::Canadian {
            main: s(5),
            byo: Duration::ZERO,
            stones: 0,
        };
        let c = absolute.after_move(absolute.start(), s(7));
        assert_eq!(
            c,
            SideClock {
                left: Duration::ZERO,
                stones: 0
            }
        );
    }

    #[test]
    fn dropping_a_ponder_stops_an_endless_search() {
        let engine = Engine::new(EngineOptions {
            hash_mib: 2,
            ..EngineOptions::default()
        });
        // an exact solve of the opening never ends by itself
        let limits = Limits {
            level: Some(60),
            ..Limits::default()
        };
        let p = Ponder::start(&engine, Board::start(), limits);
        std::thread::sleep(Duration::from_millis(50));
        assert!(p.is_running());
        let t = Instant::now();
        drop(p);
        // a guard against a hung search, not a speed target (the stop takes milliseconds)
        assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
    }
}
