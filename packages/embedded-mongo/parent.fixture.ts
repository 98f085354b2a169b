/** A parent that starts the embedded database process and waits: the test kills it with -9. */
import { startEmbeddedDbProcess } from "./process";

const db = await startEmbeddedDbProcess(process.argv[2]);
process.stdout.write(`db pid ${db.pid}\n`);
setInterval(() => undefined, 1_000);
