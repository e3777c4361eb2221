use super::*;

/// The file formats (ply's own, Edax's `book.dat` and text form), symmetry and passes.
mod formats {
    use super::*;

    /// A small deterministic generator (SplitMix64) for the fuzz-ish tests.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n.max(1) as u64) as usize
        }
    }

    fn play(board: &Board, sq: Square) -> Board {
        assert!(board.moves() & sq.bit() != 0, "{sq} is not legal");
        board.next(sq.index(), board.flips(sq.index()))
    }

    /// The positions along `line` from the start, the start included (a position whose mover
    /// must pass is taken after the pass).
    fn line_positions(line: &str) -> Vec<Board> {
        let mut board = Board::start();
        let mut out = vec![board];
        for chunk in line.as_bytes().chunks(2) {
            let sq = Square::from_coordinate(chunk).expect("a square");
            board = play(&board, sq);
            if board.must_pass() {
                board = board.passed();
            }
            out.push(board);
        }
        out
    }

    /// A leaf score for `board`, deterministic and spread over -8..=8.
    fn leaf_score(board: &Board) -> i32 {
        ((board.player() ^ board.opponent().rotate_left(17)) % 17) as i32 - 8
    }

    /// The positions of `lines` in a book of level `level`, every one with a leaf on its
    /// first move out of the book, values backed up.
    fn book_of(lines: &[&str], level: u8) -> Book {
        let mut book = Book::new(level);
        let boards: Vec<Board> = lines.iter().flat_map(|l| line_positions(l)).collect();
        for b in &boards {
            book.insert(b, Entry::new(0, level, None));
        }
        for (i, b) in boards.iter().enumerate() {
            let leaf = Square::first(book.unlinked_moves(b)).map(|sq| (sq, leaf_score(b)));
            // a few positions searched at another level
            let lvl = if i % 5 == 3 {
                level.saturating_sub(2)
            } else {
                level
            };
            book.insert(b, Entry::new(0, lvl, leaf));
        }
        book.negamax();
        book
    }

    fn small_book() -> Book {
        book_of(&["f5d6c3d3c4", "f5f6e6f4", "f5d6c5f4e3", "f5f4e3f6d3"], 12)
    }

    /// A position and a legal move of it after which the mover must pass (the game going
    /// on), found in deterministic random games.
    fn pass_example() -> (Board, Square) {
        let (line, board) = pass_line();
        (board, *line.last().unwrap())
    }

    /// A game from the start whose last move makes the opponent pass (the game going on),
    /// found in deterministic random games, and the position before that move.
    fn pass_line() -> (Vec<Square>, Board) {
        let mut rng = Rng(7);
        for _ in 0..10_000 {
            let mut board = Board::start();
            let mut line = Vec::new();
            loop {
                let moves = board.moves();
                if moves == 0 {
                    if board.is_game_over() {
                        break;
                    }
                    board = board.passed();
                    continue;
                }
                let all: Vec<Square> = Square::iter(moves).collect();
                let sq = all[rng.below(all.len())];
                let child = play(&board, sq);
                line.push(sq);
                if child.must_pass() {
                    return (line, board);
                }
                board = child;
            }
        }
        panic!("no pass found");
    }

    /// A book holding a position, its child after a move that makes the opponent pass (the
    /// child is stored after the pass) and the lines of `small_book`.
    fn book_with_pass() -> (Book, Board, Square) {
        let (parent, sq) = pass_example();
        let mut book = small_book();
        let after_pass = play(&parent, sq).passed();
        assert!(book.insert(&after_pass, Entry::new(0, 12, None)));
        let leaf = Square::first(book.unlinked_moves(&after_pass)).map(|s| (s, 6));
        assert!(book.insert(&after_pass, Entry::new(0, 12, leaf)));
        let unlinked = book.unlinked_moves(&parent) & !sq.bit();
        let leaf = Square::first(unlinked).map(|s| (s, -20));
        assert!(book.insert(&parent, Entry::new(0, 12, leaf)));
        book.negamax();
        (book, parent, sq)
    }

    #[test]
    fn own_format_round_trip() {
        for book in [Book::new(0), small_book(), book_with_pass().0] {
            let bytes = book.to_bytes();
            assert_eq!(Book::from_bytes(&bytes), Ok(book.clone()));
            assert_eq!(book.to_bytes(), bytes, "deterministic");
        }
    }

    #[test]
    fn edax_round_trip() {
        for book in [
            Book::new(0),
            Book::new(60),
            small_book(),
            book_with_pass().0,
        ] {
            let bytes = book.to_edax();
            let back = Book::from_edax(&bytes).expect("our own Edax file reads back");
            assert_eq!(back, book);
            assert_eq!(back.to_edax(), bytes, "the same book writes the same bytes");
        }
    }

    /// The records of an Edax file after its 42-byte header, in file order: each record's
    /// first 40 bytes (discs, counts, value and bounds, link count, level), its links and its
    /// leaf, each (score, move). The records must fill the file exactly.
    #[allow(clippy::type_complexity)]
    fn edax_records(bytes: &[u8]) -> Vec<(&[u8], Vec<(i8, u8)>, (i8, u8))> {
        let mut records = Vec::new();
        let mut at = 42;
        while at < bytes.len() {
            let r = &bytes[at..];
            let n = usize::from(r[38]);
            let links = (0..n)
                .map(|i| (r[40 + 2 * i] as i8, r[41 + 2 * i]))
                .collect();
            records.push((&r[..40], links, (r[40 + 2 * n] as i8, r[41 + 2 * n])));
            at += 40 + 2 * (n + 1);
        }
        assert_eq!(at, bytes.len());
        records
    }

    #[test]
    fn edax_header_and_records() {
        let book = small_book();
        let bytes = book.to_edax();
        assert_eq!(&bytes[..8], b"XADEKOOB");
        assert_eq!(bytes[8], 4, "version");
        let i32_at = |at: usize| i32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
        assert_eq!(i32_at(18), 12, "level");
        let fewest = book
            .positions()
            .iter()
            .map(|(b, _)| b.empty_count() as i32)
            .min()
            .unwrap();
        assert_eq!(i32_at(22), fewest + 1, "n_empties");
        assert_eq!(
            (i32_at(26), i32_at(30), i32_at(34)),
            (2, 1, 0),
            "errors, verbosity"
        );
        assert_eq!(i32_at(38), book.len() as i32, "records");
        // walk the records: sorted, each with the position's links and leaf
        let records = edax_records(&bytes);
        assert_eq!(records.len(), book.len());
        let mut last = None;
        for ((board, entry), (r, links, leaf)) in book.positions().into_iter().zip(records) {
            let p = u64::from_le_bytes(r[..8].try_into().unwrap());
            let o = u64::from_le_bytes(r[8..16].try_into().unwrap());
            assert_eq!((p, o), (board.player(), board.opponent()));
            assert!(last < Some((p, o)));
            last = Some((p, o));
            assert_eq!(&r[16..32], &[0; 16]);
            let value = i16::from_le_bytes([r[32], r[33]]);
            assert_eq!(value, i16::from(entry.value));
            assert_eq!(&r[32..34], &r[34..36]);
            assert_eq!(&r[32..34], &r[36..38]);
            assert_eq!(r[39], entry.level);
            let linked: Vec<(i8, u8)> = book
                .moves(&board)
                .iter()
                .filter(|m| m.linked)
                .map(|m| (m.score as i8, m.square.code()))
                .collect();
            assert_eq!(links, linked);
            let expected = entry.leaf.map_or((-127, 65), |(sq, v)| (v, sq.code()));
            assert_eq!(leaf, expected);
        }
        // the start position links F5's image (the canonical form's move) scored -value(F5)
        let start = Board::start();
        let (canon, s) = start.canonical();
        let f5 = Square::new(symmetry_square(Square::F5.index(), s)).unwrap();
        let child_value = book.value(&play(&canon, f5)).unwrap();
        assert!(book
            .moves(&canon)
            .iter()
            .any(|m| m.linked && m.square == f5 && m.score == -child_value));
        // an empty book: no record, n_empties 61 (depth 0)
        let empty = Book::new(5).to_edax();
        assert_eq!(empty.len(), 42);
        assert_eq!(empty[22], 61);
        assert_eq!(empty[18], 5);
    }

    #[test]
    fn edax_writes_pass_positions_with_a_pass_link() {
        let (book, parent, sq) = book_with_pass();
        let child = play(&parent, sq);
        let after = book.get(&child.passed()).unwrap();
        let bytes = book.to_edax();
        let count = i32::from_le_bytes(bytes[38..42].try_into().unwrap());
        assert_eq!(count as usize, book.len() + 1, "one pass record added");
        let (canon, _) = child.canonical();
        let mut at = 42;
        let mut found = false;
        while at < bytes.len() {
            let r = &bytes[at..];
            let p = u64::from_le_bytes(r[..8].try_into().unwrap());
            let o = u64::from_le_bytes(r[8..16].try_into().unwrap());
            let n_link = usize::from(r[38]);
            if (p, o) == (canon.player(), canon.opponent()) {
                found = true;
                let value = i16::from_le_bytes([r[32], r[33]]);
                assert_eq!(value, -i16::from(after.value));
                assert_eq!(n_link, 1);
                assert_eq!((r[40] as i8, r[41]), (-after.value, 64), "the pass link");
                assert_eq!((r[42] as i8, r[43]), (-127, 65), "no leaf");
                assert_eq!(r[39], after.level);
            }
            at += 40 + 2 * (n_link + 1);
        }
        assert!(found, "the pass position is written");
        // the parent links the move into the pass position, scored its value for the parent
        let parent_moves = book.moves(&parent);
        let m = parent_moves.iter().find(|m| m.square == sq).unwrap();
        assert!(m.linked);
        assert_eq!(m.score, i32::from(after.value));
    }

    /// An Edax record of `board` (as given, canonical or not).
    fn edax_record(
        board: &Board,
        value: i16,
        level: u8,
        links: &[(i8, u8)],
        leaf: (i8, u8),
    ) -> Vec<u8> {
        edax_record_bits(
            (board.player(), board.opponent()),
            value,
            level,
            links,
            leaf,
        )
    }

    /// An Edax record of the discs `(player, opponent)`, disjoint or not.
    fn edax_record_bits(
        discs: (u64, u64),
        value: i16,
        level: u8,
        links: &[(i8, u8)],
        leaf: (i8, u8),
    ) -> Vec<u8> {
        let mut r = Vec::new();
        r.extend_from_slice(&discs.0.to_le_bytes());
        r.extend_from_slice(&discs.1.to_le_bytes());
        r.extend_from_slice(&[0; 16]);
        for _ in 0..3 {
            r.extend_from_slice(&value.to_le_bytes());
        }
        r.extend_from_slice(&[links.len() as u8, level]);
        for &(s, m) in links.iter().chain(std::iter::once(&leaf)) {
            r.extend_from_slice(&[s as u8, m]);
        }
        r
    }

    fn edax_file(level: i32, records: &[Vec<u8>]) -> Vec<u8> {
        let mut bytes = Book::new(0).to_edax();
        bytes[18..22].copy_from_slice(&level.to_le_bytes());
        for r in records {
            bytes.extend_from_slice(r);
        }
        bytes
    }

    #[test]
    fn edax_reading_canonicalises_and_keeps_the_higher_level() {
        let board = line_positions("f5d6c3")[3];
        let (canon, s) = board.canonical();
        assert_ne!(s, 0, "the line's board is not canonical");
        let leaf = Square::first(board.moves()).unwrap();
        let bytes = edax_file(
            99,
            &[
                edax_record(&board, 3, 70, &[], (3, leaf.code())),
                // the same position, canonical, lower level: ignored
                edax_record(&canon, -5, 10, &[], (-5, 65)),
            ],
        );
        let book = Book::from_edax(&bytes).unwrap();
        assert_eq!(book.level(), 60, "header level clamped");
        assert_eq!(book.len(), 1);
        let e = book.get(&board).unwrap();
        assert_eq!((e.value, e.level, e.leaf), (3, 60, Some((leaf, 3))));
        let mapped = Square::new(symmetry_square(leaf.index(), s)).unwrap();
        assert_eq!(book.get(&canon).unwrap().leaf, Some((mapped, 3)));

        // a higher level replaces; an illegal leaf or an unknown score is dropped
        let occupied = Square::first(board.player()).unwrap();
        for (leaf_link, kept) in [
            ((2, occupied.code()), false),
            ((-127, leaf.code()), false),
            ((2, 66), false),
            ((2, leaf.code()), true),
        ] {
            let bytes = edax_file(
                -4,
                &[
                    edax_record(&canon, -5, 10, &[], (-5, 65)),
                    edax_record(&board, 2, 11, &[], leaf_link),
                ],
            );
            let book = Book::from_edax(&bytes).unwrap();
            assert_eq!(book.level(), 0);
            let e = book.get(&board).unwrap();
            assert_eq!((e.value, e.level, e.leaf.is_some()), (2, 11, kept));
        }

        // pass positions and finished games are skipped
        let (parent, sq) = pass_example();
        let must_pass = play(&parent, sq);
        let over = Board::new(u64::MAX, 0).unwrap();
        let bytes = edax_file(
            8,
            &[
                edax_record(&must_pass, 4, 8, &[(4, 64)], (-127, 65)),
                edax_record(&over, 64, 8, &[], (-127, 65)),
            ],
        );
        let book = Book::from_edax(&bytes).unwrap();
        assert!(book.is_empty());
    }

    #[test]
    fn edax_leaf_into_the_book_is_written_back_as_edax_had_it() {
        // Edax between an expansion and its next `link`: the leaf F6 of the position after F5
        // leads to a position that is in the book, and that position has no link on it (its
        // three moves lead to three different positions)
        let start = play(&Board::start(), Square::F5);
        let child = play(&start, Square::F6);
        let bytes = edax_file(
            8,
            &[
                edax_record(&start, 1, 8, &[], (1, Square::F6.code())),
                edax_record(&child, -1, 8, &[], (-1, Square::E6.code())),
            ],
        );
        let book = Book::from_edax(&bytes).unwrap();
        assert_eq!(book.len(), 2);
        let out = book.to_edax();
        // (player, opponent) -> (links, leaf)
        let records: std::collections::BTreeMap<(u64, u64), _> = edax_records(&out)
            .into_iter()
            .map(|(r, links, leaf)| {
                let p = u64::from_le_bytes(r[..8].try_into().unwrap());
                let o = u64::from_le_bytes(r[8..16].try_into().unwrap());
                ((p, o), (links, leaf))
            })
            .collect();
        let (canon, _) = start.canonical();
        let (links, leaf) = &records[&(canon.player(), canon.opponent())];
        let stored = book.get(&start).unwrap().leaf.unwrap();
        assert_eq!(stored.1, 1);
        assert!(links.is_empty(), "{links:?}");
        assert_eq!(*leaf, (1, book.get(&canon).unwrap().leaf.unwrap().0.code()));
        // and Edax's text form, which holds the leaves, is the same after the trip
        let back = Book::from_edax(&out).unwrap();
        assert_eq!(back.to_text(), book.to_text());
    }

    #[test]
    fn edax_errors() {
        let good = small_book().to_edax();
        assert_eq!(Book::from_edax(b""), Err(BookError::Magic("Edax")));
        assert_eq!(Book::from_edax(b"XADEBOOK"), Err(BookError::Magic("Edax")));
        assert_eq!(
            Book::from_edax(&good[..8]),
            Err(BookError::Truncated("the header"))
        );
        let mut v3 = good.clone();
        v3[8] = 3;
        assert_eq!(
            Book::from_edax(&v3),
            Err(BookError::Version {
                found: 3,
                supported: 4
            })
        );
        assert_eq!(
            Book::from_edax(&good[..41]),
            Err(BookError::Truncated("the header"))
        );
        assert_eq!(
            Book::from_edax(&good[..42 + 39]),
            Err(BookError::Truncated("a record"))
        );
        assert_eq!(
            Book::from_edax(&good[..good.len() - 1]),
            Err(BookError::Truncated("a record"))
        );
        // the count in the header is a hint only
        let mut hint = good.clone();
        hint[38..42].copy_from_slice(&1i32.to_le_bytes());
        assert_eq!(Book::from_edax(&hint), Book::from_edax(&good));

        let start = Board::start();
        let record_error = |bytes: &[u8]| match Book::from_edax(bytes) {
            Err(BookError::Record { index, reason }) => (index, reason),
            other => panic!("expected a record error, got {other:?}"),
        };
        let ok = edax_record(&start, 0, 10, &[], (0, 19));
        let overlap = (start.player(), start.player());
        let (index, _) = record_error(&edax_file(
            10,
            &[ok.clone(), edax_record_bits(overlap, 0, 10, &[], (0, 19))],
        ));
        assert_eq!(index, 1);
        let (_, reason) =
            record_error(&edax_file(10, &[edax_record(&start, 65, 10, &[], (0, 19))]));
        assert!(reason.contains("value 65"), "{reason}");
        let (_, reason) = record_error(&edax_file(
            10,
            &[edax_record(&start, -127, 10, &[], (0, 19))],
        ));
        assert!(reason.contains("-127"), "{reason}");
        let links = [(0, 19), (0, 26), (0, 37), (0, 44), (0, 1)];
        let (_, reason) = record_error(&edax_file(
            10,
            &[ok, edax_record(&start, 0, 10, &links, (0, 65))],
        ));
        assert!(
            reason.contains("5 links") && reason.contains("4 legal moves"),
            "{reason}"
        );
        // errors read well
        let text = BookError::Record {
            index: 3,
            reason: "value 65 is outside -64..=64".into(),
        }
        .to_string();
        assert_eq!(text, "book record 3: value 65 is outside -64..=64");
    }

    #[test]
    fn text_round_trip() {
        for book in [small_book(), book_with_pass().0] {
            let text = book.to_text();
            let back = Book::from_text(&text).expect("our own text reads back");
            assert_eq!(back, book);
            assert_eq!(back.to_text(), text);
        }
        assert_eq!(Book::new(7).to_text(), "");
        assert_eq!(Book::from_text("").unwrap(), Book::new(0));
    }

    #[test]
    fn text_lines_are_edax_lines() {
        let mut book = Book::new(20);
        let start = Board::start();
        book.insert(&start, Entry::new(0, 20, Some((Square::F5, -1))));
        let (canon, s) = start.canonical();
        let leaf = Square::new(symmetry_square(Square::F5.index(), s)).unwrap();
        let board: String = (0..64)
            .map(|i| {
                if canon.player() >> i & 1 != 0 {
                    'X'
                } else if canon.opponent() >> i & 1 != 0 {
                    'O'
                } else {
                    '-'
                }
            })
            .collect();
        assert_eq!(book.to_text(), format!("{board} X,20,{leaf},-1\n"));
        // an entry without a leaf: Edax's "--" with its score -127
        book.insert(&start, Entry::new(0, 20, None));
        assert_eq!(book.to_text(), format!("{board} X,20,--,-127\n"));
    }

    #[test]
    fn text_reading_canonicalises_backs_up_and_skips() {
        // the start position's F5 image, the position after F5 (as Black-to-move letters
        // would say it: second colour to move) with leaf D6, comments and blank lines
        let after_f5 = play(&Board::start(), Square::F5);
        let black_view: String = (0..64)
            .map(|i| {
                if after_f5.opponent() >> i & 1 != 0 {
                    'x'
                } else if after_f5.player() >> i & 1 != 0 {
                    'o'
                } else {
                    '.'
                }
            })
            .collect();
        let start_line: String = (0..64)
            .map(|i| {
                let b = Board::start();
                if b.player() >> i & 1 != 0 {
                    'X'
                } else if b.opponent() >> i & 1 != 0 {
                    'O'
                } else {
                    '-'
                }
            })
            .collect();
        let text = format!(
            "# a book\n\n{start_line} X,14,D3,1\n{black_view} O,16,d6,-3\r\n{start_line} X,12,C4,9\n"
        );
        let book = Book::from_text(&text).unwrap();
        assert_eq!(book.len(), 2);
        assert_eq!(book.level(), 16);
        let e = book.get(&after_f5).unwrap();
        assert_eq!((e.value, e.level, e.leaf), (-3, 16, Some((Square::D6, -3))));
        // the start keeps its level-14 line; its value is backed up from F5 (3 > 1)
        let s = book.get(&Board::start()).unwrap();
        assert_eq!((s.level, s.leaf, s.value), (14, Some((Square::D3, 1)), 3));
        let moves = book.moves(&Board::start());
        assert!(
            moves.iter().all(|m| m.linked && m.score == 3),
            "F5 and its images"
        );
        assert!(moves.iter().any(|m| m.square == Square::F5));

        // a position without a leaf keeps 0 until negamax gives it a value; pass positions
        // are skipped
        let (parent, sq) = pass_example();
        let must_pass = play(&parent, sq);
        let mut with_pass = Book::new(3);
        assert!(with_pass.insert(&must_pass.passed(), Entry::new(0, 3, None)));
        let line = with_pass.to_text();
        let pass_line = line.replacen(" X,", " O,", 1);
        let book = Book::from_text(&format!("{line}{pass_line}")).unwrap();
        assert_eq!(book.len(), 1, "the pass position is skipped");
        assert_eq!(book.get(&must_pass.passed()).unwrap().value, 0);
    }

    #[test]
    fn text_errors_carry_line_numbers() {
        let good = small_book().to_text();
        let first = good.lines().next().unwrap().to_string();
        let (board, rest) = first.split_at(64);
        let cases = [
            (format!("{}Z{rest}", &board[..63]), "square 64"),
            (format!("{}{rest}", &board[..60]), "not X, O or -"),
            (format!("{board} X"), "missing ','"),
            (format!("{board} Q,1,--,0"), "colour to move"),
            (format!("{board},1,--,0"), "missing the colour"),
            (format!("{board} X,61,--,0"), "0..=60"),
            (format!("{board} X,ab,--,0"), "not a number in 0..=60"),
            (format!("{board} X,1,--"), "missing the leaf score"),
            (format!("{board} X,1"), "missing the leaf move"),
            (format!("{board} X,1,--,x"), "leaf score \"x\""),
            (format!("{board} X,1,A1,0"), "not a legal move"),
            (format!("{board} X,1,Z9,0"), "not a square"),
            (format!("{board} X,1,PA,0"), "pass"),
            (format!("{board} X,1,--,0,5"), "unexpected field"),
        ];
        for (bad, what) in cases {
            let text = format!("{first}\n# comment\n\n{bad}\n{first}\n");
            match Book::from_text(&text) {
                Err(BookError::Text { line, reason }) => {
                    assert_eq!(line, 4, "{bad}");
                    assert!(reason.contains(what), "{bad}: {reason}");
                    let shown = BookError::Text {
                        line,
                        reason: reason.clone(),
                    }
                    .to_string();
                    assert_eq!(shown, format!("book text line 4: {reason}"));
                }
                other => panic!("{bad}: expected a text error, got {other:?}"),
            }
        }
        // a legal leaf scored out of range
        let mut start = Book::new(1);
        start.insert(&Board::start(), Entry::new(0, 1, Some((Square::F5, 0))));
        let line = start.to_text().replace(",0\n", ",65\n");
        match Book::from_text(&line) {
            Err(BookError::Text { line: 1, reason }) => {
                assert!(reason.contains("leaf score 65"), "{reason}")
            }
            other => panic!("expected a text error, got {other:?}"),
        }
    }

    #[test]
    fn every_corruption_of_a_ply_file_is_an_error() {
        let bytes = small_book().to_bytes();
        for at in 0..bytes.len() {
            for x in 1..=255u8 {
                let mut bad = bytes.clone();
                bad[at] ^= x;
                assert!(
                    Book::from_bytes(&bad).is_err(),
                    "byte {at} ^ {x:#04x} read as a book"
                );
            }
        }
        for len in 0..bytes.len() {
            assert!(
                Book::from_bytes(&bytes[..len]).is_err(),
                "truncated to {len}"
            );
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(Book::from_bytes(&longer).is_err());
    }

    #[test]
    fn random_input_never_panics() {
        let mut rng = Rng(2026);
        let edax = book_with_pass().0.to_edax();
        let text = small_book().to_text();
        let ply = small_book().to_bytes();
        for round in 0..4000 {
            // random bytes, sometimes behind a valid Edax header
            let len = rng.below(300);
            let mut bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
            if round % 2 == 0 {
                bytes.splice(0..0, edax[..42].iter().copied());
            }
            let _ = Book::from_edax(&bytes);
            let _ = Book::from_bytes(&bytes);
            let _ = Book::from_text(&String::from_utf8_lossy(&bytes));

            // a few mutations of valid files
            let mut e = edax.clone();
            let mut t = text.clone().into_bytes();
            let mut p = ply.clone();
            for _ in 0..1 + rng.below(4) {
                for buf in [&mut e, &mut t, &mut p] {
                    let at = rng.below(buf.len());
                    match rng.below(4) {
                        0 => buf[at] = rng.next() as u8,
                        1 => buf.truncate(at),
                        2 => buf.insert(at, rng.next() as u8),
                        _ => {
                            let b = b"XO-.,#\n 0123456789-APa"[rng.below(22)];
                            buf.insert(at, b);
                        }
                    }
                    if buf.is_empty() {
                        buf.push(b'X');
                    }
                }
            }
            let _ = Book::from_edax(&e);
            let _ = Book::from_bytes(&p);
            let _ = Book::from_text(&String::from_utf8_lossy(&t));
        }
        // every truncation of an Edax file: a whole number of records, or an error
        for len in 0..edax.len() {
            let _ = Book::from_edax(&edax[..len]);
        }
    }

    proptest::proptest! {
        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..200)) {
            let mut with_header = small_book().to_edax()[..42].to_vec();
            with_header.extend_from_slice(&bytes);
            let _ = Book::from_edax(&bytes);
            let _ = Book::from_edax(&with_header);
            let _ = Book::from_text(&String::from_utf8_lossy(&bytes));
        }
    }

    #[test]
    fn the_eight_images_share_one_entry() {
        let board = line_positions("f5d6c3d3")[4];
        let leaf = Square::first(board.moves()).unwrap();
        let mut book = Book::new(10);
        book.insert(&board, Entry::new(5, 10, Some((leaf, 5))));
        for s in 0..8 {
            let image = board.symmetry(s);
            let e = book.get(&image).expect("every image is in the book");
            let mapped = Square::new(symmetry_square(leaf.index(), s)).unwrap();
            assert_eq!(
                (e.value, e.level, e.leaf),
                (5, 10, Some((mapped, 5))),
                "symmetry {s}"
            );
            assert!(image.moves() & mapped.bit() != 0);
            assert_eq!(book.moves(&image)[0].square, mapped);
            assert_eq!(book.value(&image), Some(5));
            // inserting through an image replaces the one entry
            let mut b2 = book.clone();
            b2.insert(&image, Entry::new(-2, 10, Some((mapped, -2))));
            assert_eq!(b2.len(), 1);
            assert_eq!(b2.get(&board).unwrap().leaf, Some((leaf, -2)));
        }
        // through the files as well
        for read in [
            Book::from_edax(&book.to_edax()).unwrap(),
            Book::from_text(&book.to_text()).unwrap(),
        ] {
            for s in 0..8 {
                let mapped = Square::new(symmetry_square(leaf.index(), s)).unwrap();
                assert_eq!(
                    read.get(&board.symmetry(s)).unwrap().leaf,
                    Some((mapped, 5))
                );
            }
        }
    }

    #[test]
    fn negamax_backs_values_up_through_links() {
        let start = Board::start();
        let f5 = play(&start, Square::F5);
        let f5d6 = play(&f5, Square::D6);
        let f5f6 = play(&f5, Square::F6);
        let mut book = Book::new(10);
        book.insert(&start, Entry::new(0, 10, Some((Square::D3, -50))));
        book.insert(&f5, Entry::new(0, 10, Some((Square::F4, -40))));
        book.insert(&f5d6, Entry::new(0, 10, Some((Square::C3, 7))));
        book.insert(&f5f6, Entry::new(0, 10, Some((Square::E6, -2))));
        // F5's images (D3, C4, E6) are one position: the start's D3 leaf is now linked
        assert!(book.negamax() > 0);
        assert_eq!(book.value(&f5d6), Some(7));
        assert_eq!(book.value(&f5f6), Some(-2));
        assert_eq!(
            book.value(&f5),
            Some(2),
            "best of -7 (d6), 2 (f6) and the leaf -40"
        );
        assert_eq!(book.value(&start), Some(-2));
        let moves = book.moves(&f5);
        assert_eq!(
            (moves[0].square, moves[0].score, moves[0].linked),
            (Square::F6, 2, true)
        );
        assert_eq!(book.negamax(), 0, "a second pass changes nothing");
        // a better leaf lower down changes the root
        book.insert(&f5f6, Entry::new(0, 10, Some((Square::E6, -9))));
        book.negamax();
        assert_eq!(book.value(&start), Some(-9));
    }

    #[test]
    fn a_position_whose_mover_must_pass_is_looked_up_through_the_pass() {
        let (book, parent, sq) = book_with_pass();
        let child = play(&parent, sq);
        assert!(child.must_pass());
        assert!(!book.contains(&child), "not stored itself");
        let after = book.get(&child.passed()).unwrap();
        assert_eq!(book.value(&child), Some(-i32::from(after.value)));
        let moves = book.moves(&child);
        assert_eq!(moves.len(), 1);
        assert_eq!(
            (moves[0].square, moves[0].score, moves[0].linked),
            (Square::PASS, -i32::from(after.value), true)
        );
        // the parent's value backs up through the pass
        let parent_value = book.value(&parent).unwrap();
        assert!(parent_value >= i32::from(after.value));
        // and so it reads back from Edax's and the text form
        for read in [
            Book::from_edax(&book.to_edax()).unwrap(),
            Book::from_text(&book.to_text()).unwrap(),
        ] {
            assert_eq!(read.value(&child), book.value(&child));
            assert_eq!(read.value(&parent), Some(parent_value));
        }
    }
}

/// Growing a book with the engine, and choosing moves from it.
mod building {
    use super::*;
    use crate::{Engine, EngineOptions, Limits};
    use std::sync::atomic::AtomicBool;

    fn engine() -> Engine {
        Engine::new(EngineOptions {
            hash_mib: 2,
            threads: 1,
            weights: None,
        })
    }

    fn after(board: &Board, sq: Square) -> Board {
        board.next(sq.index(), board.flips(sq.index()))
    }

    /// The searches planned for a deviation round are the ones its steps make when run in
    /// order: each `Leaf` step after the `Add` its leaf led to, searching the moves left.
    #[test]
    fn planned_searches_are_the_searches_the_steps_make() {
        let mut e = engine();
        let stop = AtomicBool::new(false);
        let mut book = Book::new(2);
        let start = Board::start();
        let mut rounds = 0;
        let mut compared = 0;
        while rounds < 12 && compared < 40 {
            let plan = book.deviation_plan(&start, 2, 4, 48);
            if plan.is_empty() {
                break;
            }
            let planned = book.plan_searches(&plan);
            assert_eq!(planned.len(), plan.len());
            for (step, want) in plan.iter().zip(&planned) {
                let mut made = None;
                book.run_step_with(step, &mut |search| {
                    made = Some(*search);
                    search.run(&mut e, &stop)
                });
                assert_eq!(made, *want, "{step:?}");
                compared += usize::from(made.is_some());
            }
            book.negamax();
            rounds += 1;
        }
        assert!(
            rounds >= 2 && compared >= 20,
            "{rounds} rounds, {compared} searches"
        );
    }

    #[test]
    fn a_search_keeps_to_the_moves_asked_for() {
        let mut e = engine();
        let stop = AtomicBool::new(false);
        // the start position and one with 14 empties (solved exactly at level 10)
        let late: Board = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X"
            .parse::<ply_othello::Position>()
            .unwrap()
            .board;
        for board in [Board::start(), late] {
            let legal = board.moves();
            let all = e.think(
                &board,
                &Limits {
                    level: Some(10),
                    ..Limits::default()
                },
                &stop,
                &mut |_| {},
            );
            for sq in Square::iter(legal) {
                let only = legal & !sq.bit() & !all.best.bit();
                if only == 0 {
                    continue;
                }
                let limits = Limits {
                    level: Some(10),
                    search_moves: Some(only),
                    ..Limits::default()
                };
                let out = e.think(&board, &limits, &stop, &mut |_| {});
                assert!(only & out.best.bit() != 0, "{} outside the mask", out.best);
                assert!(out.score <= all.score, "a subset cannot score more");
            }
            // a mask of no legal move searches them all
            let none = Limits {
                level: Some(10),
                search_moves: Some(!legal & !(board.player() | board.opponent())),
                ..Limits::default()
            };
            assert!(legal & e.think(&board, &none, &stop, &mut |_| {}).best.bit() != 0);
        }
    }

    #[test]
    fn a_leaf_is_the_best_move_out_of_the_book_and_is_searched_again_when_linked() {
        let mut e = engine();
        let stop = AtomicBool::new(false);
        let mut book = Book::new(6);
        let f5 = after(&Board::start(), Square::F5);
        assert_eq!(book.run_step(&mut e, &Step::Add(f5), &stop), Some(1));
        let entry = book.get(&f5).unwrap();
        let (leaf, score) = entry.leaf.unwrap();
        assert_eq!(entry.value, score);
        assert_eq!(entry.level, 6);
        // the same search by hand
        e.new_game();
        let out = e.think(
            &f5,
            &Limits {
                level: Some(6),
                ..Limits::default()
            },
            &stop,
            &mut |_| {},
        );
        assert_eq!((leaf, i32::from(score)), (out.best, out.score));
        // nothing to do the second time
        assert_eq!(book.run_step(&mut e, &Step::Add(f5), &stop), Some(0));
        // put the leaf's position in the book: the leaf is stale until searched again
        assert_eq!(
            book.run_step(&mut e, &Step::Add(after(&f5, leaf)), &stop),
            Some(1)
        );
        assert_eq!(book.fix_plan(), vec![Step::Leaf(f5.canonical().0)]);
        for step in book.fix_plan() {
            book.run_step(&mut e, &step, &stop);
        }
        book.negamax();
        let (new_leaf, _) = book.get(&f5).unwrap().leaf.unwrap();
        assert_ne!(new_leaf, leaf);
        let moves = book.moves(&f5);
        assert_eq!(moves.iter().filter(|m| m.linked).count(), 1);
        assert_eq!(i32::from(book.get(&f5).unwrap().value), moves[0].score);
        assert!(book.fix_plan().is_empty());
        // a stopped search changes nothing
        let stopped = AtomicBool::new(true);
        let before = book.clone();
        let c4 = after(&Board::start(), Square::C4);
        let d3 = after(&c4, Square::C3);
        assert_eq!(book.run_step(&mut e, &Step::Add(d3), &stopped), None);
        assert_eq!(book, before);
    }

    #[test]
    fn choices_keep_to_the_window_vary_with_the_seed_and_repeat_with_it() {
        let start = Board::start();
        let mut book = Book::new(8);
        book.insert(&start, Entry::new(0, 8, None));
        // four children of the start (all images of one another): values 0, so all tie
        let f5 = after(&start, Square::F5);
        book.insert(&f5, Entry::new(0, 8, Some((Square::D6, 0))));
        book.negamax();
        let mut seen = std::collections::HashSet::new();
        for seed in 0..64 {
            let m = book.choose(&start, 0, seed).unwrap();
            assert!(m.linked && m.score == 0);
            assert_eq!(book.choose(&start, 0, seed), Some(m));
            seen.insert(m.square);
        }
        assert_eq!(seen.len(), 4, "{seen:?}");
        // in F5's position: D6 (leaf, 0), plus linked F4 at -3 and F6 at -6
        let f4 = after(&f5, Square::F4);
        let f6 = after(&f5, Square::F6);
        book.insert(
            &f4,
            Entry::new(3, 8, Some((Square::first(f4.moves()).unwrap(), 3))),
        );
        book.insert(
            &f6,
            Entry::new(6, 8, Some((Square::first(f6.moves()).unwrap(), 6))),
        );
        book.negamax();
        for (randomness, allowed) in [(0, 1), (3, 2), (6, 3), (64, 3)] {
            let mut seen = std::collections::HashSet::new();
            for seed in 0..200 {
                let m = book.choose(&f5, randomness, seed).unwrap();
                assert!(m.score >= -randomness);
                seen.insert(m.square);
            }
            assert_eq!(seen.len(), allowed, "randomness {randomness}: {seen:?}");
        }
        assert_eq!(book.choose(&after(&f5, Square::D6), 0, 1), None);
    }
}

/// The book shipped with ply ([`EMBEDDED_BOOK`]).
mod shipped {
    use super::*;

    #[test]
    fn the_shipped_book_reads_and_is_backed_up() {
        let mut book = embedded_book().expect("the shipped book decodes");
        assert!(book.len() >= 1000, "only {} positions", book.len());
        assert!(book.level() >= 16, "level {}", book.level());
        // the start position and its four first moves (one position up to symmetry)
        let start = Board::start();
        let moves = book.moves(&start);
        assert_eq!(moves.len(), 4, "every first move is in the book: {moves:?}");
        assert!(moves.iter().all(|m| m.linked && m.score == moves[0].score));
        let value = book
            .value(&start)
            .expect("the start position is in the book");
        assert!(value.abs() <= 4, "start value {value}");
        // the values stored are the negamax of the leaves: backing up changes nothing
        assert_eq!(book.negamax(), 0);
        // every position holds the level it says, and playing from it stays legal
        for (board, entry) in book.positions() {
            assert!(entry.level == 0 || entry.level >= 16, "{entry:?}");
            if let Some(m) = book.choose(&board, 0, 1) {
                assert!(m.square.is_pass() || board.moves() & m.square.bit() != 0);
            }
        }
    }
}
