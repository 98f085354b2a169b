/** $skip and $limit. */
import type { Doc } from "../values";
import { positive, Stage, type StageFactory } from "./stage";

export class SkipStage extends Stage {
  constructor(private remaining: number) {
    super();
  }
  push(doc: Doc): boolean {
    if (this.remaining > 0) {
      this.remaining--;
      return true;
    }
    return this.next.push(doc);
  }
}

export class LimitStage extends Stage {
  private left: number;
  constructor(limit: number) {
    super();
    this.left = limit;
  }
  push(doc: Doc): boolean {
    if (this.left <= 0) return false;
    this.left--;
    const more = this.next.push(doc);
    return more && this.left > 0;
  }
}

export const skipStage: StageFactory = ({ arg }) => new SkipStage(positive(arg, "$skip", true));

export const limitStage: StageFactory = ({ arg }) => new LimitStage(positive(arg, "$limit", false));
