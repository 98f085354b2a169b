/**
 * The explorer's and the HR grid's latency under load, as ratios to /home measured in the same run (
 * "p95 ≤ 2× /home under 50 users"). Seeds the embedded database at `--scale` (default 10: 1.3 M documents), starts
 * the production build (`npm run build` first), signs in, and drives 50 connections at each page with
 * autocannon. Run: npx tsx bench/explorer-hr/run.ts [--scale 10] [--seconds 20]
 */
import http from "node:http";
import { createRequire } from "node:module";
import { MongoClient } from "mongodb";
import { startApp } from "#test/e2e/harness";
import { DEMO_PASSWORD } from "~/seed/accounts";
import { seedDatabase } from "~/seed/index.server";

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const scale = arg("scale", 10);
const seconds = arg("seconds", 20);
const CONNECTIONS = 50;

// autocannon ships no types; the part used here:
type Latency = { p50: number; p90: number; p97_5: number };
type AutocannonResult = { latency: Latency; requests: { average: number }; errors: number; non2xx: number };
type AutocannonOptions = {
  url: string;
  connections: number;
  duration: number;
  headers: Record<string, string>;
  requests: Array<{ method: string; path: string }>;
};
const autocannon = createRequire(import.meta.url)("autocannon") as (
  options: AutocannonOptions,
) => Promise<AutocannonResult>;

const app = await startApp({ seed: false, env: { LOG_LEVEL: "warn" } });
try {
  const client = new MongoClient(app.mongoUri);
  await client.connect();
  const db = client.db(app.databaseName);
  const seedStart = performance.now();
  await seedDatabase(db, { scale, tenantId: "journey", bucket: "local" });
  process.stdout.write(
    `seeded scale ${scale} in ${((performance.now() - seedStart) / 1000).toFixed(0)} s: ${await db.collection("explorer_documents").estimatedDocumentCount()} explorer documents, ${await db.collection("hr_aux").estimatedDocumentCount()} HR rows\n`,
  );
  const branch = ((await db.collection("hr_aux").distinct("filial_nome")) as string[]).sort()[0];
  await client.close();

  const base = new URL(app.baseURL);
  const cookie = await new Promise<string>((resolve, reject) => {
    const body = new URLSearchParams({
      intent: "signIn",
      email: "gold@demo.local",
      password: DEMO_PASSWORD,
    }).toString();
    const req = http.request(
      {
        host: base.hostname,
        port: base.port,
        method: "POST",
        path: "/?index",
        headers: {
          Origin: base.origin,
          "Content-Type": "application/x-www-form-urlencoded",
          "Content-Length": Buffer.byteLength(body),
        },
      },
      (res) => {
        res.resume();
        const c = (res.headers["set-cookie"] ?? []).find((s) => s.startsWith("__session="));
        if (c) resolve(c.split(";")[0]);
        else reject(new Error(`sign-in failed: ${res.statusCode}`));
      },
    );
    req.on("error", reject);
    req.end(body);
  });

  const searches = [
    "energia solar",
    "manutenção",
    "manut",
    "vendas loja",
    "ruptura de estoque",
    "campanha marca",
    "treinamento consultoras",
    "forecast revisão centro de custo",
  ];
  const targets: Array<{ name: string; paths: string[] }> = [
    { name: "/home (baseline)", paths: ["/home"] },
    { name: "/ij/explorer (8 searches)", paths: searches.map((q) => `/ij/explorer?search=${encodeURIComponent(q)}`) },
    {
      name: "/ij/explorer, exact phrase + facet",
      paths: [`/ij/explorer?search=${encodeURIComponent("energia solar")}&exactPh=1&category=Energia`],
    },
    {
      name: "/ij/rh_edit (one branch, 3 months)",
      paths: [`/ij/rh_edit/${encodeURIComponent(branch)}?mes_inicio=${monthsAgo(3)}&mes_fim=${monthsAgo(1)}`],
    },
  ];

  const results: Array<{ name: string; p50: number; p90: number; p975: number; rps: number; errors: number }> = [];
  for (const target of targets) {
    const result = await autocannon({
      url: app.baseURL,
      connections: CONNECTIONS,
      duration: seconds,
      headers: { cookie },
      requests: target.paths.map((path) => ({ method: "GET", path })),
    });
    results.push({
      name: target.name,
      p50: result.latency.p50,
      p90: result.latency.p90,
      p975: result.latency.p97_5,
      rps: result.requests.average,
      errors: result.errors + result.non2xx,
    });
  }
  const home = results[0];
  process.stdout.write(
    `\n${CONNECTIONS} connections, ${seconds} s each (latency in ms; ratio = page / /home at the same percentile)\n`,
  );
  for (const r of results) {
    process.stdout.write(
      `${r.name.padEnd(38)} p50 ${String(r.p50).padStart(5)}  p90 ${String(r.p90).padStart(5)} (${(r.p90 / home.p90).toFixed(2)}x)  p97.5 ${String(r.p975).padStart(5)} (${(r.p975 / home.p975).toFixed(2)}x)  ${r.rps.toFixed(0)} req/s  errors ${r.errors}\n`,
    );
  }
} finally {
  await app.stop();
}

function monthsAgo(n: number): string {
  const d = new Date();
  const m = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - n, 1));
  return m.toISOString().slice(0, 7);
}
