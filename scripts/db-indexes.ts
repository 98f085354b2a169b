/**
 * `npm run db:indexes`: applies every index the model modules declare. A separate release step, not something
 * each container start does. Idempotent. The same command as `portal db:indexes` (server/cli.ts).
 */
import { runCli } from "../server/cli";

process.exitCode = await runCli(["db:indexes"]);
