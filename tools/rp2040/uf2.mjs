// One UF2 for the Pico from MicroPython's and the firmware's parts, with npm's `uf2` (wokwi/uf2,
// Uri Shaked's, the author of rp2040js): host_tools/deploy.py's `uf2` runs it (make uf2).
//
//   node tools/rp2040/uf2.mjs OUT.uf2 BASE.uf2 [FILE@ADDRESS ...]
//
// OUT holds BASE's blocks (MicroPython), then each FILE's bytes at ADDRESS (hex, in the XIP map:
// 0x100A0000 the ROMFS image), 256 bytes a block as pico-sdk's own UF2s. A 4 KiB sector of a FILE
// that is all 0xFF (erased flash) is left out: the bootrom writes only the sectors it receives.
// Also `node tools/rp2040/uf2.mjs --info FILE.uf2`: JSON, its runs of consecutive blocks and
// whether its MicroPython has a ROMFS partition.

import fs from 'node:fs';
import { blockSize, decodeBlock, encodeBlock, familyID, UF2Flags } from 'uf2';

const PAGE = 256;
const SECTOR = 4096;

/** The main-flash blocks of a UF2 file: [{flashAddress, payload, boardFamily, flags}]. */
export function readBlocks(path) {
  const data = fs.readFileSync(path);
  if (data.length % blockSize) throw new Error(`${path}: not a UF2 file (${data.length} bytes)`);
  const blocks = [];
  for (let off = 0; off < data.length; off += blockSize) {
    const block = decodeBlock(new Uint8Array(data.buffer, data.byteOffset + off, blockSize));
    if (block.flags & UF2Flags.notMainFlash) continue;
    blocks.push(block);
  }
  return blocks;
}

function fileBlocks(bytes, address, family) {
  const out = [];
  for (let sector = 0; sector < bytes.length; sector += SECTOR) {
    const chunk = bytes.subarray(sector, sector + SECTOR);
    if (chunk.every((b) => b === 0xff)) continue;
    for (let page = 0; page < chunk.length; page += PAGE) {
      const payload = new Uint8Array(PAGE).fill(0xff);
      payload.set(chunk.subarray(page, page + PAGE));
      out.push({ flags: UF2Flags.familyIDPresent, flashAddress: address + sector + page, payload, boardFamily: family });
    }
  }
  return out;
}

function write(out, base, parts) {
  const blocks = readBlocks(base);
  const family = blocks.length ? blocks[0].boardFamily : familyID('RP2040');
  const end = Math.max(...blocks.map((b) => b.flashAddress + b.payload.length));
  for (const [file, address] of parts) {
    if (address < end) throw new Error(`${file} at 0x${address.toString(16)} would overlap MicroPython (ends 0x${end.toString(16)})`);
    blocks.push(...fileBlocks(new Uint8Array(fs.readFileSync(file)), address, family));
  }
  const buffer = new Uint8Array(blocks.length * blockSize);
  blocks.forEach((block, i) => {
    encodeBlock({ ...block, blockNumber: i, totalBlocks: blocks.length }, buffer, i * blockSize);
  });
  fs.writeFileSync(out, buffer);
  return blocks.length;
}

/** What a UF2 holds: its runs of consecutive blocks ([start, end, blocks]), whether the
MicroPython in its first run was built with a ROMFS partition (its binary names the drive) and
whether for a Pico W (its banner's board name). */
function info(path) {
  const blocks = readBlocks(path);
  const runs = [];
  for (const b of blocks) {
    const run = runs[runs.length - 1];
    if (run && b.flashAddress === run[1]) {
      run[1] += b.payload.length;
      run[2]++;
    } else {
      runs.push([b.flashAddress, b.flashAddress + b.payload.length, 1]);
    }
  }
  const end = runs.length ? runs[0][1] : 0;
  const code = Buffer.concat(blocks.filter((b) => b.flashAddress < end).map((b) => b.payload));
  return { runs, romfs_build: code.includes('ROMFS'), pico_w: code.includes('Pico W') };
}

if (process.argv[1] && process.argv[1].endsWith('uf2.mjs')) {
  const args = process.argv.slice(2);
  if (args[0] === '--info') {
    console.log(JSON.stringify(info(args[1])));
  } else {
    const [out, base, ...rest] = args;
    if (!out || !base) throw new Error('usage: node uf2.mjs OUT.uf2 BASE.uf2 [FILE@ADDRESS ...]');
    const parts = rest.map((arg) => {
      const at = arg.lastIndexOf('@');
      return [arg.slice(0, at), parseInt(arg.slice(at + 1), 16)];
    });
    console.log(`${out}: ${write(out, base, parts)} blocks`);
  }
}
