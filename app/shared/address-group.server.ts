import { isIPv4, isIPv6 } from "node:net";

/**
 * The unit a client address is counted by in the sign-in, recovery and single sign-on limits: an IPv4 address as it
 * is, an IPv4-mapped IPv6 address (a dual-stack socket's view of an IPv4 client) as that IPv4 address, and any other
 * IPv6 address as its /64 (`2001:db8:1:2::/64`), the block one subscriber or host usually holds whole, so that an
 * attacker cannot get a fresh allowance for each of its 2^64 addresses. Anything else is kept as written, lower-cased.
 */
export function addressGroup(address: string): string {
  const ip = address
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1");
  if (isIPv4(ip)) return ip;
  const hextets = ipv6Hextets(ip.replace(/%.*$/, ""));
  if (!hextets) return ip;
  if (hextets.slice(0, 5).every((h) => h === 0) && hextets[5] === 0xffff)
    return [hextets[6] >> 8, hextets[6] & 0xff, hextets[7] >> 8, hextets[7] & 0xff].join(".");
  return `${hextets
    .slice(0, 4)
    .map((h) => h.toString(16))
    .join(":")}::/64`;
}

/** The eight 16-bit groups of an IPv6 address, or null when it is not one. */
function ipv6Hextets(ip: string): number[] | null {
  if (!isIPv6(ip)) return null;
  // A trailing dotted IPv4 part stands for the last two groups.
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(ip);
  const text = dotted
    ? `${ip.slice(0, dotted.index)}${((+dotted[1] << 8) | +dotted[2]).toString(16)}:${((+dotted[3] << 8) | +dotted[4]).toString(16)}`
    : ip;
  const [head, tail] = text.split("::");
  const parse = (part: string | undefined) => (part ? part.split(":").map((h) => Number.parseInt(h, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  const zeros = tail === undefined ? [] : new Array<number>(8 - left.length - right.length).fill(0);
  const all = [...left, ...zeros, ...right];
  return all.length === 8 ? all : null;
}
