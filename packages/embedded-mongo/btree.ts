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
