/**
 * The floor of any page: a Remix document with nothing in it (no session, no database, no layout;
 * bench/load/floor-app.tsx), against the portal's /healthz in the same process, under the load
 * bench's 50 connections and its browser encodings, on this machine. Rounds alternate the three paths so that the
 * machine's drift falls on each alike; each round prints p50/p95/p99, requests per second, the server's CPU per
 * request, and each document's p95 ÷ that round's /healthz p95.
 *
 *   npx tsx bench/load/floor.ts [--seconds 10] [--rounds 3]
 *
 * No database is needed, nor a build (with one, the document behind the portal's route table is measured too). Every page is such a document plus its own work: the load bench (run.ts)
 * measures /home against the streamed one in its own run (target ≤ 2.5×).
 */

import fs from "node:fs";
import os from "node:os";
import { parseArgs } from "node:util";
import { FLOOR_PATHS, startFloorServer, TABLE_FLOOR } from "./floor-server";
import { type Measure, measure, USERS } from "./measure";
import { cpuMs } from "./pages";

const { values: args } = parseArgs({ options: { seconds: { type: "string" }, rounds: { type: "string" } } });
const SECONDS = Number(args.seconds ?? 10);
const ROUNDS = Number(args.rounds ?? 3);
// With a build, also the empty document behind the portal's route table (its size's cost in the framework).
const PATHS = fs.existsSync("build/server/index.js") ? [...FLOOR_PATHS, TABLE_FLOOR] : FLOOR_PATHS;

async function main() {
  const { base, server } = await startFloorServer();
  try {
    // Warm-up: the same load, unreported, so that every path runs optimised code.
    for (const { path, name } of PATHS) await measure(base, name, path, [], 3);

    console.log(
      `# bench/load/floor — ${new Date().toISOString()}, ${USERS} connections, ${SECONDS} s per path, ${os.cpus().length} CPUs, load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(" / ")}`,
    );
    console.log(
      "| round | path | p50 ms | p95 ms | p99 ms | req/s | server CPU ms/req | errors | p95 ÷ /healthz p95 |",
    );
    console.log("|---|---|---|---|---|---|---|---|---|");
    const ratios = new Map<string, number[]>();
    for (let round = 1; round <= ROUNDS; round++) {
      let health: Measure | undefined;
      for (const { path, name } of PATHS) {
        const before = cpuMs(server.pid!);
        const m = await measure(base, name, path, [], SECONDS);
        const cpu = (cpuMs(server.pid!) - before) / m.requests;
        health ??= m;
        const ratio = m.p95 / health.p95;
        if (m !== health) ratios.set(name, [...(ratios.get(name) ?? []), ratio]);
        console.log(
          `| ${round} | ${name} | ${m.p50.toFixed(1)} | ${m.p95.toFixed(1)} | ${m.p99.toFixed(1)} | ${m.rps.toFixed(0)} | ${cpu.toFixed(2)} | ${m.errors} | ${m === health ? "—" : ratio.toFixed(2)} |`,
        );
      }
    }
    for (const [name, list] of ratios) {
      const low = Math.min(...list);
      console.log(`${name}: p95 ÷ /healthz p95 ${low.toFixed(2)}–${Math.max(...list).toFixed(2)}`);
    }
  } finally {
    server.kill("SIGINT");
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
