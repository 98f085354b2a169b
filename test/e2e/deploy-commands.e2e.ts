import { cpSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  execForm,
  imageScripts,
  instruction,
  readCompose,
  readDockerfile,
  serviceEnv,
} from "../deploy/container-files";
import { storeAndRegisterIn } from "../deploy/files";
import { freePort, portalEnv, run, startDatabase, tempDir, waitFor, waitReady } from "../deploy/stack";

/**
 * The image's own commands, run outside Docker from the production build, laid out as the Dockerfile lays out
 * /app (build/, package.json with the image's script changes, node_modules) — so a broken CMD, HEALTHCHECK, worker
 * command, release command or CLI fails `npm test` even where no Docker engine is at hand.
 */

const stages = readDockerfile();
const runtime = stages.at(-1)!;
const services = readCompose().services;

let database: Awaited<ReturnType<typeof startDatabase>>;
let image: ReturnType<typeof tempDir>;
let data: ReturnType<typeof tempDir>;

beforeAll(async () => {
  database = await startDatabase({ seed: false });
  data = tempDir("portal-deploy-data-");
  // /app as the runtime stage builds it.
  image = tempDir("portal-image-");
  symlinkSync(path.resolve("build"), path.join(image.dir, "build"));
  symlinkSync(path.resolve("node_modules"), path.join(image.dir, "node_modules"));
  const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> };
  Object.assign(pkg.scripts, imageScripts(runtime));
  writeFileSync(path.join(image.dir, "package.json"), JSON.stringify(pkg, null, 2));
  cpSync("deploy/portal", path.join(image.dir, "portal"));
});
afterAll(async () => {
  await database?.close();
  image?.remove();
  data?.remove();
});

/** The environment a container of the image gets: its ENV lines plus what the deployment sets. */
function containerEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...portalEnv({ mongoUri: database.mongo.uri, databaseName: database.databaseName, dataDir: data.dir }),
    PORTAL_HOME: image.dir,
    LOG_LEVEL: "warn",
    ...extra,
  };
}

describe("the image's commands, from the production build", () => {
  it("every package the bundles import is a production dependency (the image has no dev dependencies)", () => {
    const lock = JSON.parse(readFileSync("package-lock.json", "utf8")) as {
      packages: Record<string, { dev?: boolean }>;
    };
    const files = [
      ...readdirSync("build/host")
        .filter((f) => f.endsWith(".js"))
        .map((f) => path.join("build/host", f)),
      ...readdirSync("build/server", { recursive: true })
        .map(String)
        .filter((f) => f.endsWith(".js"))
        .map((f) => path.join("build/server", f)),
    ];
    const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
    const imported = new Set<string>();
    for (const file of files) {
      const text = readFileSync(file, "utf8");
      // Static imports and re-exports start a line in these bundles; dynamic ones are calls. (A looser pattern took
      // object keys such as `from: get("from")` for imports.)
      const importPatterns = [
        /^\s*(?:import|export)\s+(?:[^;'"]*?\s+from\s+)?["']([^"'./][^"']*)["']/gm,
        /\b(?:import|require)\s*\(\s*["']([^"'./][^"']*)["']\s*\)/g,
      ];
      for (const m of importPatterns.flatMap((re) => [...text.matchAll(re)])) {
        const spec = m[1];
        if (builtins.has(spec) || spec.startsWith("node:") || spec.startsWith("virtual:")) continue;
        imported.add(spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]);
      }
    }
    expect(imported.size).toBeGreaterThan(5);
    const devOnly = [...imported].filter((name) => {
      const entry = lock.packages[`node_modules/${name}`];
      return !entry || entry.dev === true;
    });
    // vite is imported by the host only in development (a dynamic import behind NODE_ENV=development).
    expect(devOnly.filter((name) => name !== "vite")).toEqual([]);
  });

  it("CMD starts the host, HEALTHCHECK passes against it, and SIGTERM ends it with 0", async () => {
    const cmd = execForm(instruction(runtime, "CMD")[0]);
    const port = await freePort();
    const host = run(
      cmd[0],
      cmd.slice(1),
      containerEnv({ PORT: String(port), APP_ORIGIN: `http://127.0.0.1:${port}` }),
      image.dir,
    );
    try {
      await waitReady(`http://127.0.0.1:${port}`, host);
      const health = execForm(instruction(runtime, "HEALTHCHECK")[0].replace(/^HEALTHCHECK.*?CMD\s+/, "CMD "));
      const probe = run(health[0], health.slice(1), { PORT: String(port) }, image.dir);
      expect(await probe.exited, probe.output()).toBe(0);
      // And it fails when nothing answers.
      const dead = run(health[0], health.slice(1), { PORT: String(await freePort()) }, image.dir);
      expect(await dead.exited).toBe(1);
    } finally {
      host.child.kill("SIGTERM");
    }
    expect(await host.exited, host.output()).toBe(0);
  });

  it("the release service's command creates the indexes, and `portal` creates the first admin and seeds", async () => {
    const release = services.release.command as string[];
    const indexes = run(release[0], release.slice(1), containerEnv(), image.dir);
    expect(await indexes.exited, indexes.output()).toBe(0);
    expect(indexes.output()).toMatch(/Applied \d+ indexes on \d+ collections/);
    expect((await database.db.collection("files").indexes()).length).toBeGreaterThan(1);

    const portal = (...args: string[]) =>
      run("sh", [path.join(image.dir, "portal"), ...args], containerEnv(), image.dir);
    const admin = portal("create-admin", "--email", "Primeira.Admin@Example.com");
    expect(await admin.exited, admin.output()).toBe(0);
    expect(admin.output()).toMatch(/Created SYSTEM ADMIN primeira\.admin@example\.com\.\nTemporary password: \S{12,}/);
    expect(
      await database.db.collection("user_permissions").findOne({ user: "primeira.admin@example.com" }),
    ).toMatchObject({ type: "SYSTEM ADMIN" });
    expect(await database.db.collection("local_users").findOne({ email: "primeira.admin@example.com" })).toMatchObject({
      mustChangePassword: true,
    });
    const again = portal("create-admin", "--email", "primeira.admin@example.com");
    expect(await again.exited).toBe(1);
    expect(again.output()).toContain("already exists");
    const usage = portal("create-admin");
    expect(await usage.exited).toBe(2);

    // npm scripts as the image rewrote them: plain node, no tsx.
    const seed = run("npm", ["run", "--silent", "seed", "--", "--scale", "0.01"], containerEnv(), image.dir);
    expect(await seed.exited, seed.output()).toBe(0);
    expect(seed.output()).toMatch(/Seeded \d+ documents/);
    const npmIndexes = run("npm", ["run", "--silent", "db:indexes"], containerEnv(), image.dir);
    expect(await npmIndexes.exited, npmIndexes.output()).toBe(0);
  });

  it("the worker service's command starts the worker, which processes files and stops on SIGTERM", async () => {
    const command = services.worker.command as string[];
    const env = containerEnv({ ...serviceEnvFor("worker"), LOG_LEVEL: "info" });
    const worker = run(command[0], command.slice(1), env, image.dir);
    try {
      // It polls the database: a file registered now is taken and finished.
      const id = await storeAndRegisterIn(database.db, data.dir, "worker.csv", "sku;x\n");
      const done = await waitFor("the worker to finish the file", async () => {
        const file = await database.db.collection("files").findOne({ _id: id });
        return file && file.progress === 100 ? file : undefined;
      });
      expect(done.agent).toBeTruthy();
    } finally {
      worker.child.kill("SIGTERM");
    }
    expect(await worker.exited, worker.output()).toBe(0);
  });
});

/** The parts of a compose service's environment that apply outside compose (not its database or store). */
function serviceEnvFor(name: string): Record<string, string> {
  const env = serviceEnv(services[name], { SESSION_SECRET: "x".repeat(40), MINIO_ROOT_PASSWORD: "unused-here" });
  const keep = ["WORKER_IN_PROCESS", "TRUST_PROXY", "NODE_ENV"];
  return Object.fromEntries(Object.entries(env).filter(([k]) => keep.includes(k)));
}
