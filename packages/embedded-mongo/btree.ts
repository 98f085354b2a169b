/**
 * An in-memory B+ tree with subtree counts (an order-statistic tree): ordered
 * iteration both ways, seeks to a bound in O(log n), the rank of a position
 * (so a range is counted without walking it) and the entry at a rank (so a
 * skip does not walk the skipped entries). Entries are unique under the
 * comparator; the indexes make them so by ending every key with the
 * document's id.
 *
 * Every entry is an array of the tree's `width` values, and a leaf holds its
 * entries' values flat, one after the other, in one array: a leaf costs a few
 * objects whatever it holds, where an array per entry made the indexes most of
 * the heap (tens of millions of entries at scale 10, each walked by every full
 * collection). A tree built with an `expand` function keeps only each entry's
 * last value (a reference: the index's document) and makes the values from it
 * when an entry is read. An entry read from a leaf is a new array
 * (`BTree.entryAt`, the iteration); the bounds and the comparator see a view
 * that the next comparison overwrites, so they must not keep it.
 */

const LEAF_MAX = 64;
const INNER_MAX = 64;

export type Entry = unknown[];
/**
 * How a leaf holds its entries: `s` slots per entry; with `expand`, one slot (the entry's last value, a reference
 * such as the document itself) from which `expand` writes the entry's `w` values.
 */
type Layout = { w: number; s: number; expand: Expand | null };
/** Writes the `width` values of the entry whose reference is `ref` into out[0..width). */
export type Expand = (ref: unknown, out: Entry) => void;
type Leaf = { leaf: true; keys: unknown[]; size: number; lay: Layout; next: Leaf | null; prev: Leaf | null };
type Inner = { leaf: false; children: Node[]; seps: Entry[]; size: number };
type Node = Leaf | Inner;

/** A position in the tree: the entry at `i` of `leaf` (i may equal its size: past this leaf's end). */
export type Position = { leaf: Leaf; i: number };

/** Orders an entry against a bound: negative = the entry is before it. */
export type BoundCompare = (entry: Entry) => number;

export class BTree {
  private root: Node;
  /** The view that leaf searches fill with one entry's values before a comparison. */
  private readonly scratch: Entry;
  private readonly lay: Layout;
  /** Slots per entry in a leaf: `width`, or 1 when the tree expands references. */
  private readonly s: number;

  /**
   * With `expand`, a leaf keeps one slot per entry, the entry's last value (the reference), and `expand` makes the
   * values from it: an index whose keys are fields of a document that is never changed in place keeps the
   * document, not copies of its values.
   */
  constructor(
    private readonly compare: (a: Entry, b: Entry) => number,
    readonly width: number,
    expand?: Expand,
  ) {
    this.s = expand ? 1 : width;
    this.lay = { w: width, s: this.s, expand: expand ?? null };
    this.root = this.newLeaf();
    this.scratch = new Array<unknown>(width).fill(null);
  }

  get size(): number {
    return this.root.size;
  }

  clear(): void {
    this.root = this.newLeaf();
  }

  private newLeaf(): Leaf {
    return { leaf: true, keys: [], size: 0, lay: this.lay, next: null, prev: null };
  }

  /** The entry at i of a leaf, in the scratch view. */
  private view(leaf: Leaf, i: number): Entry {
    const s = this.scratch;
    const keys = leaf.keys;
    const expand = this.lay.expand;
    if (expand !== null) {
      expand(keys[i], s);
      return s;
    }
    const w = this.width;
    for (let j = 0, at = i * w; j < w; j++, at++) s[j] = keys[at];
    return s;
  }

  /** Writes what a leaf keeps of `entry` into target from `at`; returns the next free slot. */
  private store(entry: Entry, target: unknown[], at: number): number {
    if (this.lay.expand !== null) {
      target[at] = entry[this.width - 1];
      return at + 1;
    }
    for (let v = 0; v < this.width; v++) target[at++] = entry[v];
    return at;
  }

  /** The number of leading entries of the leaf for which `before` holds (binary search over a sorted prefix). */
  private leafPoint(leaf: Leaf, before: (e: Entry) => boolean, from = 0): number {
    let lo = from;
    let hi = leaf.size;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (before(this.view(leaf, mid))) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Replaces the content with entries already sorted by the comparator (index builds). */
  load(sorted: Entry[]): void {
    const builder = this.builder();
    const from = this.width - this.s;
    for (const entry of sorted) builder.push(entry, from);
    builder.finish();
  }

  /**
   * Builds a new content from entries pushed in the comparator's order, each as what a leaf keeps of it read from
   * an array at an offset (`width` values, or the one reference of a tree that expands them: an index build takes
   * them straight from where it made them); `finish()` puts it in place of the tree's content. Leaves are filled
   * to three quarters, as later inserts want.
   */
  builder(): { push(values: ArrayLike<unknown>, at: number): void; finish(): void } {
    const w = this.s;
    const fill = Math.max(2, Math.floor((LEAF_MAX * 3) / 4));
    const leaves: Leaf[] = [];
    let keys = new Array<unknown>(fill * w);
    let count = 0;
    let k = 0;
    const flush = () => {
      if (count === 0) return;
      const leaf = this.newLeaf();
      if (count < fill) keys.length = count * w;
      leaf.keys = keys;
      leaf.size = count;
      const prev = leaves.at(-1);
      if (prev) {
        prev.next = leaf;
        leaf.prev = prev;
      }
      leaves.push(leaf);
      keys = new Array<unknown>(fill * w);
      count = 0;
      k = 0;
    };
    return {
      push(values: ArrayLike<unknown>, at: number): void {
        for (let j = 0; j < w; j++) keys[k++] = values[at + j];
        if (++count === fill) flush();
      },
      finish: () => {
        flush();
        let level: Node[] = leaves;
        const innerFill = Math.max(2, Math.floor((INNER_MAX * 3) / 4));
        while (level.length > 1) {
          const up: Node[] = [];
          for (let i = 0; i < level.length; i += innerFill) up.push(innerOf(level.slice(i, i + innerFill)));
          level = up;
        }
        this.root = level[0] ?? this.newLeaf();
      },
    };
  }

  insert(entry: Entry): void {
    const split = this.insertInto(this.root, entry);
    if (split) {
      const [sep, right] = split;
      const left = this.root;
      this.root = { leaf: false, children: [left, right], seps: [sep], size: left.size + right.size };
    }
  }

  private insertInto(node: Node, entry: Entry): [Entry, Node] | undefined {
    if (node.leaf) {
      const w = this.s;
      const lo = this.leafPoint(node, (key) => this.compare(key, entry) < 0);
      node.keys.splice(lo * w, 0, ...(w === this.width ? entry.slice(0, w) : [entry[this.width - 1]]));
      node.size++;
      if (node.size <= LEAF_MAX) return undefined;
      const right = this.newLeaf();
      const half = node.size >> 1;
      right.keys = node.keys.splice(half * w);
      right.size = node.size - half;
      node.size = half;
      right.next = node.next;
      if (right.next) right.next.prev = right;
      right.prev = node;
      node.next = right;
      return [entryOf(right, 0), right];
    }
    node.size++;
    const c = this.childFor(node, entry);
    const split = this.insertInto(node.children[c], entry);
    if (!split) return undefined;
    node.children.splice(c + 1, 0, split[1]);
    node.seps.splice(c, 0, split[0]);
    if (node.children.length <= INNER_MAX) return undefined;
    const half = node.children.length >> 1;
    const rightChildren = node.children.splice(half);
    const rightSeps = node.seps.splice(half);
    const up = node.seps.pop()!;
    const right: Inner = { leaf: false, children: rightChildren, seps: rightSeps, size: 0 };
    for (const ch of rightChildren) right.size += ch.size;
    node.size -= right.size;
    return [up, right];
  }

  /**
   * Inserts entries sorted by the comparator and absent from the tree (a batch of documents' keys). Each node
   * is visited once for all the entries that land under it, so entries that fall close together (one key's
   * new ids, appends at the end) cost a few comparisons each instead of a descent each.
   */
  insertSorted(sorted: Entry[]): void {
    if (sorted.length === 0) return;
    if (sorted.length === 1) {
      this.insert(sorted[0]);
      return;
    }
    let level = this.insertRun(this.root, sorted, 0, sorted.length);
    // The root split into several nodes: stack inner nodes over them until one holds everything.
    while (level.length > 1) {
      const up: Node[] = [];
      const fill = Math.floor((INNER_MAX * 3) / 4);
      for (let i = 0; i < level.length; i += fill) up.push(innerOf(level.slice(i, i + fill)));
      level = up;
    }
    this.root = level[0];
  }

  /**
   * Inserts sorted[lo, hi) into a leaf that has room for them, in its own array: each entry's place found first (by
   * binary search among the keys after the previous one's), then the keys moved right from the last one, each past
   * the new entries that go before it. A batch spread over a big tree brings one or two entries to each leaf it
   * touches: moving a few keys costs less than a new array for the leaf and the collector's work for the old one.
   */
  private insertInLeaf(leaf: Leaf, sorted: Entry[], lo: number, hi: number): void {
    const w = this.s;
    const keys = leaf.keys;
    const points = new Array<number>(hi - lo);
    let i = 0;
    for (let j = lo; j < hi; j++) {
      const entry = sorted[j];
      i = this.leafPoint(leaf, (key) => this.compare(key, entry) < 0, i);
      points[j - lo] = i;
    }
    // `to` is the slot after the next one to fill, from the end of the grown leaf; `from` after the next key to move.
    let to = (leaf.size + hi - lo) * w;
    let from = leaf.size * w;
    for (let j = hi - 1; j >= lo; j--) {
      const stop = points[j - lo] * w;
      while (from > stop) keys[--to] = keys[--from];
      to -= w;
      this.store(sorted[j], keys, to);
    }
    leaf.size += hi - lo;
  }

  /** Inserts sorted[lo, hi) under node; returns the node followed by the new right siblings it split into. */
  private insertRun(node: Node, sorted: Entry[], lo: number, hi: number): Node[] {
    if (node.leaf) {
      const w = this.s;
      const keys = node.keys;
      const total = node.size + hi - lo;
      if (total <= LEAF_MAX) {
        this.insertInLeaf(node, sorted, lo, hi);
        return [node];
      }
      const merged = new Array<unknown>(total * w);
      let i = 0;
      let k = 0;
      // Each new entry's place by binary search among the keys after the previous one (a batch spread over the
      // tree brings one or two entries per leaf: a linear merge would compare them with every key).
      for (let j = lo; j < hi; j++) {
        const entry = sorted[j];
        const a = this.leafPoint(node, (key) => this.compare(key, entry) < 0, i);
        for (let at = i * w; at < a * w; at++) merged[k++] = keys[at];
        i = a;
        k = this.store(entry, merged, k);
      }
      for (let at = i * w; at < node.size * w; at++) merged[k++] = keys[at];
      if (total <= LEAF_MAX) {
        node.keys = merged;
        node.size = total;
        return [node];
      }
      // Full leaves of three quarters, as a build makes them: the first keeps its place in the chain.
      const fill = Math.floor((LEAF_MAX * 3) / 4);
      const pieces = Math.ceil(total / fill);
      const per = Math.ceil(total / pieces);
      const out: Leaf[] = [node];
      node.keys = merged.slice(0, per * w);
      node.size = per;
      const after = node.next;
      let prev: Leaf = node;
      for (let at = per; at < total; at += per) {
        const leaf = this.newLeaf();
        const n = Math.min(per, total - at);
        leaf.keys = merged.slice(at * w, (at + n) * w);
        leaf.size = n;
        leaf.prev = prev;
        prev.next = leaf;
        prev = leaf;
        out.push(leaf);
      }
      prev.next = after;
      if (after) after.prev = prev;
      return out;
    }
    const children: Node[] = [];
    const seps: Entry[] = [];
    let start = lo;
    let done = 0;
    while (start < hi) {
      const c = this.childFor(node, sorted[start]);
      // The entries before the next separator belong to child c.
      let end = hi;
      if (c < node.seps.length) {
        const sep = node.seps[c];
        let a = start + 1;
        let b = hi;
        while (a < b) {
          const mid = (a + b) >> 1;
          if (this.compare(sep, sorted[mid]) <= 0) b = mid;
          else a = mid + 1;
        }
        end = a;
      }
      // Children before c are kept as they are.
      for (; done < c; done++) {
        if (done > 0) seps.push(node.seps[done - 1]);
        children.push(node.children[done]);
      }
      const pieces = this.insertRun(node.children[c], sorted, start, end);
      if (c > 0) seps.push(node.seps[c - 1]);
      children.push(pieces[0]);
      for (let p = 1; p < pieces.length; p++) {
        seps.push(firstKey(pieces[p]));
        children.push(pieces[p]);
      }
      done = c + 1;
      start = end;
    }
    for (; done < node.children.length; done++) {
      seps.push(node.seps[done - 1]);
      children.push(node.children[done]);
    }
    node.size += hi - lo;
    if (children.length <= INNER_MAX) {
      node.children = children;
      node.seps = seps;
      return [node];
    }
    const fill = Math.floor((INNER_MAX * 3) / 4);
    const count = Math.ceil(children.length / fill);
    const per = Math.ceil(children.length / count);
    const out: Node[] = [];
    for (let at = 0; at < children.length; at += per) {
      const part = children.slice(at, at + per);
      if (at === 0) {
        node.children = part;
        node.seps = seps.slice(0, part.length - 1);
        node.size = 0;
        for (const ch of part) node.size += ch.size;
        out.push(node);
      } else out.push(innerOf(part));
    }
    return out;
  }

  /** The child whose range holds `entry`: the number of separators at or before it. */
  private childFor(node: Inner, entry: Entry): number {
    return partitionPoint(node.seps, (sep) => this.compare(sep, entry) <= 0);
  }

  /** Removes the entry equal to `entry` under the comparator; false when absent. */
  delete(entry: Entry): boolean {
    const path: [Inner, number][] = [];
    let node = this.root;
    while (!node.leaf) {
      const c = this.childFor(node, entry);
      path.push([node, c]);
      node = node.children[c];
    }
    const lo = this.leafPoint(node, (key) => this.compare(key, entry) < 0);
    if (lo >= node.size || this.compare(this.view(node, lo), entry) !== 0) return false;
    node.keys.splice(lo * this.s, this.s);
    node.size--;
    for (const [inner] of path) inner.size--;
    if (node.size > 0 || path.length === 0) return true;
    // An empty leaf leaves the tree; an inner node left without children follows it up.
    if (node.prev) node.prev.next = node.next;
    if (node.next) node.next.prev = node.prev;
    for (let d = path.length - 1; d >= 0; d--) {
      const [parent, c] = path[d];
      parent.children.splice(c, 1);
      if (c > 0) parent.seps.splice(c - 1, 1);
      else if (parent.seps.length > 0) parent.seps.splice(0, 1);
      if (parent.children.length > 0) break;
      if (d === 0) this.root = this.newLeaf();
    }
    // Collapse a root with a single child.
    while (!this.root.leaf && this.root.children.length === 1) this.root = this.root.children[0];
    return true;
  }

  /** The first position whose entry is at or after the bound, and its rank. */
  seek(bound: BoundCompare): { pos: Position; rank: number } {
    let node = this.root;
    let rank = 0;
    while (!node.leaf) {
      const c = partitionPoint(node.seps, (sep) => bound(sep) < 0);
      for (let before = 0; before < c; before++) rank += node.children[before].size;
      node = node.children[c];
    }
    const i = this.leafPoint(node, (key) => bound(key) < 0);
    return { pos: { leaf: node, i }, rank: rank + i };
  }

  /** The number of entries before the bound. */
  rankOf(bound: BoundCompare): number {
    return this.seek(bound).rank;
  }

  /** The position of the entry at `rank` (0-based); past the end when rank >= size. */
  atRank(rank: number): Position {
    let node = this.root;
    if (rank >= node.size) return this.end();
    let r = Math.max(0, rank);
    while (!node.leaf) {
      let c = 0;
      while (c < node.children.length - 1 && r >= node.children[c].size) {
        r -= node.children[c].size;
        c++;
      }
      node = node.children[c];
    }
    return { leaf: node, i: r };
  }

  first(): Position {
    let node = this.root;
    while (!node.leaf) node = node.children[0];
    return { leaf: node, i: 0 };
  }

  end(): Position {
    let node = this.root;
    while (!node.leaf) node = node.children[node.children.length - 1];
    return { leaf: node, i: node.size };
  }

  /** The entry at a position (a new array), moving past empty leaf ends; undefined at the end of the tree. */
  static entryAt(pos: Position): Entry | undefined {
    while (pos.i >= pos.leaf.size) {
      if (!pos.leaf.next) return undefined;
      pos.leaf = pos.leaf.next;
      pos.i = 0;
    }
    return entryOf(pos.leaf, pos.i);
  }

  /**
   * The last value of the entry at a position (an index's id key; the reference itself in a tree that expands),
   * without making the entry, moving past empty leaf ends; undefined at the end of the tree.
   */
  static lastValueAt(pos: Position): unknown {
    while (pos.i >= pos.leaf.size) {
      if (!pos.leaf.next) return undefined;
      pos.leaf = pos.leaf.next;
      pos.i = 0;
    }
    const s = pos.leaf.lay.s;
    return pos.leaf.keys[pos.i * s + s - 1];
  }

  /**
   * Gives the entry at a position (as lastValueAt left it) another reference, in a tree that expands: one whose
   * values for this tree are the same (the stored version of a document an older version of which it held).
   */
  static setRefAt(pos: Position, ref: unknown): void {
    if (pos.leaf.lay.expand === null) throw new Error("setRefAt: the tree holds values, not references");
    pos.leaf.keys[pos.i] = ref;
  }

  /** Steps one entry back; false at the start of the tree. */
  static stepBack(pos: Position): boolean {
    pos.i--;
    while (pos.i < 0) {
      if (!pos.leaf.prev) {
        pos.i = -1;
        return false;
      }
      pos.leaf = pos.leaf.prev;
      pos.i = pos.leaf.size - 1;
    }
    return true;
  }

  *entries(): IterableIterator<Entry> {
    let leaf: Leaf | null = this.first().leaf;
    while (leaf) {
      for (let i = 0; i < leaf.size; i++) yield entryOf(leaf, i);
      leaf = leaf.next;
    }
  }
}

/** The entry at i of a leaf, as a new array. */
function entryOf(leaf: Leaf, i: number): Entry {
  const { w, expand } = leaf.lay;
  if (expand === null) return leaf.keys.slice(i * w, (i + 1) * w);
  const out = new Array<unknown>(w);
  expand(leaf.keys[i], out);
  return out;
}

/** An inner node over children (its separators: the first key of each child after the first). */
function innerOf(children: Node[]): Inner {
  const node: Inner = { leaf: false, children, seps: children.slice(1).map(firstKey), size: 0 };
  for (const c of children) node.size += c.size;
  return node;
}

function firstKey(node: Node): Entry {
  while (!node.leaf) node = node.children[0];
  return entryOf(node, 0);
}

/** The number of leading items of the sorted `items` for which `before` holds (binary search; `before` must hold for a prefix). */
function partitionPoint<T>(items: T[], before: (item: T) => boolean): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (before(items[mid])) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
