// The emulated Scacchiera board: MicroPython for the Raspberry Pi Pico (an official .uf2) on npm's
// rp2040js, with the board's wiring around it. host_tools/pico_emu drives it: one JSON command per
// line on stdin, one JSON reply per line on stdout (docs/emulator.md has the list).
//
// What the harness adds to rp2040js (see ../shared/rp2040/README.md for why):
// - flash that can be written: the bootrom's flash_range_erase ('RE') and flash_range_program ('RP')
//   are replaced by a BKPT that the harness serves (NOR semantics, datasheet-typical busy times);
// - a USB host that keeps an OUT request pending until it has bytes (as a real host's NAK does);
// - the reed matrix as an electrical model (a column reads 0 while a row with a closed reed on that
//   column is driven LOW, or the column's own driver holds it LOW, and for init's `column_rise_ns`
//   after: its pull-up recharging the wiring;
//   diodes, so no ghosts), the buttons, the WS2812 chain decoded from pulse widths on the LED pin;
// - resets: the watchdog (or machine.reset) restarts the chip with the same flash and the watchdog's
//   reason kept; a power cut stops it, and `boot` powers it on again;
// - optionally (init's `oled`: {bus, address}) an SSD1306 on that I2C bus: it acknowledges its
//   address and keeps each transfer's bytes for host_tools/pico_emu, which decodes them
//   (host_tools/fakehw/ssd1306_model.py). The bus takes its time: SCL periods from the I2C block's
//   programmed counts (attachOled).
// Time is emulated and deterministic: instructions at 125 MHz, WFI/WFE skips to the next alarm.

import fs from 'node:fs';
import readline from 'node:readline';
import { RP2040, USBCDC, GPIOPinState } from 'rp2040js';
import { readBlocks } from './uf2.mjs';

const FLASH_BASE = 0x10000000;
const CYCLE_NS = 8; // 125 MHz
const MAX_IDLE_STEP_NS = 1_000_000; // a sleeping core is woken at least every 1 ms of emulated time
const ERASE_NS_PER_SECTOR = 45_000_000; // W25Q16JV typical 4 KB sector erase (max 400 ms)
const PROGRAM_NS_PER_PAGE = 400_000; // ...typical 256 B page program (max 3 ms)
const WS2812_ONE_NS = 600; // a high pulse longer than this is a 1 bit (0 ~ 400 ns, 1 ~ 800 ns)
const WS2812_RESET_NS = 50_000; // a low gap this long starts a new frame
const TIMERAWL = 0x28;
const SCAN_GAP_NS = 10_000_000; // gaps between scans longer than this are listed (stats' scans)
const POLL_WINDOW_NS = 400;
const POLL_STEP_NS = 2000;
const PROFILE_SHIFT = 5; // the profile counts instructions per 32-byte block of code
// The XIP cache (RP2040 datasheet 2.6.3.1): 16 KiB, two-way set-associative, 8-byte lines, a hit
// costs nothing more; a miss stalls the bus for a serial read of the line. pico-sdk's boot2_w25q080
// (MicroPython's Pico) reads quad I/O in continuous mode at clk_sys / PICO_FLASH_SPI_CLKDIV (2):
// 24 address + 8 mode bits (8 SCK), 4 dummy SCK, 64 data bits (16 SCK) = 28 SCK = 56 clk_sys cycles,
// plus (an estimate) 4 cycles of the SSI's chip select and the bus. rp2040js charges none of it.
const XIP_SETS = 1024;
const XIP_MISS_CYCLES = 60;
const BKPT_ERASE = 0xe1;
const BKPT_PROGRAM = 0xe2;

const quietLogger = {
  debug() {},
  info() {},
  warn() {},
  error(component, message) {
    process.stderr.write(`[rp2040js ${component}] ${message}\n`);
  },
};

/** A UF2 file's blocks as [flash offset, bytes] (uf2.mjs: npm's uf2 decodes them). */
function readUF2(path) {
  return readBlocks(path).map((b) => [b.flashAddress - FLASH_BASE, b.payload]);
}

/** What the bootrom does with a UF2 dropped on its drive: each 4 KiB sector it gets a block for is
erased, then programmed with the blocks' bytes; every other sector keeps what it had. */
function dropUF2(flash, path) {
  const blocks = readUF2(path);
  const sectors = new Set(blocks.map(([offset]) => offset >> 12));
  for (const sector of sectors) flash.fill(0xff, sector << 12, (sector + 1) << 12);
  for (const [offset, bytes] of blocks) flash.set(bytes, offset);
  return blocks.length;
}

/** The bootrom with 'RE' and 'RP' replaced by `bkpt #tag; bx lr` (the harness does the work). */
function patchedBootrom(path) {
  const bytes = fs.readFileSync(path);
  if (bytes.length !== 16384) throw new Error(`${path}: a bootrom is 16384 bytes, not ${bytes.length}`);
  const rom = new Uint32Array(4096);
  for (let i = 0; i < 4096; i++) rom[i] = bytes.readUInt32LE(i * 4);
  const half = (addr) => (rom[addr >> 2] >>> ((addr & 2) * 8)) & 0xffff;
  const setHalf = (addr, value) => {
    const shift = (addr & 2) * 8;
    rom[addr >> 2] = ((rom[addr >> 2] & ~(0xffff << shift)) | (value << shift)) >>> 0;
  };
  const code = (a, b) => a.charCodeAt(0) | (b.charCodeAt(0) << 8);
  const wanted = { [code('R', 'E')]: BKPT_ERASE, [code('R', 'P')]: BKPT_PROGRAM };
  let found = 0;
  for (let entry = half(0x14); half(entry) !== 0; entry += 4) {
    const tag = wanted[half(entry)];
    if (tag !== undefined) {
      const fn = half(entry + 2) & ~1;
      setHalf(fn, 0xbe00 | tag); // bkpt #tag
      setHalf(fn + 2, 0x4770); // bx lr
      found++;
    }
  }
  if (found !== 2) throw new Error(`${path}: no flash_range_erase/program in the bootrom's table`);
  return rom;
}

class Board {
  constructor(cfg) {
    this.cfg = cfg; // pins, squares' (row, col), fs image: from host_tools/pico_emu
    this.rom = patchedBootrom(cfg.bootrom);
    this.flash = new Uint8Array(16 * 1024 * 1024).fill(0xff);
    for (const [offset, chunk] of readUF2(cfg.uf2)) this.flash.set(chunk, offset);
    if (cfg.fs_image) this.flash.set(fs.readFileSync(cfg.fs_image), cfg.fs_offset);
    this.occupied = new Uint8Array(64); // by square (a1=0)
    this.pressed = new Set(); // button pins held down
    this.baseNs = 0; // emulated time when the current chip was powered or reset
    this.chip = null;
    this.powered = false;
    this.resets = []; // {t_ms, cause} since the last reply
    this.frames = []; // [t_ms, hex] WS2812 frames since the last reply
    this.i2c = []; // hex: each transfer to the SSD1306 since the last reply
    this.serialOut = [];
    this.serialIn = []; // host -> board bytes not yet taken
    this.flashStats = { erases: 0, programs: 0, busy_ns: 0 };
    this.xipStats = { hits: 0, misses: 0, miss_cycles: XIP_MISS_CYCLES, on: cfg.xip !== false };
    // Scans counted on the pins, as a rig would: each time row 0 is pulled LOW. gaps: [t_ms, ms]
    // of every interval between two scans longer than SCAN_GAP_NS.
    this.scanStats = { count: 0, gaps: [] };
    this.lastScanNs = -1;
    this.row0Low = false;
    this.fault = null;
    this.cellOfSquare = cfg.cells; // square -> [row, col]
  }

  get nowNs() {
    return this.baseNs + (this.chip && this.powered ? this.chip.clock.nanos : this.offNs || 0);
  }

  // -- power and resets ------------------------------------------------------------

  powerOn(watchdog = null) {
    const mcu = new RP2040();
    mcu.logger = quietLogger;
    mcu.loadBootrom(this.rom); // rp2040js' reset() clears its flash: ours is copied in after
    mcu.flash.set(this.flash.subarray(0, mcu.flash.length));
    this.flash = mcu.flash; // one array from now on: what the chip writes is what we keep
    const wd = mcu.peripherals[0x40058];
    if (watchdog) {
      wd.reason = watchdog.reason;
      wd.scratchData.set(watchdog.scratch);
    }
    this.resetPending = null;
    wd.onWatchdogTrigger = () => {
      this.resetPending = { reason: wd.reason, scratch: Uint32Array.from(wd.scratchData) };
      // The chip resets now. (rp2040js re-arms its alarm at a count of 0, i.e. at once, for ever.)
      wd.alarm.enable = false;
    };
    mcu.onBreak = (tag) => this.onBreak(mcu, tag);
    this.chip = mcu;
    this.powered = true;
    this.attachUsb(mcu);
    this.attachPins(mcu);
    this.attachTimerPolling(mcu);
    this.attachOled(mcu);
    this.attachXipCache(mcu);
    mcu.core.PC = FLASH_BASE; // boot2 then the firmware, as the bootrom would after its checks
  }

  powerCut() {
    if (!this.powered) return;
    this.baseNs += this.chip.clock.nanos;
    this.offNs = 0;
    this.powered = false;
    this.chip = null;
    this.pendingRead = null;
  }

  resetChip(watchdog) {
    const t = this.nowNs;
    this.resets.push({ t_ms: t / 1e6, cause: watchdog.reason & 1 ? 'watchdog' : 'forced' });
    this.baseNs = t;
    this.fault = null; // a transient fault: the reset clears it
    this.powerOn(watchdog);
  }

  /** The optional SSD1306: acknowledges writes to its address, keeps the bytes of each transfer.

  The bus takes its time: each step completes after the SCL periods it lasts on a real bus, the
  period read from the I2C block's own counts (IC_FS_SCL_HCNT + IC_FS_SCL_LCNT, clk_sys cycles, as
  pico-sdk's i2c_set_baudrate programs them: 313 cycles, 2.5 us, at 400 kHz): START and STOP one
  period each, the address and each byte nine (8 bits and the ACK). Not modelled: rise and fall
  times, clock stretching (an SSD1306 does not stretch), the block's own gaps between bytes.
  */
  attachOled(mcu) {
    // Without a panel the bus is still there, pulled up (MicroPython's I2C turns the pins' pull-ups
    // on): an address nobody answers is a NACK at its ninth clock, as on a board.
    const oled = this.cfg.oled || { bus: this.cfg.i2c_bus, address: -1 };
    if (oled.bus === undefined) return;
    const i2c = mcu.i2c[oled.bus];
    // An abort flushes the TX FIFO, which is then empty: TX_EMPTY (raw interrupt bit 4) asserts, as the
    // RP2040 datasheet's IC_RAW_INTR_STAT says. rp2040js 1.4.1 sets it only when a command leaves the
    // FIFO, so pico-sdk's write, which waits for it, ran into its timeout (50 ms) on every NACK.
    const abort = i2c.abort.bind(i2c);
    i2c.abort = (reason) => {
      abort(reason);
      i2c.setInterrupts(1 << 4);
    };
    let bytes = null; // the transfer under way to the panel, or null
    const after = (periods, done) => {
      const alarm = mcu.clock.createAlarm(done);
      alarm.schedule(periods * (i2c.sclHighPeriod + i2c.sclLowPeriod) * CYCLE_NS);
    };
    i2c.onStart = () => after(1, () => i2c.completeStart());
    i2c.onConnect = (address, mode) => {
      const ack = address === oled.address && mode === 0; // I2CMode.Write: a driver only writes to it
      bytes = ack ? [] : null;
      after(9, () => i2c.completeConnect(ack));
    };
    i2c.onWriteByte = (value) => {
      if (bytes) bytes.push(value);
      after(9, () => i2c.completeWrite(bytes !== null));
    };
    i2c.onReadByte = () => after(9, () => i2c.completeRead(0xff));
    i2c.onStop = () => {
      if (bytes && bytes.length && this.cfg.oled) this.i2c.push(Buffer.from(bytes).toString('hex'));
      bytes = null;
      after(1, () => i2c.completeStop());
    };
  }

  /** The XIP cache in front of the flash: each read of the flash's cached aliases is looked up, and
  a miss adds XIP_MISS_CYCLES to the instruction that made it (runUntil). init's `xip: false` turns
  the model off (the figures as rp2040js gives them). Least recently used way replaced. */
  attachXipCache(mcu) {
    this.xipStall = 0;
    if (this.cfg.xip === false) return;
    const tags = new Int32Array(2 * XIP_SETS).fill(-1);
    const older = new Uint8Array(XIP_SETS); // the way to replace next in each set
    this.xipTags = tags;
    const stats = this.xipStats;
    const look = (address) => {
      const segment = address >>> 24;
      if (segment < 0x10 || segment > 0x13) return;
      const line = (address & 0xffffff) >>> 3;
      const set = line & (XIP_SETS - 1);
      const tag = line >>> 10;
      if (segment <= 0x11) {
        // 0x10: cached, allocating; 0x11: a hit is used, a miss is not kept
        if (tags[2 * set] === tag) {
          older[set] = 1;
          stats.hits++;
          return;
        }
        if (tags[2 * set + 1] === tag) {
          older[set] = 0;
          stats.hits++;
          return;
        }
      }
      stats.misses++;
      this.xipStall += XIP_MISS_CYCLES;
      if (segment === 0x10 || segment === 0x12) {
        const way = older[set];
        tags[2 * set + way] = tag;
        older[set] = way ^ 1;
      }
    };
    for (const name of ['readUint8', 'readUint16', 'readUint32']) {
      const read = mcu[name].bind(mcu);
      mcu[name] = (address) => {
        look(address >>> 0);
        return read(address);
      };
    }
  }

  /** Flash written: the firmware flushes the cache (flash_flush_cache), so do we. */
  flushXip() {
    if (this.xipTags) this.xipTags.fill(-1);
  }

  /** A loop that only polls the timer (a busy-wait: sleep_us) skips ahead POLL_STEP_NS per turn.

  The same instruction reading TIMERAWL again within POLL_WINDOW_NS is such a loop; it ends at
  most POLL_STEP_NS late. Deterministic, and 3-5x faster emulation of the idle part of the scan loop.
  */
  attachTimerPolling(mcu) {
    const timer = mcu.peripherals[0x40054];
    const read = timer.readUint32.bind(timer);
    let lastPC = -1;
    let lastNs = -1;
    timer.readUint32 = (offset) => {
      if (offset === TIMERAWL) {
        const pc = mcu.core.PC;
        const now = mcu.clock.nanos;
        if (pc === lastPC && now - lastNs < POLL_WINDOW_NS) mcu.clock.tick(POLL_STEP_NS);
        lastPC = pc;
        lastNs = mcu.clock.nanos;
      }
      return read(offset);
    };
  }

  // -- flash ---------------------------------------------------------------------------

  onBreak(mcu, tag) {
    const r = mcu.core.registers;
    if (tag !== BKPT_ERASE && tag !== BKPT_PROGRAM) {
      process.stderr.write(`breakpoint ${tag} at ${mcu.core.PC.toString(16)}\n`);
      return;
    }
    if (this.fault === 'flash-stuck') {
      mcu.core.PC -= 2; // the flash never leaves busy: the ROM call spins here
      mcu.core.waiting = true; // ...doing nothing until an alarm (the watchdog's) changes that
      return;
    }
    let busy;
    if (tag === BKPT_ERASE) {
      const addr = r[0] >>> 0;
      const count = r[1] >>> 0;
      this.flash.fill(0xff, addr, addr + count);
      busy = Math.ceil(count / 4096) * ERASE_NS_PER_SECTOR;
      this.flashStats.erases += Math.ceil(count / 4096);
    } else {
      const addr = r[0] >>> 0;
      const src = r[1] >>> 0;
      const count = r[2] >>> 0;
      for (let i = 0; i < count; i++) this.flash[addr + i] &= mcu.readUint8(src + i);
      busy = Math.ceil(count / 256) * PROGRAM_NS_PER_PAGE;
      this.flashStats.programs += Math.ceil(count / 256);
    }
    this.flashStats.busy_ns += busy;
    this.flushXip();
    mcu.clock.tick(busy);
  }

  // -- USB ------------------------------------------------------------------------------

  attachUsb(mcu) {
    const cdc = new USBCDC(mcu.usbCtrl);
    this.cdc = cdc;
    this.pendingRead = null;
    cdc.onSerialData = (buffer) => {
      for (const b of buffer) this.serialOut.push(b);
    };
    // Keep the OUT request pending while there is nothing to send (a real host NAKs);
    // rp2040js' own answer, an immediate zero-length packet, makes an interrupt storm.
    mcu.usbCtrl.onEndpointRead = (endpoint, size) => {
      if (endpoint !== cdc.outEndpoint) return;
      this.pendingRead = { endpoint, size };
      this.feedUsb();
    };
  }

  feedUsb() {
    const p = this.pendingRead;
    if (!p || !this.serialIn.length || !this.powered) return;
    const n = Math.min(p.size, this.serialIn.length);
    this.pendingRead = null;
    this.chip.usbCtrl.endpointReadDone(p.endpoint, Uint8Array.from(this.serialIn.splice(0, n)));
  }

  // -- pins: the matrix, the buttons, the LED chain -------------------------------------

  attachPins(mcu) {
    const { rows, cols, buttons, led } = this.cfg.pins;
    const update = () => this.updateInputs();
    for (const p of [...rows, ...cols, ...buttons]) mcu.gpio[p].addListener(update);
    this.ledBits = [];
    this.ledRise = -1;
    this.ledFall = -Infinity;
    mcu.gpio[led].addListener((state) => this.onLedPin(mcu, state));
    // A column a closed reed pulled LOW reads 1 again only once its pull-up has recharged the
    // wiring: column_rise_ns after the row (or the reed) lets it go, LOW until then.
    this.pulledCols = 0;
    this.risingCols = 0;
    this.riseAlarms = cols.map((_pin, c) => mcu.clock.createAlarm(() => {
      this.risingCols &= ~(1 << c);
      this.updateInputs();
    }));
    this.updateInputs();
  }

  updateInputs() {
    const mcu = this.chip;
    if (!mcu) return;
    const { rows, cols, buttons } = this.cfg.pins;
    let low = 0; // bit r: row r driven LOW
    for (let r = 0; r < rows.length; r++) {
      if (mcu.gpio[rows[r]].value === GPIOPinState.Low) low |= 1 << r;
    }
    if (!(low & 1) !== !this.row0Low) {
      this.row0Low = !!(low & 1);
      if (this.row0Low) this.countScan(this.nowNs);
    }
    let pulled = 0; // bit c: column c pulled low through a closed reed and its diode
    if (low) {
      for (let sq = 0; sq < 64; sq++) {
        if (this.occupied[sq]) {
          const [r, c] = this.cellOfSquare[sq];
          if (low & (1 << r)) pulled |= 1 << c;
        }
      }
    }
    for (let c = 0; c < cols.length; c++) {
      // The firmware's own driver holding a column LOW (hal.column_recovery times its rise after).
      if (mcu.gpio[cols[c]].value === GPIOPinState.Low) pulled |= 1 << c;
    }
    const riseNs = this.cfg.column_rise_ns || 0;
    for (let c = 0; c < cols.length; c++) {
      const bit = 1 << c;
      if (pulled & bit) {
        if (this.risingCols & bit) this.riseAlarms[c].cancel();
        this.risingCols &= ~bit;
      } else if (this.pulledCols & bit && riseNs > 0) {
        this.risingCols |= bit;
        this.riseAlarms[c].schedule(riseNs);
      }
    }
    this.pulledCols = pulled;
    for (let c = 0; c < cols.length; c++) {
      const pin = mcu.gpio[cols[c]];
      // Released and without its pull-up a column floats: model it as reading 0 (a fault shows).
      pin.setInputValue(!((pulled | this.risingCols) & (1 << c)) && pin.pullupEnabled);
    }
    for (const p of buttons) {
      const pin = mcu.gpio[p];
      pin.setInputValue(!this.pressed.has(p) && pin.pullupEnabled);
    }
  }

  countScan(t) {
    const stats = this.scanStats;
    stats.count++;
    if (this.lastScanNs >= 0 && t - this.lastScanNs > SCAN_GAP_NS) {
      stats.gaps.push([t / 1e6, (t - this.lastScanNs) / 1e6]);
    }
    this.lastScanNs = t;
  }

  onLedPin(mcu, state) {
    const t = mcu.clock.nanos;
    if (state === GPIOPinState.High) {
      if (t - this.ledFall > WS2812_RESET_NS) this.ledBits = [];
      this.ledRise = t;
    } else if (state === GPIOPinState.Low && this.ledRise >= 0) {
      this.ledBits.push(t - this.ledRise > WS2812_ONE_NS ? 1 : 0);
      this.ledRise = -1;
      this.ledFall = t;
      if (this.ledBits.length === 24 * this.cfg.led_count) {
        const bytes = Buffer.alloc(3 * this.cfg.led_count);
        for (let i = 0; i < bytes.length; i++) {
          let v = 0;
          for (let b = 0; b < 8; b++) v = (v << 1) | this.ledBits[i * 8 + b];
          bytes[i] = v;
        }
        this.frames.push([(this.baseNs + t) / 1e6, t / 1e6, bytes.toString('hex')]);
        this.ledBits = [];
      }
    }
  }

  // -- running ----------------------------------------------------------------------------

  runUntil(targetNs) {
    while (this.nowNs < targetNs) {
      if (!this.powered) {
        this.offNs = targetNs - this.baseNs;
        return;
      }
      if (this.resetPending) {
        this.resetChip(this.resetPending);
        continue;
      }
      const mcu = this.chip;
      const { core, clock } = mcu;
      const end = targetNs - this.baseNs;
      if (core.waiting) {
        let dt = clock.nanosToNextAlarm;
        if (dt <= 0 || dt > MAX_IDLE_STEP_NS) dt = MAX_IDLE_STEP_NS;
        clock.tick(Math.max(1, Math.min(dt, end - clock.nanos)));
        continue;
      }
      const prof = this.profile;
      for (let i = 0; i < 4096 && !core.waiting && !this.resetPending && clock.nanos < end; i++) {
        if (prof) {
          const k = core.PC >>> PROFILE_SHIFT;
          prof.set(k, (prof.get(k) || 0) + 1);
        }
        const cycles = core.executeInstruction() + this.xipStall;
        this.xipStall = 0;
        clock.tick(cycles * CYCLE_NS);
      }
      if (this.pendingRead && this.serialIn.length) this.feedUsb();
    }
  }

  reply(extra = {}) {
    const out = {
      ok: true,
      t_ms: this.nowNs / 1e6,
      device_ms: this.powered ? this.chip.clock.nanos / 1e6 : null,
      powered: this.powered,
      serial: Buffer.from(this.serialOut).toString('latin1'),
      frames: this.frames,
      resets: this.resets,
      i2c: this.i2c,
      ...extra,
    };
    this.serialOut = [];
    this.frames = [];
    this.i2c = [];
    this.resets = [];
    return out;
  }
}

let board = null;

function handle(cmd) {
  switch (cmd.op) {
    case 'init':
      board = new Board(cmd);
      board.powerOn();
      return board.reply();
    case 'run':
      board.runUntil(board.nowNs + Math.round(cmd.ms * 1e6));
      return board.reply();
    case 'squares':
      board.occupied.fill(0);
      for (const sq of cmd.occupied) board.occupied[sq] = 1;
      board.updateInputs();
      return board.reply();
    case 'button':
      if (cmd.pressed) board.pressed.add(cmd.pin);
      else board.pressed.delete(cmd.pin);
      board.updateInputs();
      return board.reply();
    case 'serial':
      for (const b of Buffer.from(cmd.data, 'latin1')) board.serialIn.push(b);
      board.feedUsb();
      return board.reply();
    case 'power_cut':
      board.powerCut();
      return board.reply();
    case 'boot':
      board.powerCut();
      board.baseNs = board.nowNs;
      board.offNs = 0;
      board.serialIn = [];
      board.powerOn();
      return board.reply();
    case 'drop_uf2':
      // BOOTSEL held at power-up, a UF2 copied to the drive, then the board restarts: as a maker
      // flashes a Pico (the bootrom's USB drive itself is not emulated).
      board.powerCut();
      board.baseNs = board.nowNs;
      board.offNs = 0;
      board.serialIn = [];
      {
        const blocks = dropUF2(board.flash, cmd.uf2);
        board.powerOn();
        return board.reply({ blocks });
      }
    case 'fault':
      board.fault = cmd.what || null;
      return board.reply();
    case 'flash':
      return board.reply({
        image: Buffer.from(board.flash.subarray(cmd.offset, cmd.offset + cmd.length)).toString('base64'),
      });
    case 'profile':
      // Instructions executed per 32-byte block of code, while on: where the chip's time goes
      // (docs/emulator.md). {on: true} starts afresh; {on: false} stops and returns the busiest.
      if (cmd.on) {
        board.profile = new Map();
        return board.reply();
      }
      {
        const counts = board.profile || new Map();
        board.profile = null;
        const total = [...counts.values()].reduce((a, b) => a + b, 0);
        const top = [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, cmd.top || 40)
          .map(([k, n]) => [(k << PROFILE_SHIFT) >>> 0, n]);
        return board.reply({ total, top });
      }
    case 'stats':
      {
      const wd = board.chip && board.chip.peripherals[0x40058];
      const watchdog = wd && { enable: wd.enable, tick: wd.tickEnable, counter: wd.timer.counter, alarm: wd.alarm.enabled, reason: wd.reason };
      return board.reply({ flash: board.flashStats, scans: board.scanStats, xip: board.xipStats, watchdog, pc: board.chip && board.chip.core.PC });
    }
    default:
      throw new Error(`unknown op ${cmd.op}`);
  }
}

const lines = readline.createInterface({ input: process.stdin });
lines.on('line', (line) => {
  if (!line.trim()) return;
  let out;
  try {
    out = handle(JSON.parse(line));
  } catch (e) {
    out = { ok: false, error: String(e && e.stack ? e.stack : e) };
  }
  process.stdout.write(JSON.stringify(out) + '\n');
});
