/** $count: one document with the number of documents, none for an empty input. */
import { MongoCommandError } from "../errors";
import { Stage, type StageFactory } from "./stage";

export class CountStage extends Stage {
  private n = 0;
  constructor(private readonly field: string) {
    super();
  }
  push(): boolean {
    this.n++;
    return true;
  }
  end(): void {
    if (this.n > 0) this.next.push({ [this.field]: this.n });
    this.next.end();
  }
}

export const countStage: StageFactory = ({ arg }) => {
  if (typeof arg !== "string" || arg === "" || arg.startsWith("$") || arg.includes(".")) {
    throw new MongoCommandError(
      "BadValue",
      "the count field must be a non-empty string that does not start with $ or contain .",
    );
  }
  return new CountStage(arg);
};
