//! A game's moves and variations as a flat list of nodes, the form a GUI keeps its move tree in
//! (and sends it in): each node is a move and the index of the node it is played after (none for
//! the first moves). The children of a node are the nodes naming it as parent, in their order in
//! the list; the first is the main continuation, the others are its variations.
//!
//! ```
//! use ply_chess::pgn::{self, PgnGame, TreeMove};
//! let game = pgn::read("1. e4 e5 (1... c5 2. Nf3) 2. Nf3 *").next().unwrap().unwrap();
//! let nodes = game.tree();
//! let uci: Vec<_> = nodes.iter().map(|n| (n.parent, n.mv.uci(false).to_string())).collect();
//! assert_eq!(uci, [(None, "e2e4".to_string()), (Some(0), "e7e5".into()), (Some(0), "c7c5".into()),
//!                  (Some(2), "g1f3".into()), (Some(1), "g1f3".into())]);
//! let again = PgnGame::from_tree(game.start, &nodes).unwrap();
//! assert_eq!(again.line, game.line);
//! ```

use super::{Line, PgnGame, PgnMove};
use crate::{Game, Move, Position};

/// Deepest nesting of variations [`PgnGame::from_tree`] builds (a variation inside a variation
/// inside ...): writing and dropping a record go as deep as it nests.
pub const MAX_NESTING: usize = 64;

/// One move of a move tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeMove {
    /// The node this move is played after: an earlier index of the list, or `None` for a move
    /// from the start position.
    pub parent: Option<usize>,
    /// The move.
    pub mv: Move,
}

/// Why a list of nodes is not a move tree.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TreeError {
    /// A node whose parent is not an earlier node of the list.
    #[error("node {node}: its parent {parent} is not an earlier node")]
    Parent {
        /// The node's index.
        node: usize,
        /// The parent it names.
        parent: usize,
    },
    /// A node whose move is not legal after its parent.
    #[error("node {node}: {mv} is not a legal move there")]
    Illegal {
        /// The node's index.
        node: usize,
        /// The move, in UCI.
        mv: String,
    },
    /// Variations nested deeper than [`MAX_NESTING`].
    #[error("variations nested deeper than {MAX_NESTING}")]
    TooDeep,
}

impl PgnGame {
    /// The record's moves as a flat tree: the main line first, each variation right after the
    /// move it replaces (so a node's main continuation comes before its variations). Comments
    /// and glyphs are not kept.
    pub fn tree(&self) -> Vec<TreeMove> {
        let mut nodes = Vec::new();
        // what is left to list: a line from its move `i`, played after node `parent`
        let mut todo: Vec<(&Line, usize, Option<usize>)> = vec![(&self.line, 0, None)];
        while let Some((line, i, parent)) = todo.pop() {
            let Some(m) = line.moves.get(i) else {
                continue;
            };
            let index = nodes.len();
            nodes.push(TreeMove { parent, mv: m.mv });
            // the line goes on after the variations of `m`, which are played after its parent
            todo.push((line, i + 1, Some(index)));
            todo.extend(m.variations.iter().rev().map(|v| (v, 0, parent)));
        }
        nodes
    }

    /// A record of the move tree `nodes` from `start`: the main line (each node's first child)
    /// with the other children as variations, the seven-tag roster and the main line's result
    /// by the rules, as [`PgnGame::from_game`] gives them.
    ///
    /// # Errors
    /// [`TreeError`] for a parent that is not an earlier node, a move that is not legal after
    /// its parent, or variations nested deeper than [`MAX_NESTING`].
    pub fn from_tree(start: Position, nodes: &[TreeMove]) -> Result<PgnGame, TreeError> {
        // the position after each node, its children and its depth of nesting
        let mut after: Vec<Position> = Vec::with_capacity(nodes.len());
        let mut children: Vec<Vec<usize>> = vec![Vec::new(); nodes.len()];
        let mut roots = Vec::new();
        let mut nesting = vec![0usize; nodes.len()];
        for (node, n) in nodes.iter().enumerate() {
            let (pos, siblings, depth) = match n.parent {
                None => (&start, &mut roots, 0),
                Some(p) if p < node => (&after[p], &mut children[p], nesting[p]),
                Some(parent) => return Err(TreeError::Parent { node, parent }),
            };
            if !pos.is_legal(n.mv) {
                return Err(TreeError::Illegal {
                    node,
                    mv: n.mv.uci(false).to_string(),
                });
            }
            nesting[node] = depth + usize::from(!siblings.is_empty());
            if nesting[node] > MAX_NESTING {
                return Err(TreeError::TooDeep);
            }
            siblings.push(node);
            after.push(pos.play(n.mv));
        }
        let mut game = Game::new(start);
        let mut next = roots.first().copied();
        while let Some(node) = next {
            // every move was checked above
            if game.play(nodes[node].mv).is_err() {
                break;
            }
            next = children[node].first().copied();
        }
        let mut record = PgnGame::from_game(&game);
        record.line = line_of(&roots, start, nodes, &children);
        Ok(record)
    }
}

/// The line that opens with the first of `alternatives` (played from `pos`) and goes on with
/// each node's first child, the other alternatives at each step as its variations.
fn line_of(
    alternatives: &[usize],
    pos: Position,
    nodes: &[TreeMove],
    children: &[Vec<usize>],
) -> Line {
    let mut line = Line::default();
    let mut pos = pos;
    let mut alternatives = alternatives;
    while let Some((&main, others)) = alternatives.split_first() {
        let mut m = PgnMove::new(nodes[main].mv);
        m.variations = others
            .iter()
            .map(|&v| line_of(std::slice::from_ref(&v), pos, nodes, children))
            .collect();
        line.moves.push(m);
        pos = pos.play(nodes[main].mv);
        alternatives = &children[main];
    }
    line
}
