import { readFileSync } from "node:fs";
import { parse } from "yaml";

/** The Dockerfile and docker-compose.yml, read as the engine would read the parts the tests check. */

export type DockerStage = { from: string; name?: string; lines: string[] };

/** Instructions with their continuation lines joined, comments dropped, grouped by stage. */
export function readDockerfile(file = "Dockerfile"): DockerStage[] {
  const joined = readFileSync(file, "utf8")
    .replace(/\\\r?\n/g, " ")
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"));
  const stages: DockerStage[] = [];
  for (const line of joined) {
    const from = /^FROM\s+(\S+)(?:\s+AS\s+(\S+))?/i.exec(line);
    if (from) stages.push({ from: from[1], name: from[2], lines: [] });
    else stages.at(-1)?.lines.push(line);
  }
  return stages;
}

/** The exec-form array of an instruction (`CMD ["npm", "start"]`, `HEALTHCHECK … CMD [...]`). */
export function execForm(line: string): string[] {
  const json = line.slice(line.indexOf("["));
  return JSON.parse(json) as string[];
}

export function instruction(stage: DockerStage, name: string): string[] {
  return stage.lines.filter((l) => l.toUpperCase().startsWith(`${name.toUpperCase()} `));
}

/** The scripts the image's `npm pkg set "scripts.x=…"` lines give package.json. */
export function imageScripts(stage: DockerStage): Record<string, string> {
  const scripts: Record<string, string> = {};
  for (const line of instruction(stage, "RUN")) {
    for (const match of line.matchAll(/"scripts\.([^=]+)=([^"]+)"/g)) scripts[match[1]] = match[2];
  }
  return scripts;
}

export type ComposeService = {
  image?: string;
  build?: unknown;
  command?: string[] | string;
  entrypoint?: string[] | string;
  environment?: Record<string, string>;
  ports?: string[];
  expose?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test?: string[]; disable?: boolean };
  deploy?: { replicas?: number };
  volumes?: string[];
  init?: boolean;
  restart?: string;
};

export function readCompose(file = "docker-compose.yml"): { services: Record<string, ComposeService> } {
  return parse(readFileSync(file, "utf8"), { merge: true }) as { services: Record<string, ComposeService> };
}

/**
 * Compose's variable substitution: ${X:-default}, ${X:?message} and ${X}, from `vars` (a missing required one
 * throws, as compose refuses to start).
 */
export function substitute(value: string, vars: Record<string, string>): string {
  return value.replace(
    /\$\{([A-Z0-9_]+)(?:(:-|:\?)([^}]*))?\}/g,
    (_, name: string, op: string | undefined, arg: string | undefined) => {
      const set = vars[name];
      if (set !== undefined && set !== "") return set;
      if (op === ":-") return arg ?? "";
      if (op === ":?") throw new Error(`${name}: ${arg}`);
      return "";
    },
  );
}

export function serviceEnv(service: ComposeService, vars: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(service.environment ?? {}).map(([k, v]) => [k, substitute(String(v), vars)]),
  );
}

/** The npm scripts of package.json. */
export function packageScripts(): Record<string, string> {
  return (JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> }).scripts;
}
