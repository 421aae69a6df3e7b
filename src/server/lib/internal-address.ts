import { isIP } from 'node:net';

/**
 * Whether an IP address is one the server may be sent to on someone else's say-so. Anything a
 * user can hand the server as a URL (a push endpoint) must end at a public address: never this
 * machine, its network, or a cloud's metadata service.
 *
 * - `loopback`: this machine (127.0.0.0/8, ::1 and their IPv4-mapped forms);
 * - `internal`: private, shared, link-local (cloud metadata at 169.254.169.254, fd00:ec2::254,
 *   100.100.100.200, 192.0.0.192 among them), unspecified, documentation, benchmarking,
 *   multicast and reserved ranges;
 * - `public`: the rest.
 */
export type AddressKind = 'public' | 'loopback' | 'internal';

type Range = readonly [base: number, bits: number];

const ipv4 = (a: number, b: number, c: number, d: number) =>
  ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;

const LOOPBACK_V4: Range = [ipv4(127, 0, 0, 0), 8];
const INTERNAL_V4: readonly Range[] = [
  [ipv4(0, 0, 0, 0), 8], // "this network"
  [ipv4(10, 0, 0, 0), 8],
  [ipv4(100, 64, 0, 0), 10], // carrier-grade NAT; Alibaba's metadata service
  [ipv4(169, 254, 0, 0), 16], // link-local; AWS, GCP and Azure metadata
  [ipv4(172, 16, 0, 0), 12],
  [ipv4(192, 0, 0, 0), 24], // IETF assignments; Oracle's metadata service
  [ipv4(192, 0, 2, 0), 24],
  [ipv4(192, 88, 99, 0), 24], // 6to4 relays
  [ipv4(192, 168, 0, 0), 16],
  [ipv4(198, 18, 0, 0), 15],
  [ipv4(198, 51, 100, 0), 24],
  [ipv4(203, 0, 113, 0), 24],
  [ipv4(224, 0, 0, 0), 4], // multicast
  [ipv4(240, 0, 0, 0), 4], // reserved, and the broadcast address
];

const inRange = (value: number, [base, bits]: Range) =>
  bits === 0 || value >>> (32 - bits) === base >>> (32 - bits);

function classifyIPv4(value: number): AddressKind {
  if (inRange(value, LOOPBACK_V4)) return 'loopback';
  return INTERNAL_V4.some((range) => inRange(value, range)) ? 'internal' : 'public';
}

/**
 * An IPv4 address in any form `inet_aton` (and so a URL's host) accepts: one to four parts,
 * each decimal, octal (`0177`) or hex (`0x7f`), the last filling the remaining bytes
 * (`2130706433`, `127.1`, `0x7f.0.0.1` are all 127.0.0.1). Null when it is not one.
 */
export function parseIPv4(text: string): number | null {
  const parts = text.split('.');
  if (parts.length > 4) return null;
  const numbers: number[] = [];
  for (const part of parts) {
    let value: number;
    if (/^0x[0-9a-f]*$/i.test(part)) value = part.length === 2 ? 0 : Number.parseInt(part, 16);
    else if (/^0[0-7]+$/.test(part)) value = Number.parseInt(part, 8);
    else if (/^(0|[1-9][0-9]*)$/.test(part)) value = Number(part);
    else return null;
    numbers.push(value);
  }
  const last = numbers.pop() as number;
  if (numbers.some((n) => n > 255)) return null;
  if (last >= 256 ** (4 - numbers.length)) return null;
  let value = 0;
  for (const [i, n] of numbers.entries()) value += n * 256 ** (3 - i);
  return value + last;
}

/** The 16 bytes of an IPv6 address (brackets and a `%zone` allowed), or null. */
function parseIPv6(text: string): number[] | null {
  const bare = text.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  if (isIP(bare) !== 6) return null;
  const halves = bare.split('::');
  const groupsOf = (half: string | undefined): number[] | null => {
    if (!half) return [];
    const groups: number[] = [];
    for (const piece of half.split(':')) {
      if (piece.includes('.')) {
        const v4 = parseIPv4(piece);
        if (v4 === null) return null;
        groups.push(v4 >>> 16, v4 & 0xffff);
      } else groups.push(Number.parseInt(piece, 16));
    }
    return groups;
  };
  const head = groupsOf(halves[0]);
  const tail = groupsOf(halves[1]);
  if (!head || !tail) return null;
  const groups =
    halves.length === 2
      ? [...head, ...Array<number>(8 - head.length - tail.length).fill(0), ...tail]
      : head;
  if (groups.length !== 8) return null;
  return groups.flatMap((group) => [group >> 8, group & 0xff]);
}

const startsWith = (bytes: number[], prefix: number[], bits: number) => {
  for (let bit = 0; bit < bits; bit += 1) {
    const mask = 0x80 >> (bit % 8);
    const index = Math.floor(bit / 8);
    if (((bytes[index] ?? 0) & mask) !== ((prefix[index] ?? 0) & mask)) return false;
  }
  return true;
};

const v4At = (bytes: number[], at: number) =>
  ipv4(bytes[at] ?? 0, bytes[at + 1] ?? 0, bytes[at + 2] ?? 0, bytes[at + 3] ?? 0);

/** Ranges that carry an IPv4 address inside: judged by that address. */
const EMBEDDING_V6: ReadonlyArray<[prefix: number[], bits: number, at: number]> = [
  [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff], 96, 12], // IPv4-mapped ::ffff:a.b.c.d
  [[0, 0x64, 0xff, 0x9b], 96, 12], // NAT64 64:ff9b::a.b.c.d
  [[0x20, 0x02], 16, 2], // 6to4 2002:aabb:ccdd::
];

const INTERNAL_V6: ReadonlyArray<[prefix: number[], bits: number]> = [
  [[], 96], // ::, ::1 and the deprecated IPv4-compatible ::a.b.c.d
  [[0, 0x64, 0xff, 0x9b, 0, 1], 48], // local-use NAT64
  [[0x01, 0, 0, 0, 0, 0, 0, 0], 64], // discard
  [[0x20, 0x01, 0x00], 23], // IETF protocol assignments: Teredo, ORCHID…
  [[0x20, 0x01, 0x0d, 0xb8], 32], // documentation
  [[0xfc], 7], // unique local; AWS's metadata service fd00:ec2::254
  [[0xfe, 0x80], 10], // link-local
  [[0xfe, 0xc0], 10], // site-local
  [[0xff], 8], // multicast
];

/**
 * What kind of address `text` is (IPv4 in any inet_aton form, or IPv6); null when it is not an
 * IP address at all.
 */
export function classifyAddress(text: string): AddressKind | null {
  const v4 = parseIPv4(text);
  if (v4 !== null) return classifyIPv4(v4);
  const bytes = parseIPv6(text);
  if (!bytes) return null;
  if (bytes.every((byte, i) => byte === (i === 15 ? 1 : 0))) return 'loopback';
  for (const [prefix, bits, at] of EMBEDDING_V6)
    if (startsWith(bytes, prefix, bits)) return classifyIPv4(v4At(bytes, at));
  return INTERNAL_V6.some(([prefix, bits]) => startsWith(bytes, prefix, bits))
    ? 'internal'
    : 'public';
}
