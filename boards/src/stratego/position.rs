//! The position: the whole truth of a game, its move generator and its rules.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;
use core::ops::Deref;

use serde::{Deserialize, Serialize};

use super::end::EndReason;
use super::rank::{Piece, Rank};
use super::setup::{seat_letter, write_grid, DiagramProblem, ParseProblem, Setup, SetupProblem};
use super::square::{Square, PAD_CELLS, PAD_W};
use super::view::{EnemyPiece, Seen, View};
use super::zobrist::{PIECE_KEYS, SIDE_KEY};
use super::{seat_name, Options, BLUE, RED};
use crate::game::{Actor, Game, Problems, Status};
use crate::{BySeat, Seat};

// A cell of the padded board is one byte:
//   0            empty
//   WALL         off the board or a lake
//   otherwise    owner bit (RED_BIT or BLUE_BIT) | flags | rank code (low four bits)
const EMPTY: u8 = 0;
const WALL: u8 = 0xC0;
const OWNER_MASK: u8 = 0xC0;
const RED_BIT: u8 = 0x80;
const BLUE_BIT: u8 = 0x40;
/// The rank is known to the opponent (revealed in battle, or a Scout seen moving far).
const REVEALED: u8 = 0x20;
/// The piece has moved, so both players know it is not a Bomb or the Flag.
const MOVED: u8 = 0x10;
const RANK_MASK: u8 = 0x0F;

const SCOUT: u8 = Rank::Scout as u8;
const DIRS: [usize; 4] = [1, PAD_W, 1usize.wrapping_neg(), PAD_W.wrapping_neg()];

const fn owner_bit(seat: Seat) -> u8 {
    RED_BIT >> seat.index()
}

const fn owner_of(cell: u8) -> Seat {
    if cell & RED_BIT != 0 {
        RED
    } else {
        BLUE
    }
}

const fn is_piece(cell: u8) -> bool {
    cell != EMPTY && cell != WALL
}

/// Index of a piece identity into the Zobrist table: owner * 16 + rank code.
const fn identity(cell: u8) -> usize {
    ((cell & BLUE_BIT != 0) as usize) << 4 | (cell & RANK_MASK) as usize
}

/// The most moves any position can have: 8 Scouts with at most 18 targets each and 25 other
/// movable pieces with at most 4 each is 244.
pub const MAX_MOVES: usize = 256;

/// A move or an attack: the piece on `from` goes to `to`. Written `a4-a5`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Move {
    /// Where the piece stands.
    pub from: Square,
    /// Where it goes (an attack when an enemy stands there).
    pub to: Square,
}

impl Move {
    /// The move from `from` to `to`.
    pub const fn new(from: Square, to: Square) -> Move {
        Move { from, to }
    }

    /// Parses `a4-a5`, `a4xa5` or `a4a5`.
    pub fn parse(s: &str) -> Option<Move> {
        let s = s.trim();
        let split = s
            .char_indices()
            .skip(1)
            .find(|&(_, c)| c == '-' || c == 'x' || c.is_ascii_alphabetic())?;
        let (from, rest) = s.split_at(split.0);
        let to = rest.trim_start_matches(['-', 'x']);
        Some(Move::new(Square::parse(from)?, Square::parse(to)?))
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from, self.to)
    }
}

/// A fixed-capacity list of moves, filled by the move generator without allocating.
#[derive(Clone)]
pub struct MoveList {
    len: usize,
    moves: [Move; MAX_MOVES],
}

impl MoveList {
    /// An empty list.
    pub const fn new() -> MoveList {
        let a = Square::from_pad(PAD_W + 1);
        MoveList {
            len: 0,
            moves: [Move::new(a, a); MAX_MOVES],
        }
    }

    #[inline(always)]
    fn push(&mut self, m: Move) {
        if self.len < MAX_MOVES {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }

    fn clear(&mut self) {
        self.len = 0;
    }

    fn retain(&mut self, mut keep: impl FnMut(&Move) -> bool) {
        let mut kept = 0;
        for i in 0..self.len {
            let m = self.moves[i];
            if keep(&m) {
                self.moves[kept] = m;
                kept += 1;
            }
        }
        self.len = kept;
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// How a battle ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BattleResult {
    /// The defender is removed and the attacker takes its square.
    AttackerWon,
    /// The attacker is removed; the defender stays.
    DefenderWon,
    /// Equal ranks: both are removed.
    BothRemoved,
}

/// A battle: both ranks are revealed to both players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Battle {
    /// The attacking piece.
    pub attacker: Piece,
    /// The attacked piece.
    pub defender: Piece,
    /// The attack.
    pub mv: Move,
    /// Who won.
    pub result: BattleResult,
}

impl Battle {
    /// Resolves `attacker` attacking `defender` by the rulebook.
    pub const fn resolve(attacker: Rank, defender: Rank) -> BattleResult {
        match (attacker, defender) {
            // "Did I reach the flag? We Bluecoats are victorious!"
            (_, Rank::Flag) => BattleResult::AttackerWon,
            // "Only a Miner can diffuse a bomb by tapping it." / "If I tap a bomb... I won't
            // survive!" The bomb stays.
            (Rank::Miner, Rank::Bomb) => BattleResult::AttackerWon,
            (_, Rank::Bomb) => BattleResult::DefenderWon,
            // The Spy eliminates the Marshal "by tapping him ... But if he (or anyone else)
            // attacks her, our Mademoiselle Joséphine is lost."
            (Rank::Spy, Rank::Marshal) => BattleResult::AttackerWon,
            (a, d) if a as u8 == d as u8 => BattleResult::BothRemoved,
            (a, d) if a as u8 > d as u8 => BattleResult::AttackerWon,
            _ => BattleResult::DefenderWon,
        }
    }
}

impl fmt::Display for Battle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} attacks {} {}: ",
            seat_name(self.attacker.owner),
            self.attacker.rank,
            seat_name(self.defender.owner),
            self.defender.rank
        )?;
        match (self.result, self.defender.rank) {
            (BattleResult::AttackerWon, Rank::Flag) => {
                write!(f, "the Flag is captured on {}", self.mv.to)
            }
            (BattleResult::AttackerWon, Rank::Bomb) => {
                write!(f, "the Bomb is defused, the Miner takes {}", self.mv.to)
            }
            (BattleResult::AttackerWon, _) => write!(
                f,
                "the {} wins and takes {}",
                self.attacker.rank, self.mv.to
            ),
            (BattleResult::DefenderWon, Rank::Bomb) => {
                write!(
                    f,
                    "the Bomb explodes, the {} is removed",
                    self.attacker.rank
                )
            }
            (BattleResult::DefenderWon, _) => write!(
                f,
                "the {} holds {}, the {} is removed",
                self.defender.rank, self.mv.to, self.attacker.rank
            ),
            (BattleResult::BothRemoved, _) => f.write_str("equal ranks, both are removed"),
        }
    }
}

/// What a played move did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Outcome {
    /// A piece moved to an empty square. No rank is revealed (a Scout seen moving more than one
    /// square is, by the fact itself).
    Moved(Move),
    /// An attack and its battle.
    Battle(Battle),
}

/// Why a move was refused, with the fix in its message. The words are for the player who moved,
/// who knows the piece: [`Illegal::Immovable`] and [`Illegal::TooFar`] say what kind of piece it
/// is, so a refusal the opponent may read (the table's screen) must be worded without them while
/// the piece's rank is hidden.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Illegal {
    /// The game is over.
    GameOver,
    /// `from` and `to` are the same square.
    SameSquare(Square),
    /// No piece stands on the square.
    Empty(Square),
    /// The piece there belongs to the other player.
    NotYours(Square),
    /// Bombs and the Flag never move.
    Immovable(Square),
    /// The target is a lake, or a Scout's path crosses one.
    Lake(Square),
    /// One's own piece stands on the target.
    OwnPiece(Square),
    /// Pieces move along rows and columns only.
    NotStraight,
    /// Only a Scout moves more than one square.
    TooFar,
    /// A piece stands in the Scout's way.
    Blocked(Square),
    /// The two-squares rule, with its limit.
    TwoSquares(u8),
    /// The more-squares rule.
    MoreSquares,
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Illegal::GameOver => f.write_str("the game is over"),
            Illegal::SameSquare(s) => write!(f, "the piece on {s} must move to another square"),
            Illegal::Empty(s) => write!(f, "there is no piece on {s}: move one of your pieces"),
            Illegal::NotYours(s) => {
                write!(f, "the piece on {s} is not yours: move one of your own")
            }
            Illegal::Immovable(s) => write!(
                f,
                "the piece on {s} cannot move (Bombs and the Flag stay put): move another"
            ),
            Illegal::Lake(s) => write!(f, "{s} is a lake: go around it"),
            Illegal::OwnPiece(s) => write!(
                f,
                "your own piece stands on {s}: move to an empty square or onto an enemy"
            ),
            Illegal::NotStraight => f.write_str("pieces move straight, never diagonally"),
            Illegal::TooFar => {
                f.write_str("only a Scout moves more than one square: move one square")
            }
            Illegal::Blocked(s) => write!(f, "{s} is in the way: pieces never jump"),
            Illegal::TwoSquares(n) => write!(
                f,
                "two-squares rule: no more than {n} moves in a row between the same two squares; \
                 move another piece or to another square"
            ),
            Illegal::MoreSquares => f.write_str(
                "more-squares rule: this chasing move repeats a position of the chase; \
                 make another move",
            ),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Illegal {}

/// A set of squares: bit `i` is [`Square`] index `i` (only the low 100 bits are used).
type Bits = u128;

const BOARD: Bits = (1 << 100) - 1;

const fn col_mask(col: u8) -> Bits {
    let mut m = 0;
    let mut row = 0;
    while row < 10 {
        m |= 1 << (row * 10 + col as u32);
        row += 1;
    }
    m
}

const NOT_COL_A: Bits = BOARD & !col_mask(0);
const NOT_COL_J: Bits = BOARD & !col_mask(9);

const LAKES: Bits = {
    let mut m = 0;
    let mut i = 0;
    while i < 100 {
        if let Some(s) = Square::from_index(i) {
            if s.is_lake() {
                m |= 1 << i;
            }
        }
        i += 1;
    }
    m
};

const fn bit(square: Square) -> Bits {
    1 << square.index()
}

/// The last run of moves a seat made between the same two squares (two-squares rule).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Run {
    from: u8,
    to: u8,
    count: u8,
}

/// A Stratego position: the whole truth, every rank included, plus the history the repetition
/// rules need. Show a seat only its [`View`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    options: Options,
    cells: [u8; PAD_CELLS],
    /// Each seat's pieces.
    occupied: BySeat<Bits>,
    /// Each seat's movable pieces that step one square (all but Scouts, Bombs and the Flag).
    steppers: BySeat<Bits>,
    /// Each seat's Scouts.
    scouts: BySeat<Bits>,
    alive: BySeat<[u8; 13]>,
    to_move: Seat,
    ply: u32,
    flag_taken_by: Option<Seat>,
    hash: u64,
    runs: BySeat<Run>,
    /// Where each seat's last move ended with its piece still standing there; 0 if none.
    last_to: BySeat<u8>,
    /// Positions since each seat began its current continuous chase (more-squares rule).
    chase: BySeat<Vec<u64>>,
}

impl Position {
    fn empty(options: Options) -> Position {
        let mut cells = [WALL; PAD_CELLS];
        for s in Square::all() {
            if !s.is_lake() {
                cells[s.pad()] = EMPTY;
            }
        }
        Position {
            options,
            cells,
            occupied: BySeat::default(),
            steppers: BySeat::default(),
            scouts: BySeat::default(),
            alive: BySeat([[0; 13]; 2]),
            to_move: RED,
            ply: 0,
            flag_taken_by: None,
            hash: 0,
            runs: BySeat::default(),
            last_to: BySeat::default(),
            chase: BySeat::default(),
        }
    }

    /// Puts a piece on an empty square (set-up only).
    fn put(&mut self, square: Square, piece: Piece) {
        let p = square.pad();
        let cell = owner_bit(piece.owner) | piece.rank.code();
        self.cells[p] = cell;
        self.hash ^= PIECE_KEYS[p][identity(cell)];
        self.alive[piece.owner][usize::from(piece.rank.code())] += 1;
        self.set_bits(square, cell, true);
    }

    /// Builds a position from a board diagram as [`Position::diagram`] writes it: ten lines from
    /// rank 10 down to rank 1, each an optional rank label then ten tokens: `..` empty, `~~` lake,
    /// or `r`/`b` (Red/Blue) followed by a rank character (`F B S 2`-`9 M`). A line of file
    /// letters is ignored. Counts may be below the army's (a position later in a game) but not
    /// above it. Nothing is revealed and no piece has moved.
    ///
    /// # Errors
    /// Every problem: unreadable lines, pieces on lakes, more pieces of a rank than the army has.
    pub fn from_diagram(
        options: Options,
        text: &str,
        to_move: Seat,
    ) -> Result<Position, Problems<DiagramProblem>> {
        let mut problems = Vec::new();
        let mut pieces = Vec::new();
        let mut row = 10u8;
        for (i, line) in text.lines().enumerate() {
            let mut tokens: Vec<&str> = line.split_whitespace().collect();
            if tokens.is_empty() || tokens[0] == "a" {
                continue;
            }
            if tokens[0].parse::<u8>().is_ok() {
                tokens.remove(0);
            }
            let problem = |message: String| {
                DiagramProblem::Parse(ParseProblem {
                    line: i + 1,
                    message,
                })
            };
            if row == 0 {
                problems.push(problem("a board has 10 rows; this is an 11th".into()));
                break;
            }
            row -= 1;
            if tokens.len() != 10 {
                problems.push(problem(alloc::format!(
                    "a row has 10 squares, found {}",
                    tokens.len()
                )));
                continue;
            }
            for (col, token) in tokens.iter().enumerate() {
                let Some(square) = Square::new(col as u8, row) else {
                    continue;
                };
                let mut chars = token.chars();
                let (Some(a), Some(b), None) = (chars.next(), chars.next(), chars.next()) else {
                    problems.push(problem(alloc::format!(
                        "'{token}' is not a square: write .., ~~, or r/b and a rank (rM, b2)"
                    )));
                    continue;
                };
                let owner = match a {
                    '.' | '~' if b == a => {
                        if a == '~' && !square.is_lake() {
                            problems.push(problem(alloc::format!("{square} is not a lake")));
                        }
                        continue;
                    }
                    'r' | 'R' => RED,
                    'b' => BLUE,
                    _ => {
                        problems.push(problem(alloc::format!(
                            "'{token}' is not a square: write .., ~~, or r/b and a rank (rM, b2)"
                        )));
                        continue;
                    }
                };
                match Rank::from_char(b) {
                    Some(rank) if square.is_lake() => {
                        let _ = rank;
                        problems.push(DiagramProblem::OnLake(square));
                    }
                    Some(rank) => pieces.push((square, Piece { owner, rank })),
                    None => problems.push(problem(alloc::format!(
                        "'{b}' in '{token}' is not a rank: use F B S 2-9 M"
                    ))),
                }
            }
        }
        if row != 0 && problems.is_empty() {
            problems.push(DiagramProblem::Parse(ParseProblem {
                line: text.lines().count().max(1),
                message: alloc::format!("a board has 10 rows, found {}", 10 - row),
            }));
        }
        for seat in [RED, BLUE] {
            for rank in Rank::ALL {
                let count = pieces
                    .iter()
                    .filter(|(_, p)| p.owner == seat && p.rank == rank)
                    .count();
                let max = options.variant.count(rank);
                if count > usize::from(max) {
                    problems.push(DiagramProblem::TooMany {
                        seat,
                        rank,
                        count: u8::try_from(count).unwrap_or(u8::MAX),
                        max,
                    });
                }
            }
        }
        if !problems.is_empty() {
            return Err(Problems(problems));
        }
        let mut position = Position::empty(options);
        for (square, piece) in pieces {
            position.put(square, piece);
        }
        if to_move != RED {
            position.to_move = to_move;
            position.hash ^= SIDE_KEY;
        }
        Ok(position)
    }

    /// The board as text, every rank shown (the umpire's eyes only): the format
    /// [`Position::from_diagram`] reads.
    pub fn diagram(&self) -> String {
        let mut out = String::new();
        write_grid(&mut out, |s| match self.piece_at(s) {
            None if s.is_lake() => ['~', '~'],
            None => ['.', '.'],
            Some(p) => [seat_letter(p.owner), p.rank.to_char()],
        });
        out
    }

    /// The seat to move.
    pub fn to_move(&self) -> Seat {
        self.to_move
    }

    /// Moves played so far.
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// The piece on `square`, rank included.
    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        let cell = self.cells[square.pad()];
        is_piece(cell).then(|| Piece {
            owner: owner_of(cell),
            rank: Rank::from_code(cell & RANK_MASK).unwrap_or(Rank::Flag),
        })
    }

    /// Whether the opponent of the piece on `square` knows its rank.
    pub fn is_revealed(&self, square: Square) -> bool {
        self.cells[square.pad()] & REVEALED != 0
    }

    /// Whether the piece on `square` has moved (so it is no Bomb or Flag, as both players saw).
    pub fn has_moved(&self, square: Square) -> bool {
        self.cells[square.pad()] & MOVED != 0
    }

    /// Every piece on the board with its square.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        Square::all().filter_map(|s| self.piece_at(s).map(|p| (s, p)))
    }

    /// How many pieces of `rank` `seat` still has on the board.
    pub fn alive(&self, seat: Seat, rank: Rank) -> u8 {
        self.alive[seat][usize::from(rank.code())]
    }

    /// A 64-bit key of the placement of pieces and the side to move (not of the history).
    pub fn key(&self) -> u64 {
        self.hash
    }

    /// Fills `out` with the legal moves of the side to move.
    pub fn legal_moves_into(&self, out: &mut MoveList) {
        out.clear();
        if self.flag_taken_by.is_some() {
            return;
        }
        self.pseudo_moves(self.to_move, out);
        // The two-squares rule can only refuse a move once the run has reached its limit, and
        // the more-squares rule only during a chase: skip the filtering pass otherwise.
        let seat = self.to_move;
        let two_squares = self
            .options
            .two_squares
            .is_some_and(|limit| self.runs[seat].count >= limit);
        let more_squares = self.options.more_squares && !self.chase[seat].is_empty();
        if two_squares || more_squares {
            out.retain(|m| self.repetition_rule(m.from.pad(), m.to.pad()).is_ok());
        }
    }

    /// The legal moves of the side to move.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.legal_moves_into(&mut list);
        list
    }

    /// Every move `seat`'s pieces could physically make, the repetition rules aside.
    ///
    /// Pieces that step one square are generated a direction at a time on bitboards; Scouts walk
    /// their rays on the padded mailbox.
    fn pseudo_moves(&self, seat: Seat, out: &mut MoveList) {
        let enemy = self.occupied[seat.opponent()];
        let empty = BOARD & !LAKES & !enemy & !self.occupied[seat];
        let open = empty | enemy;
        let steppers = self.steppers[seat];
        // (destinations, step from origin to destination)
        let dirs: [(Bits, usize); 4] = [
            (((steppers & NOT_COL_J) << 1) & open, 1),
            (((steppers & NOT_COL_A) >> 1) & open, 1usize.wrapping_neg()),
            ((steppers << 10) & open, 10),
            ((steppers >> 10) & open, 10usize.wrapping_neg()),
        ];
        for (mut targets, step) in dirs {
            while targets != 0 {
                let to = targets.trailing_zeros() as usize;
                targets &= targets - 1;
                out.push(Move::new(
                    Square::from_index_unchecked(to.wrapping_sub(step)),
                    Square::from_index_unchecked(to),
                ));
            }
        }
        let enemy_bit = owner_bit(seat.opponent());
        let cells = &self.cells;
        let mut scouts = self.scouts[seat];
        while scouts != 0 {
            let f = Square::from_index_unchecked(scouts.trailing_zeros() as usize);
            scouts &= scouts - 1;
            let from = f.pad();
            for d in DIRS {
                let mut to = from.wrapping_add(d);
                while cells[to] == EMPTY {
                    out.push(Move::new(f, Square::from_pad(to)));
                    to = to.wrapping_add(d);
                }
                if cells[to] & OWNER_MASK == enemy_bit {
                    out.push(Move::new(f, Square::from_pad(to)));
                }
            }
        }
    }

    /// Whether `seat` has any piece that could physically move.
    fn can_move(&self, seat: Seat) -> bool {
        let enemy = self.occupied[seat.opponent()];
        let open = (BOARD & !LAKES & !self.occupied[seat]) | enemy;
        let movers = self.steppers[seat] | self.scouts[seat];
        let reach = ((movers & NOT_COL_J) << 1)
            | ((movers & NOT_COL_A) >> 1)
            | (movers << 10)
            | (movers >> 10);
        reach & open != 0
    }

    fn is_chasing(&self, seat: Seat, to: usize) -> bool {
        let q = usize::from(self.last_to[seat.opponent()]);
        q != 0 && (to.abs_diff(q) == 1 || to.abs_diff(q) == PAD_W)
    }

    /// The repetition rules for a move of the side to move that is otherwise legal.
    fn repetition_rule(&self, from: usize, to: usize) -> Result<(), Illegal> {
        let seat = self.to_move;
        if let Some(limit) = self.options.two_squares {
            let run = self.runs[seat];
            if run.count >= limit && usize::from(run.to) == from && usize::from(run.from) == to {
                return Err(Illegal::TwoSquares(limit));
            }
        }
        if self.options.more_squares
            && !self.chase[seat].is_empty()
            && self.cells[to] == EMPTY
            && self.is_chasing(seat, to)
        {
            let id = identity(self.cells[from]);
            let after = self.hash ^ PIECE_KEYS[from][id] ^ PIECE_KEYS[to][id] ^ SIDE_KEY;
            if self.chase[seat].contains(&after) {
                return Err(Illegal::MoreSquares);
            }
        }
        Ok(())
    }

    fn remove(&mut self, p: usize) {
        let cell = self.cells[p];
        let seat = owner_of(cell);
        self.hash ^= PIECE_KEYS[p][identity(cell)];
        self.alive[seat][usize::from(cell & RANK_MASK)] -= 1;
        self.cells[p] = EMPTY;
        self.set_bits(Square::from_pad(p), cell, false);
    }

    fn relocate(&mut self, from: usize, to: usize, cell: u8) {
        let id = identity(cell);
        self.hash ^= PIECE_KEYS[from][id] ^ PIECE_KEYS[to][id];
        self.cells[from] = EMPTY;
        self.cells[to] = cell;
        let both = bit(Square::from_pad(from)) | bit(Square::from_pad(to));
        let seat = owner_of(cell);
        self.occupied[seat] ^= both;
        match cell & RANK_MASK {
            SCOUT => self.scouts[seat] ^= both,
            _ => self.steppers[seat] ^= both,
        }
    }

    /// Adds (`on`) or clears the bits of the piece `cell` on `square`.
    fn set_bits(&mut self, square: Square, cell: u8, on: bool) {
        let seat = owner_of(cell);
        let b = bit(square);
        let set = |bits: &mut Bits| {
            if on {
                *bits |= b;
            } else {
                *bits &= !b;
            }
        };
        set(&mut self.occupied[seat]);
        match cell & RANK_MASK {
            SCOUT => set(&mut self.scouts[seat]),
            c if c == Rank::Bomb as u8 || c == Rank::Flag as u8 => {}
            _ => set(&mut self.steppers[seat]),
        }
    }

    /// Checks everything but whose turn and the game's end.
    fn check_move(&self, m: &Move) -> Result<(), Illegal> {
        let (from, to) = (m.from.pad(), m.to.pad());
        let cell = self.cells[from];
        if !is_piece(cell) {
            return Err(Illegal::Empty(m.from));
        }
        if owner_of(cell) != self.to_move {
            return Err(Illegal::NotYours(m.from));
        }
        if cell & RANK_MASK == Rank::Bomb as u8 || cell & RANK_MASK == Rank::Flag as u8 {
            return Err(Illegal::Immovable(m.from));
        }
        if from == to {
            return Err(Illegal::SameSquare(m.from));
        }
        if m.to.is_lake() {
            return Err(Illegal::Lake(m.to));
        }
        let target = self.cells[to];
        if is_piece(target) && owner_of(target) == self.to_move {
            return Err(Illegal::OwnPiece(m.to));
        }
        let step = if m.from.row() == m.to.row() {
            if to > from {
                1
            } else {
                1usize.wrapping_neg()
            }
        } else if m.from.col() == m.to.col() {
            if to > from {
                PAD_W
            } else {
                PAD_W.wrapping_neg()
            }
        } else {
            return Err(Illegal::NotStraight);
        };
        if from.wrapping_add(step) != to {
            if cell & RANK_MASK != SCOUT {
                return Err(Illegal::TooFar);
            }
            let mut at = from.wrapping_add(step);
            while at != to {
                match self.cells[at] {
                    EMPTY => at = at.wrapping_add(step),
                    // On a straight path between two squares of the board a wall is a lake: "We
                    // will not swim or jump; we must march around."
                    WALL => return Err(Illegal::Lake(Square::from_pad(at))),
                    _ => return Err(Illegal::Blocked(Square::from_pad(at))),
                }
            }
        }
        self.repetition_rule(from, to)
    }

    fn apply(&mut self, m: &Move) -> Outcome {
        let seat = self.to_move;
        let opp = seat.opponent();
        let (from, to) = (m.from.pad(), m.to.pad());
        let cell = self.cells[from];
        let target = self.cells[to];

        let run = &mut self.runs[seat];
        if run.count > 0 && usize::from(run.to) == from && usize::from(run.from) == to {
            run.count = run.count.saturating_add(1);
        } else {
            run.count = 1;
        }
        run.from = from as u8;
        run.to = to as u8;

        let chasing = self.options.more_squares && target == EMPTY && self.is_chasing(seat, to);
        let before = self.hash;
        let outcome = if target == EMPTY {
            let mut moved = cell | MOVED;
            if cell & RANK_MASK == SCOUT && to.abs_diff(from) != 1 && to.abs_diff(from) != PAD_W {
                // Only a Scout moves more than one square: everyone saw which rank it is.
                moved |= REVEALED;
            }
            self.relocate(from, to, moved);
            self.last_to[seat] = to as u8;
            Outcome::Moved(*m)
        } else {
            let attacker = Piece {
                owner: seat,
                rank: Rank::from_code(cell & RANK_MASK).unwrap_or(Rank::Spy),
            };
            let defender = Piece {
                owner: opp,
                rank: Rank::from_code(target & RANK_MASK).unwrap_or(Rank::Flag),
            };
            let result = Battle::resolve(attacker.rank, defender.rank);
            match result {
                BattleResult::AttackerWon => {
                    self.remove(to);
                    self.relocate(from, to, cell | MOVED | REVEALED);
                    self.last_to[seat] = to as u8;
                    if defender.rank == Rank::Flag {
                        self.flag_taken_by = Some(seat);
                    }
                }
                BattleResult::DefenderWon => {
                    self.remove(from);
                    self.cells[to] |= REVEALED;
                    self.last_to[seat] = 0;
                }
                BattleResult::BothRemoved => {
                    self.remove(from);
                    self.remove(to);
                    self.last_to[seat] = 0;
                }
            }
            Outcome::Battle(Battle {
                attacker,
                defender,
                mv: *m,
                result,
            })
        };
        self.hash ^= SIDE_KEY;
        self.to_move = opp;
        self.ply += 1;

        if self.options.more_squares {
            if target != EMPTY {
                // Material changed: no earlier position can come back.
                self.chase[RED].clear();
                self.chase[BLUE].clear();
            } else {
                let after = self.hash;
                let own = &mut self.chase[seat];
                if chasing {
                    if own.is_empty() {
                        own.push(before);
                    }
                    own.push(after);
                } else {
                    own.clear();
                }
                let theirs = &mut self.chase[opp];
                if !theirs.is_empty() {
                    theirs.push(after);
                }
            }
        }
        outcome
    }
}

impl Game for Position {
    type Options = Options;
    type Setup = Setup;
    type SetupProblem = SetupProblem;
    type Action = Move;
    type Illegal = Illegal;
    type Outcome = Outcome;
    type View = View;
    type EndReason = EndReason;

    fn start(options: Options, setup: Setup) -> Result<Position, Problems<SetupProblem>> {
        setup.validate(options.variant)?;
        let mut position = Position::empty(options);
        for (seat, deployment) in setup.deployments.iter() {
            for &(square, rank) in &deployment.placements {
                position.put(square, Piece { owner: seat, rank });
            }
        }
        Ok(position)
    }

    fn options(&self) -> &Options {
        &self.options
    }

    fn to_act(&self) -> Actor {
        if self.status().is_ongoing() {
            Actor::Seat(self.to_move)
        } else {
            Actor::Nobody
        }
    }

    fn status(&self) -> Status<EndReason> {
        if let Some(winner) = self.flag_taken_by {
            return Status::Won {
                winner,
                reason: EndReason::FlagCaptured,
            };
        }
        if !self.legal_moves().is_empty() {
            Status::Ongoing
        } else if self.can_move(self.to_move.opponent()) {
            // "We will win the battle if ... Our opponent can no longer move any of their
            // troops on their next turn."
            Status::Won {
                winner: self.to_move.opponent(),
                reason: EndReason::NoMovesLeft,
            }
        } else {
            Status::Drawn {
                reason: EndReason::NeitherCanMove,
            }
        }
    }

    fn legal_actions(&self) -> Vec<Move> {
        self.legal_moves().to_vec()
    }

    fn check(&self, action: &Move) -> Result<(), Illegal> {
        if self.flag_taken_by.is_some() {
            return Err(Illegal::GameOver);
        }
        // The game also ends when the player to move has no legal move (see `status`); then every
        // move is refused, and the reason is that the game is over, not what is wrong with the
        // move. Only refused moves pay for the look at the move list.
        self.check_move(action).map_err(|reason| {
            if self.legal_moves().is_empty() {
                Illegal::GameOver
            } else {
                reason
            }
        })
    }

    fn play_unchecked(&mut self, action: &Move) -> Outcome {
        self.apply(action)
    }

    fn play(&mut self, action: &Move) -> Result<Outcome, Illegal> {
        self.check(action)?;
        Ok(self.apply(action))
    }

    fn view(&self, seat: Seat) -> View {
        let board = Square::all()
            .map(|s| {
                let cell = self.cells[s.pad()];
                if s.is_lake() {
                    return Seen::Lake;
                }
                let Some(piece) = self.piece_at(s) else {
                    return Seen::Empty;
                };
                let revealed = cell & REVEALED != 0;
                if piece.owner == seat {
                    Seen::Own {
                        rank: piece.rank,
                        revealed,
                    }
                } else {
                    Seen::Enemy(EnemyPiece {
                        rank: revealed.then_some(piece.rank),
                        has_moved: cell & MOVED != 0,
                    })
                }
            })
            .collect();
        let variant = self.options.variant;
        let lost = BySeat::from_fn(|s| {
            core::array::from_fn(|code| {
                Rank::from_code(code as u8).map_or(0, |r| variant.count(r) - self.alive(s, r))
            })
        });
        View::new(seat, self.to_move, self.ply, board, lost, self.status())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_parse_in_three_spellings() {
        let m = Move::new(Square::parse("a4").unwrap(), Square::parse("a5").unwrap());
        for s in ["a4-a5", "a4xa5", "a4a5", " a4-a5 "] {
            assert_eq!(Move::parse(s), Some(m), "{s}");
        }
        assert_eq!(
            Move::parse("j10-j9"),
            Some(Move::new(
                Square::parse("j10").unwrap(),
                Square::parse("j9").unwrap()
            ))
        );
        assert_eq!(Move::parse("a4"), None);
        assert_eq!(Move::parse("a4-z5"), None);
    }
}
