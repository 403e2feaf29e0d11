#!/usr/bin/env node
// Run a Python script under real MicroPython (the official WebAssembly port),
// so device code is tested against MicroPython semantics rather than CPython's.
//
// Usage: node tools/micropython/run.mjs [--heap BYTES] [--max-mem BYTES]
//            [--pystack WORDS] [--path HOSTDIR]... [--data HOSTPATH]...
//            [--] SCRIPT.py [ARGS...]
//
// Exit status: 0 when the script ends normally or via SystemExit(0/None),
// n & 0xff for sys.exit(n), 1 for an uncaught exception (traceback on stderr),
// 2 for a usage error of this runner. README.md explains the port's limits.

import fs from "node:fs";
import path from "node:path";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";

// 256 KiB is about what a Pico (264 KiB SRAM) leaves for the Python heap.
// NB: this build grows its heap on demand, so this is the *initial* heap only.
const DEFAULT_HEAP = 256 * 1024;

function usage(msg) {
  if (msg) process.stderr.write(`run.mjs: ${msg}\n`);
  process.stderr.write(
    "usage: node run.mjs [--heap BYTES] [--max-mem BYTES] [--pystack WORDS] " +
      "[--path HOSTDIR]... [--data HOSTPATH]... [--] SCRIPT.py [ARGS...]\n",
  );
  process.exit(2);
}

// Accept "262144", "256k" or "2m" so sizes read naturally in test code.
function parseSize(text, what) {
  const m = /^(\d+)([kKmM]?)$/.exec(text ?? "");
  if (!m) usage(`bad ${what}: ${text}`);
  return Number(m[1]) * ({ k: 1024, m: 1024 * 1024 }[m[2].toLowerCase()] ?? 1);
}

let heap = DEFAULT_HEAP;
let maxMem = 0; // 0: the build's own limit (2 GiB of WebAssembly memory)
let pystack = 0; // 0: the package's default (2048 words)
const importPaths = [];
const dataPaths = [];
const argv = process.argv.slice(2);
while (argv.length && argv[0].startsWith("-")) {
  const opt = argv.shift();
  if (opt === "--") break;
  else if (opt === "--heap") heap = parseSize(argv.shift(), opt);
  else if (opt === "--max-mem") maxMem = parseSize(argv.shift(), opt);
  else if (opt === "--pystack") pystack = parseSize(argv.shift(), opt);
  else if (opt === "--path") importPaths.push(path.resolve(argv.shift() ?? usage(`${opt} needs a directory`)));
  else if (opt === "--data") dataPaths.push(path.resolve(argv.shift() ?? usage(`${opt} needs a path`)));
  else if (opt === "-h" || opt === "--help") usage();
  else usage(`unknown option ${opt}`);
}
if (!argv.length) usage("no script given");
const script = path.resolve(argv[0]);
if (!fs.statSync(script, { throwIfNoEntry: false })?.isFile()) usage(`no such script: ${argv[0]}`);
for (const dir of importPaths) {
  if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) usage(`no such directory: ${dir}`);
}
for (const p of dataPaths) if (!fs.existsSync(p)) usage(`no such file or directory: ${p}`);

// The Python heap is topped up from WebAssembly memory whenever it fills (and
// gc.collect() is deferred until the script ends), so a runaway script would
// take ~2 GiB and many seconds to fail. --max-mem refuses growth past a cap,
// which turns that into a prompt MemoryError.
if (maxMem) {
  const grow = WebAssembly.Memory.prototype.grow;
  WebAssembly.Memory.prototype.grow = function (pages) {
    if (this.buffer.byteLength + pages * 65536 > maxMem) throw new RangeError("--max-mem reached");
    return grow.call(this, pages);
  };
}
// Emscripten logs every refused growth via console.error (bound at load time,
// hence patched before loading); Python reports the MemoryError itself.
const consoleError = console.error;
console.error = (...args) => {
  if (!/^(growMemory:|Failed to grow the heap|Cannot enlarge memory)/.test(String(args[0]))) {
    consoleError(...args);
  }
};

// MicroPython emits one byte per callback; collect bytes and write whole lines,
// so multi-byte UTF-8 stays intact and output still appears while the script runs.
// A reader that goes away (`| head`) must not crash the runner with EPIPE:
// the script's remaining output is simply dropped.
function lineWriter(stream) {
  stream.on("error", () => {});
  let buf = [];
  const flush = () => {
    if (buf.length && !stream.destroyed) stream.write(Buffer.from(buf));
    buf = [];
  };
  const put = (bytes) => {
    for (const b of bytes) {
      buf.push(b);
      if (b === 10) flush();
    }
  };
  return { put, flush };
}
const out = lineWriter(process.stdout);
const err = lineWriter(process.stderr);

// This build has no NODEFS, so host files are copied into the in-memory FS at
// their absolute host path: tracebacks and __file__ then name the real files,
// and paths given as arguments mean the same thing on both sides.
// Writes made by Python stay in memory and never touch the host.
function copyIn(FS, hostPath, wanted, seen = new Set()) {
  const st = fs.statSync(hostPath, { throwIfNoEntry: false });
  if (!st) return; // dangling symlink
  if (st.isFile()) {
    if (wanted(hostPath)) {
      FS.mkdirTree(path.dirname(hostPath));
      const bytes = fs.readFileSync(hostPath);
      FS.writeFile(hostPath, hostPath.endsWith(".py") ? withoutEmitters(bytes) : bytes);
    }
    return;
  }
  const real = fs.realpathSync(hostPath);
  if (!st.isDirectory() || seen.has(real)) return; // symlink loop
  seen.add(real);
  FS.mkdirTree(hostPath);
  for (const name of fs.readdirSync(hostPath)) {
    if (name === "__pycache__" || name.startsWith(".")) continue;
    copyIn(FS, path.join(hostPath, name), wanted, seen);
  }
}

// This port has no native emitter: its compiler refuses `@micropython.native`
// and `@micropython.viper` ("invalid micropython decorator"), even through
// exec(compile(...)). The lines are blanked (line numbers kept), so the port
// runs such a function as bytecode: the same source, the same algorithm
// (firmware/scacchiera/__init__.py gives the pointer casts their plain meaning).
// The machine code itself is tested on the emulated Pico.
const EMITTER = /^[ \t]*@micropython\.(native|viper)[ \t]*(#.*)?$/gm;
function withoutEmitters(bytes) {
  const text = bytes.toString("utf8");
  const plain = text.replace(EMITTER, "");
  return plain === text ? bytes : Buffer.from(plain);
}

// The script runs inside Python functions rather than straight through
// runPython, because:
// - exceptions (SystemExit included) are handled in Python, so the exit code
//   is exact instead of being parsed out of a message string;
// - the file is compiled under its real name, so tracebacks point at it;
// - an exception escaping while micropython.heap_lock() is active makes the
//   port's own top-level handler spin forever trying to allocate its traceback
//   text; here the heap is unlocked first and only then is anything printed.
// JSON string/list literals are valid Python literals, hence JSON.stringify.
const wrapper = String.raw`
import sys, gc, io, os, micropython
sys.path[0:0] = ${JSON.stringify(importPaths)}
sys.argv[:] = ${JSON.stringify(argv)}
os.chdir(${JSON.stringify(process.cwd())})
# Bound now so that storing them later needs no allocation: after a
# MemoryError the heap stays full until control returns to JS.
_run_rc = 0
_run_g = None
def _unlock_heap():
    # heap_unlock() returns the remaining lock depth; on an unlocked heap it
    # wraps round to a huge value, which one heap_lock() undoes.
    d = micropython.heap_unlock()
    if d > 1000:
        micropython.heap_lock()
        return False
    while d:
        d = micropython.heap_unlock()
    return True
def _print_traceback(exc):
    # Leave out this wrapper's own frames (compiled as "<stdin>").
    try:
        buf = io.StringIO()
        sys.print_exception(exc, buf)
        lines = [l for l in buf.getvalue().split("\n") if not l.startswith('  File "<stdin>"')]
        sys.stderr.write("\n".join(lines))
    except MemoryError:
        sys.print_exception(exc, sys.stderr)
def _guarded(fn):
    rc, exc, msg = 0, None, None
    try:
        fn()
    except SystemExit as e:
        c = e.args[0] if e.args else None
        if c is None or isinstance(c, int):
            rc = c or 0
        else:
            rc, msg = 1, c
        if not e.args:
            exc = e  # kept only to tell sys.exit() from a lost exit code
    except BaseException as e:
        rc, exc = 1, e
    # Anything past this point may allocate, so a heap the script left locked
    # must be unlocked first (this function's locals live on the stack).
    if _unlock_heap() and rc == 0 and exc is not None:
        # An exception raised on a locked heap has no room for its args, so
        # sys.exit(n) arrives as a bare SystemExit: refuse to report success.
        rc, exc = 1, None
        msg = "run.mjs: SystemExit raised with the heap locked; exit code lost"
    if rc and exc is not None:
        _print_traceback(exc)
    elif msg is not None:
        print(msg, file=sys.stderr)
    return rc
def _main(path=${JSON.stringify(script)}):
    global _run_g
    with open(path) as f:
        code = compile(f.read(), path, "exec")
    _run_g = {"__name__": "__main__", "__file__": path}
    exec(code, _run_g)
_run_rc = _guarded(_main)
# In this build gc.collect() only asks for a collection on the way back to JS.
gc.collect()
`;

// This build cannot collect garbage while Python code is running (see
// README.md), so a script that wants its live heap measured defines
// __after_gc__(); it is called from a second top-level run, after a real
// collection, with the script's globals still alive.
const afterGc = `
if _run_g is not None and "__after_gc__" in _run_g:
    _run_rc = _guarded(_run_g["__after_gc__"])
`;

let rc = 1;
try {
  const mp = await loadMicroPython({
    heapsize: heap,
    // loadMicroPython merges options with Object.assign, so an explicit
    // undefined would wipe its default: only pass pystack when given.
    ...(pystack && { pystack }),
    linebuffer: false,
    stdout: out.put,
    stderr: err.put,
  });
  for (const dir of importPaths) copyIn(mp.FS, dir, (f) => f.endsWith(".py") || f.endsWith(".bin"));
  for (const p of dataPaths) copyIn(mp.FS, p, () => true);
  copyIn(mp.FS, script, () => true);
  mp.FS.mkdirTree(process.cwd());
  mp.runPython(wrapper);
  rc = mp.globals.get("_run_rc");
  if (rc === 0) {
    mp.runPython(afterGc);
    rc = mp.globals.get("_run_rc");
  }
} catch (e) {
  // Only reached if MicroPython itself fails (load error, VM abort...).
  // Print the stack only: node's default report would dump the minified module.
  err.put(Buffer.from(`run.mjs: MicroPython failed outside the script: ${e?.stack ?? e}\n`));
}
out.flush();
err.flush();
// Like CPython, only the low 8 bits reach the OS (sys.exit(256) -> 0, -1 -> 255).
process.exitCode = rc & 0xff;
