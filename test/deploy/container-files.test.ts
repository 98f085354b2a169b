import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseConfig } from "~/config.server";
import { WEB_NODE_FLAGS } from "../../server/web-flags";
import {
  execForm,
  imageScripts,
  instruction,
  packageScripts,
  readCompose,
  readDockerfile,
  serviceEnv,
  substitute,
} from "./container-files";

/**
 * The container files as a reviewer reads them (no Docker engine runs here; test/e2e/deploy-commands.e2e.ts runs
 * their commands against the production build).
 */

const stages = readDockerfile();
const runtime = stages.at(-1)!;
const compose = readCompose();
const services = compose.services;
const vars = { SESSION_SECRET: "s".repeat(64), MINIO_ROOT_PASSWORD: "minio-secret-123" };

describe("Dockerfile", () => {
  it("is a multi-stage build on Node 22 (bookworm-slim) whose runtime stage runs as an unprivileged user", () => {
    expect(stages.length).toBeGreaterThanOrEqual(3);
    for (const stage of stages) expect(stage.from).toMatch(/^(node:22-bookworm-slim|deps|build|prod-deps)$/);
    expect(runtime.from).toBe("node:22-bookworm-slim");
    expect(instruction(runtime, "USER")).toEqual(["USER node"]);
    // The runtime copies built files and production dependencies, never the source tree or the build tools.
    const copies = instruction(runtime, "COPY").join("\n");
    expect(copies).toContain("--from=prod-deps /app/node_modules");
    expect(copies).toContain("--from=build /app/build");
    expect(copies).not.toMatch(/COPY \. /);
    const prodDeps = stages.find((s) => s.name === "prod-deps")!;
    expect(instruction(prodDeps, "RUN").join(" ")).toMatch(/npm ci --omit=dev/);
  });

  it("copies the files the root package's postinstall runs before each npm ci (which runs it)", () => {
    const files = packageScripts().postinstall?.match(/scripts\/\S+/g) ?? [];
    expect(files.length).toBeGreaterThan(0);
    const installing = stages.filter((s) => instruction(s, "RUN").some((l) => l.includes("npm ci")));
    expect(installing.map((s) => s.name)).toEqual(["deps", "prod-deps"]);
    for (const stage of installing) {
      const install = stage.lines.findIndex((l) => l.includes("npm ci"));
      const copied = stage.lines
        .slice(0, install)
        .filter((l) => l.startsWith("COPY "))
        .join("\n");
      for (const file of files) expect(copied, `${stage.name}: ${file}`).toContain(`COPY ${file} ./scripts/`);
    }
  });

  it("copies every workspace package's manifest before each npm ci (npm ci installs the workspace from the lock)", () => {
    const packages = readdirSync("packages", { withFileTypes: true }).filter((entry) => entry.isDirectory());
    expect(packages.length).toBeGreaterThan(0);
    for (const stage of stages.filter((s) => instruction(s, "RUN").some((l) => l.includes("npm ci")))) {
      const install = stage.lines.findIndex((l) => l.includes("npm ci"));
      const copied = stage.lines.slice(0, install).join("\n");
      for (const { name } of packages)
        expect(copied, `${stage.name}: ${name}`).toContain(`COPY packages/${name}/package.json ./packages/${name}/`);
    }
  });

  it("probes /healthz and starts with npm start, whose script execs node on the bundled host with the web GC flags", () => {
    const health = instruction(runtime, "HEALTHCHECK")[0];
    expect(health).toBeDefined();
    expect(execForm(health).join(" ")).toContain("/healthz");
    expect(execForm(instruction(runtime, "CMD")[0])).toEqual(["npm", "start"]);
    const scripts = packageScripts();
    // The flags are WEB_NODE_FLAGS, which an npm script cannot import.
    expect(scripts.start).toBe(`NODE_ENV=production exec node ${WEB_NODE_FLAGS.join(" ")} build/host/index.js`);
    expect(scripts["worker:prod"]).toBe("NODE_ENV=production exec node --disable-proto=throw build/host/worker.js");
  });

  it("gives the image's npm scripts and `portal` the bundled CLI (no tsx in the image)", () => {
    expect(imageScripts(runtime)).toEqual({
      "db:indexes": "node build/host/cli.js db:indexes",
      seed: "node build/host/cli.js seed",
    });
    expect(instruction(runtime, "COPY").join("\n")).toContain("deploy/portal /usr/local/bin/portal");
    expect(readFileSync("deploy/portal", "utf8")).toContain(`exec node "\${PORTAL_HOME:-/app}/build/host/cli.js" "$@"`);
  });
});

describe("docker-compose.yml", () => {
  it("puts an official nginx or Caddy image in front of two app replicas, and publishes no app port", () => {
    expect(services.balancer.image).toMatch(/^(nginx|caddy):/);
    expect(services.balancer.ports).toEqual(["8080:8080"]);
    expect(services.app.deploy?.replicas).toBe(2);
    expect(services.app.ports).toBeUndefined();
    expect(services.worker.ports).toBeUndefined();
    // Only the balancer and the S3 API (which presigned URLs name) are reachable from outside.
    const published = Object.entries(services)
      .filter(([, s]) => s.ports)
      .map(([name]) => name);
    expect(published.sort()).toEqual(["balancer", "minio"]);
    const nginx = readFileSync("deploy/nginx.conf", "utf8");
    expect(nginx).toMatch(/server app:3000 resolve/);
    expect(nginx).toMatch(/listen 8080;/);
    expect(nginx).toMatch(/proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;/);
  });

  it("has the balancer give an idle connection to an app replica up before the replica does", () => {
    const upstream = /\bupstream portal \{([^}]*)\}/.exec(readFileSync("deploy/nginx.conf", "utf8"))?.[1] ?? "";
    expect(upstream).toMatch(/^\s*keepalive \d+;$/m);
    const idleSeconds = Number(/^\s*keepalive_timeout (\d+)s;$/m.exec(upstream)?.[1]);
    expect(
      idleSeconds,
      "keepalive_timeout in the upstream block (nginx's own default, 60 s, is not written)",
    ).toBeGreaterThan(0);
    const app = parseConfig(serviceEnv(services.app, vars));
    expect(idleSeconds * 1000).toBeLessThan(app.httpKeepAliveTimeoutMs);
  });

  it("runs every portal service on the image with an init, and the worker's and release's own commands", () => {
    for (const name of ["app", "worker", "release"]) {
      expect(services[name].image, name).toBe("journey-portal:local");
      expect(services[name].init, name).toBe(true);
    }
    expect(services.worker.command).toEqual(["npm", "run", "worker:prod"]);
    expect(services.release.command).toEqual(["node", "build/host/cli.js", "db:indexes"]);
    expect(services.release.restart).toBe("no");
    expect(services.app.depends_on?.release).toEqual({ condition: "service_completed_successfully" });
    expect(services.worker.depends_on?.release).toEqual({ condition: "service_completed_successfully" });
    expect(services.release.depends_on?.mongo).toEqual({ condition: "service_healthy" });
    expect(services.app.depends_on?.["minio-init"]).toEqual({ condition: "service_completed_successfully" });
  });

  it("runs MongoDB 7 or 8 as a replica set of one, MinIO with its bucket created at start, each with a health check", () => {
    expect(services.mongo.image).toMatch(/^mongo:[78](\.|$)/);
    expect(services.mongo.command).toEqual(expect.arrayContaining(["--replSet", "rs0"]));
    expect(services.mongo.healthcheck?.test?.join(" ")).toContain("rs.initiate");
    expect(services.minio.image).toMatch(/^minio\/minio:/);
    expect(services.minio.healthcheck?.test).toBeDefined();
    expect(services.balancer.healthcheck?.test).toBeDefined();
    const bucket = serviceEnv(services.app, vars).S3_BUCKET;
    expect(String(services["minio-init"].command)).toContain(`mc mb --ignore-existing local/${bucket}`);
  });

  it("configures the web and worker containers with a valid configuration: one trusted proxy, several instances on S3", () => {
    for (const name of ["app", "worker", "release"]) {
      const env = serviceEnv(services[name], vars);
      const config = parseConfig(env);
      expect(config.trustProxyHops, name).toBe(1);
      expect(config.instances.multi, name).toBe(true);
      expect(config.storage).toMatchObject({
        kind: "s3",
        bucket: "journey-uploads",
        s3: { endpoint: "http://minio:9000", forcePathStyle: true, publicEndpoint: "http://localhost:9000" },
      });
      expect(config.mongodbUri, name).toBe("mongodb://mongo:27017/?replicaSet=rs0");
    }
    expect(serviceEnv(services.app, vars).WORKER_IN_PROCESS).toBe("0");
    // Without its secrets compose refuses to start, as the portal would.
    expect(() => serviceEnv(services.app, {})).toThrow(/SESSION_SECRET/);
    expect(substitute(`\${A:-x}/\${B}`, { B: "y" })).toBe("x/y");
  });
});
