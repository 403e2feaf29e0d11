"""A two-layer grid router: every track the PCB generator lays comes from here.

The boards are small and regular, so a maze router on a fixed grid is enough:
each net grows as a tree, one A* search at a time from the copper it already
has to the nearest pad it still lacks. Tracks run on grid lines only
(horizontal and vertical), which keeps the clearance arithmetic exact: two
tracks of different nets are at least one pitch apart, and a pad's clearance
is checked against every cell and every segment between two cells with the
exact distance to its (rounded) rectangle. KiCad's DRC then checks the result
independently (host_tools/pcb/kicad_board.py).

Pure Python, no KiCad: the tests run it on their own small boards.
"""

import heapq
import math

F_CU = 0
B_CU = 1


class RoutingError(Exception):
    """A net could not be completed; the message names it and the pads left over."""


class Pad:
    """Copper of a pad: an axis-aligned rounded rectangle on one or both layers.

    `half_w`, `half_h` are half the pad's size; `radius` its corner radius
    (a round pad: radius == half_w == half_h; a rectangle: 0).
    """

    def __init__(self, net, x, y, half_w, half_h, radius=0.0, layers=(F_CU, B_CU), name=""):
        self.net = net
        self.x = x
        self.y = y
        self.half_w = half_w
        self.half_h = half_h
        self.radius = min(radius, half_w, half_h)
        self.layers = tuple(layers)
        self.name = name

    def distance_to_box(self, x1, y1, x2, y2):
        """Distance from this pad's copper to the box [x1, x2] x [y1, y2] (a point or a grid segment)."""
        r = self.radius
        inner_w = self.half_w - r
        inner_h = self.half_h - r
        dx = max(x1 - (self.x + inner_w), (self.x - inner_w) - x2, 0.0)
        dy = max(y1 - (self.y + inner_h), (self.y - inner_h) - y2, 0.0)
        return math.hypot(dx, dy) - r


class Net:
    """A net to route: its name, the pads it joins and its track width (mm)."""

    def __init__(self, name, pads, width):
        self.name = name
        self.pads = pads
        self.width = width


class Route:
    """What the router laid for one net: tracks as (layer, x1, y1, x2, y2) and vias as (x, y)."""

    def __init__(self, net):
        self.net = net
        self.tracks = []
        self.vias = []


class Grid:
    """The routing area, `width` x `height` mm from (0, 0), cut into `pitch` cells.

    `clearance` is the copper-to-copper minimum; `edge` the copper-to-board-edge
    minimum; `via` the via's copper diameter. `keepouts` are round holes
    without copper (mounting holes): (x, y, radius).
    """

    def __init__(self, width, height, pitch, clearance, edge, via, keepouts=()):
        self.pitch = pitch
        self.cols = int(width / pitch) + 1
        self.rows = int(height / pitch) + 1
        self.width = width
        self.height = height
        self.clearance = clearance
        self.edge = edge
        self.via_radius = via / 2.0
        self.keepouts = list(keepouts)
        self.pads = []

    def add_pad(self, pad):
        self.pads.append(pad)

    def xy(self, cell):
        return (cell % self.cols) * self.pitch, (cell // self.cols) * self.pitch

    # --- what a net may use ---

    def _blocked_cells(self, half):
        """For a track (or via) of half-width `half`: per layer, cell -> the only net that may use it (-2: none)."""
        cols = self.cols
        masks = ({}, {})
        margin = self.edge + half
        for layer in (F_CU, B_CU):
            mask = masks[layer]
            for cell in range(cols * self.rows):
                x, y = self.xy(cell)
                if x < margin or y < margin or x > self.width - margin or y > self.height - margin:
                    mask[cell] = -2
                    continue
                for kx, ky, kr in self.keepouts:
                    if math.hypot(x - kx, y - ky) < kr + self.clearance + half:
                        mask[cell] = -2
        for pad in self.pads:
            for cell, x, y in self._cells_near(pad, half, 1):
                if pad.distance_to_box(x, y, x, y) < half + self.clearance:
                    for layer in pad.layers:
                        _claim(masks[layer], cell, pad.net)
        return masks

    def _keep_vias_off_smd_pads(self, via_cells):
        """No via in or touching a pad that is soldered on one side, whatever its net: solder would
        wick down the hole. A short track joins them instead."""
        for pad in self.pads:
            if len(pad.layers) != 1:
                continue
            for cell, x, y in self._cells_near(pad, self.via_radius, 1):
                if pad.distance_to_box(x, y, x, y) < self.via_radius + self.clearance:
                    for layer in (F_CU, B_CU):
                        via_cells[layer][cell] = -2

    def _cells_near(self, pad, half, margin):
        """(cell, x, y) of every cell near enough to `pad` to matter to a track of half-width `half`;
        `margin` 2 leaves out the last row and column (a step from there would leave the grid)."""
        pitch = self.pitch
        reach = max(pad.half_w, pad.half_h) + half + self.clearance + pitch
        c1 = max(0, int((pad.x - reach) / pitch))
        c2 = min(self.cols - margin, int((pad.x + reach) / pitch) + 1)
        r1 = max(0, int((pad.y - reach) / pitch))
        r2 = min(self.rows - margin, int((pad.y + reach) / pitch) + 1)
        for row in range(r1, r2 + 1):
            for col in range(c1, c2 + 1):
                yield row * self.cols + col, col * pitch, row * pitch

    def _blocked_steps(self, half):
        """Per layer, (cell, cell + 1 or + cols) -> the only net whose segment may pass there."""
        cols = self.cols
        pitch = self.pitch
        masks = ({}, {})
        for pad in self.pads:
            for cell, x, y in self._cells_near(pad, half, 2):
                if pad.distance_to_box(x, y, x + pitch, y) < half + self.clearance:
                    for layer in pad.layers:
                        _claim(masks[layer], (cell, cell + 1), pad.net)
                if pad.distance_to_box(x, y, x, y + pitch) < half + self.clearance:
                    for layer in pad.layers:
                        _claim(masks[layer], (cell, cell + cols), pad.net)
        return masks

    def terminals(self, pad):
        """Grid nodes (layer, cell) inside the pad's copper: where a track may end on it."""
        nodes = []
        pitch = self.pitch
        for row in range(int((pad.y - pad.half_h) / pitch), int((pad.y + pad.half_h) / pitch) + 2):
            for col in range(int((pad.x - pad.half_w) / pitch), int((pad.x + pad.half_w) / pitch) + 2):
                if 0 <= row < self.rows and 0 <= col < self.cols:
                    x = col * pitch
                    y = row * pitch
                    inside = abs(x - pad.x) <= pad.half_w - 0.05 and abs(y - pad.y) <= pad.half_h - 0.05
                    if inside and pad.distance_to_box(x, y, x, y) <= 0.0:  # well inside, not on the rim
                        for layer in pad.layers:
                            nodes.append((layer, row * self.cols + col))
        if not nodes:
            raise RoutingError("pad %s of %s holds no grid point: move it onto the grid" % (pad.name, pad.net))
        return nodes

    # --- routing ---

    def route(self, nets, via_cost=8, attempts=12):
        """Route `nets` (a list of Net); return {net name: Route}.

        A net that cannot be completed is moved to the front and everything is
        routed again, up to `attempts` times; then RoutingError.
        """
        order = list(nets)
        tables = {}
        for net in nets:
            half = net.width / 2.0
            if half not in tables:
                tables[half] = (self._blocked_cells(half), self._blocked_steps(half))
        via_cells = self._blocked_cells(self.via_radius)
        self._keep_vias_off_smd_pads(via_cells)
        failure = None
        for _ in range(attempts):
            state = _State(self, tables, via_cells, via_cost)
            failure = None
            for net in order:
                if not state.route(net):
                    failure = net
                    break
            if failure is None:
                return state.routes
            order.remove(failure)
            order.insert(0, failure)
        raise RoutingError("could not route net %s after %d orders" % (failure.name, attempts))


def _claim(mask, key, net):
    old = mask.get(key)
    if old is None:
        mask[key] = net
    elif old != net:
        mask[key] = -2


class _State:
    """One routing pass: the copper laid so far, and A* over it."""

    def __init__(self, grid, tables, via_cells, via_cost):
        self.grid = grid
        self.tables = tables
        self.via_cells = via_cells
        self.via_cost = via_cost
        self.owner = ({}, {})  # per layer: cell -> net name
        self.half = ({}, {})  # per layer: cell -> half-width of the track there
        self.vias = {}  # cell -> net name
        self.routes = {}

    def _free(self, layer, cell, net, half, cells):
        allowed = cells[layer].get(cell)
        if allowed is not None and allowed != net:
            return False
        owner = self.owner[layer].get(cell)
        if owner is not None and owner != net:
            return False
        grid = self.grid
        pitch = grid.pitch
        clearance = grid.clearance
        for other in self._neighbours(cell):
            owner = self.owner[layer].get(other)
            if owner is not None and owner != net:
                if pitch < half + self.half[layer][other] + clearance - 1e-9:
                    return False
            owner = self.vias.get(other)
            if owner is not None and owner != net:
                if pitch < half + grid.via_radius + clearance - 1e-9:
                    return False
        return True

    def _via_free(self, cell, net):
        grid = self.grid
        for layer in (F_CU, B_CU):
            allowed = self.via_cells[layer].get(cell)
            if allowed is not None and allowed != net:
                return False
            owner = self.owner[layer].get(cell)
            if owner is not None and owner != net:
                return False
            for other in self._neighbours(cell):
                owner = self.owner[layer].get(other)
                if owner is not None and owner != net:
                    if grid.pitch < grid.via_radius + self.half[layer][other] + grid.clearance - 1e-9:
                        return False
        for other in self._neighbours(cell, diagonal=True):
            owner = self.vias.get(other)
            if owner is not None and owner != net:
                x1, y1 = grid.xy(cell)
                x2, y2 = grid.xy(other)
                if math.hypot(x1 - x2, y1 - y2) < 2 * grid.via_radius + grid.clearance - 1e-9:
                    return False
        return True

    def _neighbours(self, cell, diagonal=False):
        cols = self.grid.cols
        col = cell % cols
        out = []
        if col > 0:
            out.append(cell - 1)
        if col < cols - 1:
            out.append(cell + 1)
        if cell >= cols:
            out.append(cell - cols)
        if cell + cols < cols * self.grid.rows:
            out.append(cell + cols)
        if diagonal:
            for a in (-cols, cols):
                for b in (-1, 1):
                    other = cell + a + b
                    if 0 <= other < cols * self.grid.rows and abs((other % cols) - col) == 1:
                        out.append(other)
        return out

    def route(self, net):
        grid = self.grid
        half = net.width / 2.0
        cells, steps = self.tables[half]
        terminals = [grid.terminals(pad) for pad in net.pads]
        tree = set(terminals[0])
        for layer, cell in tree:
            self._lay(net, layer, cell, half)
        left = list(range(1, len(terminals)))
        result = Route(net.name)
        while left:
            goals = {}
            for index in left:
                for node in terminals[index]:
                    goals[node] = index
            path = self._search(net, half, cells, steps, tree, goals)
            if path is None:
                return False
            reached = goals[path[-1]]
            left.remove(reached)
            for previous, node in zip(path, path[1:]):
                if previous[0] != node[0]:
                    self.vias[node[1]] = net.name
            for node in path:
                self._lay(net, node[0], node[1], half)
                tree.add(node)
            for node in terminals[reached]:
                self._lay(net, node[0], node[1], half)
                tree.add(node)
            _add_path(grid, result, path)
        self.routes[net.name] = result
        return True

    def _lay(self, net, layer, cell, half):
        self.owner[layer][cell] = net.name
        self.half[layer][cell] = max(half, self.half[layer].get(cell, 0.0))

    def _search(self, net, half, cells, steps, sources, goals):
        grid = self.grid
        cols = grid.cols
        targets = [grid.xy(cell) for _layer, cell in goals]
        tx1 = min(x for x, _ in targets)
        tx2 = max(x for x, _ in targets)
        ty1 = min(y for _, y in targets)
        ty2 = max(y for _, y in targets)
        pitch = grid.pitch

        def estimate(cell):
            x = (cell % cols) * pitch
            y = (cell // cols) * pitch
            return (max(tx1 - x, x - tx2, 0.0) + max(ty1 - y, y - ty2, 0.0)) / pitch

        best = {}
        came = {}
        heap = []
        for node in sources:
            best[node] = 0.0
            heapq.heappush(heap, (estimate(node[1]), 0.0, node))
        name = net.name
        while heap:
            _f, cost, node = heapq.heappop(heap)
            if cost > best.get(node, 1e18):
                continue
            if node in goals and node not in sources:
                path = [node]
                while path[-1] in came:
                    path.append(came[path[-1]])
                path.reverse()
                return path
            layer, cell = node
            col = cell % cols
            moves = []
            # F.Cu prefers horizontal runs and B.Cu vertical ones, so the layers cross instead of blocking.
            horizontal = 1.0 if layer == F_CU else 1.6
            vertical = 1.6 if layer == F_CU else 1.0
            if col < cols - 1:
                moves.append((layer, cell + 1, horizontal, (cell, cell + 1)))
            if col > 0:
                moves.append((layer, cell - 1, horizontal, (cell - 1, cell)))
            if cell + cols < cols * grid.rows:
                moves.append((layer, cell + cols, vertical, (cell, cell + cols)))
            if cell >= cols:
                moves.append((layer, cell - cols, vertical, (cell - cols, cell)))
            for new_layer, new_cell, step, edge in moves:
                allowed = steps[new_layer].get(edge)
                if allowed is not None and allowed != name:
                    continue
                new = (new_layer, new_cell)
                new_cost = cost + step
                if new_cost >= best.get(new, 1e18):
                    continue
                if not self._free(new_layer, new_cell, name, half, cells):
                    continue
                best[new] = new_cost
                came[new] = node
                heapq.heappush(heap, (new_cost + estimate(new_cell), new_cost, new))
            other = (1 - layer, cell)
            new_cost = cost + self.via_cost
            if new_cost < best.get(other, 1e18) and self.vias.get(cell) in (None, name):
                if self._via_free(cell, name) and self._free(1 - layer, cell, name, half, cells):
                    best[other] = new_cost
                    came[other] = node
                    heapq.heappush(heap, (new_cost + estimate(cell), new_cost, other))
        return None


def _add_path(grid, route, path):
    """Turn a path of grid nodes into straight tracks and vias."""
    start = path[0]
    previous = path[0]
    for node in path[1:]:
        if node[0] != previous[0]:  # a via
            if start != previous:
                _track(grid, route, start, previous)
            x, y = grid.xy(node[1])
            route.vias.append((x, y))
            start = node
        elif not _collinear(grid, start, previous, node):
            _track(grid, route, start, previous)
            start = previous
        previous = node
    if start != previous:
        _track(grid, route, start, previous)


def _collinear(grid, a, b, c):
    cols = grid.cols
    return (a[1] % cols == b[1] % cols == c[1] % cols) or (a[1] // cols == b[1] // cols == c[1] // cols)


def _track(grid, route, a, b):
    x1, y1 = grid.xy(a[1])
    x2, y2 = grid.xy(b[1])
    route.tracks.append((a[0], x1, y1, x2, y2))
