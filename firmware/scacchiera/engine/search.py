"""Iterative deepening principal-variation search, run as a loop over an explicit stack.

The search is not recursive: every node's state (window, depth, move range,
best so far) lives in preallocated arrays, a row a ply (``Search.node``, its
16-bit fields, and ``Search.node_moves``, its moves), and
``walk`` (machine code on the Pico: below) goes through the tree one step at
a time until the slice's nodes are spent. The board's main loop can so give
the engine a slice of time between two scans and resume it later;
``Engine.best_move`` just runs it to the end.

- Negamax alpha-beta with a principal-variation (null-window) search, a
  check extension, and a quiescence search of captures and queen
  promotions (all moves when in check) with delta pruning.
- Pruning at null-window nodes: a null move, late move
  reductions, and near the horizon (depth 3 and less) reverse futility (a
  static score far above beta returns at once) and, at depth 1, futility (a
  static score far below alpha: the quiet moves after the first that give no
  check are skipped).
- Move order: the transposition table's move, captures by victim then
  attacker (MVV-LVA), two killer moves per ply, then the history score.
- Transposition table: ``TT_ENTRY`` bytes per entry in one bytearray,
  indexed by the low bits of the 30-bit Zobrist key; a generation number
  (6 bits, the table cleared when it wraps) makes every search start from
  an empty table (so a result depends on the
  position and the budget only), without clearing the bytes.
- Draws: a repetition of any earlier position (on the line or in the game)
  and the fifty-move rule score 0, so a winning engine avoids them and a
  losing one walks into them.
- The principal variation (``lines=True``, the UCI engine on a computer): a
  triangular table, each node's best line so far copied up when a move
  raises its alpha; ``line`` is the root's, at each finished iteration. Off
  on the board (it would take ~10 KB of RAM): there the table's moves are
  walked instead (Engine.principal_variation).

``walk`` is viper (scacchiera/__init__.py): on the Pico its ints are machine
words and its arrays are read through raw pointers, so the loop itself costs
little beside the functions it calls (engine/tree.py, movegen.py,
ordering.py: machine code too); elsewhere the same lines run as Python. What
it cannot do in machine code it asks the objects it is handed (a Chess960
castling, the null move, the level's noise, the clock of a timed search, the
board's microsecond clock that ends a slice),
and what a search does once an iteration it hands back to ``Search.run``.
Viper checks nothing, so every index is in range by construction: a node's
row at ply * _NODE, the ply at most MAX_PLY - 2 at a node that makes a move
(deeper ones return their static score), so a child's row ply + 1 lies
inside the MAX_PLY + 1 rows and a parent's ply - 1 is read only when ply > 0;
``moves`` and ``scores`` from a node's first to its end, inside MOVE_SPACE
(the same check); the board at a move's squares (0x88, on the board); the
table at (key & mask) * TT_ENTRY + 0..9, inside its (mask + 1) * TT_ENTRY
bytes; ``history`` at the mover's index (0..11) << 6 | square (0..63), inside
HISTORY; VALUES at a piece type (0..7); the principal variation at ply *
(MAX_PLY + 1) + 0..MAX_PLY - ply, inside its (MAX_PLY + 1) ** 2 ints (with
``lines``; else not read). Ints: scores within +-32,000, keys of 30 bits.
"""

from array import array

from .. import const, micropython, ptr8, ptr16, ptr32
from .ordering import score_moves, VALUES, HISTORY
from .movegen import checker, pseudo_moves
from ..rules.legal import attacked
from .tree import Tree, MAX_PLY, MOVE_SPACE, shorts, ints, PLY
from .tree import make_move, unmake_move, static_score, left_in_check, stops_check, is_repetition, has_pieces
from .tree import TT_ENTRY, tt_find, tt_put

INF = const(32000)
MATE = const(31000)
MATE_BOUND = const(30000)    # scores beyond this are mates
_EXACT = const(0)
_LOWER = const(1)
_UPPER = const(2)

# What walk does next, kept in ctl between slices
_ENTER = const(0)
_NEXT = const(1)
_RETURN = const(2)
_GENERATE = const(3)

# Why walk returned
_SLICE_OVER = const(0)    # the slice's nodes spent, or its time: call again
_STOPPED = const(1)       # the node limit or the clock: the search ends
_ROOT_DONE = const(2)     # an iteration finished, its score in ctl[_C_VALUE]

_HISTORY_MAX = const(14000)
_FUTILE_DEPTH = const(3)       # the depths the two futility tests below look at
_RFP_MARGIN = const(120)       # reverse futility: centipawns a ply of depth
_FUTILITY_MARGIN = const(200)  # futility at the frontier

# Each ply's row of Search.node: 16-bit (RAM), read back with their sign where they have one
# (``((x + _SIGN) & _WORD) - _SIGN``: viper's ptr16 reads are unsigned; a signed value, what plain
# Python reads from the array, is left as it is)
_N_ALPHA = const(0)        # signed
_N_BETA = const(1)         # signed
_N_DEPTH = const(2)
_N_BEST = const(3)         # the best score so far: signed
_N_NEXT = const(4)         # the node's moves in tree.moves: the next to try, the end (the child's start)
_N_END = const(5)
_N_LEGAL = const(6)        # legal moves tried
_N_ALPHA0 = const(7)       # alpha when the moves began (an upper bound if none beat it): signed
_N_FLAGS = const(8)        # 1 quiescence, 2 in check, 4 null window child, 8 captures only, 32 reduced child, 64 futile
_N_CHECKER = const(9)      # the checking piece's square, -1 none, -2 two: signed
_N_PV_LEN = const(10)      # the length of the node's line in the triangular table
_NODE = const(11)
_SIGN = const(0x8000)
_WORD = const(0xFFFF)
# ... and its moves' row of Search.node_moves (18 bits: 32-bit)
_M_BEST = const(0)
_M_TTMOVE = const(1)
_M_KILLER1 = const(2)
_M_KILLER2 = const(3)
_MOVES = const(4)

# Search.ctl: the search's scalars, which walk reads and writes
_C_NODES = const(0)
_C_STOP_AT = const(1)      # the slice ends after this node
_C_NODE_LIMIT = const(2)   # 0: none
_C_OP = const(3)
_C_VALUE = const(4)        # the root's score when walk says _ROOT_DONE
_C_ROOT_END = const(5)     # the root's moves: tree.moves[0:root_end]
_C_TT_MASK = const(6)
_C_GENERATION = const(7)
_C_NOISE = const(8)
_C_GAME_PLIES = const(9)   # len(history_keys)
_C_CLOCKED = const(10)     # 1: the clock is asked every 128 nodes against _C_DEADLINE
_C_DEADLINE = const(11)
_C_TIMED = const(12)       # 1: the clock ends the slice: read after each node
_C_LINES = const(13)       # 1: the triangular table is kept
_C_UNTIL = const(14)       # the clock's reading that ends the slice
_C_BEGAN = const(15)       # its reading when the slice began (a clock that stands still: _STILL_NODES)
_CTL = const(16)

# engine/tree.py's and ordering.py's consts that walk reads: viper folds only its own module's
# (tests/test_engine.py checks they agree)
_TURN = const(0)
_CASTLING = const(1)
_EP = const(2)
_HALF = const(3)
_HASH = const(4)
_PLY = const(9)
_KINGS = const(10)
_UNDO = const(7)
_MAX_PLY = const(48)
_MOVE_SPACE = const(800)
_ROOM = const(230)
_KILLER = const(15000)
_CAPTURE = const(20000)
_HISTORY = const(768)
_WIDTH = const(49)        # MAX_PLY + 1: a row of the triangular table
_TICKS_MASK = const(0x3FFFFFFF)
_TICKS_HALF = const(0x20000000)
# A clock that stands still through a node (the simulator's: its scans cost no time) ends a slice
# after this many nodes, about what the board searches between two scans (docs/engine.md)
_STILL_NODES = const(4)


@micropython.viper
def walk(search, tree, clock) -> int:
    """Search on from where the last call stopped (``search.ctl``, ``search.node``, the tree's
    line) until the slice is over (_SLICE_OVER), the search must end (_STOPPED) or the root has
    finished an iteration (_ROOT_DONE)."""
    c = ptr32(search.ctl)
    nd = ptr16(search.node)
    mv = ptr32(search.node_moves)
    # the buffers: each object, handed on to the functions called, and the pointer walk reads by
    state = tree.st
    st = ptr32(state)
    undo_buf = tree.undo
    undo = ptr32(undo_buf)
    board = tree.board
    b = ptr8(board)
    keys = tree.keys
    keep = tree.keep
    pawns = tree.pawns
    moves = tree.moves
    m32 = ptr32(moves)
    scores = search.scores
    s16 = ptr16(scores)
    history = search.history
    h16 = ptr16(history)
    tt = search.tt
    t8 = ptr8(tt)
    game_keys = search.history_keys
    pv = ptr32(search.pv_buffer)
    value_of = ptr16(VALUES)
    nodes = c[_C_NODES]
    stop_at = c[_C_STOP_AT]
    node_limit = c[_C_NODE_LIMIT]
    op = c[_C_OP]
    root_end = c[_C_ROOT_END]
    tt_mask = c[_C_TT_MASK]
    generation = c[_C_GENERATION]
    noise = c[_C_NOISE]
    game_plies = c[_C_GAME_PLIES]
    clocked = c[_C_CLOCKED]
    deadline = c[_C_DEADLINE]
    timed = c[_C_TIMED]
    until = c[_C_UNTIL]
    began = c[_C_BEGAN]
    lines = c[_C_LINES]
    still = 0
    value = 0
    while True:
        ply = st[_PLY]
        at = ply * _NODE
        am = ply * _MOVES
        if op == _ENTER:
            # -- a new node: draws, limits, the table, the moves ----------------
            nodes += 1
            c[_C_NODES] = nodes
            nd[at + _N_PV_LEN] = 0
            if node_limit and nodes > node_limit:
                return _STOPPED
            if clocked and (nodes & 127) == 0:
                if int(search.clock()) >= deadline:
                    return _STOPPED
            if ply:
                if st[_HALF] >= 100 or int(is_repetition(state, keys, game_keys, game_plies)):
                    value = 0
                    op = _RETURN
                    continue
                if ply >= _MAX_PLY - 2 or nd[at - _NODE + _N_END] + _ROOM > _MOVE_SPACE:
                    value = int(static_score(board, state, pawns))   # the line is too long for the buffers
                    op = _RETURN
                    continue
            a = ((nd[at + _N_ALPHA] + _SIGN) & _WORD) - _SIGN
            beta = ((nd[at + _N_BETA] + _SIGN) & _WORD) - _SIGN
            d = nd[at + _N_DEPTH]
            us = st[_TURN]
            checking = int(checker(board, st[_KINGS + us], us))
            nd[at + _N_CHECKER] = checking
            f = 0
            if checking != -1:
                f = 2
            ttmove = 0
            stat = -INF     # the static score, once counted (the null move below asks it too)
            if d <= 0 and checking == -1:
                # quiescence: stand pat, then captures
                stand = int(static_score(board, state, pawns))
                if noise:
                    stand += int(search.noise_of(st[_HASH]))
                if stand >= beta:
                    value = stand
                    op = _RETURN
                    continue
                if stand > a:
                    a = stand
                nd[at + _N_BEST] = stand
                f |= 1 | 8
            else:
                if d <= 0:
                    d = 0       # in check at the horizon: search every reply
                    f |= 1
                elif checking != -1:
                    d += 1      # check extension
                i = int(tt_find(tt, st[_HASH], tt_mask, generation))
                if i >= 0:
                    ttmove = t8[i + 4] | t8[i + 5] << 8 | (t8[i + 6] & 3) << 16
                    if ply and t8[i + 7] >= d and beta - a == 1:
                        s = (t8[i + 8] | t8[i + 9] << 8) - 32768
                        if s > MATE_BOUND:
                            s -= ply
                        elif s < -MATE_BOUND:
                            s += ply
                        bound = t8[i + 3] >> 6
                        if bound == _EXACT or (bound == _LOWER and s >= beta) or (bound == _UPPER and s <= a):
                            value = s
                            op = _RETURN
                            continue
                nd[at + _N_BEST] = -INF
                if ply and checking == -1 and d <= _FUTILE_DEPTH and beta - a == 1 \
                        and a > -MATE_BOUND and a < MATE_BOUND:
                    stat = int(static_score(board, state, pawns))
                    e = stat
                    if noise:
                        e += int(search.noise_of(st[_HASH]))
                    if e - _RFP_MARGIN * d >= beta:
                        # reverse futility: so far above beta near the horizon that the
                        # opponent's reply will not bring it back (no move searched)
                        value = e
                        op = _RETURN
                        continue
                    if d == 1 and e + _FUTILITY_MARGIN <= a:
                        # futility: one quiet move cannot lift the score to alpha, so only
                        # the first move, captures, promotions and checks are searched
                        f |= 64
                        nd[at + _N_BEST] = e + _FUTILITY_MARGIN
            nd[at + _N_ALPHA] = a
            nd[at + _N_DEPTH] = d
            nd[at + _N_FLAGS] = f
            mv[am + _M_TTMOVE] = ttmove
            op = _GENERATE
            if ply and (f & 3) == 0 and d >= 3 and beta - a == 1 and undo[(ply - 1) * _UNDO] \
                    and int(has_pieces(board, st[_TURN])):
                if stat == -INF:
                    stat = int(static_score(board, state, pawns))
                if stat >= beta:
                    # null move: if passing still fails high, a real move will too. This node has
                    # no moves yet: its child's start in the buffer is where the parent's end
                    # (_N_END still holds an earlier node's, maybe below this node's parent's
                    # list: the child's moves would overwrite it)
                    nd[at + _N_END] = nd[at - _NODE + _N_END]
                    tree.make_null()
                    nd[at + _NODE + _N_ALPHA] = -beta
                    nd[at + _NODE + _N_BETA] = 1 - beta
                    if d < 7:
                        nd[at + _NODE + _N_DEPTH] = d - 3
                    else:
                        nd[at + _NODE + _N_DEPTH] = d - 4
                    op = _ENTER
        elif op == _GENERATE:
            # -- the moves, in order: table move, captures (MVV-LVA), killers, history
            f = nd[at + _N_FLAGS]
            if ply:
                # pseudo_moves straight (the room for them checked at _ENTER); the castlings,
                # rarer, by the tree
                n0 = nd[at - _NODE + _N_END]
                us = st[_TURN]
                quiet = 1 - ((f >> 3) & 1)
                n1 = int(pseudo_moves(board, moves, n0, us | quiet << 1 | (st[_EP] + 1) << 2))
                if quiet and (st[_CASTLING] >> (us << 1)) & 3:
                    n1 = int(tree.castles(n1))
            else:
                n0 = 0
                n1 = root_end
            score_moves(moves, scores, board, history, n0, n1, mv[am + _M_TTMOVE], mv[am + _M_KILLER1],
                        mv[am + _M_KILLER2])
            nd[at + _N_ALPHA0] = nd[at + _N_ALPHA]
            nd[at + _N_NEXT] = n0
            nd[at + _N_END] = n1
            nd[at + _N_LEGAL] = 0
            mv[am + _M_BEST] = 0
            op = _NEXT
        elif op == _NEXT:
            # -- the next move of the node at ``ply`` ---------------------------
            j = nd[at + _N_NEXT]
            n1 = nd[at + _N_END]
            f = nd[at + _N_FLAGS]
            if j >= n1:
                # every move tried
                value = ((nd[at + _N_BEST] + _SIGN) & _WORD) - _SIGN
                if not nd[at + _N_LEGAL]:
                    if f & 2:
                        value = ply - MATE
                    elif not f & 1:
                        value = 0   # stalemate
                if not f & 1:
                    bound = _EXACT
                    if value <= ((nd[at + _N_ALPHA0] + _SIGN) & _WORD) - _SIGN:
                        bound = _UPPER
                    tt_put(tt, st[_HASH], tt_mask, generation, nd[at + _N_DEPTH], bound, value,
                           mv[am + _M_BEST], ply)
                op = _RETURN
                continue
            # the best scored of the moves left (the first of equals) to j
            top = j
            ts = s16[j]
            k = j + 1
            while k < n1:
                if s16[k] > ts:
                    ts = s16[k]
                    top = k
                k += 1
            m = m32[top]
            if top != j:
                m32[top] = m32[j]
                s16[top] = s16[j]
                m32[j] = m
                s16[j] = ts
            nd[at + _N_NEXT] = j + 1
            to = (m >> 7) & 127
            promotion = (m >> 14) & 7
            if f & 8 and not promotion:
                # quiescence: skip a capture that cannot lift the score to alpha (delta
                # pruning), or that gives more than it takes onto a defended square
                gain = value_of[b[to] & 7]
                best = ((nd[at + _N_BEST] + _SIGN) & _WORD) - _SIGN
                if best + gain + 200 <= ((nd[at + _N_ALPHA] + _SIGN) & _WORD) - _SIGN:
                    continue
                if gain < value_of[b[m & 127] & 7] and attacked(board, to, st[_TURN] ^ 1):
                    continue
            if f & 2 and (m & 127) != st[_KINGS + st[_TURN]]:
                checking = ((nd[at + _N_CHECKER] + _SIGN) & _WORD) - _SIGN
                if checking == -2 or not int(stops_check(state, m, checking)):
                    continue
            quiet = 0
            if ts < _KILLER - 1 and not b[to] and not promotion:
                quiet = 1       # no table move, capture, promotion or killer: history only
            # a Chess960 castling the tree finishes
            if int(make_move(board, state, undo_buf, keys, keep, m)):
                tree.castle(m)
            if int(left_in_check(board, state, undo_buf, f & 2)) or (
                    f & 64 and ts < _CAPTURE and nd[at + _N_LEGAL]
                    and int(checker(board, st[_KINGS + st[_TURN]], st[_TURN])) == -1):
                # illegal; or a futile node's quiet move after the first that gives no check
                if int(unmake_move(board, state, undo_buf)):
                    tree.uncastle()
                continue
            n = nd[at + _N_LEGAL] + 1
            nd[at + _N_LEGAL] = n
            a = ((nd[at + _N_ALPHA] + _SIGN) & _WORD) - _SIGN
            beta = ((nd[at + _N_BETA] + _SIGN) & _WORD) - _SIGN
            d = nd[at + _N_DEPTH]
            f &= ~36
            if f & 1:
                nd[at + _NODE + _N_ALPHA] = -beta
                nd[at + _NODE + _N_BETA] = -a
                nd[at + _NODE + _N_DEPTH] = 0
            elif n > 1:
                nd[at + _NODE + _N_ALPHA] = -a - 1
                nd[at + _NODE + _N_BETA] = -a
                f |= 4
                if n > 3 and d >= 3 and quiet and not f & 2:
                    # late move reduction: a quiet move far down the list, one ply less
                    nd[at + _NODE + _N_DEPTH] = d - 2
                    f |= 32
                else:
                    nd[at + _NODE + _N_DEPTH] = d - 1
            else:
                nd[at + _NODE + _N_ALPHA] = -beta
                nd[at + _NODE + _N_BETA] = -a
                nd[at + _NODE + _N_DEPTH] = d - 1
            nd[at + _N_FLAGS] = f
            op = _ENTER
            if nodes >= stop_at:
                c[_C_OP] = op
                return _SLICE_OVER
            if timed:
                now = int(clock())
                if now == began:
                    still += 1
                if still >= _STILL_NODES or (now != began and ((now - until) & _TICKS_MASK) < _TICKS_HALF):
                    c[_C_OP] = op
                    return _SLICE_OVER
        else:
            # -- a child's score comes back to the node at ply - 1 ----------------
            if not ply:
                c[_C_VALUE] = value
                c[_C_OP] = _ENTER
                return _ROOT_DONE
            value = -value
            m = undo[(ply - 1) * _UNDO]        # the move that led here (0: a pass)
            ply -= 1
            at -= _NODE
            am -= _MOVES
            if not m:
                # the null move's answer
                tree.unmake_null()
                op = _GENERATE
                beta = ((nd[at + _N_BETA] + _SIGN) & _WORD) - _SIGN
                if value >= beta:
                    if value > MATE_BOUND:
                        value = beta
                    op = _RETURN
                continue
            if int(unmake_move(board, state, undo_buf)):
                tree.uncastle()
            f = nd[at + _N_FLAGS]
            a = ((nd[at + _N_ALPHA] + _SIGN) & _WORD) - _SIGN
            beta = ((nd[at + _N_BETA] + _SIGN) & _WORD) - _SIGN
            research = 0
            if f & 32 and value > a:
                # the reduced search beat alpha: again at full depth (null window)
                nd[at + _NODE + _N_ALPHA] = -a - 1
                nd[at + _N_FLAGS] = f & ~32
                research = 1
            elif f & 4 and value > a and value < beta and beta - a > 1:
                # the null window failed high: search the move again with the full window
                nd[at + _NODE + _N_ALPHA] = -beta
                nd[at + _N_FLAGS] = f & ~4
                research = 1
            if research:
                if int(make_move(board, state, undo_buf, keys, keep, m)):
                    tree.castle(m)
                nd[at + _NODE + _N_BETA] = -a
                nd[at + _NODE + _N_DEPTH] = nd[at + _N_DEPTH] - 1
                op = _ENTER
                continue
            op = _NEXT
            if value > ((nd[at + _N_BEST] + _SIGN) & _WORD) - _SIGN:
                nd[at + _N_BEST] = value
                mv[am + _M_BEST] = m
                if value > a:
                    nd[at + _N_ALPHA] = value
                    if lines:
                        # this node's line: the move, then the child's line
                        row = ply * _WIDTH
                        k = nd[at + _NODE + _N_PV_LEN]
                        pv[row] = m
                        i = 0
                        while i < k:
                            pv[row + 1 + i] = pv[row + _WIDTH + i]
                            i += 1
                        nd[at + _N_PV_LEN] = k + 1
                    if value >= beta:
                        if not f & 1:
                            to = (m >> 7) & 127
                            if not b[to] and not (m >> 14) & 7:
                                if mv[am + _M_KILLER1] != m:
                                    mv[am + _M_KILLER2] = mv[am + _M_KILLER1]
                                    mv[am + _M_KILLER1] = m
                                d = nd[at + _N_DEPTH]
                                p = b[m & 127]
                                i = (p - 1 - ((p >> 3) << 1)) << 6 | (to + (to & 7)) >> 1
                                v = h16[i] + d * d
                                h16[i] = v
                                if v > _HISTORY_MAX:
                                    k = 0
                                    while k < _HISTORY:
                                        h16[k] = h16[k] >> 1
                                        k += 1
                            tt_put(tt, st[_HASH], tt_mask, generation, nd[at + _N_DEPTH], _LOWER, value, m, ply)
                        op = _RETURN


class Search:
    """One search at a time; its memory is allocated once, here."""

    def __init__(self, tt_entries=1024, lines=False):
        self.tree = Tree()
        size = 1
        while size * 2 <= tt_entries:
            size *= 2
        self.tt = bytearray(size * TT_ENTRY)
        self.scores = shorts(MOVE_SPACE)
        self.node = shorts((MAX_PLY + 1) * _NODE)         # a row a ply: the _N_ fields
        self.node_moves = ints((MAX_PLY + 1) * _MOVES)    # ... and the _M_ fields
        self.ctl = ints(_CTL)                             # the _C_ fields
        self.ctl[_C_TT_MASK] = size - 1
        self.ctl[_C_LINES] = 1 if lines else 0
        self.history = shorts(HISTORY)   # by piece (white's 0..5, black's 6..11) << 6 | square
        # the triangular table: the line from ply p at pv[p * (MAX_PLY + 1):], _N_PV_LEN moves long
        self.pv = ints((MAX_PLY + 1) * (MAX_PLY + 1)) if lines else None
        self.pv_buffer = self.pv if lines else self.ctl    # walk's pointer: without lines never read
        self.line = []            # the root's principal variation, as the last iteration left it
        self.noise = 0
        self.noise_seed = 0
        self.max_depth = MAX_PLY - 4
        self.history_keys = ints(1)
        self.nodes = 0
        self.clock = None
        self.done = True
        self.iteration = 0        # depth being searched
        self.completed = 0        # deepest depth finished
        self.result = 0
        self.score = 0

    # -- set-up -----------------------------------------------------------

    def start(self, position, root_moves, max_nodes, max_depth, deadline=None, clock=None):
        """Prepare a search of ``position`` restricted to ``root_moves`` (its legal moves)."""
        tree = self.tree
        tree.load(position)
        self.history_keys = array("i", position.recent_keys())
        ctl = self.ctl
        generation = (ctl[_C_GENERATION] + 1) & 63    # 6 bits in an entry
        if generation == 0:
            # every 63 searches: clear, so no entry of an older search can pass for a new one
            tt = self.tt
            for i in range(len(tt)):
                tt[i] = 0
            generation = 1
        ctl[_C_GENERATION] = generation
        h = self.history
        for i in range(len(h)):
            h[i] = 0
        node_moves = self.node_moves
        for ply in range(MAX_PLY + 1):
            node_moves[ply * _MOVES + _M_KILLER1] = 0
            node_moves[ply * _MOVES + _M_KILLER2] = 0
        node_moves[_M_BEST] = 0
        moves = tree.moves
        n = 0
        for m in root_moves:
            moves[n] = m
            n += 1
        ctl[_C_ROOT_END] = n
        ctl[_C_NODES] = 0
        ctl[_C_NODE_LIMIT] = max_nodes
        ctl[_C_NOISE] = self.noise
        ctl[_C_GAME_PLIES] = len(self.history_keys)
        ctl[_C_CLOCKED] = 0 if deadline is None else 1
        ctl[_C_DEADLINE] = deadline or 0
        self.nodes = 0
        self.max_depth = min(max_depth, MAX_PLY - 8)
        self.clock = clock
        self.result = root_moves[0] if root_moves else 0
        self.line = []
        self.score = 0
        self.completed = 0
        self.iteration = 0
        self.done = not root_moves
        if not self.done:
            self._next_iteration()

    def _next_iteration(self):
        self.iteration += 1
        node = self.node
        node[_N_ALPHA] = -INF
        node[_N_BETA] = INF
        node[_N_DEPTH] = self.iteration
        self.ctl[_C_OP] = _ENTER

    def stop(self):
        """End the search now: unmake the line being searched, keep the best move found."""
        tree = self.tree
        while tree.st[PLY]:
            tree.unmake()
        # A root move that finished with the best score in this unfinished iteration beats
        # the last iteration's choice (the first root move is that choice, searched first).
        if self.node_moves[_M_BEST]:
            self.result = self.node_moves[_M_BEST]
            self.score = self.node[_N_BEST]
            self._keep_line()
        self.done = True

    def _keep_line(self):
        if self.pv is not None:
            self.line = list(self.pv[:self.node[_N_PV_LEN]])

    # -- the transposition table -----------------------------------------

    def tt_move(self, key):
        """The move this search stored for the position ``key`` (its hash), or 0 (none stored)."""
        i = tt_find(self.tt, key, self.ctl[_C_TT_MASK], self.ctl[_C_GENERATION])
        if i < 0:
            return 0
        tt = self.tt
        return tt[i + 4] | tt[i + 5] << 8 | (tt[i + 6] & 3) << 16

    # -- the search -------------------------------------------------------

    def run(self, budget, clock=None, until=0):
        """Search for at most ``budget`` more nodes and, given a ``clock`` (microsecond ticks that
        wrap at 2**30), until it reads ``until`` (asked after each node: the board's slice of time);
        True once the search is over."""
        if self.done:
            return True
        ctl = self.ctl
        ctl[_C_STOP_AT] = ctl[_C_NODES] + budget
        ctl[_C_TIMED] = 0 if clock is None else 1
        if clock is not None:
            ctl[_C_UNTIL] = until
            ctl[_C_BEGAN] = clock()
        while True:
            why = walk(self, self.tree, clock)
            nodes = self.nodes = ctl[_C_NODES]     # for whoever reads it meanwhile
            if why == _SLICE_OVER:
                return False
            if why == _STOPPED:
                self.stop()
                return True
            # the root is done: one more iteration, or the end
            value = ctl[_C_VALUE]
            if self.node_moves[_M_BEST]:
                self.result = self.node_moves[_M_BEST]
                self.score = value
                self._keep_line()
            self.completed = self.iteration
            # a mate found within this depth cannot get shorter: stop there
            mate = MATE - (value if value > 0 else -value)
            limit = ctl[_C_NODE_LIMIT]
            if self.iteration >= self.max_depth or mate <= self.iteration or (limit and nodes >= limit):
                self.done = True
                return True
            self._next_iteration()
            self._order_root()
            if nodes >= ctl[_C_STOP_AT]:
                return False

    def _order_root(self):
        """The previous iteration's best move first, the others in their last order."""
        moves = self.tree.moves
        best = self.result
        for j in range(self.ctl[_C_ROOT_END]):
            if moves[j] == best:
                while j:
                    moves[j] = moves[j - 1]
                    j -= 1
                moves[0] = best
                break

    def noise_of(self, key):
        """A level's controlled randomness: a score offset fixed by the position and the seed."""
        noise = self.noise
        return ((key ^ self.noise_seed) % (2 * noise + 1)) - noise
