// The gear loop as a hand-assembled WebAssembly module (no toolchain: the bytes are built
// below from named opcodes). V8 compiles the JavaScript loop with a map check, a bounds check
// and two pointer loads per typed-array read, every byte, and the hash's shift-add chain caps
// it at one byte per two cycles; the wasm loop reads memory directly and takes four bytes a
// step, computing the fourth hash from the first through a second chain (h4 = (h << 4) +
// (g1 << 3) + (g2 << 2) + (g3 << 1) + g4, all mod 2^32), so the chain costs half as much.
//
// Memory (5 pages): the gear table at 0 (256 × i32), the rolled hash at 1024, then a window
// of up to 256 KiB that the bytes to scan are copied into.
import type { GearScanner } from './gear-scanner'
import { GEAR } from './gear-table'

const HASH_AT = 1024
const DATA_AT = 2048
const WINDOW = 256 * 1024
const PAGES = 5 // 5 × 64 KiB ≥ DATA_AT + WINDOW

// Opcodes (WebAssembly core spec, §5.4).
const I32 = 0x7f
const VOID = 0x40
const [BLOCK, LOOP, IF, END, BR, BR_IF, RETURN] = [0x02, 0x03, 0x04, 0x0b, 0x0c, 0x0d, 0x0f]
const [GET, SET, TEE] = [0x20, 0x21, 0x22]
const [LOAD, LOAD8_U, STORE] = [0x28, 0x2d, 0x36]
const [CONST, EQZ, GE_U, ADD, AND, SHL] = [0x41, 0x45, 0x4f, 0x6a, 0x71, 0x74]

// Locals: the four parameters, then g1, h1, h2, g3, h3.
const [AT, END_AT, H, MASK, G1, H1, H2, G3, H3] = [0, 1, 2, 3, 4, 5, 6, 7, 8]

function leb(value: number, signed: boolean): number[] {
  const out: number[] = []
  for (;;) {
    const byte = value & 0x7f
    value = signed ? value >> 7 : value >>> 7
    const done = signed
      ? (value === 0 && (byte & 0x40) === 0) || (value === -1 && (byte & 0x40) !== 0)
      : value === 0
    if (done) return [...out, byte]
    out.push(byte | 0x80)
  }
}
const i32 = (value: number): number[] => [CONST, ...leb(value, true)]
const get = (local: number): number[] => [GET, local]
/** `GEAR[mem[at + offset]]` on the stack. */
const gearOf = (offset: number): number[] => [
  ...get(AT),
  ...[LOAD8_U, 0, offset],
  ...i32(2),
  SHL,
  ...[LOAD, 2, 0],
]
/** `if ((local & mask) == 0) return at + k` */
const cutIfZero = (local: number, k: number): number[] => [
  ...get(local),
  ...get(MASK),
  AND,
  EQZ,
  ...[IF, VOID, ...get(AT), ...i32(k), ADD, RETURN, END],
]
/** `(a << 1) + b`, `(a << 2) + (b << 1) + c`: one and two steps of the roll. */
const roll1 = (a: number[], b: number[]): number[] => [...a, ...i32(1), SHL, ...b, ADD]
const roll2 = (a: number, b: number, c: number[]): number[] => [
  ...get(a),
  ...i32(2),
  SHL,
  ...get(b),
  ...i32(1),
  SHL,
  ADD,
  ...c,
  ADD,
]

// scan(at, end, h, mask) -> cut address or -1 (the hash then stored at HASH_AT).
const body = [
  ...[1, 5, I32], // five i32 locals
  // Four bytes a step while at + 3 < end.
  ...[BLOCK, VOID, LOOP, VOID],
  ...get(AT),
  ...i32(3),
  ADD,
  ...get(END_AT),
  GE_U,
  ...[BR_IF, 1],
  ...gearOf(0),
  TEE,
  G1,
  ...[...roll1(get(H), get(G1)), SET, H1],
  ...[...roll2(H, G1, gearOf(1)), SET, H2],
  ...gearOf(2),
  TEE,
  G3,
  ...[...roll1(get(H2), get(G3)), SET, H3],
  ...[...roll2(H2, G3, gearOf(3)), SET, H],
  ...cutIfZero(H1, 1),
  ...cutIfZero(H2, 2),
  ...cutIfZero(H3, 3),
  ...cutIfZero(H, 4),
  ...[...get(AT), ...i32(4), ADD, SET, AT],
  ...[BR, 0, END, END],
  // The last 0–3 bytes one at a time.
  ...[BLOCK, VOID, LOOP, VOID],
  ...get(AT),
  ...get(END_AT),
  GE_U,
  ...[BR_IF, 1],
  ...[...roll1(get(H), gearOf(0)), SET, H],
  ...cutIfZero(H, 1),
  ...[...get(AT), ...i32(1), ADD, SET, AT],
  ...[BR, 0, END, END],
  ...[...i32(HASH_AT), ...get(H), STORE, 2, 0],
  ...i32(-1),
  END,
]

const section = (id: number, bytes: number[]): number[] => [
  id,
  ...leb(bytes.length, false),
  ...bytes,
]
const name = (text: string): number[] => [text.length, ...Array.from(text, (c) => c.charCodeAt(0))]

/** The module's bytes (≈ 300). */
export const GEAR_SCAN_WASM = new Uint8Array([
  ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00], // "\0asm", version 1
  ...section(1, [1, 0x60, 4, I32, I32, I32, I32, 1, I32]), // type 0: (i32 × 4) -> i32
  ...section(3, [1, 0]), // function 0 has type 0
  ...section(5, [1, 0, PAGES]), // one memory, PAGES pages, no maximum
  ...section(7, [2, ...name('scan'), 0, 0, ...name('memory'), 2, 0]),
  ...section(10, [1, ...leb(body.length, false), ...body]),
])

interface GearScanExports {
  scan(at: number, end: number, hash: number, mask: number): number
  memory: WebAssembly.Memory
}

/**
 * A {@link GearScanner} running the WebAssembly loop, or `undefined` where WebAssembly is
 * missing or refused (a browser page whose CSP lacks `wasm-unsafe-eval`). Each scan copies its
 * range into the module's memory, a window at a time (a memcpy, small beside the scan).
 */
export function createWasmGearScanner(): GearScanner | undefined {
  let exports: GearScanExports
  try {
    if (typeof WebAssembly !== 'object') return undefined
    const module = new WebAssembly.Module(GEAR_SCAN_WASM)
    exports = new WebAssembly.Instance(module).exports as unknown as GearScanExports
  } catch {
    return undefined
  }
  const scanWindow = exports.scan
  const memory = new Uint8Array(exports.memory.buffer) // fixed size: the views never detach
  new Int32Array(exports.memory.buffer, 0, 256).set(GEAR)
  const rolled = new Int32Array(exports.memory.buffer, HASH_AT, 1)
  return {
    get hash() {
      return rolled[0] as number
    },
    scan(data, from, to, hash, mask) {
      rolled[0] = hash
      while (from < to) {
        const end = to - from > WINDOW ? from + WINDOW : to
        memory.set(data.subarray(from, end), DATA_AT)
        const cut = scanWindow(DATA_AT, DATA_AT + (end - from), rolled[0] as number, mask)
        if (cut >= 0) return from + (cut - DATA_AT)
        from = end
      }
      return -1
    },
  }
}
