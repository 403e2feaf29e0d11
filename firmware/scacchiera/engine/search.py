"""Iterative deepening principal-variation search, run as a loop over an explicit stack.

The search is not recursive: every node's state (window, depth, move range,
best so far) lives in preallocated per-ply lists, and ``run(budget)`` walks
the tree one step at a time until ``budget`` nodes are spent. The board's
main loop can so give the engine a slice of time between two scans and
resume it later; ``Engine.best_move`` just runs it to the end.

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
"""

from array import array

from .. import const
from ..rules.legal import attacked
from .evaluate import VALUE
from .ordering import score_moves, take_best, KILLER, CAPTURE, HISTORY
from .movegen import checker
from .tree import Tree, MAX_PLY, MOVE_SPACE, ROOM, shorts, ints, TURN, HALF, HASH, PLY, KINGS, UNDO
from .tree import make_move, unmake_move, static_score, left_in_check, stops_check, is_repetition, has_pieces
from .tree import TT_ENTRY, tt_find, tt_put

INF = const(32000)
MATE = const(31000)
MATE_BOUND = const(30000)    # scores beyond this are mates
_EXACT = const(0)
_LOWER = const(1)
_UPPER = const(2)

_ENTER = const(0)
_NEXT = const(1)
_RETURN = const(2)
_GENERATE = const(3)

_HISTORY_MAX = const(14000)
_FUTILE_DEPTH = const(3)       # the depths the two futility tests below look at
_RFP_MARGIN = const(120)       # reverse futility: centipawns a ply of depth
_FUTILITY_MARGIN = const(200)  # futility at the frontier


class Search:
    """One search at a time; its memory is allocated once, here."""

    def __init__(self, tt_entries=1024, lines=False):
        self.tree = Tree()
        size = 1
        while size * 2 <= tt_entries:
            size *= 2
        self.tt = bytearray(size * TT_ENTRY)
        self.tt_mask = size - 1
        self.generation = 0
        n = MAX_PLY + 1
        self.scores = shorts(MOVE_SPACE)
        self.alpha = shorts(n)
        self.beta = shorts(n)
        self.depth = shorts(n)
        self.best = shorts(n)
        self.best_move = ints(n)
        self.first = shorts(n)    # start of the node's moves in tree.moves
        self.next = shorts(n)     # next move to try
        self.end = shorts(n)
        self.legal = shorts(n)
        self.alpha0 = shorts(n)
        self.flags = shorts(n)    # 1 quiescence, 2 in check, 4 null window child, 8 captures only, 32 reduced child, 64 futile
        self.checker = shorts(n)  # the checking piece's square, -1 none, -2 two
        self.ttmove = ints(n)
        self.killer1 = ints(n)
        self.killer2 = ints(n)
        self.history = shorts(HISTORY)   # by piece (white's 0..5, black's 6..11) << 6 | square
        # the triangular table: the line from ply p at pv[p * n:], pv_len[p] moves long
        self.pv = ints(n * n) if lines else None
        self.pv_len = shorts(n)
        self.line = []            # the root's principal variation, as the last iteration left it
        self.noise = 0
        self.noise_seed = 0
        self.max_depth = MAX_PLY - 4
        self.history_keys = ints(1)
        self.nodes = 0
        self.node_limit = 0
        self.deadline = None
        self.clock = None
        self.done = True
        self.op = _ENTER
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
        self.generation = (self.generation + 1) & 63    # 6 bits in an entry
        if self.generation == 0:
            # every 63 searches: clear, so no entry of an older search can pass for a new one
            tt = self.tt
            for i in range(len(tt)):
                tt[i] = 0
            self.generation = 1
        h = self.history
        for i in range(len(h)):
            h[i] = 0
        for i in range(MAX_PLY + 1):
            self.killer1[i] = 0
            self.killer2[i] = 0
        moves = tree.moves
        n = 0
        for m in root_moves:
            moves[n] = m
            n += 1
        self.root_end = n
        self.nodes = 0
        self.node_limit = max_nodes
        self.max_depth = min(max_depth, MAX_PLY - 8)
        self.deadline = deadline
        self.clock = clock
        self.result = root_moves[0] if root_moves else 0
        self.line = []
        self.best_move[0] = 0
        self.score = 0
        self.completed = 0
        self.iteration = 0
        self.done = not root_moves
        if not self.done:
            self._next_iteration()

    def _next_iteration(self):
        self.iteration += 1
        self.alpha[0] = -INF
        self.beta[0] = INF
        self.depth[0] = self.iteration
        self.op = _ENTER

    def stop(self):
        """End the search now: unmake the line being searched, keep the best move found."""
        tree = self.tree
        while tree.st[PLY]:
            tree.unmake()
        # A root move that finished with the best score in this unfinished iteration beats
        # the last iteration's choice (the first root move is that choice, searched first).
        if self.best_move[0]:
            self.result = self.best_move[0]
            self.score = self.best[0]
            self._keep_line()
        self.done = True

    def _keep_line(self):
        if self.pv is not None:
            self.line = list(self.pv[:self.pv_len[0]])

    # -- the transposition table -----------------------------------------

    def tt_move(self, key):
        """The move this search stored for the position ``key`` (its hash), or 0 (none stored)."""
        i = tt_find(self.tt, key, self.tt_mask, self.generation)
        if i < 0:
            return 0
        tt = self.tt
        return tt[i + 4] | tt[i + 5] << 8 | (tt[i + 6] & 3) << 16

    # -- the search -------------------------------------------------------

    def run(self, budget, timer=None):
        """Search for at most ``budget`` more nodes, and, given a ``timer``, until its ``over()``
        says so (asked after each node: the board's slice of time); True once the search is over."""
        if self.done:
            return True
        tree = self.tree
        st = tree.st
        undo = tree.undo
        keys = tree.keys
        board = tree.board
        keep = tree.keep
        pawns = tree.pawns
        checkers = self.checker
        ttmoves = self.ttmove
        alpha0 = self.alpha0
        game_keys = self.history_keys
        game_plies = len(game_keys)
        moves = tree.moves
        scores = self.scores
        alpha = self.alpha
        beta = self.beta
        depth = self.depth
        best = self.best
        best_move = self.best_move
        first = self.first
        nxt = self.next
        end = self.end
        legal = self.legal
        flags = self.flags
        killer1 = self.killer1
        killer2 = self.killer2
        history = self.history
        tt = self.tt
        pv = self.pv
        pv_len = self.pv_len
        width = MAX_PLY + 1
        nodes = self.nodes             # kept in self.nodes too, for whoever reads it meanwhile
        stop_at = nodes + budget
        node_limit = self.node_limit   # set by start, read at every node
        deadline = self.deadline
        noise = self.noise
        tt_mask = self.tt_mask
        generation = self.generation
        at_ply = PLY                   # another module's consts are names to look up: locals are quicker
        quiet_below = KILLER - 1       # move scores below: history only (no table move, capture, killer)
        op = self.op
        value = 0
        while True:
            ply = st[at_ply]
            if op == _ENTER:
                # -- a new node: draws, limits, the table, the moves ------------
                nodes += 1
                self.nodes = nodes
                pv_len[ply] = 0
                if (node_limit and nodes > node_limit) or \
                        (deadline is not None and not nodes & 127 and self.clock() >= deadline):
                    self.stop()
                    return True
                if ply:
                    if st[HALF] >= 100 or is_repetition(st, keys, game_keys, game_plies):
                        value = 0
                        op = _RETURN
                        continue
                    if ply >= MAX_PLY - 2 or end[ply - 1] + ROOM > MOVE_SPACE:
                        value = static_score(board, st, pawns)   # the line is too long for the buffers
                        op = _RETURN
                        continue
                a = alpha[ply]
                b = beta[ply]
                d = depth[ply]
                us = st[TURN]
                checking = checker(board, st[KINGS + us], us)
                check = checking != -1
                checkers[ply] = checking
                f = 2 if check else 0
                if d <= 0 and not check:
                    # quiescence: stand pat, then captures
                    stand = static_score(board, st, pawns)
                    if noise:
                        stand += self._noise(st[HASH])
                    if stand >= b:
                        value = stand
                        op = _RETURN
                        continue
                    if stand > a:
                        a = stand
                    best[ply] = stand
                    f |= 1 | 8
                    ttmove = 0
                else:
                    if d <= 0:
                        d = 0       # in check at the horizon: search every reply
                        f |= 1
                    elif check:
                        d += 1      # check extension
                    ttmove = 0
                    i = tt_find(tt, st[HASH], tt_mask, generation)
                    if i >= 0:
                        ttmove = tt[i + 4] | tt[i + 5] << 8 | (tt[i + 6] & 3) << 16
                        if ply and tt[i + 7] >= d and b - a == 1:
                            s = tt[i + 8] | tt[i + 9] << 8
                            s -= 32768
                            if s > MATE_BOUND:
                                s -= ply
                            elif s < -MATE_BOUND:
                                s += ply
                            bound = tt[i + 3] >> 6
                            if bound == _EXACT or (bound == _LOWER and s >= b) or (bound == _UPPER and s <= a):
                                value = s
                                op = _RETURN
                                continue
                    best[ply] = -INF
                    stat = -INF     # the static score, once counted (the null move below asks it too)
                    if ply and not check and d <= _FUTILE_DEPTH and b - a == 1 and -MATE_BOUND < a < MATE_BOUND:
                        stat = e = static_score(board, st, pawns)
                        if noise:
                            e += self._noise(st[HASH])
                        if e - _RFP_MARGIN * d >= b:
                            # reverse futility: so far above beta near the horizon that the
                            # opponent's reply will not bring it back (no move searched)
                            value = e
                            op = _RETURN
                            continue
                        if d == 1 and e + _FUTILITY_MARGIN <= a:
                            # futility: one quiet move cannot lift the score to alpha, so only
                            # the first move, captures, promotions and checks are searched
                            f |= 64
                            best[ply] = e + _FUTILITY_MARGIN
                alpha[ply] = a
                depth[ply] = d
                flags[ply] = f
                ttmoves[ply] = ttmove
                op = _GENERATE
                if ply and not f & 3 and d >= 3 and b - a == 1 and undo[(ply - 1) * UNDO] \
                        and has_pieces(board, st[TURN]) and (stat if stat != -INF else static_score(board, st, pawns)) >= b:
                    # null move: if passing still fails high, a real move will too. This node has no
                    # moves yet: its child's start in the buffer is where the parent's end
                    # (end[ply] still holds an earlier node's, maybe below this node's parent's
                    # list: the child's moves would overwrite it)
                    end[ply] = end[ply - 1]
                    tree.make_null()
                    c = ply + 1
                    alpha[c] = -b
                    beta[c] = 1 - b
                    depth[c] = d - 3 if d < 7 else d - 4
                    op = _ENTER
            elif op == _GENERATE:
                # -- the moves, in order: table move, captures (MVV-LVA), killers, history
                f = flags[ply]
                ttmove = ttmoves[ply]
                if ply:
                    n0 = end[ply - 1]
                    n1 = tree.generate(n0, not f & 8)
                else:
                    n0 = 0
                    n1 = self.root_end
                first[ply] = n0
                score_moves(moves, scores, board, history, n0, n1, ttmove, killer1[ply], killer2[ply])
                alpha0[ply] = alpha[ply]
                nxt[ply] = n0
                end[ply] = n1
                legal[ply] = 0
                best_move[ply] = 0
                op = _NEXT
            elif op == _NEXT:
                # -- the next move of the node at ``ply`` -------------------------
                j = nxt[ply]
                n1 = end[ply]
                if j >= n1:
                    # every move tried
                    f = flags[ply]
                    if not legal[ply]:
                        if f & 2:
                            value = -MATE + ply
                        elif f & 1:
                            value = best[ply]
                        else:
                            value = 0   # stalemate
                    else:
                        value = best[ply]
                    if not f & 1:
                        bound = _UPPER if value <= alpha0[ply] else _EXACT
                        tt_put(tt, st[HASH], tt_mask, generation, depth[ply], bound, value, best_move[ply], ply)
                    op = _RETURN
                    continue
                m = take_best(moves, scores, j, n1)
                ts = scores[j]
                nxt[ply] = j + 1
                f = flags[ply]
                if f & 8 and not m >> 14 & 7:
                    # quiescence: skip a capture that cannot lift the score to alpha (delta
                    # pruning), or that gives more than it takes onto a defended square
                    to = (m >> 7) & 127
                    gain = VALUE[board[to] & 7]
                    if best[ply] + gain + 200 <= alpha[ply]:
                        continue
                    if gain < VALUE[board[m & 127] & 7] and attacked(board, to, st[TURN] ^ 1):
                        continue
                if f & 2 and (m & 127) != st[KINGS + st[TURN]]:
                    c = checkers[ply]
                    if c == -2 or not stops_check(st, m, c):
                        continue
                quiet = ts < quiet_below and not board[(m >> 7) & 127] and not m >> 14 & 7
                # make_move and unmake_move straight, not through the tree's methods (a call less
                # a node); a Chess960 castling the tree finishes
                if make_move(board, st, undo, keys, keep, m):
                    tree.castle(m)
                if left_in_check(board, st, undo, f & 2) or (
                        f & 64 and ts < CAPTURE and legal[ply] and checker(board, st[KINGS + st[TURN]], st[TURN]) == -1):
                    # illegal; or a futile node's quiet move after the first that gives no check
                    if unmake_move(board, st, undo):
                        tree.uncastle()
                    continue
                n = legal[ply] + 1
                legal[ply] = n
                c = ply + 1
                a = alpha[ply]
                d = depth[ply]
                f &= ~36
                if f & 1:
                    alpha[c] = -beta[ply]
                    beta[c] = -a
                    depth[c] = 0
                elif n > 1:
                    alpha[c] = -a - 1
                    beta[c] = -a
                    f |= 4
                    if n > 3 and d >= 3 and quiet and not f & 2:
                        # late move reduction: a quiet move far down the list, one ply less
                        depth[c] = d - 2
                        f |= 32
                    else:
                        depth[c] = d - 1
                else:
                    alpha[c] = -beta[ply]
                    beta[c] = -a
                    depth[c] = d - 1
                flags[ply] = f
                if nodes >= stop_at or (timer is not None and timer.over()):
                    self.op = _ENTER
                    return False
                op = _ENTER
            else:
                # -- a child's score comes back to the node at ply - 1 --------------
                if not ply:
                    # the root is done: one more iteration, or the end
                    if best_move[0]:
                        self.result = best_move[0]
                        self.score = value
                        self._keep_line()
                    self.completed = self.iteration
                    # a mate found within this depth cannot get shorter: stop there
                    mate = MATE - (value if value > 0 else -value)
                    if self.iteration >= self.max_depth or mate <= self.iteration \
                            or (node_limit and nodes >= node_limit):
                        self.done = True
                        return True
                    self._next_iteration()
                    self._order_root()
                    op = _ENTER
                    if nodes >= stop_at:
                        self.op = op
                        return False
                    continue
                value = -value
                m = undo[(ply - 1) * UNDO]        # the move that led here (0: a pass)
                if not m:
                    # the null move's answer
                    tree.unmake_null()
                    ply -= 1
                    if value >= beta[ply]:
                        if value > MATE_BOUND:
                            value = beta[ply]
                        op = _RETURN
                    else:
                        op = _GENERATE
                    continue
                if unmake_move(board, st, undo):
                    tree.uncastle()
                ply -= 1
                f = flags[ply]
                if f & 32 and value > alpha[ply]:
                    # the reduced search beat alpha: again at full depth (null window)
                    tree.make(m)
                    c = ply + 1
                    alpha[c] = -alpha[ply] - 1
                    beta[c] = -alpha[ply]
                    depth[c] = depth[ply] - 1
                    flags[ply] = f & ~32
                    op = _ENTER
                    continue
                if f & 4 and alpha[ply] < value < beta[ply] and beta[ply] - alpha[ply] > 1:
                    # the null window failed high: search the move again with the full window
                    tree.make(m)
                    c = ply + 1
                    alpha[c] = -beta[ply]
                    beta[c] = -alpha[ply]
                    depth[c] = depth[ply] - 1
                    flags[ply] = f & ~4
                    op = _ENTER
                    continue
                if value > best[ply]:
                    best[ply] = value
                    best_move[ply] = m
                    if value > alpha[ply]:
                        alpha[ply] = value
                        if pv is not None:
                            # this node's line: the move, then the child's line
                            at = ply * width
                            k = pv_len[ply + 1]
                            pv[at] = m
                            for i in range(k):
                                pv[at + 1 + i] = pv[at + width + i]
                            pv_len[ply] = k + 1
                        if value >= beta[ply]:
                            if not f & 1:
                                if not board[(m >> 7) & 127] and not m >> 14 & 7:
                                    if killer1[ply] != m:
                                        killer2[ply] = killer1[ply]
                                        killer1[ply] = m
                                    d = depth[ply]
                                    to = (m >> 7) & 127
                                    p = board[m & 127]
                                    i = (p - 1 - ((p >> 3) << 1)) << 6 | (to + (to & 7)) >> 1
                                    v = history[i] + d * d
                                    history[i] = v
                                    if v > _HISTORY_MAX:
                                        for k in range(len(history)):
                                            history[k] >>= 1
                                tt_put(tt, st[HASH], tt_mask, generation, depth[ply], _LOWER, value, m, ply)
                            op = _RETURN
                            continue
                op = _NEXT

    def _order_root(self):
        """The previous iteration's best move first, the others in their last order."""
        moves = self.tree.moves
        best = self.result
        for j in range(self.root_end):
            if moves[j] == best:
                while j:
                    moves[j] = moves[j - 1]
                    j -= 1
                moves[0] = best
                break

    def _noise(self, key):
        """A level's controlled randomness: a score offset fixed by the position and the seed."""
        if not self.noise:
            return 0
        return ((key ^ self.noise_seed) % (2 * self.noise + 1)) - self.noise
