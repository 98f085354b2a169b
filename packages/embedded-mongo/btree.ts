/**
 * An in-memory B+ tree with subtree counts (an order-statistic tree): ordered
 * iteration both ways, seeks to a bound in O(log n), the rank of a position
 * (so a range is counted without walking it) and the entry at a rank (so a
 * skip does not walk the skipped entries). Entries are unique under the
 * comparator; the indexes make them so by ending every key with the
 * document's id.
 */

const LEAF_MAX = 64;
const INNER_MAX = 64;

type Leaf<E> = { leaf: true; keys: E[]; size: number; next: Leaf<E> | null; prev: Leaf<E> | null };
type Inner<E> = { leaf: false; children: Node<E>[]; seps: E[]; size: number };
type Node<E> = Leaf<E> | Inner<E>;

/** A position in the tree: the entry at `i` of `leaf` (i may equal keys.length: past this leaf's end). */
export type Position<E> = { leaf: Leaf<E>; i: number };

/** Orders an entry against a bound: negative = the entry is before it. */
export type BoundCompare<E> = (entry: E) => number;

export class BTree<E> {
  private root: Node<E>;

  constructor(private readonly compare: (a: E, b: E) => number) {
    this.root = newLeaf<E>();
  }

  get size(): number {
    return this.root.size;
  }

  clear(): void {
    this.root = newLeaf<E>();
  }

  /** Replaces the content with entries already sorted by the comparator (index builds). */
  load(sorted: E[]): void {
    if (sorted.length === 0) {
      this.clear();
      return;
    }
    const fill = Math.max(2, Math.floor((LEAF_MAX * 3) / 4));
    let level: Node<E>[] = [];
    let prev: Leaf<E> | null = null;
    for (let i = 0; i < sorted.length; i += fill) {
      const leaf = newLeaf<E>();
      leaf.keys = sorted.slice(i, i + fill);
      leaf.size = leaf.keys.length;
      leaf.prev = prev;
      if (prev) prev.next = leaf;
      prev = leaf;
      level.push(leaf);
    }
    const innerFill = Math.max(2, Math.floor((INNER_MAX * 3) / 4));
    while (level.length > 1) {
      const up: Node<E>[] = [];
      for (let i = 0; i < level.length; i += innerFill) {
        const children = level.slice(i, i + innerFill);
        const node: Inner<E> = { leaf: false, children, seps: children.slice(1).map(firstKey), size: 0 };
        for (const c of children) node.size += c.size;
        up.push(node);
      }
      level = up;
    }
    this.root = level[0];
  }

  insert(entry: E): void {
    const split = this.insertInto(this.root, entry);
    if (split) {
      const [sep, right] = split;
      const left = this.root;
      this.root = { leaf: false, children: [left, right], seps: [sep], size: left.size + right.size };
    }
  }

  private insertInto(node: Node<E>, entry: E): [E, Node<E>] | undefined {
    node.size++;
    if (node.leaf) {
      const keys = node.keys;
      const lo = partitionPoint(keys, (key) => this.compare(key, entry) < 0);
      keys.splice(lo, 0, entry);
      if (keys.length <= LEAF_MAX) return undefined;
      const right = newLeaf<E>();
      right.keys = keys.splice(keys.length >> 1);
      right.size = right.keys.length;
      node.size = keys.length;
      right.next = node.next;
      if (right.next) right.next.prev = right;
      right.prev = node;
      node.next = right;
      return [right.keys[0], right];
    }
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
    const right: Inner<E> = { leaf: false, children: rightChildren, seps: rightSeps, size: 0 };
    for (const ch of rightChildren) right.size += ch.size;
    node.size -= right.size;
    return [up, right];
  }

  /**
   * Inserts entries sorted by the comparator and absent from the tree (a batch of documents' keys). Each node
   * is visited once for all the entries that land under it, so entries that fall close together (one key's
   * new ids, appends at the end) cost a few comparisons each instead of a descent each.
   */
  insertSorted(sorted: E[]): void {
    if (sorted.length === 0) return;
    if (sorted.length === 1) {
      this.insert(sorted[0]);
      return;
    }
    let level = this.insertRun(this.root, sorted, 0, sorted.length);
    // The root split into several nodes: stack inner nodes over them until one holds everything.
    while (level.length > 1) {
      const up: Node<E>[] = [];
      const fill = Math.floor((INNER_MAX * 3) / 4);
      for (let i = 0; i < level.length; i += fill) up.push(innerOf(level.slice(i, i + fill)));
      level = up;
    }
    this.root = level[0];
  }

  /** Inserts sorted[lo, hi) under node; returns the node followed by the new right siblings it split into. */
  private insertRun(node: Node<E>, sorted: E[], lo: number, hi: number): Node<E>[] {
    if (node.leaf) {
      const keys = node.keys;
      const merged = new Array<E>(keys.length + hi - lo);
      let i = 0;
      let j = lo;
      let k = 0;
      // Each new entry's place by binary search among the keys after the previous one (a batch spread over the
      // tree brings one or two entries per leaf: a linear merge would compare them with every key).
      for (; j < hi; j++) {
        const entry = sorted[j];
        let a = i;
        let b = keys.length;
        while (a < b) {
          const mid = (a + b) >> 1;
          if (this.compare(keys[mid], entry) < 0) a = mid + 1;
          else b = mid;
        }
        while (i < a) merged[k++] = keys[i++];
        merged[k++] = entry;
      }
      while (i < keys.length) merged[k++] = keys[i++];
      if (merged.length <= LEAF_MAX) {
        node.keys = merged;
        node.size = merged.length;
        return [node];
      }
      // Full leaves of three quarters, as a build makes them: the first keeps its place in the chain.
      const fill = Math.floor((LEAF_MAX * 3) / 4);
      const pieces = Math.ceil(merged.length / fill);
      const per = Math.ceil(merged.length / pieces);
      const out: Leaf<E>[] = [node];
      node.keys = merged.slice(0, per);
      node.size = node.keys.length;
      const after = node.next;
      let prev: Leaf<E> = node;
      for (let at = per; at < merged.length; at += per) {
        const leaf = newLeaf<E>();
        leaf.keys = merged.slice(at, at + per);
        leaf.size = leaf.keys.length;
        leaf.prev = prev;
        prev.next = leaf;
        prev = leaf;
        out.push(leaf);
      }
      prev.next = after;
      if (after) after.prev = prev;
      return out;
    }
    const children: Node<E>[] = [];
    const seps: E[] = [];
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
    const out: Node<E>[] = [];
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
  private childFor(node: Inner<E>, entry: E): number {
    return partitionPoint(node.seps, (sep) => this.compare(sep, entry) <= 0);
  }

  /** Removes the entry equal to `entry` under the comparator; false when absent. */
  delete(entry: E): boolean {
    const path: [Inner<E>, number][] = [];
    let node = this.root;
    while (!node.leaf) {
      const c = this.childFor(node, entry);
      path.push([node, c]);
      node = node.children[c];
    }
    const keys = node.keys;
    const lo = partitionPoint(keys, (key) => this.compare(key, entry) < 0);
    if (lo >= keys.length || this.compare(keys[lo], entry) !== 0) return false;
    keys.splice(lo, 1);
    node.size--;
    for (const [inner] of path) inner.size--;
    if (keys.length > 0 || path.length === 0) return true;
    // An empty leaf leaves the tree; an inner node left without children follows it up.
    if (node.prev) node.prev.next = node.next;
    if (node.next) node.next.prev = node.prev;
    for (let d = path.length - 1; d >= 0; d--) {
      const [parent, c] = path[d];
      parent.children.splice(c, 1);
      if (c > 0) parent.seps.splice(c - 1, 1);
      else if (parent.seps.length > 0) parent.seps.splice(0, 1);
      if (parent.children.length > 0) break;
      if (d === 0) this.root = newLeaf<E>();
    }
    // Collapse a root with a single child.
    while (!this.root.leaf && this.root.children.length === 1) this.root = this.root.children[0];
    return true;
  }

  /** The first position whose entry is at or after the bound, and its rank. */
  seek(bound: BoundCompare<E>): { pos: Position<E>; rank: number } {
    let node = this.root;
    let rank = 0;
    while (!node.leaf) {
      const c = partitionPoint(node.seps, (sep) => bound(sep) < 0);
      for (let before = 0; before < c; before++) rank += node.children[before].size;
      node = node.children[c];
    }
    const i = partitionPoint(node.keys, (key) => bound(key) < 0);
    return { pos: { leaf: node, i }, rank: rank + i };
  }

  /** The number of entries before the bound. */
  rankOf(bound: BoundCompare<E>): number {
    return this.seek(bound).rank;
  }

  /** The position of the entry at `rank` (0-based); past the end when rank >= size. */
  atRank(rank: number): Position<E> {
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

  first(): Position<E> {
    let node = this.root;
    while (!node.leaf) node = node.children[0];
    return { leaf: node, i: 0 };
  }

  end(): Position<E> {
    let node = this.root;
    while (!node.leaf) node = node.children[node.children.length - 1];
    return { leaf: node, i: node.keys.length };
  }

  /** The entry at a position, moving past empty leaf ends; undefined at the end of the tree. */
  static entryAt<E>(pos: Position<E>): E | undefined {
    while (pos.i >= pos.leaf.keys.length) {
      if (!pos.leaf.next) return undefined;
      pos.leaf = pos.leaf.next;
      pos.i = 0;
    }
    return pos.leaf.keys[pos.i];
  }

  /** Steps one entry back; false at the start of the tree. */
  static stepBack<E>(pos: Position<E>): boolean {
    pos.i--;
    while (pos.i < 0) {
      if (!pos.leaf.prev) {
        pos.i = -1;
        return false;
      }
      pos.leaf = pos.leaf.prev;
      pos.i = pos.leaf.keys.length - 1;
    }
    return true;
  }

  *entries(): IterableIterator<E> {
    let leaf: Leaf<E> | null = this.first().leaf;
    while (leaf) {
      for (const k of leaf.keys) yield k;
      leaf = leaf.next;
    }
  }
}

function newLeaf<E>(): Leaf<E> {
  return { leaf: true, keys: [], size: 0, next: null, prev: null };
}

/** An inner node over children (its separators: the first key of each child after the first). */
function innerOf<E>(children: Node<E>[]): Inner<E> {
  const node: Inner<E> = { leaf: false, children, seps: children.slice(1).map(firstKey), size: 0 };
  for (const c of children) node.size += c.size;
  return node;
}

function firstKey<E>(node: Node<E>): E {
  while (!node.leaf) node = node.children[0];
  return node.keys[0];
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
