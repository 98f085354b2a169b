/**
 * `npm run seed`: applies the indexes, drops the seeded collections and writes the deterministic
 * demo data. With --if-empty it only applies the indexes when user_permissions already has documents, unless
 * the last seed never finished (seed_state), which is seeded again.
 * The same command as `portal seed` (server/cli.ts).
 */
import { runCli } from "../server/cli";

process.exitCode = await runCli(["seed", ...process.argv.slice(2)]);
