/** The embedded server in its own process, in memory (`npm run db -- --memory`), as the ingest benchmarks use it. */
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));

export async function startDatabase(): Promise<{ uri: string; pid: number | undefined; stop: () => void }> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", path.resolve(here, "../../packages/embedded-mongo/cli.ts"), "--memory", "--port", "0"],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const uri = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (c: Buffer) => {
      out += c.toString();
      const m = /connection string: (\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.once("exit", (code) => reject(new Error(`database exited with ${code}`)));
  });
  process.once("exit", () => child.kill("SIGTERM")); // also when the benchmark fails halfway
  return { uri, pid: child.pid, stop: () => child.kill("SIGTERM") };
}
