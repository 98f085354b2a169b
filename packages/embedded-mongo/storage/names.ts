import { MongoCommandError } from "../errors";

/** Throws MongoDB's InvalidNamespace error for a database or collection name a command may not create. */
export function validateCollectionName(db: string, name: string): void {
  if (!db || /[/\\. "$]/.test(db)) {
    throw new MongoCommandError("InvalidNamespace", `Invalid database name: '${db}'`);
  }
  if (!name || name.includes("$") || name.includes("\u0000") || name.startsWith(".") || name.startsWith("system.")) {
    throw new MongoCommandError("InvalidNamespace", `Invalid collection name: ${db}.${name}`);
  }
}
