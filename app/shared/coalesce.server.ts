import { Transform, type TransformCallback } from "node:stream";

/**
 * React writes a document as hundreds of small chunks, each of which would cross the web-stream adapter, the
 * compression stream and the socket on its own (a large share of a page's CPU in profiles). This joins what React
 * writes in one turn of the event loop (or 64 kB) into one chunk: the same bytes, sent as soon as the turn ends, so
 * streaming and the status decided at the shell are unchanged.
 */
export class Coalesce extends Transform {
  private chunks: Buffer[] = [];
  private size = 0;
  private scheduled = false;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    if (this.size >= 64 * 1024) this.release();
    else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        this.release();
      });
    }
    callback();
  }

  override _flush(callback: TransformCallback): void {
    this.release();
    callback();
  }

  private release(): void {
    if (this.size === 0 || this.destroyed) return;
    const joined = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.size);
    this.chunks = [];
    this.size = 0;
    this.push(joined);
  }
}
