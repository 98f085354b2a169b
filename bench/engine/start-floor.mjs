/**
 * The floor of a start (bench/engine/start.ts runs it): the least a start that makes every document an object in a
 * map by id can do. It reads the snapshot in 4 MB chunks into one buffer, checks every record's checksum, and for
 * each document record makes an object holding its `_id` as a hex key and puts it in its collection's Map — no
 * index, no order, nothing decoded. Plain JavaScript, so that no loader adds to it; prints its seconds and counts.
 *
 *   node bench/engine/start-floor.mjs <snapshot.bson>
 */
import fs from "node:fs";
import { crc32 } from "node:zlib";

const started = performance.now();
const file = process.argv[2];
const fd = fs.openSync(file, "r");
const size = fs.fstatSync(fd).size;
const CHUNK = 4 * 1024 * 1024;
let buf = Buffer.allocUnsafeSlow(CHUNK);
let length = 0;
let pos = 0;
let records = 0;
/** Per collection (a CreateCollection record starts one), its documents by key. */
const maps = [];
let current;
for (;;) {
  const read = fs.readSync(fd, buf, length, buf.length - length, pos);
  pos += read;
  length += read;
  let at = 0;
  while (at + 8 <= length) {
    const n = buf.readUInt32LE(at);
    const end = at + 8 + n;
    if (end > length) break;
    if (crc32(buf.subarray(at + 8, end)) !== buf.readUInt32LE(at + 4))
      throw new Error(`checksum at ${pos - length + at}`);
    records++;
    const type = buf[at + 8];
    if (type === 3) maps.push((current = new Map()));
    else if (type === 1) {
      // { n: namespace, d: document }: the document after the namespace string.
      const nsAt = at + 8 + 1 + 4 + 3;
      const docAt = nsAt + 4 + buf.readInt32LE(nsAt) + 3;
      // An ObjectId `_id` (type 7, "_id\0"): its 12 bytes as the key; a string one: the string.
      const key =
        buf[docAt + 4] === 0x07
          ? buf.hexSlice(docAt + 9, docAt + 21)
          : buf[docAt + 4] === 0x02
            ? buf.utf8Slice(docAt + 13, docAt + 13 + buf.readInt32LE(docAt + 9) - 1)
            : String(records);
      const doc = {};
      doc._id = key;
      current.set(key, doc);
    }
    at = end;
  }
  if (read === 0) break;
  buf.copyWithin(0, at, length);
  length -= at;
  if (length + CHUNK > buf.length) {
    const grown = Buffer.allocUnsafeSlow(length + CHUNK);
    buf.copy(grown, 0, 0, length);
    buf = grown;
  }
}
let documents = 0;
for (const docs of maps) documents += docs.size;
process.stdout.write(
  `${JSON.stringify({ seconds: (performance.now() - started) / 1000, records, documents, bytes: size })}\n`,
);
